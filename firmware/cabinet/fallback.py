"""The basic audit, built into the cabinet: what the technician gets when
the audit menu or the read-out cannot be loaded (a MemoryError on a
fragmented heap, a broken install). It is small and loaded at boot, so
the key always opens something: the meters, the attendant's actions on a lockup or a ticket in
doubt, and the RAM clear (PIN, then the arming sequence).

Basic menu (NEXT / PREV change page):
  STATUS     the lockup or ticket in doubt, credits; ROLL x2 reset or
             reprint, BET UP x2 handpay (firmware/cabinet/attend.py)
  METERS     every meter, BET UP / BET DOWN scroll
  RAM CLEAR  ROLL: PIN (none asked when the journal yields none); then
             CHIP, ODDS, REBET within 10 s, then ROLL
Basic read-out: METERS and STATUS in the full read-out's format, anything
else "ERR 5 busy"; one reply line in RAM at a time.
"""
from firmware import fmt
from micropython import const
from hal import buttons as B
from firmware.store import meters as M
from firmware.store import ledger as L
from firmware.cabinet import attend as AT
from firmware.audit import pin as PIN

_PAGES = const(3)
_PER_PAGE = const(3)   # meters a screen (two lines each)
TITLE = "AUDIT (BASIC)"


def meter_line(store, i):
    key, label, group = M.METERS[i]
    return "%s %d %s %s" % (key, store.ledger.meters.get(i), group, label)


def status_lines(store):
    led = store.ledger
    return ["OK STATUS", "credits=%d" % led.table.credits,
            "phase=%s" % ("betting" if led.phase == L.BETTING else "closed"),
            "lock=%s" % (L.LOCK_NAMES[led.lock] or "none"), "lock_amount=%d" % led.lock_arg,
            "suspended=%s" % (led.suspended() or "no"),
            "critical=%d" % (1 if store.critical else 0),
            "games=%d" % led.game_no, "recall=%d" % len(led.recall),
            "events=%d" % led.events.count,
            # METERS reconcile modulo the meters' width (0 once one wrapped too)
            "rollover=%d" % M.ROLLOVER, "balance=%d" % led.balance_check()]


