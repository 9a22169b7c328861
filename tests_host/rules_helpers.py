"""Shared by the hand-worked rules tests: a table with credits, and dice for
a total (non-pairs, so a hardway only wins where a test rolls the pair)."""
from firmware.rules import profiles as P
from firmware.rules import reasons as R
from firmware.rules import table as T

D = {2: (1, 1), 3: (1, 2), 4: (1, 3), 5: (1, 4), 6: (2, 4), 7: (3, 4), 8: (3, 5),
     9: (4, 5), 10: (4, 6), 11: (5, 6), 12: (6, 6)}


def mk(name, credits=1000, overrides=None):
    """A table of the named profile with `credits` dollars in hand (the
    engine counts cents)."""
    t = T.Table(P.get(name, overrides))
    assert t.credit(credits * 100) == R.OK
    return t


def roll(t, total):
    assert t.roll(D[total][0], D[total][1]) == R.OK
    assert t.on_table() == sum(b[2] for b in t.bets)   # the kept total is exact
    return t.settled
