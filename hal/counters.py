"""Hardware pulse counters for hal.pulses.Money and the motion sensor.

An interrupt handler only stores small ints into a preallocated array (no
allocation, safe as a hard IRQ). Apart from hal.pulses so that the mock
board, which plays pulses out itself, does not load them.
"""
from array import array

from hal.ticks import ticks_add, ticks_diff


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
