"""Screen lines -> the 128x64 frame buffer.

A line is text in framebuf's 8x8 font; the characters "\x02" / "\x03" switch
the rest of the line to 2x / 3x large digits (firmware/cabinet/bigfont.py,
14 / 21 pixels tall: credits, the countdown, the roll total and wins read
from the stool), "\x01" switches back, "\x04" draws the digits 1-6 that
follow as 10x10 dice (a space is a narrow gap). A line is as tall as its
biggest part; smaller parts sit on its baseline. Dice are drawn
with rects: small at the top right, or large beside the result's total.
"""
from micropython import const
try:
    import framebuf
except ImportError:  # CPython: the pixel-exact stand-in
    from hal.mock import fbuf as framebuf
from firmware.cabinet import bigfont as BF

# The marks "\x01" (1x) "\x02" (2x) "\x03" (3x) "\x04" (dice) are written as
# literals where screens are built: a named constant would cost a qstr.
DIE = const(19)
_FACE = const(10)    # a die of a dice line ("\x04"): 2x2 pips a pixel apart
_BIG_DIE = const(22)
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
_BIG_DICE_X = const(81)  # beside the result's 3x total
_BIG_DICE_Y = const(9)
_WIDTH = const(128)
_HEIGHT = const(64)
_GAP = const(3)      # pixels between parts of different sizes (the mark's space)

# one character at 1x, read back to draw it scaled (allocated once). Lines
# are sliced, never indexed or iterated: MicroPython interns every one-char
# string that indexing makes, for good, in its qstr pools.
_CELL_BITS = bytearray(8)
_CELL = framebuf.FrameBuffer(_CELL_BITS, 8, 8, framebuf.MONO_VLSB)


def big_text(display, s, x, y, k, c=1):
    """`s` scaled k times, top left at (x, y): digits and money signs in the
    5x7 large-digit face (firmware/cabinet/bigfont.py), anything else in
    the 8x8 font."""
    buf, cell = _CELL_BITS, _CELL
    for j in range(len(s)):
        ch = s[j:j + 1]
        face, cols = BF.columns(ch)
        if face is None:
            cell.fill(0)
            cell.text(ch, 0, 0, 1)
            face = buf
        for col in range(cols):
            bits = face[col]
            row = 0
            while bits:
                if bits & 1:
                    display.fill_rect(x + col * k, y + row * k, k, k, c)
                bits >>= 1
                row += 1
        x += (cols + 1) * k


def draw_line(display, line, y, c):
    """One line (scale marks inside) with its baseline at y + its height
    (8 times the biggest scale in it; dice faces are 7 pixels: 1x)."""
    h = 24 if "\x03" in line else (16 if "\x02" in line else (_FACE + 1 if "\x04" in line else 8))
    x = 0
    k = 1
    start = 0
    n = len(line)
    while start <= n:
        end = n
        for m in "\x01\x02\x03\x04":
            i = line.find(m, start)
            if 0 <= i < end:
                end = i
        part = line[start:end]
        if part:
            if k == 1:
                display.text(part, x, y + h - 8, c)
                x += 8 * len(part) + _GAP
            elif k == 4:
                for f in part.encode():  # ints: nothing interned
                    if 49 <= f <= 54:  # '1'..'6': a lit face, dark pips of 2x2
                        top = y + h - _FACE - 1
                        display.fill_rect(x, top, _FACE, _FACE, c)
                        for cx, cy in _PIPS[f - 48]:
                            display.fill_rect(x + 1 + 3 * cx, top + 1 + 3 * cy, 2, 2, 1 - c)
                        x += _FACE + 1
                    else:
                        x += 4
            else:
                big_text(display, part, x, y + h - 8 * k, k, c)
                x += BF.width(part, k) + _GAP
        if end < n:
            k = "\x01\x02\x03\x04".find(line[end:end + 1]) + 1
        start = end + 1
    return h


def draw_die(display, x, y, face, size=DIE):
    display.fill_rect(x, y, size, size, 0)
    display.rect(x, y, size, size, 1)
    pip, step = (3, 5) if size < _BIG_DIE else (4, 6)
    edge = (size - 2 * step - pip + 1) // 2
    if 1 <= face <= 6:
        for cx, cy in _PIPS[face]:
            display.fill_rect(x + edge + cx * step, y + edge + cy * step, pip, pip, 1)
    else:  # unreadable: a cross
        display.line(x + 3, y + 3, x + size - 4, y + size - 4, 1)
        display.line(x + size - 4, y + 3, x + 3, y + size - 4, 1)


def draw(display, lines, dice=None, invert=-1, serve=None):
    """Draw lines top to bottom; `dice` (d1, d2) draws two small dice top
    right, (d1, d2, 1) two large ones under the first line; `invert`
    highlights that line (index). `serve()` runs after each line (a whole
    screen of big digits is ~10 ms on an RP2040: the controller answers SAS
    in between)."""
    display.fill(0)
    y = 0
    for i in range(len(lines)):
        line = lines[i]
        if y >= _HEIGHT:
            break
        if i == invert:
            display.fill_rect(0, y, _WIDTH, 8, 1)  # the highlighted line is a 1x line
            y += draw_line(display, line, y, 0)
        else:
            y += draw_line(display, line, y, 1)
        if serve is not None:
            serve()
    if dice is not None:
        if len(dice) > 2:
            draw_die(display, _BIG_DICE_X, _BIG_DICE_Y, dice[0], _BIG_DIE)
            draw_die(display, _BIG_DICE_X + _BIG_DIE + 3, _BIG_DICE_Y, dice[1], _BIG_DIE)
        else:
            draw_die(display, DICE_X, DICE_Y, dice[0])
            draw_die(display, DICE_X + DIE + 3, DICE_Y, dice[1])
