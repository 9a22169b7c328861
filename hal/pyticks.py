"""The boards' tick arithmetic (period 2**30) in Python, for CPython, where
`time` has no ticks functions (hal/ticks.py loads it only there)."""
TICKS_PERIOD = 1 << 30


def ticks_diff(a, b):
    return ((a - b + (TICKS_PERIOD >> 1)) & (TICKS_PERIOD - 1)) - (TICKS_PERIOD >> 1)


def ticks_add(a, delta):
    return (a + delta) & (TICKS_PERIOD - 1)
