// A player station's table link on the emulated Pico: the release image as `station 1`
// (table.cfg), running main.py, its link's PIO receiver fed by node as the dome (rs485.mjs
// StationBoard: the bytes as a waveform on GP14 at 115,200 baud). Every POLL gets its STATUS, and
// no word is lost in the receiver: its 4-word FIFO is drained by a hard interrupt, which the
// main loop's read of the ring once held off for ~0.8 ms (a third of the polls went unanswered,
// so a dome took the station off line).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cabinet, missing } from './harness.mjs';
import { encodeFrame, Framer, MSG } from './linkpeer.mjs';
import { StationBoard } from './rs485.mjs';

const POLLS = 20;
const GAP_MS = 100; // between two polls, as a dome with a few stations polls one
const ANSWER_MS = 15; // the dome's wait for an answer (firmware/link/dome.py)

describe('a station\'s table link on the emulated Pico', { skip: missing() ?? false }, () => {
  it(`answers each of ${POLLS} polls within ${ANSWER_MS} ms, no word lost in its receiver`, async () => {
    const station = await cabinet({ files: { 'table.cfg': 'station 1\n' }, board: new StationBoard({ seed: 4 }) });
    const { pico, board } = station;
    // the link's receiver: PIO0 SM3 (hal/rp2/rs485.py); a push into a full FIFO stalls it
    const sm = pico.mcu.pio[0].machines[3];
    let stalls = 0;
    const wait = sm.wait.bind(sm);
    sm.wait = (type, ...rest) => {
      if (type === 2) stalls++; // WaitType.rxFIFO
      wait(type, ...rest);
    };
    const framer = new Framer();
    const missed = [];
    for (let seq = 1; seq <= POLLS; seq++) {
      // table id, BETTING, 10 s left, station 1 shoots, ..., no dice yet, no point
      const poll = encodeFrame(1, MSG.POLL, seq, 1, [1, 0xe0, 0xb1, 0x7a, 0, 10, 1, 0, 0, 1, 0, 0, 0, 0]);
      const t0 = pico.simMs;
      board.play(poll);
      let answer = null;
      while (!answer && pico.simMs - t0 < ANSWER_MS + 3 + poll.length * 11 * 1e3 / 115200) {
        await pico.runFor(1);
        for (const b of board.decode(pico.simMs)) {
          for (const f of framer.feed(b)) if (f.kind === MSG.STATUS && f.seq === seq) answer = f;
        }
      }
      if (!answer) missed.push(seq);
      else assert.equal(answer.addr, 1);
      await pico.runFor(Math.max(0, GAP_MS - (pico.simMs - t0)));
    }
    assert.equal(station.traceback(), null);
    assert.deepEqual({ missed, stalls, bad: framer.bad }, { missed: [], stalls: 0, bad: 0 });
  });
});
