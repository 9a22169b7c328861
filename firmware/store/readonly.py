"""A journal device that reads through and refuses every write and erase:
the crash lock (firmware/cabinet/crashlock.py) shows the meters and events
of a cabinet that keeps failing without committing a byte."""
from micropython import const

_EROFS = const(30)
_ERASE = const(6)   # ioctl: erase a block (the extended block-device protocol)


class ReadOnly:
    def __init__(self, dev):
        self._dev = dev
        self.readblocks = dev.readblocks

    def writeblocks(self, *args):
        raise OSError(_EROFS)

    def ioctl(self, op, arg):
        if op == _ERASE:
            raise OSError(_EROFS)
        return self._dev.ioctl(op, arg)
