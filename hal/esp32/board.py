"""Board for an ESP32 (WROOM-32 module). Pin map: hal/REFERENCE.md."""
import esp32
import machine
from machine import UART, WDT, Counter, Pin
from micropython import const

from hal.clock import Clock
from hal.common import ConsoleSerial, HardwareBoard, door_switch, wire_buzzer, wire_common
from hal.counters import PolledCounter

# The PCNT glitch filter tops out at 1023 APB cycles (80 MHz): 12.8 us. The
# port's machine.Counter clamps filter_ns * 80 // 1000 to 1023 and
# esp32.PCNT(filter=) refuses more (ports/esp32/modules/machine.py,
# esp32_pcnt.c), so it cannot reject glitches at the rp2's 3.3 ms: the
# reference design puts an RC + Schmitt stage (tau 3.3 ms) in front of the
# pin and the PCNT filters what is left at its maximum.
PULSE_FILTER_NS = const(12_788)
JOURNAL_LABEL = "journal"
GENERATION_LABEL = "generation"


class Pins:
    LAMPS = (13, 14, 32, 4)  # RED, AMBER, GREEN, WHITE
    PRN_TX = const(17)  # UART2 -> printer
    PRN_RX = const(16)
    SDA = const(21)  # I2C0 -> SSD1306
    SCL = const(22)
    BILL = const(35)  # PCNT unit 0 (input-only pin, external pull-up)
    COIN = const(39)  # PCNT unit 1 (input-only pin, external pull-up)
    INHIBIT = const(27)
    MOTION = const(26)
    SHAKER = const(25)
    BUZZER = const(2)  # the buzzer (strapping pin: held low at reset by the driver's pull-down)
    SR_SCK = const(18)  # SPI2 <- 74HC165 chain
    SR_MISO = const(19)
    SR_MOSI = const(23)  # not connected
    SR_LOAD = const(5)
    SAS_TX = const(33)  # UART1 -> SAS (RS-232 driver); the read-out is on the USB console
    SAS_RX = const(34)
    LOGIC_DOOR = const(36)  # input-only, external pull-up; NC to GND: open or cut = 1


def data_partition(label):
    """The raw data partition `label`, or None if the partition table has
    none (flash the table in hal/esp32/partitions-4MiB.csv). Without the
    journal the board reports hal.faults.JOURNAL and the controller locks with
    that name; without the generation log the journal's rollback check keeps
    its one-sector anchor. find() uses block_size=4096 by default: only then
    does ioctl(6) erase (smaller sizes go through a non-power-safe cache)."""
    found = esp32.Partition.find(esp32.Partition.TYPE_DATA, 0xFF, label=label)
    return found[0] if found else None


def _pcnt_reader(unit, pin_no):
    c = Counter(unit, Pin(pin_no, Pin.IN), edge=Counter.FALLING, filter_ns=PULSE_FILTER_NS)
    return c.value


def _make_wdt(ms):
    return WDT(timeout=ms)


def _rtc_count():
    """Failed starts in RTC slow memory (hal/restarts.py): the port keeps
    `RTC.memory()` through WDT and soft resets (RTC_NOINIT_ATTR)."""
    from hal.restarts import StartCount
    rtc = machine.RTC()

    def load():
        m = rtc.memory()
        return int.from_bytes(m[:4], "little") if len(m) >= 4 else 0

    def save(v):
        rtc.memory(v.to_bytes(4, "little"))
    return StartCount(load, save)


class Board(HardwareBoard):
    """Options: wdt_ms=5000, printer_baud=19200,
    motion_sensor=True, journal=True, role="cabinet" | "dome" (a table's
    dome: the table link on UART2 instead of the printer, no SAS;
    hal/REFERENCE.md "Table link"; a station needs a fourth UART)."""

    platform = "esp32"

    def __init__(self, wdt_ms=5000, printer_baud=19200,
                 motion_sensor=True, journal=True, role="cabinet"):
        if role == "station":
            raise ValueError("no ESP32 station: its UARTs serve the console, SAS and the printer")
        clock = Clock()
        set_duty, inputs, display, lamps, set_inhibit, motion = wire_common(
            machine, Pins, 2, motion_sensor, clock.ticks_ms, False)
        bill = PolledCounter(_pcnt_reader(0, Pins.BILL), clock.ticks_ms)
        coin = PolledCounter(_pcnt_reader(1, Pins.COIN), clock.ticks_ms)
        dome = role == "dome"
        printer_uart = None if dome else UART(2, printer_baud, tx=Pins.PRN_TX, rx=Pins.PRN_RX)
        tech = ConsoleSerial()
        flash = data_partition(JOURNAL_LABEL) if journal else None
        HardwareBoard.__init__(self, clock, set_duty, inputs, display, lamps, printer_uart,
                               bill, coin, set_inhibit, motion, _make_wdt, flash, tech, wdt_ms)
        self.generation = data_partition(GENERATION_LABEL) if journal else None
        self.starts = _rtc_count()
        if dome:
            from hal.esp32.rs485 import dome_link
            self.link = dome_link()
            return
        from hal.esp32.sas_uart import UartSas
        self.sas = UartSas(1, Pins.SAS_TX, Pins.SAS_RX)
        self.logic_door = door_switch(Pin, Pins.LOGIC_DOOR, clock.ticks_ms)
        self.buzzer = wire_buzzer(machine, Pins.BUZZER)

    def reset(self):
        machine.reset()
