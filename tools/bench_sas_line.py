"""The cabinet's SAS port in `tools/bench firmware --sas-plain` and `--sas`
(tools/bench_session.py loads this only then; --sas adds the answer-time
instrumentation, tools/bench_sas_timed.py, a subclass in its own module so
the plain session's heap holds none of its code). The casino system's side
is not in this process: tools/bench_sas_host.py (CPython) writes the frames
the host polls with before the session, and checks and reports every answer
after it. This line only lands those frames on the firmware's reads at the
host's schedule and logs each answer as it goes out: its bytes and the
cabinet's meters at that moment. Everything it needs is allocated up front:
it must not change the heap it is in. Its state is one array indexed by
constants, its names are ones the firmware interns anyway: past 1,260
interned names the unix port takes a 14 KB qstr pool.

Log records (array "q", 64-bit): LANDED, sequence, frame, pass, 0, 0, 0,
0; ANSWER or OWN, sequence of the poll answered, frame, pass, answer time
(us), modelled I2C time (us), 1 if the host OS ran another process
meanwhile (not a measurement), answer length (the plain line: times 0);
then the answer, then (answers longer than a byte) the ledger's meters,
the player's credits and the credit unit, padded with zeros to a multiple
of 8; END, polls answered, polls not sent (the previous one unread or
unanswered), 0...
"""
import array
from micropython import const

_LANDED = const(1)       # record kinds (tools/bench_sas_host.py)
_ANSWER = const(2)
_END = const(4)

# the line's state, self.s[...] (tools/bench_sas_timed.py uses 8 and up)
_NEXT = const(0)         # frame to land at a read (-1: none)
_READY = const(1)        # frame landed, for the next read (-1: none)
_READS = const(2)        # reads to let pass before it lands
_ROT = const(3)          # polls sent
_SEQ = const(4)          # frames landed
_SLOT = const(5)         # frame landed last
_PASS = const(6)         # the session's 10 ms pass
_SKIP = const(7)         # polls not sent


class Line:
    """Board contract of a SAS port (hal/__init__.py: read(buf, wake),
    write(data)): the host's frames from file FRAMES, the log to file LOG.
    Frames: 16-byte slots, a length then the frame: slot 0 the general
    poll for this cabinet, slot 1 one for another address, then the long
    polls the host cycles through. A poll lands at the firmware's next
    read of the line."""

    def __init__(self, frames, log):
        with open(frames, "rb") as f:
            self.frames = f.read()
        self.f = open(log, "wb")
        self.ctl = None
        self.buf = array.array("q", [0] * 8)       # a record's head, or 8 meters
        s = self.s = array.array("q", [0] * 16)
        s[_NEXT] = s[_READY] = s[_SLOT] = -1

    def start(self, ctl):
        self.ctl = ctl

    def host(self, n):
        """The host's schedule at 10 ms pass n: a general poll every
        100 ms (every other one to another address: an implied ACK), a long
        poll every 500 ms, in turn."""
        s = self.s
        s[_PASS] = n
        if not n % 10:
            # another address first: the start-up synchronisation
            slot = 0 if n % 20 else 1
        elif n % 50 == 5:
            slot = 2 + (n // 50) % (len(self.frames) // 16 - 2)
        else:
            return
        if self.busy():
            s[_SKIP] += 1
            return
        s[_NEXT] = slot
        s[_READS] = self.reads_before()
        s[_ROT] += 1

    def busy(self):
        return False

    def reads_before(self):
        return 0

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
                n = self.landed(buf, flags)
        return n

    def landed(self, buf, flags):
        """The poll due lands now: at once in this read."""
        self.land()
        return self.put(buf, flags)

    def land(self):
        s = self.s
        slot = s[_READY] = s[_SLOT] = s[_NEXT]
        s[_NEXT] = -1
        s[_SEQ] += 1
        self.log(_LANDED, s[_SEQ], slot, s[_PASS], 0, 0, 0, 0)
        return slot

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
        self.answer(_ANSWER, 0, 0, 0, data)
        return len(data)

    def answer(self, kind, t, bus, dist, data):
        s = self.s
        self.log(kind, s[_SEQ], s[_SLOT], s[_PASS], t, bus, dist, len(data))
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

    def close(self):
        s = self.s
        self.log(_END, self.ctl.sas.count, s[_SKIP], 0, 0, 0, 0, 0)
        self.f.close()
