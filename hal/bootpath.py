"""Import path of a board release: the frozen modules only.

The ports start with sys.path = ['', '.frozen', '/lib']: a file on the
filesystem then shadows a frozen cabinet module, and (because MicroPython
looks for "extensible" built-ins such as hashlib, time, struct, os, binascii
on sys.path before taking the built-in) a hashlib.py would even shadow the
hash Verify uses. A release runs main.py and boot.py from the filesystem
(executed, not imported) and imports nothing from it, so the frozen _boot.py
leaves '.frozen' alone on the path. Verify still lists any stray file.
"""


def frozen_only(path):
    """Makes `path` (sys.path) hold only '.frozen'."""
    path.clear()
    path.append(".frozen")


def release_path(path):
    """'.frozen' only when the image holds the cabinet (the release image);
    an image that freezes only the boot code (the rp2 .mpy development
    variant) keeps the port's path, its cabinet code being on the filesystem.
    Returns True when the path was restricted."""
    saved = list(path)
    frozen_only(path)
    try:
        import firmware  # noqa: F401  (frozen only in the release image)
        return True
    except ImportError:
        path.clear()
        path.extend(saved)
        return False
