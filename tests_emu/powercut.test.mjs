// Power cuts on the emulated Pico, the flash with real busy times: at a random emulated instant
// of a roll, at a random instant inside the shake (before the result can be committed), inside a
// flash page program and inside a sector erase (the bits of the interrupted operation left half
// done). The next power-up must resume the same game: the bet, the roll (re-shaken if its result
// was not committed) and the credits, never paid twice, never lost.
// The instants come from a seed that changes per run and is printed: SEED=N replays a run.
// EMU_CUTS=N (or FULL=1: 12) cuts at more random instants.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BUTTON, CabinetBoard } from './board.mjs';
import { cabinet, missing } from './harness.mjs';

const FLASH_TIMING = {}; // W25Q16JV typical times (pico.mjs)
const RANDOM_CUTS = Number(process.env.EMU_CUTS || (process.env.FULL === '1' ? 12 : 1));
const SEED = Number(process.env.SEED || 1 + (Date.now() % 1000000));
const REPLAY = `SEED=${SEED} node --test tests_emu/powercut.test.mjs`;

function rng(seed) {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s % n;
  };
}

/**
 * Flash operations of one power-up; cutAt = index of the operation to interrupt (its bytes
 * left half done, then the power goes), or null. instantDamage() does the same to an
 * operation still busy when a cut lands at an arbitrary instant.
 */
class FlashCutter {
  constructor(rand, cutAt = null, kind = null) {
    this.rand = rand;
    this.cutAt = cutAt;
    this.kind = kind;
    this.ops = [];
    this.cutOp = null;
  }
  hook() {
    return (kind, start, len, data, pico) => {
      this.pico = pico;
      const mem = pico.mcu.flash;
      const op = { kind, start, len, data: data && data.slice(), old: mem.slice(start, start + (kind === 'erase' ? len : 0)) };
      const i = this.ops.filter((o) => !this.kind || o.kind === this.kind).length;
      this.ops.push(op);
      if (this.cutAt === null || (this.kind && kind !== this.kind) || i !== this.cutAt) return false;
      this.partial(op, mem, true);
      this.cutOp = op;
      this.pico.cut();
      return true;
    };
  }
  /** Leave `op` half done: an erase sets a random share of its bytes to FF (others keep their
   * old value), a program clears the bits of a random prefix and some bits of one more byte. */
  partial(op, mem, fresh) {
    if (op.kind === 'erase') {
      const keep = this.rand(1000);
      for (let a = 0; a < op.len; a++) mem[op.start + a] = this.rand(1000) < keep ? op.old[a] : 0xff;
      return;
    }
    const k = this.rand(op.data.length + 1);
    if (!fresh) return; // an already applied program cannot be undone bit by bit here
    for (let i = 0; i < k; i++) mem[op.data[i][0]] &= op.data[i][1];
    if (k < op.data.length) mem[op.data[k][0]] &= op.data[k][1] | this.rand(256);
  }
  /** The power goes now: a flash operation still busy is left half done. */
  cutNow(pico) {
    const last = this.ops[this.ops.length - 1];
    if (last && pico.flash.busyUntil > pico.mcu.clock.nanos) this.partial(last, pico.mcu.flash, false);
    pico.cut();
  }
}

