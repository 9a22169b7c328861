"""Ticket in (TITO redemption) in the ledger: the reducer of records.TICKET_IN.

A ticket the validator read waits in its escrow while the casino system
decides; one ticket at a time, and never while a bill is in escrow:

  PENDING   number          read and held; the host is asked (SAS 67, 70, 71)
  AUTH      number, cents   the host redeems it: the stack order follows
  REJECT    number, why     refused (by the host, or late, or over the limit):
                            the return order follows
  STACKED   number, cents   the validator put it in the cash box: the credit
  RETURNED  number, why     the validator gave it back

The stack order only ever follows a journalled AUTH, and the credit only a
journalled STACKED of the same number and amount, so a power cut at any
instant neither loses a redeemed ticket nor credits one twice: before AUTH
the validator gives the ticket back at power-up; after it, the validator
says whether it reached the cash box. The ticket's number, amount and
status (TS_*) stay after it is done, for the host's status request (71).
"""
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import events as E

_MAX_NUMBER = 10 ** 18       # validation numbers have 18 digits


def apply(led, time, f, data):
    step, number, value = f
    now = led.tin_step
    if step == T.TI_PENDING:
        if now or led.escrow or not 0 < number < _MAX_NUMBER:
            return R.BAD_AMOUNT
        led.tin_step, led.tin_number = step, number
        led.tin_amount, led.tin_status = 0, T.TS_WAITING
        led.events.log(time, E.TICKET_INSERTED, 0)
        return R.OK
    if not now or number != led.tin_number:
        return R.BAD_AMOUNT                     # not the ticket in escrow
    if step == T.TI_AUTH or step == T.TI_REJECT:
        if now != T.TI_PENDING or (step == T.TI_AUTH and value <= 0):
            return R.BAD_AMOUNT                 # the host has spoken already
        led.tin_step = step
        if step == T.TI_AUTH:
            led.tin_amount, led.tin_status = value, T.TS_PENDING
        else:
            led.tin_status = value
        return R.OK
    if step == T.TI_STACKED:
        if now != T.TI_AUTH or value != led.tin_amount:
            return R.BAD_AMOUNT                 # stacked only after AUTH, for its amount
        code = led.table.credit(value)
        if code != R.OK:
            return code
        m = led.meters
        m.add("total_in", value)
        m.add("tickets_in", value)
        m.add("tickets_in_n")
        led.tin_status = T.TS_REDEEMED
        led.events.log(time, E.TICKET_IN_DONE, value)
    elif step == T.TI_RETURNED:
        led.tin_status = value
        led.tin_amount = 0
        led.events.log(time, E.TICKET_IN_DONE, 0)
    else:
        return R.BAD_AMOUNT
    led.tin_step = 0
    return R.OK
