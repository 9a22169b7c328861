// The real tools/deploy, and the mpremote it runs, against the release on the emulated Pico:
// mpremote connects to socket://127.0.0.1:PORT (pyserial), a TCP bridge to the board's USB
// console (harness.mjs usbTool), across the resets the deploy makes. A cabinet with credits,
// an older main.py and a stray file is put in safe boot by the technician (CASHOUT + HELP at
// power-up, logic door open), rescued with --safe-boot, then deployed with --no-image
// (rp2040js has no ROM bootloader drive): it comes back as the cabinet with the release's
// files (Verify equals tools/digest), the stray deleted, its journal (credits, events) kept
// and every safe boot logged.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { BUTTON, PIN } from './board.mjs';
import { BOOTROM, Cabinet, cabinet, missing, releaseFiles, ROOT, UF2, usbTool } from './harness.mjs';
import { Pico, WALL_MS } from './pico.mjs';

async function digest(c) {
  for (let i = 0; i < 200; i++) {
    const r = await c.request('DIGEST', { simMs: 20000 });
    if (r.status.startsWith('OK DIGEST')) return { verify: r.status.split(' ')[2], lines: r.lines };
    assert.match(r.status, /busy/);
    await c.runFor(200);
  }
  throw new Error('DIGEST never finished');
}

describe('tools/deploy on the emulated Pico', { skip: missing() ?? false }, () => {
  it('safe boot, then the real tools/deploy over USB: release files in, stray out, journal kept', async () => {
    const older = releaseFiles()['main.py'].toString() + '\n# the release before\n';
    const c = await cabinet({ files: { 'main.py': older, 'lib/old.py': 'OLD = 1\n' }, seed: 9 });
    assert.ok(await c.board.insert(20));
    await c.runFor(3500);
    const credits = (await c.status()).credits;
    assert.equal(credits, '2000');
    const events = (await c.request('EVENTS 50')).lines;
    assert.equal(events.length, 2, events.join('\n')); // power up, bill in
    const release = /SHA-256 (\w+)/.exec(execFileSync(path.join(ROOT, 'tools', 'digest'), [UF2, '--fs', ROOT],
      { encoding: 'utf8' }))[1];
    const d0 = await digest(c);
    assert.notEqual(d0.verify, release, 'the board runs the older main.py');
    assert.ok(d0.lines.includes('extra_file=lib/old.py'), d0.lines.join('\n'));

    // the technician: power-up holding CASHOUT + HELP with the logic door open
    const board = c.board;
    board.held = (1 << BUTTON.CASHOUT) | (1 << BUTTON.HELP);
    board.logicDoorClosed = false;
    const pico = new Pico({ firmware: null, flashBytes: c.pico.flashCopy(), bootrom: BOOTROM });
    board.attach(pico);
    assert.ok(await pico.runUntil(() => /SAFE BOOT \(buttons\).*REPL free/.test(pico.console),
      { simMs: 20000, wallMs: WALL_MS }), pico.console.slice(-300));
    board.held = 0;
    const deploy = path.join(ROOT, 'tools', 'deploy');
    // the rescue alone: the flag set, a reset, the board back at its REPL in safe boot
    let resets = pico.resets;
    pico.clearConsole();
    const rescue = await usbTool(pico, [deploy, '--safe-boot', '--port', 'socket://{tcp}']);
    assert.equal(rescue.code, 0, rescue.stdout + rescue.stderr);
    assert.equal(pico.resets - resets, 1);
    assert.match(pico.console, /SAFE BOOT \(flag\): cabinet not started, REPL free/);

    resets = pico.resets;
    const r = await usbTool(pico, [deploy, '--no-image', '--port', 'socket://{tcp}']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^removed lib\/old\.py\r?$/m);
    assert.equal(pico.resets - resets, 2, 'reset into safe boot (the flag), then into the cabinet');

    // the deploy's last reset started the cabinet; the technician closes the door
    board.logicDoorClosed = true;
    pico.setPin(PIN.LOGIC_DOOR, false);
    const after = new Cabinet(pico, board);
    await after.runFor(3000);
    assert.equal(after.traceback(), null);
    const st = await after.status();
    assert.equal(st.credits, credits);
    assert.equal(st.critical, '0');
    const d1 = await digest(after);
    assert.equal(d1.verify, release, 'Verify: the release\'s files on the board');
    assert.ok(d1.lines.includes('extra=0'), d1.lines.join('\n'));
    // the journal kept every record and logged each safe boot: buttons (2), then the flag (1) twice
    const now = (await after.request('EVENTS 50')).lines.map((l) => l.split(' ').slice(2).join(' '));
    assert.deepEqual(now.slice(-2), events.map((l) => l.split(' ').slice(2).join(' ')));
    assert.deepEqual(now.filter((l) => l.startsWith('47 ')).map((l) => l.split(' ')[1]), ['1', '1', '2']);
    assert.equal(now.length, 9, now.join('\n')); // + 4 power ups, 3 safe boots
  });
});
