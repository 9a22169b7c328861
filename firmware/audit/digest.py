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
  shown as 64 lowercase hex digits. Shell equivalent (in the release root):
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
    -> DONE (hexdigest set) or FAILED (error set)."""

    def __init__(self, root="."):
        self.root = root
        self.state = LISTING
        self.hexdigest = None
        self.error = ""
        self.files = []      # (rel path, size)
        self.total = 0       # bytes to hash
        self.done_bytes = 0
        self.index = 0       # next file to hash
        self._dirs = [t for t in TOPS if _is_dir(_join(root, t))]
        for name in FILES:
            size = _size(_join(root, name))
            if size >= 0:
                self.files.append((name, size))
                self.total += size
        self._h = hashlib.sha256()
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
            self.state = HASHING
            return
        rel = self._dirs.pop()
        base = _join(self.root, rel)
        for name in _names(base):
            if name.startswith(".") or name == "__pycache__":
                continue
            sub = rel + "/" + name
            full = base + "/" + name
            if _is_dir(full):
                self._dirs.append(sub)
            elif _wanted(name):
                size = _size(full)
                if size >= 0:
                    self.files.append((sub, size))
                    self.total += size

    def _hash_one(self):
        """Hashes one block; True when everything is done."""
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
