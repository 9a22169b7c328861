"""Audit meters: the list is data; values are integers that roll over at 10**10.

Meters never clear except by a RAM clear. Per-wager meters follow the
wager ids in firmware.rules.wagers. Money meters count cents; rounding
meters count 1/1320 cent.
"""
from micropython import const
from firmware.rules import wagers as W

ROLLOVER = 10 ** 10
BILL_DENOMS = (1, 2, 5, 10, 20, 50, 100)  # dollars per note, by bill meter slot

# (key, label for the 16-column audit screen, group); per-wager meters follow.
_BASE = (
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
)
# Meters added later go after the per-wager ones: a snapshot keeps meters by
# position, so an older snapshot still loads with these at zero.
_LATER = (
    ("tickets_doubt", "Tickets in doubt", "count"),
    ("logic_opens", "Logic door opens", "count"),
    ("cashbox_opens", "Cash box opens", "count"),
    ("cashbox", "In cash box", "money"),   # bills since the cash box door last opened
)
BILLS_BASE = len(_BASE)
BET_BASE = BILLS_BASE + len(BILL_DENOMS)
WON_BASE = BET_BASE + W.COUNT
LATER_BASE = WON_BASE + W.COUNT
COUNT = LATER_BASE + len(_LATER)
_SIZE = const(8)


def meter(i):
    """(key, label, group) of meter i. Bill and per-wager entries are made on
    demand: kept as a table they would hold ~100 strings on the heap."""
    if i < BILLS_BASE:
        return _BASE[i]
    if i >= LATER_BASE:
        return _LATER[i - LATER_BASE]
    if i < BET_BASE:
        d = BILL_DENOMS[i - BILLS_BASE]
        return ("bills_%d" % d, "Bills $%d" % d, "bills")
    if i < WON_BASE:
        n = W.NAMES[i - BET_BASE]
        return ("bet_" + n, "Bet " + n[:11], "wager")
    if i >= LATER_BASE:
        return _LATER[i - LATER_BASE]
    n = W.NAMES[i - WON_BASE]
    return ("won_" + n, "Won " + n[:11], "wager")


def is_money(i):
    """True for a meter that counts cents (shown as dollars.cents): the money
    and play groups but the rounding meters, and the per-wager meters."""
    key, label, group = meter(i)
    return group in ("money", "play", "wager") and not key.startswith("round_")


def index(key):
    """Meter number for a key, or None."""
    for i in range(BILLS_BASE):
        if _BASE[i][0] == key:
            return i
    for i in range(len(_LATER)):
        if _LATER[i][0] == key:
            return LATER_BASE + i
    if key.startswith("bills_"):
        for i in range(len(BILL_DENOMS)):
            if "bills_%d" % BILL_DENOMS[i] == key:
                return BILLS_BASE + i
    for prefix, base in (("bet_", BET_BASE), ("won_", WON_BASE)):
        if key.startswith(prefix):
            k = W.kind_of(key[len(prefix):])
            if k >= 0:
                return base + k
    return None


class _Table:
    """METERS[i] and INDEX[key] / INDEX.get(key) over meter() and index()."""

    def __len__(self):
        return COUNT

    def __getitem__(self, i):
        if isinstance(i, str):
            n = index(i)
            if n is None:
                raise KeyError(i)
            return n
        if not 0 <= i < COUNT:
            raise IndexError(i)
        return meter(i)

    def get(self, key, default=None):
        i = index(key)
        return default if i is None else i


METERS = _Table()
INDEX = METERS


class Meters:
    def __init__(self):
        self.v = [0] * COUNT

    def add(self, key, amount=1):
        i = index(key) if isinstance(key, str) else key
        self.v[i] = (self.v[i] + amount) % ROLLOVER

    def get(self, key):
        return self.v[index(key) if isinstance(key, str) else key]

    def set(self, key, value):
        self.v[index(key)] = value % ROLLOVER

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
