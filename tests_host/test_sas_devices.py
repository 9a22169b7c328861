"""Device exceptions as a SAS host sees them (issue 23): the printer's state
at any time, not only at a failed print (60, 61, 74, 76), the cash box out
and back (1B, 1C) and a clock whose backup battery ran out (3B). Every
answer goes through tests_host/sas_spec.py, the decoder written from the
SAS 6.02 tables, over the mock board's line driving the real controller."""
from hal import escrow as V
from hal import faults as F
from hal import prstatus as PR
from hal.ds3231 import DS3231
from hal.mock.board import Board
from firmware.cabinet import devfault
from firmware.cabinet.drive import Driver
from firmware.store import events as E
from test_sas_floor import ADDR, ask, drain, poll, synced
from test_clock import FakeI2C

# the watch needs two readings of three steps each at most: 6 steps
_SETTLE_MS = 7 * devfault._PRINTER_STEP_MS


def printer_becomes(b, d, status):
    b.printer.status_value = status
    d.run(_SETTLE_MS)
    return drain(d)


def test_printer_states_at_idle_are_reported_each_once():
    """Before: the printer was asked only at power-up and at a cash out, so
    paper low, paper out or a printer gone at idle reached no host."""
    b, d = synced(seed=31)
    assert printer_becomes(b, d, PR.PAPER_LOW) == [0x74]
    d.run(10000)
    assert drain(d) == []                              # once, not every poll
    assert printer_becomes(b, d, PR.PAPER_OUT) == [0x61]
    assert printer_becomes(b, d, PR.FAULT) == [0x60]
    assert printer_becomes(b, d, PR.OK) == [0x76]      # answers again: printer power on
    assert printer_becomes(b, d, PR.PAPER_OUT) == [0x61]
    assert printer_becomes(b, d, PR.OK) == []          # paper back: SAS has no code
    led = d.ctl.store.ledger
    assert not led.lock                                # reported, play not locked
    names = [E.name(led.events.get(i)[2]) for i in range(led.events.count)]
    assert "printer paper" in names and "device back" in names


def test_a_passing_reading_is_not_reported_and_the_rate_is_low():
    """A status must read the same twice; the printer is asked one short
    step every _PRINTER_STEP_MS, never more."""
    b, d = synced(seed=32)
    n0 = b.printer.polls
    b.printer.status_value = PR.PAPER_OUT
    d.run(devfault._PRINTER_STEP_MS + 10)                # one reading only
    b.printer.status_value = PR.OK
    d.run(10000)
    assert drain(d) == []
    polls = b.printer.polls - n0
    assert 10000 // devfault._PRINTER_STEP_MS <= polls <= 10500 // devfault._PRINTER_STEP_MS + 1


def test_printer_low_at_power_up_is_reported_and_a_dead_one_once():
    b = Board(seed=33, fake_clock=True, flash_size=131072, sas="loop")
    b.printer.status_value = PR.PAPER_LOW
    d = Driver(b, draw=False)
    poll(d, [0x80 | (ADDR + 1)])
    assert 0x74 in drain(d)
    b2 = Board(seed=34, fake_clock=True, flash_size=131072, sas="loop")
    b2.printer.status_value = PR.FAULT
    d2 = Driver(b2, draw=False)
    poll(d2, [0x80 | (ADDR + 1)])
    d2.run(_SETTLE_MS)
    assert drain(d2).count(0x60) == 1                   # the power-up lock's, not again
    b2.printer.status_value = PR.OK
    d2.run(_SETTLE_MS)
    assert drain(d2) == [0x76]
    b2.printer.status_value = PR.FAULT                  # gone again: reported again
    d2.run(_SETTLE_MS)
    assert drain(d2) == [0x60]


def test_cash_box_removed_then_installed():
    """Before: the cash box out was 1B, its return nothing."""
    b, d = synced(seed=35, escrow=True)
    b.validator.fault(F.STACKER_OPEN)
    d.run(500)
    assert drain(d) == [0x1B]
    b.validator.clear(V.IDLE)
    d.run(500)
    assert drain(d) == [0x1C]
    ev = d.ctl.store.ledger.events
    assert [ev.get(i)[3] for i in range(ev.count) if ev.get(i)[2] == E.DEVICE_OK] \
        == [F.STACKER_OPEN]


def test_low_backup_battery_from_the_oscillator_stop_flag():
    """The DS3231's OSF at power-up: the clock ran out on its battery. The
    log says "clock NOT SET" (oscillator stopped) and SAS gets 3B; a clock
    that does not answer is not a battery: no 3B."""
    bus = FakeI2C()                                    # OSF set
    rtc = DS3231(bus)
    assert rtc.read() is None and rtc.osf              # hal.clock.Clock: test_clock.py
    rtc.write((2030, 3, 15, 13, 45, 0))
    assert rtc.read() == (2030, 3, 15, 13, 45, 0) and not rtc.osf
    for lost, want in ((True, [0x3B]), (False, [])):
        b = Board(seed=36, fake_clock=True, flash_size=131072, sas="loop")
        b.clock.valid = False
        b.clock.lost = lost
        d = Driver(b, draw=False)
        ev = d.ctl.store.ledger.events
        unset = [ev.get(i)[3] for i in range(ev.count) if ev.get(i)[2] == E.CLOCK_UNSET]
        assert unset == [1 if lost else 0]
        poll(d, [0x80 | (ADDR + 1)])
        got = drain(d)
        assert [c for c in got if c == 0x3B] == want
        r = ask(d, [0x80 | ADDR])
        assert r["exception"] == 0
