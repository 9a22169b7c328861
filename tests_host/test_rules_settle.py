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


def put(t, kind, amount, number=0):
    code = t.place(kind, amount, number)
    assert code == R.OK, (W.NAMES[kind], amount, number, R.code_name(code))


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
    for total, res, credits in ((7, WIN, 1010), (11, WIN, 1010), (2, LOSE, 990),
                                (3, LOSE, 990), (12, LOSE, 990)):
        t = mk("table")
        put(t, W.PASS, 10)
        roll(t, total)
        assert t.credits == credits, (total, t.credits)
        assert got(t, W.PASS)[3] == res
        assert t.bets == [] and t.point == 0


def test_dont_pass_come_out_bar_12():
    for total, res, paid in ((7, LOSE, 0), (11, LOSE, 0), (2, WIN, 20), (3, WIN, 20),
                             (12, PUSH, 10)):
        t = mk("casino")
        put(t, W.DONT_PASS, 10)
        roll(t, total)
        assert got(t, W.DONT_PASS) == (W.DONT_PASS, 0, 10, res, paid, 0, 0), total
        assert t.credits == 990 + paid


def test_pass_and_dont_pass_on_the_point():
    for name in P.NAMES:
        amt = 5 if name == "house" else 10
        t = mk(name)
        put(t, W.PASS, amt)
        roll(t, 6)
        assert t.point == 6 and t.credits == 1000 - amt
        for total in (2, 3, 11, 12, 4, 5, 8, 9, 10):
            roll(t, total)
            assert t.settled == [] and t.point == 6, (name, total)
        roll(t, 6)
        assert got(t, W.PASS) == (W.PASS, 0, amt, WIN, 2 * amt, 0, 0)
        assert t.credits == 1000 + amt and t.point == 0
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 9)
    roll(t, 7)
    assert got(t, W.PASS)[3] == LOSE and t.credits == 990
    t = mk("table")
    put(t, W.DONT_PASS, 10)
    roll(t, 9)
    roll(t, 12)                       # 12 does nothing once the point is on
    assert t.settled == []
    roll(t, 7)
    assert got(t, W.DONT_PASS) == (W.DONT_PASS, 0, 10, WIN, 20, 0, 0)
    t = mk("table")
    put(t, W.DONT_PASS, 10)
    roll(t, 9)
    roll(t, 9)
    assert got(t, W.DONT_PASS)[3] == LOSE and t.credits == 990


# ---- come / don't come -----------------------------------------------------
def test_come_moves_and_wins():
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 4)
    put(t, W.COME, 10)
    roll(t, 5)                        # come moves to 5
    assert t.find(W.COME, 5)[2] == 10 and t.find(W.COME, 0) is None
    assert t.credits == 980
    roll(t, 5)
    assert got(t, W.COME) == (W.COME, 5, 10, WIN, 20, 0, 0)
    assert t.credits == 1000 and t.point == 4


def test_come_first_roll():
    for total, res, credits in ((7, WIN, 1010), (11, WIN, 1010), (2, LOSE, 990),
                                (3, LOSE, 990), (12, LOSE, 990)):
        t = mk("table")
        point(t, 4)
        put(t, W.COME, 10)
        roll(t, total)
        assert got(t, W.COME)[3] == res and t.credits == credits, total


def test_come_on_the_pass_point_and_seven_out():
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 4)
    put(t, W.COME, 10)
    roll(t, 4)                        # pass wins, come goes to the 4
    assert got(t, W.PASS)[3] == WIN and t.find(W.COME, 4) is not None
    assert t.point == 0 and t.credits == 1000
    roll(t, 4)                        # come-out 4: the come bet wins, point 4
    assert got(t, W.COME) == (W.COME, 4, 10, WIN, 20, 0, 0) and t.point == 4
    put(t, W.COME, 10)
    roll(t, 8)
    roll(t, 7)                        # seven-out: the come on 8 loses
    assert got(t, W.COME) == (W.COME, 8, 10, LOSE, 0, 0, 0)


