"""Presses a player needs for the bets players make, on the real player code.

    .venv/bin/python tools/bench_ux.py [--profile NAME] [--markdown]

One line a row, `N presses PROFILE BET`: each of issue 22's single bets at
its stated amount (where a profile's minimum or unit is above it, at the
least legal amount, named so) and the typical bets together, in every
profile that offers them. A row starts on a fresh betting screen (the
power-up selection and stakes) in the game state the bet needs: at the
come-out, or with a $5 pass line and the point 4 for odds, come and don't
come. The typical bets are the pass line $5, then with the point 4: odds
$10, come $5, don't come $5 (not in etg: 002 refuses both), place 6 and 8
$6, the four hardways $1, horn $4, field $5, any seven $1, C&E $1, in this
order, each from where the one before left the station.

The count is an exact breadth-first search over button presses (every
player key but ROLL and CASHOUT) through the real Player
(firmware/cabinet/player.py) on a real Table; states are the player's
(selection, stakes, number prompt, page) and the table's bets, and a state
with a bet the row does not ask for, or more than it asks, is not expanded
(undoing it costs presses, so no shortest path goes through it). The presses
found are then made on the cabinet (mock board, fake clock, journal and
all), which must show exactly the row's bets on its table. Budgets (issue
22): a single bet <= 4 presses, the typical bets <= 30; a row over its
budget fails the run (exit 1).
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools", "cpython_shims")]

from hal import buttons as B  # noqa: E402
from firmware.rules import profiles as P  # noqa: E402
from firmware.rules import wagers as W  # noqa: E402
from firmware.rules import reasons as R  # noqa: E402
from firmware.rules.table import Table  # noqa: E402
from firmware.cabinet import player as PL  # noqa: E402
from firmware.cabinet import stakes as S  # noqa: E402,F401 (test_placeable: the chips)

SINGLE_BUDGET = 4
TYPICAL_BUDGET = 30
POINT = 4
# (title, wager, number, dollars, needs the point)
SINGLES = (
    ("place 6", "place", 6, 6, False),
    ("place 8", "place", 8, 6, False),
    ("hard 8", "hard", 8, 5, False),
    ("buy 4", "buy", 4, 20, False),
    ("lay 10", "lay", 10, 40, False),
    ("horn", "horn", 0, 4, False),
    ("hop 3-4", "hop", 34, 1, False),
    ("pass line", "pass", 0, 5, False),
    ("odds on 4", "pass_odds", POINT, 10, True),
    ("field", "field", 0, 5, False),
    ("hard 4", "hard", 4, 1, False),
    ("hard 6", "hard", 6, 1, False),
    ("hard 8", "hard", 8, 1, False),
    ("hard 10", "hard", 10, 1, False),
    ("any seven", "any7", 0, 1, False),
    ("C&E", "c_e", 0, 1, False),
    ("come", "come", 0, 5, True),
    ("don't come", "dont_come", 0, 5, True),
)
# after the pass line and the roll that makes the point
TYPICAL = (("pass_odds", POINT, 10), ("come", 0, 5), ("dont_come", 0, 5),
           ("place", 6, 6), ("place", 8, 6), ("hard", 8, 1), ("hard", 10, 1),
           ("hard", 4, 1), ("hard", 6, 1), ("horn", 0, 4), ("field", 0, 5),
           ("any7", 0, 1), ("c_e", 0, 1))
KEYS = tuple(c for c in range(B.COUNT) if c not in (B.ROLL, B.CASHOUT))
_NOW = 1000
MAX_DEPTH = 40


class _Ledger:
    def __init__(self, table, recall):
        self.table = table
        self.recall = recall

    def suspended(self):
        return ""


class _Store:
    """The store's player vocabulary applied straight to a Table (the
    search's model; the cabinet then replays the presses for real)."""

    def __init__(self, table, recall):
        self.ledger = _Ledger(table, recall)

    def bet(self, now, kind, amount, number=0):
        return self.ledger.table.place(kind, amount, number)

    def remove(self, now, kind, number=0, amount=0):
        return self.ledger.table.remove(kind, number, amount)

    def working(self, now, kind, number, on):
        return self.ledger.table.set_working(kind, number, on)

    def clear(self, now):
        self.ledger.table.return_fresh()
        return R.OK


class _Game:
    def rolling(self):
        return False

    def request_roll(self):
        return False


class _Ctl:
    def __init__(self, table, recall):
        self.store = _Store(table, recall)
        self.game = _Game()

    def now_s(self):
        return 0


def _copy(player, table):
    q = PL.Player()
    q.__dict__.update(player.__dict__)
    q.stakes = bytearray(player.stakes)
    t = Table(table.p)
    assert t.load(table.encode())
    return q, t


def _key(p, t):
    return (p.sel, p.picked, p.armed_until is not None, p.die, p.page, p.page_i,
            bytes(p.stakes), t.encode())


def _within(t, want):
    for b in t.bets:
        if b[2] > want.get((b[0], b[1]), 0):
            return False
    return True


def search(player, table, recall, want):
    """Fewest presses (button codes) from (player, table) to a table whose
    bets are exactly `want` ({(kind, number): cents})."""
    def done(t):
        return len(t.bets) == len(want) and all(want.get((b[0], b[1])) == b[2] for b in t.bets)
    if done(table):
        return []
    seen = {_key(player, table)}
    frontier = [(player, table, [])]
    for _ in range(MAX_DEPTH):
        nxt = []
        for p, t, path in frontier:
            for code in KEYS:
                q, u = _copy(p, t)
                q.on_button(code, _Ctl(u, recall), _NOW)
                if q.armed_until is not None:
                    q.armed_until = _NOW + PL.ARMED_MS  # presses come well within the prompt
                if not _within(u, want):
                    continue
                k = _key(q, u)
                if k in seen:
                    continue
                seen.add(k)
                if done(u):
                    return path + [code]
                nxt.append((q, u, path + [code]))
        frontier = nxt
    raise RuntimeError("not reached in %d presses: %r" % (MAX_DEPTH, want))


