"""Journal record payloads: one type byte, the time, then typed fields.

Formats are data; a record that does not decode is refused by the ledger, so
a corrupt or foreign record can never reach the money.
"""
import struct
from micropython import const

CREDIT = const(1)     # source, credits
BET = const(2)        # kind, number, amount
REMOVE = const(3)     # kind, number, amount (0 = all)
WORKING = const(4)    # kind, number, on
CLEAR = const(5)      # the player's CLEAR: this period's bets back
CLOSE = const(6)      # bets closed for the roll
ROLL = const(7)       # d1, d2, re-rolls before this result
VOID = const(8)       # malfunction: the roll is void, this period's bets back
REROLL = const(9)     # why (events.COCKED / events.STUCK)
CASHOUT = const(10)   # method (ticket / handpay)
RESET = const(11)     # attendant reset of a lockup
EVENT = const(12)     # event code, arg (door, key, tilt, ...)
CONFIG = const(13)    # setting index, then the value as text
LOCK = const(14)      # lock code, arg
POWER = const(15)     # a power-up
TICKET = const(16)    # step (TK_*), validation number: the two-phase ticket
PULSES = const(17)    # channel (SRC_*), pulses of the burst so far (not yet credit)
SAS_ACK = const(18)   # event number the SAS host has acknowledged (its exception queue)
VALID_ID = const(19)  # SAS secure-enhanced validation ID and next sequence number (4C)
ESCROW = const(20)    # step (ES_*), cents: a bill held in the validator's escrow
TICKET_IN = const(21) # step (TI_*), validation number, amount or status: ticket in (firmware/store/ticket_in.py)
# 22-26: a table station's (firmware/store/seat_records.py)
AFT = const(27)       # transfer type, status, cents; tail: the host's transaction ID (firmware/store/aft.py)

SRC_BILL = const(0)
SRC_COIN = const(1)
BY_TICKET = const(0)
BY_HANDPAY = const(1)
TK_PENDING = const(0)   # credits out, ticket about to print (or in doubt)
TK_PRINTED = const(1)   # the printer confirmed it
TK_HANDPAID = const(2)  # the attendant paid it by hand instead
ES_PENDING = const(0)   # accepted by the cabinet, stack ordered: not credit yet
ES_STACKED = const(1)   # the validator reported it in the cash box: credited
ES_RETURNED = const(2)  # it went back to the player (or never left the escrow)
ES_DOUBT = const(3)     # the validator faulted holding it: stacked only when it says so
TI_PENDING = const(1)   # read, held in escrow, the host asked (value 0)
TI_AUTH = const(2)      # the host redeems it for `value` cents: the stack order follows
TI_REJECT = const(3)    # it is refused (value: why, TS_*): the return order follows
TI_STACKED = const(4)   # the validator put it in the cash box (value: cents): credited
TI_RETURNED = const(5)  # the validator gave it back (value: why, TS_*)
# where a ticket in stands, as SAS reports it (SAS 6.02 Table 15.12d machine
# status, the one list of these reasons): kept with the ticket
TS_REDEEMED = const(0x00)     # cashable ticket redeemed
TS_WAITING = const(0x20)      # waiting for the host's redemption (long poll 71)
TS_PENDING = const(0x40)      # redemption pending: the stack order is out
TS_REJECTED = const(0x80)     # rejected by the host
TS_NO_MATCH = const(0x81)     # the host named another validation number
TS_FUNCTION = const(0x82)     # not a transfer this machine takes (restricted credits)
TS_AMOUNT = const(0x83)       # not a valid amount
TS_OVER_LIMIT = const(0x84)   # over the machine's credit limit
TS_UNABLE = const(0x87)       # the machine cannot take it now (a power cut, a fault)
TS_TIMEOUT = const(0x88)      # no answer from the host in time
# AFT in-house transfers (SAS 6.02 Table 8.3c transfer types, 8.3e status)
AFT_IN = const(0x00)          # in-house, host to the credit meter
AFT_OUT = const(0x80)         # in-house, credit meter to the host
AFT_FULL = const(0x00)        # full transfer successful
AFT_PARTIAL = const(0x01)     # partial transfer successful

_FMT = {
    CREDIT: "<BIBI", BET: "<BIBBI", REMOVE: "<BIBBI", WORKING: "<BIBBB",
    CLEAR: "<BI", CLOSE: "<BI", ROLL: "<BIBBB", VOID: "<BIB", REROLL: "<BIB",
    CASHOUT: "<BIB", RESET: "<BI", EVENT: "<BIBI", CONFIG: "<BIB", LOCK: "<BIBI",
    POWER: "<BI", TICKET: "<BIBQ", PULSES: "<BIBI", SAS_ACK: "<BII", VALID_ID: "<BIII",
    ESCROW: "<BIBI", TICKET_IN: "<BIBQI", AFT: "<BIBBI",
}
_TAILED = (CONFIG, AFT)     # records with bytes after their fields


def pack(rtype, time, *fields):
    return struct.pack(_FMT[rtype], rtype, time, *fields)


def pack_config(time, index, text):
    return struct.pack(_FMT[CONFIG], CONFIG, time, index) + text.encode()


def time_of(payload):
    """The time of a well-formed record (every record starts type u8, time u32)."""
    return struct.unpack_from("<I", payload, 1)[0]


def unpack(payload):
    """(type, time, fields tuple, tail bytes) or None if malformed."""
    if not payload:
        return None
    fmt = _FMT.get(payload[0])
    if fmt is None:
        return None
    size = struct.calcsize(fmt)
    if len(payload) < size or (payload[0] not in _TAILED and len(payload) != size):
        return None
    v = struct.unpack_from(fmt, payload, 0)
    return v[0], v[1], v[2:], bytes(payload[size:])
