"""Ticket in over SAS (15.11, 15.12): 70 send ticket validation data, 71
redeem ticket. The cabinet holds the ticket in the validator's escrow and
reports exception 67 (journal event TICKET_INSERTED); the host reads its
number (70) and redeems or refuses it (71): the answer is journalled
(firmware/store/ticket_in.py) before the validator is told to stack or
return it, and 68 (TICKET_IN_DONE) says it is done; 71 with transfer code
FF then reads the final status. Handlers as in firmware/sas/info.py.
"""
from micropython import const
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.sas import wire

_IN_ESCROW = const(0x00)     # 70: a ticket waits
_NONE = const(0xFF)          # 70: none; 71: no validation information
_NOT_NOW = const(0xC0)       # 71: not compatible with the current redemption cycle
_STATUS = const(0xFF)        # 71 transfer code: request for the current status
_CASHABLE = const(0x00)      # 71 transfer code: valid cashable ticket
_REJECTS = const(0x80)       # 71 transfer codes 80 and up: the host refuses it
_PARSING = const(0x00)       # validation data: 18 digits as 9 BCD bytes
_DATA = const(16)            # status, amount (5), parsing code, validation (9)


def _ticket(sas, k, status, amount, number):
    """Status, amount, parsing code and validation number after the length
    byte at reply[k]; returns the answer's length."""
    o = sas.reply
    o[k] = _DATA
    o[k + 1] = status
    k = wire.put_bcd(o, k + 2, amount, 5)
    o[k] = _PARSING
    return sas.tail(wire.put_bcd(o, k + 1, number, 9))


def _status_only(sas, k, status):
    o = sas.reply
    o[k] = 1
    o[k + 1] = status
    return sas.tail(k + 2)


def validation_data(sas, f, n):
    """70: the ticket in escrow (its amount is the host's to say: 0)."""
    led = sas.ctl.store.ledger
    k = sas.head(0x70)
    if led.tin_step != T.TI_PENDING:
        return _status_only(sas, k, _NONE)
    return _ticket(sas, k, _IN_ESCROW, 0, led.tin_number)


def redeem(sas, f, n):
    """71: the host's decision on the ticket in escrow (journalled), or FF,
    a status request; the answer is the ticket's status."""
    ctl = sas.ctl
    store = ctl.store
    led = store.ledger
    k = sas.head(0x71)
    code = f[3] if f[2] else _STATUS
    if code != _STATUS:
        if led.tin_step != T.TI_PENDING:
            return _status_only(sas, k, _NOT_NOW)
        if f[2] < _DATA:
            return sas.status(0x80)            # cut short: NACK
        amount = wire.get_bcd(f, 4, 5)
        why = 0
        if code >= _REJECTS:
            why = T.TS_REJECTED
        elif code != _CASHABLE:
            why = T.TS_FUNCTION                # restricted credits: not on this machine
        elif amount <= 0:
            why = T.TS_AMOUNT
        elif f[9] != _PARSING or wire.get_bcd(f, 10, 9) != led.tin_number:
            why = T.TS_NO_MATCH
        elif led.table.credits + amount > led.config["credit_limit"] * 100:
            why = T.TS_OVER_LIMIT
        step = T.TI_REJECT if why else T.TI_AUTH
        if store.critical or store.commit(T.pack(T.TICKET_IN, ctl.now_s(), step,
                                                 led.tin_number, why or amount)) != R.OK:
            return sas.status(0x80)
    if not led.tin_number:
        return _status_only(sas, k, _NONE)
    return _ticket(sas, k, led.tin_status, led.tin_amount, led.tin_number)
