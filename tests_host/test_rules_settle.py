"""Hand-worked settlements: every wager, every profile difference.

Plain test functions (run by pytest on CPython and by tests_host/mp_runner.py
on the MicroPython unix port). Expected credits are worked out by hand from
the rule documents in the comments, never from the engine's own tables.
"""
from firmware.rules import profiles as P
from firmware.rules import reasons as R
from firmware.rules import table as T
from firmware.rules import wagers as W

WIN, LOSE, PUSH, RETURNED = T.WIN, T.LOSE, T.PUSH, T.RETURNED
from rules_helpers import D, mk, roll  # noqa: E402


def put(t, kind, dollars, number=0):
    code = t.place(kind, dollars * 100, number)
    assert code == R.OK, (W.NAMES[kind], dollars, number, R.code_name(code))


def cr(t):
    """Credits in dollars (a fraction shows as one: 1001.17)."""
    return t.credits / 100


def D(kind, number, dollars, res, paid, vig=0, rnd=0, up=0):
    """A settlement tuple written in dollars (vig in cents, rounding in
    1/1320 cent, up = 1 when the bet stays on the layout)."""
    return (kind, number, round(dollars * 100), res, round(paid * 100), vig, rnd, up)


def got(t, kind, number=None):
    """The settlement tuple of `kind` in the last roll, or None."""
    for s in t.settled:
        if s[0] == kind and (number is None or s[1] == number):
            return s
    return None


def point(t, n):
    """Puts a bare point on (no bets needed)."""
    roll(t, n)
    assert t.point == n


# ---- pass / don't pass ------------------------------------------------------
def test_pass_come_out():
    # A natural pays even money and the pass bet stays up for the next
    # come-out (004 line 25: a new round starts); craps takes it.
    for total, res, credits in ((7, WIN, 1000), (11, WIN, 1000), (2, LOSE, 990),
                                (3, LOSE, 990), (12, LOSE, 990)):
        t = mk("table")
        put(t, W.PASS, 10)
        roll(t, total)
        assert cr(t) == credits, (total, cr(t))
        assert got(t, W.PASS)[3] == res
        assert t.point == 0
        if res == WIN:
            assert got(t, W.PASS) == D(W.PASS, 0, 10, WIN, 10, up=1)
            assert t.find(W.PASS)[2] == 1000
        else:
            assert t.bets == []


def test_dont_pass_come_out_bar_12():
    # a win pays 10 and a push pays nothing: both leave the bet up
    for total, res, paid, up in ((7, LOSE, 0, 0), (11, LOSE, 0, 0), (2, WIN, 10, 1),
                                 (3, WIN, 10, 1), (12, PUSH, 0, 1)):
        t = mk("casino")
        put(t, W.DONT_PASS, 10)
        roll(t, total)
        assert got(t, W.DONT_PASS) == D(W.DONT_PASS, 0, 10, res, paid, up=up), total
        assert cr(t) == 990 + paid
        assert (t.find(W.DONT_PASS) is not None) == bool(up)


def test_pass_and_dont_pass_on_the_point():
    for name in P.NAMES:
        amt = 5 if name == "house" else 10
        t = mk(name)
        put(t, W.PASS, amt)
        roll(t, 6)
        assert t.point == 6 and cr(t) == 1000 - amt
        for total in (2, 3, 11, 12, 4, 5, 8, 9, 10):
            roll(t, total)
            assert t.settled == [] and t.point == 6, (name, total)
        roll(t, 6)
        assert got(t, W.PASS) == D(W.PASS, 0, amt, WIN, amt, up=1)
        assert cr(t) == 1000 and t.point == 0 and t.find(W.PASS)[2] == 100 * amt
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 9)
    roll(t, 7)
    assert got(t, W.PASS)[3] == LOSE and cr(t) == 990
    t = mk("table")
    put(t, W.DONT_PASS, 10)
    roll(t, 9)
    roll(t, 12)                       # 12 does nothing once the point is on
    assert t.settled == []
    roll(t, 7)
    assert got(t, W.DONT_PASS) == D(W.DONT_PASS, 0, 10, WIN, 10, up=1)
    t = mk("table")
    put(t, W.DONT_PASS, 10)
    roll(t, 9)
    roll(t, 9)
    assert got(t, W.DONT_PASS)[3] == LOSE and cr(t) == 990


# ---- come / don't come -----------------------------------------------------
def test_come_moves_and_wins():
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 4)
    put(t, W.COME, 10)
    roll(t, 5)                        # come moves to 5
    assert t.find(W.COME, 5)[2] / 100 == 10 and t.find(W.COME, 0) is None
    assert cr(t) == 980
    roll(t, 5)                        # leaves its number: stake and win back
    assert got(t, W.COME) == D(W.COME, 5, 10, WIN, 20, 0, 0)
    assert cr(t) == 1000 and t.point == 4 and t.find(W.COME, 5) is None


def test_come_first_roll():
    # a first-roll 11 pays 10 and the come bet stays in the come box; the
    # seven-out pays it and takes it down: a come bet never plays a come-out
    # roll (000 line 392, 003 4(d), 004 line 72)
    for name in P.NAMES:
        for total, res, credits, up in ((7, WIN, 1010, False), (11, WIN, 1000, True),
                                        (2, LOSE, 990, False), (3, LOSE, 990, False),
                                        (12, LOSE, 990, False)):
            t = mk(name)
            point(t, 4)
            put(t, W.COME, 10)
            roll(t, total)
            assert got(t, W.COME)[3] == res and cr(t) == credits, (name, total)
            assert (t.find(W.COME, 0) is not None) == up, (name, total)
    # one that won on the 11 and stayed up comes down at the seven-out too
    t = mk("table")
    point(t, 4)
    put(t, W.COME, 10)
    roll(t, 11)
    roll(t, 7)
    assert got(t, W.COME) == D(W.COME, 0, 10, WIN, 20, 0, 0) and t.bets == []
    assert cr(t) == 1020 and t.point == 0


