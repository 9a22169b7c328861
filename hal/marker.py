"""The provisioned mark (see Marker); its own module so a board that does not
need hal.common does not load it."""


class Marker:
    """The cabinet's "provisioned" mark, kept outside the journal region (a
    file in the filesystem, path None: in RAM for host tests): set after the
    first good boot, so a journal region found blank afterwards is a wiped
    region (CRITICAL), not a new cabinet. Only a factory reinstall of the
    filesystem removes it."""

    def __init__(self, path=None):
        self.path = path
        self._set = False

    def get(self):
        if self.path is None:
            return self._set
        try:
            open(self.path).close()
            return True
        except OSError:
            return False

    def set(self):
        self._set = True
        if self.path is not None:
            with open(self.path, "w") as f:
                f.write("journal provisioned\n")
