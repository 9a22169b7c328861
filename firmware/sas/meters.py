"""Cabinet meters as SAS meters: one table, one unit.

The cabinet's SAS accounting denomination is $0.01 (Table C-4 code 01): a
SAS credit is a cent, so every meter the host reads is exact, and tickets,
cancelled credits and the drop reconcile to the cent (the ledger counts
cents). Meters SAS keeps "in cents" are the same numbers.

Mapping (the cabinet's balance `credits = total_in - total_out +
jp_to_credit + won + returned - wagered - vig` becomes SAS's `credits = drop - cancelled + coin
out - coin in`, every SAS meter only ever going up):
  coin in   = wagered + vig (the commission is played money)
  coin out  = won + returned - jackpot + jackpots reset to the credit meter
              (stake included; a jackpot handpay is paid by the attendant,
              so it is in jackpot, not coin out, unless the host had it reset
              to the credit meter, A8: then the machine paid it, and it is
              in both: jackpot counts every jackpot lockup)
  cancelled = total_out - jackpot (tickets out, handpaid cancelled credits,
              AFT transfers to the host)
  drop      = total_in (bills, coins, tickets in, AFT transfers in)

The mapping is one table (_ROWS), data rather than code.
"""
from micropython import const
from firmware.store.meters import BILL_DENOMS, BILLS_BASE, index, wrap
from firmware.sas.wire import put_bcd

# how a meter is worked out (the second byte of its row)
_COUNT = const(1)      # ledger meter a + b - c
_DOLLARS = const(3)    # the same in whole dollars
_SUM = const(4)        # meter of code a + meter of code b (rows of this table)
_PLAYER = const(5)     # the credits on the player's meter (not an audit meter)
_INTERNAL = const(0x80)  # a row the multi-meter polls use and C-7 has no code for

_NO = const(0xFF)      # no ledger meter in that place


def _number(key):
    """The ledger's number for meter `key`: a name it does not keep fails
    at import, not at a poll."""
    i = index(key)
    if i is None:
        raise KeyError(key)
    return i


def _rows():
    """meter code, how, size in BCD bytes (Table C-7's minimum for 2F),
    ledger meters a, b, c, by key: 6 bytes a row. Read by number, not name,
    when answering (looking each meter up by name made long poll 1C ~10 ms
    of work on an RP2040; an answer must start within 20 ms)."""
    spec = (
        (0x00, _COUNT, 4, "wagered vig"),                 # coin in
        (0x01, _SUM, 4, (PAID_BY_MACHINE, JP_TO_CREDIT)),  # coin out
        (0x02, _COUNT, 4, "jackpot"),
        (0x03, _COUNT, 4, "handpay_cc"),                  # hand paid cancelled credits
        (0x04, _COUNT, 4, "total_out -jackpot"),          # cancelled credits
        (0x05, _COUNT, 4, "games"),
        (0x06, _COUNT, 4, "games_won"),
        (0x07, _COUNT, 4, "games_lost"),
        (0x08, _COUNT, 4, "coins_in"),                    # from the coin acceptor
        (0x0A, _COUNT, 4, "coins_in"),                    # coins to drop
        (0x0B, _COUNT, 4, "bills_in"),
        (0x0C, _PLAYER, 4, ""),                           # current credits
        (0x0D, _COUNT, 5, "tickets_in"),                  # SAS cashable ticket in, cents
        (0x0E, _COUNT, 5, "tickets_out"),                 # SAS cashable ticket out, cents
        (0x11, _COUNT, 4, "tickets_in_n"),                # SAS cashable ticket in, count
        (0x12, _COUNT, 4, "tickets"),                     # SAS cashable ticket out, count
        (0x15, _COUNT, 4, "tickets_in"),                  # total ticket in
        (0x16, _COUNT, 4, "tickets_out"),                 # total ticket out
        (0x1F, _COUNT, 4, "jackpot"),                     # attendant paid paytable win
        (0x22, _COUNT, 4, "won returned"),                # total won: coin out + jackpot, each once
        (0x23, _COUNT, 4, "handpay_cc jackpot"),          # total hand paid
        (0x24, _COUNT, 4, "total_in"),                    # total drop
        (0x25, _COUNT, 4, "games_power"),
        (0x26, _COUNT, 4, "games_door"),
        (0x28, _COUNT, 4, "tickets_in"),                  # cashable ticket in
        (0x29, _COUNT, 4, "tickets_in"),                  # regular cashable ticket in
        (0x2C, _COUNT, 4, "tickets_out"),                 # cashable ticket out
        (0x2E, _COUNT, 4, "aft_in"),                      # electronic cashable to the machine
        (0x32, _COUNT, 4, "aft_out"),                     # electronic cashable to the host
        (0x35, _COUNT, 4, "tickets_in_n"),                # regular cashable ticket in, count
        (0x38, _COUNT, 4, "tickets"),                     # cashable ticket out, count
        (0x3F, _COUNT, 4, "cashbox"),                     # value of the bills in the stacker
        (0x40, _COUNT, 4, "bills_1"),                     # bills accepted, by note
        (0x41, _COUNT, 4, "bills_2"),
        (0x42, _COUNT, 4, "bills_5"),
        (0x43, _COUNT, 4, "bills_10"),
        (0x44, _COUNT, 4, "bills_20"),
        (0x46, _COUNT, 4, "bills_50"),
        (0x47, _COUNT, 4, "bills_100"),
        (0x80, _COUNT, 5, "tickets_in"),                  # regular cashable ticket in, cents
        (0x81, _COUNT, 4, "tickets_in_n"),
        (0x86, _COUNT, 5, "tickets_out"),                 # regular cashable ticket out, cents
        (0x87, _COUNT, 4, "tickets"),
        (0xA0, _COUNT, 5, "aft_in"),                      # AFT in-house cashable to the machine
        (0xA1, _COUNT, 4, "aft_in_n"),
        (0xB8, _COUNT, 5, "aft_out"),                     # AFT in-house cashable to the host
        (0xB9, _COUNT, 4, "aft_out_n"),
        # ours: what 1C and 20 report that C-7 has no code for
        (DOOR_OPENS, _COUNT | _INTERNAL, 4, "door_opens"),
        (POWER_UPS, _COUNT | _INTERNAL, 4, "power_ups"),
        (BILL_DOLLARS, _DOLLARS | _INTERNAL, 4, "bills_in"),
        (PAID_BY_MACHINE, _COUNT | _INTERNAL, 4, "won returned -jackpot"),
        (JP_TO_CREDIT, _COUNT | _INTERNAL, 4, "jp_to_credit"),
    )
    out = bytearray(6 * len(spec))
    at = bytearray(256)
    for r in range(len(spec)):
        code, how, size, keys = spec[r]
        row = out[6 * r:6 * r + 6]
        row[0], row[1], row[2] = code, how, size
        row[3] = row[4] = row[5] = _NO
        if isinstance(keys, tuple):          # _SUM: two rows of this table
            row[3], row[4] = keys
        else:
            k = 3
            for key in keys.split():
                neg = key[0] == "-"
                row[5 if neg else k] = _number(key[1:] if neg else key)
                if not neg:
                    k += 1
        out[6 * r:6 * r + 6] = row
        at[code] = r + 1
    return bytes(out), at


