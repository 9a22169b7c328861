// The memory guard of a table's roles on what ships: the frozen release image in the emulated
// Pico runs the heap session (tools/bench_rp2_session.py, fake clock) as a dome and as a player
// station, node playing the other end of the table link (linkpeer.mjs: eight stations for the
// dome, the dome for the station; a SAS host polls the station), and each keeps >= 100 KB free.
// CI runs short sessions whose seed changes per run (printed; SEED=N replays it); FULL=1 runs
// the 1,000 rolls of the figure `tools/bench firmware --rp2 --variant frozen --role R` puts in
// docs/BENCHMARKS.md.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { BOOTROM, flashWithFiles, missing, ROOT } from './harness.mjs';
import { DomePeer, encodeFrame, FLAG, Framer, MSG } from './linkpeer.mjs';
import { Pico } from './pico.mjs';
import { ROLES, TABLE_HEAP_BUDGET, attachTable, codeOnly, heapGuard, rolePart, runSession, sessionCode } from './session.mjs';

const FULL = process.env.FULL === '1';
// CI: ~1 min of one core for both (a station's roll is ~0.5 s emulated, ~2x a dome's round: its
// result holds the next ROLL for 3 s of its clock, 60 passes, as the cabinet's does)
const CI_ROLLS = { dome: 20, station: 6 };
const rollsOf = (role) => Number(process.env.ROLLS || (FULL ? 1000 : CI_ROLLS[role]));
const checkOf = (role) => (FULL ? 100 : Math.ceil(rollsOf(role) / 2));
const SEED = Number(process.env.SEED || 1 + (Date.now() % 1000000));
const SEATS = Number(process.env.SEATS || 8); // stations on the dome's link

// Each role is sent its part of the session script only (the raw REPL keeps the text and its
// bytecode in RAM): code that marks each role's part, and code no other role may be sent.
const ROLE_CODE = {
  cabinet: ['Controller(board)\n', 'screens.build('],
  station: ['Controller(board, seat=1)', 'wait(g.bets_closed)'],
  dome: ['DomeController(board,', 'ctl.dome.online'],
};

