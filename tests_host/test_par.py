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


# ---- the documents' pays, written from the documents (not the engine's tables) ----
# Net pay ratios (winnings : stake) by total, per profile.
_TWO = {"table": 30, "etg": 30, "casino": 32, "house": 30}   # 000 l.220, 002 q.iv, 003 6(c), 004 l.161
TRUE = {4: (2, 1), 5: (3, 2), 6: (6, 5), 8: (6, 5), 9: (3, 2), 10: (2, 1)}   # 000 l.167-180
LAY = {4: (1, 2), 5: (2, 3), 6: (5, 6), 8: (5, 6), 9: (2, 3), 10: (1, 2)}    # 000 l.172-185
PLACE = {4: (9, 5), 5: (7, 5), 6: (7, 6), 8: (7, 6), 9: (7, 5), 10: (9, 5)}  # 000 l.186-189
PLACE_LOSE = {4: (5, 11), 5: (5, 8), 6: (4, 5), 8: (4, 5), 9: (5, 8), 10: (5, 11)}  # 003 6(c)
HARD = {4: (7, 1), 6: (9, 1), 8: (9, 1), 10: (7, 1)}                        # 000 l.207-213
SHARP = {3: 5, 4: 8, 5: 20, 6: 30, 7: 40, 8: 100, 9: 200, 10: 300}           # 004 l.141-148
LUCKY = {W.LUCKY_LOW: 30, W.LUCKY_HIGH: 30, W.LUCKY_ALL: 155}                # 002 paytable 1


def _single(name, t):
    """One unit on a single total (2, 3, 11, 12, 7) at the document's odds."""
    return {2: _TWO[name], 12: _TWO[name], 3: 15, 11: 15, 7: 4}[t]


def _split(units, hit, n):
    """A bet split in `units` equal parts, `hit` of them on the total that
    came at n:1: net winnings per unit of the whole bet (000 l.612 "paid as
    if the numbers are wagered individually", 003 6(c) "paid only to one
    quarter / fifth", 004 l.124-126)."""
    return Fraction(hit * (n + 1) - units, units)


def doc_ratio(name, kind, number, d1, d2, point, made):
    """The document's net pay ratio of a win (a Fraction), or None if the
    document says it loses; `made`: Sharp Shooter points made."""
    t = d1 + d2
    if kind in (W.PASS, W.DONT_PASS, W.COME, W.DONT_COME, W.BIG6, W.BIG8):
        return Fraction(1)
    if kind in (W.PASS_ODDS, W.COME_ODDS, W.BUY):
        return Fraction(*TRUE[number])
    if kind in (W.DONT_PASS_ODDS, W.DONT_COME_ODDS, W.LAY):
        return Fraction(*LAY[number])
    table = {W.PLACE: PLACE, W.PLACE_LOSE: PLACE_LOSE, W.HARD: HARD}.get(kind)
    if table is not None:
        return Fraction(*table[number])
    if kind == W.FIELD:                    # 000 l.216-218
        return Fraction(2 if t in (2, 12) else 1)
    if kind == W.ANY7:
        return Fraction(4)
    if kind == W.ANY_CRAPS:
        return Fraction(7)
    if kind in (W.TWO, W.THREE, W.ELEVEN, W.TWELVE):
        return Fraction(_single(name, t))
    if kind == W.HI_LO:                    # 004 l.165
        return Fraction(15)
    if kind == W.C_E:                      # 000 l.225-226, 003 "one-half": 7-1, 15-1
        return Fraction(7 if t == 11 else 3)
    if kind == W.HORN:
        return _split(4, 1, _single(name, t))
    if kind == W.HORN_HIGH:                # 000 l.614: a fifth unit on the chosen total
        return _split(5, 2 if t == number else 1, _single(name, t))
    if kind == W.WORLD:
        return _split(5, 1, _single(name, t))
    if kind == W.HOP:                      # 002 q.x, 004 l.128
        return Fraction(30 if d1 == d2 else 15)
    if kind in LUCKY:
        return Fraction(LUCKY[kind])
    if kind == W.SHARP_SHOOTER:
        return Fraction(SHARP[made]) if made >= 3 else None
    raise AssertionError(W.NAMES[kind])


