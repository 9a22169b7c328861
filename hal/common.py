"""Board assembly shared by hal/rp2 and hal/esp32 (no `machine` in here).

The board modules create the `machine` objects for their pin map and pass them
in; everything that is not pin numbers or port quirks lives here once.

Input word (four 74HC165 in a chain read over SPI, all inputs active low with
10 k pull-ups; `ShiftInputs.read()` inverts, so 1 = active):
  bits 0-11  buttons 0-11, bit = button code (hal.buttons)
  bits 12-14 die 1 hall sensors A, B, C  (1 = magnet)
  bits 15-17 die 2 hall sensors A, B, C
  bit 18     door switch closed (door shut). Open door or a cut wire reads 0.
  bit 19     audit key turned
  bit 20     tilt switch closed
  bit 21     tie-off: D5 of U3 wired to GND, reads 1
  bit 22     tie-off: D6 of U3 wired to 3V3, reads 0
  bit 23     cash box door switch closed (door shut); open or a cut wire reads 0
  bits 24-31 buttons 12-19 (group keys, NUMBER, MYBETS): the fourth chip U4,
             kept apart (`ShiftInputs.high`) so the word stays a small int
A chain that does not answer reads MISO stuck high (all 0 after inversion)
or low (all 1): either breaks the tie-off pair, which `faults` reports.
"""
from micropython import const

from hal import faults as F
from hal.buttons import ALL_MASK, Buttons
from hal.debounce import Switch
from hal.dice_decode import Dice
from hal.lamps import Lamps
from hal.printer import EscPosPrinter
from hal.pulses import Money
from hal.counters import Activity
from hal.shaker import Shaker

DICE_SHIFT = const(12)
DICE_MASK = const(0x3F)
DOOR_CLOSED_BIT = const(1 << 18)
AUDIT_KEY_BIT = const(1 << 19)
TILT_BIT = const(1 << 20)
CASHBOX_CLOSED_BIT = const(1 << 23)
TIE_MASK = const(3 << 21)
TIE_VALUE = const(1 << 21)  # bit 21 tied active, bit 22 tied idle
INPUT_BYTES = const(4)
_LOW_BUTTONS = const(0xFFF)
_HIGH_SHIFT = const(12)     # U4's inputs are button codes 12-19
SHAKER_PWM_HZ = const(20_000)  # above hearing


class ShiftInputs:
    """74HC165 chain: pulse SH/LD low to latch, then clock the bits out by SPI
    (mode 0, MSB first). Byte k of the read = chip k (U1 drives MISO), so
    bit 8*k + n of the word = input D<n> of chip k. With `ticks_ms` the chain
    is read once a millisecond: a main-loop pass asks for the word for every
    switch, the dice and the buttons."""

    def __init__(self, spi, load, ticks_ms=None):
        self._spi = spi
        self._load = load  # callable(0/1) driving SH/LD
        self._ticks = ticks_ms
        self._buf = bytearray(INPUT_BYTES)
        self._at = None  # ticks of the last read
        self._word = 0
        self.high = 0  # U4's inputs from the last read (1 = active)

    def read(self):
        if self._ticks is not None:
            now = self._ticks()
            if now == self._at:
                return self._word
            self._at = now
        self._load(0)
        self._load(1)
        self._spi.readinto(self._buf)
        b = self._buf
        self.high = ~b[3] & 0xFF
        self._word = ~(b[0] | (b[1] << 8) | (b[2] << 16)) & 0xFFFFFF
        return self._word

    def answers(self):
        """True if the chain is there: the tie-off pair reads back."""
        return self.read() & TIE_MASK == TIE_VALUE


class UartSerial:
    """Technician read-out stream over a UART: non-blocking read(buf) -> n."""

    def __init__(self, uart):
        self._uart = uart

    def read(self, buf):
        n = self._uart.any()
        if not n:
            return 0
        if n > len(buf):
            n = len(buf)
        return self._uart.readinto(buf, n) or 0

    def write(self, data):
        return self._uart.write(data) or 0


