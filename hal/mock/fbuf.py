"""Minimal pure-Python stand-in for MicroPython's framebuf, CPython only.

MONO_VLSB only: fill, pixel, fill_rect, rect, hline, vline, line, text. Clipping
and the text font follow extmod/modframebuf.c so pixels match the C version
(checked by tests_host/test_hal_mock.py against the unix port).
"""
from hal.mock.font8x8 import FONT

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6


class FrameBuffer:
    def __init__(self, buf, width, height, format=MONO_VLSB, stride=None):
        if format != MONO_VLSB:
            raise ValueError("stand-in supports MONO_VLSB only")
        self._fb = buf
        self._fw = width
        self._fh = height
        self._stride = width if stride is None else stride
        if len(buf) < ((height + 7) >> 3) * self._stride:
            raise ValueError("buffer too small")

    def _set(self, x, y, c):
        i = (y >> 3) * self._stride + x
        b = 1 << (y & 7)
        if c:
            self._fb[i] |= b
        else:
            self._fb[i] &= ~b & 0xFF

    def pixel(self, x, y, c=None):
        if not (0 <= x < self._fw and 0 <= y < self._fh):
            return None
        if c is None:
            return (self._fb[(y >> 3) * self._stride + x] >> (y & 7)) & 1
        self._set(x, y, c)
        return None

    def fill(self, c):
        v = 0xFF if c else 0
        buf = self._fb
        for i in range(((self._fh + 7) >> 3) * self._stride):
            buf[i] = v

    def fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self._fh or x >= self._fw:
            return
        xend = min(self._fw, x + w)
        yend = min(self._fh, y + h)
        x = max(x, 0)
        y = max(y, 0)
        for yy in range(y, yend):
            for xx in range(x, xend):
                self._set(xx, yy, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        # Bresenham as in modframebuf.c
        dx = x2 - x1
        sx = 1 if dx > 0 else -1
        dx = abs(dx)
        dy = y2 - y1
        sy = 1 if dy > 0 else -1
        dy = abs(dy)
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                self.pixel(y1, x1, c)
            else:
                self.pixel(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        self.pixel(x2, y2, c)

    def text(self, s, x0, y0, c=1):
        for ch in s.encode():  # C iterates the UTF-8 bytes
            if ch == 0:
                break
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < self._fw:
                    col = FONT[base + j]
                    y = y0
                    while col:
                        if col & 1 and 0 <= y < self._fh:
                            self._set(x0, y, c)
                        col >>= 1
                        y += 1
                x0 += 1
