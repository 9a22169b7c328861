// sashost.mjs - a SAS host on the cabinet's SAS line (GP21 into the cabinet, GP20 out of it),
// bit by bit at 19,200 baud on the emulated clock: 9-bit words (the wakeup bit set on a
// message's first byte), the cabinet's PIO UART (hal/rp2/sas_pio.py) on the other end.
//
// It polls like a casino system: a general poll every 100 ms, every other one to another
// address (an implied ACK), and a long poll every 500 ms from a fixed list, in turn. Each
// answer is timed on the wire, from the poll's last stop bit to the answer's first start bit,
// and checked: one byte to a general poll, none to another address, the address, the command
// and a right CRC (CRC-16 Kermit) on a long poll. Like a host it waits for the answer (up to a
// second) before the next poll, so a late answer is timed, not taken for the next one's.
// A lone address byte is the cabinet's loop-break chirp (firmware/sas/SAS.md: after 5 s of
// its clock without a poll; the heap session's fake clock jumps that far), counted apart, also
// one that begins while the host is still sending a poll: like a host's UART, this one receives
// while it sends (sashost.test.mjs).
// Start-up synchronisation (firmware/sas/SAS.md): a machine answers nothing until it has seen a
// poll to another address, so a poll before the host's first one is counted apart (beforeSync),
// and an answer to it is wrong. A host started on its own general poll (tick 0) waits the 1 s
// for it, and its next poll may be a long poll, still before any to another address.
// Polls with data a test queues (`queue`, e.g. tests_emu/floorhost.mjs) go first, each with its
// own check of the answer; `onException` hears every general poll's exception byte.
// `stats()` sums it up.

const BIT_NS = 1e9 / 19200;
const MS = 1e6;
const ADDRESS = 1;
// long polls without data (SAS 6.02): meters, machine ID, last bill, serial, date, cash-out status
const LONG_POLLS = [0x1c, 0x0f, 0x19, 0x1e, 0x1a, 0x10, 0x1f, 0x48, 0x54, 0x7e, 0x1b, 0x18, 0x20, 0x57];
const QUIET_NS = 10 * MS; // an answer has ended when the line stayed idle this long
const GIVE_UP_NS = 1000 * MS; // no start bit by then: no answer (a late one is timed)

/** CRC-16 Kermit (SAS 6.02 appendix), bit by bit. */
export function crcKermit(bytes) {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return crc;
}

export class SasHost {
  constructor({ toCabinet = 21, fromCabinet = 20, address = ADDRESS } = {}) {
    this.toPin = toCabinet;
    this.fromPin = fromCabinet;
    this.address = address;
    this.times = []; // answer times, ns, of every poll that wants an answer
    this.rawTimes = []; // the same less what the chip-time model added meanwhile
    this.slow = []; // [emulated ms, answer ms, poll] of the answers over 20 ms
    this.polls = 0;
    this.wrong = []; // what was wrong with an answer (text)
    this.unanswered = 0;
    this.beforeSync = 0; // polls unanswered before the host's first poll to another address
    this.synced = false;
    this.missed = []; // [emulated ms, poll] of the polls left unanswered once synchronised
    this.queued = []; // long polls with data, first come first sent: { bytes, cmd, check, none }
    this.onException = null; // (code) => ..., each general poll's answer
    // () => ... when a poll's last stop bit is on the line, (frame) => ... when its answer
    // begins or, once synchronised, is given up (tests_emu/chipprofile.mjs)
    this.onSent = null;
    this.onAnswer = null;
    this.chirps = 0;
    this.tick = 0;
    this.running = false;
  }

  /** On a (new) chip: alarms on its clock, the line idle high; edges from the cabinet watched. */
  install(pico) {
    const first = this.pico !== pico;
    this.pico = pico;
    const clock = pico.mcu.clock;
    this.txAlarm = clock.createAlarm(() => this.txStep());
    this.rxAlarm = clock.createAlarm(() => this.rxSample());
    this.pollAlarm = clock.createAlarm(() => this.onTick());
    this.quietAlarm = clock.createAlarm(() => this.answerEnded());
    this.state = 'idle';
    this.rx = null;
    this.synced = false; // a new chip synchronises again
    pico.setPin(this.toPin, true);
    if (first) pico.onPin(this.fromPin, (level) => level === false && this.onFall());
    if (this.running) this.pollAlarm.schedule(50 * MS);
  }

