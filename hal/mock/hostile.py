"""NOR flash as hostile as the real part (issue 9), on top of NorFlash.

- Marginal cells: the bits a torn program was clearing, and bytes a torn
  erase left half-erased, read back as 0 or 1 at random on every read (so
  differently from one boot to the next) until the sector is erased again or
  a later program pulse drives them to 0.
- Durations: with `timing` (TYPICAL or DATASHEET_MAX) every program/erase
  advances `clock` (a FakeClock) by its duration; each one is an
  interrupts-off window on rp2 (flash ops run with XIP and IRQs off).
  `busy_us` and `longest_us` record them; `windows` the newest 64 as
  (start, end) in the clock's ticks_ms (an IRQ counter would miss a pulse
  inside one; the rp2 PIO counter and the mock's counters do not).
- Worn sectors: wear_out(sector) makes programs there clear only some bits
  and return normally; only reading back shows it. Erasing does not cure it.
- Program disturb: with `disturb` = N, one page program in N (on average)
  also clears one bit of an erased byte elsewhere in the sector it
  programs (the cells of the sector being programmed see the high voltage
  too); both copies of the journal are programmed, so both are hit.
  `disturbed` counts the flips.
Several faults per power-up: arm cut_after() again after power_on().
Kept apart from NorFlash so the firmware heap benchmark (mock board) does
not carry it. Runs on CPython and the MicroPython unix port.
"""
from micropython import const
from hal.mock.norflash import NorFlash, PowerCut, SECTOR, PAGE

# W25Q16JV datasheet, microseconds: (sector erase, page program).
# Erase 45 ms typical / 400 ms max; page program 0.4 ms / 3 ms.
TYPICAL = (45000, 400)
DATASHEET_MAX = (400000, 3000)
_HALF = const(0x40000000)


class HostileNor(NorFlash):
    def __init__(self, size, path=None, seed=1, timing=None, clock=None, disturb=0):
        NorFlash.__init__(self, size, path, seed)
        self.disturb = disturb
        self.disturbed = 0
        self.weak = {}  # sector -> {offset: mask of marginal bits}
        self.worn = {}  # sector -> True
        self.timing = timing or TYPICAL
        self.clock = clock
        self._us = 0  # time not yet given to the clock (< 1 ms)
        self.busy_us = 0
        self.longest_us = 0
        self.windows = []

    def wear_out(self, sector):
        self.worn[sector] = True

    def _busy(self, us):
        self.busy_us += us
        if us > self.longest_us:
            self.longest_us = us
        if self.clock is not None:
            t0 = self.clock.ticks_ms()
            self._us += us
            ms = self._us // 1000
            self._us -= ms * 1000
            if ms:
                self.clock.advance(ms)
                w = self.windows
                w.append((t0, t0 + ms))
                if len(w) > 64:
                    w.pop(0)

    def set_weak(self, addr, mask):
        """Makes bits of the byte at addr marginal (tests)."""
        self.weak.setdefault(addr // SECTOR, {})[addr % SECTOR] = mask

    def marginal(self):
        """Bytes holding marginal bits now."""
        return sum(len(w) for w in self.weak.values())

    def _in(self, addr, n):
        """(address, mask) of the marginal bytes in [addr, addr + n)."""
        out = []
        for s in range(addr // SECTOR, (addr + n - 1) // SECTOR + 1):
            w = self.weak.get(s)
            if w:
                base = s * SECTOR
                for o in w:
                    if addr <= base + o < addr + n:
                        out.append((base + o, w[o]))
        return out

    def _set(self, a, m):
        w = self.weak.setdefault(a // SECTOR, {})
        if m:
            w[a % SECTOR] = m
        else:
            w.pop(a % SECTOR, None)

    def read(self, addr, buf):
        NorFlash.read(self, addr, buf)
        rng = self.rng
        for a, m in self._in(addr, len(buf)):
            i = a - addr
            buf[i] = (buf[i] & ~m | rng.next() & m) & 0xFF

    def program(self, addr, buf):
        self._check_alive()
        n = len(buf)
        if self.weak:
            buf = bytearray(buf)
            for a, m in self._in(addr, n):
                i = a - addr
                b = buf[i]
                if b == 0xFF:
                    continue
                # a marginal 0 the caller read as 1 stays as it is (no
                # 0->1 error: the driver could not have known)
                buf[i] = b & (self.secs[a // SECTOR][a % SECTOR] | ~m) & 0xFF
                self._set(a, m & buf[i])  # bits this pulse drives to 0 settle
        before = self.peek(addr, n) if addr % PAGE == 0 and n % PAGE == 0 and n else b""
        self._busy((n // PAGE) * self.timing[1])
        try:
            NorFlash.program(self, addr, buf)
        except PowerCut:
            self._mark(addr, before, buf)
            raise
        if self.worn.get(addr // SECTOR):
            d = bytearray(self.peek(addr, n))
            rng = self.rng
            for i in range(n):
                if buf[i] != 0xFF and rng.below(2):
                    d[i] = before[i] & (buf[i] | rng.next()) & 0xFF
            self._copy_in(addr, d)
            self._persist(addr, n)
        if self.disturb and not self.rng.below(self.disturb):
            self._disturb(addr, n)

    def _disturb(self, addr, n):
        """One bit of an erased byte of the sector, outside what was just
        programmed, reads 0 from now on."""
        rng = self.rng
        sec = addr // SECTOR
        d = self.secs[sec]
        for _ in range(32):
            o = rng.below(SECTOR)
            a = sec * SECTOR + o
            if d[o] == 0xFF and not addr <= a < addr + n:
                d[o] = 0xFF & ~(1 << rng.below(8))
                self._persist(a, 1)
                self.disturbed += 1
                return

    def _mark(self, addr, before, want):
        """After a torn program: some bits that were to clear are marginal."""
        rng = self.rng
        for i in range(len(want)):
            todo = before[i] & ~want[i] & 0xFF
            if todo and rng.below(2):
                self._set(addr + i, todo & rng.next() & 0xFF or todo)

    def erase(self, sector):
        self._check_alive()
        a = sector * SECTOR
        self.weak.pop(sector, None)
        self._busy(self.timing[0])
        try:
            NorFlash.erase(self, sector)
        except PowerCut:
            d = self.secs[sector]
            rng = self.rng
            for i in range(SECTOR):
                if d[i] != 0xFF and rng.next() & _HALF:
                    self._set(a + i, ~d[i] & 0xFF)
            raise
