"""The board drivers' calls against the ports' real signatures (CPython only).

The signatures come from MicroPython v1.28.0's C source (tools/port_signatures.py
reads each type's make_new / locals_dict / allowed_args[]), not from the stubs:
the esp32 stub lists Pin.irq(hard=) although esp32's machine_pin.c refuses it.
When the source tarball is there (../shared/rp2-emu or MICROPYTHON_SRC) it is
re-read and must equal the checked-in tools/port_signatures.json; a clone
without it checks against that table.

Fake `machine` / `rp2` / `esp32` modules are built from the table: every
constructor and method call is parsed the way py/argcheck.c mp_arg_parse_all
does (positionals fill non-KW_ONLY slots in order, keywords must name a slot
not filled, required slots present, nothing left over), so a keyword the port
does not take raises TypeError here as it would on the board. The real
hal/rp2 and hal/esp32 boards are then built and every part used.
"""
import importlib
import inspect
import json
import os
import sys
import time
import types

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import port_signatures as PS  # noqa: E402

from hal import faults as F  # noqa: E402
from hal.mock import fbuf  # noqa: E402


def _table():
    src = PS.default_source()
    stored = PS.load_table()
    if src is None:
        print("MicroPython source not found: checking against tools/port_signatures.json")
        return stored, None
    live = PS.extract(PS.read_sources(src))
    return stored, live


STORED, LIVE = _table()
SIG = LIVE or STORED


def test_checked_in_table_is_what_the_source_says():
    if LIVE is None:
        pytest.skip("MicroPython v1.28.0 source not present (set MICROPYTHON_SRC)")
    assert json.dumps(STORED, sort_keys=True) == json.dumps(LIVE, sort_keys=True), \
        "tools/port_signatures.json is stale: run python tools/port_signatures.py --write"


def parse(sig, name, args, kwargs):
    """Raises TypeError where the port would. `args` as the C function gets
    them (a method's include self)."""
    kind = sig["kind"]
    if kind == "py":
        params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    **({"default": None} if i >= len(sig["args"]) - sig["defaults"] else {}))
                  for i, n in enumerate(sig["args"])]
        if sig["varargs"]:
            params.append(inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL))
        params += [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=None) for n in sig["kwonly"]]
        if sig["varkw"]:
            params.append(inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD))
        inspect.Signature(params).bind(*args, **kwargs)
        return
    n = len(args)
    if kind == "pos":
        # the C arity counts self for methods; make_new has none
        lo, hi = sig["min"], sig["max"]
        if kwargs and not sig.get("kw", False):
            raise TypeError("%s takes no keyword arguments" % name)
        if n < lo or (hi is not None and n > hi):
            raise TypeError("%s: %d positional arguments, port takes %s..%s" % (name, n, lo, hi))
        return
    lead = sig["lead"]
    if n < lead:
        raise TypeError("%s: needs %d leading positional argument(s)" % (name, lead))
    pos = args[lead:]
    used = 0
    for i, (arg, kw_only, required) in enumerate(sig["args"]):
        if i < len(pos):
            if kw_only:
                raise TypeError("%s: extra positional arguments" % name)
        elif arg in kwargs:
            used += 1
        elif required:
            raise TypeError("%s: '%s' argument required" % (name, arg))
    if len(pos) > len(sig["args"]):
        raise TypeError("%s: extra positional arguments" % name)
    if used < len(kwargs):
        bad = sorted(set(kwargs) - {a[0] for a in sig["args"][len(pos):]})
        raise TypeError("%s: unexpected keyword argument(s) %s" % (name, bad))


