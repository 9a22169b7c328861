"""An escrow bill validator (ID-003 style) for the host mock, whose bill
position outlives the simulator: with a state file every move is appended
as a line (flushed at once), so after a `kill -9` the next power-up knows
where the bill was, as a real validator does:

  I cents   being read                    E cents   read, held in escrow
  K cents   stacking (ordered)
  S cents   in the cash box (stacked)     A         the cabinet acknowledged
  R cents   given back to the player

(a ticket: cents 0, then its barcode digits on the line).

Power-up: last line I, E or K -> the bill is given back (R); S -> reported
STACKED until acknowledged ("power up with bill in stacker"). A torn last
line counts as not written (the move had not happened).
"""
from micropython import const
from hal.escrow import BUSY, IDLE, ESCROW, STACKED, FAULT, TICKET

_ACCEPT_MS = const(200)  # reading the note
_STACK_MS = const(300)   # escrow -> cash box
_RETURN_MS = const(200)
_ACCEPTING = const(10)
_STACKING = const(11)
_RETURNING = const(12)


class MockValidator:
    def __init__(self, clock, money, path=None):
        self._clock = clock
        self._money = money    # shares the inhibit line of the pulse devices
        self.state = IDLE
        self.cents = 0
        self._due = 0
        self.refused = 0
        self.stacked = 0       # cents stacked this power-up (tests)
        self.fault_code = 0    # a hal.faults code while faulted (tests: fault())
        self.returned = 0
        self.barcode = b""     # the ticket being read or held (b"": a bill)
        self.tickets = []      # (barcode, "S" stacked or "R" given back) this power-up
        self._f = None
        if path is not None:
            last = _last_line(path)
            self._f = open(path, "a")
            if last[:1] in ("I", "E", "K"):
                self._log("R " + last[2:])
                moved = last.split()
                self.returned += int(moved[1])
                if len(moved) > 2:
                    self.tickets.append((moved[2], "R"))
            elif last[:1] == "S":
                self.state = STACKED
                self.cents = 0  # the validator does not say which note

    def _log(self, text):
        f = self._f
        if f is not None:
            f.write(text + "\n")
            f.flush()

    def _note(self, tag):
        self._log("%s %d%s" % (tag, self.cents,
                               " " + self.barcode.decode() if self.barcode else ""))

    def inhibit(self, flag):
        pass  # the mock reads the shared inhibit line (money.inhibited)

    def insert(self, dollars):
        """A note of `dollars` put in: refused while inhibited or busy."""
        if self._money.inhibited or self.state != IDLE:
            self.refused += 1
            return False
        self.state = _ACCEPTING
        self.cents = dollars * 100
        self.barcode = b""
        self._due = self._clock.ticks_add(self._clock.ticks_ms(), _ACCEPT_MS)
        self._note("I")
        return True

    def insert_ticket(self, digits):
        """A ticket whose barcode reads `digits` (str): refused like a note."""
        if self._money.inhibited or self.state != IDLE:
            self.refused += 1
            return False
        self.state = _ACCEPTING
        self.cents = 0
        self.barcode = digits.encode()
        self._due = self._clock.ticks_add(self._clock.ticks_ms(), _ACCEPT_MS)
        self._note("I")
        return True

    def fault(self, code):
        """Jammed, cash box full or out, or silent (tests): the note it holds
        stays where it was."""
        self.fault_code = code

    def clear(self, where):
        """The technician cleared the fault; the note it held went to the cash
        box (STACKED, reported as "power up with bill in stacker": no amount),
        back in escrow (ESCROW) or out of the validator (IDLE)."""
        self.fault_code = 0
        if self.cents:
            if where == STACKED:
                self.stacked += self.cents
                self._log("S %d" % self.cents)
                self.cents = 0
            elif where == IDLE:
                self._log("R %d" % self.cents)
                self.cents = 0
        self.state = where

    def poll(self, now_ms=None):
        if self.fault_code:
            return FAULT, self.fault_code
        c = self._clock
        st = self.state
        if st >= _ACCEPTING and c.ticks_diff(c.ticks_ms(), self._due) >= 0:
            if st == _ACCEPTING:
                self.state = TICKET if self.barcode else ESCROW
                self._note("E")
            elif st == _STACKING:
                self.state = STACKED
                self.stacked += self.cents
                self._done("S")
            else:
                self.state = IDLE
                self.returned += self.cents
                self._done("R")
        st = self.state
        if st >= _ACCEPTING:
            return BUSY, 0
        return st, self.cents if st in (ESCROW, STACKED) else 0

    def _done(self, tag):
        self._note(tag)
        if self.barcode:
            self.tickets.append((self.barcode.decode(), tag))

    def _move(self, state, ms, tag):
        self.state = state
        self._due = self._clock.ticks_add(self._clock.ticks_ms(), ms)
        if tag:
            self._note(tag)

    def stack(self):
        if self.state in (ESCROW, TICKET):
            self._move(_STACKING, _STACK_MS, "K")

    def ret(self):
        if self.state in (ESCROW, TICKET):
            self._move(_RETURNING, _RETURN_MS, "")

    def ack(self):
        if self.state == STACKED:
            self.state = IDLE
            self.cents = 0
            self.barcode = b""
            self._log("A")

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None


def _last_line(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return ""
    if not text.endswith("\n"):  # torn: that move never happened
        text = text[:text.rfind("\n") + 1]
    lines = text.split("\n")
    return lines[-2] if len(lines) > 1 else ""
