"""The bill validator's ID-003 line (hal/rp2/id003_port.py: 9600 8E1 on PIO1
SM6/SM7, the SAS 9-bit UART's programs with the parity as the ninth bit) on
the real MicroPython v1.28.0 rp2 port, emulated (as test_emu_sas.py; skipped
with one line without the material or node). The SAS line runs on SM4/SM5
at the same time (one copy of the programs serves both). TX wired to RX: the
status request comes back byte for byte with its parity right, and a byte
whose ninth bit is not its even parity is dropped."""
import json
import os
import subprocess

from test_emu_release import _harness
from test_emu_sas import ROOT

SCRIPT = """
import time
from sas_pio import PioSas
from id003_port import Id003Port
sas = PioSas(1, 20, 21)
v = Id003Port(1, 2, 22, 27)
v.write(b"\\xfc\\x05\\x11\\x27\\x56")
v._line.put(0x0FC)   # parity bit clear on 6 ones: right (even)
v._line.put(0x1FC)   # parity bit set on 6 ones: wrong, dropped
v._line.put(0x101)   # one 1 + parity 1: right
time.sleep_ms(60)
buf = bytearray(16)
n = v.read(buf)
print("GOT", n, bytes(buf[:n]).hex())
"""

MJS = """
import fs from 'fs';
import { Pico } from './run.mjs';
const pico = new Pico({});
await pico.waitReady();
await pico.enterRawRepl();
pico.wire(22, 27);
await pico.putFile('/sas_pio.py', fs.readFileSync(%s));
await pico.putFile('/parity.py', fs.readFileSync(%s));
await pico.putFile('/id003_port.py', Buffer.from(%s));
const r = await pico.exec(%s, { wallMs: 120000 });
console.log(r.out, r.err);
process.exit(0);
"""


def test_id003_line_loops_back_with_even_parity():
    cache = _harness()
    with open(os.path.join(ROOT, "hal", "rp2", "id003_port.py")) as f:
        port = f.read().replace("from hal.rp2.sas_pio import", "from sas_pio import")
        port = port.replace("from hal.parity import", "from parity import")
    # its own name: the harness folder is shared with other runs of the suite
    script = os.path.join(cache, "id003_emu_test_%d.mjs" % os.getpid())
    with open(script, "w") as f:
        f.write(MJS % (json.dumps(os.path.join(ROOT, "hal", "rp2", "sas_pio.py")),
                       json.dumps(os.path.join(ROOT, "hal", "parity.py")),
                       json.dumps(port), json.dumps(SCRIPT)))
    try:
        r = subprocess.run(["node", script], cwd=cache, capture_output=True, text=True,
                           timeout=300)
    finally:
        try:
            os.remove(script)
        except OSError:
            pass
    line = [l for l in r.stdout.splitlines() if l.startswith("GOT")]
    assert line, r.stdout + r.stderr
    assert line[0].split() == ["GOT", "7", "fc05112756fc01"], line
