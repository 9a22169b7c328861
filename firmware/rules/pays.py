"""Fixed pay ratios every profile shares, as (numerator, denominator) net
winnings per unit staked.

Kept apart from the profile documents (profiles.py) because settlement and
the pay display need them all the time, while the documents are only read
to build the profile in use.
"""
from firmware.rules import wagers as W

# Indexed by the number (dice total), None where the wager takes no such
# number: a tuple of constants stays in the frozen image's flash, a dict is RAM.
TRUE_ODDS = (None, None, None, None, (2, 1), (3, 2), (6, 5), None, (6, 5), (3, 2), (2, 1))
LAY_ODDS = (None, None, None, None, (1, 2), (2, 3), (5, 6), None, (5, 6), (2, 3), (1, 2))
PLACE_ODDS = (None, None, None, None, (9, 5), (7, 5), (7, 6), None, (7, 6), (7, 5), (9, 5))
PLACE_LOSE_ODDS = (None, None, None, None, (5, 11), (5, 8), (4, 5), None, (4, 5), (5, 8), (5, 11))
HARD_ODDS = (None, None, None, None, (7, 1), None, (9, 1), None, (9, 1), None, (7, 1))
SHARP_PAYS = ((10, 300), (9, 200), (8, 100), (7, 40), (6, 30), (5, 20), (4, 8), (3, 5))
LUCKY_PAYS = {W.LUCKY_LOW: (30, 1), W.LUCKY_HIGH: (30, 1), W.LUCKY_ALL: (155, 1)}
VIG_PERCENT = 5
