"""The large digits (render's 2x and 3x parts): a 5x7 face scaled k times,
narrower than the 8x8 font scaled, so that $99,999.99 with its label, or a
win with WINNER before it, fits the 128 pixels at 2x. Characters it has no
face for are drawn from the 8x8 font, scaled.

One byte a column, bit 0 the top row; '.' ',' ':' and ' ' are narrow.
"""
from micropython import const

CHARS = "0123456789+-$.,: "
_FACES = (b"\x3e\x41\x41\x41\x3e" b"\x00\x42\x7f\x40\x00" b"\x42\x61\x51\x49\x46"
          b"\x21\x41\x45\x4b\x31" b"\x18\x14\x12\x7f\x10" b"\x27\x45\x45\x45\x39"
          b"\x3c\x4a\x49\x49\x30" b"\x01\x71\x09\x05\x03" b"\x36\x49\x49\x49\x36"
          b"\x06\x49\x49\x29\x1e" b"\x08\x08\x3e\x08\x08" b"\x08\x08\x08\x08\x08"
          b"\x24\x2a\x7f\x2a\x12" b"\x60\x60\x00\x00\x00" b"\x50\x30\x00\x00\x00"
          b"\x36\x36\x00\x00\x00" b"\x00\x00\x00\x00\x00")
_NARROW = const(13)     # CHARS from here on are 2 columns wide, the rest 5
_FONT8 = const(8)       # a character without a face: the 8x8 font's width


def columns(ch):
    """(face bytes, columns) of a character, or (None, 8): the 8x8 font's."""
    i = CHARS.find(ch)
    if i < 0 or len(ch) != 1:
        return None, _FONT8
    return _FACES[5 * i:5 * i + 5], 5 if i < _NARROW else 2


def width(s, k):
    """Pixels `s` takes at scale k, a column of space after each character
    but the last."""
    w = 0
    for j in range(len(s)):
        w += (columns(s[j:j + 1])[1] + 1) * k
    return w - k if w else 0
