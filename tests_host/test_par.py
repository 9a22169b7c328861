"""The PAR sheet (tools/par.py) reproduces the published figures.

CPython only: the tool uses fractions. Every figure is computed here through
the same tool code that prints the sheet (driving the engine), then rounded to
the precision the rule document prints.
"""
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))

import par  # noqa: E402
from firmware.rules import wagers as W  # noqa: E402

_CACHE = {}


def fig(profile, kind, number=0):
    key = (profile, kind, number)
    if key not in _CACHE:
        _CACHE[key] = par.analyse(profile, kind, number)
    return _CACHE[key]


def pct(profile, kind, number=0):
    return round(float(fig(profile, kind, number)["edge"] * 100), 2)


# 004 "Full List of Game Odds & Payouts": house edge in % to two places.
HOUSE_EDGES = [
    ((W.PASS,), 1.41), ((W.COME,), 1.41),
    ((W.DONT_PASS,), 1.36), ((W.DONT_COME,), 1.36),
    ((W.ELEVEN,), 11.11), ((W.THREE,), 11.11),
    ((W.TWO,), 13.89), ((W.TWELVE,), 13.89),
    ((W.HI_LO,), 11.11), ((W.ANY_CRAPS,), 11.11), ((W.C_E,), 11.11),
    ((W.ANY7,), 16.67), ((W.FIELD,), 5.56), ((W.HORN,), 12.5), ((W.WORLD,), 13.33),
    ((W.HARD, 4), 11.11), ((W.HARD, 10), 11.11), ((W.HARD, 6), 9.09), ((W.HARD, 8), 9.09),
    ((W.BIG6,), 9.09), ((W.BIG8,), 9.09),
    ((W.PLACE, 4), 6.67), ((W.PLACE, 10), 6.67), ((W.PLACE, 5), 4.0), ((W.PLACE, 9), 4.0),
    ((W.PLACE, 6), 1.52), ((W.PLACE, 8), 1.52),
]


def test_house_edges_match_004_table():
    bad = []
    for args, want in HOUSE_EDGES:
        got = pct("house", *args)
        if got != want:
            bad.append((W.NAMES[args[0]], args[1:], got, want))
    assert not bad, bad


def test_house_odds_are_free():
    for kind in (W.PASS_ODDS, W.DONT_PASS_ODDS, W.COME_ODDS, W.DONT_COME_ODDS):
        for n in W.POINTS:
            assert fig("house", kind, n)["edge"] == 0, (W.NAMES[kind], n)


def test_exact_fractions():
    assert fig("house", W.PASS)["edge"] == Fraction(7, 495)
    assert fig("house", W.DONT_PASS)["edge"] == Fraction(3, 220)    # bar 12
    assert fig("house", W.DONT_PASS)["push"] == Fraction(1, 36)
    assert fig("house", W.PASS)["win"] == Fraction(244, 495)
    assert fig("house", W.PLACE, 6)["edge"] == Fraction(1, 66)
    assert fig("house", W.PLACE, 4)["edge"] == Fraction(1, 15)
    assert fig("house", W.FIELD)["edge"] == Fraction(1, 18)
    assert fig("house", W.WORLD)["edge"] == Fraction(2, 15)
    assert fig("house", W.WORLD)["push"] == Fraction(1, 6)
    assert fig("house", W.HORN)["edge"] == Fraction(1, 8)
    assert fig("house", W.HOP, 11)["edge"] == Fraction(5, 36)
    assert fig("house", W.HOP, 12)["edge"] == Fraction(1, 9)


def test_sharp_shooter_distribution_matches_004():
    want = [("10 or more", 300, 0.000122), ("9", 200, 0.000178), ("8", 100, 0.000439),
            ("7", 40, 0.001081), ("6", 30, 0.002662), ("5", 20, 0.006557),
            ("4", 8, 0.016148), ("3", 5, 0.039766), ("2 or less", -1, 0.933047)]
    rows = par.sharp_table(fig("house", W.SHARP_SHOOTER)["points_made"])
    got = [(e, pays, round(float(p), 6)) for e, pays, p in rows]
    assert got == want
    assert sum(p for _e, _pays, p in rows) == 1


