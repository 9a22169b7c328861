"""Why the engine refused an action: stable codes and the player's message.

Codes go to the display, the scenario runner and the event log. Their names
and messages are in reason_text.py.
"""
from micropython import const
from firmware import forget

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

_COUNT = const(29)  # codes OK..DARK_DOWN: len(CODES) == len(MESSAGES)


def _texts():
    """The code names and messages (firmware/rules/reason_text.py), imported
    for one look-up and let go: play shows one only when it refuses."""
    from firmware.rules import reason_text
    forget("firmware.rules.reason_text")
    return reason_text


def __getattr__(name):
    # R.CODES and R.MESSAGES still read as module attributes
    if name in ("CODES", "MESSAGES"):
        return getattr(_texts(), name)
    raise AttributeError(name)


def code_name(code):
    return _texts().CODES[code] if 0 <= code < _COUNT else "unknown"


def message(code):
    return _texts().MESSAGES[code] if 0 <= code < _COUNT else "Refused"