def test_come_on_the_pass_point_and_seven_out():
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 4)
    put(t, W.COME, 10)
    roll(t, 4)                        # pass wins, come goes to the 4
    assert got(t, W.PASS)[3] == WIN and t.find(W.COME, 4) is not None
    assert t.point == 0 and cr(t) == 990          # pass paid 10 and stays up
    roll(t, 4)                        # come-out 4: the come bet wins, point 4
    assert got(t, W.COME) == D(W.COME, 4, 10, WIN, 20, 0, 0) and t.point == 4
    assert got(t, W.PASS) is None and cr(t) == 1010
    put(t, W.COME, 10)
    roll(t, 8)
    roll(t, 7)                        # seven-out: the come on 8 loses
    assert got(t, W.COME) == D(W.COME, 8, 10, LOSE, 0, 0, 0)


def test_dont_come():
    # in the don't come box a win (10) or a push leaves the bet up
    for total, res, paid, up in ((2, WIN, 10, 1), (3, WIN, 10, 1), (12, PUSH, 0, 1),
                                 (7, LOSE, 0, 0), (11, LOSE, 0, 0)):
        t = mk("casino")
        point(t, 4)
        put(t, W.DONT_COME, 10)
        roll(t, total)
        assert got(t, W.DONT_COME) == D(W.DONT_COME, 0, 10, res, paid, up=up), total
        assert (t.find(W.DONT_COME, 0) is not None) == bool(up)
    t = mk("casino")
    point(t, 4)
    put(t, W.DONT_COME, 10)
    roll(t, 6)
    assert t.find(W.DONT_COME, 6)[2] / 100 == 10
    roll(t, 7)                        # leaves its number: stake and win back
    assert got(t, W.DONT_COME) == D(W.DONT_COME, 6, 10, WIN, 20, 0, 0)
    assert cr(t) == 1010 and t.bets == []


# ---- odds -------------------------------------------------------------------
# Pass odds at the cap and what they pay with the point made (base bet 10).
ODDS = {
    # 000 and 004: 3-4-5x; 2:1, 3:2, 6:5.
    "table": {4: (30, 90), 5: (40, 100), 6: (50, 110), 8: (50, 110), 9: (40, 100), 10: (30, 90)},
    # 002: one preset multiple, 3x.
    "etg": {4: (30, 90), 5: (30, 75), 6: (30, 66), 8: (30, 66), 9: (30, 75), 10: (30, 90)},
    # 003: 10x.
    "casino": {4: (100, 300), 5: (100, 250), 6: (100, 220), 8: (100, 220), 9: (100, 250),
               10: (100, 300)},
}
# Don't odds are capped by what they can win: the multiple times the line bet.
DONT_ODDS = {
    "table": {4: (60, 90), 5: (60, 100), 6: (60, 110), 8: (60, 110), 9: (60, 100), 10: (60, 90)},
    "etg": {4: (60, 90), 5: (45, 75), 6: (36, 66), 8: (36, 66), 9: (45, 75), 10: (60, 90)},
    "casino": {4: (200, 300), 5: (150, 250), 6: (120, 220), 8: (120, 220), 9: (150, 250),
               10: (200, 300)},
}


def test_pass_odds_limits_and_pay():
    for name in ODDS:
        for n in W.POINTS:
            cap, paid = ODDS[name][n]
            t = mk(name)
            put(t, W.PASS, 10)
            roll(t, n)
            before = t.encode()
            assert t.place(W.PASS_ODDS, 100 * (cap + 1)) == R.ODDS_LIMIT, (name, n)
            assert t.encode() == before
            assert t.stake(W.PASS_ODDS, n)[3] == 100 * cap
            put(t, W.PASS_ODDS, cap)
            assert t.find(W.PASS_ODDS, n)[2] / 100 == cap
            roll(t, n)
            assert got(t, W.PASS_ODDS) == D(W.PASS_ODDS, n, cap, WIN, paid, 0, 0), (name, n)
            # the odds come down with the point; the pass line stays up
            assert cr(t) == 1000 + paid - cap, (name, n)
            assert t.find(W.PASS_ODDS, n) is None and t.find(W.PASS)[2] == 1000


def test_dont_pass_odds_limits_and_pay():
    for name in DONT_ODDS:
        for n in W.POINTS:
            cap, paid = DONT_ODDS[name][n]
            t = mk(name)
            put(t, W.DONT_PASS, 10)
            roll(t, n)
            # (+$3: 003 lays odds only in amounts that pay whole cents)
            assert t.place(W.DONT_PASS_ODDS, 100 * (cap + 3)) == R.ODDS_LIMIT, (name, n)
            put(t, W.DONT_PASS_ODDS, cap)
            roll(t, 7)
            assert got(t, W.DONT_PASS_ODDS) == D(W.DONT_PASS_ODDS, n, cap, WIN, paid, 0, 0), (name, n)
            assert cr(t) == 1000 + paid - cap
            assert t.find(W.DONT_PASS_ODDS, n) is None and t.find(W.DONT_PASS)[2] == 1000


