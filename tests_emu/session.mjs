// session.mjs - the cabinet's heap session on the emulated Pico (tools/bench_rp2_session.py over
// the raw REPL: the real rp2 board, a fake clock, scripted player inputs) with a SAS host polling
// the board's own SAS line over the wire. Used by `tools/bench firmware --rp2` and the emulator
// stage's heap guard (tests_emu/heap.test.mjs).
//
// The session prints `BENCH key value` lines. Time figures (keys ending in _us) are taken by the
// firmware with ticks_us on the chip-time clock: real-chip estimates. A `BENCH begin NAME` line
// opens a timed region; the figures after it also get the raw emulated value, the same figure
// without what the chip-time model added in that region (XIP stalls, bus time).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';
import { DomePeer, StationPeers } from './linkpeer.mjs';
import { WALL_MS } from './pico.mjs';
import { DomeBoard, StationBoard } from './rs485.mjs';
import { SasHost } from './sashost.mjs';

export const HEAP_BUDGET = 150 * 1024; // bytes free the release image must keep with SAS
// bytes free a table's dome and station (SAS polled) must keep at roll 1,000 (issue 21)
export const TABLE_HEAP_BUDGET = 100 * 1024;

export const ROLES = ['cabinet', 'station', 'dome'];
// `#@ role [role ...][: note]` starts a part of the script sent only to those roles (`all`: to
// every role); `#@` lines right after it continue its note. No `#@` line is sent.
const PART = /^#@ ((?:all|cabinet|station|dome)(?: (?:all|cabinet|station|dome))*)(?::.*)?$/;

/** The lines of `text` that `role` runs: every line outside a part, and those of its parts. */
export function rolePart(text, role) {
  if (!ROLES.includes(role)) throw new Error(`no session role ${role}`);
  let mine = true;
  let note = false; // the line before was a marker or its note
  const out = [];
  text.replace(/\n$/, '').split('\n').forEach((line, i) => {
    if (!line.startsWith('#@')) {
      note = false;
      if (mine) out.push(`${line}\n`);
      return;
    }
    const m = PART.exec(line);
    if (m) mine = m[1].split(' ').some((r) => r === 'all' || r === role);
    else if (!note) throw new Error(`line ${i + 1}: not a part marker (#@ role ...: note): ${line}`);
    note = true;
  });
  return out.join('');
}

/**
 * `text` without what only a reader needs: its leading docstring, comment lines and blank lines.
 * The raw REPL holds the text it was sent in RAM until the session ends, so every byte of it
 * would count against the release image's free heap, and none of it ships (~1.5 KB a role).
 */
