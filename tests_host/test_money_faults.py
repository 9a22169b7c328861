"""A money device that fails with money in flight (issue 25, finding 1): a
bill validator that jams, fills or loses its cash box, or stops answering
with a note in escrow; a printer fault mid-ticket; a coin line that keeps
pulsing. Each locks the cabinet with a named lock screen, logs and meters
it, inhibits money, queues its SAS exception and lets the technician in; a
note in doubt is shown to the attendant and settled once: credited when the
validator later reports it stacked, or by the attendant from the cash box
count, never twice. Plain asserts: pytest and the MicroPython unix port.
"""
from hal import escrow as V
from hal import faults as F
from hal import buttons as B
from hal.mock.validator import MockValidator
from firmware.cabinet import attend as AT
from firmware.cabinet import escrow as ES
from firmware.cabinet.money import LINE_MS
from firmware.sas import machine as X
from firmware.store import events as E
from firmware.store import ledger as L
from test_e2e_session import make, check
from test_device_faults import events_of


def cabinet(seed=71, flash=None):
    b, d = make(seed=seed, flash=flash, escrow=True)
    b.validator = MockValidator(b.clock, b.money)
    return b, d


def to_stacking(b, d, dollars=20):
    """A note in, up to the stack order: journalled pending, not credit."""
    v = b.validator
    led = d.ctl.store.ledger
    assert b.insert_bill(dollars)
    for _ in range(100):
        d.run(10)
        if led.escrow:
            break
    assert led.escrow == dollars * 100 and v.state != V.ESCROW   # told to stack
    assert v.poll() == (V.BUSY, 0)


def faulted(code, ms=500):
    """A cabinet whose validator faults with `code` holding a $20 note it
    was told to stack."""
    b, d = cabinet()
    to_stacking(b, d)
    b.validator.fault(code)
    d.run(ms)
    return b, d, d.ctl.store.ledger


def sas_codes(d):
    """The SAS exceptions a host would be sent for the journal's events."""
    s = X.Sas(d.ctl)
    s.feed()
    return list(s.pending())


def turn_key(b, d):
    b.audit_key.set(1)
    d.run(300)
    return d.ctl.audit_mode


def desk(b, d, button):
    """The attendant's button pressed twice (arm, act): the lines shown."""
    dk = AT.Desk(d.ctl.store, b)
    assert dk.press(button) == ""
    return dk.press(button)


def power_cycle(b, d, seed=71):
    """The cabinet restarts on the same flash; the validator keeps its state."""
    v = b.validator
    b2, d2 = make(seed=seed, flash=b.flash, escrow=True)
    b2.validator = v
    v._clock, v._money = b2.clock, b2.money
    return b2, d2


def locked_for(d, code):
    led = d.ctl.store.ledger
    return led.lock == L.LK_DEVICE and led.lock_arg == code


def test_a_jam_with_a_note_in_escrow_locks_named_and_lets_the_technician_in():
    """Before: no FAULT branch, the note pending for ever, the key refused,
    nothing logged, shown or inhibited."""
    b, d, led = faulted(F.BILL_JAM)
    assert locked_for(d, F.BILL_JAM)
    assert d.on_screen("DEVICE FAULT") and d.on_screen("BILL JAM") and d.on_screen("CLEAR THE JAM")
    assert events_of(led, E.DEVICE_FAULT) == [F.BILL_JAM]
    assert events_of(led, E.BILL_DOUBT) == [2000]
    assert led.meters.get("dev_faults") == 1 and led.meters.get("bills_doubt") == 1
    assert b.money.inhibited and not b.insert_bill(5)
    assert led.escrow == 2000 and led.table.credits == 0
    assert 0x28 in sas_codes(d)                  # bill jam
    d.run(60000)
    assert turn_key(b, d)                        # the audit key works with the note in escrow
    lines = AT.Desk(d.ctl.store, b).lines()
    assert lines[0] == "Bill in doubt" and "20.00" in lines[1]
    check(d)


def test_the_note_is_credited_once_when_the_validator_reports_it_stacked():
    b, d, led = faulted(F.STACKER_FULL)
    assert locked_for(d, F.STACKER_FULL) and 0x27 in sas_codes(d)
    b, d = power_cycle(b, d)                     # a power cycle with the fault
    led = d.ctl.store.ledger
    d.run(500)
    assert not d.ctl.store.critical and led.escrow == 2000 and led.host & L.BILL_DOUBT
    assert locked_for(d, F.STACKER_FULL) and turn_key(b, d)
    b.validator.clear(V.STACKED)                 # emptied; the note went in
    d.run(1000)
    assert led.table.credits == 2000 and led.escrow == 0 and not led.host & L.BILL_DOUBT
    assert led.meters.get("bills_20") == 1 and b.validator.state == V.IDLE
    assert AT.Desk(d.ctl.store, b).lines()[0] == "Lock:"   # nothing left in doubt
    assert "RESET DONE" in desk(b, d, B.ROLL)
    b.audit_key.set(0)
    d.run(500)
    b, d = power_cycle(b, d)
    d.run(1000)
    led = d.ctl.store.ledger
    assert led.table.credits == 2000 and led.meters.get("bills_in") == 2000
    assert not led.lock and not b.money.inhibited
    check(d)


