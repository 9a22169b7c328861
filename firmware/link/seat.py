"""A player station's side of the link, pure logic over the station's store.

The station answers every command addressed to it with STATUS, after doing
what the command asks and committing it (firmware/link/LINK.md):
  CLOSE N    its bets are committed as round N's (TCLOSE) before it says
             "closed N"; with no bets it commits nothing and takes no bet
             until a later round opens; with its own door open (or locked)
             it sits out
  RESULT N   if round N is open here: TROLL with the dome's dice, TVOID, or
             TOUT when the dome did not count it in (the bets stay); the
             ledger takes each round's outcome once, whatever repeats
  UNKNOWN N  the dome has no record of its open round: the attendant voids
             it from the audit menu (attendant_void)
  POLL       the table now: phase, time left, shooter, newest dice
STATUS carries its newest closed round and whether it is still open: after a
restart the dome sees the open round and sends its result, so the station
asks for what it missed without a request of its own.
"""
from micropython import const
from firmware.link import frame as F
from firmware.link import messages as M
from firmware.store import records as T
from firmware.store import ledger as L
from firmware.store import seat_records as S

ANSWER_MS = const(10)   # an answer later than this is not sent (the dome asks again)
STALE_MS = const(2000)  # no poll for this long: the table is off line here
SHOOT_MS = const(2000)  # a ROLL press is reported this long
DUP_MS = const(1000)    # the same seq and type again within this: a duplicate


