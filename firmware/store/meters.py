"""Audit meters: the list is data; values are integers that roll over at 10**10.

Meters never clear except by a RAM clear. Per-wager meters follow the
wager ids in firmware.rules.wagers. Rounding meters count 1/1320 credit.
"""
from micropython import const
from firmware.rules import wagers as W

ROLLOVER = 10 ** 10
BILL_DENOMS = (1, 2, 5, 10, 20, 50, 100)  # credits per note, by bill meter slot

# (key, label for the 16-column audit screen, group)
METERS = (
    ("bills_in", "Bills in", "money"),
    ("coins_in", "Coins in", "money"),
    ("total_in", "Total in", "money"),
    ("total_out", "Total out", "money"),
    ("tickets_out", "Tickets out", "money"),
    ("handpay_cc", "Handpaid cc", "money"),
    ("jackpot", "Jackpot hp", "money"),
    ("wagered", "Coin in (bet)", "play"),
    ("won", "Total won", "play"),
    ("returned", "Bets returned", "play"),
    ("vig", "Vig collected", "play"),
    ("round_kept", "Round kept/1320", "play"),
    ("round_given", "Round paid/1320", "play"),
    ("games", "Games played", "count"),
    ("games_won", "Games won", "count"),
    ("games_lost", "Games lost", "count"),
    ("games_power", "Games since pwr", "count"),
    ("games_door", "Games since door", "count"),
    ("cocked", "Cocked re-rolls", "count"),
    ("stuck", "No-move re-rolls", "count"),
    ("voided", "Voided games", "count"),
    ("door_opens", "Door opens", "count"),
    ("power_ups", "Power ups", "count"),
    ("tilts", "Tilts", "count"),
    ("handpays", "Handpays", "count"),
    ("tickets", "Tickets printed", "count"),
) + tuple(("bills_%d" % d, "Bills $%d" % d, "bills") for d in BILL_DENOMS) \
  + tuple(("bet_" + n, "Bet " + n[:11], "wager") for n in W.NAMES) \
  + tuple(("won_" + n, "Won " + n[:11], "wager") for n in W.NAMES)

INDEX = {}
for _i in range(len(METERS)):
    INDEX[METERS[_i][0]] = _i

BILLS_BASE = INDEX["bills_%d" % BILL_DENOMS[0]]
BET_BASE = INDEX["bet_pass"]
WON_BASE = INDEX["won_pass"]
COUNT = len(METERS)
_SIZE = const(8)


class Meters:
    def __init__(self):
        self.v = [0] * COUNT

    def add(self, key, amount=1):
        i = INDEX[key] if isinstance(key, str) else key
        self.v[i] = (self.v[i] + amount) % ROLLOVER

    def get(self, key):
        return self.v[INDEX[key] if isinstance(key, str) else key]

    def set(self, key, value):
        self.v[INDEX[key]] = value % ROLLOVER

    def encode(self):
        out = bytearray(COUNT * _SIZE)
        for i in range(COUNT):
            n = self.v[i]
            for b in range(_SIZE):
                out[i * _SIZE + b] = (n >> (8 * b)) & 0xFF
        return bytes(out)

    def load(self, data):
        """Restores meters; a snapshot from a build with fewer meters leaves
        the new ones at zero."""
        n = min(len(data) // _SIZE, COUNT)
        for i in range(n):
            v = 0
            for b in range(_SIZE):
                v |= data[i * _SIZE + b] << (8 * b)
            self.v[i] = v
