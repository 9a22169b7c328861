"""The provisioned mark and the journal's anchor (see Marker); its own module
so a board that does not need hal.common does not load it."""


class Marker:
    """Kept outside the journal region (a file in the filesystem; path None:
    in RAM for host tests). Set after the first good boot, so a journal
    region found blank afterwards is a wiped region (CRITICAL), not a new
    cabinet; only a factory reinstall of the filesystem removes it.

    It also holds the anchor: the first sequence number of the journal
    sector the newest commit went to, rewritten each time the journal moves
    to another sector (every ~100 records). A region whose newest entry is
    older than the anchor was rolled back or lost its newest sector in both
    copies: CRITICAL, not an older state shown as current."""

    def __init__(self, path=None):
        self.path = path
        self._set = False
        self._anchor = 0

    def get(self):
        if self.path is None:
            return self._set
        try:
            open(self.path).close()
            return True
        except OSError:
            return False

    def anchor(self):
        """The anchor, 0 if none (a mark from before the anchor, or torn)."""
        if self.path is None:
            return self._anchor
        try:
            with open(self.path) as f:
                for line in f:
                    if line.startswith("anchor "):
                        return int(line[7:])
        except (OSError, ValueError):
            pass
        return 0

    def set(self, anchor=0):
        self._set = True
        self._anchor = anchor
        if self.path is not None:
            with open(self.path, "w") as f:
                f.write("journal provisioned\nanchor %d\n" % anchor)