class Seat:
    def __init__(self, addr, store, now_ms):
        self.addr = addr
        self.store = store
        self.framer = F.Framer(self._frame)
        self.out = bytearray(F.MAX_FRAME)
        self.n = 0                  # answer waiting in out[:n]
        self.rx_ms = now_ms         # when the command it answers came in
        self.seq = 0                # that command's seq (the answer carries it)
        self.last_key = -1          # seq and type of the newest command addressed here
        self.now_ms = now_ms
        self.now_s = 0
        # the table as the dome's newest POLL told it (RAM)
        self.heard_ms = None
        self.tid = 0
        self.phase = M.BETTING
        self.rnd = 0
        self.secs = 255
        self.shooter = 0
        self.fresh = 0
        self.why = 0
        self.turn = 0
        self.dice = (0, 0)
        self.point = 0
        self.closed_empty = 0       # a round closed while this station had no bets
        self.sat_out = 0            # newest round it sat out (its screen says so)
        self.unknown = 0            # its open round, of which the dome has no record
        self.last = None            # newest result heard: (round, d1, d2, why)
        self.results = 0            # outcomes committed here (the shell redraws)
        self.shoot_ms = None
        self.leave = False

    # ---- the shell's calls -------------------------------------------------
    def step(self, now_ms, now_s):
        """Time in; keeps the layout's shooter in step with the dome's
        between rounds (Sharp Shooter follows the shooter)."""
        self.now_ms = now_ms
        self.now_s = now_s
        led = self.store.ledger
        # only a betting window after its own newest round tells the shooter
        # as it is after that round's result
        if self.online() and self.phase == M.BETTING and self.rnd > led.round and \
                led.phase == L.BETTING and not self.store.critical and \
                (self.turn != led.turn or bool(self.fresh) != led.table.new_shooter):
            self.store.commit(T.pack(S.TSHOOTER, now_s, self.turn, self.fresh))

    def feed(self, data, n=None):
        fr = self.framer
        for i in range(len(data) if n is None else n):
            fr.feed(data[i])

    def answer(self, now_ms):
        """Length of the answer in out to send now, 0 when there is none
        or it is too late (the bus is the dome's again)."""
        n = self.n
        self.n = 0
        if n and now_ms - self.rx_ms <= ANSWER_MS:
            return n
        return 0

    def online(self):
        return self.heard_ms is not None and self.now_ms - self.heard_ms < STALE_MS

    def bets_open(self):
        """'' when a bet may be placed now, else why not (the screen's text)."""
        if not self.online():
            return "TABLE OFF LINE"
        if self.why:
            return M.WHY_NAMES[self.why]
        if self.store.ledger.phase == L.CLOSED:
            return "IN ROUND %d" % self.store.ledger.round
        if self.phase != M.BETTING or self.closed_empty >= self.rnd:
            return "NO MORE BETS"
        return ""

    def is_shooter(self):
        return self.online() and self.shooter == self.addr

    def shoot(self, now_ms):
        """ROLL pressed: True if this station shoots (the dome ends the
        window at its next poll), False if another station has the dice."""
        if not self.is_shooter():
            return False
        self.shoot_ms = now_ms
        return True

    def attendant_void(self, now_s):
        """The audit menu's void of an open round the dome does not know
        (a dome RAM-cleared or replaced, or the round too old): the bets
        come back, the event log and the `voided` meter keep it."""
        led = self.store.ledger
        if led.phase != L.CLOSED or not self.foreign():
            return False
        ok = self.store.commit(T.pack(S.TVOID, now_s, led.round, M.ATTENDANT)) == 0
        if ok:
            self.unknown = 0
            self.results += 1
        return ok

    def foreign(self):
        """Its open round cannot be settled by this dome."""
        led = self.store.ledger
        return led.phase == L.CLOSED and (self.unknown == led.round or
                                          (self.tid != 0 and led.tid != self.tid))

    # ---- frames -------------------------------------------------------------
    def _frame(self, fr):
        a = fr.addr
        if (a != self.addr and a != F.BROADCAST) or fr.kind & F.ANSWER:
            return
        kind = fr.kind
        if a == self.addr:
            key = (fr.seq << 8) | kind
            if key == self.last_key and self.now_ms - self.rx_ms < DUP_MS:
                return                  # a duplicate of the command just answered
            self.last_key = key
            self.seq = fr.seq
        body = fr.payload()
        if kind == M.POLL:
            v = M.unpack(M.POLL_FMT, body)
            if v is None or (v[0] == self.tid and fr.rnd < self.rnd):
                return                  # not a poll, or an older one arriving late
            (self.tid, self.phase, self.secs, self.shooter, self.fresh, self.why,
             self.turn, d1, d2, self.point) = v
            self.dice = (d1, d2)
            self.rnd = fr.rnd
            self.heard_ms = self.now_ms
            if self.phase != M.BETTING:
                self.shoot_ms = None
        elif kind == M.CLOSE:
            v = M.unpack(M.CLOSE_FMT, body)
            if v is None:
                return
            self._close(fr.rnd, v[0])
        elif kind == M.RESULT:
            v = M.unpack(M.RESULT_FMT, body)
            if v is None:
                return
            self._result(fr.rnd, v)
        elif kind == M.UNKNOWN:
            led = self.store.ledger
            v = M.unpack(M.UNKNOWN_FMT, body)
            if v is not None and led.phase == L.CLOSED and led.round == fr.rnd and led.tid == v[0]:
                self.unknown = fr.rnd
        else:
            return
        # a commit that raised left RAM ahead of flash (Store.commit): like a
        # cut, no answer until the restart, so nothing unjournalled is told
        if a == self.addr and not self.store.restart_reason:
            self._status()

    def _sits_out(self):
        """Its own door, audit key, lock... (not the dome's hold: that is
        the whole table's)."""
        led = self.store.ledger
        why = led.suspended()
        return self.store.critical or (bool(why) and why != led.held)

    def _close(self, n, tid):
        led = self.store.ledger
        if led.phase == L.CLOSED or self._sits_out():
            return                      # open already (answered as such), or out
        if not led.table.bets:
            if n > self.closed_empty:
                self.closed_empty = n   # nothing in it: no bet until a later round
            return
        if tid == led.tid and n <= led.round:
            return                      # an old close again
        self.store.commit(T.pack(S.TCLOSE, self.now_s, n, tid))

    def _result(self, n, v):
        tid, d1, d2, why, roster, shooter, turn, fresh, rerolls = v
        led = self.store.ledger
        if self.last is None or n >= self.last[0]:
            self.last = (n, d1, d2, why)
        if led.phase != L.CLOSED or led.round != n or led.tid != tid:
            if led.table.bets and not roster & (1 << (self.addr - 1)) and n > self.sat_out and \
                    n >= self.closed_empty and led.phase == L.BETTING:
                self.sat_out = n        # bets on the layout, not in the round: they stay
            return
        if not roster & (1 << (self.addr - 1)):
            rec = T.pack(S.TOUT, self.now_s, n)
            self.sat_out = n
        elif why:
            rec = T.pack(S.TVOID, self.now_s, n, why)
        else:
            rec = T.pack(S.TROLL, self.now_s, n, d1, d2, rerolls, turn, fresh)
        if self.store.commit(rec) == 0:
            self.results += 1
            self.unknown = 0

    def _status(self):
        led = self.store.ledger
        f = 0
        pending = led.phase == L.CLOSED
        if pending:
            f |= M.PENDING
            if self.foreign():
                f |= M.FOREIGN
        if led.table.bets:
            f |= M.BETS
        if led.table.credits:
            f |= M.CREDITS
        if self._sits_out():
            f |= M.OUT
        if self.shoot_ms is not None and self.now_ms - self.shoot_ms < SHOOT_MS:
            f |= M.SHOOT
        if self.leave and not (f & (M.PENDING | M.OCCUPIED)):
            f |= M.LEAVE
        self.n = F.encode(self.out, self.addr, M.STATUS, self.seq, led.round, bytes((f,)))
        self.rx_ms = self.now_ms