def _rounded(exact, up):
    """To the cent: up in 003 (6(d) "the next higher amount"), else down."""
    return -((-exact.numerator) // exact.denominator) if up else exact.numerator // exact.denominator


def doc_paid(name, kind, number, stake, res, up, roll_, made):
    """What the documents pay on `stake` (cents), rounded as the profile
    states, and the vig: (paid, vig). `up`: the bet stays on the layout."""
    prof = par.P.get(name)
    round_up = prof["round_up"]
    if res == par.T.LOSE:
        return 0, 0
    if res != par.T.WIN:                   # a push or a bet returned
        return (0 if up else stake), 0
    state, d1, d2 = roll_
    win = _rounded(stake * doc_ratio(name, kind, number, d1, d2, 0, made), round_up)
    vig = 0
    if kind in (W.BUY, W.LAY) and prof["vig"]:
        # 5% of the stake (buy) or of the win (lay): 000 l.552/562, 002 l.81/88, 003 7(a)
        base = stake if kind == W.BUY else stake * Fraction(*LAY[number])
        vig = _rounded(base * Fraction(5, 100), round_up)
    return win - vig + (0 if up else stake), vig


def test_every_stake_pays_the_document_rounded_as_the_profile_states():
    # issue 19, 9: both sides. Every profile, wager and stake a player can
    # bet, from the minimum to $100 (or the table maximum), every settling
    # outcome replayed at that stake: the engine pays exactly the document's
    # pay rounded to the cent as the profile states (never less, never
    # more), so the edge at each stake is the document's at that stake.
    bad = []
    checked = 0
    for name in ("table", "etg", "casino", "house"):
        prof = par.P.get(name)
        for base, edges in par.stakes_sheet(name, 100):
            kind, number = base["kind"], base["number"]
            lo, hi, mult = prof["limits"][kind]
            assert edges, (name, W.NAMES[kind], number)
            top = 100 * par.CENTS
            nxt = edges[-1][0] + mult              # the next stake: past $100 or refused
            if nxt <= min(hi or top, top):
                try:
                    par.setup(prof, kind, number, nxt)
                    assert False, ("stake left out", name, W.NAMES[kind], number, nxt)
                except par.ParError:
                    pass
            for stake, upfront, outcomes in par.stake_outcomes(name, kind, number, 100, base):
                for p, roll_, hit, value in outcomes:
                    made = _made(roll_, kind, hit)
                    want = doc_paid(name, kind, number, stake, hit[3], hit[7], roll_, made)
                    checked += 1
                    if (hit[4], hit[5]) != want:
                        bad.append((name, W.NAMES[kind], number, stake, roll_[1:],
                                    par.RESULT_NAMES[hit[3]], hit[4:6], want))
    assert not bad, bad[:20]
    assert checked > 20000, checked


def _made(roll_, kind, hit):
    """Sharp Shooter: the points the shooter made when the bet settled."""
    if kind != W.SHARP_SHOOTER:
        return 0
    state, d1, d2 = roll_
    t = par.T.Table(par.P.get("house"))
    assert t.load(state)
    bet = [b for b in t.bets if b[0] == kind][0]
    return bet[4] + (0 if d1 + d2 == 7 else 1)


def test_a_short_pay_or_an_overpay_fails_the_stake_test():
    # the review's examples: a $1 place 6 paid $1.00, a $5 house horn $33
    # (7:6 of $1 is $1.16 down, 27:4 of $5 is $33.75)
    assert doc_paid("table", W.PLACE, 6, 100, par.T.WIN, 1, (b"", 3, 3), 0) == (116, 0)
    assert doc_paid("casino", W.PLACE, 6, 100, par.T.WIN, 1, (b"", 3, 3), 0) == (117, 0)
    assert doc_paid("house", W.HORN, 0, 500, par.T.WIN, 1, (b"", 1, 1), 0) == (3375, 0)
    assert doc_paid("casino", W.HORN, 0, 500, par.T.WIN, 1, (b"", 1, 1), 0) == (3625, 0)
    assert doc_paid("table", W.BUY, 4, 2000, par.T.WIN, 1, (b"", 2, 2), 0) == (3900, 100)
    assert doc_paid("etg", W.LAY, 4, 100, par.T.WIN, 1, (b"", 3, 4), 0) == (48, 2)
