"""The running program image in the Pico's flash, for Verify software.

The image is what the UF2 wrote from XIP_BASE: boot2, MicroPython, the frozen
cabinet. Its end is the pico-sdk binary-info entry RP_BINARY_END
(__flash_binary_end), found through the binary-info header the SDK puts in the
first 256 bytes after boot2. tools/digest finds the same end in the UF2, so
both hash the same bytes. Read through uctypes: a view, no copy.
"""
import struct
import uctypes
from micropython import const

XIP_BASE = const(0x10000000)
FLASH_SIZE = const(2 * 1024 * 1024)
_SCAN = const(1024)
_MARK_START = 0x7188EBF2
_MARK_END = 0xE71AA390
_ID_AND_INT = const(5)
_RP_BINARY_END = 0x68F465DE


def _u32(buf, off):
    return struct.unpack_from("<I", buf, off)[0]


def binary_end():
    """Address just past the image, or None when the binary info is absent."""
    head = uctypes.bytearray_at(XIP_BASE, _SCAN)
    for off in range(0, _SCAN - 20, 4):
        if _u32(head, off) == _MARK_START and _u32(head, off + 16) == _MARK_END:
            start, end = _u32(head, off + 4), _u32(head, off + 8)
            if not XIP_BASE <= start <= end <= XIP_BASE + FLASH_SIZE:
                return None
            ptrs = uctypes.bytearray_at(start, end - start)
            for i in range(0, end - start, 4):
                p = _u32(ptrs, i)
                if not XIP_BASE <= p < XIP_BASE + FLASH_SIZE - 12:
                    continue  # an entry copied to RAM: not ours
                e = uctypes.bytearray_at(p, 12)
                if struct.unpack_from("<H", e, 0)[0] == _ID_AND_INT and _u32(e, 4) == _RP_BINARY_END:
                    last = _u32(e, 8)
                    return last if XIP_BASE < last <= XIP_BASE + FLASH_SIZE else None
            return None
    return None


def image():
    """The image bytes (a view of flash), or None if its end is not known."""
    end = binary_end()
    if end is None:
        return None
    return memoryview(uctypes.bytearray_at(XIP_BASE, end - XIP_BASE))
