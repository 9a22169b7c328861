"""hal/rp2/pio_counter.py against a stand-in for the rp2 port's `rp2` and
`machine` modules: a read runs on every money pass (every 20 ms, bill and
coin), so it must hand StateMachine.exec() encoded instructions. Given a
string, the port assembles it in Python at each call (rp2.asm_pio_encode
runs exec() on the text): measured on the emulated Pico that was ~15 ms of
every 20 ms money pass."""
import importlib
import sys
import types


def _fake_port(monkeypatch):
    calls = {"encode": 0, "exec": []}
    rp2 = types.ModuleType("rp2")

    def asm_pio(**kw):
        return lambda fn: fn

    def encode(instr):
        return sum(instr.encode()) & 0xFFFF

    def asm_pio_encode(instr, sideset_count, sideset_opt=False):
        calls["encode"] += 1
        return encode(instr)

    class StateMachine:
        def __init__(self, *a, **kw):
            self.fifo = []

        def exec(self, instr):
            calls["exec"].append(instr)
            if encode("push(noblock)") in (instr, encode(str(instr))):
                self.fifo.append(7)     # X (7 here) pushed to the RX FIFO

        def active(self, on):
            pass

        def rx_fifo(self):
            return len(self.fifo)

        def get(self):
            return self.fifo.pop(0)

    rp2.asm_pio = asm_pio
    rp2.asm_pio_encode = asm_pio_encode
    rp2.StateMachine = StateMachine
    machine = types.ModuleType("machine")

    class Pin:
        IN = PULL_UP = 0

        def __init__(self, *a):
            pass

    machine.Pin = Pin
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.delitem(sys.modules, "hal.rp2.pio_counter", raising=False)
    return calls


def test_a_read_execs_instructions_encoded_once(monkeypatch):
    calls = _fake_port(monkeypatch)
    mod = importlib.import_module("hal.rp2.pio_counter")
    counter = mod.PioCounter(0, 10)
    encoded = calls["encode"]
    calls["exec"].clear()
    for _ in range(5):
        assert counter.read() == 7
    assert calls["exec"], "read() executes on the state machine"
    assert all(isinstance(i, int) for i in calls["exec"]), calls["exec"]
    assert calls["encode"] == encoded, "nothing assembled per read"