class Fallback:
    """The controller's menu interface: active, on_button, tick, lines."""

    def __init__(self, store, board, why=""):
        self.store = store
        self.board = board
        self.why = why[:16]
        self.active = True
        self.page = 0
        self.first = 0         # first meter shown
        self.note = None       # result lines of the last action, until a button
        self.desk = AT.Desk(store, board)
        self.arm = AT.Arming()
        self.pad = None        # PIN digits being entered
        self.check = None      # PIN check running
        self.pin_ok = False
        self.clearing = False  # RAM clear confirmed, erasing
        board.money.inhibit(True)

    def on_button(self, code, now_ms):
        if self.clearing:
            return  # the clear finishes first
        if self.note is not None:
            self.note = None
            return
        if self.check is not None:
            return
        if self.pad is not None:
            self._pin_key(self.pad, code)
        elif code == B.NEXT or code == B.PREV:
            self.page = (self.page + (1 if code == B.NEXT else _PAGES - 1)) % _PAGES
            self.desk.confirm = -1
            self.arm = AT.Arming()
        elif self.page == 0:
            self.note = self.desk.press(code) or None
        elif self.page == 1:
            step = 1 if code == B.BET_DOWN else -1 if code == B.BET_UP else 0
            pages = (M.COUNT + _PER_PAGE - 1) // _PER_PAGE
            self.first = (self.first // _PER_PAGE + step) % pages * _PER_PAGE
        else:
            self._clear(code, now_ms)

    def _clear(self, code, now_ms):
        st = self.store
        if not st.critical and st.ledger.money_on_table():
            return
        if not self._authorised():
            if code == B.ROLL:
                self.pad = PIN.Pad()
            return
        if self.arm.press(code, now_ms):
            self.clearing = True  # tick(): a critical journal erased a sector a pass

    def _authorised(self):
        # no PIN to ask (a new cabinet, or a journal too broken to give one):
        # the key and the arming sequence guard the RAM clear
        return self.pin_ok or not PIN.is_set(self.store)

    def _clear_step(self):
        st = self.store
        if AT.clear_step(st):
            return
        self.clearing = False
        try:
            st.ram_clear(self.board.clock.now())
            self.note = ["RAM CLEARED", "PIN cleared:", "play locked,", "set a new PIN"]
        except MemoryError:  # a new ledger needs its buffers; a restart frees the heap
            self.note = ["RAM CLEAR FAILED", "no memory:", "switch off and", "on, then again"]

    def _pin_key(self, pad, code):
        pin = pad.press(code)
        if pin is None:
            return
        self.pad = None
        if pin and not PIN.enterable(pin):
            self.note = ["NOT A PIN", "%d-%d digits" % (PIN.MIN_LEN, PIN.MAX_LEN)]
        elif pin:
            self.check = PIN.PinGuard(self.store, self.board.clock).start(self.board.clock.now(), pin)
            if self.check is None:
                self.note = ["PIN LOCKED", "try later"]

    def tick(self, now_ms):
        if self.clearing:
            self._clear_step()
        c = self.check
        if c is not None and c.step(PIN.SLICE) is not None:
            self.check = None
            guard = PIN.PinGuard(self.store, self.board.clock)
            now = self.board.clock.now()
            self.pin_ok = guard.done(now, c)
            if not self.pin_ok:
                self.note = ["WRONG PIN", "%d tries left" % guard.tries_left(now)]
        self.arm.tick(now_ms)

    def lines(self):
        if self.note is not None:
            return [TITLE] + self.note + ["", "any key: back"]
        if self.check is not None:
            return [TITLE, "CHECKING PIN", "please wait"]
        if self.clearing:
            return [TITLE, "RAM CLEAR", "ERASING", "please wait"]
        if self.pad is not None:
            return ["RAM CLEAR", "ENTER PIN", "PIN " + self.pad.shown(), self.pad.note or "UP/DN NEXT PREV",
                    "ROLL=OK", "CLEAR=cancel"]
        if self.page == 0:
            return [TITLE, self.why or "menu failed"] + self.desk.lines()
        if self.page == 1:
            out = ["METERS %d/%d" % (self.first + 1, M.COUNT)]
            for i in range(self.first, min(self.first + _PER_PAGE, M.COUNT)):
                out.append(M.METERS[i][1])
                v = self.store.ledger.meters.get(i)
                out.append("%16s" % (fmt(v) if M.is_money(i) else v))
            return out + ["UP/DN scroll"]
        st = self.store
        if not st.critical and st.ledger.money_on_table():
            return ["RAM CLEAR", "REFUSED:", "money on the", "station"]
        if not self._authorised():
            return ["RAM CLEAR", "ERASES ALL DATA", "ROLL = PIN"]
        if self.arm.armed():
            return ["RAM CLEAR", "ARMED", "ROLL = CLEAR NOW", "other = disarm"]
        return ["RAM CLEAR", "To arm press:", "CHIP ODDS", "REBET", "done %d/3" % self.arm.step]


class MiniReadout:
    """The basic read-out: Readout's received()/service() interface, one
    reply line in RAM at a time (a generator makes the next when the port
    has taken the one before)."""

    def __init__(self, store):
        self.store = store
        self._rx = bytearray(64)
        self._rpos = self._rn = 0
        self._word = bytearray(8)   # the command word (upper case), cut at 8
        self._wn = 0
        self._done = False          # the word ended (a space): rest of the line ignored
        self._lines = None
        self._out = b""
        self._opos = 0

    def received(self, data, n):
        self._rx[:n] = data[:n]
        self._rpos = 0
        self._rn = n

    def service(self, serial):
        if self._opos < len(self._out):
            w = serial.write(memoryview(self._out)[self._opos:])
            self._opos += w or 0
            return
        if self._lines is not None:
            line = next(self._lines, None)
            if line is None:
                self._lines = None
            else:
                text = ("." + line) if line.startswith(".") and len(line) > 1 else line
                self._out = (text + "\n").encode()
                self._opos = 0
            return
        if self._rpos >= self._rn:
            self._rn = serial.read(self._rx) or 0
            self._rpos = 0
        while self._rpos < self._rn and self._lines is None:
            c = self._rx[self._rpos]
            self._rpos += 1
            if c == 10:
                self._lines = self._reply(bytes(self._word[:self._wn]))
                self._wn = 0
                self._done = False
            elif c == 32 or c == 13 or self._done:
                self._done = self._wn > 0
            elif self._wn < len(self._word):
                self._word[self._wn] = c - 32 if 97 <= c <= 122 else c
                self._wn += 1

    def _reply(self, word):
        if word == b"METERS":
            return self._meters()
        if word == b"STATUS":
            return iter(status_lines(self.store) + ["."])
        if not word:
            return None
        return iter(["ERR 5 busy: basic read-out (METERS, STATUS)", "."])

    def _meters(self):
        yield "OK METERS %d" % M.COUNT
        for i in range(M.COUNT):
            yield meter_line(self.store, i)
        yield "."
