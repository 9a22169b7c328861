"""Ticket in (TITO redemption) at the validator: the controller's escrow
pass hands a ticket over here (hal/escrow.py TICKET). The casino system
redeems or refuses it over SAS (firmware/sas/redeem.py journals its
answer); this module turns the journal's step into the validator's stack
or return order and journals what the validator then reports
(firmware/store/ticket_in.py keeps the steps and their invariants).
"""
from micropython import const
from hal import escrow as V
from hal.ticks import ticks_diff
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware import fmt

# no answer from the host by then: the ticket goes back to the player
WAIT_MS = const(15000)
_DIGITS = const(18)


def tick(ctl, v, st, now_ms):
    """Acts on the validator's state `st` when it is the ticket's business
    (a ticket in escrow, or the journal holds one); True then."""
    store = ctl.store
    led = store.ledger
    step = led.tin_step
    now = ctl.now_s()
    if st == V.TICKET:
        if step == T.TI_AUTH:
            v.stack()
        elif step == T.TI_REJECT:
            v.ret()
        elif step == T.TI_PENDING:
            if ctl.ticket_in_ms is None:
                ctl.ticket_in_ms = now_ms
            elif ticks_diff(now_ms, ctl.ticket_in_ms) >= WAIT_MS:
                store.commit(T.pack(T.TICKET_IN, now, T.TI_REJECT, led.tin_number,
                                    T.TS_TIMEOUT))
        else:
            number = number_of(v.barcode)
            if number < 0 or not redeemable(ctl) or \
                    store.commit(T.pack(T.TICKET_IN, now, T.TI_PENDING, number, 0)) != R.OK:
                v.ret()                 # not journalled: nothing left to resolve
                ctl.say("TICKET REFUSED", now_ms)
            else:
                ctl.ticket_in_ms = now_ms
                ctl.say("TICKET ...", now_ms)
        return True
    if not step:
        return False
    if st == V.STACKED and step == T.TI_AUTH:
        amount = led.tin_amount
        if store.commit(T.pack(T.TICKET_IN, now, T.TI_STACKED, led.tin_number, amount)) == R.OK:
            ctl.credits_in += amount
            ctl.say("TICKET +" + fmt(amount), now_ms)
            ctl._update_inhibit()
            v.ack()
        return True
    if st == V.IDLE:
        # given back: refused, or a power cut took it out of escrow
        why = led.tin_status if step == T.TI_REJECT else T.TS_UNABLE
        store.commit(T.pack(T.TICKET_IN, now, T.TI_RETURNED, led.tin_number, why))
        ctl.ticket_in_ms = None
        ctl.say("TICKET RETURNED", now_ms)
        return True
    return False


def redeemable(ctl):
    """A ticket can be asked of the host now: SAS is on, ticket redemption
    is on (SAS 7B), play and the validator are not stopped, no bill is in
    escrow."""
    led = ctl.store.ledger
    return ctl.sas is not None and led.config["sas_address"] != 0 \
        and led.config["ticket_in"] \
        and not ctl.want_inhibit() and not led.escrow


def number_of(barcode):
    """The 18-digit validation number a barcode reads, or -1."""
    if len(barcode) != _DIGITS:
        return -1
    n = 0
    for c in barcode:
        if not 0x30 <= c <= 0x39:
            return -1
        n = n * 10 + c - 0x30
    return n
