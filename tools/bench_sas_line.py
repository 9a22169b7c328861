"""The bench's SAS line for `tools/bench firmware --sas` (tools/bench_session.py
loads it only then): a host polling the cabinet, each poll timed to its answer.
Only what measures during the session is here: the own-work loop and the
report are in tools/bench_sas_report.py, loaded after the heap figures."""


from bench_sas_host import Host


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


# answer-time histogram: 100 us buckets up to 10 ms (the spec's 20 ms is
# checked on the max, which is kept apart)
_BUCKET_US = 100
_BUCKETS = 100
_OWN = 200               # long polls timed alone after the session


class TimedLine(Host):
    """The bench's SAS line: each host poll lands just after the firmware
    has read the line (the worst moment: it then waits for everything else
    the loop does before the SAS code reads again), and its answer time runs
    from there to the first byte of the answer: the firmware's time (inside
    ctl.step) plus the I2C time a board's display would block for (the mock
    display takes none). Meanwhile the controller's parts are timed, so the
    slowest answer can be explained. Everything is allocated here, up front:
    the bench must not change the heap it measures while it runs."""

    PARTS = ("tick_inputs", "tick_money", "tick_serial", "tick_maintenance", "tick_display",
             "sas.tick", "sas.serve")

    def __init__(self, line, ctl):
        import array
        import time
        self.line = line
        self.ctl = ctl
        self.waited = RunDelay()
        self.us = time.ticks_us
        self.diff = time.ticks_diff
        self.next = None        # frame to land after the next read
        self.wseg = 0           # run delay at self.seg
        self.preempted = 0      # run delay excluded, in all
        self.seg = 0            # firmware time counts from here in the current step
        self.acc = 0            # firmware time since the poll landed, before this step
        self.bus = 0            # modelled I2C display time since the poll landed
        self.answered = False
        self.t0 = -1            # when the poll waiting for its answer landed (-1: none)
        self.code = 0
        # [general, long]: histogram, count, max
        self.hist = (array.array("H", [0] * _BUCKETS), array.array("H", [0] * _BUCKETS))
        self.count = array.array("I", [0, 0])
        self.max = array.array("I", [0, 0])
        self.min = array.array("I", [1 << 30, 1 << 30])
        # what ran between the poll landing and its answer: part index,
        # microseconds; and the same for the worst
        self.n = 0
        self.part = bytearray(64)
        self.dt = array.array("I", [0] * 64)
        self.worst = array.array("I", [0, 0, 0])    # us, poll code, parts
        self.wpart = bytearray(64)
        self.wdt = array.array("I", [0] * 64)
        self.skipped = 0
        self.wbus = 0
        self.reads = self.rot = 0
        self.disturbed = False
        self.dropped = 0
        self.own = array.array("H", [0] * _OWN)     # a long poll's own work (us), after the session
        self.nown = 0
        # wrapped in their classes: new instance attributes would grow the
        # controller's dict, i.e. the heap measured
        cls = type(ctl)
        for i, name in enumerate(self.PARTS[:-2]):
            setattr(cls, name, self._timed(i, getattr(cls, name)))
        scls = type(ctl.sas)
        scls.tick = self._timed(5, scls.tick)
        scls.serve = self._timed(6, scls.serve)
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

    def _timed(self, i, fn):
        us, diff = self.us, self.diff

        waited = self.waited.us

        def timed(obj, a=None):     # tick_serial() takes no argument
            w0 = waited() if self.t0 >= 0 else 0
            t0 = us()
            r = fn(obj) if a is None else fn(obj, a)
            dt = diff(us(), t0)
            if self.t0 >= 0 and self.n < 64:
                self.disturbed |= w0 > 0 and waited() != w0
                self.part[self.n] = i
                self.dt[self.n] = dt
                self.n += 1
            return r
        return timed

    def _since_seg(self):
        dt = self.diff(self.us(), self.seg)
        w = self.waited.us() - self.wseg
        if w:
            self.preempted += w
            self.disturbed = True
        return dt

    def poll(self, frame, answered):
        if self.t0 >= 0 or self.next is not None:
            self.skipped += 1       # the previous one is still unanswered
            return
        self.next = frame
        self.answered = answered
        # it lands after the 1st to 12th read from now, in turn: the SAS task's
        # or one of those the display makes between its lines and parts
        self.reads = self.rot % 12
        self.rot += 1

    def read(self, buf, wake):
        n = self.line.read(buf, wake)
        if self.next is not None and self.reads:
            self.reads -= 1
        elif self.next is not None:
            frame = self.next
            self.next = None
            self.line.host_send(frame)
            if self.answered:
                self.code = frame[1] if len(frame) > 1 else frame[0]
                self.n = 0
                self.acc = self.bus = 0
                self.disturbed = False
                self.wseg = self.waited.us()
                self.t0 = self.seg = self.us()
        return n

    def write(self, data):
        if self.t0 >= 0:
            # firmware time only: the mock world's time between passes
            # (clock.advance, the bench's host) is not the cabinet's, and an
            # answer during which the host OS gave the CPU to another
            # process is not counted (dropped)
            dt = self.acc + self._since_seg() + self.bus
            self.t0 = -1
            if self.disturbed:
                self.dropped += 1
                self.line.host_read()
                return self.line.write(data)
            k = 1 if self.code < 0x80 else 0
            self.hist[k][min(_BUCKETS - 1, dt // _BUCKET_US)] += 1
            self.count[k] += 1
            self.max[k] = max(self.max[k], dt)
            self.min[k] = min(self.min[k], dt)
            if dt > self.worst[0]:
                self.worst[0], self.worst[1], self.worst[2] = dt, self.code, self.n
                self.wbus = self.bus
                self.wpart[:] = self.part
                self.wdt[:] = self.dt
        self.line.host_read()
        return self.line.write(data)