def test_dont_come():
    for total, res, paid in ((2, WIN, 20), (3, WIN, 20), (12, PUSH, 10), (7, LOSE, 0),
                             (11, LOSE, 0)):
        t = mk("casino")
        point(t, 4)
        put(t, W.DONT_COME, 10)
        roll(t, total)
        assert got(t, W.DONT_COME) == (W.DONT_COME, 0, 10, res, paid, 0, 0), total
    t = mk("casino")
    point(t, 4)
    put(t, W.DONT_COME, 10)
    roll(t, 6)
    assert t.find(W.DONT_COME, 6)[2] == 10
    roll(t, 7)
    assert got(t, W.DONT_COME) == (W.DONT_COME, 6, 10, WIN, 20, 0, 0)
    assert t.credits == 1010


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
            assert t.place(W.PASS_ODDS, cap + 1) == R.ODDS_LIMIT, (name, n)
            assert t.encode() == before
            assert t.max_add(W.PASS_ODDS, n) == cap
            put(t, W.PASS_ODDS, cap)
            assert t.find(W.PASS_ODDS, n)[2] == cap
            roll(t, n)
            assert got(t, W.PASS_ODDS) == (W.PASS_ODDS, n, cap, WIN, paid, 0, 0), (name, n)
            assert t.credits == 1000 + 10 + paid - cap, (name, n)


def test_dont_pass_odds_limits_and_pay():
    for name in DONT_ODDS:
        for n in W.POINTS:
            cap, paid = DONT_ODDS[name][n]
            t = mk(name)
            put(t, W.DONT_PASS, 10)
            roll(t, n)
            assert t.place(W.DONT_PASS_ODDS, cap + 1) == R.ODDS_LIMIT, (name, n)
            put(t, W.DONT_PASS_ODDS, cap)
            roll(t, 7)
            assert got(t, W.DONT_PASS_ODDS) == (W.DONT_PASS_ODDS, n, cap, WIN, paid, 0, 0), (name, n)
            assert t.credits == 1000 + 10 + paid - cap


def test_odds_lose_with_their_line():
    t = mk("table")
    put(t, W.PASS, 10)
    roll(t, 8)
    put(t, W.PASS_ODDS, 50)
    roll(t, 7)
    assert got(t, W.PASS_ODDS) == (W.PASS_ODDS, 8, 50, LOSE, 0, 0, 0)
    assert t.credits == 940
    t = mk("table")
    put(t, W.DONT_PASS, 10)
    roll(t, 8)
    put(t, W.DONT_PASS_ODDS, 60)
    roll(t, 8)
    assert got(t, W.DONT_PASS_ODDS)[3] == LOSE and t.credits == 930


def test_house_odds_limits():
    # 004: odds 3-4-5x but no single bet over $10.
    t = mk("house", 100)
    put(t, W.PASS, 2)
    roll(t, 4)
    assert t.place(W.PASS_ODDS, 7) == R.ODDS_LIMIT      # 3 x 2
    put(t, W.PASS_ODDS, 6)
    roll(t, 4)
    assert t.credits == 100 + 2 + 12                      # 6 at 2:1
    t = mk("house", 100)
    put(t, W.PASS, 3)
    roll(t, 6)
    assert t.place(W.PASS_ODDS, 11) == R.ABOVE_MAX        # 5 x 3 = 15 but $10 max
    put(t, W.PASS_ODDS, 10)
    roll(t, 6)
    assert got(t, W.PASS_ODDS) == (W.PASS_ODDS, 6, 10, WIN, 22, 0, 0)
    t = mk("house", 100)
    put(t, W.DONT_PASS, 1)
    roll(t, 4)
    assert t.place(W.DONT_PASS_ODDS, 7) == R.ODDS_LIMIT   # wins at most 3 x 1
    put(t, W.DONT_PASS_ODDS, 6)
    roll(t, 7)
    assert got(t, W.DONT_PASS_ODDS) == (W.DONT_PASS_ODDS, 4, 6, WIN, 9, 0, 0)


