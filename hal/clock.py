"""Board clock on MicroPython: ticks plus wall-clock seconds since 1970 UTC."""
import time

from hal.ticks import ticks_add, ticks_diff

# rp2 and esp32 count from 2000-01-01; the unix port from 1970.
EPOCH_OFFSET = 946684800 if time.gmtime(0)[0] == 2000 else 0


class Clock:
    """ticks_ms() / ticks_diff(a, b) / ticks_add(t, d) / now() (int seconds).

    now() is only as good as the RTC: set it at start-up (technician protocol
    or a battery-backed RTC) before timestamps are trusted; `set_by_host`
    tells whether that happened.
    """

    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    def __init__(self):
        self.set_by_host = False

    def ticks_ms(self):
        return time.ticks_ms()

    def now(self):
        return int(time.time()) + EPOCH_OFFSET
