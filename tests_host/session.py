"""A scripted cabinet session for the store tests, power-cut sweeps and the
journal benchmark: money in, every wager kind the profile offers, rolls with
re-rolls and a void, cashouts by ticket and handpay. Deterministic per seed.
Amounts are cents.

Each step is (method name, args) for firmware.store.store.Store; a step the
ledger refuses is simply a refused action (the session stays valid).
"""
from firmware.rules import wagers as W
from firmware.rules import profiles as P
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import ledger as L
from firmware.store.meters import index


def _number_for(kind, rng, point):
    nums = W.NUMBERS.get(kind)
    if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
        return point
    return rng.choice(nums) if nums else 0


class Rng:
    """Same sequence on CPython and MicroPython (whose random differs)."""

    def __init__(self, seed):
        self.s = seed & 0x7FFFFFFF or 1

    def below(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n

    def randint(self, a, b):
        return a + self.below(b - a + 1)

    def choice(self, seq):
        return seq[self.below(len(seq))]


def steps(rolls=100, seed=1, profile="table"):
    return list(iter_steps(rolls, seed, profile))


def iter_steps(rolls=100, seed=1, profile="table"):
    """The session one step at a time (a long session does not fit a list
    on the MicroPython port)."""
    rng = Rng(seed)
    offered = P.base(profile)["offered"]
    now = 1000
    point = [0]
    if profile != "table":
        yield "set_config", (now, "profile", profile)
    for r in range(rolls):
        now += 20
        if r % 4 == 0:
            yield "credit", (now, T.SRC_BILL, 100 * rng.choice((5, 10, 20, 100)))
        if r % 13 == 5:
            yield "credit", (now, T.SRC_COIN, 100)
        for _ in range(rng.randint(1, 5)):
            kind = rng.choice(offered)
            yield "bet", (now, kind, 100 * rng.choice((1, 2, 5, 6, 10)),
                          _number_for(kind, rng, point[0]))
        # Line bets and their odds often, so come points and odds get exercised.
        yield "bet", (now, rng.choice((W.PASS, W.DONT_PASS)), 500, 0)
        yield "bet", (now, rng.choice((W.COME, W.DONT_COME)), 500, 0)
        yield "bet", (now, rng.choice((W.PASS_ODDS, W.COME_ODDS, W.DONT_COME_ODDS)), 500,
                      rng.choice(W.POINTS))
        if r % 7 == 3:
            kind = rng.choice((W.PLACE, W.HARD, W.BUY, W.LAY, W.PLACE_LOSE))
            yield "working", (now, kind, rng.choice(W.POINTS), rng.randint(0, 1))
        if r % 11 == 4:
            yield "remove", (now, rng.choice(offered), 0, 0)
        if r % 17 == 8:
            yield "clear", (now,)
        yield "close", (now,)
        if r % 10 == 6:
            yield "reroll", (now, E.COCKED)
        if r % 50 == 25:
            yield "void", (now, E.MALFUNCTION)
            yield "lock", (now, L.LK_MALFUNCTION, 0)
            yield "reset", (now,)
            continue
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield "roll", (now, d1, d2)
        if r % 30 == 29:
            yield "cashout", (now, T.BY_TICKET if r % 60 == 59 else T.BY_HANDPAY)
            yield "reset", (now,)
        if r % 40 == 20:
            yield "event", (now, E.DOOR_OPEN, 0)
            yield "event", (now, E.DOOR_CLOSE, 0)


def run(store, session, start=0):
    """Runs session steps from `start` through a Store; returns their codes."""
    codes = []
    for name, args in session[start:]:
        codes.append(getattr(store, name)(*args))
    return codes


def view(ledger):
    """Everything money and game related, without what a power-up changes
    (power-up meter, games since power-up, the event log)."""
    m = list(ledger.meters.v)
    for key in ("power_ups", "games_power"):
        m[index(key)] = 0
    recall = b"".join([bytes(p) for p in ledger.recall.pieces()])
    return (ledger.table.encode(), tuple(m), recall, ledger.phase,
            ledger.lock, ledger.lock_arg, ledger.game_no, tuple(sorted(ledger.config.items())))


def full_steps(rolls=130, seed=3, profile="table"):
    """A session at the designed maximum (issue 9): every wager kind the
    profile offers on every number each roll (tests_host/full_layout), so
    recall fills with 24-bet games and the snapshot reaches its full size;
    with config changes, cashouts by ticket and handpay."""
    import full_layout as FL
    lists = FL.lists(P.get(profile))
    rng = Rng(seed)
    now = 1000
    if profile != "table":
        yield "set_config", (now, "profile", profile)
    for r in range(rolls):
        now += 20
        yield "credit", (now, T.SRC_BILL, 100000)
        for kind, amount, number in lists[r % len(lists)]:
            yield "bet", (now, kind, amount, number)
        yield "close", (now,)
        yield "roll", (now, rng.randint(1, 6), rng.randint(1, 6))
        if r % 25 == 12:
            yield "set_config", (now, "station", "CRAPS-%02d" % (r % 100))
        if r % 40 == 39:
            yield "cashout", (now, T.BY_TICKET if r % 80 == 79 else T.BY_HANDPAY)
            yield "reset", (now,)
