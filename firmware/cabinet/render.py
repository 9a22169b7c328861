"""Screen lines -> the 128x64 frame buffer.

A line is text in framebuf's 8x8 font; the characters SCALE2 / SCALE3 switch
the rest of the line to a 2x / 3x scaled font (16 / 24 pixels: credits, the
roll total and wins read from the stool), SCALE1 switches back, DICE draws
the digits 1-6 that follow as small dice faces (a space is a narrow gap). A line is as
tall as its biggest part; smaller parts sit on its baseline. Dice are drawn
with rects: small at the top right, or large beside the result's total.
"""
from micropython import const
try:
    import framebuf
except ImportError:  # CPython: the pixel-exact stand-in
    from hal.mock import fbuf as framebuf

SCALE1 = "\x01"
SCALE2 = "\x02"
SCALE3 = "\x03"
DICE = "\x04"
_MARKS = (SCALE1, SCALE2, SCALE3, DICE)
DIE = const(19)
BIG_DIE = const(22)
WIDTH = const(128)
HEIGHT = const(64)
# pip positions (column, row) on a 3x3 grid, per face
_PIPS = (
    (),
    ((1, 1),),
    ((0, 0), (2, 2)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 0), (2, 0), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
)
DICE_X = const(86)   # two small dice at the top right (text there is <= 10 columns)
DICE_Y = const(1)
BIG_DICE_X = const(81)   # beside the result's 3x total
BIG_DICE_Y = const(9)
_GAP = const(3)      # pixels between parts of different sizes (the mark's space)

# one character at 1x, read back to draw it scaled (allocated once)
_CELL = bytearray(8)
_CELL_FB = framebuf.FrameBuffer(_CELL, 8, 8, framebuf.MONO_VLSB)


def plain(line):
    """The line as text, a scale mark read as a space (tests, the headless
    simulator): 'CR' SCALE2 '20' reads 'CR 20'."""
    for m in _MARKS:
        line = line.replace(m, " ")
    return line


def scale_of(line):
    """The biggest scale used in a line (its height is 8 times that)."""
    if SCALE3 in line:
        return 3
    if SCALE2 in line:
        return 2
    return 1  # DICE faces are 7 pixels: a 1x line


def big_text(fb, s, x, y, k, c=1):
    """`s` in the 8x8 font scaled k times, top left at (x, y)."""
    for ch in s:
        _CELL_FB.fill(0)
        _CELL_FB.text(ch, 0, 0, 1)
        for col in range(8):
            bits = _CELL[col]
            row = 0
            while bits:
                if bits & 1:
                    fb.fill_rect(x + col * k, y + row * k, k, k, c)
                bits >>= 1
                row += 1
        x += 8 * k


def draw_line(fb, line, y, c):
    """One line (scale marks inside) with its baseline at y + its height."""
    h = 8 * scale_of(line)
    x = 0
    k = 1
    start = 0
    n = len(line)
    for i in range(n + 1):
        ch = line[i] if i < n else SCALE1
        if ch in _MARKS:
            if i > start:
                part = line[start:i]
                if k == 1:
                    fb.text(part, x, y + h - 8, c)
                    x += 8 * len(part) + _GAP
                elif k == 4:
                    x = mini_dice(fb, part, x, y + h - 8, c)
                else:
                    big_text(fb, part, x, y + h - 8 * k, k, c)
                    x += 8 * k * len(part) + _GAP
            k = _MARKS.index(ch) + 1
            start = i + 1
    return h


def mini_dice(fb, faces, x, y, c):
    """Digits 1-6 as 7x7 dice faces (pips one pixel), a space as a 4-pixel
    gap; returns the x after them."""
    for ch in faces:
        f = ord(ch) - 48
        if 1 <= f <= 6:
            fb.rect(x, y, 7, 7, c)
            for cx, cy in _PIPS[f]:
                fb.pixel(x + 1 + 2 * cx, y + 1 + 2 * cy, c)
            x += 8
        else:
            x += 4
    return x


def draw_die(fb, x, y, face, size=DIE):
    fb.fill_rect(x, y, size, size, 0)
    fb.rect(x, y, size, size, 1)
    pip, step = (3, 5) if size < BIG_DIE else (4, 6)
    edge = (size - 2 * step - pip + 1) // 2
    if 1 <= face <= 6:
        for cx, cy in _PIPS[face]:
            fb.fill_rect(x + edge + cx * step, y + edge + cy * step, pip, pip, 1)
    else:  # unreadable: a cross
        fb.line(x + 3, y + 3, x + size - 4, y + size - 4, 1)
        fb.line(x + size - 4, y + 3, x + 3, y + size - 4, 1)


def draw(fb, lines, dice=None, invert=-1):
    """Draw lines top to bottom; `dice` (d1, d2) draws two small dice top
    right, (d1, d2, 1) two large ones under the first line; `invert`
    highlights that line (index)."""
    fb.fill(0)
    y = 0
    for i in range(len(lines)):
        line = lines[i]
        if y >= HEIGHT:
            break
        if i == invert:
            h = 8 * scale_of(line)
            fb.fill_rect(0, y, WIDTH, h, 1)
            y += draw_line(fb, line, y, 0)
        else:
            y += draw_line(fb, line, y, 1)
    if dice is not None:
        if len(dice) > 2:
            draw_die(fb, BIG_DICE_X, BIG_DICE_Y, dice[0], BIG_DIE)
            draw_die(fb, BIG_DICE_X + BIG_DIE + 3, BIG_DICE_Y, dice[1], BIG_DIE)
        else:
            draw_die(fb, DICE_X, DICE_Y, dice[0])
            draw_die(fb, DICE_X + DIE + 3, DICE_Y, dice[1])
