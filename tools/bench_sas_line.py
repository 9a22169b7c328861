"""The cabinet's SAS port in `tools/bench firmware --sas` and `--sas-plain`
(tools/bench_session.py loads this only then). The casino system's side is
not in this process: tools/bench_sas_host.py (CPython) writes the frames the
host polls with before the session, and checks and reports every answer
after it. This line only lands those frames on the firmware's reads at the
host's schedule and logs each answer as it goes out: its bytes, the
cabinet's meters at that moment and (--sas) its answer time. Everything it
needs is allocated up front: it must not change the heap it is in.

Log records (array "q", little-endian 64-bit): LANDED, sequence, frame,
pass, 0, 0, 0, 0; ANSWER or OWN, sequence of the poll answered, frame,
pass, answer time (us), modelled I2C time (us), 1 if the host OS ran
another process meanwhile (not a measurement), answer length; then the
answer, then (answers longer than a byte) the ledger's meters, the player's
credits and the credit unit; END, polls answered, polls not sent (the
previous one still unanswered), 0...
"""
import array
import time

LANDED = 1
ANSWER = 2
OWN = 3
END = 4
_OWN = 200                 # long polls timed alone after the session (0F and 1C)


class RunDelay:
    """Time this process waited for a CPU (Linux /proc/self/schedstat, field
    2, ns): on a shared machine the host OS takes the CPU away for whole
    milliseconds, which is not the firmware's time. 0 where unknown."""

    def __init__(self):
        self.buf = bytearray(64)
        try:
            self.f = open("/proc/self/schedstat", "rb")
        except OSError:
            self.f = None

    def us(self):
        if self.f is None:
            return 0
        self.f.seek(0)
        n = self.f.readinto(self.buf)
        b = self.buf
        i = 0
        while i < n and b[i] != 32:
            i += 1
        v = 0
        i += 1
        while i < n and 48 <= b[i] <= 57:
            v = v * 10 + b[i] - 48
            i += 1
        return v // 1000


