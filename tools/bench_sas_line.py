"""The cabinet's SAS port in `tools/bench firmware --sas` and `--sas-plain`
(tools/bench_session.py loads this only then). The casino system's side is
not in this process: tools/bench_sas_host.py (CPython) writes the frames the
host polls with before the session, and checks and reports every answer
after it. This line only lands those frames on the firmware's reads at the
host's schedule and logs each answer as it goes out: its bytes, the
cabinet's meters at that moment and (--sas) its answer time. Everything it
needs is allocated up front: it must not change the heap it is in. Its
state is one array indexed by constants, its names are ones the firmware
interns anyway: past 1,260 interned names the unix port takes a 14 KB
qstr pool (README *Heap with SAS*).

Log records (array "q", 64-bit): LANDED, sequence, frame, pass, 0, 0, 0,
0; ANSWER or OWN, sequence of the poll answered, frame, pass, answer time
(us), modelled I2C time (us), 1 if the host OS ran another process
meanwhile (not a measurement), answer length; then the answer, then
(answers longer than a byte) the ledger's meters, the player's credits and
the credit unit, padded with zeros to a multiple of 8; END, polls
answered, polls not sent (the previous one unread or unanswered), 0...
"""
import array
import time
from micropython import const

_LANDED = const(1)       # record kinds (tools/bench_sas_host.py)
_ANSWER = const(2)
_OWN = const(3)
_END = const(4)
_OWN_POLLS = const(200)  # long polls timed alone after the session (0F and 1C)
# microsecond stamps kept in the state array (64-bit items) are taken modulo
# 2**30 and subtracted here: time.ticks_diff() reads its arguments as small
# ints, which an array's 64-bit items are not
_US = const(0x3FFFFFFF)

# the line's state, self.s[...]
_NEXT = const(0)         # frame to land at a read (-1: none)
_READY = const(1)        # frame landed, for the next read (-1: none)
_READS = const(2)        # reads to let pass before it lands
_ROT = const(3)          # polls sent (they land after the 1st..12th read in turn)
_SEQ = const(4)          # frames landed
_SLOT = const(5)         # frame landed last
_PASS = const(6)         # the session's 10 ms pass
_SKIP = const(7)         # polls not sent
_T0 = const(8)           # when the poll waiting for its answer landed (-1: none)
_SEG = const(9)          # firmware time counts from here in the current step
_ACC = const(10)         # firmware time since the poll landed, before this step
_BUS = const(11)         # modelled I2C display time since the poll landed
_WSEG = const(12)        # run delay at _SEG
_DIST = const(13)        # 1: the host OS ran another process meanwhile
_KIND = const(14)        # record kind of the answers (_ANSWER, then _OWN)
_TIMED = const(15)       # 1: --sas (answer times)