describe('power cuts on the emulated Pico', { skip: missing() ?? false }, () => {
  let start; // flash after: $20 in, one $1 pass line bet placed, idle
  const rand = rng(SEED);

  before(async () => {
    const c = await cabinet({ seed: 11, flashTiming: FLASH_TIMING });
    assert.ok(await c.board.insert(20));
    await c.runFor(3000);
    await c.board.press(BUTTON.BET_DOWN); // no bet yet: the stake goes down to $1
    // each step is checked on the screen: a press the cabinet missed fails with what it showed
    await c.runFor(300);
    assert.match(c.screen().join('\n'), /STAKE \$1 /, `BET_DOWN: ${c.screen().join(' | ')}`);
    await c.board.press(BUTTON.BET_UP);
    await c.runFor(300);
    const st = await c.status();
    assert.equal(st.credits, '1900', `BET_UP: ${c.screen().join(' | ')} ${JSON.stringify(st)}`);
    start = c.pico.flashCopy();
  });

  const diceBoard = () => {
    const b = new CabinetBoard({ seed: 5 });
    b.rollQueue = Array.from({ length: 8 }, () => [3, 4]); // every landing 3+4: pass wins 1:1
    return b;
  };

  /** Power up from `flash`, finish the game, check it is the same game with the right credits. */
  async function resume(flash, label) {
    const c = await cabinet({ flashBytes: flash, board: diceBoard(), flashTiming: FLASH_TIMING });
    assert.equal(c.traceback(), null, label);
    let st = await c.status();
    assert.equal(st.critical, '0', `${label}: ${JSON.stringify(st)}`);
    assert.equal(st.lock, 'none', label);
    if (st.games === '0' && st.phase === 'betting') {
      // the cut came before the bets closed: the bet is still up, roll it now
      assert.equal(st.credits, '1900', label);
      await c.board.press(BUTTON.ROLL);
    }
    await c.runUntil(() => /LAST 7/.test(c.screen().join('\n')), 30000);
    await c.runFor(300);
    st = await c.status();
    assert.equal(st.games, '1', `${label}: ${JSON.stringify(st)}`);
    // since issue 8 the won pass line bet stays up: $19 + $1 won, the $1 stake on the layout
    assert.equal(st.credits, '2000', `${label}: paid once, nothing lost: ${JSON.stringify(st)}`);
    const g = await c.request('RECALL 0');
    assert.ok(g.lines.includes('credits_before=1900') && g.lines.includes('credits_after=2000'),
      `${label}: ${g.lines.join(' ')}`);
    assert.equal(g.lines.filter((l) => l.startsWith('bet=')).join(), 'bet=pass 0 win 100 100', label);
    assert.match(c.screen().join('\n'), /ON 1\.00/, label);
    return c;
  }

  /** Boot from the start image, press ROLL, run until `cutter` cuts or msAfterRoll passes. */
  async function rollAndCut(cutter, msAfterRoll) {
    const c = await cabinet({ flashBytes: start, board: diceBoard(), flashTiming: FLASH_TIMING,
      onBeforeFlashOp: cutter.hook() });
    await c.board.press(BUTTON.ROLL);
    await c.runUntil(() => c.pico.cutPending, msAfterRoll);
    return c;
  }

  it(`resumes after a cut at ${RANDOM_CUTS} random instant(s) of a roll (SEED=${SEED})`, async (t) => {
    t.diagnostic(`replay: ${REPLAY}`);
    for (let k = 0; k < RANDOM_CUTS; k++) {
      const cutter = new FlashCutter(rand);
      const at = rand(7000); // the shake (4-4.6 s), the settle and the commit are in here
      const c = await rollAndCut(cutter, at);
      cutter.cutNow(c.pico);
      await resume(c.pico.flashCopy(), `cut ${at} ms after ROLL (${REPLAY})`);
    }
  });

  it(`resumes after a cut inside the shake, before the result is committed (SEED=${SEED})`, async (t) => {
    t.diagnostic(`replay: ${REPLAY}`);
    const cutter = new FlashCutter(rand);
    const board = diceBoard();
    const c = await cabinet({ flashBytes: start, board, flashTiming: FLASH_TIMING, onBeforeFlashOp: cutter.hook() });
    await board.press(BUTTON.ROLL);
    assert.ok(await c.runUntil(() => board.moving, 5000), 'the shaker started');
    const into = rand(3500); // the default shake is 4 s: cut somewhere in it
    await c.runUntil(() => !board.moving, into);
    const label = `cut ${into} ms into the shake (${REPLAY})`;
    assert.ok(board.moving, `${label}: still shaking`);
    assert.equal(board.rolls.length, 0, `${label}: the dice have not landed, so no result exists yet`);
    cutter.cutNow(c.pico);
    const again = await resume(c.pico.flashCopy(), label);
    assert.ok(again.board.rolls.length >= 1, `${label}: the roll was shaken again after the power-up`);
  });

  it(`resumes after a cut inside a flash page program of the roll (SEED=${SEED})`, async () => {
    // a roll commits at least two journal entries (bets closed, result), three programs each
    // (JOURNAL.md): cut inside one of the first six programs after ROLL (seeded)
    const cutter = new FlashCutter(rand, null, 'program');
    const c = await cabinet({ flashBytes: start, board: diceBoard(), flashTiming: FLASH_TIMING,
      onBeforeFlashOp: cutter.hook() });
    await c.runFor(200);
    cutter.cutAt = cutter.ops.filter((o) => o.kind === 'program').length + rand(6);
    await c.board.press(BUTTON.ROLL);
    await c.runUntil(() => c.pico.cutPending, 8000);
    assert.ok(cutter.cutOp, 'the cut happened');
    await resume(c.pico.flashCopy(), `cut in program ${cutter.cutAt}`);
  });

  it('resumes after a cut inside a journal sector erase', async () => {
    // after a power-up no erase is trusted: the idle cabinet erases ahead within seconds
    const cutter = new FlashCutter(rand, 0, 'erase');
    const c = await cabinet({ flashBytes: start, board: diceBoard(), flashTiming: FLASH_TIMING,
      onBeforeFlashOp: cutter.hook() });
    await c.runUntil(() => c.pico.cutPending, 15000);
    assert.ok(cutter.cutOp, 'no erase within 15 s of idle');
    assert.equal(cutter.cutOp.kind, 'erase');
    await resume(c.pico.flashCopy(), 'cut in an erase');
  });
});
