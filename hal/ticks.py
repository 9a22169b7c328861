"""Tick arithmetic shared by every HAL part.

On MicroPython these are the C functions from `time`. Their period is 2**30 on
the 32-bit boards but 2**62 on the 64-bit unix port, so TICKS_PERIOD is taken
from the running port. On CPython (host tests) the same wrap-around arithmetic
is done in Python with the boards' period, 2**30.
"""
import sys
import time

_PY_PERIOD = 1 << 30


def _py_diff(a, b):
    return ((a - b + (_PY_PERIOD >> 1)) & (_PY_PERIOD - 1)) - (_PY_PERIOD >> 1)


def _py_add(a, delta):
    return (a + delta) & (_PY_PERIOD - 1)


try:  # MicroPython
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
    # ports wrap ticks at the small-int range: 2**30 on 32-bit, 2**62 on 64-bit
    TICKS_PERIOD = (sys.maxsize + 1) >> 1
except AttributeError:  # CPython
    ticks_add = _py_add
    ticks_diff = _py_diff
    TICKS_PERIOD = _PY_PERIOD