def door_switch(pin_class, pin_no, ticks_ms):
    """A door switch on its own GPIO (NC to GND, pull-up): 1 = open or a cut
    wire, debounced like the chain's switches."""
    p = pin_class(pin_no, pin_class.IN, pin_class.PULL_UP)
    return Switch(p.value, ticks_ms)


class ConsoleSerial:
    """Technician read-out on the USB console (ESP32: the REPL's UART0 behind
    the USB bridge, since the three UARTs serve the printer, SAS and the
    console). The read-out leaves Ctrl-C alone (main.py decides: off on a
    release image, firmware/cabinet/repl_gate.py); a 0x03 it reads is a bad
    character (ERR 3), never a command."""

    def __init__(self):
        self._poll = None
        self._in = self._out = None

    def _open(self):
        import select
        import sys
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        poll = select.poll()
        poll.register(sys.stdin, select.POLLIN)
        self._poll = poll

    def read(self, buf):
        if self._poll is None:
            self._open()
        poll, inp = self._poll, self._in
        if poll is None or inp is None:
            return 0
        n = 0
        while n < len(buf) and poll.poll(0):
            b = inp.read(1)
            if not b:
                break
            buf[n] = b[0]
            n += 1
        return n

    def write(self, data):
        if self._out is None:
            self._open()
        out = self._out
        return (out.write(data) or 0) if out is not None else 0


class Watchdog:
    """feed(). The hardware watchdog is armed by the first feed() (it cannot be
    stopped afterwards), so a board object made at the REPL does not reset it."""

    def __init__(self, make_wdt, timeout_ms):
        self._make = make_wdt
        self.timeout_ms = timeout_ms
        self._wdt = None

    def feed(self):
        if self._wdt is None:
            self._wdt = self._make(self.timeout_ms)
        self._wdt.feed()


class HardwareBoard:
    """The board object for real hardware; see hal/__init__.py for contracts."""

    def __init__(self, clock, set_duty, inputs, display, lamp_outputs, printer_uart,
                 bill, coin, set_inhibit, motion_counter, make_wdt, flash, serial,
                 wdt_ms=5000):
        self.clock = clock
        self._faults = []
        try:
            display.init()
        except OSError:
            self._faults.append(F.DISPLAY)
        if flash is None:
            self._faults.append(F.JOURNAL)
        tk = clock.ticks_ms
        self.inputs = inputs
        motion = None if motion_counter is None else Activity(motion_counter, tk)
        self.shaker = Shaker(set_duty, tk, motion)
        self.dice = Dice(self._dice_raw)
        self.buttons = Buttons(self._button_raw)
        self.door = Switch(self._door_open_raw, tk)
        self.audit_key = Switch(self._key_raw, tk)
        self.tilt = Switch(self._tilt_raw, tk)
        self.cashbox_door = Switch(self._cashbox_open_raw, tk)
        self.display = display
        self.lamps = Lamps(lamp_outputs)
        self.money = Money(bill, coin, set_inhibit)
        self.printer = EscPosPrinter(printer_uart, tk)
        self.watchdog = Watchdog(make_wdt, wdt_ms)
        self.flash = flash
        from hal.marker import Marker
        self.provision = Marker("/journal.provisioned")
        self.serial = serial
        # the DS3231 shares the display's I2C bus (a stand-in clock or display
        # in a test may have neither)
        i2c = getattr(display, "i2c", None)
        attach = getattr(clock, "attach_rtc", None)
        if i2c is not None and attach is not None:
            from hal.ds3231 import DS3231
            attach(DS3231(i2c))

    def faults(self):
        """Codes (hal.faults) of the devices that do not answer: found at
        start-up (display, journal) or now (the input chain's tie-off bits)."""
        found = list(self._faults)
        if not self.inputs.answers():
            found.append(F.INPUTS)
        return found

    def _dice_raw(self):
        return (self.inputs.read() >> DICE_SHIFT) & DICE_MASK

    def _button_raw(self):
        inp = self.inputs
        w = inp.read()
        return ((w & _LOW_BUTTONS) | (inp.high << _HIGH_SHIFT)) & ALL_MASK

    def _door_open_raw(self):
        return 0 if self.inputs.read() & DOOR_CLOSED_BIT else 1

    def _key_raw(self):
        return 1 if self.inputs.read() & AUDIT_KEY_BIT else 0

    def _cashbox_open_raw(self):
        return 0 if self.inputs.read() & CASHBOX_CLOSED_BIT else 1

    def _tilt_raw(self):
        return 1 if self.inputs.read() & TILT_BIT else 0


