"""Host side of the software verification digest (CPython only, independent
of the firmware code so the two check each other).

Algorithm (same as firmware/audit/digest.py): every *.py / *.mpy file under
firmware/ and hal/ (skipping __pycache__ and dot-directories) plus boot.py and
main.py at the top; relative "/" paths sorted by code point; SHA-256 over
path + "\\n" + size + "\\n" + bytes for each file in order.

Usage: tools/digest [DIR] [--list]   (DIR defaults to the repository)
"""
import hashlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_files(root):
    out = []
    for top in ("firmware", "hal"):
        base = os.path.join(root, top)
        if not os.path.isdir(base):
            continue
        for d, dirs, files in os.walk(base):
            dirs[:] = [x for x in dirs if x != "__pycache__" and not x.startswith(".")]
            for name in files:
                if name.startswith("."):
                    continue
                if name.endswith(".py") or name.endswith(".mpy"):
                    full = os.path.join(d, name)
                    if os.path.isfile(full):
                        out.append(os.path.relpath(full, root).replace(os.sep, "/"))
    for name in ("boot.py", "main.py"):
        if os.path.isfile(os.path.join(root, name)):
            out.append(name)
    return sorted(out)


def digest(root):
    h = hashlib.sha256()
    files = release_files(root)
    for rel in files:
        with open(os.path.join(root, rel), "rb") as f:
            data = f.read()
        h.update(("%s\n%d\n" % (rel, len(data))).encode())
        h.update(data)
    return h.hexdigest(), files


def main(argv):
    args = [a for a in argv if not a.startswith("-")]
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    root = args[0] if args else ROOT
    if not os.path.isdir(root):
        print("not a directory: %s" % root, file=sys.stderr)
        return 2
    hexd, files = digest(root)
    if "--list" in argv:
        for rel in files:
            print(rel)
    print("SHA-256 %s" % hexd)
    print("files %d  root %s" % (len(files), os.path.abspath(root)))
    for i in range(0, 64, 16):  # as the cabinet shows it
        print("  " + hexd[i:i + 16])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