def test_odds_lose_with_their_line():
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 8)
    put(t, W.PASS_ODDS, 50)
    roll(t, 7)
    assert got(t, W.PASS_ODDS) == D(W.PASS_ODDS, 8, 50, LOSE, 0, 0, 0)
    assert cr(t) == 940
    t = mk("table")
    put(t, W.DONT_PASS, 10)
    roll(t, 8)
    put(t, W.DONT_PASS_ODDS, 60)
    roll(t, 8)
    assert got(t, W.DONT_PASS_ODDS)[3] == LOSE and cr(t) == 930


def test_house_odds_limits():
    # 004 lines 45 and 64: odds "up to the table limit", no multiple: $10.
    t = mk("house", 100)
    put(t, W.PASS, 2)
    roll(t, 4)
    assert t.place(W.PASS_ODDS, 100 * 11) == R.ABOVE_MAX
    put(t, W.PASS_ODDS, 10)                               # 5x a $2 line bet
    roll(t, 4)
    assert got(t, W.PASS_ODDS) == D(W.PASS_ODDS, 4, 10, WIN, 30)   # 2:1 on 10
    assert cr(t) == 100 - 2 + 2 + 20                      # pass stays up
    t = mk("house", 100)
    put(t, W.PASS, 3)
    roll(t, 6)
    assert t.place(W.PASS_ODDS, 100 * 11) == R.ABOVE_MAX
    put(t, W.PASS_ODDS, 10)
    roll(t, 6)
    assert got(t, W.PASS_ODDS) == D(W.PASS_ODDS, 6, 10, WIN, 22)   # 6:5 on 10
    t = mk("house", 100)
    put(t, W.DONT_PASS, 1)
    roll(t, 4)
    assert t.place(W.DONT_PASS_ODDS, 100 * 11) == R.ABOVE_MAX
    put(t, W.DONT_PASS_ODDS, 10)                          # wins 5 on a $1 line bet
    roll(t, 7)
    assert got(t, W.DONT_PASS_ODDS) == D(W.DONT_PASS_ODDS, 4, 10, WIN, 15)


def test_odds_off_are_returned_on_the_decision():
    # 004 lets the player turn pass and don't pass odds off.
    # the pass line pays 5 and stays up, or loses
    for total, pass_res, pass_paid, up in ((6, WIN, 5, 1), (7, LOSE, 0, 0)):
        t = mk("house", 100)
        put(t, W.PASS, 5)
        roll(t, 6)
        put(t, W.PASS_ODDS, 10)
        assert t.set_working(W.PASS_ODDS, 0, False) == R.OK
        roll(t, total)
        assert got(t, W.PASS) == D(W.PASS, 0, 5, pass_res, pass_paid, up=up)
        assert got(t, W.PASS_ODDS) == D(W.PASS_ODDS, 6, 10, RETURNED, 10, 0, 0)
        assert cr(t) == 85 + pass_paid + 10
    t = mk("house", 100)
    put(t, W.DONT_PASS, 5)
    roll(t, 4)
    put(t, W.DONT_PASS_ODDS, 10)
    assert t.set_working(W.DONT_PASS_ODDS, 4, False) == R.OK
    roll(t, 7)
    assert got(t, W.DONT_PASS) == D(W.DONT_PASS, 0, 5, WIN, 5, up=1)
    assert got(t, W.DONT_PASS_ODDS) == D(W.DONT_PASS_ODDS, 4, 10, RETURNED, 10, 0, 0)


def _come_with_odds(name, odds, credits=1000, base=10):
    t = mk(name, credits)
    put(t, W.PASS, base)
    roll(t, 4)
    put(t, W.COME, base)
    roll(t, 5)
    put(t, W.COME_ODDS, odds, 5)
    roll(t, 4)                         # pass wins: next roll is a come-out
    assert t.point == 0
    return t


def test_come_odds_off_on_the_come_out():
    # 000: come wins on the come-out, its odds are returned.
    t = _come_with_odds("table", 40)
    c = cr(t)
    roll(t, 5)
    assert got(t, W.COME) == D(W.COME, 5, 10, WIN, 20, 0, 0)
    assert got(t, W.COME_ODDS) == D(W.COME_ODDS, 5, 40, RETURNED, 40, 0, 0)
    assert cr(t) == c + 60 and t.point == 5
    # seven on the come-out: come loses, odds returned.
    t = _come_with_odds("table", 40)
    c = cr(t)
    roll(t, 7)
    assert got(t, W.COME) == D(W.COME, 5, 10, LOSE, 0, 0, 0)
    assert got(t, W.COME_ODDS) == D(W.COME_ODDS, 5, 40, RETURNED, 40, 0, 0)
    assert got(t, W.PASS) == D(W.PASS, 0, 10, WIN, 10, up=1)   # the pass line stayed up
    assert cr(t) == c + 40 + 10
    # called ON: the odds work (3:2 on 40 = 60).
    t = _come_with_odds("table", 40)
    assert t.set_working(W.COME_ODDS, 5, True) == R.OK
    c = cr(t)
    roll(t, 5)
    assert got(t, W.COME_ODDS) == D(W.COME_ODDS, 5, 40, WIN, 100, 0, 0)
    assert cr(t) == c + 120


