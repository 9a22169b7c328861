"""Why the engine refused an action: stable codes, their names and the
player's message.

Codes go to the display, the scenario runner and the event log. A message
must fit two 16-column display lines: keep each under 32 characters.
"""
from micropython import const

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
    "Amount must be in even units",
    "Only before the point is set",
    "Only after a point is set",
    "Needs its line bet first",
    "Over the odds limit",
    "Contract bet: cannot remove",
    "Cannot add to this bet now",
    "No such bet on the table",
    "Take the odds down first",
    "Cannot bet both sides",
    "Max proposition payoff",
    "Only after a 7 or first roll",
    "Only for a new shooter",
    "Cannot turn this bet on/off",
    "Bets under aggregate minimum",
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
