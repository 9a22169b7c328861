"""The SAS line's PIO 9-bit UART (hal/rp2/sas_pio.py) on the real MicroPython
v1.28.0 rp2 port, emulated (rp2040js through ../shared/rp2-emu's reference
harness; CPython/pytest only, skipped with one line without the material or
node): TX wired to RX, the machine's bytes come back with the ninth bit
clear, and a byte sent with the ninth bit set (what a SAS host does to the
first byte of a message) comes back marked as the wakeup byte."""
import json
import os
import subprocess

from test_emu_release import _harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = """
import time
from sas_pio import PioSas
s = PioSas(1, 20, 21)
s.write(b"\\x01\\x55\\xaa\\x00\\xff")
s._tx.put(0x181)
time.sleep_ms(20)
buf = bytearray(16)
wake = bytearray(16)
n = s.read(buf, wake)
print("GOT", n, bytes(buf[:n]).hex(), bytes(wake[:n]).hex(), s.overruns)
"""

MJS = """
import fs from 'fs';
import { Pico } from './run.mjs';
const pico = new Pico({});
await pico.waitReady();
await pico.enterRawRepl();
pico.wire(20, 21);
await pico.putFile('/sas_pio.py', fs.readFileSync(%s));
const r = await pico.exec(%s, { wallMs: 120000 });
console.log(r.out, r.err);
process.exit(0);
"""


def test_pio_nine_bit_uart_loops_back_with_the_wakeup_bit():
    cache = _harness()
    script = os.path.join(cache, "sas_emu_test.mjs")
    with open(script, "w") as f:
        f.write(MJS % (json.dumps(os.path.join(ROOT, "hal", "rp2", "sas_pio.py")),
                       json.dumps(SCRIPT)))
    try:
        r = subprocess.run(["node", script], cwd=cache, capture_output=True, text=True,
                           timeout=300)
    finally:
        os.remove(script)
    line = [l for l in r.stdout.splitlines() if l.startswith("GOT")]
    assert line, r.stdout + r.stderr
    assert line[0].split() == ["GOT", "6", "0155aa00ff81", "000000000001", "0"], line