def test_odds_off_are_returned_on_the_decision():
    # 004 lets the player turn pass and don't pass odds off.
    for total, pass_res, pass_paid in ((6, WIN, 10), (7, LOSE, 0)):
        t = mk("house", 100)
        put(t, W.PASS, 5)
        roll(t, 6)
        put(t, W.PASS_ODDS, 10)
        assert t.set_working(W.PASS_ODDS, 0, False) == R.OK
        roll(t, total)
        assert got(t, W.PASS) == (W.PASS, 0, 5, pass_res, pass_paid, 0, 0)
        assert got(t, W.PASS_ODDS) == (W.PASS_ODDS, 6, 10, RETURNED, 10, 0, 0)
        assert t.credits == 85 + pass_paid + 10
    t = mk("house", 100)
    put(t, W.DONT_PASS, 5)
    roll(t, 4)
    put(t, W.DONT_PASS_ODDS, 10)
    assert t.set_working(W.DONT_PASS_ODDS, 4, False) == R.OK
    roll(t, 7)
    assert got(t, W.DONT_PASS) == (W.DONT_PASS, 0, 5, WIN, 10, 0, 0)
    assert got(t, W.DONT_PASS_ODDS) == (W.DONT_PASS_ODDS, 4, 10, RETURNED, 10, 0, 0)


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
    c = t.credits
    roll(t, 5)
    assert got(t, W.COME) == (W.COME, 5, 10, WIN, 20, 0, 0)
    assert got(t, W.COME_ODDS) == (W.COME_ODDS, 5, 40, RETURNED, 40, 0, 0)
    assert t.credits == c + 60 and t.point == 5
    # seven on the come-out: come loses, odds returned.
    t = _come_with_odds("table", 40)
    c = t.credits
    roll(t, 7)
    assert got(t, W.COME) == (W.COME, 5, 10, LOSE, 0, 0, 0)
    assert got(t, W.COME_ODDS) == (W.COME_ODDS, 5, 40, RETURNED, 40, 0, 0)
    assert t.credits == c + 40
    # called ON: the odds work (3:2 on 40 = 60).
    t = _come_with_odds("table", 40)
    assert t.set_working(W.COME_ODDS, 5, True) == R.OK
    c = t.credits
    roll(t, 5)
    assert got(t, W.COME_ODDS) == (W.COME_ODDS, 5, 40, WIN, 100, 0, 0)
    assert t.credits == c + 120


def test_come_odds_win_with_the_point_on():
    t = mk("casino")
    put(t, W.PASS, 10)
    roll(t, 4)
    put(t, W.COME, 10)
    roll(t, 6)
    assert t.place(W.COME_ODDS, 101, 6) == R.ODDS_LIMIT   # 10x
    put(t, W.COME_ODDS, 100, 6)
    roll(t, 6)
    assert got(t, W.COME_ODDS) == (W.COME_ODDS, 6, 100, WIN, 220, 0, 0)


def test_dont_come_odds_work_on_the_come_out_004():
    t = mk("house", 100)
    put(t, W.PASS, 1)
    roll(t, 4)
    put(t, W.DONT_COME, 2)
    roll(t, 5)
    assert t.place(W.DONT_COME_ODDS, 11, 5) == R.ABOVE_MAX
    put(t, W.DONT_COME_ODDS, 9, 5)     # wins 6 = 3 x 2 (4x allowed)
    roll(t, 4)                         # pass wins, come-out next
    assert t.point == 0
    c = t.credits
    roll(t, 7)
    assert got(t, W.DONT_COME) == (W.DONT_COME, 5, 2, WIN, 4, 0, 0)
    assert got(t, W.DONT_COME_ODDS) == (W.DONT_COME_ODDS, 5, 9, WIN, 15, 0, 0)
    assert t.credits == c + 19


def test_dont_come_odds_limit_and_loss():
    t = mk("table")
    point(t, 4)
    put(t, W.DONT_COME, 10)
    roll(t, 10)
    assert t.place(W.DONT_COME_ODDS, 61, 10) == R.ODDS_LIMIT
    put(t, W.DONT_COME_ODDS, 60, 10)
    roll(t, 10)
    assert got(t, W.DONT_COME_ODDS) == (W.DONT_COME_ODDS, 10, 60, LOSE, 0, 0, 0)
    assert got(t, W.DONT_COME)[3] == LOSE


# ---- place to win / to lose ---------------------------------------------------
def test_place_to_win_pays():
    for n, amt, paid in ((4, 5, 14), (10, 5, 14), (5, 5, 12), (9, 10, 24), (6, 6, 13),
                         (8, 12, 26)):
        t = mk("table")
        point(t, 4 if n != 4 else 10)
        put(t, W.PLACE, amt, n)
        roll(t, n)
        assert got(t, W.PLACE) == (W.PLACE, n, amt, WIN, paid, 0, 0), n
        assert t.credits == 1000 - amt + paid
        assert t.find(W.PLACE, n) is None      # decided bets leave the table


