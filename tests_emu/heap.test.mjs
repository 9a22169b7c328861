// The memory guard on what ships: the frozen release image in the emulated Pico runs the heap
// session (tools/bench_rp2_session.py: the real controller and rp2 board, scripted bills, bets and
// rolls) with a SAS host polling its SAS line over the wire, and keeps >= 150 KB of heap free.
// CI runs a short session whose seed changes per run (printed; SEED=N replays it) and checks
// the floor; FULL=1 runs 1,000 rolls and also checks no growth from roll 100 (session.mjs
// heapGuard), the figure `tools/bench firmware --rp2 --variant frozen` puts in
// docs/BENCHMARKS.md. The session holds what the cabinet keeps from its first roll (the recall's
// pages are taken at boot), so the CI reading is the long run's, from the same tree: docs/TESTING.md.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CabinetBoard } from './board.mjs';
import { BOOTROM, flashWithFiles, missing, ROOT } from './harness.mjs';
import { Pico } from './pico.mjs';
import { SasHost } from './sashost.mjs';
import { HEAP_BUDGET, heapGuard, runSession } from './session.mjs';

const FULL = process.env.FULL === '1';
const ROLLS = FULL ? 1000 : 40;
const CHECK = FULL ? 100 : 15;
const SEED = Number(process.env.SEED || 1 + (Date.now() % 1000000));

describe('heap of the release image with SAS on the emulated Pico', { skip: missing() ?? false }, () => {
  it(`keeps >= ${HEAP_BUDGET} B free over ${ROLLS} rolls${FULL ? ', no growth from roll 100' : ''} (SEED=${SEED})`, async (t) => {
    t.diagnostic(`SEED=${SEED} (replay: SEED=${SEED} node --test tests_emu/heap.test.mjs)`);
    const flash = await flashWithFiles({ 'boot.py': fs.readFileSync(path.join(ROOT, 'boot.py')) });
    const pico = new Pico({ firmware: null, flashBytes: flash, bootrom: BOOTROM, flashTiming: {} });
    const host = new SasHost();
    new CabinetBoard({ sasHost: host }).attach(pico);
    await pico.waitReady();
    await pico.enterRawRepl();
    const r = await runSession(pico, host, { rolls: ROLLS, timed: 0, check: CHECK, seed: SEED });
    const f = r.figures;
    assert.equal(f.done, String(ROLLS), r.lines.join('\n'));
    assert.equal(f.balance_check, '0', 'the meters balance');
    const g = heapGuard(f, CHECK, ROLLS);
    t.diagnostic(`free heap: ${f.free_boot} B after boot, ${g.atCheck} B at roll ${CHECK}, ${g.atEnd} B at roll ${ROLLS}; least/median/most free over the first window from roll ${CHECK} ${g.first.join('/')} B, over the last ${g.last.join('/')} B`);
    assert.deepEqual(g.problems, [], r.lines.join('\n'));
    // the host really polled, and every answer was right
    assert.ok(r.host.answers > ROLLS, JSON.stringify(r.host));
    assert.equal(r.host.wrong, 0, r.host.firstWrong);
  });
});