# meter codes of ours, where C-7 has nothing (never answered to 2F/6F/AF)
DOOR_OPENS = const(0xF0)
POWER_UPS = const(0xF1)
BILL_DOLLARS = const(0xF2)
PAID_BY_MACHINE = const(0xF3)   # wins and stakes paid to the credit meter at the roll
JP_TO_CREDIT = const(0xF4)      # jackpots reset to the credit meter (SAS A8)

ROWS, _AT = _rows()

# the meter polls (SAS 6.02 7.1, 7.2): command, number of meters, then for
# each its code in ROWS and its size in BCD bytes
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
    b"\xf0\x04\xf1\x04"                                            # door opens, power ups
    b"\x18\x02\x25\x02\x26\x02"  # games since power up, since door close
    b"\x1e\x06\x40\x04\x42\x04\x43\x04\x44\x04\x46\x04\x47\x04"   # bills of $1 5 10 20 50 100
    b"\x20\x01\xf2\x04"          # dollars of bills accepted
)


def value(ledger, code):
    """SAS 6.02 Table C-7 meter `code` (long polls 2F, 6F, AF), or None
    when the cabinet does not keep it."""
    if not 0 <= code < 256:
        return None
    r = _AT[code]
    if not r or ROWS[6 * r - 5] & _INTERNAL:
        return None
    return meter(ledger, code)


def size(code):
    """Table C-7's minimum size (BCD bytes) of a meter the cabinet keeps."""
    return ROWS[6 * _AT[code] - 4]


def meter(ledger, code):
    """Meter `code` of this table (Table C-7's, then ours)."""
    t = ROWS
    i = 6 * _AT[code] - 6
    how = t[i + 1] & ~_INTERNAL
    if how == _SUM:
        return wrap(meter(ledger, t[i + 3]) + meter(ledger, t[i + 4]))
    if how == _PLAYER:
        return ledger.table.credits
    get = ledger.meters.get
    v = 0
    if t[i + 3] != _NO:
        v = get(t[i + 3])
    if t[i + 4] != _NO:
        v += get(t[i + 4])
    if t[i + 5] != _NO:
        v -= get(t[i + 5])
    v = wrap(v)  # the ledger meters roll over at 10**10 cents: so does their sum
    return v // 100 if how == _DOLLARS else v


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