class Line:
    """Board contract of a SAS port (hal/__init__.py: read(buf, wake),
    write(data)), beside the session's flash file PATH: the host's frames in
    PATH.polls, the log to PATH.sas. Frames: 16-byte slots, a length then the frame:
    slot 0 the general poll for this cabinet, slot 1 one for another
    address, then the long polls the host cycles through."""

    def __init__(self, path, timed):
        with open(path + ".polls", "rb") as f:
            self.frames = f.read()
        self.log = open(path + ".sas", "wb")
        self.timed = timed
        self.ctl = None
        self.rec = array.array("q", [0] * 8)
        self.meters = None
        self.next = -1          # frame to land at a read (-1: none)
        self.ready = -1         # frame landed, for the next read
        self.reads = 0          # reads to let pass before it lands
        self.rot = 0
        self.seq = 0            # frames landed
        self.slot = -1          # frame landed last
        self.passes = 0
        self.kind = ANSWER
        self.skipped = 0
        self.t0 = -1            # when the poll waiting for its answer landed (-1: none)
        self.seg = 0            # firmware time counts from here in the current step
        self.acc = 0            # firmware time since the poll landed, before this step
        self.bus = 0            # modelled I2C display time since the poll landed
        self.wseg = 0           # run delay at self.seg
        self.disturbed = False
        self.us = time.ticks_us
        self.diff = time.ticks_diff
        self.waited = RunDelay() if timed else None

    def start(self, ctl):
        """With the controller up: the meters' log buffer and (--sas) the
        timing of the firmware's steps and of the display's transfers,
        wrapped in their classes (new instance attributes would grow the
        objects whose heap is measured)."""
        self.ctl = ctl
        self.meters = array.array("q", [0] * (len(ctl.store.ledger.meters.v) + 2))
        if not self.timed:
            return
        cls = type(ctl)
        step = cls.step

        def timed_step(obj, now=None):
            if self.t0 >= 0:
                self.wseg = self.waited.us()
            self.seg = self.us()
            step(obj, now)
            if self.t0 >= 0:
                self.acc += self._since_seg()
        cls.step = timed_step
        dcls = type(ctl.board.display)
        show = dcls.show

        def timed_show(d, part=-1):
            # The mock display takes no time; a board's SSD1306 blocks for
            # the I2C transfer: 6 commands (3 bytes each) then the address,
            # 0x40 and the pixels, 9 bit times a byte at 400 kHz.
            if self.t0 >= 0:
                self.bus += (18 + 2 + (1024 if part < 0 else 1024 // d.parts)) * 9 * 10 // 4
            return show(d, part)
        dcls.show = timed_show

    def _since_seg(self):
        dt = self.diff(self.us(), self.seg)
        if self.waited.us() != self.wseg:
            self.disturbed = True
        return dt

    def host(self, passes):
        """The host's schedule at 10 ms pass `passes`: a general poll every
        100 ms (every other one to another address: an implied ACK), a long
        poll every 500 ms, in turn. --sas lands each just after the 1st to
        12th read from then, in turn: the SAS task's or one of those the
        display makes between its lines and parts (the worst moment: the
        firmware then does everything else before it reads again); a poll
        due while the previous one is unread or unanswered is not sent."""
        self.passes = passes
        if not passes % 10:
            slot = 1 if passes % 20 else 0
        elif passes % 50 == 5:
            slot = 2 + (passes // 50) % (len(self.frames) // 16 - 2)
        else:
            return
        if self.timed and (self.t0 >= 0 or self.next >= 0 or self.ready >= 0):
            self.skipped += 1
            return
        self.next = slot
        self.reads = self.rot % 12 if self.timed else 0
        self.rot += 1

    def _record(self, kind, a, b, c, d, e, f, g):
        r = self.rec
        r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7] = kind, a, b, c, d, e, f, g
        self.log.write(r)

    def read(self, buf, wake):
        n = self._put(buf, wake) if self.ready >= 0 else 0
        if self.next >= 0:
            if self.reads:
                self.reads -= 1
            else:
                # --sas: on the line just after this read; --sas-plain: at once
                self._land()
                if not self.timed:
                    n = self._put(buf, wake)
        return n

    def _land(self):
        slot = self.ready = self.slot = self.next
        self.next = -1
        self.seq += 1
        self._record(LANDED, self.seq, slot, self.passes, 0, 0, 0, 0)
        if self.timed and slot != 1:
            self.acc = self.bus = 0
            self.disturbed = False
            self.wseg = self.waited.us()
            self.t0 = self.seg = self.us()

    def _put(self, buf, wake):
        fr = self.frames
        i = 16 * self.ready
        self.ready = -1
        n = fr[i]
        for j in range(n):
            buf[j] = fr[i + 1 + j]
            wake[j] = 0
        wake[0] = 1
        return n

    def write(self, data):
        dt = 0
        if self.t0 >= 0:
            # firmware time only: the mock world's time between passes
            # (clock.advance, the session's loop) is not the cabinet's
            dt = self.acc + self._since_seg() + self.bus
            self.t0 = -1
        self._record(self.kind, self.seq, self.slot, self.passes, dt, self.bus,
                     self.disturbed, len(data))
        self.log.write(data)
        if len(data) > 1:
            led = self.ctl.store.ledger
            m = self.meters
            v = led.meters.v
            for i in range(len(v)):
                m[i] = v[i]
            m[len(v)] = led.table.credits
            m[len(v) + 1] = led.config["credit_cents"]
            self.log.write(m)
        return len(data)

    def own(self, clock):
        """After the session: a long poll's own work, timed alone: a tick of
        the SAS task with 1C or 0F on the line, to the answer's first byte
        (parse, meters, BCD, CRC)."""
        self.kind = OWN
        for i in range(_OWN):
            self.next = 3 if i % 2 else 2
            self._land()
            self.ctl.sas.tick(clock.ticks_ms())

    def close(self):
        sas = self.ctl.sas
        self._record(END, sas.polls, self.skipped, 0, 0, 0, 0, 0)
        self.log.close()
