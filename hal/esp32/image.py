"""The running app image on an ESP32, for Verify software.

The app partition holds the image esptool wrote (ESP-IDF app format: a
24-byte header with the segment count and, at byte 23, whether a SHA-256 is
appended; then each segment as load address, length, data; a checksum byte
closing a 16-byte block; the optional 32-byte SHA-256). Its length is walked
from those headers, so the rest of the partition (old data) is not hashed;
tools/digest walks micropython.bin the same way. Flash is not memory-mapped
for Python here: `Image` reads it through the partition in small pieces.
"""
import struct
from micropython import const

_MAGIC = const(0xE9)
_HEADER = const(24)
_SEGMENT = const(8)
_BLOCK = const(4096)
_SHA_LEN = const(32)


class Image:
    """len(image) and image[a:b] (b - a <= buffer size), read from `part`
    (an esp32.Partition with 4096-byte blocks)."""

    def __init__(self, part, length, chunk=512):
        self._part = part
        self._len = length
        self._buf = bytearray(chunk)
        self._mv = memoryview(self._buf)

    def __len__(self):
        return self._len

    def __getitem__(self, s):
        n = s.stop - s.start
        if n > len(self._buf):
            raise ValueError("slice longer than the read buffer")
        _read(self._part, s.start, self._mv[:n])
        return self._mv[:n]


def _read(part, pos, mv):
    """Reads len(mv) bytes at byte `pos`, across a block boundary if needed."""
    done = 0
    while done < len(mv):
        block, off = divmod(pos + done, _BLOCK)
        n = min(len(mv) - done, _BLOCK - off)
        part.readblocks(block, mv[done:done + n], off)
        done += n


def app_length(part):
    """Bytes of the app image at the start of `part`, or None if none is there."""
    head = bytearray(_HEADER)
    _read(part, 0, memoryview(head))
    if head[0] != _MAGIC:
        return None
    pos = _HEADER
    seg = bytearray(_SEGMENT)
    size = part.ioctl(4, 0) * _BLOCK
    for _ in range(head[1]):
        _read(part, pos, memoryview(seg))
        pos += _SEGMENT + struct.unpack_from("<I", seg, 4)[0]
        if pos > size:
            return None
    pos = (pos | 15) + 1  # checksum byte closes the 16-byte block
    if head[23] == 1:
        pos += _SHA_LEN
    return pos if pos <= size else None


def image():
    """The running app image, or None."""
    import esp32
    # the stub takes only a label; esp32_partition.c takes RUNNING too
    # (tests_host/test_port_signatures.py checks the call against the C source)
    part = esp32.Partition(esp32.Partition.RUNNING)  # pyright: ignore[reportArgumentType]
    n = app_length(part)
    return None if n is None else Image(part, n)