  /** Polls from now on; `tick`: where its round of polls begins (OTHER_FIRST: a poll to another
   * address, the one a machine waits for before it answers). */
  start(tick = this.tick) {
    this.running = true;
    this.tick = tick;
    this.pollAlarm.schedule(50 * MS);
  }

  stop() {
    this.running = false;
    this.pollAlarm.cancel();
  }

  now() {
    return this.pico.mcu.clock.nanos;
  }

  static OTHER_FIRST = 2; // onTick's k of the first poll to another address

  /** Every 50 ms: a general poll on the 100 ms marks, a long poll on every tenth other one. */
  onTick() {
    if (!this.running) return;
    this.pollAlarm.schedule(50 * MS);
    const k = this.tick++;
    let frame;
    if (k % 2 === 0) {
      const own = k % 4 === 0;
      frame = { bytes: [0x80 | (own ? this.address : this.address + 1)], kind: own ? 'general' : 'other' };
    } else if (this.queued.length) {
      frame = this.queued[0];
    } else if (k % 10 === 1) {
      const cmd = LONG_POLLS[((k - 1) / 10) % LONG_POLLS.length];
      frame = { bytes: [this.address, cmd], kind: 'long', cmd };
    } else {
      return;
    }
    if (this.state !== 'idle') return; // the previous exchange is not over: this poll waits
    if (frame === this.queued[0]) this.queued.shift();
    this.send(frame);
  }

  /** A long poll with data (`bytes` with its CRC) sent before the next of the list; check(answer)
   * returns what is wrong with its answer ('' if nothing), none() runs when it got no answer. */
  queue(bytes, check = () => '', none = () => {}) {
    this.queued.push({ bytes, kind: 'long', cmd: bytes[1], check, none });
  }

  send(frame) {
    this.polls++;
    if (frame.kind === 'other') this.synced = true;
    this.frame = frame;
    this.state = 'sending';
    // the line's levels: per byte a start bit, 8 data bits LSB first, the wakeup bit, a stop bit
    const edges = [];
    let t = this.now() + BIT_NS;
    frame.bytes.forEach((b, i) => {
      const word = b | (i === 0 ? 0x100 : 0);
      const bits = [0];
      for (let k = 0; k < 9; k++) bits.push((word >> k) & 1);
      bits.push(1);
      for (const bit of bits) {
        edges.push([t, !!bit]);
        t += BIT_NS;
      }
    });
    this.edges = edges;
    this.endNs = t;
    this.txAlarm.schedule(edges[0][0] - this.now());
  }

  txStep() {
    if (!this.edges) {
      this.awaitAnswer();
      return;
    }
    const [, level] = this.edges.shift();
    this.pico.setPin(this.toPin, level);
    if (this.edges.length) {
      this.txAlarm.schedule(Math.max(0, this.edges[0][0] - this.now()));
      return;
    }
    // the last stop bit is on the line: the answer's time runs from its end
    this.txAlarm.schedule(Math.max(0, this.endNs - this.now()));
    this.edges = null;
    this.state = 'sent';
    this.model0 = this.pico.modelNs;
    this.onSent?.();
  }

  onFall() {
    if (this.rx && this.rx.bit >= 0) return; // inside a character
    if (this.state === 'sending') {
      // the host's receiver runs while it sends (the line's two directions are two wires): a
      // byte begun now is no answer to this poll, which the machine has not yet heard whole
      this.rx = { bit: 0, word: 0, stray: true };
      this.rxAlarm.schedule(1.5 * BIT_NS);
      return;
    }
    if (this.state === 'sent' || this.state === 'awaiting') {
      this.onAnswer?.(this.frame);
      this.state = 'answer';
      this.answer = [];
      this.times.push(this.now() - this.endNs);
      if (this.now() - this.endNs > 20 * MS) {
        this.slow.push([this.pico.simMs, (this.now() - this.endNs) / MS, this.frame.cmd ?? this.frame.kind]);
      }
      this.rawTimes.push(this.now() - this.endNs - (this.pico.modelNs - this.model0));
    } else if (this.state === 'idle') {
      this.unsolicited = true; // a chirp, or wrong (answerEnded says which)
      this.state = 'answer';
      this.answer = [];
    }
    this.quietAlarm.cancel();
    this.rx = { bit: 0, word: 0 };
    this.rxAlarm.schedule(1.5 * BIT_NS);
  }