def test_place_rounding_000_down_003_up():
    # 7:6 on 5 credits = 35/6 = 5 5/6: 000 pays 5 (house keeps 5/6 = 1100/1320),
    # 003 pays 6 (the house gives 1/6 = 220/1320).
    for name, win, meter in (("table", 5, 1100), ("casino", 6, -220), ("house", 5, 1100),
                             ("etg", 5, 1100)):
        t = mk(name)
        point(t, 4)
        put(t, W.PLACE, 5, 6)
        roll(t, 6)
        assert got(t, W.PLACE) == (W.PLACE, 6, 5, WIN, 5 + win, 0, meter), name
    # 9:5 on 1 = 1 4/5: 000 pays 1, 003 pays 2.
    for name, paid, meter in (("table", 2, 1056), ("casino", 3, -264)):
        t = mk(name)
        point(t, 5)
        put(t, W.PLACE, 1, 4)
        roll(t, 4)
        assert got(t, W.PLACE) == (W.PLACE, 4, 1, WIN, paid, 0, meter), name


def test_place_off_on_the_come_out_unless_called_on():
    t = mk("table")
    put(t, W.PLACE, 6, 6)
    roll(t, 7)                             # come-out seven: place is off
    assert t.settled == [] and t.find(W.PLACE, 6) is not None
    roll(t, 6)                             # sets the point, still off
    assert t.settled == [] and t.point == 6
    roll(t, 6)                             # now working
    assert got(t, W.PLACE) == (W.PLACE, 6, 6, WIN, 13, 0, 0)
    t = mk("table")
    put(t, W.PLACE, 6, 6)
    assert t.set_working(W.PLACE, 6, True) == R.OK
    roll(t, 7)
    assert got(t, W.PLACE) == (W.PLACE, 6, 6, LOSE, 0, 0, 0)
    # and OFF while the point is on
    t = mk("table")
    point(t, 5)
    put(t, W.PLACE, 6, 8)
    assert t.set_working(W.PLACE, 8, False) == R.OK
    roll(t, 8)
    assert t.settled == []
    roll(t, 7)
    assert t.settled == [] and t.find(W.PLACE, 8)[2] == 6


def test_place_to_lose_003():
    for n, amt, paid in ((4, 11, 16), (10, 22, 32), (5, 8, 13), (9, 16, 26), (6, 5, 9),
                         (8, 10, 18)):
        t = mk("casino")
        point(t, 4 if n != 4 else 10)
        put(t, W.PLACE_LOSE, amt, n)
        roll(t, 7)
        assert got(t, W.PLACE_LOSE) == (W.PLACE_LOSE, n, amt, WIN, paid, 0, 0), n
    t = mk("casino")
    point(t, 4)
    put(t, W.PLACE_LOSE, 5, 6)
    roll(t, 6)
    assert got(t, W.PLACE_LOSE) == (W.PLACE_LOSE, 6, 5, LOSE, 0, 0, 0)
    # 003 does not turn place-to-lose off on the come-out; 004 does.
    t = mk("casino")
    put(t, W.PLACE_LOSE, 5, 6)
    roll(t, 7)
    assert got(t, W.PLACE_LOSE) == (W.PLACE_LOSE, 6, 5, WIN, 9, 0, 0)
    t = mk("house")
    put(t, W.PLACE_LOSE, 5, 6)
    roll(t, 7)
    assert t.settled == []
    # 5:11 on 5 credits = 25/11: 003 rounds up to 3.
    t = mk("casino")
    point(t, 5)
    put(t, W.PLACE_LOSE, 5, 4)
    roll(t, 7)
    assert got(t, W.PLACE_LOSE) == (W.PLACE_LOSE, 4, 5, WIN, 8, 0, -960)


# ---- buy / lay ----------------------------------------------------------------
def test_buy_vig_up_front_000():
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 20, 4)                   # 5% of 20 = 1 up front
    assert t.last_vig == 1 and t.credits == 979
    roll(t, 4)
    assert got(t, W.BUY) == (W.BUY, 4, 20, WIN, 60, 0, 0)
    assert t.credits == 1039
    t = mk("table")
    point(t, 5)
    put(t, W.BUY, 10, 6)                   # 5% of 10 = 0.5: at least 1
    assert t.credits == 989
    put(t, W.BUY, 30, 6)                   # now 40: vig 2 in all, 1 more
    assert t.last_vig == 1 and t.credits == 958
    roll(t, 7)
    assert got(t, W.BUY) == (W.BUY, 6, 40, LOSE, 0, 0, 0) and t.credits == 958


