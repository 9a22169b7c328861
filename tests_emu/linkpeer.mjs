// linkpeer.mjs - the other end of the table link for one emulated chip, played in node from
// firmware/link/LINK.md (the frame, the message table): StationPeers answer a dome chip as
// stations on line would, DomePeer runs rounds for a station chip as the dome would. They serve
// the table's heap sessions (session.mjs, `tools/bench firmware --rp2 --role dome|station`),
// where the chip under test runs a fake clock: a peer has no round clock of its own, it moves on
// when the chip answers (or after a miss on the chip's emulated clock), so it keeps pace with
// any fake clock. A peer checks what it is told: a result for a round it did not close, or a
// station's answer to another command, counts as `wrong`.
import { crcKermit } from './sashost.mjs';

const SYNC = 0xa5;
const ANSWER = 0x80;
const HEAD = 9;
const MAX_PAYLOAD = 24;
export const MSG = { POLL: 1, CLOSE: 2, RESULT: 3, UNKNOWN: 4, STATUS: 0x81 };
export const FLAG = { PENDING: 1, BETS: 2, CREDITS: 4, OUT: 8, SHOOT: 16 };
const BETTING = 0;
const RESULTS = 3;
const MS = 1e6; // nanoseconds

/** sync | address | type | seq | round u32 | length | payload | crc u16 (LINK.md "Wire and frame"). */
export function encodeFrame(addr, kind, seq, rnd, payload) {
  const f = [SYNC, addr, kind, seq & 0xff, rnd & 0xff, (rnd >>> 8) & 0xff, (rnd >>> 16) & 0xff,
    (rnd >>> 24) & 0xff, payload.length, ...payload];
  const crc = crcKermit(f.slice(1));
  return [...f, crc & 0xff, crc >> 8];
}

/** Frames out of a byte stream: by the sync byte and the length, a bad CRC skips to the next sync. */
export class Framer {
  constructor() {
    this.buf = [];
    this.bad = 0;
  }
  /** The frames the byte `b` completes: [{ addr, kind, seq, rnd, payload }]. */
  feed(b) {
    const out = [];
    const buf = this.buf;
    buf.push(b);
    for (;;) {
      const i = buf.indexOf(SYNC);
      if (i < 0) buf.length = 0;
      else if (i > 0) buf.splice(0, i);
      if (buf.length < HEAD) return out;
      const n = buf[8];
      if (n > MAX_PAYLOAD) {
        buf.shift();
        continue;
      }
      if (buf.length < HEAD + n + 2) return out;
      const crc = crcKermit(buf.slice(1, HEAD + n));
      if (crc !== (buf[HEAD + n] | (buf[HEAD + n + 1] << 8))) {
        this.bad++;
        buf.shift();
        continue;
      }
      out.push({ addr: buf[1], kind: buf[2], seq: buf[3], rnd: (buf[4] | (buf[5] << 8) | (buf[6] << 16) | (buf[7] << 24)) >>> 0,
        payload: buf.slice(HEAD, HEAD + n) });
      buf.splice(0, HEAD + n + 2);
    }
  }
}

const u32 = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
const u16 = (v) => [v & 0xff, (v >>> 8) & 0xff];

/**
 * Stations 1..seats on a dome chip's link (UART1, DomeBoard of rs485.mjs): each has credits and
 * bets, so every round the dome closes has them all in it. A station commits CLOSE N (PENDING N)
 * and takes RESULT N once, as firmware/link/seat.py does, and answers every command addressed
 * to it with STATUS a fraction of a millisecond after the command's last byte.
 */
export class StationPeers {
  constructor({ seats = 8 } = {}) {
    this.seats = [];
    for (let a = 1; a <= seats; a++) this.seats.push({ addr: a, pending: 0, closed: 0, results: 0, outs: 0 });
    this.framer = new Framer();
    this.dice = new Map(); // round -> 'd1+d2' (or 'void N'), the same for every station
    this.answers = 0;
    this.wrong = [];
    this.queue = [];
  }
  attach(pico) {
    this.pico = pico;
    this.alarm = pico.mcu.clock.createAlarm(() => this.flush());
  }
  start() {}
  stop() {}
  /** A byte the dome's UART sent (DomeBoard calls link.fromNode). */
  fromNode(board, b) {
    for (const f of this.framer.feed(b)) this.onFrame(f);
  }
  onFrame(f) {
    if (f.kind & ANSWER) return;
    for (const s of this.seats) {
      if (f.addr !== s.addr && f.addr !== 0) continue;
      if (f.kind === MSG.CLOSE && !s.pending && f.rnd > s.closed) {
        s.pending = f.rnd;
        s.closed = f.rnd;
      } else if (f.kind === MSG.RESULT && s.pending === f.rnd) {
        const [d1, d2, why, roster] = f.payload.slice(4, 8);
        const seen = why ? `void ${why}` : `${d1}+${d2}`;
        const before = this.dice.get(f.rnd);
        if (before !== undefined && before !== seen) this.wrong.push(`round ${f.rnd}: ${before} and ${seen}`);
        this.dice.set(f.rnd, seen);
        s.pending = 0;
        if (roster & (1 << (s.addr - 1))) s.results++;
        else s.outs++; // closed after the dome's close was over: sat out, bets stay
      }
      if (f.addr === s.addr) {
        const flags = (s.pending ? FLAG.PENDING : 0) | FLAG.BETS | FLAG.CREDITS;
        this.queue.push(encodeFrame(s.addr, MSG.STATUS, f.seq, s.closed, [flags]));
        this.alarm.schedule(0.2 * MS); // the transceiver turns round
      }
    }
  }
  flush() {
    for (const a of this.queue.splice(0)) {
      this.pico.uartWrite(1, a);
      this.answers++;
    }
  }
  stats() {
    return { answers: this.answers, rounds: this.dice.size, results: this.seats.map((s) => s.results), outs: this.seats.map((s) => s.outs),
      wrong: this.wrong.length, firstWrong: this.wrong[0] ?? null, bad: this.framer.bad };
  }
}