def test_come_odds_win_with_the_point_on():
    t = mk("casino")
    put(t, W.PASS, 10)
    roll(t, 4)
    put(t, W.COME, 10)
    roll(t, 6)
    assert t.place(W.COME_ODDS, 100 * (101), 6) == R.ODDS_LIMIT   # 10x
    put(t, W.COME_ODDS, 100, 6)
    roll(t, 6)
    assert got(t, W.COME_ODDS) == D(W.COME_ODDS, 6, 100, WIN, 220, 0, 0)


def test_dont_come_odds_work_on_the_come_out_004():
    t = mk("house", 100)
    put(t, W.PASS, 1)
    roll(t, 4)
    put(t, W.DONT_COME, 2)
    roll(t, 5)
    assert t.place(W.DONT_COME_ODDS, 100 * (11), 5) == R.ABOVE_MAX
    put(t, W.DONT_COME_ODDS, 9, 5)     # wins 6 = 3 x 2 (4x allowed)
    roll(t, 4)                         # pass wins, come-out next
    assert t.point == 0
    c = cr(t)
    roll(t, 7)
    assert got(t, W.DONT_COME) == D(W.DONT_COME, 5, 2, WIN, 4, 0, 0)
    assert got(t, W.DONT_COME_ODDS) == D(W.DONT_COME_ODDS, 5, 9, WIN, 15, 0, 0)
    assert got(t, W.PASS) == D(W.PASS, 0, 1, WIN, 1, up=1)     # natural on the come-out
    assert cr(t) == c + 19 + 1


def test_dont_come_odds_limit_and_loss():
    t = mk("table")
    point(t, 4)
    put(t, W.DONT_COME, 10)
    roll(t, 10)
    assert t.place(W.DONT_COME_ODDS, 100 * (61), 10) == R.ODDS_LIMIT
    put(t, W.DONT_COME_ODDS, 60, 10)
    roll(t, 10)
    assert got(t, W.DONT_COME_ODDS) == D(W.DONT_COME_ODDS, 10, 60, LOSE, 0, 0, 0)
    assert got(t, W.DONT_COME)[3] == LOSE


# ---- place to win / to lose ---------------------------------------------------
def test_place_to_win_pays():
    # winnings only: the place bet stays up and wins again (004 line 92)
    for n, amt, win in ((4, 5, 9), (10, 5, 9), (5, 5, 7), (9, 10, 14), (6, 6, 7),
                        (8, 12, 14)):
        t = mk("table")
        point(t, 4 if n != 4 else 10)
        put(t, W.PLACE, amt, n)
        for k in (1, 2):
            roll(t, n)
            assert got(t, W.PLACE) == D(W.PLACE, n, amt, WIN, win, up=1), n
            assert cr(t) == 1000 - amt + k * win
            assert t.find(W.PLACE, n)[2] == 100 * amt
        roll(t, 7)
        assert got(t, W.PLACE) == D(W.PLACE, n, amt, LOSE, 0)
        assert t.find(W.PLACE, n) is None


def test_place_rounding_to_the_cent_000_down_003_up():
    # 7:6 on $1 = 116 2/3 cents: 000 pays 1.16 (house keeps 2/3 cent =
    # 880/1320), 003 pays the next cent, 1.17 (gives 1/3 = 440/1320).
    for name, win, meter in (("table", 116, 880), ("casino", 117, -440), ("house", 116, 880),
                             ("etg", 116, 880)):
        t = mk(name)
        point(t, 4)
        put(t, W.PLACE, 1, 6)
        roll(t, 6)
        assert got(t, W.PLACE) == (W.PLACE, 6, 100, WIN, win, 0, meter, 1), name
    # 7:6 on $5 = 583 1/3 cents: 5.83 (keeps 440/1320) or 5.84 (gives 880/1320).
    for name, win, meter in (("table", 583, 440), ("casino", 584, -880)):
        t = mk(name)
        point(t, 5)
        put(t, W.PLACE, 5, 8)
        roll(t, 8)
        assert got(t, W.PLACE) == (W.PLACE, 8, 500, WIN, win, 0, meter, 1), name
    # 9:5 and 7:5 on whole dollars are whole cents: nothing rounds.
    t = mk("table")
    point(t, 5)
    put(t, W.PLACE, 1, 4)
    roll(t, 4)
    assert got(t, W.PLACE) == D(W.PLACE, 4, 1, WIN, 1.80, up=1)


def test_place_off_on_the_come_out_unless_called_on():
    t = mk("table")
    put(t, W.PLACE, 6, 6)
    roll(t, 7)                             # come-out seven: place is off
    assert t.settled == [] and t.find(W.PLACE, 6) is not None
    roll(t, 6)                             # sets the point, still off
    assert t.settled == [] and t.point == 6
    roll(t, 6)                             # now working: 7:6 on 6
    assert got(t, W.PLACE) == D(W.PLACE, 6, 6, WIN, 7, up=1)
    t = mk("table")
    put(t, W.PLACE, 6, 6)
    assert t.set_working(W.PLACE, 6, True) == R.OK
    roll(t, 7)
    assert got(t, W.PLACE) == D(W.PLACE, 6, 6, LOSE, 0, 0, 0)
    # and OFF while the point is on
    t = mk("table")
    point(t, 5)
    put(t, W.PLACE, 6, 8)
    assert t.set_working(W.PLACE, 8, False) == R.OK
    roll(t, 8)
    assert t.settled == []
    roll(t, 7)
    assert t.settled == [] and t.find(W.PLACE, 8)[2] / 100 == 6