def test_lay_vig_up_front_000():
    t = mk("table")
    point(t, 5)
    put(t, W.LAY, 40, 4)                   # wins 20: vig 1
    assert t.credits == 959
    roll(t, 7)
    assert got(t, W.LAY) == (W.LAY, 4, 40, WIN, 60, 0, 0)
    assert t.credits == 1019
    t = mk("table")
    point(t, 5)
    put(t, W.LAY, 60, 6)                   # wins 50: vig 2
    assert t.credits == 938
    roll(t, 6)
    assert got(t, W.LAY)[3] == LOSE and t.credits == 938


def test_buy_removal_refund_003_only():
    for name, back in (("table", 40), ("casino", 42)):
        t = mk(name)
        point(t, 5)
        put(t, W.BUY, 40, 4)               # vig 2
        assert t.credits == 958
        roll(t, 3)                         # no decision
        assert t.remove(W.BUY, 4) == R.OK
        assert t.credits == 958 + back, name
        assert t.last_vig == -(back - 40)
    # taken back in the same betting period: every profile gives the vig back.
    t = mk("table")
    put(t, W.BUY, 40, 4)
    assert t.remove(W.BUY, 4) == R.OK and t.credits == 1000
    # 003: lay (buy to lose) vig refunded too.
    t = mk("casino")
    put(t, W.LAY, 40, 10)                  # wins 20: vig 1
    roll(t, 3)
    assert t.remove(W.LAY, 10) == R.OK and t.credits == 1000


def test_vig_on_the_win_002():
    t = mk("etg")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    assert t.credits == 980 and t.last_vig == 0
    roll(t, 4)                             # 2:1 = 40, less 5% of the 20 bet
    assert got(t, W.BUY) == (W.BUY, 4, 20, WIN, 59, 1, 0)
    assert t.credits == 1039
    t = mk("etg")
    put(t, W.LAY, 40, 4)                   # lay works on the come-out in 002
    roll(t, 7)                             # wins 20, less 5% of 20 (min 1)
    assert got(t, W.LAY) == (W.LAY, 4, 40, WIN, 59, 1, 0)
    t = mk("etg")
    point(t, 5)
    put(t, W.BUY, 20, 4)
    roll(t, 7)                             # no commission on a loss
    assert got(t, W.BUY) == (W.BUY, 4, 20, LOSE, 0, 0, 0) and t.credits == 980


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
    assert got(t, W.BIG6) == (W.BIG6, 0, 5, WIN, 10, 0, 0) and got(t, W.BIG8) is None
    roll(t, 7)
    assert got(t, W.BIG8) == (W.BIG8, 0, 5, LOSE, 0, 0, 0)
    assert t.credits == 100
    # 002: big 6 works on the come-out.
    t = mk("etg")
    put(t, W.BIG8, 5)
    roll(t, 8)
    assert got(t, W.BIG8)[3] == WIN


def test_hardways():
    # hard 4 and 10 pay 7:1, hard 6 and 8 pay 9:1; easy way or seven loses.
    for n, d, paid in ((4, 2, 40), (6, 3, 50), (8, 4, 50), (10, 5, 60)):
        t = mk("table")
        point(t, 5)
        put(t, W.HARD, 5 if n != 10 else 5 + 2 * 0, n)
        assert t.roll(d, d) == R.OK
        assert got(t, W.HARD)[3] == WIN and got(t, W.HARD)[4] == (40 if n in (4, 10) else 50)
    t = mk("table")
    point(t, 5)
    put(t, W.HARD, 5, 8)
    roll(t, 6)                             # other numbers: nothing
    roll(t, 4)
    assert t.settled == []
    roll(t, 8)                             # 3-5: easy
    assert got(t, W.HARD) == (W.HARD, 8, 5, LOSE, 0, 0, 0)
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
    assert got(t, W.HARD) == (W.HARD, 6, 5, WIN, 50, 0, 0)


# ---- one-roll wagers --------------------------------------------------------------
def test_field():
    for name in P.NAMES:
        for total, paid in ((2, 15), (12, 15), (3, 10), (4, 10), (9, 10), (10, 10), (11, 10),
                            (5, 0), (6, 0), (7, 0), (8, 0)):
            t = mk(name)
            put(t, W.FIELD, 5)
            roll(t, total)
            assert got(t, W.FIELD)[4] == paid, (name, total)
            assert t.credits == 995 + paid