class Line:
    """Board contract of a SAS port (hal/__init__.py: read(buf, wake),
    write(data)): the host's frames from file FRAMES, the log to file LOG,
    ON (--sas) with the answer times. Frames: 16-byte slots, a length then
    the frame: slot 0 the general poll for this cabinet, slot 1 one for
    another address, then the long polls the host cycles through."""

    def __init__(self, frames, log, on):
        with open(frames, "rb") as f:
            self.frames = f.read()
        self.f = open(log, "wb")
        self.ctl = None
        self.buf = array.array("q", [0] * 8)       # a record's head, or 8 meters
        s = self.s = array.array("q", [0] * 16)
        s[_NEXT] = s[_READY] = s[_SLOT] = s[_T0] = -1
        s[_KIND] = _ANSWER
        s[_TIMED] = on
        self.raw = bytearray(64)
        self.stat = None
        if on:
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
        """With the controller up: (--sas) the timing of the firmware's
        steps and of the display's transfers,
        wrapped in their classes (new instance attributes would grow the
        objects whose heap is measured)."""
        self.ctl = ctl
        if not self.s[_TIMED]:
            return
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

    def host(self, n):
        """The host's schedule at 10 ms pass n: a general poll every
        100 ms (every other one to another address: an implied ACK), a long
        poll every 500 ms, in turn. --sas lands each just after the 1st to
        12th read from then, in turn: the SAS task's or one of those the
        display makes between its lines and parts (the worst moment: the
        firmware then does everything else before it reads again); a poll
        due while the previous one is unread or unanswered is not sent."""
        s = self.s
        s[_PASS] = n
        if not n % 10:
            slot = 1 if n % 20 else 0
        elif n % 50 == 5:
            slot = 2 + (n // 50) % (len(self.frames) // 16 - 2)
        else:
            return
        if s[_TIMED] and (s[_T0] >= 0 or s[_NEXT] >= 0 or s[_READY] >= 0):
            s[_SKIP] += 1
            return
        s[_NEXT] = slot
        s[_READS] = s[_ROT] % 12 if s[_TIMED] else 0
        s[_ROT] += 1

    def log(self, kind, a, k, c, d, e, f, x):
        r = self.buf
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] = kind, a, k, c, d, e, f, x
        self.f.write(r)

    def read(self, buf, flags):
        s = self.s
        n = 0
        if s[_READY] >= 0:
            n = self.put(buf, flags)
        if s[_NEXT] >= 0:
            if s[_READS]:
                s[_READS] -= 1
            else:
                # --sas: on the line just after this read; --sas-plain: at once
                self.land()
                if not s[_TIMED]:
                    n = self.put(buf, flags)
        return n

    def land(self):
        s = self.s
        slot = s[_READY] = s[_SLOT] = s[_NEXT]
        s[_NEXT] = -1
        s[_SEQ] += 1
        self.log(_LANDED, s[_SEQ], slot, s[_PASS], 0, 0, 0, 0)
        if s[_TIMED] and slot != 1:
            s[_ACC] = s[_BUS] = s[_DIST] = 0
            s[_WSEG] = self.wait()
            s[_T0] = s[_SEG] = time.ticks_us() & _US

    def put(self, buf, flags):
        s = self.s
        fr = self.frames
        i = 16 * s[_READY]
        s[_READY] = -1
        n = fr[i]
        for j in range(n):
            buf[j] = fr[i + 1 + j]
            flags[j] = 0
        flags[0] = 1            # the wakeup bit
        return n

    def write(self, data):
        s = self.s
        t = 0
        if s[_T0] >= 0:
            # firmware time only: the mock world's time between passes
            # (clock.advance, the session's loop) is not the cabinet's
            t = s[_ACC] + self.dt() + s[_BUS]
            s[_T0] = -1
        self.log(s[_KIND], s[_SEQ], s[_SLOT], s[_PASS], t, s[_BUS], s[_DIST], len(data))
        self.f.write(data)
        if len(data) > 1:
            # the ledger's meters, the player's credits and the credit
            # unit, 8 at a time through the record's buffer
            led = self.ctl.store.ledger
            v = led.meters.v
            r = self.buf
            n = len(v) + 2
            for i in range(0, n, 8):
                for j in range(8):
                    k = i + j
                    r[j] = v[k] if k < len(v) else led.table.credits if k == len(v) \
                        else led.config["credit_cents"] if k == len(v) + 1 else 0
                self.f.write(r)
        return len(data)

    def own(self, clock):
        """After the session: a long poll's own work, timed alone: a tick of
        the SAS task with 1C or 0F on the line, to the answer's first byte
        (parse, meters, BCD, CRC)."""
        s = self.s
        s[_KIND] = _OWN
        for i in range(_OWN_POLLS):
            s[_NEXT] = 3 if i % 2 else 2
            self.land()
            self.ctl.sas.tick(clock.ticks_ms())

    def close(self):
        s = self.s
        self.log(_END, self.ctl.sas.count, s[_SKIP], 0, 0, 0, 0, 0)
        self.f.close()