def test_the_attendant_settles_a_note_the_validator_lost():
    """The validator comes back empty (nobody knows where the note went): it
    stays in doubt, never given up as returned; the attendant credits it
    from the cash box count; the validator's own late word credits nothing."""
    b, d, led = faulted(F.VALIDATOR, 1500)
    assert locked_for(d, F.VALIDATOR) and d.on_screen("NOT ANSWERING")
    assert 0x29 in sas_codes(d)
    b.validator.cents = 0                        # cleared by hand: the note is out of it
    b.validator.clear(V.IDLE)
    d.run(1000)
    assert led.escrow == 2000 and led.host & L.BILL_DOUBT and led.table.credits == 0
    assert turn_key(b, d)
    assert d.ctl.store.reset(b.clock.now()) != 0     # the note first
    out = desk(b, d, B.ROLL)
    assert out[0] == "CREDITED" and led.table.credits == 2000 and led.escrow == 0
    b.validator.state = V.STACKED                # "power up with bill in stacker"
    d.run(1000)
    assert led.table.credits == 2000 and b.validator.state == V.IDLE
    assert led.meters.get("bills_in") == 2000 and led.meters.get("bills_doubt") == 1
    check(d)


def test_the_attendant_can_settle_it_uncredited():
    b, d, led = faulted(F.STACKER_OPEN)
    assert locked_for(d, F.STACKER_OPEN) and d.on_screen("STACKER REMOVED")
    assert 0x1B in sas_codes(d)
    assert turn_key(b, d)
    out = desk(b, d, B.BET_UP)
    assert out[0] == "NOT CREDITED" and led.escrow == 0 and led.table.credits == 0
    assert E.BILL_RETURNED in [led.events.get(i)[2] for i in range(led.events.count)]
    check(d)


def test_a_note_the_validator_never_finishes_stacking_is_a_fault():
    b, d = cabinet()
    led = d.ctl.store.ledger
    to_stacking(b, d)
    v = b.validator
    v._due = v._clock.ticks_add(v._clock.ticks_ms(), 10 ** 7)   # stuck, saying BUSY
    d.run(ES.STUCK_MS + 500)
    assert locked_for(d, F.VALIDATOR) and led.host & L.BILL_DOUBT
    assert turn_key(b, d)
    check(d)


def test_a_fault_with_no_note_locks_and_inhibits():
    b, d = cabinet()
    led = d.ctl.store.ledger
    d.run(500)
    b.validator.fault(F.STACKER_FULL)
    d.run(500)
    assert locked_for(d, F.STACKER_FULL) and b.money.inhibited
    assert not led.host & L.BILL_DOUBT and led.meters.get("bills_doubt") == 0
    b.validator.clear(V.IDLE)
    d.run(500)
    assert F.STACKER_FULL not in d.ctl.faults and led.lock   # the lock waits for the attendant
    assert turn_key(b, d) and "RESET DONE" in desk(b, d, B.ROLL)
    b.audit_key.set(0)
    d.run(1000)
    assert not b.money.inhibited and d.bill(10) and led.table.credits == 1000
    check(d)


def test_a_printer_fault_mid_ticket_is_metered_reported_and_opens_to_the_key():
    b, d = make(seed=73)
    led = d.ctl.store.ledger
    d.bill(10)
    b.printer.print_ticket = lambda lines, barcode=None, serve=None: False
    d.press("CASHOUT")
    assert led.lock == L.LK_PRINTER and led.ticket == 1000
    assert d.on_screen("PRINTER FAULT") and b.money.inhibited
    assert led.meters.get("dev_faults") == 1 and 0x60 in sas_codes(d)
    assert turn_key(b, d)
    assert AT.Desk(d.ctl.store, b).lines()[0] == "Ticket in doubt"
    check(d)


def test_a_chattering_coin_line_locks_and_credits_nothing():
    """Before: the key stayed refused as long as the line pulsed, and the
    pulses were credited once it stopped (or at the next power-up)."""
    b, d = make(seed=74)
    led = d.ctl.store.ledger
    d.run(500)
    b.money.coin.schedule(2000, 40)              # 80 s of pulses, inhibit or not
    d.run(LINE_MS + 1000)
    assert locked_for(d, F.COIN_LINE) and d.on_screen("COIN LINE")
    assert events_of(led, E.DEVICE_FAULT) == [F.COIN_LINE]
    dropped = events_of(led, E.PULSES_DROPPED)
    assert len(dropped) == 1 and dropped[0] & 1 == 1 and dropped[0] >> 1 > 300
    assert led.pulses == [0, 0] and led.table.credits == 0
    assert led.meters.get("dev_faults") == 1 and 0x21 in sas_codes(d)
    assert b.money.inhibited
    journal_before = d.ctl.store.journal.head, led.events.count
    d.run(5000)                                  # still pulsing: nothing journalled per pulse
    assert (d.ctl.store.journal.head, led.events.count) == journal_before
    assert turn_key(b, d)                        # while the line still pulses
    b.audit_key.set(0)
    d.run(300)
    b, d = make(seed=74, flash=b.flash)          # a power cycle: the dropped pulses stay dropped
    led = d.ctl.store.ledger
    d.run(1000)
    assert led.table.credits == 0 and locked_for(d, F.COIN_LINE)
    assert turn_key(b, d) and "RESET DONE" in desk(b, d, B.ROLL)
    b.audit_key.set(0)
    d.run(1000)
    assert d.coin(1) and led.table.credits > 0    # a quiet line takes coins again
    check(d)
