// The watchdog on the emulated Pico: a main loop that hangs (here: the SPI block stops finishing
// frames, so the input read spins forever) is reset by machine.WDT, and the cabinet comes back
// with its credits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cabinet, missing } from './harness.mjs';

describe('watchdog on the emulated Pico', { skip: missing() ?? false }, () => {
  it('resets a hung loop and the cabinet recovers with the same credits', async () => {
    const c = await cabinet({ seed: 3 });
    assert.ok(await c.board.insert(5));
    await c.runFor(2500);
    assert.equal((await c.status()).credits, '500');
    const t0 = c.pico.simMs;
    const frames0 = c.display.frames;
    c.board.spiStuck = true;
    assert.ok(await c.runUntil(() => c.pico.resets > 0, 15000), 'no watchdog reset');
    const hungMs = c.pico.simMs - t0;
    // hal/rp2 arms a 5 s watchdog; the hang started within one 10 ms input pass
    assert.ok(hungMs >= 4900 && hungMs < 5600, `reset ${hungMs} ms after the hang`);
    assert.equal(c.pico.mcu.watchdog.reason, 1, 'reset reason: watchdog timer (REASON.TIMER)');
    assert.equal(c.board.spiStuck, false); // the reset cleared the fault
    assert.ok(await c.waitScreen(), 'no screen after the reset');
    await c.runFor(2000);
    assert.ok(c.display.frames > frames0);
    assert.equal(c.traceback(), null);
    const st = await c.status();
    assert.equal(st.credits, '500');
    assert.equal(st.critical, '0');
    assert.match(c.screen().join('\n'), /CR 5/);
  });
});