class Ports:
    """Fake port modules whose every call is checked and recorded."""

    def __init__(self, port, behaviour):
        self.port = port
        self.used = set()
        self.table = SIG[port]
        self.behaviour = behaviour  # qualified method name -> callable(obj, *args)
        self.modules = {}
        for qual in self.table:
            if qual.count(".") == 1 and "methods" in self.table[qual]:
                mod, cls = qual.split(".")
                m = self.modules.setdefault(mod, types.ModuleType(mod))
                setattr(m, cls, self._type(qual))

    def _type(self, qual):
        spec = self.table[qual]
        ports = self

        def checked(name, sig, fn, skip_self):
            # a method's C arity and its table's lead both count self; a call
            # slot's arguments and a staticmethod's do not
            def call(*args, **kwargs):
                parse(sig, name, args[1:] if skip_self else args, kwargs)
                ports.used.add(name)
                return fn(*args, **kwargs) if fn else None
            return call

        attrs = {c: 1 << i for i, c in enumerate(spec["consts"])}

        def init(self, *args, **kwargs):
            parse(spec["new"], qual, args, kwargs)
            ports.used.add(qual)
            self.args, self.kwargs = args, kwargs
            hook = ports.behaviour.get(qual)
            if hook:
                hook(self, *args, **kwargs)
        attrs["__init__"] = init
        if "call" in spec:
            attrs["__call__"] = checked(qual + "()", spec["call"], ports.behaviour.get(qual + "()"), True)
        for mname, msig in spec["methods"].items():
            full = qual + "." + mname
            attrs[mname] = checked(full, msig, ports.behaviour.get(full), False)
            if mname == "find":  # esp32.Partition.find is a staticmethod
                attrs[mname] = staticmethod(checked(full, msig, ports.behaviour.get(full), False))
        return type(qual.split(".")[1], (), attrs)

    def install(self, monkeypatch):
        for name, mod in self.modules.items():
            monkeypatch.setitem(sys.modules, name, mod)
        monkeypatch.setitem(sys.modules, "framebuf", fbuf)
        monkeypatch.setattr(time, "ticks_ms", lambda: int(time.monotonic() * 1000) & 0x3FFFFFFF,
                            raising=False)
        monkeypatch.setattr(time, "ticks_us", lambda: int(time.monotonic() * 1e6) & 0x3FFFFFFF,
                            raising=False)                  # hal/esp32/sas_uart.py
        for name in list(sys.modules):
            if name.startswith(("hal.rp2", "hal.esp32", "hal.common", "hal.ssd1306", "hal.clock")):
                monkeypatch.delitem(sys.modules, name)


# four chips since issue 11 (U4: group keys, NUMBER, MYBETS), U4 idle high
TIE_OK = bytes((0xFF, 0xFF, 0xFF & ~(1 << 5), 0xFF))


def _common_behaviour():
    def spi_read(self, buf, *a):
        buf[:] = TIE_OK

    def uart_write(self, data, *a):
        if data[:2] == b"\x10\x04":
            self.reply = 0x12  # printer: status OK
        return len(data)

    def uart_any(self):
        return 1 if getattr(self, "reply", None) is not None else 0

    def uart_readinto(self, buf, n=None):
        buf[0], self.reply = self.reply, None
        return 1
    return {"machine.SPI.readinto": spi_read, "machine.UART.write": uart_write,
            "machine.UART.any": uart_any, "machine.UART.readinto": uart_readinto,
            "machine.Pin.value": lambda self, *a: 0}


def _flash_behaviour(qual, blocks):
    def ioctl(self, op, arg):
        return {4: blocks, 5: 4096}.get(op, 0)

    def readblocks(self, n, buf, off=0):
        for i in range(len(buf)):
            buf[i] = 0xFF
    return {qual + ".ioctl": ioctl, qual + ".readblocks": readblocks}


def _exercise(board):
    """Every part of the board contract that reaches a port call."""
    now = board.clock.ticks_ms()
    assert board.faults() == []
    board.shaker.start(600, 100)
    board.shaker.tick(now + 50)
    board.shaker.stop()
    board.shaker.motion()
    assert board.dice.read() == (0, 0)
    board.buttons.poll(now)
    board.door.value()
    board.logic_door.value()
    board.cashbox_door.value()
    assert board.sas.read(bytearray(8), bytearray(8)) == 0
    board.sas.write(b"\x01\x02")
    board.money.inhibit(False)
    assert board.money.counts() == (0, 0)
    board.lamps.set(5)
    board.buzzer.play(((2000, 10),), now)
    board.buzzer.tick(now + 20)
    board.display.fill(1)
    board.display.show()
    board.watchdog.feed()
    board.watchdog.feed()
    assert board.printer.status() == 0
    board.serial.write(b"OK\n")
    board.serial.read(bytearray(8))
    buf = bytearray(4096)
    board.flash.readblocks(0, buf)
    board.flash.writeblocks(0, buf[:256], 0)
    board.flash.ioctl(6, 0)
    assert board.starts.get() == 0, "power-on: no failed start"
    board.starts.set(2)
    assert board.starts.get() == 2


