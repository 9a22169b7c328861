"""A table of real controllers in one process: the dome controller
(firmware/table/dome.py) and N stations (the cabinet's Controller with the
station's game cycle) on mock boards with fake clocks, their table links on
one in-memory bus (hal/mock/rs485.LoopBus), stepped in lockstep a
millisecond at a time. Short round times keep the tests quick."""
from hal import buttons as B
from hal.mock.board import Board
from hal.mock.rs485 import LoopBus
from firmware.link import dome as D

FAST = {"window_ms": 1500, "result_ms": 1000, "shake_ms": 500, "settle_ms": 100,
        "shooter_idle_ms": 60000}


class Rig:
    def __init__(self, seats=2, seed=7, config=None, sas=None):
        from firmware.table.dome import DomeController
        from firmware.cabinet.controller import Controller
        self.bus = LoopBus()
        cfg = dict(FAST)
        cfg.update(config or {})
        self.dome_board = Board(seed=seed, fake_clock=True, settle_ms=50, link=self.bus)
        self.dome = DomeController(self.dome_board, cfg)
        self.boards = []
        self.ctls = []
        for a in range(1, seats + 1):
            b = Board(seed=seed + a, fake_clock=True, link=self.bus, sas=sas)
            self.boards.append(b)
            self.ctls.append(Controller(b, seat=a))
        self.ms = 0

    def station(self, a):
        return self.ctls[a - 1]

    def step(self, ms=1):
        for _ in range(ms):
            self.ms += 1
            self.dome_board.clock.advance(1)
            self.dome.step()
            for b, c in zip(self.boards, self.ctls):
                b.clock.advance(1)
                if self.ms % 2 == 0:
                    c.step(b.clock.ticks_ms(), self.ms % 50 == 0)
                else:
                    c.game.tick(b.clock.ticks_ms())

    def until(self, cond, limit_ms=60000):
        end = self.ms + limit_ms
        while not cond():
            if self.ms > end:
                raise AssertionError("timed out")
            self.step(5)

    def bill(self, a, dollars):
        self.boards[a - 1].insert_bill(dollars)

    def press(self, a, name, times=1):
        for _ in range(times):
            self.boards[a - 1].press(getattr(B, name))
            self.step(80)

    def rounds(self):
        return self.dome.log.rounds

    def phase(self):
        return self.dome.dome.phase

    def screen(self, a):
        c = self.station(a)
        c.tick_display(self.boards[a - 1].clock.ticks_ms(), True)
        return "\n".join(c.lines or ())


BETTING = D.BETTING
SHAKING = D.SHAKING
