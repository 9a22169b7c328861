"""The dome controller of a table (firmware/link/LINK.md): the board's
shaker, dice sensors, motion sensor, door, tilt and lamps, the round journal
on its flash region, and the link's master (firmware/link/dome.py, pure;
this is its shell). It holds no money. Its screen, where the board has
one, is the table at a glance.

The audit key turned at the dome is the attendant's reset of a lockup
(cocked-die or shaker lockup: the table stops until then).
"""
from micropython import const
from hal.ticks import ticks_add, ticks_diff
from hal import lamps as LP
from hal.dice_decode import Settler
from firmware.cabinet import game as G
from firmware.link import dome as D
from firmware.link import messages as M
from firmware.link.rounds import RoundLog

_SHAKE_MS = const(3000)      # the stand-alone defaults (firmware/store/config.py)
_SETTLE_MS = const(600)
_REFRESH_MS = const(250)
_RESTART_MS = const(2000)    # the RESTARTING screen stays up this long (as the cabinet's)


class DomeController:
    _rand = G.Game._rand        # the shake time's jitter, drawn as the stand-alone's

    def __init__(self, board, config=None):
        self.board = board
        self.clock = board.clock
        now = self.clock.ticks_ms()
        cfg = dict(config or ())
        self.base_ms = cfg.pop("shake_ms", _SHAKE_MS)
        self.settle_ms = cfg.pop("settle_ms", _SETTLE_MS)
        self.log = RoundLog(board.flash, board.watchdog.feed)
        rand = getattr(board, "urandom", None)
        if rand is None:
            from os import urandom as rand
        self._urandom = rand
        self.boot_status = self.log.boot(self._table_id)
        if self.log.critical:
            print("CRITICAL", self.log.reason)
        self.dome = D.Dome(self.log, now, cfg)
        # a roll's state for firmware/cabinet/game.py's shake functions
        from array import array  # the stand-alone's jitter state (game.py Game.__init__)
        self._rng = array("I", ((now * 2654435761 + 12345) & 0xFFFFFFFF or 1,))
        self.settler = Settler(600)
        self.shake_ms = 0
        self.moved = None
        self._t0 = now
        self._rolling = 0            # the dome's shake_no being shaken (0: none)
        self._settling = False
        self._rx = bytearray(64)
        self._key = board.audit_key.value() == 1
        self._drawn = None
        self._refresh = now
        self._restart_at = None

    def _table_id(self):
        b = self._urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24) or 1

    def now_s(self):
        return self.clock.now()

    # ---- one pass ------------------------------------------------------------
    def step(self, now_ms=None):
        b = self.board
        if now_ms is None:
            now_ms = self.clock.ticks_ms()
        now_s = self.now_s()
        b.watchdog.feed()
        if self.log.restart_reason:
            self._restart(now_ms)
            return
        d = self.dome
        d.suspend(M.DOOR if b.door.value() == 1 else M.TILT if b.tilt.value() == 1 else 0)
        key = b.audit_key.value() == 1
        if key and not self._key:
            d.reset(now_s)           # the attendant's reset key
        self._key = key
        self._roll(now_ms, now_s)
        self.tick_link(now_ms, now_s)
        self._lamps()
        if ticks_diff(now_ms, self._refresh) >= _REFRESH_MS:
            self._refresh = now_ms
            self.draw()

    def _restart(self, now_ms):
        """A passing fault stopped the round journal (RoundLog): the shaker
        stops, the RESTARTING screen for a moment, then the board's reset."""
        if self._restart_at is None:
            print("RESTART", self.log.restart_reason)   # the console log
            self.board.shaker.stop()
            self._restart_at = ticks_add(now_ms, _RESTART_MS)
            self.draw()
        elif ticks_diff(now_ms, self._restart_at) >= 0:
            self._restart_at = ticks_add(now_ms, _RESTART_MS)   # a board never returns
            self.board.reset()

    def tick_link(self, now_ms, now_s=None):
        """Received bytes to the framer, the next frame out."""
        link = self.board.link
        fr = self.dome.framer
        n = link.read(self._rx)
        while n:
            for i in range(n):
                fr.feed(self._rx[i])
            n = link.read(self._rx)
        n = self.dome.tick(now_ms, self.now_s() if now_s is None else now_s)
        if n:
            link.write(self.dome.out[:n])

    def _roll(self, now_ms, now_s):
        d = self.dome
        if d.phase != D.SHAKING:
            if self._rolling:
                self.board.shaker.stop()    # voided mid-shake (door, tilt)
                self._rolling = 0
            return
        if self._rolling != d.shake_no:
            self._rolling = d.shake_no
            self._settling = False
            G.shake_start(self, now_ms, self.base_ms)
            return
        if not self._settling:
            self._settling = G.shake_tick(self, now_ms, self.settle_ms)
            return
        got = G.settle_tick(self, now_ms)
        if got is not None:
            self._settling = False   # a re-shake changes shake_no; a result the phase
            d.outcome(now_ms, now_s, got, self.moved)

    def _lamps(self):
        d = self.dome
        why = d.suspended()
        bits = LP.GREEN
        if why == M.LOCKED or why == M.TILT:
            bits = LP.RED
        elif why == M.DOOR:
            bits = LP.AMBER
        if d.phase == D.SHAKING:
            bits |= LP.WHITE
        lamps = self.board.lamps
        if bits != lamps.state:
            lamps.set(bits)

    # ---- the table at a glance ---------------------------------------------------
    def lines(self):
        d = self.dome
        r = self.log.rounds
        why = d.suspended()
        if self.log.critical:
            return ["DOME", "CRITICAL", self.log.reason[:16], self.log.reason[16:32]]
        if self.log.restart_reason:
            from firmware.cabinet.stopped import restart_screen
            return restart_screen(self.log.restart_reason)
        phase = M.PHASE_NAMES[d.phase]
        if d.phase == D.BETTING and d.remaining >= 0:
            phase += " %ds" % ((d.remaining + 999) // 1000)
        last = "-"
        if r.count:
            e = r.entry(0)
            last = "%d+%d=%d" % (e[3], e[4], e[3] + e[4]) if not e[5] else "VOID " + M.WHY_NAMES[e[5]]
        seats = ""
        for s in range(1, D.SEATS + 1):
            seats += str(s) if d.online & (1 << (s - 1)) else "."
        return ["DOME ROUND %d" % d.cur(), phase[:16], (M.WHY_NAMES[why] if why else "")[:16],
                "LAST " + last[:11], "POINT %s" % (r.point or "OFF"),
                "SHOOTER %s" % (r.shooter or "-"), "SEATS " + seats, ""]

    def draw(self):
        disp = getattr(self.board, "display", None)
        if disp is None:
            return
        lines = self.lines()
        if lines == self._drawn:
            return
        self._drawn = lines
        from firmware.cabinet import render
        render.draw(disp, lines)
        try:
            disp.show()
        except OSError:
            self.board.display = None    # dead: the table does not need it

    def run(self, stop=None):
        """The main loop: a pass every millisecond (the link's answer
        timeout is 15 ms)."""
        import asyncio

        async def loop():
            while stop is None or not stop():
                self.step()
                await asyncio.sleep_ms(1)
        return loop()
