"""Host clock for interactive runs (tools/sim): the host's time, settable
(a shift kept in the process). Tests and benchmarks use hal/mock/clock.py's
FakeClock."""
import time

from hal.ticks import TICKS_PERIOD, ticks_add, ticks_diff


class RealClock:
    valid = True

    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    def __init__(self):
        self.set_by_host = True
        tm = getattr(time, "ticks_ms", None)
        if tm is None:
            mono = getattr(time, "monotonic")
            self._tm = lambda: int(mono() * 1000) % TICKS_PERIOD
        else:
            self._tm = tm

    def ticks_ms(self):
        return self._tm()

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)

    def now(self):
        return int(time.time()) + self._offset

    _offset = 0

    def set_time(self, t):
        """The simulator's wall clock follows the host's, shifted."""
        self._offset = t - int(time.time())
