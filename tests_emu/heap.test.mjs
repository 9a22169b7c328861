// The memory guard on what ships: the frozen release image in the emulated Pico runs the heap
// session (tools/bench_rp2_session.py: the real controller and rp2 board, scripted bills, bets and
// rolls) with a SAS host polling its SAS line over the wire, and keeps >= 150 KB of heap free.
// CI runs a short session whose seed changes per run (printed; SEED=N replays it) and checks
// the floor; FULL=1 runs 1,000 rolls and also checks no growth from roll 100 (session.mjs
// heapGuard), the figure `tools/bench firmware --rp2 --variant frozen` puts in
// docs/BENCHMARKS.md. The session holds what the cabinet keeps from its first roll (the recall's
// pages are taken at boot), so the CI reading is the long run's, from the same tree: docs/TESTING.md.
// Then, after those readings, the same session's AFT and ticket phase (issue 23: SAS, TITO and
// AFT leave >= 140 KB free; tools/bench_rp2_aft.py, the host's side tests_emu/floorhost.mjs):
// before each roll an AFT transfer in or out under the 74 lock, a ticket redeemed or a cash-out
// ticket, every answer checked; CI a few rolls, AFT_FULL=1 1,000 (no growth from roll 100).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CabinetBoard } from './board.mjs';
import { BOOTROM, flashWithFiles, missing, ROOT } from './harness.mjs';
import { Pico } from './pico.mjs';
import { FloorHost } from './floorhost.mjs';
import { SasHost } from './sashost.mjs';
import { HEAP_BUDGET, heapGuard, runSession } from './session.mjs';

const FULL = process.env.FULL === '1';
const ROLLS = FULL ? 1000 : 40;
const CHECK = FULL ? 100 : 15;
const SEED = Number(process.env.SEED || 1 + (Date.now() % 1000000));
const AFT_FULL = process.env.AFT_FULL === '1';
const AFT_ROLLS = AFT_FULL ? 1000 : 4;
const AFT_CHECK = AFT_FULL ? 100 : 2;
const AFT_BUDGET = 140 * 1024; // bytes free with SAS, TITO and AFT (issue 23)

/** The AFT and ticket phase on the session's cabinet, its floor and its host's answers checked. */
async function floorPhase(t, pico, host) {
  const floor = new FloorHost(host);
  const r = await runSession(pico, host, { rolls: AFT_ROLLS, check: AFT_CHECK, seed: SEED, script: 'bench_rp2_aft.py' },
    (line) => floor.onLine(line));
  const f = r.figures;
  const fh = floor.stats();
  const said = [...r.lines, `host: ${JSON.stringify(fh)}`, ...host.wrong.slice(0, 3)].join('\n');
  assert.equal(f.done, String(AFT_ROLLS), said);
  assert.equal(f.balance_check, '0', 'the meters balance');
  const g = heapGuard(f, AFT_CHECK, AFT_ROLLS, { budget: AFT_BUDGET });
  t.diagnostic(`AFT and ticket phase: ${g.atCheck} B free at its roll ${AFT_CHECK}, ${g.atEnd} B at its roll ${AFT_ROLLS}; least/median/most free over the first window ${g.first.join('/')} B, over the last ${g.last.join('/')} B; ${f.phase_meters}; host ${JSON.stringify(fh)}`);
  assert.deepEqual(g.problems, [], said);
  assert.equal(r.host.wrong, 0, said);
  assert.match(f.sas_line, /^errors=0 /, 'no SAS handler raised');
  // every kind of money movement happened, and the host saw each transfer answered as asked
  const m = Object.fromEntries(f.phase_meters.split(' ').map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])]));
  for (const key of ['aft_in_n', 'aft_out_n', 'tickets_in_n', 'tickets']) assert.ok(m[key] >= 1, f.phase_meters);
  assert.deepEqual([fh.aftIn, fh.aftOut], [m.aft_in_n, m.aft_out_n], JSON.stringify(fh));
  // the last ticket's 71 status poll may come after the phase stopped the host
  assert.ok(fh.ticketsIn >= m.tickets_in_n - 1, JSON.stringify(fh));
}

describe('heap of the release image with SAS on the emulated Pico', { skip: missing() ?? false }, () => {
  it(`keeps >= ${HEAP_BUDGET} B free over ${ROLLS} rolls${FULL ? ', no growth from roll 100' : ''}, then >= ${AFT_BUDGET} B over ${AFT_ROLLS} with AFT and tickets${AFT_FULL ? ', no growth from its roll 100' : ''} (SEED=${SEED})`, async (t) => {
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
    await floorPhase(t, pico, host);
  });
});
