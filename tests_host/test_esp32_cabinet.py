"""The cabinet on the ESP32 board (hal/esp32), on the host: the real
controller over fake `machine` / `esp32` modules whose every call is parsed
against MicroPython v1.28.0's esp32 port (test_port_signatures.Ports), with
the esp32 port's behaviour where it differs from rp2:
- the technician read-out is the USB console (the REPL's UART0 behind the
  USB bridge): sys.stdin polled with select, replies on sys.stdout; the
  read-out never calls micropython.kbd_intr itself (Ctrl-C is main.py's:
  off on a release image, firmware/cabinet/repl_gate.py);
- Pin.irq takes no `hard=` (machine_pin.c refuses it: the fake raises
  TypeError as the port would);
- money pulses are counted by PCNT through `machine.Counter` (Python in the
  port, modules/machine.py);
- the journal is the "journal" data partition (esp32.Partition, here over the
  NOR flash model).
What this does not prove (docs/TESTING.md, "ESP32"): timing, the heap of the
ESP32 build (no PSRAM: ~110 KB), ESP-IDF's UART and PCNT drivers themselves.
CPython/pytest only (the fakes need os.pipe and select on a real fd)."""
import importlib
import os
import sys
import time

from hal.marker import Marker
from hal.mock.norflash import NorFlash
from test_port_signatures import SIG, Ports, _common_behaviour, parse

import micropython


def _console(monkeypatch):
    """sys.stdin on a pipe the test writes (select.poll needs a real fd),
    sys.stdout's buffer collected."""
    r, w = os.pipe()

    class Stdin:  # unbuffered, as MicroPython's: poll() sees every byte not read yet
        buffer = os.fdopen(r, "rb", buffering=0)

        def fileno(self):
            return r
    stdin = Stdin()

    class Out:
        def __init__(self):
            self.data = bytearray()

        def write(self, b):
            self.data += b
            return len(b)

        def flush(self):
            pass

    class Stdout:
        buffer = Out()

        def write(self, s):
            return len(s)

        def flush(self):
            pass
    out = Stdout()
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", out)
    return w, out.buffer


def _esp32(monkeypatch):
    # one NOR chip per partition of hal/esp32/partitions-4MiB.csv the board finds by label
    flashes = {"journal": NorFlash(64 * 4096), "generation": NorFlash(8 * 4096)}
    beh = _common_behaviour()
    # the chain: tie-off pair right, main and cash box doors closed (active low), no key

    def spi_read(self, buf, *a):
        buf[:] = bytes((0xFF, 0xFF, 0xFF & ~(1 << 5 | 1 << 2 | 1 << 7), 0xFF))
    beh["machine.SPI.readinto"] = spi_read
    beh["esp32.Partition.ioctl"] = lambda self, op, arg: self.flash.ioctl(op, arg)
    beh["esp32.Partition.readblocks"] = lambda self, n, buf, *off: self.flash.readblocks(n, buf, *off)
    beh["esp32.Partition.writeblocks"] = lambda self, n, buf, *off: self.flash.writeblocks(n, buf,
                                                                                      *off)
    beh["machine.RTC.memory"] = lambda self, *d: b""
    irqs = []
    beh["machine.Pin.irq"] = lambda self, *a, **kw: irqs.append(kw)
    ports = Ports("esp32", beh)

    def find(*args, label=None, **kwargs):
        cls = ports.modules["esp32"].Partition
        part = cls.__new__(cls)
        part.flash = flashes[label]
        return [part]
    ports.modules["esp32"].Partition.find = staticmethod(find)
    counters = []

    class Counter:  # machine.Counter is Python in the port (modules/machine.py)
        RISING, FALLING = 1, 2

        def __init__(self, *args, **kwargs):
            parse(SIG["esp32"]["machine.Counter.__init__"], "machine.Counter", (self,) + args, kwargs)
            self.count = 0
            counters.append(self)

        def value(self, *args):
            parse(SIG["esp32"]["machine.Counter.value"], "machine.Counter.value", (self,) + args, {})
            return self.count
    ports.modules["machine"].Counter = Counter
    ports.install(monkeypatch)
    intr = []
    monkeypatch.setattr(micropython, "kbd_intr", lambda c: intr.append(c), raising=False)
    return importlib.import_module("hal.esp32.board"), counters, irqs, intr, flashes


def _run(ctl, ms):
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        ctl.step()
        time.sleep(0.002)


def test_cabinet_on_the_esp32_board(monkeypatch):
    stdin_w, stdout = _console(monkeypatch)
    board_mod, counters, irqs, intr, flashes = _esp32(monkeypatch)
    board = board_mod.Board()
    board.provision = Marker(None)  # the board's is a file at "/": the host's root here
    assert board.platform == "esp32" and board.faults() == []
    assert irqs and all("hard" not in kw for kw in irqs), "esp32's Pin.irq takes no hard="
    from firmware.cabinet.controller import Controller
    ctl = Controller(board)
    assert not ctl.store.critical and ctl.faults == [], (ctl.store.reason, ctl.faults)
    _run(ctl, 300)
    assert not board.money.inhibited, "ready: money accepted"

    counters[0].count += 5      # a $5 note as 5 PCNT pulses (bill_pulse 1 = $1)
    _run(ctl, 900)              # the burst ends after 500 ms without a pulse
    assert ctl.store.ledger.table.credits == 500
    # the generation log (the one-record rollback check) is its own partition, written
    assert board.generation is not None and board.generation.flash is flashes["generation"]
    assert ctl.store.generation.value > 0
    assert flashes["generation"].image() != b"\xff" * 8 * 4096

    os.write(stdin_w, b"METERS\nSTATUS\n")
    _run(ctl, 300)
    text = stdout.data.decode()
    assert "OK METERS" in text and "\nbills_in 500 " in text, text[:300]
    assert "credits=500" in text
    assert intr == [], "the read-out never changes Ctrl-C on the REPL's console"
    os.close(stdin_w)
