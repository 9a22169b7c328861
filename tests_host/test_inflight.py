"""Money in flight across a power cut (issue 9, defects 4 and 5): a ticket
between its commit and the printer's confirmation, a bill whose pulses the
validator delivered before the credit was committed, pulses that arrive
after the audit key turned.

A "power cut" here is what the board sees: RAM, the pulse counters and the
controller are gone, a new board boots on the same flash. Plain asserts:
runs on CPython and on the MicroPython unix port.
"""
from hal import buttons as B
from firmware.store import events as E
from firmware.store import ledger as L
from firmware.store import records as T
from test_e2e_session import make, check, events_of


class PowerLost(BaseException):
    """Not an Exception: nothing in the firmware may catch the power going."""


def _reboot(b, seed=99):
    return make(seed=seed, flash=b.flash)


def _printer_dies(b, seen):
    """The power goes while the printer prints: it may have printed."""
    def print_ticket(lines, barcode=None, serve=None):
        seen.append(list(lines))
        raise PowerLost()
    b.printer.print_ticket = print_ticket


def _cut_while_printing(credits=20):
    b, d = make(seed=41)
    d.bill(credits)
    seen = []
    _printer_dies(b, seen)
    try:
        d.press("CASHOUT")
    except PowerLost:
        pass
    assert seen, "the ticket reached the printer"
    return _reboot(b) + (seen[0],)


def _validation(lines):
    return [l for l in lines if l.startswith("VALIDATION")][0]


def test_ticket_cut_while_printing_locks_ticket_in_doubt():
    b, d, first = _cut_while_printing()
    led = d.ctl.store.ledger
    assert led.lock, "a committed ticket nobody saw printed must lock"
    assert led.lock == L.LK_DOUBT
    assert led.ticket == 2000 and led.table.credits == 0          # cents
    assert led.meters.get("total_out") == 2000 and led.meters.get("tickets_out") == 0
    assert led.meters.get("tickets_doubt") == 1
    assert E.TICKET_DOUBT in events_of(led)
    d.run(300)
    assert d.on_screen("TICKET IN DOUBT") and d.on_screen("TICKET 20.00")
    assert b.money.inhibited
    check(d)
    # a second power-up keeps the same lock and does not count it twice
    b, d = _reboot(b, 100)
    led = d.ctl.store.ledger
    assert led.lock == L.LK_DOUBT and led.meters.get("tickets_doubt") == 1


def _attendant(b, d):
    b.audit_key.set(1)
    d.run(300)
    assert d.ctl.menu is not None
    d.press("NEXT", 4)
    d.press("ROLL")
    assert d.on_screen("ATTENDANT") and d.on_screen("Ticket in doubt"), d.screen_text()


def test_ticket_in_doubt_reprint_same_validation_number():
    b, d, first = _cut_while_printing()
    led = d.ctl.store.ledger
    _attendant(b, d)
    assert d.ctl.store.reset(b.clock.now()) != 0, "a plain reset cannot settle a ticket"
    d.press("ROLL")
    assert not b.printer.tickets          # one press only arms it
    d.press("ROLL")
    assert d.on_screen("REPRINTED"), d.screen_text()
    assert len(b.printer.tickets) == 1
    again = b.printer.tickets[0]
    assert _validation(again) == _validation(first) and "REPRINT" in again
    assert "AMOUNT $20.00" in again
    assert led.lock == L.LK_NONE and led.ticket == 0
    assert led.meters.get("tickets_out") == 2000 and led.meters.get("tickets") == 1
    assert led.meters.get("handpay_cc") == 0
    b.audit_key.set(0)
    d.run(500)
    assert d.on_screen("INSERT MONEY")
    check(d)


def test_ticket_in_doubt_reprint_fails_then_handpay():
    b, d, first = _cut_while_printing()
    led = d.ctl.store.ledger
    b.printer.status_value = 1        # paper out: the reprint cannot print
    _attendant(b, d)
    d.press("ROLL", 2)
    assert d.on_screen("NOT PRINTED") and led.lock == L.LK_DOUBT and led.ticket == 2000
    d.press("CLEAR")
    d.press("BET_UP", 2)
    assert d.on_screen("HANDPAID"), d.screen_text()
    assert led.lock == L.LK_NONE and led.ticket == 0
    assert led.meters.get("handpay_cc") == 2000 and led.meters.get("tickets_out") == 0
    assert led.meters.get("total_out") == 2000
    assert E.HANDPAY in events_of(led)
    check(d)


