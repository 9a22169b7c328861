"""Does a screen fit the 128x64 display? Shared by the tests that build
screens (no tests here; CPython and the MicroPython unix port).

A 1x line is at most 16 characters; a line with 2x/3x digits or dice is drawn by
render.draw_line into a frame buffer twice the display's width and must
leave every pixel right of 128 dark; the lines fit the 64 pixel rows.
"""
from firmware.cabinet import render

try:
    import framebuf
except ImportError:
    from hal.mock import fbuf as framebuf

_WIDE = 256
_ROW = bytearray(_WIDE * 3)
_FB = framebuf.FrameBuffer(_ROW, _WIDE, 24, framebuf.MONO_VLSB)


def _drawn(line):
    """(pixel rows, a pixel lit right of x 127) of a line drawn by render
    (MONO_VLSB: a byte is 8 rows of one column)."""
    _FB.fill(0)
    height = render.draw_line(_FB, line, 0, 1)
    for page in range(3):
        if any(_ROW[page * _WIDE + 128:(page + 1) * _WIDE]):
            return height, True
    return height, False


def fits(lines, where=""):
    """Asserts that `lines` fit the display."""
    assert len(lines) <= 8, (where, lines)
    rows = 0
    for line in lines:
        if "\x02" in line or "\x03" in line or "\x04" in line:   # 2x/3x digits, dice
            height, over = _drawn(line)
            rows += height
            assert not over, (where, line)
        else:
            rows += 8
            assert len(line) <= 16, (where, line)
    assert rows <= 64, (where, lines)
