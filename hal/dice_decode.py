"""Dice sensing: raw hall-sensor codes -> faces. Platform-free.

Layout (see hal/REFERENCE.md): the dome floor has two seats, one per die. Under
each seat are three digital hall sensors A, B, C (bit 0, 1, 2 of a die's code).
Each die carries small magnets behind its faces so that the face resting on the
floor (the bottom face b) presents the 3-bit magnet pattern b (A = 1, B = 2,
C = 4): bottom 1 = A, 2 = B, 3 = A+B, 4 = C, 5 = A+C, 6 = B+C. Opposite faces
sum to 7, so the upper face is 7 - b, and opposite faces carry complementary
patterns. Sensors are open-drain, active low (magnet -> 0 V); the board code
inverts the pins so that 1 = magnet.

Code 0 (no magnet under any sensor) means the die is not seated: cocked,
still moving, or missing. Code 7 (all three) cannot come from a seated die: a
stuck sensor or a short. Both decode to 0 = unreadable.

Raw pair mask: bits 0-2 die 1 (A, B, C), bits 3-5 die 2 (A, B, C).
"""
from micropython import const

from hal.ticks import ticks_diff

_UNREADABLE = const(0)
_CODE_BITS = const(3)
_CODE_MASK = const(7)

# index = code (1 = magnet under sensor), value = upper face, 0 = unreadable
FACE_OF_CODE = b"\x00\x06\x05\x04\x03\x02\x01\x00"
# index = upper face, value = code seen by the sensors (index 0 unused)
_CODE_OF_FACE = const(b"\x00\x06\x05\x04\x03\x02\x01")


def decode(code):
    """3-bit code -> face 1..6, or 0 if the code is invalid."""
    return FACE_OF_CODE[code & _CODE_MASK]


def decode_pair(raw6):
    """6-bit pair mask -> (d1, d2)."""
    return FACE_OF_CODE[raw6 & _CODE_MASK], FACE_OF_CODE[(raw6 >> _CODE_BITS) & _CODE_MASK]


def encode_pair(d1, d2):
    """(d1, d2) faces -> 6-bit pair mask (0 for an unreadable die)."""
    c1 = _CODE_OF_FACE[d1] if 1 <= d1 <= 6 else 0
    c2 = _CODE_OF_FACE[d2] if 1 <= d2 <= 6 else 0
    return c1 | (c2 << _CODE_BITS)


class Dice:
    """`read()` samples `read_raw()` (6-bit pair mask, 1 = magnet) and decodes.

    One call is one sample. Dice settle for a while after the shaker stops and
    the sensors can flicker then; callers must require the same reading over a
    settle window before accepting an outcome (see `settled()`).
    """

    def __init__(self, read_raw):
        self._read_raw = read_raw

    def read(self):
        return decode_pair(self._read_raw())


class Settler:
    """Accept a reading only once it has stayed identical for `stable_ms`.

    update(pair, now_ms) -> the stable (d1, d2) or None while still settling.
    A stable reading may contain 0 (cocked die): the caller voids the roll.
    """

    def __init__(self, stable_ms):
        self.stable_ms = stable_ms
        self._last = None
        self._since = 0

    def reset(self):
        self._last = None

    def update(self, pair, now_ms):
        if pair != self._last:
            self._last = pair
            self._since = now_ms
            return None
        if ticks_diff(now_ms, self._since) >= self.stable_ms:
            return pair
        return None