def test_lucky_roller_win_probabilities_match_002():
    assert round(float(fig("etg", W.LUCKY_LOW)["win"]), 6) == 0.026354
    assert round(float(fig("etg", W.LUCKY_HIGH)["win"]), 6) == 0.026354
    assert round(float(fig("etg", W.LUCKY_ALL)["win"]), 6) == 0.005258
    for k in (W.LUCKY_LOW, W.LUCKY_HIGH, W.LUCKY_ALL):
        f = fig("etg", k)
        assert f["win"] + f["lose"] == 1


def test_profile_differences():
    # 003 pays 32:1 on 2 and 12 (and in the horn): better than 30:1.
    assert fig("casino", W.TWO)["edge"] == Fraction(1, 12)
    assert fig("casino", W.HORN)["edge"] == Fraction(7, 72)
    assert fig("casino", W.HORN)["pays"][-1][0] == Fraction(29, 4)
    assert fig("house", W.HORN)["pays"][-1][0] == Fraction(27, 4)
    # Buy with 5% up front (000) against 5% of the stake taken from the win (002).
    assert fig("table", W.BUY, 4)["edge"] == Fraction(1, 20)
    assert fig("table", W.BUY, 4)["edge_stake_vig"] == Fraction(1, 21)
    assert fig("etg", W.BUY, 4)["edge"] == Fraction(1, 60)
    assert fig("table", W.LAY, 4)["edge"] == Fraction(1, 40)
    assert fig("etg", W.LAY, 4)["edge"] == Fraction(1, 60)
    # Place to lose (003).
    assert fig("casino", W.PLACE_LOSE, 4)["edge"] == Fraction(1, 33)
    assert fig("casino", W.PLACE_LOSE, 6)["edge"] == Fraction(1, 55)


def test_come_odds_returned_on_come_out_keep_zero_edge():
    f = fig("table", W.COME_ODDS, 6)
    assert f["returned"] > 0
    assert f["edge"] == 0
    assert f["win"] + f["lose"] + f["returned"] == 1


def test_whole_sheet_and_json():
    rows = par.sheet("house")
    out = par.as_json("house", rows)
    assert out["profile"] == "house" and out["doc"] == "004"
    names = set(r["wager"] for r in out["wagers"])
    assert "buy" not in names and "sharp_shooter" in names
    for r in out["wagers"]:
        assert Fraction(r["win"]) + Fraction(r["lose"]) + Fraction(r["push"]) == 1


def test_no_stake_gives_the_player_the_edge_or_a_silent_short_pay():
    # Every profile, wager and stake a player can bet, from the minimum to
    # $100 (or the table maximum), priced from the engine's own payouts:
    # never below the document's edge by more than one cent of breakage,
    # never negative; odds bets never negative and zero within a cent.
    bad = []
    for name in ("table", "etg", "casino", "house"):
        for base, edges in par.stakes_sheet(name, 100):
            kind, number = base["kind"], base["number"]
            lo, hi, mult = par.P.get(name)["limits"][kind]
            assert edges, (name, W.NAMES[kind], number)
            top = 100 * par.CENTS
            nxt = edges[-1][0] + mult              # the next stake: past $100 or refused
            if nxt <= min(hi or top, top):
                try:
                    par.setup(par.P.get(name), kind, number, nxt)
                    assert False, ("stake left out", name, W.NAMES[kind], number, nxt)
                except par.ParError:
                    pass
            nominal = base["edge"]
            for stake, edge in edges:
                cent = Fraction(par.CENTS, 100 * stake)   # one cent of the stake
                if edge < 0 or edge < nominal - cent or \
                        (W.FAMILY[kind] == W.F_ODDS and edge > cent):
                    bad.append((name, W.NAMES[kind], number, stake, float(edge * 100),
                                float(nominal * 100)))
    assert not bad, bad[:20]
