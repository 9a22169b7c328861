"""Cabinet meters as SAS meters: one table, one unit conversion.

SAS reports meters in credits of the accounting denomination (SAS 6.02
section 16) and a few amounts in cents or dollars. `credits()` is the one
place that turns a ledger amount into SAS credits: when the ledger's unit
changes, that line changes.

Mapping (the cabinet's balance `credits = total_in - total_out + won +
returned - wagered - vig` becomes SAS's `credits = drop - cancelled + coin
out - coin in`, every SAS meter only ever going up):
  coin in   = wagered + vig (the commission is played money)
  coin out  = won + returned - jackpot (stake included; a jackpot handpay is
              paid by the attendant, so it is in jackpot, not coin out)
  cancelled = total_out - jackpot (tickets + handpaid cancelled credits)
  drop      = total_in (bills and coins into the cash box)

The mapping is one table (_ROWS), data rather than code.
"""
from micropython import const
from firmware.store.meters import BILL_DENOMS, BILLS_BASE
from firmware.sas.wire import put_bcd

# how a meter is worked out (the first of its 4 bytes in _T)
_COUNT = const(1)      # ledger meter a + b - c, a count
_CREDITS = const(2)    # the same, an amount in SAS credits
_DOLLARS = const(3)    # the same, an amount in whole dollars
_SUM = const(4)        # meter a + meter b of this table (each converted on its own)
_PLAYER = const(5)     # the credits on the player's meter (not an audit meter)

_LAST_CODE = const(0x2C)    # meters up to here are SAS 6.02 Table C-7 codes
# ours, after Table C-7's: what the multi-meter polls want and C-7 has no code for
# (2D door opens, 2E power ups, 2F-34 bills of $1, 5, 10, 20, 50, 100 accepted,
# 35 dollars of bills accepted)
_N = const(0x36)
_NO = const(0xFF)          # no ledger meter in that place

# meter code -> how, then ledger meters a, b, c (positions in
# firmware/store/meters.py, which never move: a snapshot keeps meters by
# position; tests_host/test_sas_units.py checks them against the names),
# 5 bytes a row: code, how, a, b, c. Read by number, not name (by name,
# every read searches the packed meter table: long poll 1C took ~10 ms on an
# RP2040 that way; an answer must start within 20 ms).
_ROWS = const(
    b"\x00\x02\x07\x0a\xff"  # coin in: credits of wagered + vig
    b"\x01\x02\x08\x09\x06"  # coin out: won + returned - jackpot
    b"\x02\x02\x06\xff\xff"  # jackpot
    b"\x03\x02\x05\xff\xff"  # hand paid cancelled credits: handpay_cc
    b"\x04\x02\x03\xff\x06"  # cancelled: total_out - jackpot
    b"\x05\x01\x0d\xff\xff"  # games played: games
    b"\x06\x01\x0e\xff\xff"  # games won
    b"\x07\x01\x0f\xff\xff"  # games lost
    b"\x08\x02\x01\xff\xff"  # credits from coin acceptor: coins_in
    b"\x0a\x02\x01\xff\xff"  # credits from coins to drop: coins_in
    b"\x0b\x02\x00\xff\xff"  # credits from bills accepted: bills_in
    b"\x0c\x05\xff\xff\xff"  # current credits (the player's)
    b"\x16\x02\x04\xff\xff"  # total ticket out: tickets_out
    b"\x22\x04\x01\x02\xff"  # total won: meter 01 + meter 02 (coin out + jackpot)
    b"\x23\x02\x05\x06\xff"  # total hand paid: handpay_cc + jackpot
    b"\x24\x02\x02\xff\xff"  # drop: total_in
    b"\x25\x01\x10\xff\xff"  # games since power up: games_power
    b"\x26\x01\x11\xff\xff"  # games since door close: games_door
    b"\x2c\x02\x04\xff\xff"  # cashable ticket out: tickets_out
    b"\x2d\x01\x15\xff\xff"  # ours: door_opens
    b"\x2e\x01\x16\xff\xff"  # ours: power_ups
    b"\x2f\x01\x1a\xff\xff"  # ours, 2F-34: bills of $1, 5, 10, 20, 50, 100
    b"\x30\x01\x1c\xff\xff"  # (bill meters bills_1, bills_5, ...)
    b"\x31\x01\x1d\xff\xff"
    b"\x32\x01\x1e\xff\xff"
    b"\x33\x01\x1f\xff\xff"
    b"\x34\x01\x20\xff\xff"
    b"\x35\x03\x00\xff\xff"  # ours: dollars of bills accepted: bills_in
)


