"""Screen lines -> the 128x64 frame buffer (8 rows of 16 characters).

framebuf.text draws the built-in 8x8 font; dice are drawn with rects.
"""
from micropython import const

DIE = const(19)
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
DICE_X = const(86)   # two dice at the top right (text there is <= 10 columns)
DICE_Y = const(1)


def draw_die(fb, x, y, face):
    fb.fill_rect(x, y, DIE, DIE, 0)
    fb.rect(x, y, DIE, DIE, 1)
    if 1 <= face <= 6:
        for cx, cy in _PIPS[face]:
            fb.fill_rect(x + 3 + cx * 5, y + 3 + cy * 5, 3, 3, 1)
    else:  # unreadable: a cross
        fb.line(x + 3, y + 3, x + DIE - 4, y + DIE - 4, 1)
        fb.line(x + DIE - 4, y + 3, x + 3, y + DIE - 4, 1)


def draw(fb, lines, dice=None, invert=-1):
    """Draw up to 8 lines; `dice` (d1, d2) draws two dice top right;
    `invert` highlights one row."""
    fb.fill(0)
    y = 0
    for line in lines:
        if y == invert * 8:
            fb.fill_rect(0, y, 128, 8, 1)
            fb.text(line, 0, y, 0)
        else:
            fb.text(line, 0, y, 1)
        y += 8
        if y >= 64:
            break
    if dice is not None:
        draw_die(fb, DICE_X, DICE_Y, dice[0])
        draw_die(fb, DICE_X + DIE + 3, DICE_Y, dice[1])