  rxSample() {
    const rx = this.rx;
    const level = this.pico.getPin(this.fromPin) !== false;
    if (rx.bit < 9) {
      rx.word |= (level ? 1 : 0) << rx.bit;
      rx.bit++;
      this.rxAlarm.schedule(BIT_NS);
      return;
    }
    if (!level) this.wrong.push('framing error');
    if (rx.word & 0x100) this.wrong.push('wakeup bit set on an answer byte');
    this.rx = null;
    if (rx.stray) {
      this.strayByte(rx.word & 0xff);
      return;
    }
    this.answer.push(rx.word & 0xff);
    this.quietAlarm.schedule(QUIET_NS);
  }

  /** A byte that began while the host sent a poll: a chirp (the machine's loop break ran out
   * just before the poll reached it), anything else wrong. */
  strayByte(b) {
    if (b === this.address) this.chirps++;
    else this.wrong.push(`byte ${b.toString(16)} while the host sent a poll`);
  }

  /** The line stayed quiet: the answer is complete (or none came). */
  answerEnded() {
    const f = this.frame;
    const none = this.state === 'awaiting';
    this.state = 'idle';
    if (none) {
      if (f.kind !== 'other') this.noAnswer(f);
      f.none?.();
      return;
    }
    const a = this.answer ?? [];
    const unsolicited = this.unsolicited;
    this.unsolicited = false;
    this.answer = null;
    // a lone address byte is a chirp, also when it falls on a poll to another
    // address (the session's fake clock can put 5 s between two loop passes), or on
    // any poll before the machine may answer one
    if (a.length === 1 && a[0] === this.address && (unsolicited || f.kind !== 'general' || !this.synced)) {
      this.chirps++;
      if (!unsolicited) { // not the poll's answer: its time does not count
        if (!this.synced || f.kind === 'long') this.noAnswer(f);
        if (f.kind !== 'other') f.none?.();
        this.times.pop();
        this.rawTimes.pop();
      }
      return;
    }
    if (unsolicited) {
      this.wrong.push('a byte while nothing was polled');
      return;
    }
    if (f.kind === 'other') {
      this.wrong.push('answered a poll to another address');
      return;
    }
    if (!this.synced) {
      this.wrong.push(`answered a poll before any to another address: ${Buffer.from(a).toString('hex')}`);
      return;
    }
    if (f.kind === 'general' && a.length !== 1) this.wrong.push(`general poll: ${a.length} bytes`);
    else if (f.kind === 'general') this.onException?.(a[0]);
    if (f.kind === 'long') {
      const crc = a.length >= 4 ? crcKermit(a.slice(0, -2)) : -1;
      if (a[0] !== this.address || a[1] !== f.cmd || crc !== (a[a.length - 2] | (a[a.length - 1] << 8))) {
        this.wrong.push(`long poll ${f.cmd.toString(16)}: ${Buffer.from(a).toString('hex')}`);
      } else if (f.check) {
        const why = f.check(a);
        if (why) this.wrong.push(`long poll ${f.cmd.toString(16)}: ${why}: ${Buffer.from(a).toString('hex')}`);
      }
    }
  }

  noAnswer(f) {
    if (!this.synced) { // a machine answers only once a poll to another address has shown it
      this.beforeSync++; // where the host's messages begin (SAS 6.02 start-up synchronisation)
      return;
    }
    this.onAnswer?.(f);
    this.unanswered++;
    this.missed.push([this.pico.simMs, f.cmd ?? f.kind]);
  }

  /** Called by txAlarm's second firing (end of the poll): wait for the answer or give up. */
  awaitAnswer() {
    this.state = 'awaiting';
    this.quietAlarm.schedule(this.frame.kind === 'other' ? QUIET_NS : GIVE_UP_NS);
  }

  stats() {
    const t = this.times.map((ns) => ns / MS).sort((x, y) => x - y);
    const pct = (p) => (t.length ? t[Math.min(t.length - 1, Math.floor(p * t.length))] : 0);
    return { polls: this.polls, answers: t.length, unanswered: this.unanswered, beforeSync: this.beforeSync, chirps: this.chirps, wrong: this.wrong.length,
      over20ms: t.filter((ms) => ms > 20).length,
      rawMaxMs: this.rawTimes.length ? Math.max(...this.rawTimes) / MS : 0,
      firstWrong: this.wrong[0] ?? '', maxMs: t.length ? t[t.length - 1] : 0, p50Ms: pct(0.5), p99Ms: pct(0.99) };
  }
}
