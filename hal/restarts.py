"""Failed starts, counted where a reset keeps them but a power cycle does
not: rp2, the watchdog's SCRATCH0 register (kept through a watchdog reset
and machine.reset(), which is itself a watchdog reboot; cleared at power-on;
pico-sdk's reboot uses SCRATCH4-7 only); esp32, RTC slow memory
(`machine.RTC().memory()`, kept through WDT and soft resets); the mock, a
list a test or the simulator keeps across its restarts. Not a file: the
count changes at every start and the filesystem is flash that wears, and a
power cycle (the technician's first move) should give the cabinet its tries
back. firmware/cabinet/crashlock.py decides what the count means."""
from micropython import const

_MAGIC = const(0x5CA0)  # upper half-word: a value this firmware wrote (below 0x8000: no sign)


class StartCount:
    """get() -> starts not yet found healthy (0 after a power-on or any
    value this firmware did not write); set(n). `load()` -> int and
    `save(int)` hold one 32-bit word."""

    def __init__(self, load, save):
        self._load = load
        self._save = save

    def get(self):
        v = self._load()
        return v & 0xFF if v >> 16 == _MAGIC else 0

    def set(self, n):
        self._save(_MAGIC << 16 | min(n, 0xFF))


def in_ram(cell=None):
    """A StartCount in a list (the mock board; a test passes the same list
    to the boards of successive restarts)."""
    cell = [0] if cell is None else cell

    def save(v):
        cell[0] = v
    return StartCount(lambda: cell[0], save)