def test_any_seven_and_any_craps():
    for total, a7, ac in ((7, 25, 0), (2, 0, 40), (3, 0, 40), (12, 0, 40), (11, 0, 0), (6, 0, 0)):
        t = mk("table")
        put(t, W.ANY7, 5)
        put(t, W.ANY_CRAPS, 5)
        roll(t, total)
        assert got(t, W.ANY7)[4] == a7 and got(t, W.ANY_CRAPS)[4] == ac, total
        assert t.credits == 990 + a7 + ac


def test_craps_numbers_30_vs_32():
    for name, big in (("table", 30), ("etg", 30), ("house", 30), ("casino", 32)):
        for kind, total, ratio in ((W.TWO, 2, big), (W.TWELVE, 12, big), (W.THREE, 3, 15),
                                   (W.ELEVEN, 11, 15)):
            t = mk(name)
            put(t, kind, 5)
            roll(t, total)
            assert got(t, kind) == (kind, 0, 5, WIN, 5 + 5 * ratio, 0, 0), (name, total)
            t = mk(name)
            put(t, kind, 5)
            roll(t, 7)
            assert got(t, kind)[3] == LOSE


def test_hi_lo_004():
    for total, paid in ((2, 80), (12, 80), (3, 0), (11, 0)):
        t = mk("house")
        put(t, W.HI_LO, 5)
        roll(t, total)
        assert got(t, W.HI_LO)[4] == paid, total


def test_horn_27_4_and_003_quarter_at_32():
    # Horn 4: one unit on each of 2, 3, 11, 12.
    for name, two in (("table", 27), ("house", 27), ("etg", 27), ("casino", 29)):
        for total, win in ((2, two), (12, two), (3, 12), (11, 12)):
            t = mk(name)
            put(t, W.HORN, 4)
            roll(t, total)
            assert got(t, W.HORN) == (W.HORN, 0, 4, WIN, 4 + win, 0, 0), (name, total)
        t = mk(name)
        put(t, W.HORN, 4)
        roll(t, 7)
        assert got(t, W.HORN)[3] == LOSE
    # 000 horn is bet in units of 4.
    t = mk("table")
    assert t.place(W.HORN, 5) == R.NOT_MULTIPLE
    # 27:4 on 5 credits (004) = 33.75: 33 paid, 3/4 kept.
    t = mk("house")
    put(t, W.HORN, 5)
    roll(t, 2)
    assert got(t, W.HORN) == (W.HORN, 0, 5, WIN, 38, 0, 990)


def test_horn_high_000():
    # 5 units: two on the chosen number, one on each of the others.
    for h, total, win in ((12, 12, 57), (12, 2, 26), (12, 3, 11), (12, 11, 11),
                          (3, 3, 27), (3, 2, 26), (3, 11, 11), (2, 2, 57)):
        t = mk("table")
        put(t, W.HORN_HIGH, 5, h)
        roll(t, total)
        assert got(t, W.HORN_HIGH) == (W.HORN_HIGH, h, 5, WIN, 5 + win, 0, 0), (h, total)
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
            assert got(t, W.C_E) == (W.C_E, 0, 2, WIN, 2 + win, 0, 0), (name, total)
        t = mk(name)
        put(t, W.C_E, 2)
        roll(t, 7)
        assert got(t, W.C_E)[3] == LOSE


def test_world_push_on_seven():
    for name, two in (("house", 26), ("casino", 28)):
        for total, res, paid in ((2, WIN, 5 + two), (12, WIN, 5 + two), (3, WIN, 16),
                                 (11, WIN, 16), (7, PUSH, 5), (6, LOSE, 0)):
            t = mk(name)
            put(t, W.WORLD, 5)
            roll(t, total)
            assert got(t, W.WORLD) == (W.WORLD, 0, 5, res, paid, 0, 0), (name, total)
            assert t.credits == 995 + paid


def test_hop_easy_and_hard():
    t = mk("house")
    put(t, W.HOP, 5, 16)
    assert t.roll(6, 1) == R.OK
    assert got(t, W.HOP) == (W.HOP, 16, 5, WIN, 80, 0, 0)
    t = mk("house")
    put(t, W.HOP, 5, 34)                   # a hop on a seven
    assert t.roll(3, 4) == R.OK
    assert got(t, W.HOP)[4] == 80
    t = mk("house")
    put(t, W.HOP, 5, 33)
    assert t.roll(3, 3) == R.OK
    assert got(t, W.HOP) == (W.HOP, 33, 5, WIN, 155, 0, 0)
    t = mk("house")
    put(t, W.HOP, 5, 33)
    assert t.roll(2, 4) == R.OK             # six the other way
    assert got(t, W.HOP)[3] == LOSE
    assert mk("table").place(W.HOP, 5, 16) == R.NOT_OFFERED   # not in 000
    t = mk("house")
    assert t.place(W.HOP, 5, 61) == R.BAD_NUMBER    # written low die first
    assert t.place(W.HOP, 5, 17) == R.BAD_NUMBER


