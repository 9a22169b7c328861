"""Random play through the real controller (issue 19): what a player, the
money, a technician and an attendant do, as button presses and switches on
the mock board with a fake clock, and the invariants checked after every
action. No tests here: test_cabinet_walk.py drives it with hypothesis
(CPython) and with the seeded walker below (CPython and the MicroPython
unix port: hypothesis is not there).

An action is a name and one integer argument (0..999) that picks its
details, so the seeded walker and hypothesis share them. After each one:
no exception escaped, no action was refused for an exception (meter
action_faults: the controller turns one into a refusal, so it must be
counted, not hidden), the store is not critical and the cabinet is not
restarting, the ledger's balance
check is 0, and the money is accounted for:
  credits + bets on the table
    = money in - money out (meters) + wins - losses (every committed roll's
      settlements, observed as they are committed) - vig kept (meter)
and every screen drawn (each new one, not only the last) fits the display.
"""
from hal import buttons as B
from hal.mock.board import Board
from firmware.cabinet.drive import Driver
from firmware.cabinet.stakes import CHIPS
from firmware.rules.table import WIN, LOSE
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.store import records as T
from screen_fit import fits

PROFILES = ("table", "etg", "casino", "house")
_KEYS = tuple(sorted(B.names))      # every button on the station
_BILLS = (1, 5, 10, 20, 100)
_SETUP = (("bet_timer_s", "5"), ("shake_ms", "1000"), ("settle_ms", "200"))