export function codeOnly(text) {
  return text.replace(/^"{3}[\s\S]*?"{3}\n/, '').split('\n')
    .filter((line) => !/^\s*(#.*)?$/.test(line)).map((line) => `${line}\n`).join('');
}

/** The session script for `role` (only the code it runs) with its parameters filled in; `script`:
 * another of tools/ sent after it (tools/bench_rp2_aft.py, the AFT and ticket phase). */
export function sessionCode({ rolls, timed = 0, check = 100, seed = 12345, role = 'cabinet', script = 'bench_rp2_session.py' }) {
  return codeOnly(rolePart(fs.readFileSync(path.join(ROOT, 'tools', script), 'utf8'), role))
    .replace('@ROLLS@', String(rolls)).replace('@TIMED@', String(timed))
    .replace('@CHECK@', String(check)).replace('@SEED@', String(seed)).replace('@ROLE@', role);
}

/**
 * Run the session on `pico` (raw REPL entered, board with `host` attached; null: no SAS host, a
 * dome). opts.role: 'cabinet', 'dome' or 'station', with opts.peer the other end of its table
 * link (linkpeer.mjs, attached). Resolves to { figures: {key: value string}, lines: decorated
 * output lines, host: host.stats(), peer: peer.stats() }. echo(line) sees each decorated line.
 */
export async function runSession(pico, host, opts, echo = () => {}) {
  const figures = {};
  const lines = [];
  let mark = null;
  let buf = '';
  // A station's host polls from its first pass on, a poll to another address first (a machine
  // answers nothing before one, firmware/sas/machine.py `synced`): its passes run the fake clock
  // ~5x the emulated one, so a poll left unanswered while its controller is built (the host
  // waits 1 s for an answer) would be 5 s of the station's clock, SAS's loop break, and the
  // station would chirp over the host's next polls.
  const hostAtCycle = opts.role === 'station';
  const onLine = (line) => {
    const m = /^BENCH (\S+) ?(.*)$/.exec(line);
    if (!m) return;
    const [, key, value] = m;
    if (key === 'begin') {
      mark = { sim: pico.simMs, model: pico.modelNs };
      if (value === 'screen_build') host?.stop(); // the session is over: its polls with it
      if (value === 'cycle' && hostAtCycle) host?.start(SasHost.OTHER_FIRST);
      return;
    }
    figures[key] = value;
    let out = `BENCH ${key} ${value}`;
    if (key.endsWith('_us') && mark) {
      const span = pico.simMs - mark.sim;
      const share = span > 0 ? Math.min(1, (pico.modelNs - mark.model) / 1e6 / span) : 0;
      const raw = value.split(' ').map((v) => Math.round(Number(v) * (1 - share))).join(' ');
      out += ` (real-chip estimate; raw emulated ${raw})`;
    }
    lines.push(out);
    echo(out);
  };
  if (!hostAtCycle) host?.start();
  opts.peer?.start();
  const r = await pico.exec(sessionCode(opts), {
    wallMs: WALL_MS * 8,
    onOutput: (s) => {
      buf += s;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        onLine(buf.slice(0, i).replace(/\r$/, ''));
        buf = buf.slice(i + 1);
      }
    },
  });
  host?.stop();
  opts.peer?.stop();
  if (r.err || r.reset) throw new Error(`session failed: ${r.err || 'chip reset'}`);
  return { figures, lines, host: host?.stats() ?? null, peer: opts.peer?.stats() ?? null };
}

/**
 * A table role's board on `pico` (before it boots): a dome with `seats` stations played by node
 * on its link, or station 1 with node as its dome and a SAS host on its SAS line. Returns
 * { host (null for a dome), peer } for runSession.
 */
export function attachTable(pico, role, { seed = 1, seats = 8 } = {}) {
  if (role === 'dome') {
    const board = new DomeBoard({});
    const peer = new StationPeers({ seats });
    board.link = peer;
    board.attach(pico);
    peer.attach(pico, board);
    return { host: null, peer };
  }
  const host = new SasHost();
  const board = new StationBoard({ sasHost: host });
  const peer = new DomePeer({ seed });
  board.attach(pico);
  peer.attach(pico, board);
  return { host, peer };
}

/** least, median and most of the session's free_roll_N readings for rolls from..to. */
function spread(figures, from, to) {
  const w = [];
  for (let n = from; n <= to; n += 1) w.push(Number(figures[`free_roll_${n}`]));
  w.sort((a, b) => a - b);
  return [w[0], w[w.length >> 1], w[w.length - 1]];
}

/** The heap guard: `free` at roll CHECK and at the end, both >= budget, and no fall of the
 * median free over the last heap_window rolls below the median over as many rolls from CHECK
 * (least, median and most of each window returned as first / last). */
// Growth is judged on windows this wide (a FULL run's): the readings of one state differ by up
// to ~270 B with what the last roll left, so the medians of a short run's windows move by a few
// 16-byte blocks either way.
export const GROWTH_WINDOW = 100;

// budget: the floor; growth: whether a fall after roll `check` fails it (the cabinet's guard)
export function heapGuard(figures, check, rolls, { budget = HEAP_BUDGET, growth = true } = {}) {
  const atCheck = Number(figures[`free_roll_${check}`]);
  const atEnd = Number(figures[`free_roll_${rolls}`]);
  const problems = [];
  if (!(atCheck >= budget)) problems.push(`free at roll ${check}: ${figures[`free_roll_${check}`]} B < ${budget} B`);
  if (!(atEnd >= budget)) problems.push(`free at roll ${rolls}: ${figures[`free_roll_${rolls}`]} B < ${budget} B`);
  const window = Number(figures.heap_window);
  const first = spread(figures, check, check + window - 1);
  const last = spread(figures, rolls - window + 1, rolls);
  if ([...first, ...last].some((v) => !Number.isFinite(v))) problems.push(`readings missing from the windows of ${window} rolls`);
  const judged = growth && window >= GROWTH_WINDOW;
  if (judged && !(last[1] >= first[1])) {
    problems.push(`heap grew from roll ${check} to ${rolls}: median free ${first[1]} -> ${last[1]} B`);
  }
  return { atCheck, atEnd, first, last, judged, problems };
}
