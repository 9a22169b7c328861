"""Board for the Raspberry Pi Pico (RP2040). Pin map: hal/REFERENCE.md."""
import machine
from machine import UART, WDT, Pin
from micropython import const

from hal.clock import Clock
from hal.common import HardwareBoard, UartSerial, door_switch, wire_buzzer, wire_common
from hal.counters import PolledCounter
from hal.rp2 import storage
from hal.rp2.pio_counter import PioCounter

WDT_MAX_MS = const(8_388)
WATCHDOG_SCRATCH0 = const(0x4005800C)  # kept by a watchdog reset, cleared at power-on


class Pins:
    TECH_TX = const(0)  # UART0 -> technician port
    TECH_RX = const(1)
    PRN_TX = const(4)  # UART1 -> printer
    PRN_RX = const(5)
    LAMPS = (2, 3, 6, 7)  # RED, AMBER, GREEN, WHITE
    SDA = const(8)  # I2C0 -> SSD1306
    SCL = const(9)
    BILL = const(10)  # PIO0 SM0
    COIN = const(11)  # PIO0 SM1
    INHIBIT = const(12)
    MOTION = const(14)
    SHAKER = const(15)  # PWM7 B
    BUZZER = const(13)  # PWM6 B, the buzzer
    SR_MISO = const(16)  # SPI0 RX <- 74HC165 QH
    SR_LOAD = const(17)  # 74HC165 SH/LD
    SR_SCK = const(18)
    SR_MOSI = const(19)  # SPI0 TX, not connected
    SAS_TX = const(20)  # PIO1 SM4: 9-bit UART -> SAS (RS-232 driver)
    SAS_RX = const(21)  # PIO1 SM5
    LOGIC_DOOR = const(26)  # logic area door switch (NC to GND: open or cut = 1)
    BILL_TX = const(22)  # PIO1 SM6: ID-003 8E1 -> bill validator
    BILL_RX = const(27)  # PIO1 SM7


def _make_wdt(ms):
    return WDT(timeout=min(ms, WDT_MAX_MS))


def _scratch_count():
    """Failed starts in the watchdog's SCRATCH0 (hal/restarts.py)."""
    from hal.restarts import StartCount
    mem = machine.mem32

    def save(v):
        mem[WATCHDOG_SCRATCH0] = v
    return StartCount(lambda: mem[WATCHDOG_SCRATCH0], save)


class Board(HardwareBoard):
    """Options: wdt_ms=5000, printer_baud=19200, tech_baud=115200,
    motion_sensor=True, journal=True (needs the frozen _boot.py layout),
    role="cabinet" | "dome" | "station" (hal/role.py: a table's
    dome has no money devices, printer or SAS and runs the table link on
    UART1; a station has no shaker and runs it on PIO0, hal/REFERENCE.md
    "Table link")."""

    platform = "rp2"

    def __init__(self, wdt_ms=5000, printer_baud=19200, tech_baud=115200,
                 motion_sensor=True, journal=True, role="cabinet"):
        clock = Clock()
        station = role == "station"
        # a station has no shaker or motion sensor: GP15/GP14 carry its table link
        set_duty, inputs, display, lamps, set_inhibit, motion = wire_common(
            machine, Pins, 0, motion_sensor and not station, clock.ticks_ms, True,
            shaker=not station)
        bill = PolledCounter(PioCounter(0, Pins.BILL).read, clock.ticks_ms)
        coin = PolledCounter(PioCounter(1, Pins.COIN).read, clock.ticks_ms)
        printer_uart = None if role == "dome" else \
            UART(1, printer_baud, tx=Pin(Pins.PRN_TX), rx=Pin(Pins.PRN_RX))
        tech = UartSerial(UART(0, tech_baud, tx=Pin(Pins.TECH_TX), rx=Pin(Pins.TECH_RX)))
        flash = storage.journal_device() if journal else None
        HardwareBoard.__init__(self, clock, set_duty, inputs, display, lamps, printer_uart,
                               bill, coin, set_inhibit, motion, _make_wdt, flash, tech, wdt_ms)
        self.generation = storage.generation_device() if journal else None
        self.starts = _scratch_count()
        if role == "dome":
            from hal.rp2.rs485 import dome_link
            self.link = dome_link()
            return
        if station:
            from hal.rp2.rs485 import station_link
            self.link = station_link()
        from hal.rp2.sas_pio import PioSas
        self.sas = PioSas(1, Pins.SAS_TX, Pins.SAS_RX)
        self.logic_door = door_switch(Pin, Pins.LOGIC_DOOR, clock.ticks_ms)
        # bills with escrow (hal/id003.py); a pulse validator on GP10 still counts
        from hal.id003 import Id003
        from hal.rp2.id003_port import Id003Port
        self.validator = Id003(Id003Port(1, 2, Pins.BILL_TX, Pins.BILL_RX), clock.ticks_ms)
        self.buzzer = wire_buzzer(machine, Pins.BUZZER)

    def reset(self):
        machine.reset()
