"""Host clock for tests and benchmarks: FakeClock, moved by advance(). The
interactive runs' RealClock is hal/mock/realclock.py (a session on the fake
clock does not load it)."""
from micropython import const

from hal.ticks import TICKS_PERIOD, ticks_add, ticks_diff

_DEFAULT_EPOCH = const(1767225600)  # 2026-01-01T00:00:00Z


class FakeClock:
    """Time moves only by advance(ms) / sleep_ms(ms). now() = start_s + ms//1000."""

    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    valid = True  # a test sets False: a real-time clock that was never set
    lost = False  # and True: its oscillator-stop flag was set (the battery ran out)

    def __init__(self, ms=0, start_s=_DEFAULT_EPOCH):
        self._t = ms % TICKS_PERIOD
        self._elapsed = 0
        self.start_s = start_s
        self.set_by_host = True

    def ticks_ms(self):
        return self._t

    def advance(self, ms):
        self._t = ticks_add(self._t, ms)
        self._elapsed += ms

    sleep_ms = advance

    def now(self):
        return self.start_s + self._elapsed // 1000

    def set_time(self, t):
        self.start_s += t - self.now()