def legal(table, kind, number, dollars):
    """The row's amount in cents: as stated, or the least legal total above it."""
    code, least, unit, most = table.stake(kind, number)
    cents = max(100 * dollars, least)
    return -(-cents // unit) * unit


class Cabinet:
    """The real cabinet on the mock board, where the presses found are made."""

    def __init__(self, profile):
        from hal.mock.board import Board
        from firmware.cabinet.drive import Driver
        self.board = Board(seed=7, fake_clock=True, flash_size=131072)
        self.d = Driver(self.board, draw=True, profile=profile)
        self.d.bill(100)
        self.ctl = self.d.ctl
        self.table = self.ctl.store.ledger.table

    def press(self, codes):
        for code in codes:
            self.d.press(code)

    def point(self):
        """Rolls 2-2 (the bets stay, the point is 4) and waits until keys act."""
        self.board.dome.forced.append((2, 2))
        assert self.d.roll() and self.table.point == POINT

    def bets(self):
        return {(b[0], b[1]): b[2] for b in self.table.bets}


def _place(cab, want):
    """Searches the presses to `want` from the cabinet's state, makes them
    on the cabinet and checks its table. Returns the press count."""
    ctl = cab.ctl
    p, t = _copy(ctl.player, cab.table)
    path = search(p, t, ctl.store.ledger.recall, want)
    cab.press(path)
    if os.environ.get("UX_PATHS"):
        print("   ", " ".join(B.names[c] for c in path), file=sys.stderr)
    got = cab.bets()
    assert got == want, (want, got, ctl.lines)
    return len(path)


def _pass_and_point(cab):
    """The $5 pass line by the buttons, then the point 4: (presses, bets)."""
    t = cab.table
    want = {(W.PASS, 0): legal(t, W.PASS, 0, 5)}
    n = _place(cab, want)
    cab.point()
    return n, want


def single(profile, kind, number, dollars, point):
    """(presses, cents) of one bet from a fresh betting screen."""
    cab = Cabinet(profile)
    want = {}
    if point:  # the pass line and the point are the setting, not counted
        _, want = _pass_and_point(cab)
        cab.ctl.player = PL.Player()
    cents = legal(cab.table, kind, number, dollars)
    want = dict(want)
    want[(kind, number)] = cents
    return _place(cab, want), cents


def typical(profile):
    """(presses, bets) of the typical bets in order (see the docstring)."""
    cab = Cabinet(profile)
    n, want = _pass_and_point(cab)
    count = 1
    prof = cab.table.p
    for name, number, dollars in TYPICAL:
        kind = W.kind_of(name)
        if kind not in prof["offered"]:
            continue
        other = {W.COME: W.DONT_COME, W.DONT_COME: W.COME}.get(kind)
        if prof["no_opposites"] and other is not None and (other, 0) in want:
            continue  # 002: no come with don't come
        want = dict(want)
        want[(kind, number)] = legal(cab.table, kind, number, dollars)
        n += _place(cab, want)
        count += 1
    return n, count


def rows(profiles):
    """[(presses, profile, title, budget, stated)] for every row: `stated`
    names the bet at the amount issue 22 states ("$1 C&E"), `title` at the
    amount bet ("$2 C&E" where 000's least C&E is $2)."""
    out = []
    for prof_name in profiles:
        prof = P.get(prof_name)
        for name, wager, number, dollars, point in SINGLES:
            kind = W.kind_of(wager)
            if kind not in prof["offered"] or (kind == W.HOP and prof["hops"]
                                              and number not in prof["hops"]):
                continue
            n, cents = single(prof_name, kind, number, dollars, point)
            out.append((n, prof_name, "$%d %s" % (cents // 100, name), SINGLE_BUDGET,
                        "$%d %s" % (dollars, name)))
        n, count = typical(prof_name)
        out.append((n, prof_name, "%d typical bets" % count, TYPICAL_BUDGET, "typical bets"))
    return out


def line(row):
    return "%d presses %s %s" % row[:3]


def markdown(out, profiles):
    """The rows as the README's table: a bet a line, a profile a column
    ("-": not offered; the amount bet where it is not the stated one)."""
    lines = ["| bet | " + " | ".join(profiles) + " |", "|---" * (len(profiles) + 1) + "|"]
    for st in ["$%d %s" % (row[3], row[0]) for row in SINGLES] + ["typical bets"]:
        cells = []
        for prof in profiles:
            got = [r for r in out if r[1] == prof and r[4] == st]
            if not got:
                cells.append("-")
            elif got[0][2] == st:
                cells.append("%d" % got[0][0])
            else:  # the amount bet, or how many typical bets
                cells.append("%d (%s)" % (got[0][0], got[0][2].split()[0]))
        lines.append("| %s | %s |" % (st, " | ".join(cells)))
    return "\n".join(lines)


def main(argv):
    profiles = P.NAMES
    if "--profile" in argv:
        profiles = (argv[argv.index("--profile") + 1],)
    missed = 0
    out = rows(profiles)
    for row in out:
        over = row[0] > row[3]
        missed += over
        print("%-40s budget <= %d%s" % (line(row), row[3], "  MISSED" if over else ""))
    if "--markdown" in argv:
        print(markdown(out, profiles))
    print("budgets: a single bet <= %d presses, the typical bets <= %d; %s" % (
        SINGLE_BUDGET, TYPICAL_BUDGET, "%d missed" % missed if missed else "all met"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
