"""Tick arithmetic shared by every HAL part.

On MicroPython these are the C functions from `time`. Their period is 2**30 on
the 32-bit boards but 2**62 on the 64-bit unix port, so TICKS_PERIOD is taken
from the running port. On CPython (host tests) the same wrap-around arithmetic
is done in Python with the boards' period, 2**30.
"""
try:
    from time import ticks_add, ticks_diff  # MicroPython

    TICKS_PERIOD = ticks_add(0, -1) + 1
except ImportError:  # CPython
    TICKS_PERIOD = 1 << 30
    _MAX = TICKS_PERIOD - 1
    _HALF = TICKS_PERIOD >> 1

    def ticks_diff(a, b):
        return ((a - b + _HALF) & _MAX) - _HALF

    def ticks_add(a, delta):
        return (a + delta) & _MAX
