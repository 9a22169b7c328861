"""Names and player messages of the refusal codes in firmware.rules.reasons.

The text must fit two 16-column display lines, so keep each message under 32
characters. Imported only when a refusal is shown or named.
"""

CODES = (
    "ok", "not_offered", "bad_amount", "bad_number", "no_funds", "below_min",
    "above_max", "not_multiple", "point_on", "point_off", "no_base", "odds_limit",
    "contract", "no_increase", "no_bet", "odds_first", "opposite", "max_payoff",
    "lucky_closed", "new_shooter", "no_toggle", "agg_min", "bad_dice", "bad_wager",
    "no_credits", "credit_limit", "bets_closed", "locked", "dark_down",
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
)
