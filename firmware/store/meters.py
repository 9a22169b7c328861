"""Audit meters: the list is data; values are integers that roll over at
ROLLOVER. Each meter has a key, a label for the audit screen and a group;
play meters by key or number, the audit side reads rows (meter(), METERS,
INDEX).

Width: every meter is 10 decimal digits (GLI-11: money meters of at least
10 digits rolling over at 10**10), so a money meter wraps at $100,000,000.00
(it counts cents), a count at 10**10. A check that sums meters works modulo
ROLLOVER (wrap()); SAS reports them in fewer BCD digits (firmware/sas/meters.py).

Meters never clear except by a RAM clear. Per-wager meters follow the
wager ids in firmware.rules.wagers. Money meters count cents; rounding
meters count 1/1320 cent.
"""
from micropython import const
from firmware.rules import wagers as W

ROLLOVER = 10 ** 10     # the one width of every meter
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
    "action_faults Actions refused c"
    "dev_faults    Device faults   c"
    "bills_doubt   Bills in doubt  c"
    "tickets_in    Tickets in      m"
    "tickets_in_n  Tickets in #    c"
    "aft_in        AFT in          m"
    "aft_in_n      AFT in #        c"
    "aft_out       AFT out         m"
    "aft_out_n     AFT out #       c"
    "jp_to_credit  Jackpot->creditsm"
)
BILLS_BASE = len(_BASE) // ROW
BET_BASE = BILLS_BASE + len(BILL_DENOMS)
WON_BASE = BET_BASE + W.COUNT
LATER_BASE = WON_BASE + W.COUNT
COUNT = LATER_BASE + len(_LATER) // ROW
_SIZE = const(8)


# below this a value is a small int on the port and needs no wrap: ROLLOVER
# itself is a big int, and `%` by it costs a heap allocation on every meter
# move (the replay of a full journal moves thousands)
_SMALL = const(1 << 29)


def wrap(v):
    """A sum or difference of meters as a meter shows it (0..ROLLOVER-1):
    once one of them rolled over, only this is comparable."""
    if 0 <= v < _SMALL:
        return v
    return v % ROLLOVER


def _find(rows, key):
    """Row number of `key` in packed rows, or -1 (no allocation: play meters
    a key on every bet)."""
    pos = rows.find(key)
    while pos >= 0:
        if not pos % ROW and rows.startswith(" ", pos + len(key)):
            return pos // ROW
        pos = rows.find(key, pos + 1)
    return -1


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


_GROUPS = {"m": "money", "p": "play", "c": "count"}


def _row(rows, i):
    r = rows[i * ROW:(i + 1) * ROW]
    return (r[:KEY].rstrip(), r[KEY:ROW - 1].rstrip(), _GROUPS[r[ROW - 1]])


def meter(i):
    """(key, label, group) of meter i. Bill and per-wager entries are made on
    demand: kept as a table they would hold ~100 strings on the heap."""
    if i < BILLS_BASE:
        return _row(_BASE, i)
    if i >= LATER_BASE:
        return _row(_LATER, i - LATER_BASE)
    if i < BET_BASE:
        d = BILL_DENOMS[i - BILLS_BASE]
        return ("bills_%d" % d, "Bills $%d" % d, "bills")
    if i < WON_BASE:
        n = W.NAMES[i - BET_BASE]
        return ("bet_" + n, "Bet " + n[:11], "wager")
    n = W.NAMES[i - WON_BASE]
    return ("won_" + n, "Won " + n[:11], "wager")


def is_money(i):
    """True for a meter that counts cents (shown as dollars.cents): the money
    and play groups but the rounding meters, and the per-wager meters."""
    key, label, group = meter(i)
    return group in ("money", "play", "wager") and not key.startswith("round_")


class _Rows:
    """METERS[i]: meter(i), rows made on demand."""

    def __len__(self):
        return COUNT

    def __getitem__(self, i):
        if not 0 <= i < COUNT:
            raise IndexError(i)
        return meter(i)


class _Index:
    """INDEX[key] / INDEX.get(key): index() as a mapping."""

    def __getitem__(self, key):
        n = index(key)
        if n is None:
            raise KeyError(key)
        return n

    def get(self, key, default=None):
        n = index(key)
        return default if n is None else n


METERS = _Rows()
INDEX = _Index()


_NUMBERS = {}  # key -> meter number, for the keys play has moved (a few dozen)


def _number(key):
    """The meter number of a key or of a number; an unknown key is a KeyError.
    Each key is searched for once: a search of the packed rows is slow on the
    chip, and a roll moves a dozen meters by key (live and in the replay)."""
    if not isinstance(key, str):
        return key
    i = _NUMBERS.get(key)
    if i is None:
        i = index(key)
        if i is None:
            raise KeyError(key)
        _NUMBERS[key] = i
    return i


class Meters:
    def __init__(self):
        self.v = [0] * COUNT

    def add(self, key, amount=1):
        i = _number(key)
        self.v[i] = wrap(self.v[i] + amount)

    def get(self, key):
        return self.v[_number(key)]

    def set(self, key, value):
        self.v[_number(key)] = wrap(value)

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
