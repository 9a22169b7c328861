// One image, one digest, on the cabinet's own UF2 (tools/build-firmware rp2): Verify over the
// technician read-out equals tools/digest of the UF2; files the release did not install are
// reported and cannot shadow frozen or built-in modules; the USB REPL is refused to Ctrl-C and
// opened only by safe boot with the logic door open, logged in the journal first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { BUTTON, PIN } from './board.mjs';
import { BOOTROM, cabinet, missing, ROOT, UF2 } from './harness.mjs';
import { Pico, WALL_MS } from './pico.mjs';

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

  it('the USB REPL: refused to Ctrl-C on a running cabinet; opened by safe boot with the logic door open, logged first', async () => {
    const c = await cabinet({});
    await c.runFor(1500);
    const resets = c.pico.resets;
    // mpremote's way in (Ctrl-C, Ctrl-A): a dump-and-restore needs it; the release ignores it
    await assert.rejects(c.pico.enterRawRepl(), /no raw REPL/);
    assert.equal(c.pico.resets, resets, 'the cabinet keeps running');
    assert.match((await c.status()).lock, /none/);

    // power-up holding CASHOUT + HELP, logic door closed: no cabinet, no REPL
    const board = c.board;
    board.held = (1 << BUTTON.CASHOUT) | (1 << BUTTON.HELP);
    board.logicDoorClosed = true;
    const pico = new Pico({ firmware: null, flashBytes: c.pico.flashCopy(), bootrom: BOOTROM });
    board.attach(pico);
    assert.ok(await pico.runUntil(() => /OPEN LOGIC DOOR/.test(pico.console), { simMs: 20000, wallMs: WALL_MS }),
      pico.console.slice(-300));
    await assert.rejects(pico.enterRawRepl(), /no raw REPL/);
    // the door opened: the act is committed, then the REPL opens
    board.logicDoorClosed = false;
    pico.setPin(PIN.LOGIC_DOOR, true); // NC switch open: the pull-up reads 1
    board.held = 0;
    assert.ok(await pico.runUntil(() => /SAFE BOOT \(buttons\): cabinet not started, REPL free/.test(pico.console),
      { simMs: 20000, wallMs: WALL_MS }), pico.console.slice(-300));
    await pico.enterRawRepl();
    const r = await pico.exec(`from firmware.store.store import Store
from hal.rp2 import storage
s = Store(storage.journal_device())
s.boot(0)
ev = s.ledger.events
print("EV", [ev.get(i)[2:] for i in range(4)])`);
    assert.equal(r.err, '', r.err);
    assert.match(r.out, /EV \[\(1, 0\), \(47, 2\)/, 'the newest events: this power-up, then "safe boot" (arg 2: buttons)');
  });

});
