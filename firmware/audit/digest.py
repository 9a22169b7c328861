"""Software verification digest, computed in small steps.

Algorithm (tools/digest implements it independently on the host):
  files  = every regular file whose name ends in ".py" or ".mpy" under the
           directories "firmware" and "hal" (recursively; directories named
           "__pycache__" or starting with "." are skipped), plus "boot.py" and
           "main.py" at the top when present;
  paths  = relative to the release root, "/" separators, sorted by code point
           (byte order for ASCII names);
  digest = SHA-256 over, for each path in order:
               path + "\\n" + decimal size in bytes + "\\n" (UTF-8), then the
               file's bytes;
  shown as 64 lowercase hex digits.

A board release (Digest(root, image, release)): the running firmware image
first, as "image" + "\n" + size + "\n" + its bytes (rp2: flash from
0x10000000 to the SDK's binary end, hal.image.read()), then the release's
filesystem files (firmware.release.FS_FILES) as above. The whole filesystem is
listed: any other file is reported in `extras` (it changes nothing that runs:
sys.path holds only '.frozen', but it was not installed by the release), except
the files the cabinet writes itself (firmware.release.STATE_FILES).
tools/digest FILE.uf2 computes the same from the UF2 and the release tree.

Shell equivalent of the tree digest (in the release root):
    find firmware hal -type d \\( -name __pycache__ -o -name '.*' \\) -prune -o \\
      -type f \\( -name '*.py' -o -name '*.mpy' \\) -print |
      { cat; ls boot.py main.py 2>/dev/null; } | LC_ALL=C sort |
      while read -r f; do printf '%s\\n%s\\n' "$f" "$(stat -c %s "$f")"; cat "$f"; done |
      sha256sum
"""
import hashlib
import os
from micropython import const

TOPS = ("firmware", "hal")
FILES = ("boot.py", "main.py")
CHUNK = const(512)
_DIR = const(0x4000)

LISTING = const(0)
HASHING = const(1)
DONE = const(2)
FAILED = const(3)


def _join(root, rel):
    if root in ("", "."):
        return rel
    return root.rstrip("/") + "/" + rel


def _is_dir(path):
    try:
        return (os.stat(path)[0] & 0xF000) == _DIR
    except OSError:
        return False


def _size(path):
    try:
        st = os.stat(path)
    except OSError:
        return -1
    if (st[0] & 0xF000) == _DIR:
        return -1
    return st[6]


def _names(path):
    ild = getattr(os, "ilistdir", None)
    if ild is not None:
        return [e[0] for e in ild(path)]
    return os.listdir(path)


def _wanted(name):
    return name.endswith(".py") or name.endswith(".mpy")


def _hex(data):
    return "".join("%02x" % b for b in data)


class Digest:
    """step() does a bounded amount of work; `state` goes LISTING -> HASHING
    -> DONE (hexdigest set) or FAILED (error set). `extras`: files found
    that the release does not install (release mode only)."""

    def __init__(self, root=".", image=None, release=None, hasher=None, own=()):
        self.root = root
        self.state = LISTING
        self.hexdigest = ""  # set when DONE
        self.error = ""
        self.files = []      # (rel path, size)
        self.extras = []     # rel paths on the filesystem outside the release
        self.total = 0       # bytes to hash
        self.done_bytes = 0
        self.index = 0       # next file to hash
        self.release = release
        self.own = own       # files the cabinet writes itself: neither hashed nor strays
        self._image = image
        self._ipos = 0
        if release is None:
            self._dirs = [t for t in TOPS if _is_dir(_join(root, t))]
            names = FILES
        else:
            self._dirs = [""]
            names = release
            if image is not None:
                self.total += len(image)
        for name in names:
            size = _size(_join(root, name))
            if size >= 0:
                self.files.append((name, size))
                self.total += size
        # hasher: anything with update()/digest(); SAS's ROM signature passes
        # a seeded CRC-16 to cover the same bytes (firmware/sas/commands.py)
        self._h = hasher if hasher is not None else hashlib.sha256()
        if image is not None:
            self._h.update(("image\n%d\n" % len(image)).encode())
        self._f = None
        self._buf = bytearray(CHUNK)
        self._mv = memoryview(self._buf)
        self._left = 0

    def finished(self):
        return self.state >= DONE

    def percent(self):
        if self.state == LISTING:
            return 0
        if self.state != HASHING:
            return 100
        return self.done_bytes * 100 // self.total if self.total else 99

    def step(self, chunks=1):
        """Lists one directory or hashes up to `chunks` blocks of CHUNK bytes.
        Returns True once finished (DONE or FAILED)."""
        try:
            if self.state == LISTING:
                self._list_one()
            elif self.state == HASHING:
                for _ in range(chunks):
                    if self._hash_one():
                        break
        except Exception as exc:
            self._fail("%s %s" % (self.files[self.index][0] if self.state == HASHING
                                  and self.index < len(self.files) else "list", exc))
        return self.state >= DONE

    def run(self):
        while not self.step(64):
            pass
        return self.hexdigest

    def _fail(self, msg):
        self.state = FAILED
        self.error = msg
        self._close()

    def _close(self):
        if self._f is not None:
            try:
                self._f.close()
            except Exception:
                pass
            self._f = None

    def _list_one(self):
        if not self._dirs:
            self.files.sort()
            self.extras.sort()
            self.state = HASHING
            return
        rel = self._dirs.pop()
        base = _join(self.root, rel) if rel else self.root
        for name in _names(base):
            sub = rel + "/" + name if rel else name
            full = base.rstrip("/") + "/" + name
            if self.release is not None:  # the whole filesystem: report strays
                if _is_dir(full):
                    self._dirs.append(sub)
                elif sub not in self.release and sub not in self.own:
                    self.extras.append(sub)
                continue
            if name.startswith(".") or name == "__pycache__":
                continue
            if _is_dir(full):
                self._dirs.append(sub)
            elif _wanted(name):
                size = _size(full)
                if size >= 0:
                    self.files.append((sub, size))
                    self.total += size

    def _hash_one(self):
        """Hashes one block; True when everything is done."""
        img = self._image
        if img is not None and self._ipos < len(img):
            end = min(self._ipos + CHUNK, len(img))
            self._h.update(img[self._ipos:end])
            self.done_bytes += end - self._ipos
            self._ipos = end
            return False
        if self._f is None:
            if self.index >= len(self.files):
                self.hexdigest = _hex(self._h.digest())
                self.state = DONE
                return True
            rel, size = self.files[self.index]
            self._h.update(("%s\n%d\n" % (rel, size)).encode())
            self._f = open(_join(self.root, rel), "rb")
            self._left = size
            return False
        n = self._f.readinto(self._buf)
        if not n:
            self._close()
            if self._left:
                raise OSError("file shrank")
            self.index += 1
            return False
        if n > self._left:
            raise OSError("file grew")
        self._left -= n
        self.done_bytes += n
        self._h.update(self._mv[:n])
        return False


def compute(root="."):
    """The digest in one go (host tests, tools); None if a file failed."""
    return Digest(root).run()


def for_board(root=".", hasher=None):
    """What Verify hashes here: on a board with a readable image, the image
    plus the release's filesystem files (strays reported); elsewhere (host,
    simulator) the release tree."""
    from hal import image as running
    image = running.read()
    if image is None:
        return Digest(root, hasher=hasher)
    from firmware import release
    return Digest(root, image, release.FS_FILES, hasher, release.STATE_FILES)
