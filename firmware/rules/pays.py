"""Fixed pay ratios every profile shares, as (numerator, denominator) net
winnings per unit staked.

Kept apart from the profile documents (profiles.py) because settlement and
the pay display need them all the time, while the documents are only read
to build the profile in use.
"""
from firmware.rules import wagers as W

TRUE_ODDS = {4: (2, 1), 5: (3, 2), 6: (6, 5), 8: (6, 5), 9: (3, 2), 10: (2, 1)}
LAY_ODDS = {4: (1, 2), 5: (2, 3), 6: (5, 6), 8: (5, 6), 9: (2, 3), 10: (1, 2)}
PLACE_ODDS = {4: (9, 5), 5: (7, 5), 6: (7, 6), 8: (7, 6), 9: (7, 5), 10: (9, 5)}
PLACE_LOSE_ODDS = {4: (5, 11), 5: (5, 8), 6: (4, 5), 8: (4, 5), 9: (5, 8), 10: (5, 11)}
HARD_ODDS = {4: (7, 1), 6: (9, 1), 8: (9, 1), 10: (7, 1)}
SHARP_PAYS = ((10, 300), (9, 200), (8, 100), (7, 40), (6, 30), (5, 20), (4, 8), (3, 5))
LUCKY_PAYS = {W.LUCKY_LOW: (30, 1), W.LUCKY_HIGH: (30, 1), W.LUCKY_ALL: (155, 1)}
VIG_PERCENT = 5
