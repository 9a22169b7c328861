"""Where the project's shared material is: the one rule every tool and test uses.

`shared/` holds the rule documents (seeds/), the checked notes (notes/) and
the emulator's material (rp2-emu/: MicroPython's rp2 source tarball, the
RP2040 boot ROM, the reference harness). It is $BUBBLECRAPS_SHARED when that
is set, else the folder named `shared` beside the clone or beside one of the
folders above it (a worktree one level further down finds the same one).

    python3 tools/sharedpath.py [rp2-emu]    prints the folder, exit 1 if none
(the node harness asks this way, so it follows the same rule).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = "BUBBLECRAPS_SHARED"
TARBALL = "micropython-1.28.0-rp2-src.tar.xz"
BOOTROM = "bootrom_b1.bin"


def shared_dir():
    """The shared folder, or None when there is none."""
    env = os.environ.get(ENV)
    if env:
        return env if os.path.isdir(env) else None
    d = ROOT
    while True:
        cand = os.path.join(os.path.dirname(d), "shared")
        if os.path.isdir(cand):
            return cand
        up = os.path.dirname(d)
        if up == d:
            return None
        d = up


def rp2_emu(*needed):
    """shared/rp2-emu if it holds every file in `needed`, else None."""
    base = shared_dir()
    if base is None:
        return None
    emu = os.path.join(base, "rp2-emu")
    if os.path.isdir(emu) and all(os.path.isfile(os.path.join(emu, n)) for n in needed):
        return emu
    return None


def micropython_source():
    """MicroPython's source for the rp2 build and the port signatures:
    $MICROPYTHON_SRC (a tarball or a checkout) when set, else the shared
    tarball; None when neither is there."""
    env = os.environ.get("MICROPYTHON_SRC")
    if env:
        path = os.path.join(env, TARBALL) if os.path.isfile(os.path.join(env, TARBALL)) else env
        return path if os.path.exists(path) else None
    emu = rp2_emu(TARBALL)
    return os.path.join(emu, TARBALL) if emu else None


def missing_note():
    """One line for a skipped emulator stage or test: what is not there."""
    env = os.environ.get(ENV)
    looked = "%s=%s" % (ENV, env) if env else \
        "shared/ beside the clone and the folders above it; %s points elsewhere" % ENV
    return "rp2-emu/ (%s, %s) not found (%s)" % (TARBALL, BOOTROM, looked)


if __name__ == "__main__":
    found = rp2_emu() if sys.argv[1:] == ["rp2-emu"] else shared_dir()
    if found is None:
        sys.exit(1)
    print(os.path.abspath(found))
