"""`tools/bench firmware --sas`: the SAS line of tools/bench_sas_line.py
with the answer times. Each poll lands just after the 1st to 12th read of
the line from when it is due, in turn (the SAS task's, or one the display
makes between its lines and parts: the worst moment, the firmware then does
everything else before it reads again), and is timed to its answer's first
byte: firmware time (not the mock world's between passes) plus the I2C time
a board's display blocks for. A poll due while the previous one is unread
or unanswered is not sent. Loaded only with --sas: the plain session's heap
holds none of this.
"""
import time
from micropython import const
import bench_sas_line as P

# microsecond stamps kept in the state array (64-bit items) are taken modulo
# 2**30 and subtracted here: time.ticks_diff() reads its arguments as small
# ints, which an array's 64-bit items are not
_US = const(0x3FFFFFFF)

# the line's state, self.s[...], after bench_sas_line's 0-7
_NEXT = const(0)
_READY = const(1)
_ROT = const(3)
_T0 = const(8)           # when the poll waiting for its answer landed (-1: none)
_SEG = const(9)          # firmware time counts from here in the current step
_ACC = const(10)         # firmware time since the poll landed, before this step
_BUS = const(11)         # modelled I2C display time since the poll landed
_WSEG = const(12)        # run delay at _SEG
_DIST = const(13)        # 1: the host OS ran another process meanwhile
_KIND = const(14)        # record kind of the answers (ANSWER, then OWN: bench_report.py)


class Line(P.Line):
    def __init__(self, frames, log):
        super().__init__(frames, log)
        s = self.s
        s[_T0] = -1
        s[_KIND] = 2            # ANSWER
        self.raw = bytearray(64)
        self.stat = None
        try:
            self.stat = open("/proc/self/schedstat", "rb")
        except OSError:
            pass

    def wait(self):
        """Time this process waited for a CPU (Linux /proc/self/schedstat,
        field 2, us): on a shared machine the host OS takes the CPU away
        for whole milliseconds, which is not the firmware's time. 0 where
        unknown."""
        if self.stat is None:
            return 0
        self.stat.seek(0)
        n = self.stat.readinto(self.raw)
        b = self.raw
        i = 0
        while i < n and b[i] != 32:
            i += 1
        v = 0
        i += 1
        while i < n and 48 <= b[i] <= 57:
            v = v * 10 + b[i] - 48
            i += 1
        return v // 1000

    def start(self, ctl):
        """With the controller up: the timing of the firmware's steps and
        of the display's transfers, wrapped in their classes (new instance
        attributes would grow the objects whose heap is measured)."""
        self.ctl = ctl
        s = self.s
        cls = type(ctl)
        firmware_step = cls.step

        def step(c, now=None):
            if s[_T0] >= 0:
                s[_WSEG] = self.wait()
            s[_SEG] = time.ticks_us() & _US
            firmware_step(c, now)
            if s[_T0] >= 0:
                s[_ACC] += self.dt()
        cls.step = step
        dcls = type(ctl.board.display)
        firmware_show = dcls.show

        def show(d, part=-1):
            # The mock display takes no time; a board's SSD1306 blocks for
            # the I2C transfer: 6 commands (3 bytes each) then the address,
            # 0x40 and the pixels, 9 bit times a byte at 400 kHz.
            if s[_T0] >= 0:
                s[_BUS] += (18 + 2 + (1024 if part < 0 else 1024 // d.parts)) * 9 * 10 // 4
            return firmware_show(d, part)
        dcls.show = show

    def dt(self):
        """Firmware time since _SEG; marks the measurement disturbed if the
        host OS ran another process meanwhile."""
        s = self.s
        if self.wait() != s[_WSEG]:
            s[_DIST] = 1
        return ((time.ticks_us() & _US) - s[_SEG]) & _US

    def busy(self):
        s = self.s
        return s[_T0] >= 0 or s[_NEXT] >= 0 or s[_READY] >= 0

    def reads_before(self):
        return self.s[_ROT] % 12

    def landed(self, buf, flags):
        """On the line just after this read: the next one takes it."""
        self.land()
        return 0

    def land(self):
        slot = super().land()
        s = self.s
        if slot != 1:
            s[_ACC] = s[_BUS] = s[_DIST] = 0
            s[_WSEG] = self.wait()
            s[_T0] = s[_SEG] = time.ticks_us() & _US
        return slot

    def write(self, data):
        s = self.s
        t = 0
        if s[_T0] >= 0:
            t = s[_ACC] + self.dt() + s[_BUS]
            s[_T0] = -1
        self.answer(s[_KIND], t, s[_BUS], s[_DIST], data)
        return len(data)
