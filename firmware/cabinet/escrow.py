"""Bills through a validator with escrow (hal/escrow.py, ID-003 style): the
controller's money pass calls tick() when the board has one.
"""
from micropython import const
from hal import escrow as V
from hal import faults as F
from hal.ticks import ticks_diff
from firmware.cabinet import devfault
from firmware.cabinet import ticket_in
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import ledger as L
from firmware import fmt

# a note ordered to the cash box and not there by then is stuck in the
# validator, whatever it says (stacking takes about 2 s)
STUCK_MS = const(10000)


def tick(ctl, v, now_ms):
    """A bill validator with escrow (hal/escrow.py, ID-003 style): the
    bill is journalled PENDING before the validator is told to stack it
    and credited only when the validator reports it in the cash box. A
    power cut before the stack order: the validator gives the bill back;
    after it: the validator says at power-up whether the bill reached
    the cash box (STACKED: credited now) or not (IDLE: RETURNED). No
    stacked bill is lost and none is credited twice (the credit is
    committed before the acknowledgement).

    A fault (jam, cash box full or out, no answer, a note not stacked
    within STUCK_MS) locks the cabinet with its name. A validator silent
    since power-up (ABSENT) is one only when the setting bill_escrow says
    one is fitted or the journal holds a note in it. A note it held is
    journalled in doubt: credited only when the validator reports it
    stacked, or by the attendant (firmware/cabinet/attend.py), never given
    up as returned just because the validator comes back empty."""
    v.inhibit(ctl.board.money.inhibited)  # the serial validator's own inhibit
    st, cents = v.poll(now_ms)
    if ticket_in.tick(ctl, v, st, now_ms):
        return
    store = ctl.store
    now = ctl.now_s()
    led = store.ledger
    pend = led.escrow
    since = ctl.escrow_ms
    if not pend:
        since = None
    elif since is None:
        since = now_ms
    ctl.escrow_ms = since
    if st == V.ABSENT:
        if not pend and not led.config["bill_escrow"]:
            devfault.cleared(ctl, (F.VALIDATOR,))  # none fitted: bills come as pulses
            return
        st, cents = V.FAULT, F.VALIDATOR
    if st == V.BUSY and since is not None and not led.host & L.BILL_DOUBT \
            and ticks_diff(now_ms, since) >= STUCK_MS:
        st, cents = V.FAULT, F.VALIDATOR
    if st == V.FAULT:
        _fault(ctl, cents if cents in F.VALIDATOR_FAULTS else F.VALIDATOR, pend, now, now_ms)
        return
    devfault.cleared(ctl, F.VALIDATOR_FAULTS)
    if st == V.ESCROW:
        if pend and cents != pend:
            v.ret()  # not the bill the journal holds: that one resolves first
            return
        if not pend:
            # escrow can refuse what pulses cannot: a note over the limit
            if ctl.want_inhibit() or ctl.audit_mode or cents % 100 \
                    or cents // 100 not in L.BILL_DENOMS \
                    or led.table.credits + cents > led.config["credit_limit"] * 100 \
                    or store.commit(T.pack(T.ESCROW, now, T.ES_PENDING, cents)) != R.OK:
                v.ret()
                return
        v.stack()
    elif st == V.STACKED:
        if pend and store.commit(T.pack(T.ESCROW, now, T.ES_STACKED, pend)) == R.OK:
            ctl.credits_in += pend
            ctl.say("CREDIT +" + fmt(pend), now_ms)
            ctl._update_inhibit()
            pend = 0
        if not pend:
            v.ack()
    elif st == V.IDLE and pend and not led.host & L.BILL_DOUBT:
        store.commit(T.pack(T.ESCROW, now, T.ES_RETURNED, pend))


def _fault(ctl, code, pend, now, now_ms):
    """The note first (in doubt, journalled), then the lock that names the
    fault: a power cut between them leaves the note safe."""
    store = ctl.store
    if pend and not store.ledger.host & L.BILL_DOUBT:
        store.commit(T.pack(T.ESCROW, now, T.ES_DOUBT, pend))
    devfault.note(ctl, code, now_ms)
