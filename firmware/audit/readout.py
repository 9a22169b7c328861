"""Meter read-out: a read-only line protocol on the technician serial port,
answered while the cabinet runs.

Requests are ASCII lines ending in LF (a CR before it is ignored), at most
MAX_LINE bytes; the command word is case-insensitive. Every non-empty line
gets exactly one reply: a first line "OK <COMMAND> ..." or "ERR <code> <text>",
then data lines, then a line holding a single "." (a data line that begins
with "." is sent with one more "." in front, as in SMTP). Empty lines are
ignored (keep-alive).

  HELP                 the command list
  ID                   key=value: station, name, version, serial, profile
  STATUS               key=value: credits, phase, lock, lock_amount, suspended,
                       critical, games, recall, events
  METERS               "<key> <value> <group> <label>" for every meter
  METER <key>          the same line for one meter
  CONFIG               key=value for every setting (the PIN record hidden)
  HISTORY              "<time> <key> <old> <new>" newest first (PIN hidden)
  RECALL               "OK RECALL <games>": how many games recall holds
  RECALL <i>           game i (0 = newest) as key=value lines, one "bet=" line
                       per bet: kind number result amount paid
  EVENTS [n [start]]   n (1..50, default 20) events from the start-th newest
                       (0 = newest): "<number> <time> <code> <arg> <name>[; <detail>]"
  BILLS                the last 10 bills: "<time> <amount>" newest first
  TICKET               the newest printed ticket: number= (18 digits), amount=,
                       time=, sequence=
  DIGEST               "OK DIGEST <64 hex>", files=, bytes=, extra= (files on
                       the filesystem the release did not install), then the
                       first EXTRAS_PAGE of them as extra_file= lines. On the
                       port the answer comes by itself once computed (a few
                       blocks a pass; the next request waits for it). Through
                       feed() (in-process) "ERR 5 busy <pct>%" means ask again.
  EXTRAS [start]       the last DIGEST's extra files, EXTRAS_PAGE from the
                       start-th: "OK EXTRAS <k> of <n> from <start>", then
                       extra_file= lines (ERR 6 before a DIGEST)

Error codes: 1 unknown command, 2 line too long, 3 bad characters (only
printable ASCII), 4 bad argument, 5 busy, 6 not found.

Read-only by construction: the store is only read, never written; no
command changes credits, meters or configuration. Memory is bounded: the
request buffer is pre-allocated (MAX_LINE bytes; a longer line is discarded
up to its LF and answered ERR 2) and every reply is at most MAX_REPLY bytes.
On a port, `service()` answers one request line at a time and takes the next
only when the port has taken all of the reply before it (partial writes
honoured), so at most one reply waits in RAM whatever arrives: a flood of
requests waits in the port's receive buffer instead (a UART drops what
overflows it; those lines are simply not answered).
"""
from micropython import const
from firmware.store import meters as M
from firmware.store import events as E
from firmware.store import config as C
from firmware.audit import report as RP
from firmware.audit import text as T
from firmware.audit.digest import for_board, DONE
from firmware.cabinet import fallback as FB  # the formats the basic read-out shares

MAX_LINE = const(128)
MAX_REPLY = const(8192)
EVENTS_MAX = const(50)
EVENTS_DEFAULT = const(20)
DIGEST_CHUNKS = const(16)
EXTRAS_PAGE = const(16)
MAX_NAME = const(255)   # littlefs's longest name: a path is listed whole

# a reply given as a generator goes out built this many lines a main-loop
# pass on a port (a meter line is ~1 ms on an RP2040; a SAS poll waits for
# the part of the pass that runs)
_LINES_A_PASS = const(8)

E_UNKNOWN = const(1)
E_LONG = const(2)
E_CHARS = const(3)
E_ARG = const(4)
E_BUSY = const(5)
E_NOTFOUND = const(6)

HELP = ("HELP", "ID", "STATUS", "METERS", "METER <key>", "CONFIG", "HISTORY",
        "RECALL [i]", "EVENTS [n [start]]", "BILLS", "TICKET", "DIGEST", "EXTRAS [start]")


def _extra_lines(extras, start):
    return ["extra_file=%s" % n[:MAX_NAME] for n in extras[start:start + EXTRAS_PAGE]]