RP2_USED = {"machine.Pin", "machine.Pin()", "machine.Pin.irq", "machine.Pin.value", "machine.PWM", "machine.PWM.duty_u16",
            "machine.PWM.freq",
            "machine.SPI", "machine.SPI.readinto", "machine.I2C", "machine.I2C.writeto",
            "machine.I2C.writevto", "machine.UART", "machine.UART.any", "machine.UART.write",
            "machine.UART.readinto", "machine.WDT", "machine.WDT.feed", "rp2.StateMachine",
            "rp2.StateMachine.exec", "rp2.StateMachine.active", "rp2.StateMachine.get",
            "rp2.StateMachine.rx_fifo", "rp2.StateMachine.irq", "rp2.StateMachine.put", "rp2.Flash", "rp2.Flash.ioctl", "rp2.Flash.readblocks",
            "rp2.Flash.writeblocks"}


def test_rp2_board_calls_match_rp2_port(monkeypatch):
    beh = _common_behaviour()
    beh.update(_flash_behaviour("rp2.Flash", 352))
    beh["rp2.StateMachine.get"] = lambda self, *a: 0
    beh["rp2.StateMachine.rx_fifo"] = lambda self: 0
    ports = Ports("rp2", beh)
    rp2 = ports.modules["rp2"]
    # machine's module functions (extmod/modmachine.c), not types, so not in the table:
    # disable_irq() takes no argument, enable_irq(state) one
    machine = ports.modules["machine"]
    machine.disable_irq = lambda: 0
    machine.enable_irq = lambda state: None

    def asm_pio(*args, **kwargs):
        parse(SIG["rp2"]["rp2.asm_pio"], "rp2.asm_pio", args, kwargs)
        ports.used.add("rp2.asm_pio")
        return lambda fn: fn
    rp2.asm_pio = asm_pio

    def asm_pio_encode(*args, **kwargs):
        parse(SIG["rp2"]["rp2.asm_pio_encode"], "rp2.asm_pio_encode", args, kwargs)
        ports.used.add("rp2.asm_pio_encode")
        return 0
    rp2.asm_pio_encode = asm_pio_encode
    # rp2_pio.c's PIO class constants (the table lists types' methods only)
    rp2.PIO = types.SimpleNamespace(IN_LOW=0, IN_HIGH=1, OUT_LOW=2, OUT_HIGH=3,
                                    SHIFT_LEFT=0, SHIFT_RIGHT=1,
                                    JOIN_NONE=0, JOIN_TX=1, JOIN_RX=2)
    monkeypatch.setitem(sys.modules, "vfs", types.ModuleType("vfs"))
    # extmod/machine_mem.c: mem32[addr] reads and writes a word; the watchdog's
    # SCRATCH0 (RP2040 datasheet 4.7.6: WATCHDOG_BASE 0x40058000 + 0x0c) is
    # 0 at power-on; pico-sdk's watchdog_reboot() writes SCRATCH4-7 only
    words = {0x4005800C: 0}
    ports.modules["machine"].mem32 = words
    ports.install(monkeypatch)
    board_mod = importlib.import_module("hal.rp2.board")
    _exercise(board_mod.Board())
    assert set(words) == {0x4005800C}, "no other register written"
    missing = RP2_USED - ports.used
    assert not missing, missing
    assert "rp2.asm_pio" in ports.used
    assert "rp2.asm_pio_encode" in ports.used


