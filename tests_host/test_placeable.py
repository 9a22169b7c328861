"""Placeability, proved exhaustively (issue 19), and the refusal texts (issue 22).

For every profile, every wager it offers and every number the wager takes,
in a game state where it is offered (the come-out; a point with its line
bet for line odds; a come or don't come bet moved to its number for their
odds), Table.stake() gives its minimum, unit and limit. From a fresh betting
screen the buttons (the real Player, firmware/cabinet/player.py) reach the
wager and stake it at its minimum and at every legal total up to 10 units
above it; one press past the limit is refused with the limit stated. Every
illegal total (below the minimum, between the units, over the limit) is
refused by the engine with a sentence stating the rule, e.g. "Horn: $4
steps", "Lay odds on 6: $3 steps", "Place 6: max $500", and every
refusal text fits the display's two message lines whole.

The presses run on the real Player over a real Table (tools/bench_ux.py's
model of the store); a seeded sample of wagers is played on the whole
cabinet too (mock board, journal): FULL=1 plays every one there. CPython
only (imports the bench's search).
"""
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_ux as BU  # noqa: E402
from hal import buttons as B  # noqa: E402
from firmware.rules import profiles as P  # noqa: E402
from firmware.rules import reasons as R  # noqa: E402
from firmware.rules import wagers as W  # noqa: E402
from firmware.rules.table import Table  # noqa: E402
from firmware.store.recall import Recall  # noqa: E402
from firmware.cabinet import player as PL  # noqa: E402
from firmware.cabinet import stakes as S  # noqa: E402

NAV = B.GROUP_KEYS + (B.NEXT, B.PREV, B.NUMBER)
UNITS = 10
LINE = 1000          # the line/come bet odds ride on: $10 (house's maximum)
_NOW = 1000


def fits(text):
    """Word-wrapped into two 16-column lines with nothing cut."""
    lines = PL.split2(text).split("\n")
    return len(lines) <= 2 and all(len(x) <= 16 for x in lines) and \
        " ".join(lines) == text


