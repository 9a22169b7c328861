"""Money pulse counting: interrupt counters and the `money` board part.

An interrupt handler only stores small ints into a preallocated array (no
allocation, safe as a hard IRQ). Cumulative counts never reset; the firmware
keeps the last count it credited and credits the difference.
"""
from array import array

from micropython import const

from hal.ticks import ticks_add, ticks_diff

BILL = const(0)
COIN = const(1)


class IrqCounter:
    """Counts edges; `handler` is bound once here so attaching allocates nothing.

    `ticks_ms` is the time source read inside the handler (time.ticks_ms on a
    board: returns a small int, no allocation).
    """

    def __init__(self, ticks_ms):
        self._ticks = ticks_ms
        self._c = array("i", (0, 0))  # [count, ticks of last edge]
        self.handler = self._irq

    def _irq(self, _pin):
        c = self._c
        c[0] += 1
        c[1] = self._ticks()

    def count(self):
        return self._c[0]

    def last_ms(self):
        return self._c[1] if self._c[0] else None


class Money:
    """counts() -> (bill, coin) cumulative pulses; inhibit(flag) drives INH.

    `bill` and `coin` need `count()` and `last_ms()` (None before any pulse);
    `set_inhibit(flag)` drives the validator's inhibit output.
    """

    def __init__(self, bill, coin, set_inhibit):
        self._bill = bill
        self._coin = coin
        self._set_inhibit = set_inhibit
        self.inhibited = True
        set_inhibit(True)

    def counts(self):
        return self._bill.count(), self._coin.count()

    def last_pulse_ms(self, channel):
        return (self._coin if channel == COIN else self._bill).last_ms()

    def inhibit(self, flag):
        self.inhibited = bool(flag)
        self._set_inhibit(self.inhibited)


class Activity:
    """motion() helper: True if `count()` advanced within `window_ms`."""

    def __init__(self, counter, ticks_ms, window_ms=250):
        self._counter = counter
        self._ticks = ticks_ms
        self._window = window_ms
        self._last_count = counter.count()
        self._last_change = ticks_add(ticks_ms(), -window_ms - 1)

    def __call__(self):
        now = self._ticks()
        c = self._counter.count()
        if c != self._last_count:
            self._last_count = c
            self._last_change = now
        return ticks_diff(now, self._last_change) <= self._window


class PolledCounter:
    """Wraps a hardware counter (rp2 PIO, esp32 PCNT) read by `read_count()`.

    The hardware never misses a pulse; `last_ms()` is the time a change was
    first seen by count(), so it is as precise as the polling rate.
    """

    def __init__(self, read_count, ticks_ms):
        self._read = read_count
        self._ticks = ticks_ms
        self._n = read_count()
        self._base = self._n
        self._last = None

    def count(self):
        n = self._read()
        if n != self._n:
            self._n = n
            self._last = self._ticks()
        return n - self._base

    def last_ms(self):
        self.count()
        return self._last
