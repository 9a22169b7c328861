"""Tick arithmetic shared by every HAL part.

On MicroPython these are the C functions from `time`. Their period is 2**30 on
the 32-bit boards but 2**62 on the 64-bit unix port, so TICKS_PERIOD is taken
from the running port. On CPython (host tests) the same wrap-around arithmetic
is done in Python with the boards' period, 2**30 (hal/pyticks.py: its own
module, so the boards do not load it).
"""
import sys
import time

try:  # MicroPython
    ticks_add = time.ticks_add
    ticks_diff = time.ticks_diff
    # ports wrap ticks at the small-int range: 2**30 on 32-bit, 2**62 on 64-bit
    TICKS_PERIOD = (sys.maxsize + 1) >> 1
except AttributeError:  # CPython
    from hal.pyticks import ticks_add, ticks_diff, TICKS_PERIOD
