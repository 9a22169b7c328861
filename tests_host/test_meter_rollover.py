"""Meter rollover (issue 25, finding 0): every meter is 10 digits and rolls
over at 10**10 (firmware/store/meters.py ROLLOVER); every check that sums
meters holds across a wrap: the boot's balance check (a wrap used to make
every later power-up CRITICAL "records do not replay"), SAS's meters and its
own balance (firmware/sas/meters.py), the read-out's STATUS.

- Each meter driven across its wrap, through the store and the flash, with
  power cycles: never CRITICAL, the state after every boot the one before,
  every meter equal to an unbounded model's value modulo 10**10.
- A long run: >= 10**6 rolls at high stakes through the ledger (FULL=1; CI a
  seeded sample whose seed is printed, SEED=N replays it), the balance and
  SAS's balance checked as it goes, a snapshot loaded and the records since
  replayed into the same state; and a shorter run through the real
  controller on the mock board, power-cycled, across the wraps.
"""
import gc
import os
import sys

import session
import full_layout as FL
from hal.marker import Marker
from hal.mock.norflash import NorFlash
from firmware.rules import profiles as P
from firmware.rules import reasons as R
from firmware.rules import wagers as W
from firmware.store import meters as M
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import ledger as L
from firmware.store import snapshot
from firmware.store.ledger import Ledger
from firmware.store.store import Store, CRITICAL
from firmware.sas import meters as SM

MP = sys.implementation.name == "micropython"
ROLL = M.ROLLOVER
START = ROLL - 3        # every meter three units below its wrap
SIZE = 256 * 1024


class Unbounded(M.Meters):
    """The model's meters: the same additions without the rollover."""

    def add(self, key, amount=1):
        i = M._number(key)
        self.v[i] += amount

    def set(self, key, value):
        self.v[M._number(key)] = value


def near_wrap(led):
    """Every meter near its wrap: what years of play leave. The balance holds
    (credits - (in - out + jp_to_credit + won + returned - wagered - vig) =
    0 - 0): every term at START but total out at twice START, which wraps
    to just below ROLL too."""
    for i in range(M.COUNT):
        led.meters.set(i, START)
    led.meters.set(M.index("total_out"), M.wrap(2 * START))


class Rig:
    """A store on a NOR flash with its provisioned mark, power-cycled at
    will; every record it commits also goes to a model ledger whose meters
    never roll over."""

    def __init__(self):
        self.flash = NorFlash(SIZE)
        self.mark = Marker()
        self.model = Ledger()
        self.model.meters = Unbounded()
        self.top = [0] * M.COUNT     # highest model value of each meter
        self.boots = 0
        self.store = None
        self.power_cycle()

    def power_cycle(self):
        self.store = s = Store(self.flash, provision=self.mark)
        inner = s.journal.append

        def append(payload):
            self.apply(payload)
            return inner(payload)
        s.journal.append = append
        self.boots += 1
        status = s.boot(1000 + self.boots)
        assert status != CRITICAL, s.reason
        assert s.ledger.balance_check() == 0
        return status

    def apply(self, payload):
        assert self.model.apply(payload) == R.OK, T.unpack(payload)
        v = self.model.meters.v
        for i in range(M.COUNT):
            if v[i] > self.top[i]:
                self.top[i] = v[i]

    def start_near_wrap(self):
        s = self.store
        near_wrap(s.ledger)
        near_wrap(self.model)
        s.journal.write_snapshot(s.ledger.pieces())

    def run(self, steps, cycle_every=0):
        s = self.store
        for n, (name, args) in enumerate(steps):
            getattr(s, name)(*args)
            assert not s.critical, s.reason
            assert s.ledger.balance_check() == 0
            if cycle_every and n % cycle_every == cycle_every - 1:
                self.cycle_and_compare()
                s = self.store

    def cycle_and_compare(self):
        before = session.view(self.store.ledger)
        self.power_cycle()
        assert session.view(self.store.ledger) == before
        self.same_as_model()

    def same_as_model(self):
        got = self.store.ledger.meters.v
        want = self.model.meters.v
        bad = [M.METERS[i][0] for i in range(M.COUNT) if got[i] != want[i] % ROLL]
        assert not bad, bad