_T = bytearray(4 * _N)
for i in range(0, len(_ROWS), 5):
    _T[4 * _ROWS[i]:4 * _ROWS[i] + 4] = _ROWS[i + 1:i + 5]
del i

# the meter polls (SAS 6.02 7.1, 7.2, 10-20): command, number of meters,
# then for each its code in _T and its size in BCD bytes
_POLLS = const(
    b"\x10\x01\x04\x04"          # cancelled
    b"\x11\x01\x00\x04"          # coin in
    b"\x12\x01\x01\x04"          # coin out
    b"\x13\x01\x24\x04"          # drop
    b"\x14\x01\x02\x04"          # jackpot
    b"\x15\x01\x05\x04"          # games played
    b"\x16\x01\x06\x04"          # games won
    b"\x17\x01\x07\x04"          # games lost
    b"\x1a\x01\x0c\x04"          # current credits
    b"\x0f\x06\x04\x04\x00\x04\x01\x04\x24\x04\x02\x04\x05\x04"   # cancelled, in, out, drop, jp, games
    b"\x19\x05\x00\x04\x01\x04\x24\x04\x02\x04\x05\x04"           # in, out, drop, jp, games
    b"\x1c\x08\x00\x04\x01\x04\x24\x04\x02\x04\x05\x04\x06\x04"   # in, out, drop, jp, games, won,
    b"\x2d\x04\x2e\x04"                                            # door opens, power ups
    b"\x18\x02\x25\x02\x26\x02"  # games since power up, since door close
    b"\x1e\x06\x2f\x04\x30\x04\x31\x04\x32\x04\x33\x04\x34\x04"   # bills of $1 5 10 20 50 100
    b"\x20\x01\x35\x04"          # dollars of bills accepted
)


def credits(ledger, amount):
    """Ledger amount -> SAS accounting credits (the ledger counts cents;
    `credit_cents` is the accounting denomination)."""
    return amount // ledger.config["credit_cents"]


def amount(ledger, v):
    """A ledger amount as SAS reports it in cents (1B, 4D, 48): the ledger
    counts cents too."""
    return v


def value(ledger, code):
    """SAS 6.02 Table C-7 meter `code` (long polls 2F, 6F, AF), or None
    when the cabinet does not keep it."""
    return meter(ledger, code) if 0 <= code <= _LAST_CODE and _T[4 * code] else None


def meter(ledger, code):
    """Meter `code` of this table (Table C-7's, then ours)."""
    t = _T
    i = 4 * code
    how = t[i]
    if how == _SUM:
        return meter(ledger, t[i + 1]) + meter(ledger, t[i + 2])
    if how == _PLAYER:
        return credits(ledger, ledger.table.credits)
    get = ledger.meters.get
    v = get(t[i + 1])
    if t[i + 2] != _NO:
        v += get(t[i + 2])
    if t[i + 3] != _NO:
        v -= get(t[i + 3])
    if how == _CREDITS:
        return credits(ledger, v)
    return amount(ledger, v) // 100 if how == _DOLLARS else v


def put(ledger, c, buf, k):
    """Writes meter poll c's meters into buf from k (BCD, most significant
    byte first); returns the position after them."""
    p = _POLLS
    i = 0
    while p[i] != c:              # only the polls in _POLLS come here
        i += 2 + 2 * p[i + 1]
    for j in range(i + 2, i + 2 + 2 * p[i + 1], 2):
        k = put_bcd(buf, k, meter(ledger, p[j]), p[j + 1])
    return k


def bills(ledger, dollars):
    """Number of bills of a dollar value accepted (0 if the cabinet has no
    meter for it)."""
    for i in range(len(BILL_DENOMS)):
        if BILL_DENOMS[i] == dollars:     # the bill meters are by dollar value
            return ledger.meters.get(BILLS_BASE + i)
    return 0