def test_place_to_lose_003():
    # 5:11 on 4/10, 5:8 on 5/9, 4:5 on 6/8; the bet stays up
    for n, amt, win in ((4, 11, 5), (10, 22, 10), (5, 8, 5), (9, 16, 10), (6, 5, 4),
                        (8, 10, 8)):
        t = mk("casino")
        point(t, 4 if n != 4 else 10)
        put(t, W.PLACE_LOSE, amt, n)
        roll(t, 7)
        assert got(t, W.PLACE_LOSE) == D(W.PLACE_LOSE, n, amt, WIN, win, up=1), n
        assert t.find(W.PLACE_LOSE, n)[2] == 100 * amt
    t = mk("casino")
    point(t, 4)
    put(t, W.PLACE_LOSE, 5, 6)
    roll(t, 6)
    assert got(t, W.PLACE_LOSE) == D(W.PLACE_LOSE, 6, 5, LOSE, 0, 0, 0)
    # 003 does not turn place-to-lose off on the come-out; 004 does.
    t = mk("casino")
    put(t, W.PLACE_LOSE, 5, 6)
    roll(t, 7)
    assert got(t, W.PLACE_LOSE) == D(W.PLACE_LOSE, 6, 5, WIN, 4, up=1)
    t = mk("house")
    put(t, W.PLACE_LOSE, 5, 6)
    roll(t, 7)
    assert t.settled == []
    # 5:11 on $5 = 227 3/11 cents: 003 rounds up to 2.28 (gives 8/11 cent).
    t = mk("casino")
    point(t, 5)
    put(t, W.PLACE_LOSE, 5, 4)
    roll(t, 7)
    assert got(t, W.PLACE_LOSE) == (W.PLACE_LOSE, 4, 500, WIN, 228, 0, -960, 1)


# ---- buy / lay ----------------------------------------------------------------
def test_buy_vig_up_front_000():
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)                   # 5% of $20 = $1 up front
    assert t.last_vig == 100 and cr(t) == 979
    roll(t, 4)                             # 2:1 = $40; staying up it pays the
    assert got(t, W.BUY) == (W.BUY, 4, 2000, WIN, 3900, 100, 0, 1)   # next $1
    assert cr(t) == 1018
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 10, 6)                   # 5% of $10 = 50 cents (no minimum)
    assert cr(t) == 989.5
    put(t, W.BUY, 30, 6)                   # now $40: vig $2 in all, 1.50 more
    assert t.last_vig == 150 and cr(t) == 958
    roll(t, 7)
    assert got(t, W.BUY) == D(W.BUY, 6, 40, LOSE, 0, 0, 0) and cr(t) == 958


def test_lay_vig_up_front_000():
    t = mk("table")
    point(t, 5)
    put(t, W.LAY, 40, 4)                   # wins $20: vig $1
    assert cr(t) == 959
    roll(t, 7)                             # $20, less the next decision's $1
    assert got(t, W.LAY) == (W.LAY, 4, 4000, WIN, 1900, 100, 0, 1)
    assert cr(t) == 978
    t = mk("table")
    point(t, 5)
    put(t, W.LAY, 60, 6)                   # wins $50: vig 2.50
    assert cr(t) == 937.5
    roll(t, 6)
    assert got(t, W.LAY)[3] == LOSE and cr(t) == 937.5


def test_one_vig_per_decision_000():
    # 000 line 49: vig collected when a buy/lay is placed. A win that stays
    # up is placed again at the result: its vig, taken from the win, comes
    # back if the player takes the bet down before the next roll, so a buy
    # taken down after each win pays one vig per decision (issue 19, 4).
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)                   # $1 up front
    roll(t, 4)                             # $40 less the next decision's $1
    assert cr(t) == 1018
    assert t.remove(W.BUY, 4) == R.OK      # stake and the unused $1
    assert cr(t) == 1039 and t.last_vig == -100
    # lay: the same; a reduction returns the vig of the part taken down
    t = mk("table")
    point(t, 5)
    put(t, W.LAY, 40, 4)                   # wins $20: vig $1
    roll(t, 7)
    assert cr(t) == 978
    assert t.remove(W.LAY, 4, 2000) == R.OK and cr(t) == 998.5   # $20 and 50 cents
    # once the next roll has passed it is a bet that has seen a roll: kept (000)
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    roll(t, 4)
    roll(t, 9)
    assert t.remove(W.BUY, 4) == R.OK and cr(t) == 1038
    # and the vig it holds is the one taken at the win, not more
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)                   # vig $1
    roll(t, 3)
    assert t.remove(W.BUY, 4, 1000) == R.OK and cr(t) == 989   # kept: no refund
    roll(t, 4)                             # $10 wins $20 less 50 cents
    assert cr(t) == 1008.5
    assert t.remove(W.BUY, 4) == R.OK and cr(t) == 1019       # $10 and 50 cents
    # a bet called OFF or ON in between keeps its right to the refund
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    roll(t, 4)
    assert t.set_working(W.BUY, 4, False) == R.OK
    assert t.remove(W.BUY, 4) == R.OK and cr(t) == 1039
    # it survives a snapshot
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    roll(t, 4)
    u = T.Table(P.get("table"))
    assert u.load(t.encode())
    assert u.remove(W.BUY, 4) == R.OK and u.credits / 100 == 1039


