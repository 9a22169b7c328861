"""Polling debouncer (no interrupts), in the style of Peter Hinch's Pushbutton.

Inputs are packed into an int mask (bit i = input i, 1 = active). A bit's new
level is accepted once the raw level has stayed unchanged for `ms` between
polls, so a contact bouncing faster than that is ignored. Nothing allocates on
`update()` except the returned small int.
"""
from micropython import const

from hal.ticks import ticks_diff

DEBOUNCE_MS = const(50)


class Debouncer:
    def __init__(self, nbits, ms=DEBOUNCE_MS, initial=0):
        self.ms = ms
        self.state = initial  # debounced levels
        self._raw = initial  # last raw sample
        self._n = nbits
        self._since = [0] * nbits  # ticks of each bit's last raw change

    def reset(self, raw):
        """Accept `raw` immediately (e.g. switch states at power-up)."""
        self.state = raw
        self._raw = raw

    def update(self, raw, now_ms):
        """Feed one raw sample; return the mask of bits that became 1 now."""
        changed = raw ^ self._raw
        self._raw = raw
        pending = raw ^ self.state
        rose = 0
        if changed | pending:
            since = self._since
            for i in range(self._n):
                b = 1 << i
                if changed & b:
                    since[i] = now_ms
                elif pending & b and ticks_diff(now_ms, since[i]) >= self.ms:
                    self.state ^= b
                    if raw & b:
                        rose |= b
        return rose


class Switch:
    """One debounced switch. `read()` returns the raw active level (0/1).

    `value()` samples and returns the debounced level (1 = active), so a caller
    that polls `value()` every main-loop pass gets debouncing for free; `poll()`
    does the same with an explicit time. The first sample is taken as is.
    The rule is Debouncer's for one bit, inline: a switch is read every pass.
    """

    def __init__(self, read, ticks_ms, ms=DEBOUNCE_MS):
        self._read = read
        self._ticks = ticks_ms
        self.ms = ms
        self.state = self._raw = 1 if read() else 0
        self._since = 0

    def poll(self, now_ms):
        raw = 1 if self._read() else 0
        if raw != self._raw:
            self._raw = raw
            self._since = now_ms
        elif raw != self.state and ticks_diff(now_ms, self._since) >= self.ms:
            self.state = raw
        return self.state

    def value(self):
        return self.poll(self._ticks())
