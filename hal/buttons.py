"""Player-station buttons: codes, names and the debounced button bank.

A code is also the button's bit number in the raw mask (bit set = pressed).
"""
from micropython import const

from hal.debounce import DEBOUNCE_MS, Debouncer
from hal.ticks import ticks_diff

SAMPLE_MS = const(20)   # the main loop samples at least this often (its wake period)

NEXT = const(0)
PREV = const(1)
CHIP = const(2)
BET_UP = const(3)
BET_DOWN = const(4)
ONOFF = const(5)
ODDS = const(6)
REBET = const(7)
CLEAR = const(8)
ROLL = const(9)
CASHOUT = const(10)
HELP = const(11)
# group keys: the layout's six areas; after NUMBER they pick a box number
# (key caps: LINE 4, COME 5, PLACE 6, HARD 8, PROPS 9, BONUS 10)
LINE = const(12)
COME = const(13)
PLACE = const(14)
HARD = const(15)
PROPS = const(16)
BONUS = const(17)
NUMBER = const(18)
MYBETS = const(19)
COUNT = const(20)
ALL_MASK = const(0xFFFFF)
GROUP_KEYS = (LINE, COME, PLACE, HARD, PROPS, BONUS)

names = {
    NEXT: "NEXT",
    PREV: "PREV",
    CHIP: "CHIP",
    BET_UP: "BET_UP",
    BET_DOWN: "BET_DOWN",
    ONOFF: "ONOFF",
    ODDS: "ODDS",
    REBET: "REBET",
    CLEAR: "CLEAR",
    ROLL: "ROLL",
    CASHOUT: "CASHOUT",
    HELP: "HELP",
    LINE: "LINE",
    COME: "COME",
    PLACE: "PLACE",
    HARD: "HARD",
    PROPS: "PROPS",
    BONUS: "BONUS",
    NUMBER: "NUMBER",
    MYBETS: "MYBETS",
}

_NONE = ()


def codes_of(mask):
    """Tuple of the button codes set in `mask`, lowest code first."""
    if not mask:
        return _NONE
    return tuple(c for c in range(COUNT) if mask & (1 << c))


class Buttons:
    """Debounced bank over `read()` (raw mask, bit set = pressed).

    poll(now_ms) -> tuple of codes newly pressed since the last poll (each
    press is reported once). `sample(now_ms)` feeds the debouncer between
    polls; a press it accepts waits for the next poll. `held()` -> mask of
    the buttons currently held (debounced).
    """

    def __init__(self, read_mask, ms=DEBOUNCE_MS):
        self._read = read_mask
        self._deb = Debouncer(COUNT, ms)
        self._accepted = 0  # presses sample() accepted, not yet polled
        self.sampled_ms = 0  # ticks of the newest sample

    def due(self, now_ms):
        """True while a key's new level waits for its debounce, or once the
        newest sample is SAMPLE_MS old: the main loop samples after any task
        then, so a press or a release is first seen one task after it
        begins, not one whole round of tasks later."""
        return self.busy() or ticks_diff(now_ms, self.sampled_ms) >= SAMPLE_MS

    def sample(self, now_ms):
        self.sampled_ms = now_ms
        self._accepted |= self._deb.update(self._read() & ALL_MASK, now_ms)

    def poll(self, now_ms):
        self.sample(now_ms)
        accepted = self._accepted
        self._accepted = 0
        return codes_of(accepted)

    def held(self):
        return self._deb.state

    def busy(self):
        """Mask of keys whose new level is not accepted yet. While it is not 0
        the caller must keep polling: work that stops the loop (a flash erase)
        would let a short press go unseen."""
        d = self._deb
        return d._raw ^ d.state