def test_buy_removal_refund_003_only():
    for name, back in (("table", 40), ("casino", 42)):
        t = mk(name)
        point(t, 5)
        put(t, W.BUY, 40, 4)               # vig 2
        assert cr(t) == 958
        roll(t, 3)                         # no decision
        assert t.remove(W.BUY, 4) == R.OK
        assert cr(t) == 958 + back, name
        assert t.last_vig == -100 * (back - 40)
    # taken back in the same betting period: every profile gives the vig back.
    t = mk("table")
    put(t, W.BUY, 40, 4)
    assert t.remove(W.BUY, 4) == R.OK and cr(t) == 1000
    # 003: lay (buy to lose) vig refunded too.
    t = mk("casino")
    put(t, W.LAY, 40, 10)                  # wins 20: vig 1
    roll(t, 3)
    assert t.remove(W.LAY, 10) == R.OK and cr(t) == 1000
    # part old, part new: the new part's vig comes back with it (000)
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 40, 4)                   # vig 2
    roll(t, 3)
    put(t, W.BUY, 20, 4)                   # $60: vig 3, one more
    assert t.last_vig == 100 and cr(t) == 937
    assert t.remove(W.BUY, 4) == R.OK      # 60 back and the new part's $1
    assert cr(t) == 998 and t.last_vig == -100


def test_vig_on_the_win_002():
    t = mk("etg")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    assert cr(t) == 980 and t.last_vig == 0
    roll(t, 4)                             # 2:1 = 40, less 5% of the 20 bet
    assert got(t, W.BUY) == (W.BUY, 4, 2000, WIN, 3900, 100, 0, 1)
    assert cr(t) == 1019
    t = mk("etg")
    put(t, W.LAY, 40, 4)                   # 000 (002 is silent): off on the come-out
    roll(t, 7)
    assert t.settled == [] and t.find(W.LAY, 4) is not None
    roll(t, 5)
    roll(t, 7)                             # wins 20, less 5% of 20
    assert got(t, W.LAY) == (W.LAY, 4, 4000, WIN, 1900, 100, 0, 1)
    t = mk("etg")
    point(t, 5)
    put(t, W.LAY, 1, 4)                    # wins 50 cents less 5% = 2.5: 2 cents
    roll(t, 7)
    assert got(t, W.LAY) == (W.LAY, 4, 100, WIN, 48, 2, 0, 1)
    t = mk("etg")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    roll(t, 7)                             # no commission on a loss
    assert got(t, W.BUY) == D(W.BUY, 4, 20, LOSE, 0, 0, 0) and cr(t) == 980


def test_buy_off_on_the_come_out():
    t = mk("table")
    put(t, W.BUY, 20, 10)
    roll(t, 7)
    assert t.settled == [] and t.find(W.BUY, 10) is not None


# ---- big 6/8, hardways ---------------------------------------------------------
def test_big_6_and_8():
    t = mk("house", 100)
    put(t, W.BIG6, 5)
    put(t, W.BIG8, 5)
    roll(t, 6)
    assert got(t, W.BIG6) == D(W.BIG6, 0, 5, WIN, 5, up=1) and got(t, W.BIG8) is None
    roll(t, 7)                             # the big 6 stayed up: both lose
    assert got(t, W.BIG8) == D(W.BIG8, 0, 5, LOSE, 0, 0, 0)
    assert got(t, W.BIG6) == D(W.BIG6, 0, 5, LOSE, 0, 0, 0)
    assert cr(t) == 95
    # 002: big 6 works on the come-out.
    t = mk("etg")
    put(t, W.BIG8, 5)
    roll(t, 8)
    assert got(t, W.BIG8)[3] == WIN


def test_hardways():
    # hard 4 and 10 pay 7:1, hard 6 and 8 pay 9:1; easy way or seven loses.
    for n, d, win in ((4, 2, 35), (6, 3, 45), (8, 4, 45), (10, 5, 35)):
        t = mk("table")
        point(t, 5)
        put(t, W.HARD, 5, n)
        assert t.roll(d, d) == R.OK
        assert got(t, W.HARD) == D(W.HARD, n, 5, WIN, win, up=1)
        assert cr(t) == 995 + win
    t = mk("table")
    point(t, 5)
    put(t, W.HARD, 5, 8)
    roll(t, 6)                             # other numbers: nothing
    roll(t, 4)
    assert t.settled == []
    roll(t, 8)                             # 3-5: easy
    assert got(t, W.HARD) == D(W.HARD, 8, 5, LOSE, 0, 0, 0)
    t = mk("table")
    point(t, 5)
    put(t, W.HARD, 5, 4)
    roll(t, 7)
    assert got(t, W.HARD)[3] == LOSE


def test_hardways_off_on_the_come_out():
    t = mk("table")
    put(t, W.HARD, 5, 6)
    roll(t, 7)
    assert t.settled == []
    assert t.roll(3, 3) == R.OK            # hard 6 on the come-out: still off
    assert t.settled == [] and t.point == 6
    assert t.roll(3, 3) == R.OK
    assert got(t, W.HARD) == D(W.HARD, 6, 5, WIN, 45, up=1)


# ---- one-roll wagers --------------------------------------------------------------
# A winning one-roll bet pays its winnings and stays on the layout for the
# next roll (004 line 132: field bets ride); a loss takes it.
def test_field():
    for name in P.NAMES:
        for total, win in ((2, 10), (12, 10), (3, 5), (4, 5), (9, 5), (10, 5), (11, 5),
                           (5, 0), (6, 0), (7, 0), (8, 0)):
            t = mk(name)
            put(t, W.FIELD, 5)
            roll(t, total)
            assert got(t, W.FIELD)[4] / 100 == win, (name, total)
            assert cr(t) == 995 + win
            assert (t.find(W.FIELD) is not None) == (win > 0)


