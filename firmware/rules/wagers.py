"""Wager kinds: ids, names and the families that decide how they settle.

Ids are stable: they go into journal records and snapshots, so never renumber.
"""
from micropython import const
from firmware import Packed

PASS = const(0)
DONT_PASS = const(1)
PASS_ODDS = const(2)
DONT_PASS_ODDS = const(3)
COME = const(4)
DONT_COME = const(5)
COME_ODDS = const(6)
DONT_COME_ODDS = const(7)
PLACE = const(8)
PLACE_LOSE = const(9)
BUY = const(10)
LAY = const(11)
BIG6 = const(12)
BIG8 = const(13)
HARD = const(14)
FIELD = const(15)
ANY7 = const(16)
ANY_CRAPS = const(17)
TWO = const(18)
THREE = const(19)
ELEVEN = const(20)
TWELVE = const(21)
HI_LO = const(22)
HORN = const(23)
HORN_HIGH = const(24)
C_E = const(25)
WORLD = const(26)
HOP = const(27)
LUCKY_LOW = const(28)
LUCKY_HIGH = const(29)
LUCKY_ALL = const(30)
SHARP_SHOOTER = const(31)
COUNT = const(32)

NAMES = Packed(
    "pass          "
    "dont_pass     "
    "pass_odds     "
    "dont_pass_odds"
    "come          "
    "dont_come     "
    "come_odds     "
    "dont_come_odds"
    "place         "
    "place_lose    "
    "buy           "
    "lay           "
    "big6          "
    "big8          "
    "hard          "
    "field         "
    "any7          "
    "any_craps     "
    "two           "
    "three         "
    "eleven        "
    "twelve        "
    "hi_lo         "
    "horn          "
    "horn_high     "
    "c_e           "
    "world         "
    "hop           "
    "lucky_low     "
    "lucky_high    "
    "lucky_all     "
    "sharp_shooter ", 14)

# Short labels for the 16-column player display, LABELS[kind]; NAMES and
# LABELS are each one padded string (tuples would be 64 heap objects).
LABELS = Packed(
    "Pass Line    "
    "Don't Pass   "
    "Pass Odds    "
    "DontPass Odds"
    "Come         "
    "Don't Come   "
    "Come Odds    "
    "DontCome Odds"
    "Place        "
    "Place to Lose"
    "Buy          "
    "Lay          "
    "Big 6        "
    "Big 8        "
    "Hardway      "
    "Field        "
    "Any Seven    "
    "Any Craps    "
    "Two          "
    "Three        "
    "Eleven       "
    "Twelve       "
    "Hi-Lo        "
    "Horn         "
    "Horn High    "
    "C & E        "
    "World        "
    "Hop          "
    "Lucky Low    "
    "Lucky High   "
    "Lucky All    "
    "Sharp Shooter", 13)

# Settlement families.
F_LINE = const(0)      # pass / don't pass / come / don't come
F_ODDS = const(1)      # odds behind a line bet: returned when OFF at the decision
F_NUMBER = const(2)    # one number against the seven, until decided
F_HARD = const(3)
F_ONE_ROLL = const(4)  # decided by every roll through a pay table
F_LUCKY = const(5)
F_SHARP = const(6)

FAMILY = bytes((
    F_LINE, F_LINE, F_ODDS, F_ODDS, F_LINE, F_LINE, F_ODDS, F_ODDS,
    F_NUMBER, F_NUMBER, F_NUMBER, F_NUMBER, F_NUMBER, F_NUMBER, F_HARD,
    F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL,
    F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL, F_ONE_ROLL,
    F_ONE_ROLL, F_LUCKY, F_LUCKY, F_LUCKY, F_SHARP,
))

# "Don't" side: wins on the seven. Used for line/odds/number settlement.
DARK = frozenset((DONT_PASS, DONT_PASS_ODDS, DONT_COME, DONT_COME_ODDS, PLACE_LOSE, LAY))

# The base bet an odds bet rides on.
ODDS_BASE = {PASS_ODDS: PASS, DONT_PASS_ODDS: DONT_PASS,
             COME_ODDS: COME, DONT_COME_ODDS: DONT_COME}
BASE_ODDS = {PASS: PASS_ODDS, DONT_PASS: DONT_PASS_ODDS,
             COME: COME_ODDS, DONT_COME: DONT_COME_ODDS}

# Which numbers a wager may carry (0 = none). Hop numbers are 10*low + high die.
POINTS = (4, 5, 6, 8, 9, 10)
HOPS = (11, 12, 13, 14, 15, 16, 22, 23, 24, 25, 26, 33, 34, 35, 36, 44, 45, 46, 55, 56, 66)
NUMBERS = {
    PASS_ODDS: POINTS, DONT_PASS_ODDS: POINTS, COME_ODDS: POINTS,
    DONT_COME_ODDS: POINTS, PLACE: POINTS, PLACE_LOSE: POINTS, BUY: POINTS,
    LAY: POINTS, HARD: (4, 6, 8, 10), HORN_HIGH: (2, 3, 11, 12), HOP: HOPS,
}

# One-roll and hop wagers count as propositions for a maximum-payoff rule.
PROPS = frozenset((HARD, FIELD, ANY7, ANY_CRAPS, TWO, THREE, ELEVEN, TWELVE,
                   HI_LO, HORN, HORN_HIGH, C_E, WORLD, HOP))

# Lucky Roller: the totals that must all appear before a seven.
LUCKY_NEED = {LUCKY_LOW: (2, 3, 4, 5, 6), LUCKY_HIGH: (8, 9, 10, 11, 12),
              LUCKY_ALL: (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)}


def kind_of(name):
    """Wager id for a name, or -1."""
    for i in range(COUNT):
        if NAMES[i] == name:
            return i
    return -1


def hop_number(d1, d2):
    return 10 * min(d1, d2) + max(d1, d2)
