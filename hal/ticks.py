"""Tick arithmetic shared by every HAL part.

On MicroPython these are the C functions from `time`. Their period is 2**30 on
the 32-bit boards but 2**62 on the 64-bit unix port, so TICKS_PERIOD is taken
from the running port. On CPython (host tests) the same wrap-around arithmetic
is done in Python with the boards' period, 2**30.
"""
import time

_PY_PERIOD = 1 << 30


def _py_diff(a, b):
    return ((a - b + (_PY_PERIOD >> 1)) & (_PY_PERIOD - 1)) - (_PY_PERIOD >> 1)


def _py_add(a, delta):
    return (a + delta) & (_PY_PERIOD - 1)


try:  # MicroPython
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
    _t0 = time.ticks_ms()
    TICKS_PERIOD = ticks_add(_t0, -1 - _t0) + 1  # (t0 - t0 - 1) mod period, + 1
except AttributeError:  # CPython
    ticks_add = _py_add
    ticks_diff = _py_diff
    TICKS_PERIOD = _PY_PERIOD
