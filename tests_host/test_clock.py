"""The real-time clock: DS3231 registers, the board clock built on it, a
clock that was never set (log, tickets), and a PIN lockout that the wall
clock cannot shorten. Plain asserts: CPython and the MicroPython unix port."""
import time

from hal.ds3231 import DS3231
from hal import buttons as B
from firmware.store import events as E
from firmware.audit import pin as PIN
from firmware.cabinet.ticket import civil
from test_audit_support import make as make_audit, menu, Driver, TECH_PIN
from test_e2e_session import make


class FakeI2C:
    """DS3231 register file behind readfrom_mem_into / writeto_mem."""

    def __init__(self):
        self.reg = bytearray(19)
        self.reg[0x0F] = 0x80          # fresh chip: oscillator-stop flag set
        self.fail = False

    def readfrom_mem_into(self, addr, mem, buf):
        if self.fail or addr != 0x68:
            raise OSError(19)
        buf[:] = self.reg[mem:mem + len(buf)]

    def writeto_mem(self, addr, mem, buf):
        if self.fail or addr != 0x68:
            raise OSError(19)
        self.reg[mem:mem + len(buf)] = buf


def test_ds3231_registers():
    bus = FakeI2C()
    rtc = DS3231(bus)
    assert rtc.read() is None                       # never set
    rtc.write((2030, 3, 15, 13, 45, 59), 5)
    assert bytes(bus.reg[0:7]) == b"\x59\x45\x13\x05\x15\x03\x30"
    assert bus.reg[0x0F] & 0x80 == 0                 # the flag is cleared
    assert rtc.read() == (2030, 3, 15, 13, 45, 59)
    bus.reg[2] = 0x40 | 0x20 | 0x11                  # 12-hour mode, 11 PM
    assert rtc.read()[3] == 23
    bus.reg[2] = 0x40 | 0x12                         # 12 AM
    assert rtc.read()[3] == 0
    rtc.write((2101, 1, 2, 3, 4, 5))
    assert rtc.read() == (2101, 1, 2, 3, 4, 5)       # century bit
    bus.reg[5] = 0x13                                # month 13: not a time
    assert rtc.read() is None
    bus.reg[5] = 0x01
    bus.reg[0x0F] |= 0x80                            # battery ran out
    assert rtc.read() is None
    bus.fail = True
    try:
        rtc.read()
        raise AssertionError("no OSError from a missing chip")
    except OSError:
        pass


def test_ds3231_keeps_its_oscillator_on_the_battery():
    """EOSC (control bit 7) set stops the clock at every power cut: the
    set-up clears it and keeps the other control bits."""
    bus = FakeI2C()
    bus.reg[0x0E] = 0x80 | 0x1C                      # EOSC, INTCN and the rate bits
    rtc = DS3231(bus)
    rtc.start()
    assert bus.reg[0x0E] == 0x1C
    rtc.start()                                      # already clear: nothing written
    assert bus.reg[0x0E] == 0x1C
    if hasattr(time, "ticks_ms"):                    # the board clock's set-up does it
        from hal.clock import Clock
        bus.reg[0x0E] = 0x9C
        Clock().attach_rtc(DS3231(bus))
        assert bus.reg[0x0E] == 0x1C


def test_board_clock_on_the_rtc():
    if not hasattr(time, "ticks_ms"):
        return  # hal.clock.Clock is MicroPython's: checked on the unix port
    from hal.clock import Clock
    bus = FakeI2C()
    c = Clock()
    c.attach_rtc(DS3231(bus))
    assert not c.valid and c.lost                    # oscillator stopped: not set
    t = 1899812700                                   # 2030-03-15 13:45:00 UTC
    c.set_time(t)
    assert c.valid and abs(c.now() - t) <= 1
    assert DS3231(bus).read() == (2030, 3, 15, 13, 45, 0)
    c2 = Clock()                                     # the next power-up
    c2.attach_rtc(DS3231(bus))
    assert c2.valid and abs(c2.now() - t) <= 1 and not c2.lost
    bus.fail = True
    c3 = Clock()
    c3.attach_rtc(DS3231(bus))                       # no chip: not valid, no crash
    assert not c3.valid and not c3.lost              # and no sign of a flat battery


def test_unset_clock_is_logged_and_printed():
    from hal.mock.board import Board
    from firmware.cabinet.drive import Driver as CabDriver
    b = Board(seed=2, fake_clock=True, flash_size=131072)
    b.clock.valid = False
    d = CabDriver(b, draw=False)
    ev = d.ctl.store.ledger.events
    assert any(ev.get(i)[2] == E.CLOCK_UNSET for i in range(ev.count))
    assert E.name(E.CLOCK_UNSET) == "clock NOT SET"
    d.bill(5)
    d.press("CASHOUT")
    assert "TIME NOT SET" in b.printer.tickets[-1]
    b.clock.valid = True
    d.bill(5)
    d.press("CASHOUT")
    assert "TIME NOT SET" not in b.printer.tickets[-1]
    # the time as the clock was set, no zone label (the host sets local time)
    assert b.printer.tickets[-1][2] == civil(b.clock.now())


def test_pin_lockout_runs_on_ticks_not_the_wall_clock():
    s, b = make_audit(1, 0)
    m = menu(s, b)
    d = Driver(m, b)
    for _ in range(PIN.MAX_TRIES):
        d.enter("Config (PIN)")
        d.pin("9999")
        d.press(B.ROLL)
    d.enter("Config (PIN)")
    assert "PIN LOCKED" in d.text()
    b.clock.set_time(b.clock.now() + 86400)          # the wall clock jumps a day
    d.press(B.CLEAR)
    d.enter("Config (PIN)")
    assert "PIN LOCKED" in d.text()
    b.clock.set_time(b.clock.now() - 10 * 86400)     # or back ten days
    d.press(B.CLEAR)
    d.enter("Config (PIN)")
    assert "PIN LOCKED" in d.text()
    b.clock.advance(PIN.LOCK_S * 1000 + 1000)        # the ticks: 15 minutes pass
    d.press(B.CLEAR)
    d.enter("Config (PIN)")
    d.pin(TECH_PIN)
    assert "CONFIG" in d.text(), d.text()
