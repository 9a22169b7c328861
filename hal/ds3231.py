"""DS3231 real-time clock (I2C address 0x68, on the display's bus).

Registers 0-6 hold seconds, minutes, hours, weekday, date, month (bit 7 =
century) and year in BCD; status register 0x0F bit 7 (OSF) is set when the
oscillator stopped: the time was never set or the backup battery ran out,
so it is not valid. Writing the time clears OSF. Control register 0x0E
bit 7 (EOSC) set stops the oscillator whenever the chip runs on its backup
battery: the time would stop at every power cut, so start() clears it.
24-hour mode is written; 12-hour mode is read too.
"""
from micropython import const

ADDR = const(0x68)
_CONTROL = const(0x0E)
_EOSC = const(0x80)
_STATUS = const(0x0F)
_OSF = const(0x80)


def _from_bcd(b):
    return (b >> 4) * 10 + (b & 15)


def _to_bcd(v):
    return ((v // 10) << 4) | (v % 10)


class DS3231:
    def __init__(self, i2c, addr=ADDR):
        self.i2c = i2c
        self.addr = addr
        self._r = bytearray(7)
        self._s = bytearray(1)
        self.osf = False     # the last read found the oscillator-stop flag set

    def start(self):
        """Set-up: the oscillator keeps running on the backup battery (EOSC
        cleared, the other control bits kept). OSError if the chip does
        not answer."""
        s = self._s
        self.i2c.readfrom_mem_into(self.addr, _CONTROL, s)
        if s[0] & _EOSC:
            s[0] &= ~_EOSC & 0xFF
            self.i2c.writeto_mem(self.addr, _CONTROL, s)

    def read(self):
        """(year, month, day, hour, minute, second), or None when the
        oscillator-stop flag says the time is not valid. OSError if the chip
        does not answer."""
        self.i2c.readfrom_mem_into(self.addr, _STATUS, self._s)
        self.osf = bool(self._s[0] & _OSF)
        if self.osf:
            return None
        self.i2c.readfrom_mem_into(self.addr, 0, self._r)
        r = self._r
        h = r[2]
        if h & 0x40:  # 12-hour mode: bit 5 = PM
            hour = _from_bcd(h & 0x1F) % 12 + (12 if h & 0x20 else 0)
        else:
            hour = _from_bcd(h & 0x3F)
        year = 2000 + _from_bcd(r[6]) + (100 if r[5] & 0x80 else 0)
        tm = (year, _from_bcd(r[5] & 0x1F), _from_bcd(r[4] & 0x3F), hour,
              _from_bcd(r[1] & 0x7F), _from_bcd(r[0] & 0x7F))
        # registers that are not a time (a bus answering garbage): not valid
        if not (1 <= tm[1] <= 12 and 1 <= tm[2] <= 31 and tm[3] < 24 and tm[4] < 60
                and tm[5] < 60):
            return None
        return tm

    def write(self, tm, weekday=1):
        """Sets the time from (year, month, day, hour, minute, second), 24-hour
        mode, and clears the oscillator-stop flag."""
        y, mo, d, hh, mi, ss = tm[:6]
        r = self._r
        r[0], r[1], r[2] = _to_bcd(ss), _to_bcd(mi), _to_bcd(hh)
        r[3] = weekday
        r[4] = _to_bcd(d)
        r[5] = _to_bcd(mo) | (0x80 if y >= 2100 else 0)
        r[6] = _to_bcd(y % 100)
        self.i2c.writeto_mem(self.addr, 0, r)
        self.i2c.readfrom_mem_into(self.addr, _STATUS, self._s)
        self._s[0] &= ~_OSF & 0xFF
        self.i2c.writeto_mem(self.addr, _STATUS, self._s)
