"""Board clock on MicroPython: ticks plus wall-clock seconds since 1970 UTC."""
import time
from micropython import const

from hal.ticks import ticks_add, ticks_diff

# rp2 and esp32 count from 2000-01-01; the unix port from 1970.
EPOCH_OFFSET = 946684800 if time.gmtime(0)[0] == 2000 else 0


_REBASE_MS = const(3_600_000)


class Clock:
    """ticks_ms() / ticks_diff(a, b) / ticks_add(t, d) / now() (int seconds) /
    set_time(t).

    Wall time comes from the DS3231 (attach_rtc, at boot): its reading plus
    the ticks since. `valid` is False when there is no RTC answer or its
    oscillator-stop flag says it was never set (tickets and the log say so);
    `lost` is that flag at boot: the oscillator stopped, so the time ran out
    on the backup battery (or was never set);
    now() then counts from the port's own clock (2021 on an rp2 after a
    power cut). set_time() writes the RTC too (SAS 7F, audit menu).
    """

    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    def __init__(self):
        self.ticks_ms = time.ticks_ms  # the port's own function: no Python frame a call
        self.set_by_host = False
        self.valid = False
        self.lost = False
        self.rtc = None
        self._base_s = None   # wall seconds at _base_t
        self._base_t = time.ticks_ms()

    def attach_rtc(self, rtc):
        """Sets the RTC up and reads it once (boot); an RTC that does not
        answer or lost its time leaves the clock not valid."""
        self.rtc = rtc
        try:
            rtc.start()
            tm = rtc.read()
        except OSError:
            tm = None
        self.lost = getattr(rtc, "osf", False)
        if tm is not None:
            self._set_base(time.mktime(tuple(tm) + (0, 0)) + EPOCH_OFFSET)
            self.valid = True

    def _set_base(self, t):
        self._base_s = t
        self._base_t = time.ticks_ms()

    def now(self):
        if self._base_s is None:
            return int(time.time()) + EPOCH_OFFSET
        d = ticks_diff(time.ticks_ms(), self._base_t)
        if d >= _REBASE_MS:  # move the base up so the ticks never wrap under it
            self._base_s += d // 1000
            self._base_t = ticks_add(self._base_t, (d // 1000) * 1000)
            d %= 1000
        return self._base_s + d // 1000

    def set_time(self, t):
        """Sets wall time (Unix seconds), in the RTC too when there is one."""
        self._set_base(t)
        self.valid = True
        self.set_by_host = True
        if self.rtc is not None:
            tm = time.gmtime(t - EPOCH_OFFSET)
            try:
                self.rtc.write(tm[:6], tm[6] + 1)
            except OSError:
                self.valid = False   # it will not survive a power cut
