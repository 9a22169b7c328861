"""A display, printer or input chain that does not answer, or a missing
journal: the cabinet locks with the device's name (lock screen, tower-light
code, event log) and keeps running, never stopping in a traceback. The
technician read-out still answers. Plain asserts: pytest and the MicroPython
unix port (tests_host/mp_runner.py test_device_faults).
"""
from hal import faults as F
from hal import lamps as LP
from hal.common import HardwareBoard, ShiftInputs
from hal.mock.board import Board
from firmware.cabinet.drive import Driver
from firmware.store import events as E
from firmware.store import ledger as L


def _timeout(*args):
    raise OSError(110)  # ETIMEDOUT, as hal/ssd1306.py write_cmd raised on the emulated Pico


def make(dead=()):
    """A mock board with the `dead` devices not answering: the display and
    printer raise OSError when used, the board reports the input chain (its
    tie-off bits) and a missing journal in faults(), as hardware does."""
    b = Board(seed=7, fake_clock=True, flash_size=131072, flash=F.JOURNAL not in dead)
    if F.DISPLAY in dead:
        kill_display(b)
    if F.PRINTER in dead:
        b.printer.status = _timeout
        b.printer.print_ticket = _timeout
    reported = [c for c in dead if c in (F.INPUTS, F.JOURNAL)]
    b.faults = lambda: reported
    return b, Driver(b)


def kill_display(b):
    b.display.show = _timeout


def events_of(led, code):
    ev = led.events
    return [ev.get(i)[3] for i in range(ev.count) if ev.get(i)[2] == code]


def readout(b, d, line):
    b.serial.host_write(line)
    d.run(200)
    return b.serial.host_read().decode()


def white_flashes(b, d, ms):
    """Rising edges of the WHITE lamp over `ms` of running."""
    n = 0
    was = b.lamps.state & LP.WHITE
    for _ in range(ms // 50):
        d.run(50)
        now = b.lamps.state & LP.WHITE
        if now and not was:
            n += 1
        was = now
    return n


def test_dead_display_locks_named_and_blinks_its_code():
    b, d = make((F.DISPLAY,))
    d.run(500)
    led = d.ctl.store.ledger
    assert led.lock == L.LK_DEVICE and led.lock_arg == F.DISPLAY
    assert events_of(led, E.DEVICE_FAULT) == [F.DISPLAY]
    assert led.suspended() == "DEVICE FAULT"
    assert d.ctl.lines[0].strip() == "DEVICE FAULT" and d.ctl.lines[2].strip() == "DISPLAY"
    assert b.lamps.state & LP.RED and not b.lamps.state & LP.GREEN
    # code 1: one WHITE flash per (2 * 1 + 3) slots of 400 ms = 2 s
    assert white_flashes(b, d, 8000) == 4
    assert b.money.inhibited
    assert b.display.frames == 0 and d.ctl.redraws == 0  # never retried: each try waits for the bus timeout


def test_dead_input_chain_blinks_three_and_ignores_its_garbage():
    b, d = make((F.INPUTS,))
    b.door.set(1)  # garbage from a dead chain must not be logged as a door
    d.run(500)
    led = d.ctl.store.ledger
    assert led.lock == L.LK_DEVICE and led.lock_arg == F.INPUTS
    assert not led.door_open and not events_of(led, E.DOOR_OPEN)
    assert white_flashes(b, d, 2 * (2 * 3 + 3) * 400) == 2 * 3  # two whole cycles


def test_dead_printer_raising_oserror_locks_at_power_up():
    b, d = make((F.PRINTER,))
    led = d.ctl.store.ledger
    assert led.lock == L.LK_DEVICE and led.lock_arg == F.PRINTER
    assert d.on_screen("PRINTER") and d.on_screen("NOT ANSWERING")
    reply = readout(b, d, b"METERS\n")
    assert reply.startswith("OK METERS"), reply


def test_display_dying_in_play_keeps_credits_and_readout():
    b, d = make()
    d.bill(5)
    led = d.ctl.store.ledger
    assert led.table.credits == 500 and not led.lock
    kill_display(b)
    d.press("CHIP")  # forces a redraw: show() raises now
    d.run(300)
    assert led.lock == L.LK_DEVICE and led.lock_arg == F.DISPLAY
    assert led.table.credits == 500
    assert "STATUS" in readout(b, d, b"STATUS\n")


def test_second_fault_under_a_handpay_lock_is_logged_not_overwritten():
    b, d = make()
    st = d.ctl.store
    assert st.lock(b.clock.now(), L.LK_HANDPAY, 1234) == 0
    kill_display(b)
    d.ctl.tick_display(b.clock.ticks_ms(), True)
    assert st.ledger.lock == L.LK_HANDPAY and st.ledger.lock_arg == 1234
    assert events_of(st.ledger, E.DEVICE_FAULT) == [F.DISPLAY]


def test_missing_journal_is_named_critical_not_attribute_error():
    b, d = make((F.JOURNAL,))
    assert b.flash is None
    d.run(300)
    ctl = d.ctl
    assert ctl.store.critical and F.JOURNAL in ctl.faults
    assert d.on_screen("NO JOURNAL") and d.on_screen("PARTITION")
    assert b.lamps.state & LP.RED
    d.press("ROLL")
    d.bill(3)
    assert ctl.store.ledger.table.credits == 0 and b.money.inhibited
    assert ctl.store.ram_clear(b.clock.now()) != 0  # nothing to clear into
    assert "critical=1" in readout(b, d, b"STATUS\n")


class _DeadDisplay:
    def init(self):
        raise OSError(110)  # what hal/ssd1306.py write_cmd raised on the emulated Pico


class _Spi:
    def __init__(self, data):
        self.data = data

    def readinto(self, buf):
        buf[:] = self.data


def _hardware_board(display, spi_bytes, flash=None):
    inputs = ShiftInputs(_Spi(spi_bytes), lambda v: None)
    none = lambda *a: None  # noqa: E731

    class Counter:
        def count(self):
            return 0

        def last_ms(self):
            return None
    from hal.mock.clock import FakeClock
    return HardwareBoard(FakeClock(), none, inputs, display, (), None, Counter(), Counter(),
                         none, None, none, flash, None)


def test_hardware_board_reports_display_and_chain_instead_of_raising():
    # four chips since issue 11 (U4: the group keys, NUMBER, MYBETS), idle high
    tie_ok = bytes((0xFF, 0xFF, 0xFF & ~(1 << 5), 0xFF))  # D5 of U3 low (tied to GND)
    b = _hardware_board(_DeadDisplay(), tie_ok)
    assert b.faults() == [F.DISPLAY, F.JOURNAL]
    for stuck in (b"\xff\xff\xff\xff", b"\x00\x00\x00\x00"):  # MISO floating high / shorted low
        assert F.INPUTS in _hardware_board(_DeadDisplay(), stuck).faults()
    assert ShiftInputs(_Spi(tie_ok), lambda v: None).answers()