def test_printer_fault_ticket_settled_by_reprint():
    b, d = make(seed=42)
    d.bill(10)
    b.printer.status_value = 0
    real = b.printer.print_ticket
    b.printer.print_ticket = lambda lines, barcode=None, serve=None: False
    d.press("CASHOUT")
    led = d.ctl.store.ledger
    assert led.lock == L.LK_PRINTER and led.ticket == 1000
    b.printer.print_ticket = real
    _attendant(b, d)
    d.press("ROLL", 2)
    assert led.lock == L.LK_NONE and led.meters.get("tickets_out") == 1000
    check(d)


def test_ticket_records_refuse_a_foreign_number():
    b, d = make(seed=43)
    st = d.ctl.store
    d.bill(5)
    now = b.clock.now()
    assert st.ticket(now, T.TK_PENDING, 777) == 0
    assert st.ticket(now, T.TK_PENDING, 778) != 0      # one ticket at a time
    assert st.cashout(now, T.BY_HANDPAY) != 0
    assert st.ticket(now, T.TK_PRINTED, 778) != 0      # not the pending one
    assert st.ticket(now, 7, 777) != 0                 # no such step
    assert st.ledger.ticket == 500
    assert st.ticket(now, T.TK_PRINTED, 777) == 0
    assert st.ticket(now, T.TK_PRINTED, 777) != 0      # only once
    assert st.ledger.meters.get("tickets_out") == 500
    check(d)


def _deliver(b, pulses):
    """The validator stacked a bill and sends its pulses (whatever the
    inhibit line says now: it had accepted the bill before)."""
    b.money.bill.schedule(pulses, b.money.pulse_ms)


def test_bill_delivered_then_cut_before_the_burst_ended_is_credited():
    b, d = make(seed=44)
    assert b.insert_bill(20)
    d.run(20 * b.money.pulse_ms + 100)   # every pulse delivered, burst not ended yet
    led = d.ctl.store.ledger
    assert b.money.bill.pending() == 0 and led.table.credits == 0
    b, d = _reboot(b)
    led = d.ctl.store.ledger
    # a pulse is a $1 machine credit (credit_cents 100); play counts cents
    assert led.table.credits == 2000, "20 pulses delivered, %d credited" % led.table.credits
    assert led.meters.get("bills_in") == 2000 and led.meters.get("bills_20") == 1
    assert led.pulses == [0, 0]
    check(d)
    b, d = _reboot(b, 101)               # and credited once only
    assert d.ctl.store.ledger.table.credits == 2000


def test_bill_cut_halfway_credits_the_pulses_delivered():
    b, d = make(seed=45)
    b.insert_bill(20)
    d.run(7 * b.money.pulse_ms + 30)
    delivered = b.money.bill.count()
    assert 0 < delivered < 20
    b, d = _reboot(b)
    led = d.ctl.store.ledger
    cents = delivered * 100
    assert led.table.credits == cents and led.meters.get("total_in") == cents
    check(d)


def _audit_on(seed):
    b, d = make(seed=seed)
    b.audit_key.set(1)
    d.run(300)
    assert d.ctl.audit_mode and b.money.inhibited
    return b, d


def test_pulses_after_the_audit_key_turned_are_credited_on_leaving():
    b, d = _audit_on(46)
    led = d.ctl.store.ledger
    _deliver(b, 20)                      # accepted just before the inhibit reached it
    d.run(3000)
    assert led.table.credits == 0 and led.pulses[0] == 20   # kept, journalled
    b.audit_key.set(0)
    d.run(1000)
    assert led.table.credits == 2000 and led.meters.get("bills_20") == 1
    check(d)


def test_pulses_in_audit_survive_a_cut():
    b, d = _audit_on(47)
    _deliver(b, 5)
    d.run(1000)
    b, d = _reboot(b)
    assert d.ctl.store.ledger.table.credits == 500
    check(d)


def test_money_test_pulses_are_never_credited():
    b, d = _audit_on(48)
    led = d.ctl.store.ledger
    d.press("NEXT", 5)                   # Diagnostics
    d.press("ROLL")
    d.press("PREV")                      # Money pulses (last item)
    d.press("ROLL")
    assert d.on_screen("NOT CREDITED"), d.screen_text()
    d.press("ROLL")                      # acceptance on for the test
    assert b.insert_bill(5)
    d.run(1500)
    assert d.on_screen("Bill pulses    5"), d.screen_text()
    d.press("CLEAR")
    assert b.money.inhibited
    b.audit_key.set(0)
    d.run(2000)
    assert led.table.credits == 0 and led.meters.get("total_in") == 0
    assert led.pulses == [0, 0]
    check(d)