def test_any_seven_and_any_craps():
    for total, a7, ac in ((7, 20, 0), (2, 0, 35), (3, 0, 35), (12, 0, 35), (11, 0, 0), (6, 0, 0)):
        t = mk("table")
        put(t, W.ANY7, 5)
        put(t, W.ANY_CRAPS, 5)
        roll(t, total)
        assert got(t, W.ANY7)[4] / 100 == a7 and got(t, W.ANY_CRAPS)[4] / 100 == ac, total
        assert cr(t) == 990 + a7 + ac


def test_craps_numbers_30_vs_32():
    for name, big in (("table", 30), ("etg", 30), ("house", 30), ("casino", 32)):
        for kind, total, ratio in ((W.TWO, 2, big), (W.TWELVE, 12, big), (W.THREE, 3, 15),
                                   (W.ELEVEN, 11, 15)):
            t = mk(name)
            put(t, kind, 5)
            roll(t, total)
            assert got(t, kind) == D(kind, 0, 5, WIN, 5 * ratio, up=1), (name, total)
            t = mk(name)
            put(t, kind, 5)
            roll(t, 7)
            assert got(t, kind)[3] == LOSE


def test_hi_lo_004():
    for total, win in ((2, 75), (12, 75), (3, 0), (11, 0)):
        t = mk("house")
        put(t, W.HI_LO, 5)
        roll(t, total)
        assert got(t, W.HI_LO)[4] / 100 == win, total


def test_horn_27_4_and_003_quarter_at_32():
    # Horn 4: one unit on each of 2, 3, 11, 12.
    for name, two in (("table", 27), ("house", 27), ("etg", 27), ("casino", 29)):
        for total, win in ((2, two), (12, two), (3, 12), (11, 12)):
            t = mk(name)
            put(t, W.HORN, 4)
            roll(t, total)
            assert got(t, W.HORN) == D(W.HORN, 0, 4, WIN, win, up=1), (name, total)
        t = mk(name)
        put(t, W.HORN, 4)
        roll(t, 7)
        assert got(t, W.HORN)[3] == LOSE
    # 000 horn is bet in units of 4.
    t = mk("table")
    assert t.place(W.HORN, 100 * (5)) == R.NOT_MULTIPLE
    # 27:4 on $5 (004) = 33.75: paid to the cent, nothing kept.
    t = mk("house")
    put(t, W.HORN, 5)
    roll(t, 2)
    assert got(t, W.HORN) == (W.HORN, 0, 500, WIN, 3375, 0, 0, 1)


def test_horn_high_000():
    # 5 units: two on the chosen number, one on each of the others.
    for h, total, win in ((12, 12, 57), (12, 2, 26), (12, 3, 11), (12, 11, 11),
                          (3, 3, 27), (3, 2, 26), (3, 11, 11), (2, 2, 57)):
        t = mk("table")
        put(t, W.HORN_HIGH, 5, h)
        roll(t, total)
        assert got(t, W.HORN_HIGH) == D(W.HORN_HIGH, h, 5, WIN, win, up=1), (h, total)
    t = mk("table")
    put(t, W.HORN_HIGH, 5, 11)
    roll(t, 7)
    assert got(t, W.HORN_HIGH)[3] == LOSE


def test_c_and_e():
    for name in ("table", "casino", "house"):
        for total, win in ((2, 6), (3, 6), (12, 6), (11, 14)):
            t = mk(name)
            put(t, W.C_E, 2)
            roll(t, total)
            assert got(t, W.C_E) == D(W.C_E, 0, 2, WIN, win, up=1), (name, total)
        t = mk(name)
        put(t, W.C_E, 2)
        roll(t, 7)
        assert got(t, W.C_E)[3] == LOSE


def test_world_push_on_seven():
    # a push pays nothing and the world bet stays up
    for name, two in (("house", 26), ("casino", 28)):
        for total, res, paid, up in ((2, WIN, two, 1), (12, WIN, two, 1), (3, WIN, 11, 1),
                                     (11, WIN, 11, 1), (7, PUSH, 0, 1), (6, LOSE, 0, 0)):
            t = mk(name)
            put(t, W.WORLD, 5)
            roll(t, total)
            assert got(t, W.WORLD) == D(W.WORLD, 0, 5, res, paid, up=up), (name, total)
            assert cr(t) == 995 + paid


def test_hop_easy_and_hard():
    t = mk("house")
    put(t, W.HOP, 5, 16)
    assert t.roll(6, 1) == R.OK
    assert got(t, W.HOP) == D(W.HOP, 16, 5, WIN, 75, up=1)
    t = mk("house")
    put(t, W.HOP, 5, 34)                   # a hop on a seven
    assert t.roll(3, 4) == R.OK
    assert got(t, W.HOP)[4] / 100 == 75
    t = mk("house")
    put(t, W.HOP, 5, 33)
    assert t.roll(3, 3) == R.OK
    assert got(t, W.HOP) == D(W.HOP, 33, 5, WIN, 150, up=1)
    t = mk("house")
    put(t, W.HOP, 5, 33)
    assert t.roll(2, 4) == R.OK             # six the other way
    assert got(t, W.HOP)[3] == LOSE
    assert mk("table").place(W.HOP, 100 * (5), 16) == R.NOT_OFFERED   # not in 000
    t = mk("house")
    assert t.place(W.HOP, 100 * (5), 61) == R.BAD_NUMBER    # written low die first
    assert t.place(W.HOP, 100 * (5), 17) == R.BAD_NUMBER