describe('the heap session script in parts, one a role', () => {
  const script = fs.readFileSync(path.join(ROOT, 'tools', 'bench_rp2_session.py'), 'utf8');
  for (const role of ROLES) {
    it(`sends a ${role} its own code and no other role's`, () => {
      const text = rolePart(script, role);
      assert.doesNotMatch(text, /^#@/m);
      assert.match(text, /^board = hal\.detect\(/m); // the common part
      for (const [other, marks] of Object.entries(ROLE_CODE)) {
        for (const mark of marks) assert.equal(text.includes(mark), other === role, `${role}: ${mark}`);
      }
    });
  }
  it('sends code only: no docstring, comment or blank line (the raw REPL keeps the text in RAM)', () => {
    assert.equal(codeOnly('"""Doc\n\nmore."""\nimport gc\n\n# why\ndef f():\n    # how\n    return 1  # kept\n'),
      'import gc\ndef f():\n    return 1  # kept\n');
    for (const role of ROLES) {
      const text = sessionCode({ rolls: 40, role });
      assert.doesNotMatch(text.slice(0, -1), /^[ \t]*(#.*)?$/m, role);
      for (const mark of ROLE_CODE[role]) assert.ok(text.includes(mark), `${role}: ${mark}`);
    }
  });
  it('refuses a marker that names no role', () => {
    assert.throws(() => rolePart('a = 1\n#@ stations\nb = 2\n', 'station'), /line 2: not a part marker/);
    assert.equal(rolePart('a = 1\n#@ dome: note\n#@ more note\nb = 2\n#@ all\nc = 3\n', 'station'), 'a = 1\nc = 3\n');
  });
});

/** The emulated clock as a peer uses it (pico.mcu.clock): nanos and alarms. */
class FakeClock {
  constructor() {
    this.nanos = 0;
    this.alarms = [];
  }
  createAlarm(cb) {
    const a = { at: Infinity, cb, schedule: (ns) => { a.at = this.nanos + ns; }, cancel: () => { a.at = Infinity; } };
    this.alarms.push(a);
    return a;
  }
  runTo(ns) {
    for (;;) {
      const due = this.alarms.filter((a) => a.at <= ns).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.nanos = due.at;
      due.at = Infinity;
      due.cb();
    }
    this.nanos = ns;
  }
}

/**
 * Station 1 as the heap session plays it, on its link's two ends (StationBoard's play and
 * decode): it answers each command `answerMs` later, and reports SHOOT from its `shootAt`th
 * poll of a betting window on. log: [ms, 'sent' | 'answer', kind, phase].
 */
class FakeStation {
  constructor(clock, { answerMs = 4, shootAt = 3 } = {}) {
    Object.assign(this, { clock, answerMs, shootAt });
    this.framer = new Framer();
    this.out = []; // [ms, byte]
    this.log = [];
    this.closed = 0;
    this.pending = 0;
    this.polls = 0;
  }
  play(bytes) {
    const ms = this.clock.nanos / 1e6;
    for (const b of bytes) {
      for (const f of this.framer.feed(b)) {
        const phase = f.kind === MSG.POLL ? f.payload[4] : null;
        this.log.push([ms, 'sent', f.kind, phase]);
        let flags = FLAG.BETS | FLAG.CREDITS;
        if (f.kind === MSG.CLOSE) [this.pending, this.closed] = [f.rnd, f.rnd];
        if (f.kind === MSG.RESULT) this.pending = 0;
        if (f.kind === MSG.POLL && phase === 0 && ++this.polls >= this.shootAt) flags |= FLAG.SHOOT;
        if (f.kind !== MSG.POLL || phase !== 0) this.polls = 0;
        if (this.pending) flags |= FLAG.PENDING;
        const at = ms + this.answerMs;
        this.log.push([at, 'answer', f.kind, phase]);
        for (const a of encodeFrame(1, MSG.STATUS, f.seq, this.closed, [flags])) this.out.push([at, a]);
      }
    }
  }
  decode(nowMs) {
    const n = this.out.findIndex(([at]) => at > nowMs);
    return this.out.splice(0, n < 0 ? this.out.length : n).map(([, b]) => b);
  }
}

describe('the dome node plays for a station keeps the station\'s pace', () => {
  it('polls the betting window every pollMs, and moves a round on gapMs after each answer', () => {
    const clock = new FakeClock();
    const pico = { mcu: { clock }, get simMs() { return clock.nanos / 1e6; } };
    const station = new FakeStation(clock);
    const peer = new DomePeer({ seed: 7 });
    peer.attach(pico, station);
    peer.start();
    clock.runTo(2000e6);
    peer.stop();
    assert.equal(peer.wrong.length, 0, peer.wrong[0]);
    assert.ok(peer.settled >= 10, JSON.stringify(peer.stats()));
    // from each answer to the next command: a window's repeated poll, or a step of the round
    const repeat = [];
    const step = [];
    const log = station.log.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < log.length; i++) {
      const [at, what, kind, phase] = log[i];
      const [before, was, wasKind, wasPhase] = log[i - 1];
      if (what !== 'sent' || was !== 'answer') continue;
      const again = kind === MSG.POLL && phase === 0 && wasKind === MSG.POLL && wasPhase === 0;
      (again ? repeat : step).push(at - before);
    }
    assert.ok(repeat.length >= 10 && step.length >= 30, `${repeat.length} window polls, ${step.length} steps`);
    assert.ok(repeat.every((ms) => ms >= peer.pollMs && ms <= peer.pollMs + 1), `window polls: ${repeat}`);
    assert.ok(step.every((ms) => ms <= peer.gapMs + 1), `round steps: ${step}`);
    assert.ok(peer.gapMs <= 2 && peer.pollMs >= 30, `gap ${peer.gapMs} ms, poll ${peer.pollMs} ms`);
  });
});

/** The chip with boot.py only (the raw REPL free), `role`'s board and link peer attached. */
async function tableChip(role, seed) {
  const flash = await flashWithFiles({ 'boot.py': fs.readFileSync(path.join(ROOT, 'boot.py')) });
  const pico = new Pico({ firmware: null, flashBytes: flash, bootrom: BOOTROM, flashTiming: {} });
  const { host, peer } = attachTable(pico, role, { seed, seats: SEATS });
  await pico.waitReady();
  await pico.enterRawRepl();
  return { pico, host, peer };
}

describe('heap of the release image in a table role on the emulated Pico', { skip: missing() ?? false }, () => {
  for (const role of ['dome', 'station']) {
    const ROLLS = rollsOf(role);
    const CHECK = checkOf(role);
    it(`a ${role} keeps >= ${TABLE_HEAP_BUDGET} B free over ${ROLLS} rolls (SEED=${SEED})`, async (t) => {
      t.diagnostic(`SEED=${SEED} (replay: SEED=${SEED} node --test tests_emu/tableheap.test.mjs)`);
      const { pico, host, peer } = await tableChip(role, SEED);
      const t0 = Date.now();
      const sim0 = pico.simMs;
      let mid = null; // the pace from roll CHECK on, past the boot and the first bills
      const r = await runSession(pico, host, { rolls: ROLLS, timed: 0, check: CHECK, seed: SEED, role, peer }, (line) => {
        if (line.startsWith(`BENCH free_roll_${CHECK} `)) mid = { sim: pico.simMs, wall: Date.now(), answers: peer.answers };
      });
      const f = r.figures;
      t.diagnostic(`${((pico.simMs - sim0) / 1000).toFixed(1)} s emulated, ${((Date.now() - t0) / 1000).toFixed(0)} s wall, ${f.passes} passes; `
        + `link peer ${JSON.stringify(r.peer)}`);
      const n = ROLLS - CHECK;
      if (mid && n > 0) {
        t.diagnostic(`a roll from roll ${CHECK} to ${ROLLS}: ${((pico.simMs - mid.sim) / n).toFixed(0)} ms emulated, `
          + `${((Date.now() - mid.wall) / 1000 / n).toFixed(1)} s wall, ${((peer.answers - mid.answers) / n).toFixed(1)} link answers`);
      }
      assert.equal(f.done, String(ROLLS), r.lines.join('\n'));
      const g = heapGuard(f, CHECK, ROLLS, { budget: TABLE_HEAP_BUDGET, growth: false });
      t.diagnostic(`free heap: ${f.free_boot} B after boot, ${g.atCheck} B at roll ${CHECK}, ${g.atEnd} B at roll ${ROLLS}`);
      assert.deepEqual(g.problems, [], r.lines.join('\n'));
      // the rounds went over the link, and every frame said what the protocol says
      assert.equal(r.peer.wrong, 0, r.peer.firstWrong);
      if (role === 'dome') {
        // every station in every round but the first few (the dome finds them by probing)
        assert.ok(r.peer.results.every((n) => n >= ROLLS - 3), JSON.stringify(r.peer));
      } else {
        assert.equal(f.balance_check, '0', 'the meters balance');
        assert.ok(r.peer.settled >= ROLLS, JSON.stringify(r.peer));
        assert.ok(r.host.answers > ROLLS, JSON.stringify(r.host));
        assert.equal(r.host.wrong, 0, r.host.firstWrong);
      }
    });
  }
});
