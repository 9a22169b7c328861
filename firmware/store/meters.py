"""Audit meters: the list is data; values are integers that roll over at 10**10.

Meters never clear except by a RAM clear. Per-wager meters follow the
wager ids in firmware.rules.wagers. Money meters count cents; rounding
meters count 1/1320 cent.
"""
from micropython import const
from firmware.rules import wagers as W

ROLLOVER = 10 ** 10
BILL_DENOMS = (1, 2, 5, 10, 20, 50, 100)  # dollars per note, by bill meter slot

# One packed row per meter: key (14 columns), label for the 16-column audit
# screen (16), group (m money, p play, c count). A string, not a tuple of
# tuples: as constants those are ~4 KB of small objects on the heap for
# screens only the technician sees. Per-wager meters follow these.
ROW = const(31)         # a packed row: key, label, group letter
KEY = const(14)
_BASE = (
    "bills_in      Bills in        m"
    "coins_in      Coins in        m"
    "total_in      Total in        m"
    "total_out     Total out       m"
    "tickets_out   Tickets out     m"
    "handpay_cc    Handpaid cc     m"
    "jackpot       Jackpot hp      m"
    "wagered       Coin in (bet)   p"
    "won           Total won       p"
    "returned      Bets returned   p"
    "vig           Vig collected   p"
    "round_kept    Round kept/1320 p"
    "round_given   Round paid/1320 p"
    "games         Games played    c"
    "games_won     Games won       c"
    "games_lost    Games lost      c"
    "games_power   Games since pwr c"
    "games_door    Games since doorc"
    "cocked        Cocked re-rolls c"
    "stuck         No-move re-rollsc"
    "voided        Voided games    c"
    "door_opens    Door opens      c"
    "power_ups     Power ups       c"
    "tilts         Tilts           c"
    "handpays      Handpays        c"
    "tickets       Tickets printed c"
)
# Meters added later go after the per-wager ones: a snapshot keeps meters by
# position, so an older snapshot still loads with these at zero.
_LATER = (
    "tickets_doubt Tickets in doubtc"
    "logic_opens   Logic door opensc"
    "cashbox_opens Cash box opens  c"
    "cashbox       In cash box     m"
)
BILLS_BASE = len(_BASE) // ROW
BET_BASE = BILLS_BASE + len(BILL_DENOMS)
WON_BASE = BET_BASE + W.COUNT
LATER_BASE = WON_BASE + W.COUNT
COUNT = LATER_BASE + len(_LATER) // ROW
_SIZE = const(8)


def _find(text, key):
    """Row number of `key` in packed rows, or -1 (no allocation: play meters
    a key on every bet)."""
    pos = text.find(key)
    while pos >= 0:
        if not pos % ROW and text.startswith(" ", pos + len(key)):
            return pos // ROW
        pos = text.find(key, pos + 1)
    return -1


def __getattr__(name):
    # the audit side's views (meter(), is_money(), METERS and INDEX) are in
    # firmware/store/meter_rows.py, loaded when one is first asked for:
    # play meters by key and number only
    if name in ("meter", "is_money", "METERS", "INDEX"):
        from firmware.store import meter_rows
        return getattr(meter_rows, name)
    raise AttributeError(name)


def index(key):
    """Meter number for a key, or None."""
    i = _find(_BASE, key)
    if i >= 0:
        return i
    i = _find(_LATER, key)
    if i >= 0:
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
