// A table on emulated silicon: the release image on two rp2040js chips, one a dome
// (table.cfg "dome ..."), one a player station ("station 1"), their table links joined
// through the RS-485 model of rs485.mjs. One round end to end: a bill and a bet at the
// station, the dome's shaker and dice, the same dice in the station's recall.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BUTTON } from './board.mjs';
import { cabinet, missing, ROOT } from './harness.mjs';
import { DomeBoard, Rs485, StationBoard } from './rs485.mjs';

const why = missing();
const OUT = path.join(ROOT, 'build', 'emu');

describe('a table on two emulated Picos', { skip: why ?? false }, () => {
  let dome;
  let station;
  let table;
  const stationText = () => station.screen().join('\n');
  const domeText = () => dome.screen().join('\n');

  before(async () => {
    dome = await cabinet({
      files: { 'table.cfg': 'dome window_s=3 result_s=2 shake_ms=800 settle_ms=600\n' },
      board: new DomeBoard({ seed: 3 }),
    });
    station = await cabinet({ files: { 'table.cfg': 'station 1\n' }, board: new StationBoard({ seed: 4 }) });
    table = new Rs485();
    table.add('dome', dome);
    table.add('station 1', station);
  });
  after(() => {
    if (dome) dome.savePNG(path.join(OUT, 'table-dome.png'));
    if (station) station.savePNG(path.join(OUT, 'table-station.png'));
  });

  it('each chip runs its role from table.cfg', async () => {
    // the dome probes an address off line once a second; a new station's first
    // seconds go to erasing ahead (interrupts off), when frames to it are lost
    for (let i = 0; i < 30 && !/SEATS 1/.test(domeText()); i++) await table.run(500);
    assert.equal(dome.traceback(), null);
    assert.equal(station.traceback(), null);
    assert.match(domeText(), /DOME ROUND 1/);
    assert.match(domeText(), /SEATS 1\.\.\.\.\.\.\./); // the station answers the dome
  });

  it('plays one round: the station bets, the dome shakes, both have the same dice', async () => {
    dome.board.queueRoll([2, 5]);
    assert.ok(await station.board.insert(20));
    await table.run(3000);
    assert.equal((await station.status()).credits, '2000');
    // both chips run while a button is held (board.press would run the station's alone)
    const press = async (button) => {
      station.board.held |= 1 << button;
      await table.run(150);
      station.board.held &= ~(1 << button);
      await table.run(150);
    };
    await press(BUTTON.BET_DOWN); // no bet yet: the stake goes down to $1 (game.test.mjs)
    await press(BUTTON.BET_UP);
    assert.equal((await station.status()).credits, '1900', stationText()); // $1 on the pass line
    assert.match(stationText(), /ON 1\.00/);
    for (let i = 0; i < 60 && !/LAST 2\+5=7/.test(domeText()); i++) await table.run(500);
    assert.match(domeText(), /LAST 2\+5=7/);
    assert.deepEqual(dome.board.rolls, [[2, 5]]); // the dome's own dice
    await table.run(1000);
    const st = await station.status();
    assert.equal(st.critical, '0');
    // the natural 7 wins: the $1 won is paid to the credits, the stake stays on the pass
    // line for the next come-out (as on the stand-alone cabinet, game.test.mjs)
    assert.equal(st.credits, '2000', stationText());
    assert.equal(st.games, '1', JSON.stringify(st));
    assert.match(stationText(), /NATURAL 7[\s\S]*WINNER \+1\.00/); // the result on view
    // then the layout again, the stake still up (a result stays on view 4 s at least)
    for (let i = 0; i < 12 && !/ON 1\.00/.test(stationText()); i++) await table.run(500);
    assert.match(stationText(), /ON 1\.00/);
    const r = await station.request('RECALL 0');
    const recall = r.lines.join('|');
    assert.ok(r.lines.includes('dice=2 5'), recall);
    assert.ok(r.lines.includes('game=1'), recall); // the table's round number
    assert.ok(r.lines.includes('credits_before=1900') && r.lines.includes('credits_after=2000'), recall);
    assert.equal(station.board.rolls.length, 0); // the station's shaker never ran
  });
});