def test_esp32_board_calls_match_esp32_port(monkeypatch):
    beh = _common_behaviour()
    beh.update(_flash_behaviour("esp32.Partition", 64))
    present = [True]

    def find(*args, **kwargs):
        cls = ports.modules["esp32"].Partition
        return [cls.__new__(cls)] if present[0] else []
    beh["esp32.Partition.find"] = find
    rtc_mem = [b""]  # machine_rtc.c: memory() reads, memory(data) writes (empty at power-on)

    def memory(self, *data):
        if data:
            rtc_mem[0] = bytes(data[0])
        return rtc_mem[0]
    beh["machine.RTC.memory"] = memory
    ports = Ports("esp32", beh)
    machine = ports.modules["machine"]

    class Counter:  # machine.Counter is Python in the port (modules/machine.py)
        RISING, FALLING = 1, 2

        def __init__(self, *args, **kwargs):
            parse(SIG["esp32"]["machine.Counter.__init__"], "machine.Counter", (self,) + args, kwargs)
            rest = {k: v for k, v in kwargs.items() if k != "filter_ns"}
            parse(SIG["esp32"]["machine.Counter._configure"], "machine.Counter._configure",
                  (self,) + args[1:], rest)
            ports.used.add("machine.Counter")
            self.filter_ns = kwargs.get("filter_ns", 0)
            counters.append(self)

        def value(self, *args, **kwargs):
            parse(SIG["esp32"]["machine.Counter.value"], "machine.Counter.value", (self,) + args, kwargs)
            ports.used.add("machine.Counter.value")
            return 0
    counters = []
    machine.Counter = Counter
    ports.install(monkeypatch)
    # the technician read-out is the USB console here: give it one to poll
    monkeypatch.setattr(sys, "stdin", open(os.devnull))
    board_mod = importlib.import_module("hal.esp32.board")
    _exercise(board_mod.Board())
    want = {n for n in RP2_USED if n.startswith("machine.")} | {
        "machine.Counter", "machine.Counter.value", "machine.RTC", "machine.RTC.memory",
        "esp32.Partition.find",
        "esp32.Partition.ioctl", "esp32.Partition.readblocks", "esp32.Partition.writeblocks"}
    missing = want - ports.used
    assert not missing, missing
    # the PCNT filter: at the port's maximum (its clamp), never refused
    lim = SIG["esp32_pcnt_filter"]
    cycles = min(max(0, counters[0].filter_ns * lim["apb_mhz"] // 1000), lim["max_cycles"])
    assert cycles == lim["max_cycles"] == lim["pcnt_refuses_above"]
    assert (counters[0].filter_ns - 1) * lim["apb_mhz"] // 1000 < lim["max_cycles"]  # no more than needed

    # Verify's image reader: the running partition through the same protocol
    ports.used.discard("esp32.Partition.readblocks")
    assert importlib.import_module("hal.esp32.image").image() is None  # the fake reads erased
    assert {"esp32.Partition", "esp32.Partition.readblocks"} <= ports.used

    # no journal partition: a named fault, not AttributeError
    present[0] = False
    board = board_mod.Board()
    assert board.flash is None and F.JOURNAL in board.faults()


def test_checker_refuses_what_the_ports_refuse():
    esp_irq = SIG["esp32"]["machine.Pin"]["methods"]["irq"]
    rp2_irq = SIG["rp2"]["machine.Pin"]["methods"]["irq"]
    pin, h = object(), object()
    parse(rp2_irq, "rp2 Pin.irq", (pin, h, 2), {"hard": True})
    with pytest.raises(TypeError):
        parse(esp_irq, "esp32 Pin.irq", (pin, h, 2), {"hard": True})  # the start-up crash of issue 10
    parse(esp_irq, "esp32 Pin.irq", (pin, h, 2), {})
    with pytest.raises(TypeError):  # handler, trigger, wake: no fourth
        parse(esp_irq, "esp32 Pin.irq", (pin, h, 2, None, 1), {})
    with pytest.raises(TypeError):  # Flash takes keywords only
        parse(SIG["rp2"]["rp2.Flash"]["new"], "rp2.Flash", (0, 4096), {})
    with pytest.raises(TypeError):  # prog is required
        parse(SIG["rp2"]["rp2.StateMachine"]["new"], "StateMachine", (0,), {})
    with pytest.raises(TypeError):  # keyword for a slot already given positionally
        parse(SIG["esp32"]["machine.UART"]["new"], "UART", (1, 9600), {"baudrate": 9600})
    with pytest.raises(TypeError):  # duty_u16 is keyword-only on both ports
        parse(SIG["rp2"]["machine.PWM"]["new"], "PWM", (1, 1000, 0), {})
