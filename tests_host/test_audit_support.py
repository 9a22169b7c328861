"""Shared set-up for the audit tests (no tests here; runs on CPython and the
MicroPython unix port): a store on the mock NOR flash with a few games played,
and a driver that presses buttons on a Menu through the mock board."""
from hal.mock.board import Board
from hal import buttons as B
from firmware.store.store import Store
from firmware.store import records as TR
from firmware.rules import wagers as W

IDENT = {"station": "CRAPS-01", "version": "0.1.0", "name": "BubbleCraps",
         "serial": "SN0042", "profile": "table"}
DICE = ((3, 4), (1, 1), (2, 4), (4, 2), (6, 1), (5, 5), (2, 2), (6, 6), (3, 3), (1, 2))


# the technician's PIN the tests set (a new cabinet has none)
TECH_PIN = "246810"


def set_pin(s, b, pin=TECH_PIN):
    """Sets the technician PIN through the store, as the audit menu does."""
    from firmware.audit import pin as PIN
    assert PIN.PinGuard(s, b.clock).change(b.clock.now(), pin) == 0


def make(games=3, credits=200, seed=7, pin=TECH_PIN):
    """pin None: a cabinet where no PIN was set yet."""
    b = Board(seed=seed, fake_clock=True, flash_size=262144)
    s = Store(b.flash)
    s.boot(b.clock.now())
    if pin:
        set_pin(s, b, pin)
    if credits:
        s.credit(b.clock.now(), TR.SRC_BILL, credits * 100)
    play(s, b, games)
    return s, b


def play(s, b, games):
    for i in range(games):
        t = b.clock.now()
        if s.ledger.table.credits < 2000:
            s.credit(t, TR.SRC_BILL, 10000)
        if s.ledger.table.point == 0 and s.ledger.table.find(W.PASS) is None:
            s.bet(t, W.PASS, 500)
        if s.ledger.table.find(W.FIELD) is None:   # a winning field bet stays up
            s.bet(t, W.FIELD, 200)
        s.close(t)
        d1, d2 = DICE[i % len(DICE)]
        s.roll(t, d1, d2)
        b.clock.advance(1000)


def cash_out(s, b):
    """Clears the table: the rest of the credits by handpay, then reset."""
    t = b.clock.now()
    while s.ledger.table.bets:
        # bets stay up after a win: take down what may come down, and roll
        # a seven to decide the contracts
        for bet in list(s.ledger.table.bets):
            s.remove(t, bet[0], bet[1])
        if s.ledger.table.bets:
            s.close(t)
            s.roll(t, 3, 4)
    if s.ledger.table.credits:
        s.cashout(t, TR.BY_HANDPAY)
        s.reset(t)


class Driver:
    """Presses buttons through the mock board's debounced bank, as the
    controller would: poll -> on_button, then tick."""

    def __init__(self, menu, board):
        self.m = menu
        self.b = board

    def step(self, ms=20):
        c = self.b.clock
        c.advance(ms)
        now = c.ticks_ms()
        for code in self.b.buttons.poll(now):
            self.m.on_button(code, now)
        self.m.tick(now)
        self.check()

    def press(self, *codes):
        for code in codes:
            self.b.press(code)
            for _ in range(8):  # debounce: press and release accepted in ~140 ms
                self.step()

    def run(self, ms, step=20):
        for _ in range(ms // step):
            self.step(step)

    def check(self):
        lines = self.m.lines()
        assert len(lines) == 8, lines
        for line in lines:
            assert len(line) <= 16, line
        assert self.m.overflow == 0, lines

    def text(self):
        return "\n".join(self.m.lines())

    def enter(self, item):
        """From the main menu: choose an item by its label."""
        main = self.m.stack[0]
        labels = [i[0] for i in main.items]
        while len(self.m.stack) > 1:
            self.press(B.CLEAR)
        target = labels.index(item)
        while main.cursor != target:
            self.press(B.NEXT)
        self.press(B.ROLL)

    def pin(self, digits):
        """Types a PIN on the PIN screen and submits it."""
        first = True
        for ch in digits:
            if not first:
                self.press(B.NEXT)
            first = False
            for _ in range(int(ch)):
                self.press(B.BET_UP)
        self.press(B.ROLL)
        self.settle()

    def settle(self, limit=500):
        """Runs while the menu stretches a PIN (a slice a pass)."""
        while getattr(self.m.top(), "busy", False) and limit:
            self.step()
            limit -= 1


def menu(store, board, root="."):
    from firmware.audit.menu import Menu
    return Menu(store, board, IDENT, root=root)
