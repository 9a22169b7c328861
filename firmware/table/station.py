"""A player station's game cycle at a table: the cabinet's controller runs
it in place of the stand-alone game (firmware/cabinet/game.py, the same
attributes and calls), and the round comes from the dome over the link
(firmware/link/seat.py) instead of this chip's shaker.

`tick(now_ms)` moves the link's bytes (the controller calls it every pass
and, on a board, from its own fast task); `step()` turns what the link
committed into the screens' states: a round of this station's open is a
roll in progress, its result is shown as the stand-alone shows one.
"""
from micropython import const
from firmware.cabinet.game import Game, RESULT_PAGE_MS
from firmware.link import messages as M
from firmware.link.seat import Seat
from firmware.store import ledger as L

BETTING = const(0)
SHAKING = const(1)
HELD = const(3)
HALTED = const(4)


class TableGame(Game):
    """The stand-alone Game's messages and result timing, not its shaker."""

    def __init__(self, store, board, now_ms, addr):
        self.store = store
        self.board = board
        self.link = board.link
        self.seat = Seat(addr, store, now_ms)
        store.seat = self.seat      # the attendant's desk voids a round the dome does not know
        self._rx = bytearray(64)
        self.state = BETTING
        self.remaining_ms = -1
        self.pressed_ms = None
        self.repeat = []
        self.rolls = 0              # results settled here (the controller's history)
        self.last_faces = None
        self.result_until = None
        self.result_at = now_ms
        self.result_ms = 0
        self.result_hidden = False
        self.cue = 0                # a sound for the controller (none comes from the dome yet)
        self.msg = ""
        self.msg_until = now_ms
        self.changed = True
        self._results = 0
        self._sat = 0
        self._closed = store.ledger.phase == L.CLOSED
        self._why = None
        self.resume(now_ms)

    # ---- the link ---------------------------------------------------------
    def tick(self, now_ms):
        seat = self.seat
        seat.now_ms = now_ms
        link = self.link
        n = link.read(self._rx)
        while n:
            seat.feed(self._rx, n)
            a = seat.answer(now_ms)
            if a:
                link.write(seat.out[:a])
            n = link.read(self._rx)

    # ---- the cabinet's game interface ---------------------------------------
    def resume(self, now_ms):
        led = self.store.ledger
        if self.store.critical:
            self.state = HALTED
            return
        self.state = SHAKING if led.phase == L.CLOSED else BETTING
        if self.last_faces is None and len(led.recall):
            g = led.recall.get(0)
            if not g["voided"]:
                self.last_faces = g["dice"]
        self.changed = True

    def step(self, now_ms, now_s, hold):
        if self.store.critical:
            if self.state != HALTED:
                self.state = HALTED
                self.changed = True
            return
        self.tick(now_ms)
        seat = self.seat
        seat.step(now_ms, now_s)
        led = self.store.ledger
        # the dome's door, tilt or lock holds play here too (a RAM flag: not journalled)
        led.held = M.WHY_NAMES[seat.why] if seat.online() and seat.why else ""
        closed = led.phase == L.CLOSED
        if closed and not self._closed:
            # the bets closed into the round: what REPEAT places again
            rep = [(b[0], b[1], b[5]) for b in led.table.bets if b[5]]
            if rep:
                self.repeat = rep
        self._closed = closed
        if seat.results != self._results:
            self._results = seat.results
            self._settled(now_ms)
        if seat.sat_out != self._sat:
            self._sat = seat.sat_out
            if seat.sat_out:
                self.say("SAT OUT ROUND %d\nbets stay" % seat.sat_out, now_ms, 6000)
        state = BETTING
        if closed and not seat.foreign():
            state = HELD if led.held else SHAKING
        why = seat.bets_open()
        secs = seat.secs if seat.online() and seat.phase == M.BETTING else 255
        remaining = -1 if secs == 255 else secs * 1000
        if state != self.state or why != self._why or remaining != self.remaining_ms:
            self.state = state
            self._why = why
            self.remaining_ms = remaining
            self.changed = True

    def _settled(self, now_ms):
        """A round's outcome committed here: shown as the stand-alone shows
        a result (a page of settled bets every 2 s, 4 s at least)."""
        led = self.store.ledger
        self.result_until = None
        if not len(led.recall):
            return
        g = led.recall.get(0)
        if g["voided"]:
            self.say("ROUND %d VOID\nbets returned" % g["game"], now_ms, 6000)
            return
        self.last_faces = g["dice"]
        self.rolls += 1
        pages = (len(led.last_game or ()) + 1) // 2
        self.result_ms = max(4000, pages * RESULT_PAGE_MS)
        self._show_result(now_ms)

    def rolling(self):
        """Bets are closed for the round: a round of this station's is
        open, or the dome closes, shakes or shows a round. Not while the
        table is off line or held (the player may still cash out) and not
        for a round the dome does not know (the attendant voids it)."""
        seat = self.seat
        if self.store.ledger.phase == L.CLOSED:
            return not seat.foreign()
        return seat.online() and not seat.why and \
            (seat.phase != M.BETTING or seat.closed_empty >= seat.rnd)

    def bets_closed(self):
        """Why no bet may be placed now ('' when they may): the screen's line."""
        why = self.seat.bets_open()
        if not why:
            return ""
        if self.seat.foreign():
            return "ROUND %d UNKNOWN\nCALL ATTENDANT" % self.store.ledger.round
        return why[:16] + "\n" + ("wait for result" if self.rolling() else "")

    def request_roll(self):
        """ROLL: only the shooter's station shoots."""
        now = self.seat.now_ms
        if self.seat.shoot(now):
            self.say("YOU SHOOT", now, 1500)
            return True
        s = self.seat.shooter
        self.say("NOT THE SHOOTER\n" + ("SEAT %d SHOOTS" % s if s else "NO SHOOTER"), now)
        return False

    def countdown_s(self):
        return -1 if self.remaining_ms < 0 else self.remaining_ms // 1000

    def shooter_text(self):
        """Who shoots, for every station's screen."""
        s = self.seat.shooter
        if not s:
            return ""
        return "YOU SHOOT" if s == self.seat.addr else "SEAT %d SHOOTS" % s

    def message(self, now_ms):
        m = Game.message(self, now_ms)
        if m:
            return m
        why = self.bets_closed()
        if why and self.state == BETTING:
            return why
        return self.shooter_text()
