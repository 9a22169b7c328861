"""The bench's SAS line for `tools/bench firmware --sas` (tools/bench_session.py
loads it only then): a host polling the cabinet, each poll timed to its answer."""


# long polls the bench host sends in turn (frames with their CRC where the
# poll carries data: 2F/6F game 0000 with meter codes, 4D look-ahead, 4C read)
LONG_POLLS = (b"\x01\x1c", b"\x01\x0f", b"\x01\x19", b"\x01\x1e", b"\x01\x1a",
              b"\x01\x10", b"\x01\x1f", b"\x01\x48", b"\x01\x54", b"\x01\x7e",
              b"\x01\x1b", b"\x01\x18", b"\x01\x20", b"\x01\x57",
              b"\x01\x2f\x05\x00\x00\x00\x05\x0c\x9b\x5b",
              b"\x01\x6f\x06\x00\x00\x00\x00\x05\x00\x3b\x09",
              b"\x01\x4d\xff\xba\xa3")


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


_BUCKET_US = 100         # answer-time histogram: 100 us buckets up to 25 ms
_BUCKETS = 250
_OWN = 200               # long polls timed alone after the session


class TimedLine:
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

    def host(self, passes):
        """The SAS host at 10 ms pass `passes`: a general poll every 100 ms
        (every other one acknowledged by a poll to another address), a long
        poll every 500 ms, each landing at the worst moment."""
        if not passes % 10:
            if passes % 20:
                self.poll(b"\x82", False)
            else:
                self.poll(b"\x81", True)
        elif passes % 50 == 5:
            self.poll(LONG_POLLS[(passes // 50) % len(LONG_POLLS)], True)

    def own_work(self, clock):
        """After the session: a long poll's own work (parse, meters, CRC,
        write), the poll already received, timed alone."""
        import time
        ctl = self.ctl
        for i in range(len(self.own)):
            self.line.host_send(b"\x01\x1c" if i % 2 else b"\x01\x0f")
            w0 = self.waited.us()
            t0 = time.ticks_us()
            ctl.sas.tick(clock.ticks_ms())
            dt = time.ticks_diff(time.ticks_us(), t0)
            w = self.waited.us() - w0
            if w:
                self.preempted += w
                self.dropped += 1
            else:
                self.own[self.nown] = min(dt, 65535)
                self.nown += 1
            assert len(self.line.host_read()) in (28, 36)

    def _median(self, k):
        half = self.count[k] // 2
        seen = 0
        for i in range(_BUCKETS):
            seen += self.hist[k][i]
            if seen > half:
                return (i + 1) * _BUCKET_US
        return self.max[k]

    def report(self):
        for k, what in ((1, "long poll"), (0, "general poll")):
            if self.count[k]:
                print("SAS %s answer time (poll landing just after the SAS read -> first byte"
                      " out), %d polls: min %d us, median <= %d us, max %d us" % (
                          what, self.count[k], self.min[k], self._median(k), self.max[k]))
        dt, code, n = self.worst
        spent = ", ".join("%s %d us" % (self.PARTS[self.wpart[i]], self.wdt[i])
                          for i in range(n))
        print("SAS worst answer: %d us to poll %02X (I2C display time included: %d us);"
              " parts finished meanwhile: %s" % (dt, code, self.wbus, spent or "none"))
        own, n = self.own, self.nown
        for i in range(1, n):       # in place: the heap is the one measured
            v, j = own[i], i
            while j and own[j - 1] > v:
                own[j] = own[j - 1]
                j -= 1
            own[j] = v
        print("SAS long poll 0F/1C own work (parse, meters, CRC, write): min %d us, median %d us,"
              " max %d us; %d polls answered, %d not sent (previous one unanswered);"
              " spec: start the answer within 20 ms" % (
                  own[0], own[n // 2], own[n - 1], self.ctl.sas.polls, self.skipped))
        # tick/serve swallow exceptions (a MemoryError too): a bench that hid one would lie
        print("SAS errors: %d %s" % (self.ctl.sas.errors, self.ctl.sas.error))
        print("(%d measurements left out: the host OS ran other processes meanwhile, %d ms in all,"
              " /proc/self/schedstat)" % (self.dropped, self.preempted // 1000))
