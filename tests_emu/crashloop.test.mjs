// A release whose main loop raises at once, on the emulated Pico: after crashlock.LIMIT (3)
// failed starts the cabinet stops resetting (the count in the watchdog's SCRATCH0 survives
// machine.reset()), shows the lock screen with RED and WHITE lit, and the technician read-out
// answers METERS and EVENTS without a byte of flash written. The planted fault is the release's
// own main.py with its controller's run() replaced by one that raises.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CabinetBoard, PIN } from './board.mjs';
import { BOOTROM, Cabinet, flashWithFiles, missing, releaseFiles } from './harness.mjs';
import { Pico } from './pico.mjs';

const PLANT = `
_real_controller = controller


def controller(board, role, profile=None, store=None):
    ctl = _real_controller(board, role, profile, store)

    async def run():
        raise RuntimeError("planted: the main loop raises")
    ctl.run = run
    return ctl


main()
`;

function raisingMain() {
  const src = releaseFiles()['main.py'].toString();
  const i = src.lastIndexOf('\nmain()');
  assert.ok(i > 0, 'main.py ends with main()');
  return src.slice(0, i) + '\n' + PLANT;
}

describe('a crash loop on the emulated Pico', { skip: missing() ?? false }, () => {
  it('stops after 3 failed starts, locks, and the read-out answers read-only', async () => {
    const board = new CabinetBoard({ seed: 6 });
    const flashBytes = await flashWithFiles({ ...releaseFiles(), 'main.py': raisingMain() });
    const pico = new Pico({ firmware: null, flashBytes, bootrom: BOOTROM });
    board.attach(pico);
    const c = new Cabinet(pico, board);
    assert.ok(await c.runUntil(() => /CRASH LOCK/.test(pico.console), 90000),
      `no crash lock: ${pico.console.slice(-400)}`);
    assert.equal(pico.resets, 3, 'three failed starts, each ended by machine.reset()');
    assert.equal((pico.console.match(/planted: the main loop raises/g) || []).length, 3);
    await c.runFor(1500);
    assert.match(c.screen().join('\n'), /CRASH LOCK/);
    assert.equal(pico.getPin(PIN.LAMPS[0]), true, 'RED on');
    assert.equal(pico.getPin(PIN.LAMPS[3]), true, 'WHITE on');
    assert.equal(board.inhibited(), true, 'money inhibited');

    const flash0 = Buffer.from(pico.flashCopy());
    const m = await c.request('METERS');
    assert.match(m.status, /^OK METERS \d+/);
    assert.ok(m.lines.some((l) => /^games 0 /.test(l)), m.lines.join('\n'));
    const ev = await c.request('EVENTS 10');
    assert.match(ev.status, /^OK EVENTS/);
    assert.equal(ev.lines.filter((l) => /power/i.test(l)).length, 3, ev.lines.join('\n'));
    await c.runFor(8000); // longer than the watchdog's 5 s: the lock feeds it
    assert.equal(pico.resets, 3, 'the lock does not reset');
    assert.ok(Buffer.from(pico.flashCopy()).equals(flash0), 'the lock wrote to flash');
  });
});
