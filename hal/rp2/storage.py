"""Flash layout on the Pico: littlefs below, then the raw generation log
(firmware/store/generation.py), the raw journal region on top.

rp2.Flash() covers MicroPython's whole storage area (1408 KiB on a stock Pico
build). We split it: the filesystem gets [0, FS_LEN), the generation log the
GENERATION_LEN bytes above it and the journal the last JOURNAL_LEN bytes. The
log is apart from both so that a dump of the journal and the filesystem
written back does not take it back too. See hal/REFERENCE.md: the stock frozen _boot.py formats the
whole area whenever it cannot mount it, which is always the case once littlefs
lives on the smaller range, so the firmware must be built with hal/rp2/_boot.py
frozen in place of the port's (hal/rp2/manifest.py).
"""
import rp2
import vfs
from micropython import const

BLOCK = const(4096)
JOURNAL_LEN = const(256 * 1024)
GENERATION_LEN = const(32 * 1024)   # 8 sectors: one erase a sector per 4,096 commits


def total_len():
    blocks = rp2.Flash().ioctl(4, 0)
    if not blocks:
        raise OSError(19)  # ENODEV
    return blocks * BLOCK


def fs_len():
    return total_len() - JOURNAL_LEN - GENERATION_LEN


def fs_device():
    return rp2.Flash(start=0, len=fs_len())


def journal_device():
    return rp2.Flash(start=total_len() - JOURNAL_LEN, len=JOURNAL_LEN)


def generation_device():
    return rp2.Flash(start=fs_len(), len=GENERATION_LEN)


def mount_fs(format_if_needed):
    """Mount littlefs on the lower range at '/'. Returns True if mounted.

    If it does not mount (first boot after moving to this layout, or a broken
    filesystem) it is formatted only when format_if_needed is true. The
    journal region is never touched here.
    """
    dev = fs_device()
    try:
        fs = vfs.VfsLfs2(dev, progsize=256)
    except OSError:
        if not format_if_needed:
            return False
        vfs.VfsLfs2.mkfs(dev, progsize=256)
        fs = vfs.VfsLfs2(dev, progsize=256)
    vfs.mount(fs, "/")
    return True