class Walk:
    def __init__(self, profile, seed=1):
        b = self.board = Board(seed=seed, fake_clock=True, flash_size=131072)
        self.d = Driver(b, draw=True, profile=profile)
        ctl = self.ctl = self.d.ctl
        st = self.store = ctl.store
        for key, text in _SETUP:   # the technician's set-up: quick rounds
            assert st.set_config(b.clock.now(), key, text) == R.OK
        self.gain = 0              # wins - losses of every committed roll
        self.steps = 0
        self.screens = 0
        inner = st.commit

        def commit(payload):
            code = inner(payload)
            if code == R.OK and payload[0] == T.ROLL:
                self._settled(st.ledger.last_game)
            return code
        st.commit = commit
        self.d.out = self._screen

    # ---- what is observed ------------------------------------------------
    def _settled(self, settled):
        for kind, number, amount, res, paid, vig, rnd, up in settled:
            if res == WIN:      # the winnings before any vig taken from them
                self.gain += paid + vig - (0 if up else amount)
            elif res == LOSE:
                self.gain -= amount

    def _screen(self, _text):
        self.screens += 1
        fits(self.ctl.lines, "screen %d" % self.screens)

    def check(self, where=""):
        led = self.store.ledger
        m = led.meters
        t = led.table
        assert not self.store.critical, (where, self.store.reason)
        assert not self.ctl.restarting() and not self.board.resets, where
        assert m.get("action_faults") == 0, (where, "an action raised")
        assert led.balance_check() == 0, (where, led.balance_check())
        on_table = 0
        for bet in t.bets:
            on_table += bet[2]
        assert on_table == t.on_table(), where
        books = m.get("total_in") - m.get("total_out") + self.gain - m.get("vig")
        assert t.credits + on_table == books, (where, t.credits, on_table, books)
        assert not self.board.watchdog.starved(), where

    # ---- actions ---------------------------------------------------------
    def act(self, name, arg):
        getattr(self, "a_" + name)(arg)
        self.steps += 1
        self.check("step %d: %s %d" % (self.steps, name, arg))
        # the mock printer keeps every ticket for the tests that read them; a
        # FULL walk (25,000 actions a profile) would hold hundreds, and the
        # MicroPython port's 2M heap ran out at action 11,878 that way
        printer = self.d.board.printer
        del printer.tickets[:]
        del printer.barcodes[:]

    def a_press(self, arg):             # any button
        self.d.press(_KEYS[arg % len(_KEYS)])

    def a_select(self, arg):            # a group key, then NEXT 0-3 times
        self.d.press(B.GROUP_KEYS[arg % 6])
        self.d.press(B.NEXT, arg // 6 % 4)

    def a_number(self, arg):            # NUMBER, then the key with the number
        self.d.press(B.NUMBER)
        self.d.press(B.GROUP_KEYS[arg % 6])
        if arg // 6 % 3 == 0:           # a hop's second die
            self.d.press(B.GROUP_KEYS[arg // 18 % 6])

    def a_chip(self, arg):
        self.d.press(B.CHIP, 1 + arg % 3)

    def a_bet(self, arg):               # chips on the selection
        self.d.press(B.BET_UP, 1 + arg % 3)

    def a_down(self, arg):
        self.d.press(B.BET_DOWN, 1 + arg % 2)

    def a_odds(self, arg):
        self.d.press(B.ODDS, 1 + arg % 3)

    # a player who reads the screen: goes to a wager, then acts on it
    def a_place(self, arg):             # a wager, a chip, chips on it
        kind, number = self._wager(arg)
        if self.go(kind, number):
            self._chip(_CHIPS[arg // 7 % len(_CHIPS)])
            self.d.press(B.BET_UP, 1 + arg // 50 % 3)

    def a_take(self, arg):              # a bet on the table: a chip of it (or all) down
        bet = self._bet(arg, ())
        if bet is not None and self.go(bet[0], bet[1]):
            self._chip(_CHIPS[arg // 7 % len(_CHIPS)])
            self.d.press(B.BET_DOWN)

    def a_back(self, arg):              # a line or come bet on the table: odds behind it
        bet = self._bet(arg, (W.PASS, W.DONT_PASS, W.COME, W.DONT_COME))
        if bet is not None and self.go(bet[0], bet[1]):
            self._chip(_CHIPS[arg // 7 % len(_CHIPS)])
            self.d.press(B.ODDS, 1 + arg // 50 % 2)

    def a_toggle(self, arg):            # a bet on the table: ON/OFF
        bet = self._bet(arg, ())
        if bet is not None and self.go(bet[0], bet[1]):
            self.d.press(B.ONOFF)

    def _wager(self, arg):
        """A wager the profile offers, the line and come bets and their odds
        three times as often, with a number it can take now."""
        t = self.store.ledger.table
        offered = t.p["offered"]
        kinds = list(offered) + [k for k in offered if k < W.PLACE] * 2
        kind = kinds[arg % len(kinds)]
        if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
            return kind, t.point
        if kind in W.ODDS_BASE:
            nums = [b[1] for b in t.bets if b[0] == W.ODDS_BASE[kind] and b[1]] or [0]
        elif kind == W.HOP and t.p["hops"]:
            nums = t.p["hops"]
        else:
            nums = W.NUMBERS.get(kind, (0,))
        return kind, nums[arg // 3 % len(nums)]

    def _bet(self, arg, kinds):
        bets = [b for b in self.store.ledger.table.bets if not kinds or b[0] in kinds]
        return bets[arg % len(bets)] if bets else None

    def _chip(self, cents):
        """CHIP until the STAKE shown is `cents`: once round the stakes at
        most (a wager whose stakes, made legal, skip it keeps the last)."""
        p = self.ctl.player
        t = self.store.ledger.table
        for _ in range(len(CHIPS)):
            if p.stake(t)[1] == cents:
                return
            self.d.press(B.CHIP)

    def go(self, kind, number):
        """Presses keys until the selection is (kind, number), reading it
        as the screen shows it; False when it is not reached (a wager a
        number is not on now). The group key of each wager is learned
        once per profile by trying them."""
        p = self.ctl.player
        if p.sel == (kind, number):
            return True
        keys = self._groups()
        g = keys.get(kind)
        if g is None:
            return False
        if p.sel[0] != kind:
            self.d.press(g)
            for _ in range(16):
                if p.sel[0] == kind:
                    break
                self.d.press(B.NEXT)
            else:
                return False
        for _ in range(26):     # the same key again steps the wager's numbers
            if p.sel == (kind, number):
                return True
            before = p.sel
            self.d.press(g)
            if p.sel[0] != kind or p.sel == before:
                return False
        return False

    def _groups(self):
        """{kind: the group key that reaches it} for this profile."""
        name = self.store.ledger.table.p["name"]
        keys = _GROUP_KEYS.get(name)
        if keys is None:
            keys = _GROUP_KEYS[name] = {}
            p = self.ctl.player
            for g in B.GROUP_KEYS:
                self.d.press(g)
                for _ in range(16):
                    if p.sel[0] in keys and keys[p.sel[0]] == g:
                        break
                    keys.setdefault(p.sel[0], g)
                    self.d.press(B.NEXT)
        return keys

    def a_rebet(self, arg):             # the last game's layout again
        self.d.press(B.REBET)

    def a_mybets(self, arg):            # MY BETS: move, then take down / ON-OFF / add
        self.d.press(B.MYBETS)
        self.d.press(B.NEXT, arg % 4)
        self.d.press((B.BET_DOWN, B.ONOFF, B.BET_UP, B.MYBETS)[arg // 4 % 4])

    def a_roll(self, arg):
        """ROLL, until the result is committed (or the roll cannot start);
        mostly also until the result has been read: keys pressed while it
        must stay on screen are kept (four at most), not acted on."""
        g = self.ctl.game
        rolls = g.rolls
        self.d.press(B.ROLL)
        self.d.until(lambda: g.rolls != rolls or not g.rolling(), 15000)
        if arg % 4:
            self.d.until(lambda: not g.result_locked(self.board.clock.ticks_ms()), 15000)

    def a_wait(self, arg):              # time passes: the timer may close the bets
        self.d.run(20 * arg)

    def a_bill(self, arg):
        self.d.bill(_BILLS[arg % len(_BILLS)])

    def a_coin(self, arg):
        self.d.coin(1 + arg % 3)

    def a_cashout(self, arg):
        self.d.press(B.CASHOUT)

    def a_door(self, arg):              # open, maybe a press, close
        self._switch(self.board.door, arg)

    def a_tilt(self, arg):
        self._switch(self.board.tilt, arg)

    def _switch(self, sw, arg):
        sw.toggle()
        self.d.run(100 + 10 * arg)
        if arg % 2:
            self.d.press(_KEYS[arg // 2 % len(_KEYS)])
        sw.toggle()
        self.d.run(300)

    def a_key(self, arg):               # audit key: a few presses in the menu
        k = self.board.audit_key
        k.toggle()
        self.d.run(300)
        for i in range(arg % 4):
            self.d.press((B.NEXT, B.PREV, B.CLEAR, B.ROLL)[arg // 4 + i & 3])
        k.toggle()
        self.d.run(300)

    def a_attendant(self, arg):         # key on, Attendant, reset a lockup, key off
        led = self.store.ledger
        if not led.lock:
            return
        k = self.board.audit_key
        k.toggle()
        self.d.run(300)
        menu = self.ctl.menu
        stack = getattr(menu, "stack", None)
        if stack:
            while len(stack) > 1:
                self.d.press(B.CLEAR)
            main = stack[0]
            target = [item[0] for item in main.items].index("Attendant")
            while main.cursor != target:
                self.d.press(B.NEXT)
            self.d.press(B.ROLL, 3)     # open, arm, reset
        k.toggle()
        self.d.run(300)


_GROUP_KEYS = {}                    # profile: {kind: group key}, learned by Walk._groups
_CHIPS = (100, 100, 100, 500, 500, 2500, 10000)   # cents: the small chips most
# name, weight: mostly what a player does at the buttons
ACTIONS = (("press", 10), ("select", 4), ("number", 3), ("chip", 3), ("bet", 6),
           ("place", 16), ("down", 3), ("take", 7), ("odds", 3), ("back", 8),
           ("toggle", 2), ("rebet", 2), ("mybets", 3), ("roll", 14), ("wait", 3),
           ("bill", 5), ("coin", 1), ("cashout", 2), ("door", 1), ("tilt", 1),
           ("key", 1), ("attendant", 2))
_TOTAL = sum(w for _n, w in ACTIONS)


def pick(n):
    """The action at n (0 <= n < _TOTAL) of the weighted list."""
    for name, w in ACTIONS:
        if n < w:
            return name
        n -= w
    raise ValueError(n)


def walk(profile, seed, steps, log=None):
    """The seeded walker: `steps` actions (session.Rng: the same sequence on
    both ports). Returns the Walk; an invariant that fails raises with the
    step, the action and the seed."""
    from session import Rng
    rng = Rng(seed)
    w = Walk(profile, seed)
    w.d.bill(100)
    for _ in range(steps):
        name, arg = pick(rng.below(_TOTAL)), rng.below(1000)
        if log is not None:
            log(name, arg)
        try:
            w.act(name, arg)
        except Exception as exc:  # the seed and the step, to replay it
            raise AssertionError("%s %s: profile %s, seed %d, action %d (%s %d)" % (
                type(exc).__name__, exc, profile, seed, w.steps + 1, name, arg))
    return w