def states(name):
    """(description, table, [(kind, number)]) covering every offered
    wager/number in a state where it can be bet."""
    prof = P.get(name)
    off = prof["offered"]

    def fresh():
        t = Table(prof)
        t.credit(10 ** 8)
        return t

    t = fresh()
    comeout = []
    for k in off:
        if k not in W.ODDS_BASE and k not in (W.COME, W.DONT_COME):
            comeout += [(k, n) for n in t._numbers[k]]
    out = [("come-out", t, comeout)]
    for p in W.POINTS:
        d1 = p // 2
        for line, odds, come, come_odds in ((W.PASS, W.PASS_ODDS, W.COME, W.COME_ODDS),
                                            (W.DONT_PASS, W.DONT_PASS_ODDS, W.DONT_COME,
                                             W.DONT_COME_ODDS)):
            t = fresh()
            assert t.place(line, LINE) == R.OK
            t.roll(d1, p - d1)
            assert t.point == p
            want = [(odds, p)] if odds in off else []
            if come in off:
                want.append((come, 0))
                # a come bet moved to another number: its odds there
                q = 4 if p != 4 else 5
                assert t.place(come, LINE) == R.OK
                t.roll(q // 2, q - q // 2)
                assert t.find(come, q) is not None and t.point == p
                if q in t._numbers[come]:
                    want.append((come, q))  # 000: a come bet on its number may be increased
                if come_odds in off:
                    want.append((come_odds, q))
            out.append(("%s, point %d" % (W.NAMES[line], p), t, want))
    return out


def navigate(player, table, target):
    """Fewest navigation presses from `player` to the selection `target`."""
    ctl = BU._Ctl(table, None)
    start = (player.sel, player.picked, player.armed_until, player.die)
    seen = {start}
    frontier = [(start, [])]
    while frontier:
        nxt = []
        for st, path in frontier:
            for code in NAV:
                p = PL.Player()
                p.sel, p.picked, p.armed_until, p.die = st
                p.on_button(code, ctl, _NOW)
                s2 = (p.sel, p.picked, p.armed_until, p.die)
                if s2 in seen:
                    continue
                if p.sel == target:
                    return path + [code]
                seen.add(s2)
                nxt.append((s2, path + [code]))
        frontier = nxt
    raise AssertionError("not reachable: %r" % (target,))


def presses(table, kind, number, k):
    """Presses from a fresh betting screen that stake (kind, number) at its
    minimum plus k units: to the wager, the stake down to one unit (NUMBER
    then CHIP, as often as there are chips), then + k + 1 times."""
    p = PL.Player()
    path = []
    if p.sel != (kind, number):
        path = navigate(p, table, (kind, number))
    return path + [B.NUMBER, B.CHIP] * len(S.CHIPS) + [B.BET_UP] * (k + 1)


class Station:
    """A fresh Player over a copy of `table`, pressed one key at a time."""

    def __init__(self, table):
        self.player, self.table = BU._copy(PL.Player(), table)
        self.ctl = BU._Ctl(self.table, Recall())  # no game yet
        self.text = ""

    def press(self, codes):
        for code in codes:
            self.text = self.player.on_button(code, self.ctl, _NOW)


def amount(t, kind, number):
    b = t.find(kind, number)
    return b[2] if b else 0


def cases(name):
    for what, table, wagers in states(name):
        for kind, number in wagers:
            yield what, table, kind, number


def _check_wager(name, what, table, kind, number):
    where = (name, what, W.NAMES[kind], number)
    code, least, unit, most = table.stake(kind, number)
    assert code == R.OK and 0 < least <= most and unit > 0, (where, code, least, unit, most)
    assert least % unit == 0 and most % unit == 0, where
    had = amount(table, kind, number)
    # every legal total from the minimum up to 10 units more, by the buttons
    top = min(most, least + (UNITS - 1) * unit)
    st = Station(table)
    st.press(presses(table, kind, number, 0)[:-1])
    k = 0
    while least + k * unit <= top:
        st.press([B.BET_UP])
        assert amount(st.table, kind, number) == had + least + k * unit, (where, k, st.text)
        k += 1
    if most == top:  # one press more is refused, saying the limit
        st.press([B.BET_UP])
        assert amount(st.table, kind, number) == had + most, where
        assert R.dollars(most) in st.text.replace("\n", " "), (where, st.text)
    # every illegal total is refused by the engine with the rule it broke
    t = Table(table.p)
    state = table.encode()
    for total in range(had + unit // 4, min(most, least + UNITS * unit) + 2 * unit, unit // 4):
        legal = least <= total <= most and total % unit == 0
        assert t.load(state)
        got = t.place(kind, total - had, number)
        if legal:
            assert got == R.OK, (where, total, R.code_name(got))
            continue
        figure = {R.BELOW_MIN: least, R.NOT_MULTIPLE: unit, R.ABOVE_MAX: most,
                  R.ODDS_LIMIT: most, R.MAX_PAYOFF: most}.get(got)
        assert figure is not None, (where, total, R.code_name(got))
        text = S.refusal(got, table, kind, number)
        assert R.dollars(figure) in text and fits(text), (where, total, text)


def test_every_wager_placeable_at_every_legal_amount():
    _every_wager()


def _every_wager():
    n = 0
    for name in P.NAMES:
        for what, table, kind, number in cases(name):
            _check_wager(name, what, table, kind, number)
            n += 1
    assert n > 4 * 60, n  # every profile offers more than 60 wager/numbers


def test_every_wager_placeable_on_the_cabinet():
    """A seeded sample of the wagers above played on the whole cabinet, at
    the minimum and at 3 units more: the table the cabinet journals holds
    exactly that. FULL=1: every wager."""
    seed = int(os.environ.get("SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print("test_placeable cabinet sample SEED=%d" % seed)
    for name in P.NAMES:
        all_cases = [c for c in cases(name) if c[0] == "come-out"]
        sample = all_cases if os.environ.get("FULL") == "1" else rng.sample(all_cases, 4)
        for what, table, kind, number in sample:
            code, least, unit, most = table.stake(kind, number)
            k = min(3, (most - least) // unit)
            cab = BU.Cabinet(name)
            cab.press(presses(cab.table, kind, number, k))
            assert cab.bets() == {(kind, number): least + k * unit}, (seed, name, W.NAMES[kind],
                                                                     number, cab.ctl.lines)


def test_refusal_texts_fit_the_display_whole():
    for m in R.MESSAGES:
        assert fits(m), m
    assert len(R.MESSAGES) == len(R.CODES)
    # every rule sentence for every wager and number of every profile, at
    # the largest figures a configuration allows ($100,000 bets, 100x odds;
    # the payoff cap is 002's $1,250). Table.stake()'s figures are whole
    # dollars: limits are, and a unit rounds the rest down.
    top = {R.BELOW_MIN: 10 ** 7, R.NOT_MULTIPLE: 10 ** 4, R.ABOVE_MAX: 10 ** 7,
           R.ODDS_LIMIT: 10 ** 9, R.MAX_PAYOFF: 125000}
    n = 0
    for name in P.NAMES:
        t = Table(P.get(name))
        for kind in P.get(name)["offered"]:
            for number in t._numbers[kind]:
                for code, i, _ in R.RULES:
                    if (code == R.ODDS_LIMIT and kind not in W.ODDS_BASE) or \
                            (code == R.MAX_PAYOFF and kind not in W.PROPS):
                        continue  # only odds have an odds limit, only props a payoff cap
                    for figure in (100, 12300, top[code]):
                        rule = [R.OK, 100, 100, 100]
                        rule[i] = figure
                        t.stake = lambda k, n, rule=rule: tuple(rule)
                        text = S.refusal(code, t, kind, number)
                        assert fits(text) and R.dollars(figure) in text, (name, W.NAMES[kind], text)
                        n += 1
    assert n > 1000


def test_the_rule_is_stated():
    # the examples of issue 19: the old text said "even units" for both
    t = Table(P.get("table"))
    t.credit(100000)
    assert t.place(W.HORN, 500) == R.NOT_MULTIPLE
    assert PL.refusal(R.NOT_MULTIPLE, t, W.HORN, 0) == "Horn: $4 steps"
    c = Table(P.get("casino"))
    c.credit(100000)
    assert c.place(W.DONT_PASS, 1000) == R.OK
    c.roll(3, 3)
    assert c.place(W.DONT_PASS_ODDS, 500, 6) == R.NOT_MULTIPLE
    assert PL.refusal(R.NOT_MULTIPLE, c, W.DONT_PASS_ODDS, 6) == "Lay odds on 6:\n$3 steps"
    assert c.place(W.PLACE, 60000, 6) == R.ABOVE_MAX
    assert PL.refusal(R.ABOVE_MAX, c, W.PLACE, 6) == "Place 6: max\n$500"


def test_no_key_on_any_selection_raises():
    """Every key but CASHOUT (the controller's), pressed on every selection
    the navigation gives, in every state above, on a fresh stake and after a
    CHIP: a refusal or an action, never an exception (one was a division
    by zero for a wager with no number yet). CI: a seeded quarter of the
    selections (SEED=... replays it); FULL=1: all."""
    seed = int(os.environ.get("SEED", random.randrange(1 << 30)))
    print("test_placeable key sweep SEED=%d" % seed)
    rng = random.Random(seed)
    full = os.environ.get("FULL") == "1"
    keys = [c for c in range(B.COUNT) if c != B.CASHOUT]
    n = 0
    for name in P.NAMES:
        for what, table, _ in states(name):
            for kind in table.p["offered"]:
                for number in PL.numbers(kind, table):
                    if not full and rng.random() >= 0.25:
                        continue
                    for pre in ((), (B.CHIP,)):
                        for code in keys:
                            st = Station(table)
                            st.player.sel = (kind, number)
                            st.player.picked = True
                            st.press(pre + (code,))
                            assert isinstance(st.text, str), (seed, name, what, kind)
                            n += 1
    assert n > (10000 if full else 2000), n