def test_one_roll_bets_work_on_the_come_out_and_point():
    t = mk("table")
    point(t, 6)
    put(t, W.ELEVEN, 5)
    roll(t, 11)
    assert got(t, W.ELEVEN)[4] == 80


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
    assert got(t, W.LUCKY_LOW) == (W.LUCKY_LOW, 0, 5, WIN, 155, 0, 0)
    for total in (8, 9, 10):
        roll(t, total)
    assert got(t, W.LUCKY_HIGH) is None
    roll(t, 11)                             # 8..12 all seen (12 earlier)
    assert got(t, W.LUCKY_HIGH) == (W.LUCKY_HIGH, 0, 5, WIN, 155, 0, 0)
    assert got(t, W.LUCKY_ALL) == (W.LUCKY_ALL, 0, 5, WIN, 780, 0, 0)   # 155:1
    assert t.credits == 985 + 155 + 155 + 780


def test_lucky_roller_loses_on_seven():
    t = mk("etg")
    put(t, W.LUCKY_ALL, 5)
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11):
        roll(t, total)
    roll(t, 7)
    assert got(t, W.LUCKY_ALL) == (W.LUCKY_ALL, 0, 5, LOSE, 0, 0, 0)


def test_lucky_roller_placement_only_after_seven_or_first_roll():
    t = mk("etg")
    roll(t, 4)
    before = t.encode()
    assert t.place(W.LUCKY_LOW, 5) == R.LUCKY_CLOSED
    assert t.encode() == before
    roll(t, 7)
    put(t, W.LUCKY_LOW, 5)
    put(t, W.LUCKY_LOW, 5)                  # may add before the roll
    roll(t, 2)
    assert t.place(W.LUCKY_LOW, 5) == R.LUCKY_CLOSED
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
    assert got(t, W.SHARP_SHOOTER) == (W.SHARP_SHOOTER, 0, 5, WIN, 30, 0, 0)
    assert t.credits == 125
    # 2 points: loses.
    t = mk("house", 100)
    put(t, W.SHARP_SHOOTER, 5)
    for n in (9, 10):
        roll(t, n)
        roll(t, n)
    roll(t, 6)
    roll(t, 7)
    assert got(t, W.SHARP_SHOOTER) == (W.SHARP_SHOOTER, 0, 5, LOSE, 0, 0, 0)
    # 10 points: 300:1 at once.
    t = mk("house", 100)
    put(t, W.SHARP_SHOOTER, 1)
    for i in range(10):
        roll(t, 4)
        roll(t, 4)
    assert got(t, W.SHARP_SHOOTER) == (W.SHARP_SHOOTER, 0, 1, WIN, 301, 0, 0)
    # every row of 004's pay table
    for made, pays in ((4, 8), (5, 20), (6, 30), (7, 40), (8, 100), (9, 200)):
        t = mk("house", 100)
        put(t, W.SHARP_SHOOTER, 1)
        for i in range(made):
            roll(t, 5)
            roll(t, 5)
        roll(t, 5)
        roll(t, 7)
        assert got(t, W.SHARP_SHOOTER) == (W.SHARP_SHOOTER, 0, 1, WIN, 1 + pays, 0, 0), made


def test_sharp_shooter_only_for_a_new_shooter():
    t = mk("house", 100)
    roll(t, 7)                              # come-out seven: same shooter
    assert t.place(W.SHARP_SHOOTER, 5) == R.NEW_SHOOTER
    roll(t, 4)
    roll(t, 7)                              # seven-out: new shooter
    put(t, W.SHARP_SHOOTER, 5)
    assert t.remove(W.SHARP_SHOOTER) == R.OK   # not yet rolled
    put(t, W.SHARP_SHOOTER, 5)
    roll(t, 3)
    assert t.remove(W.SHARP_SHOOTER) == R.CONTRACT