def test_002_offers_only_its_hops():
    # 002 lines 134-135: 1-1, 1-2, 5-6 and 6-6 are not hops there
    t = mk("etg")
    for n in (11, 12, 56, 66):
        assert t.place(W.HOP, 500, n) == R.BAD_NUMBER, n
    for n in (22, 33, 44, 55, 13, 14, 15, 16, 23, 24, 25, 26, 34, 35, 36, 45, 46):
        assert t.place(W.HOP, 100, n) == R.OK, n
    assert mk("house").place(W.HOP, 500, 66) == R.OK


def test_one_roll_bets_work_on_the_come_out_and_point():
    t = mk("table")
    point(t, 6)
    put(t, W.ELEVEN, 5)
    roll(t, 11)
    assert got(t, W.ELEVEN)[4] / 100 == 75


# ---- bonus bets -------------------------------------------------------------------
def test_lucky_roller_low_high_all():
    t = mk("etg")
    put(t, W.LUCKY_LOW, 5)
    put(t, W.LUCKY_HIGH, 5)
    put(t, W.LUCKY_ALL, 5)
    for total in (2, 3, 3, 4, 5, 12):
        roll(t, total)
        assert got(t, W.LUCKY_LOW) is None
    roll(t, 6)                              # 2..6 all seen: 30:1
    assert got(t, W.LUCKY_LOW) == D(W.LUCKY_LOW, 0, 5, WIN, 155, 0, 0)
    for total in (8, 9, 10):
        roll(t, total)
    assert got(t, W.LUCKY_HIGH) is None
    roll(t, 11)                             # 8..12 all seen (12 earlier)
    assert got(t, W.LUCKY_HIGH) == D(W.LUCKY_HIGH, 0, 5, WIN, 155, 0, 0)
    assert got(t, W.LUCKY_ALL) == D(W.LUCKY_ALL, 0, 5, WIN, 780, 0, 0)   # 155:1
    assert cr(t) == 985 + 155 + 155 + 780


def test_lucky_roller_loses_on_seven():
    t = mk("etg")
    put(t, W.LUCKY_ALL, 5)
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11):
        roll(t, total)
    roll(t, 7)
    assert got(t, W.LUCKY_ALL) == D(W.LUCKY_ALL, 0, 5, LOSE, 0, 0, 0)


def test_lucky_roller_placement_only_after_seven_or_first_roll():
    t = mk("etg")
    roll(t, 4)
    before = t.encode()
    assert t.place(W.LUCKY_LOW, 100 * (5)) == R.LUCKY_CLOSED
    assert t.encode() == before
    roll(t, 7)
    put(t, W.LUCKY_LOW, 5)
    put(t, W.LUCKY_LOW, 5)                  # may add before the roll
    roll(t, 2)
    assert t.place(W.LUCKY_LOW, 100 * (5)) == R.LUCKY_CLOSED
    assert t.remove(W.LUCKY_LOW) == R.CONTRACT


def test_sharp_shooter_pays_by_points_made():
    # 3 points then a seven-out: 5:1.
    t = mk("house", 100)
    put(t, W.SHARP_SHOOTER, 5)
    for n in (4, 5, 6):
        roll(t, n)
        roll(t, 2)
        roll(t, n)
    assert t.find(W.SHARP_SHOOTER)[4] == 3
    roll(t, 7)                              # come-out seven: not a seven-out
    assert got(t, W.SHARP_SHOOTER) is None
    roll(t, 8)
    roll(t, 7)
    assert got(t, W.SHARP_SHOOTER) == D(W.SHARP_SHOOTER, 0, 5, WIN, 30, 0, 0)
    assert cr(t) == 125
    # 2 points: loses.
    t = mk("house", 100)
    put(t, W.SHARP_SHOOTER, 5)
    for n in (9, 10):
        roll(t, n)
        roll(t, n)
    roll(t, 6)
    roll(t, 7)
    assert got(t, W.SHARP_SHOOTER) == D(W.SHARP_SHOOTER, 0, 5, LOSE, 0, 0, 0)
    # 10 points: 300:1 at once.
    t = mk("house", 100)
    put(t, W.SHARP_SHOOTER, 1)
    for i in range(10):
        roll(t, 4)
        roll(t, 4)
    assert got(t, W.SHARP_SHOOTER) == D(W.SHARP_SHOOTER, 0, 1, WIN, 301, 0, 0)
    # every row of 004's pay table
    for made, pays in ((4, 8), (5, 20), (6, 30), (7, 40), (8, 100), (9, 200)):
        t = mk("house", 100)
        put(t, W.SHARP_SHOOTER, 1)
        for i in range(made):
            roll(t, 5)
            roll(t, 5)
        roll(t, 5)
        roll(t, 7)
        assert got(t, W.SHARP_SHOOTER) == D(W.SHARP_SHOOTER, 0, 1, WIN, 1 + pays, 0, 0), made


def test_sharp_shooter_only_for_a_new_shooter():
    t = mk("house", 100)
    roll(t, 7)                              # come-out seven: same shooter
    assert t.place(W.SHARP_SHOOTER, 100 * (5)) == R.NEW_SHOOTER
    roll(t, 4)
    roll(t, 7)                              # seven-out: new shooter
    put(t, W.SHARP_SHOOTER, 5)
    assert t.remove(W.SHARP_SHOOTER) == R.OK   # not yet rolled
    put(t, W.SHARP_SHOOTER, 5)
    roll(t, 3)
    assert t.remove(W.SHARP_SHOOTER) == R.CONTRACT
