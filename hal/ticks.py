"""Tick arithmetic shared by every HAL part.

On MicroPython these are the C functions from `time` (ticks wrap at 2**30 on
all ports). On CPython (host tests) the same wrap-around arithmetic is done in
Python so code that works on the host also works across a board's wrap.
"""
from micropython import const

TICKS_PERIOD = const(0x40000000)
_TICKS_MAX = const(0x3FFFFFFF)
_TICKS_HALF = const(0x20000000)


def _ticks_diff(a, b):
    return ((a - b + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


def _ticks_add(a, delta):
    return (a + delta) & _TICKS_MAX


try:
    from time import ticks_add, ticks_diff  # MicroPython
except ImportError:  # CPython
    ticks_diff = _ticks_diff
    ticks_add = _ticks_add
