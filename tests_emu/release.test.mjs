// One image, one digest, on the cabinet's own UF2 (tools/build-firmware rp2): Verify over the
// technician read-out equals tools/digest of the UF2; files the release did not install are
// reported and cannot shadow frozen or built-in modules; the safe-boot rescue of tools/deploy
// works while the cabinet runs with its watchdog armed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cabinet, missing, ROOT, UF2 } from './harness.mjs';
import { WALL_MS } from './pico.mjs';

const why = missing();

async function digest(c) {
  for (let i = 0; i < 200; i++) {
    const r = await c.request('DIGEST', { simMs: 20000 });
    if (r.status.startsWith('OK DIGEST')) return r;
    assert.match(r.status, /busy/);
    await c.runFor(200);
  }
  throw new Error('DIGEST never finished');
}

describe('the release on the emulated Pico', { skip: why ?? false }, () => {
  it('Verify equals tools/digest of the UF2; stray files reported, none imported', async () => {
    // each stray would replace a built-in / a frozen module under the port's own sys.path
    const c = await cabinet({
      files: {
        'hashlib.py': 'raise ImportError("shadowing hashlib.py imported")\n',
        'firmware/cabinet/game.py': 'raise ImportError("shadowing game.py imported")\n',
      },
    });
    await c.runFor(1000);
    assert.equal(c.traceback(), null);
    assert.match(c.screen().join('\n'), /INSERT/);
    const r = await digest(c);
    const verify = r.status.split(' ')[2];
    const tool = execFileSync(path.join(ROOT, 'tools', 'digest'), [UF2, '--fs', ROOT], { encoding: 'utf8' });
    assert.ok(tool.includes('SHA-256 ' + verify), `Verify ${verify} vs\n${tool}`);
    assert.ok(r.lines.includes('extra=2'), r.lines.join('\n'));
    assert.ok(r.lines.includes('extra_file=hashlib.py'));
    assert.ok(r.lines.includes('extra_file=firmware/cabinet/game.py'));
  });

  it('tools/deploy --safe-boot: Ctrl-C + flag inside the watchdog window, then the REPL is free', async () => {
    const c = await cabinet({});
    await c.runFor(1500); // the controller feeds (and so has armed) the 5 s watchdog
    const resets = c.pico.resets;
    await c.pico.enterRawRepl(); // mpremote's Ctrl-C: main.py stops, nobody feeds
    await c.pico.putFile('/SAFE_BOOT', '');
    const back = await c.pico.runUntil(() => /SAFE BOOT \(flag\)/.test(c.pico.console),
      { simMs: 15000, wallMs: WALL_MS });
    assert.ok(back, c.pico.console.slice(-400));
    assert.equal(c.pico.resets, resets + 1); // the watchdog reset the chip, as it will on a board
    await c.runFor(8000); // nothing arms the watchdog now: no further reset
    assert.equal(c.pico.resets, resets + 1);
    assert.match(c.pico.console, />>> $/);
  });
});