/**
 * The dome for station `addr` on a station chip's link (the PIO line of StationBoard, rs485.mjs):
 * it polls the window open with this station the shooter; the station's ROLL (SHOOT in its
 * STATUS) closes round N; once the station says PENDING N it sends RESULT N with dice of its own
 * (xorshift, `seed`) and the station in the roster; a POLL with the result on view, then round
 * N+1. A station that closes with no bets is not in N: the next round opens.
 *
 * Its pace is the station's, whose fake clock moves 50 ms a pass, a pass ~8-10 emulated ms: in
 * the betting window it polls every `pollMs` of emulated time (~200 ms on the station's clock,
 * the dome's POLL_MS, firmware/link/dome.py), and within a round (the window's first poll,
 * CLOSE, RESULT, the result's poll) it sends the next command `gapMs` after the answer, as the
 * dome does: each exchange then costs the station one pass, not two or three.
 */
export class DomePeer {
  constructor({ addr = 1, seed = 1, tid = 0x7ab1e001, gapMs = 1, pollMs = 40 } = {}) {
    this.addr = addr;
    this.gapMs = gapMs; // after an answer that moves the round on, the next command
    this.pollMs = pollMs; // after an answer in the betting window, the next poll
    this.rng = seed >>> 0 || 1;
    this.tid = tid;
    this.framer = new Framer();
    this.round = 1;
    this.state = 'bet'; // the command sent: 'bet' POLL, 'close' CLOSE, 'result' RESULT, 'shown' POLL
    this.seq = 0;
    this.waiting = false;
    this.faces = [0, 0];
    this.dice = new Map(); // round -> [d1, d2] sent
    this.settled = 0;
    this.answers = 0;
    this.misses = 0;
    this.wrong = [];
    this.running = false;
  }
  attach(pico, board) {
    this.pico = pico;
    this.board = board;
    this.alarm = pico.mcu.clock.createAlarm(() => this.tick());
  }
  start() {
    this.running = true;
    this.nextNs = 0;
    this.alarm.schedule(MS);
  }
  stop() {
    this.running = false;
    this.alarm.cancel();
  }
  roll() {
    let s = this.rng;
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    this.rng = s;
    return 1 + (s % 6);
  }
  tick() {
    if (!this.running) return;
    const now = this.pico.mcu.clock.nanos;
    for (const b of this.board.decode(this.pico.simMs)) for (const f of this.framer.feed(b)) this.onFrame(f);
    // the station answers at its next pass (a fake-clock pass is tens of emulated ms)
    if (this.waiting && now - this.sentNs > 100 * MS) {
      this.waiting = false; // a miss: the same command again
      this.misses++;
    }
    if (!this.waiting && now >= this.nextNs) this.send(now);
    this.alarm.schedule(0.5 * MS);
  }
  send(now) {
    const n = this.round;
    const shooter = this.addr;
    const [d1, d2] = this.faces;
    let kind = MSG.POLL;
    let body;
    if (this.state === 'close') {
      kind = MSG.CLOSE;
      body = u32(this.tid);
    } else if (this.state === 'result') {
      kind = MSG.RESULT;
      if (!this.dice.has(n)) this.dice.set(n, [this.roll(), this.roll()]);
      const [r1, r2] = this.dice.get(n);
      body = [...u32(this.tid), r1, r2, 0, 1 << (this.addr - 1), shooter, ...u16(1), 0, 0];
    } else {
      const phase = this.state === 'shown' ? RESULTS : BETTING;
      body = [...u32(this.tid), phase, phase === BETTING ? 10 : 255, shooter, 0, 0, ...u16(1), d1, d2, 0];
    }
    this.seq = (this.seq + 1) & 0xff;
    this.kind = kind;
    this.board.play(encodeFrame(this.addr, kind, this.seq, n, body));
    this.waiting = true;
    this.sentNs = now;
  }
  onFrame(f) {
    if (f.kind !== MSG.STATUS || f.addr !== this.addr) return;
    if (!this.waiting || f.seq !== this.seq) return; // a late answer to an earlier command
    this.waiting = false;
    this.answers++;
    const was = this.state;
    this.move(f);
    const again = was === 'bet' && this.state === 'bet';
    this.nextNs = this.pico.mcu.clock.nanos + (again ? this.pollMs : this.gapMs) * MS;
  }
  /** The round's next step after the station's answer `f` to the command sent. */
  move(f) {
    const flags = f.payload[0];
    const pending = flags & FLAG.PENDING;
    const n = this.round;
    if (this.state === 'result') {
      if (pending && f.rnd === n) return; // not taken yet: again
      if (pending) this.wrong.push(`round ${n}: the station has round ${f.rnd} open after the result`);
      this.settled++;
      this.faces = this.dice.get(n);
      this.state = 'shown';
    } else if (pending && this.state !== 'close') {
      this.wrong.push(`round ${n}: the station has round ${f.rnd} open`);
    } else if (this.state === 'close') {
      this.state = pending && f.rnd === n ? 'result' : 'shown'; // no bets: not in round N
    } else if (this.state === 'shown') {
      this.round = n + 1;
      this.state = 'bet';
    } else if (flags & FLAG.SHOOT) {
      this.state = 'close';
    }
  }
  stats() {
    return { answers: this.answers, misses: this.misses, settled: this.settled, round: this.round,
      wrong: this.wrong.length, firstWrong: this.wrong[0] ?? null, bad: this.framer.bad };
  }
}
