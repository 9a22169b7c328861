// The chip-time model against a real Pico: a loop published with its code and its ticks_us
// figure on a stock 125 MHz Pico (TinyTapeout/tt-micropython-firmware issue #8, "Setting inputs
// is rather slow": eight Pin.value() calls per outer pass, 45.667 ms for 256 passes = 178.4 us a
// pass) runs on the emulated Pico with the model and without. The estimate must land within 25 %
// of the published figure and above the raw emulated one (rp2040js alone runs ahead of a chip).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOOTROM, flashWithFiles, missing } from './harness.mjs';
import { Pico, WALL_MS } from './pico.mjs';

const PUBLISHED_US = 178.4;
const CODE = `
import time
from machine import Pin
inputs = [Pin(i, Pin.IN) for i in (9, 10, 11, 12, 17, 18, 19, 20)]
t_start = time.ticks_us()
for i in range(256):
    for j in range(8):
        inputs[j].value(i & (1 << j))
t_taken = time.ticks_us() - t_start
print("US_PER_PASS", t_taken / 256)
`;

async function perPass(chipTime) {
  const pico = new Pico({ firmware: null, flashBytes: await flashWithFiles({}), bootrom: BOOTROM, chipTime });
  await pico.waitReady({ wallMs: WALL_MS });
  await pico.enterRawRepl({ wallMs: WALL_MS });
  const r = await pico.exec(CODE, { wallMs: WALL_MS });
  const m = /US_PER_PASS ([\d.]+)/.exec(r.out ?? pico.console);
  assert.ok(m, JSON.stringify(r));
  return Number(m[1]);
}

describe('chip time against a published real-Pico figure', { skip: missing() ?? false }, () => {
  it(`the Pin.value() loop: ${PUBLISHED_US} us a pass on a real Pico`, async (t) => {
    const est = await perPass(true);
    const raw = await perPass(false);
    t.diagnostic(`real Pico ${PUBLISHED_US} us, estimate ${est.toFixed(1)} us (${((est / PUBLISHED_US - 1) * 100).toFixed(0)} %), raw emulated ${raw.toFixed(1)} us`);
    assert.ok(Math.abs(est / PUBLISHED_US - 1) <= 0.25, `estimate ${est} us vs ${PUBLISHED_US} us`);
    assert.ok(raw < est, `the model adds time: raw ${raw} us, estimate ${est} us`);
  });
});