# every total from 2 to 12 but 7, the hard ways among them: the bonus bets
# (small, tall, all) and every hard way win
_NO_SEVEN = ((1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (4, 4), (4, 5), (5, 5), (5, 6),
             (6, 6), (2, 2), (3, 3), (4, 4), (5, 5))


def count_steps(profile, now):
    """The records that move the meters a random session may not: three of
    each (every meter starts three below its wrap), as the controller
    writes them."""
    out = []
    layout = FL.lists(P.get(profile))[0]
    for _ in range(3):
        out += [("credit", (now, T.SRC_BILL, 100000))]
        out += [("bet", (now, kind, amount, number)) for kind, amount, number in layout]
        for d1, d2 in _NO_SEVEN:
            out += [("close", (now,)), ("roll", (now, d1, d2))]
    out += [("credit", (now, T.SRC_BILL, 500)), ("cashout", (now, T.BY_TICKET))] * 3
    for d in M.BILL_DENOMS:
        out += [("credit", (now, T.SRC_BILL, d * 100))] * 3
    out += [("credit", (now, T.SRC_COIN, 25))] * 3
    for opened, closed in ((E.DOOR_OPEN, E.DOOR_CLOSE), (E.TILT, E.TILT_CLEAR),
                           (E.LOGIC_OPEN, E.LOGIC_CLOSE), (E.CASHBOX_OPEN, E.CASHBOX_CLOSE)):
        out += [("event", (now, opened, 0)), ("event", (now, closed, 0))] * 3
    out += [("event", (now, E.ACTION_FAULT, T.BET))] * 3     # a bet refused for a bug
    for why in (E.COCKED, E.STUCK):
        out += [("close", (now,)), ("reroll", (now, why)), ("roll", (now, 3, 4))] * 3
    out += [("close", (now,)), ("void", (now, E.MALFUNCTION))] * 3
    out += [("lock", (now, L.LK_DOUBT, 0)), ("reset", (now,))] * 3
    out += [("lock", (now, L.LK_DEVICE, 6)), ("reset", (now,))] * 3    # a bill jam
    out += [("commit", (T.pack(T.ESCROW, now, step, 2000),))
            for step in (T.ES_PENDING, T.ES_DOUBT, T.ES_STACKED)] * 3
    number = 123456789012345678                         # a ticket in, redeemed
    out += [("commit", (T.pack(T.TICKET_IN, now, step, number, value),))
            for step, value in ((T.TI_PENDING, 0), (T.TI_AUTH, 2000), (T.TI_STACKED, 2000))] * 3
    for i in range(3):                                  # AFT transfers in and out
        out += [("commit", (T.pack(T.AFT, now, kind, T.AFT_FULL, 2000) + b"W%d%d" % (kind, i),))
                for kind in (T.AFT_IN, T.AFT_OUT)]
    # a jackpot handpay: any win over $1 locks for the attendant
    out += [("set_config", (now, "jackpot_limit", "1"))]
    out += [("bet", (now, W.PASS, 10000, 0)), ("close", (now,)), ("roll", (now, 3, 4)),
            ("reset", (now,))] * 3
    # a jackpot the SAS host had reset to the credit meter (A8)
    out += [("set_config", (now, "credit_limit", str(10 ** 9)))]
    out += [("bet", (now, W.PASS, 10000, 0)), ("close", (now,)), ("roll", (now, 3, 4)),
            ("event", (now, E.RESET_METHOD, 1)), ("reset", (now,))] * 3
    out += [("set_config", (now, "jackpot_limit", "0"))]
    return out


def test_every_meter_wraps_and_every_boot_replays_it():
    """Fails before the fix: the first power-up after a money meter wrapped
    was CRITICAL ("records do not replay")."""
    wrapped = set()
    for profile in P.NAMES:
        rig = Rig()
        rig.start_near_wrap()
        steps = list(session.full_steps(40, 5, profile)) + count_steps(profile, 9000)
        rig.run(steps, cycle_every=211)
        rig.cycle_and_compare()
        for _ in range(3):          # power_ups and games_power
            rig.cycle_and_compare()
        wrapped |= {i for i in range(M.COUNT) if rig.top[i] >= ROLL}
    missing = [M.METERS[i][0] for i in range(M.COUNT) if i not in wrapped]
    assert not missing, "never wrapped: %s" % missing


def test_a_wrap_between_snapshot_and_boot_replays():
    """The records after the newest snapshot carry total_in, wagered and won
    across 10**10; the boot replays them and checks the balance."""
    rig = Rig()
    rig.start_near_wrap()
    now = 5000
    rig.run([("credit", (now, T.SRC_BILL, 10000)), ("bet", (now, W.PASS, 500, 0)),
             ("close", (now,)), ("roll", (now, 3, 4))])
    led = rig.store.ledger
    for key in ("total_in", "wagered", "won", "bills_in"):
        assert led.meters.get(key) < START, key       # rolled over
    # the $5 won is paid; the winning pass line stays up for the next come-out
    assert led.table.credits == 10000 and led.table.on_table() == 500
    rig.cycle_and_compare()
    assert rig.store.status != CRITICAL and rig.store.ledger.table.credits == 10000


# ---- SAS and the read-out across a wrap --------------------------------------
def sas_credits(led, code):
    return SM.meter(led, code) % 10 ** 8     # the 4 BCD bytes the polls carry


def sas_balance(led):
    """SAS's own balance, credits = drop - cancelled + coin out - coin in,
    in 8-digit meters; 0 when it holds."""
    cc = led.config["credit_cents"]
    coin_in, coin_out, cancelled, drop = (sas_credits(led, c) for c in (0x00, 0x01, 0x04, 0x24))
    return (led.table.credits // cc - (drop - cancelled + coin_out - coin_in)) % 10 ** 8


def test_sas_meters_and_balance_across_a_wrap():
    """Coin out = won + returned - jackpot: once won wrapped and jackpot did
    not, the difference went negative and its BCD was garbage."""
    from firmware.sas.wire import put_bcd, get_bcd
    led = Ledger()
    led.apply(T.pack(T.CONFIG, 1, C_INDEX("credit_cents")) + b"1")
    near_wrap(led)
    led.meters.set("jackpot", 5 * 10 ** 9)            # a jackpot meter far from its wrap
    # balance: out - jackpot stays START-like, and pays for jp_to_credit (START)
    led.meters.set("total_out", M.wrap(5 * 10 ** 9 - 3 + START))
    led.meters.set("total_in", 5 * 10 ** 9 - 3)
    assert led.balance_check() == 0
    assert led.apply(T.pack(T.CREDIT, 2, T.SRC_BILL, 10000)) == R.OK
    for _ in range(3):
        assert led.apply(T.pack(T.BET, 2, W.PASS, 0, 500)) == R.OK
        assert led.apply(T.pack(T.CLOSE, 2)) == R.OK
        assert led.apply(T.pack(T.ROLL, 2, 3, 4, 0)) == R.OK
    assert led.meters.get("won") < START
    assert led.balance_check() == 0
    buf = bytearray(5)
    for code in (0x00, 0x01, 0x02, 0x03, 0x04, 0x22, 0x23, 0x24):
        v = SM.meter(led, code)
        assert 0 <= v < ROLL, (code, v)
        put_bcd(buf, 0, v, 4)
        assert get_bcd(buf, 0, 4) == v % 10 ** 8, code
    assert sas_balance(led) == 0


def C_INDEX(key):
    from firmware.store import config as C
    return C.index(key)


def test_readout_status_reconciles_across_a_wrap():
    """The read-out gives the meters' width and the balance, so a lab can
    reconcile METERS modulo 10**10."""
    from firmware.cabinet import fallback as FB
    rig = Rig()
    rig.start_near_wrap()
    now = 7000
    rig.run([("credit", (now, T.SRC_BILL, 2000)), ("bet", (now, W.PASS, 500, 0)),
             ("close", (now,)), ("roll", (now, 3, 4))])
    lines = FB.status_lines(rig.store)
    assert "rollover=%d" % ROLL in lines and "balance=0" in lines, lines
    vals = {}
    for i in range(M.COUNT):
        key, v = FB.meter_line(rig.store, i).split()[:2]
        vals[key] = int(v)
        assert 0 <= int(v) < ROLL
    led = rig.store.ledger
    expect = (vals["total_in"] - vals["total_out"] + vals["jp_to_credit"] + vals["won"]
              + vals["returned"]
              - vals["wagered"] - vals["vig"]) % ROLL
    assert expect == led.table.credits == 2000    # $5 won paid, $5 stays on the pass line


# ---- the long run ---------------------------------------------------------------
def _seed():
    s = os.getenv("SEED")
    if s:
        return int(s)
    import random
    return random.getrandbits(30)


class HighStakes:
    """A pure-ledger session at high stakes: every record through
    Ledger.apply, as the store would commit it. Bets of $1,000-$50,000 on
    what the profile offers, bills of $100,000 in, a handpay cashout now and
    then; money meters wrap every ~10**4 rolls."""

    def __init__(self, seed, profile):
        self.rng = session.Rng(seed)
        self.led = Ledger()
        self.records = []          # since the newest snapshot
        self.snap = None
        self.now = 10
        self.offered = P.base(profile)["offered"]
        for key, text in (("profile", profile), ("credit_cents", "1"), ("max_bet", "100000"),
                          ("credit_limit", "100000000"), ("handpay_limit", "1000000000")):
            self.put(T.pack_config(self.now, C_INDEX(key), text))
        self.take_snapshot()

    def put(self, payload):
        code = self.led.apply(payload)
        if code == R.OK:
            self.records.append(payload)
        return code

    def take_snapshot(self):
        self.snap = self.led.encode()
        self.records = []

    def roll(self):
        rng = self.rng
        led = self.led
        now = self.now = self.now + 20
        if led.table.credits < 10 ** 8:
            self.put(T.pack(T.CREDIT, now, T.SRC_BILL, 10 ** 7))
        line = (W.PASS, W.DONT_PASS) if not led.table.point else (W.COME, W.DONT_COME)
        self.put(T.pack(T.BET, now, rng.choice(line), 0,
                        100 * rng.choice((1000, 5000, 20000, 50000))))
        for _ in range(rng.below(3)):
            kind = rng.choice(self.offered)
            nums = W.NUMBERS.get(kind)
            number = led.table.point if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS) \
                else (rng.choice(nums) if nums else 0)
            self.put(T.pack(T.BET, now, kind, number, 100 * rng.choice((1000, 2000, 5000))))
        self.put(T.pack(T.CLOSE, now))
        self.put(T.pack(T.ROLL, now, rng.randint(1, 6), rng.randint(1, 6), 0))
        if not rng.below(500) and not led.table.bets:
            self.put(T.pack(T.CASHOUT, now, T.BY_HANDPAY))
            self.put(T.pack(T.RESET, now))

    def replayed(self):
        """A fresh ledger from the newest snapshot plus the records since."""
        led = Ledger()
        assert snapshot.load(led, [self.snap]) == R.OK
        for p in self.records:
            assert led.apply(p) == R.OK
        return led


def long_run(rolls, seed, profile="casino", every=200 if MP else 5000):
    hs = HighStakes(seed, profile)
    led = hs.led
    wraps = 0
    last = led.meters.get("wagered")
    for n in range(1, rolls + 1):
        hs.roll()
        w = led.meters.get("wagered")
        if w < last:
            wraps += 1
        last = w
        assert led.balance_check() == 0, (seed, n)
        if n % 100 == 0:
            assert sas_balance(led) == 0, (seed, n)
        if n % every == 0 or n == rolls:
            gc.collect()    # MicroPython: a collected heap (and a short record list) fits two snapshots
            again = hs.replayed()
            assert again.encode() == led.encode(), (seed, n)
            assert again.balance_check() == 0
            hs.take_snapshot()
    return wraps


def test_long_run_at_high_stakes():
    full = os.getenv("FULL") == "1"
    seed = _seed()
    rolls = 10 ** 6 if full else 20000
    print("meter rollover long run: %d rolls, SEED=%d" % (rolls, seed))
    wraps = long_run(rolls, seed)
    print("wagered wrapped %d times" % wraps)
    assert wraps >= (50 if full else 2)


def test_real_controller_session_across_the_wraps():
    """The real controller on the mock board, its meters three below their
    wrap: bills, bets by buttons, rolls and a ticket cashout take them
    across; each power cycle (a new board on the same flash) boots the same
    state, never CRITICAL."""
    from test_e2e_session import make, check
    b, d = make(seed=21)
    st = d.ctl.store
    near_wrap(st.ledger)
    st.journal.write_snapshot(st.ledger.pieces())
    for cycle in range(3):
        led = d.ctl.store.ledger
        d.bill(20)
        # the stake shown is the table's $5 minimum
        for _ in range(4):
            if not led.table.bets:
                d.press("BET_UP")
            assert d.roll()
        for _ in range(30):             # cashout waits for bets in play
            if not led.table.bets:
                break
            d.wait_result()
        assert not led.table.bets
        d.run(5000)
        tickets = led.meters.get("tickets")
        d.press("CASHOUT")
        d.run(2000)
        assert led.meters.get("tickets") == M.wrap(tickets + 1)
        check(d)
        before = session.view(led)
        b, d = make(seed=21, flash=b.flash)
        assert not d.ctl.store.critical, d.ctl.store.reason
        assert session.view(d.ctl.store.ledger) == before
    m = d.ctl.store.ledger.meters
    for key in ("total_in", "bills_in", "bills_20", "wagered", "games", "power_ups", "tickets"):
        assert m.get(key) < START, key          # each rolled over on the way


def test_a_credit_past_the_width_is_refused_unmetered():
    """The balance holds modulo 10**10 only while credits stay below it: a
    credit the table refuses (past MAX_CREDITS) must not reach the meters
    either (it did: total_in counted it and the next boot was CRITICAL)."""
    from firmware.rules.table import MAX_CREDITS
    led = Ledger()
    for amount in (4 * 10 ** 9, 4 * 10 ** 9, MAX_CREDITS - 50 - 8 * 10 ** 9):
        assert led.apply(T.pack(T.CREDIT, 1, T.SRC_BILL, amount)) == R.OK
    before = led.encode()
    assert led.apply(T.pack(T.CREDIT, 2, T.SRC_BILL, 100)) == R.CREDIT_LIMIT
    assert led.encode() == before and led.balance_check() == 0
