"""Why the engine refused an action: stable codes, their names and the
player's message: the one table of refusal texts.

Codes go to the display, the scenario runner and the event log. Each message
is one whole sentence that word-wraps into the display's two 16-column
message lines; a refused amount is stated with the rule it broke (RULES,
filled in by stated()). tests_host/test_placeable.py checks every message,
and every rule filled in for every wager of every profile.
"""
from micropython import const
from firmware import fmt

OK = const(0)
NOT_OFFERED = const(1)
BAD_AMOUNT = const(2)
BAD_NUMBER = const(3)
NO_FUNDS = const(4)
BELOW_MIN = const(5)
ABOVE_MAX = const(6)
NOT_MULTIPLE = const(7)
POINT_ON = const(8)
POINT_OFF = const(9)
NO_BASE = const(10)
ODDS_LIMIT = const(11)
CONTRACT = const(12)
NO_INCREASE = const(13)
NO_BET = const(14)
ODDS_FIRST = const(15)
OPPOSITE = const(16)
MAX_PAYOFF = const(17)
LUCKY_CLOSED = const(18)
NEW_SHOOTER = const(19)
NO_TOGGLE = const(20)
AGG_MIN = const(21)
BAD_DICE = const(22)
BAD_WAGER = const(23)
NO_CREDITS = const(24)
CREDIT_LIMIT = const(25)
BETS_CLOSED = const(26)
LOCKED = const(27)
DARK_DOWN = const(28)
NOT_AVAILABLE = const(29)  # the action raised: refused, nothing changed

_COUNT = const(30)  # codes OK..NOT_AVAILABLE: len(CODES) == len(MESSAGES)


CODES = (
    "ok", "not_offered", "bad_amount", "bad_number", "no_funds", "below_min",
    "above_max", "not_multiple", "point_on", "point_off", "no_base", "odds_limit",
    "contract", "no_increase", "no_bet", "odds_first", "opposite", "max_payoff",
    "lucky_closed", "new_shooter", "no_toggle", "agg_min", "bad_dice", "bad_wager",
    "no_credits", "credit_limit", "bets_closed", "locked", "dark_down",
    "not_available",
)

MESSAGES = (
    "OK",
    "Bet not offered in this game",
    "Amount must be whole cents",
    "Not a number for this bet",
    "Not enough credits",
    "Below the table minimum",
    "Above the table maximum",
    "Not in this bet's steps",
    "Only before the point is set",
    "Only after a point is set",
    "Needs its line bet first",
    "Over the odds limit",
    "Contract bet: cannot remove",
    "Cannot add to this bet now",
    "No such bet on the table",
    "Take the odds down first",
    "Cannot bet both sides",
    "Over the top payoff allowed",
    "Only after a 7 or first roll",
    "Only for a new shooter",
    "Cannot turn this bet on/off",
    "Bets under the total minimum",
    "Dice must be two faces 1-6",
    "Unknown bet",
    "No credits to cash out",
    "Credit limit reached",
    "Betting is closed",
    "Cabinet locked: see attendant",
    "Not until the next come-out",
    "Not available",
)


def code_name(code):
    return CODES[code] if 0 <= code < _COUNT else "unknown"


def message(code):
    return MESSAGES[code] if 0 <= code < _COUNT else "Refused"


# A refused amount with the rule it broke, the wager named: (code, the
# figure's index in Table.stake()'s (code, least, unit, most), sentence).
RULES = (
    (BELOW_MIN, 1, "%s: min %s"),
    (NOT_MULTIPLE, 2, "%s: %s steps"),
    (ABOVE_MAX, 3, "%s: max %s"),
    (ODDS_LIMIT, 3, "%s: max %s"),
    (MAX_PAYOFF, 3, "%s: max %s"),
)


def dollars(amount):
    """A stake or limit in cents as a rule states it: '$4', '$4.50'."""
    return "$%d" % (amount // 100) if amount % 100 == 0 else "$" + fmt(amount)


def stated(code, name, rule):
    """A refused amount as the rule it broke, e.g. 'Horn: $4 steps': `name`
    names the wager, `rule` is Table.stake()'s (code, least, unit, most).
    The code's message when it is not about the amount."""
    for c, i, text in RULES:
        if c == code:
            return text % (name, dollars(rule[i]))
    return message(code)