def _int(text, low, high):
    """int in [low, high] or None (digits only, at most 6 of them)."""
    if not text or len(text) > 6 or not all("0" <= c <= "9" for c in text):
        return None
    v = int(text)
    return v if low <= v <= high else None


def _stuff(text):
    """A reply line that starts with '.' gets another, so only the closing
    line is a lone '.'."""
    for i in range(len(text)):
        if text[i].startswith("."):
            text[i] = "." + text[i]


class Readout:
    def __init__(self, store, identity, root=".", clock=None):
        self.store = store
        self.identity = identity
        self.root = root
        self.clock = clock
        self._buf = bytearray(MAX_LINE)
        self._n = 0
        self._discard = False
        self._digest = None
        self._extras = None     # the last finished DIGEST's extra files
        self._wait = False      # a DIGEST asked on the port, answer not sent yet
        self._port = False      # requests come through service() (a port)
        self._rx = bytearray(64)
        self._rpos = 0           # service(): bytes of _rx taken so far ...
        self._rn = 0             # ... of the _rn read from the port
        self._out = b""          # the reply going out, and how much of it went
        self._opos = 0
        self._building = None    # the lines (a generator) of a reply going out as it is built
        self.lines_in = 0
        self.errors = 0

    # ---- transport ---------------------------------------------------
    def feed(self, data):
        """Bytes in (any split), reply bytes out (b"" until a line ends)."""
        if not isinstance(data, (bytes, bytearray)):
            data = bytes(data)
        out = []
        pos = 0
        size = len(data)
        while pos < size:
            pos = self._take(data, pos, size, out)
        return "".join(out).encode() if out else b""

    def _take(self, data, pos, size, out):
        """Takes data[pos:size] up to and including the first LF (a finished
        line's reply goes to `out`); returns the position after it."""
        nl = data.find(b"\n", pos)
        end = size if nl < 0 or nl > size else nl
        if not self._discard:
            k = end - pos
            if self._n + k > MAX_LINE:
                self._discard = True
            else:
                self._buf[self._n:self._n + k] = data[pos:end]
                self._n += k
        if end == size:
            return size
        if self._discard:
            self._reply(out, self._err(E_LONG, "line too long (max %d)" % MAX_LINE))
        else:
            self._line(out, self._n)
        self._n = 0
        self._discard = False
        return end + 1

    def received(self, data, n):
        """Bytes the caller already read from the port (the first ones: the
        controller loads the read-out when they arrive); service() takes them
        before reading more."""
        self._rx[:n] = data[:n]
        self._rpos = 0
        self._rn = n

    def service(self, serial):
        """One main-loop step on a board serial (read(buf) -> n, write(data)
        -> bytes taken): writes what the port takes of the reply going out;
        once it is all out, answers the next request line (bytes already
        read first, else a read). Advances a pending digest and sends its
        answer when it is done. Never blocks."""
        if self._opos == len(self._out) and self._wait:
            self.tick()
            d = self._digest
            if d is not None and not d.finished():
                return          # the DIGEST answer is still being computed
            self._wait = False
            out = []
            self._reply(out, self.c_digest(()))
            self._out = out[0].encode()
            self._opos = 0
        if self._building is not None:
            self._build()       # the next lines, behind what is still going out
        if self._opos < len(self._out):
            self._send(serial)  # one write a pass: the next request waits for the next
            self.tick()
            return
        out = []
        self._port = True
        while not out and not self._wait and self._building is None:
            if self._rpos >= self._rn:
                self._rn = serial.read(self._rx) or 0
                self._rpos = 0
                if not self._rn:
                    break
            self._rpos = self._take(self._rx, self._rpos, self._rn, out)
        if out:
            self._out = out[0].encode()
            self._opos = 0
        if self._opos < len(self._out):
            self._send(serial)
        self.tick()

    def _send(self, serial):
        """Writes what the port takes; True once the whole reply is out."""
        w = serial.write(memoryview(self._out)[self._opos:])
        if w:
            self._opos += w
        if self._opos < len(self._out):
            return False
        self._out = b""
        self._opos = 0
        return True

    def backlog(self):
        """Reply bytes waiting for the port (at most MAX_REPLY)."""
        return len(self._out) - self._opos

    def tick(self):
        d = self._digest
        if d is not None and not d.finished():
            d.step(DIGEST_CHUNKS)

    # ---- lines -------------------------------------------------------
    def _reply(self, out, lines):
        if self._port and not isinstance(lines, list):
            # a long reply on a port goes out as it is built, a few lines a pass
            self._building = lines
            self._build()
            return
        text = []
        for line in lines:
            text.append(line)
        self._finish(out, text)

    def _build(self):
        """The next lines of the reply being built, put behind what of the
        reply is still going out; its closing '.' once they are all there."""
        gen = self._building
        if gen is None:
            return
        text = []
        try:
            for _ in range(_LINES_A_PASS):
                text.append(next(gen))
        except StopIteration:
            self._building = None
        except Exception as exc:  # never let a request stop the cabinet
            text.append(self._err(E_ARG, "failed: %s" % type(exc).__name__)[0])
            self._building = None
        _stuff(text)
        if self._building is None:
            text.append(".")
        if text:
            self._out = self._out[self._opos:] + ("\n".join(text) + "\n").encode()
            self._opos = 0

    def _finish(self, out, text):
        _stuff(text)
        text.append(".")
        s = "\n".join(text) + "\n"
        if len(s) > MAX_REPLY:  # cannot happen with the commands below
            s = "ERR 5 reply too long\n.\n"
        out.append(s)

    def _err(self, code, text):
        self.errors += 1
        return ["ERR %d %s" % (code, text)]

    def _line(self, out, n):
        buf = self._buf
        if n and buf[n - 1] == 13:
            n -= 1
        if not n:
            return
        self.lines_in += 1
        for i in range(n):
            b = buf[i]
            if b < 32 or b > 126:
                self._reply(out, self._err(E_CHARS, "bad characters (printable ASCII only)"))
                return
        words = bytes(buf[:n]).decode().split()
        if not words:
            self._reply(out, self._err(E_UNKNOWN, "empty command"))
            return
        cmd = words[0].upper()
        fn = _COMMANDS.get(cmd)
        if fn is None:
            self._reply(out, self._err(E_UNKNOWN, "unknown command, try HELP"))
            return
        try:
            lines = fn(self, words[1:])
        except Exception as exc:  # never let a request stop the cabinet
            lines = self._err(E_ARG, "failed: %s" % type(exc).__name__)
        if lines is not None:
            self._reply(out, lines)

    # ---- commands (read-only) ---------------------------------------
    def c_help(self, args):
        return ["OK HELP %d" % len(HELP)] + list(HELP)

    def c_id(self, args):
        if args:
            return self._err(E_ARG, "ID takes no argument")
        out = ["OK ID"]
        for k, v in RP.identity_items(self.store, self.identity):
            out.append("%s=%s" % (k, v))
        if self.clock is not None:
            out.append("time=%d" % self.clock.now())
        return out

    def c_status(self, args):
        return FB.status_lines(self.store)

    def _meter_line(self, i):
        return FB.meter_line(self.store, i)

    def c_meters(self, args):
        if args:
            return self._err(E_ARG, "METERS takes no argument (METER <key>)")
        return self._meters()

    def _meters(self):
        yield "OK METERS %d" % M.COUNT
        for i in range(M.COUNT):
            yield self._meter_line(i)

    def c_meter(self, args):
        if len(args) != 1:
            return self._err(E_ARG, "METER <key>")
        i = M.INDEX.get(args[0].lower())
        if i is None:
            return self._err(E_NOTFOUND, "no meter %s" % args[0][:32])
        return ["OK METER", self._meter_line(i)]

    def c_config(self, args):
        cfg = self.store.ledger.config
        out = ["OK CONFIG %d" % len(C.CONFIG)]
        for c in C.CONFIG:
            out.append("%s=%s" % (c[0], RP.config_value(c[0], cfg.get(c[0]), cfg)))
        return out

    def c_history(self, args):
        h = self.store.ledger.conf_history
        out = ["OK HISTORY %d" % len(h)]
        for t, index, old, new in reversed(h):
            key = C.CONFIG[index][0] if 0 <= index < len(C.CONFIG) else "#%d" % index
            if key in RP.SECRET:
                old = new = "(hidden)"
            out.append("%d %s %s %s" % (t, key, old, new))
        return out

    def c_recall(self, args):
        rec = self.store.ledger.recall
        if not args:
            return ["OK RECALL %d" % len(rec)]
        i = _int(args[0], 0, 999) if len(args) == 1 else None
        if i is None:
            return self._err(E_ARG, "RECALL [i], i = 0 (newest) .. %d" % max(0, len(rec) - 1))
        g = rec.get(i)
        if g is None:
            return self._err(E_NOTFOUND, "no game %d (recall holds %d)" % (i, len(rec)))
        out = ["OK RECALL %d of %d" % (i, len(rec)), "game=%d" % g["game"], "time=%d" % g["time"],
               "dice=%d %d" % g["dice"], "point_before=%d" % g["point_before"],
               "point_after=%d" % g["point_after"], "credits_before=%d" % g["credits_before"],
               "credits_after=%d" % g["credits_after"], "rerolls=%d" % g["rerolls"],
               "voided=%d" % (1 if g["voided"] else 0)]
        for kind, number, res, amount, paid in g["bets"]:
            word = T.RESULT_WORDS[res] if 0 <= res < len(T.RESULT_WORDS) else str(res)
            out.append("bet=%s %d %s %d %d" % (T.bet_name(kind), number, word, amount, paid))
        if g["more"]:
            out.append("more=%d %d %d" % (g["more"], g["more_amount"], g["more_paid"]))
        return out

    def c_events(self, args):
        ev = self.store.ledger.events
        n = EVENTS_DEFAULT
        start = 0
        if len(args) > 2:
            return self._err(E_ARG, "EVENTS [n [start]]")
        if args:
            n = _int(args[0], 1, EVENTS_MAX)
            if n is None:
                return self._err(E_ARG, "n must be 1..%d" % EVENTS_MAX)
        if len(args) == 2:
            start = _int(args[1], 0, 100000)
            if start is None:
                return self._err(E_ARG, "start must be 0..%d" % ev.count)
        stop = min(ev.count, start + n)
        out = ["OK EVENTS %d of %d" % (max(0, stop - start), ev.count)]
        for i in range(start, stop):
            number, t, code, arg = ev.get(i)
            line = "%d %d %d %d %s" % (number, t, code, arg, E.name(code))
            detail = RP.event_detail(code, arg)
            if detail:
                line += "; " + detail
            out.append(line)
        return out

    def c_ticket(self, args):
        from firmware.sas import validation as V
        t = V.ticket(self.store.ledger)
        if t is None:
            return ["OK TICKET none"]
        number, when, amount = t
        return ["OK TICKET", "number=%s" % number, "amount=%d" % amount, "time=%d" % when,
                "sequence=%d" % self.store.ledger.val_seq]

    def c_bills(self, args):
        bills = RP.last_bills(self.store.ledger)
        return ["OK BILLS %d" % len(bills)] + ["%d %d %s" % (t, a, T.stamp(t)) for t, a in bills]

    def c_digest(self, args):
        d = self._digest
        if d is None:
            d = self._digest = for_board(self.root)
        d.step(DIGEST_CHUNKS)
        if not d.finished():
            if self._port:
                self._wait = True   # service() sends the answer when it is done
                return None
            return self._err(E_BUSY, "busy %d%% - ask again" % d.percent())
        self._digest = None
        if d.state != DONE:
            return self._err(E_NOTFOUND, "digest failed: %s" % d.error[:60])
        self._extras = d.extras
        return (["OK DIGEST %s" % d.hexdigest, "files=%d" % len(d.files), "bytes=%d" % d.total,
                 "extra=%d" % len(d.extras)] + _extra_lines(d.extras, 0))

    def c_extras(self, args):
        ex = self._extras
        if ex is None:
            return self._err(E_NOTFOUND, "no DIGEST yet: ask DIGEST first")
        start = 0
        if len(args) > 1 or args and _int(args[0], 0, 100000) is None:
            return self._err(E_ARG, "EXTRAS [start], start = 0 .. %d" % len(ex))
        if args:
            start = int(args[0])
        lines = _extra_lines(ex, start)
        return ["OK EXTRAS %d of %d from %d" % (len(lines), len(ex), start)] + lines


_COMMANDS = {
    "HELP": Readout.c_help, "ID": Readout.c_id, "STATUS": Readout.c_status,
    "METERS": Readout.c_meters, "METER": Readout.c_meter, "CONFIG": Readout.c_config,
    "HISTORY": Readout.c_history, "RECALL": Readout.c_recall, "EVENTS": Readout.c_events,
    "DIGEST": Readout.c_digest, "EXTRAS": Readout.c_extras, "BILLS": Readout.c_bills, "TICKET": Readout.c_ticket,
}
