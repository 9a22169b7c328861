"""Every wager kind a profile offers, on one table (tests and benchmarks).

MicroPython-compatible. placements(profile) is the pre-built list of
(kind, amount, number); fill(table, plist) puts back whatever of it is not on
the table and the rules allow now; build(name) returns a table with the point
on and everything placed, and the list. Amounts are cents: $12 a bet (a
multiple of $3, so 003's odds laid on 5, 6, 8, 9 pay whole cents).
"""
from firmware.rules import profiles as P
from firmware.rules import reasons as R
from firmware.rules import table as T
from firmware.rules import wagers as W

BANKROLL = 100000000  # cents


def _amount(profile, kind, want=1200):
    lo, hi, mult = profile["limits"][kind]
    a = want if want >= lo else lo
    if a % mult:
        a += mult - a % mult
    if hi and a > hi:
        a = hi - hi % mult
    return a


_DARK_LINE = (W.DONT_PASS, W.DONT_PASS_ODDS, W.DONT_COME, W.DONT_COME_ODDS)


def placements(profile, want=1200, dark_first=False):
    """Pre-built list. Where both sides may not be bet at once (002 rule 1b)
    buy takes 4, 5, 6 and lay 8, 9, 10, and dark_first puts don't pass / don't
    come ahead of pass / come (a bench alternates the two lists)."""
    out = []
    kinds = sorted(profile["offered"])
    if dark_first:
        kinds = [k for k in kinds if k in _DARK_LINE] + [k for k in kinds if k not in _DARK_LINE]
    for k in kinds:
        a = _amount(profile, k, want)
        if k in (W.PASS_ODDS, W.DONT_PASS_ODDS, W.COME, W.DONT_COME):
            nums = (0,)
        elif profile["no_opposites"] and k == W.BUY:
            nums = (4, 5, 6)
        elif profile["no_opposites"] and k == W.LAY:
            nums = (8, 9, 10)
        else:
            nums = W.NUMBERS.get(k, (0,))
        for n in nums:
            out.append((k, a, n))
    return out


def lists(profile, want=1200):
    """The lists a bench cycles through, one per roll."""
    if profile["no_opposites"]:
        return [placements(profile, want, True), placements(profile, want)]
    return [placements(profile, want)]


def fill(t, plist):
    """Places every entry that is missing and allowed; returns how many."""
    if t.credits < BANKROLL // 2:
        t.credit(BANKROLL)
    placed = 0
    point = t.point
    for k, a, n in plist:
        key = point if (k == W.PASS_ODDS or k == W.DONT_PASS_ODDS) else n
        if t.find(k, key) is None and t.place(k, a, n) == R.OK:
            placed += 1
    return placed


def build(name, want=1200):
    """A full table: point 4, come bets on 5 (and don't come on 6 where the
    sides alternate). Returns (table, lists)."""
    profile = P.get(name)
    t = T.Table(profile)
    t.credit(BANKROLL)
    pl = lists(profile, want)
    fill(t, pl[0])
    t.roll(1, 3)              # point 4: line bets get their odds
    fill(t, pl[-1])
    t.roll(2, 3)              # a come bet moves to the 5
    fill(t, pl[0])
    t.roll(2, 4)              # a don't come bet moves to the 6
    fill(t, pl[-1])
    fill(t, pl[0])
    return t, pl


def kinds_on(t):
    seen = []
    for b in t.bets:
        if b[0] not in seen:
            seen.append(b[0])
    return seen
