// The release booted with no display on the I2C bus (the SSD1306 absent or its cable off): the
// cabinet must not die on the dead bus. It locks play as DEVICE FAULT with the display's code,
// keeps money out, shows it on the tower light (RED steady, WHITE blinking code 1: one flash,
// then three dark slots of 400 ms, hal/faults.py + firmware/cabinet/devfault.py) and the
// technician read-out keeps answering.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUTTON, CabinetBoard, PIN } from './board.mjs';
import { BOOTROM, Cabinet, flashWithFiles, missing, releaseFiles } from './harness.mjs';
import { Pico } from './pico.mjs';

describe('the release with no display on the emulated Pico', { skip: missing() ?? false }, () => {
  it('locks as DEVICE FAULT DISPLAY, lamps show it, money stays out, the read-out answers', async () => {
    const board = new CabinetBoard({ seed: 4, display: false });
    const pico = new Pico({ firmware: null, flashBytes: await flashWithFiles(releaseFiles()), bootrom: BOOTROM });
    board.attach(pico);
    const c = new Cabinet(pico, board);
    assert.ok(await c.runUntil(() => /DEVICE FAULT DISPLAY/.test(pico.console) || c.traceback(), 30000),
      `no device fault reported: ${pico.console.slice(-300)}`);
    await c.runFor(1000);
    assert.equal(c.traceback(), null);
    assert.ok(board.i2cLog.naks > 0, 'the display was looked for on the bus');
    assert.equal(board.display.frames, 0);

    const st = await c.status();
    assert.equal(st.critical, '0', 'a missing display is not a memory fault');
    assert.equal(st.lock, 'DEVICE FAULT');
    assert.equal(st.lock_amount, '1', 'the display\'s code (hal/faults.py DISPLAY)');

    // tower light: RED steady; WHITE flashes once per 2 s cycle (code 1 + three dark slots)
    const white = [];
    const stop = pico.onPin(PIN.LAMPS[3], (v, t) => v !== null && white.push([t, v]));
    const red = [];
    const stopRed = pico.onPin(PIN.LAMPS[0], (v) => red.push(v));
    const t0 = pico.simMs;
    await c.runFor(6000);
    stop();
    stopRed();
    assert.equal(pico.getPin(PIN.LAMPS[0]), true, 'RED on');
    assert.ok(!red.includes(false), 'RED never went off');
    const ons = white.filter(([, v]) => v).map(([t]) => t);
    assert.ok(ons.length >= 2 && ons.length <= 4, `WHITE flashes in 6 s: ${ons.length}`);
    for (let i = 1; i < ons.length; i++) {
      assert.ok(Math.abs(ons[i] - ons[i - 1] - 2000) < 100, `WHITE flash period ${ons[i] - ons[i - 1]} ms`);
    }
    assert.ok(ons[0] - t0 < 2100);

    // play is locked and money stays out
    assert.equal(board.inhibited(), true);
    assert.equal(await board.insert(5, { waitMs: 2000 }), false, 'a bill offered while locked');
    await board.press(BUTTON.BET_UP);
    assert.equal((await c.status()).credits, '0');

    // the technician read-out answers while the display is gone
    const m = await c.request('METERS');
    assert.match(m.status, /^OK METERS \d+/);
    assert.ok(m.lines.some((l) => /^games 0 /.test(l)), m.lines.join('\n'));
    const ev = await c.request('EVENTS 5');
    assert.match(ev.status, /^OK EVENTS/);
    assert.ok(ev.lines.some((l) => /device fault|DEVICE/i.test(l)), ev.lines.join('\n'));
    assert.equal(c.traceback(), null);
  });
});