def wire_buzzer(machine, pin):
    """The buzzer (hal/buzzer.py) on a PWM pin: a piezo through an NPN
    transistor, silent (duty 0) until a sound plays."""
    from hal.buzzer import Buzzer
    pwm = machine.PWM(machine.Pin(pin), freq=2000, duty_u16=0)

    def set_tone(freq):
        if freq:
            pwm.freq(freq)
            pwm.duty_u16(32768)
        else:
            pwm.duty_u16(0)
    return Buzzer(set_tone)


def wire_common(machine, pins, spi_id, motion_sensor, ticks_ms, hard_irq, shaker=True):
    """Create the parts whose wiring is the same on every port.

    `machine` is the port's machine module (passed in so this file stays
    platform-free), `pins` has SHAKER, SR_SCK, SR_MOSI, SR_MISO, SR_LOAD, SDA,
    SCL, LAMPS (tuple RED, AMBER, GREEN, WHITE), INHIBIT, MOTION.
    `hard_irq`: whether the port's Pin.irq takes `hard=` (rp2 does; esp32's
    machine_pin.c accepts only handler, trigger, wake and raises TypeError).
    `shaker`: False at a table's player station (its SHAKER pin is the link's).
    The display is made but not initialised (HardwareBoard does that).
    Returns (set_duty, inputs, display, lamp_outputs, set_inhibit, motion).
    """
    from hal.counters import IrqCounter
    from hal.ssd1306 import SSD1306_I2C

    Pin = machine.Pin
    if not shaker:              # a player station at a table: the dome shakes
        def set_duty(permille):
            pass
    else:
        pwm = machine.PWM(Pin(pins.SHAKER), freq=SHAKER_PWM_HZ, duty_u16=0)

        def set_duty(permille):
            pwm.duty_u16(permille * 65535 // 1000)

    spi = machine.SPI(spi_id, baudrate=1_000_000, polarity=0, phase=0,
                      sck=Pin(pins.SR_SCK), mosi=Pin(pins.SR_MOSI), miso=Pin(pins.SR_MISO))
    load = Pin(pins.SR_LOAD, Pin.OUT, value=1)
    i2c = machine.I2C(0, sda=Pin(pins.SDA), scl=Pin(pins.SCL), freq=400_000)
    lamps = tuple(Pin(p, Pin.OUT, value=0).value for p in pins.LAMPS)
    inhibit = Pin(pins.INHIBIT, Pin.OUT, value=1)  # inhibited from power-up

    def set_inhibit(flag):
        inhibit.value(1 if flag else 0)

    motion = None
    if motion_sensor:
        motion = IrqCounter(ticks_ms)
        pin = Pin(pins.MOTION, Pin.IN, Pin.PULL_UP)
        if hard_irq:
            pin.irq(motion.handler, Pin.IRQ_FALLING, hard=True)
        else:
            pin.irq(motion.handler, Pin.IRQ_FALLING)
    return set_duty, ShiftInputs(spi, load, ticks_ms), SSD1306_I2C(i2c), lamps, set_inhibit, motion
