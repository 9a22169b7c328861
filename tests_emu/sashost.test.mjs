// The SAS host of sashost.mjs on a wire of its own, no chip (fast): what it makes of the bytes a
// gaming machine puts on the line at given instants. The line's two directions are two wires, so a
// machine's byte can begin while the host is still sending a poll: a loop-break chirp that did is
// a chirp, not an answer byte framed from the middle of the chirp (which read its stop bit as
// the wakeup bit: "wakeup bit set on an answer byte", the heap guard's SEED=826305).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RP2040 } from 'rp2040js';
import { SasHost } from './sashost.mjs';

const BIT_NS = 1e9 / 19200;
const TO_CABINET = 21;
const FROM_CABINET = 20;
// the host's first poll (start(), onTick k = 0: a general poll to its own address) begins one bit
// after its first 50 ms tick and lasts one 11-bit word
const POLL_NS = 50e6 + BIT_NS;
const POLL_END_NS = POLL_NS + 11 * BIT_NS;

/** The part of a Pico that SasHost uses: an rp2040js clock, and pins driven from outside. */
class Wire {
  constructor() {
    this.mcu = { clock: new RP2040().clock };
    this.modelNs = 0;
    this.levels = new Map();
    this.listeners = new Map();
  }

  get simMs() {
    return this.mcu.clock.nanos / 1e6;
  }

  setPin(n, level) {
    if (this.levels.get(n) === level) return;
    this.levels.set(n, level);
    for (const cb of this.listeners.get(n) ?? []) cb(level);
  }

  getPin(n) {
    return this.levels.get(n) ?? true;
  }

  onPin(n, cb) {
    this.listeners.set(n, [...(this.listeners.get(n) ?? []), cb]);
  }

  /** The gaming machine sends `bytes` from `atNs` on: per byte a start bit, 8 data bits, the
   * wakeup bit clear, a stop bit. */
  machineSends(atNs, bytes) {
    const clock = this.mcu.clock;
    let t = atNs;
    for (const b of bytes) {
      const bits = [0, ...Array.from({ length: 8 }, (_, k) => (b >> k) & 1), 0, 1];
      for (const bit of bits) {
        clock.createAlarm(() => this.setPin(FROM_CABINET, !!bit)).schedule(t - clock.nanos);
        t += BIT_NS;
      }
    }
  }

  /** Runs the host for `ms` of the clock from its first poll on (`tick`: host.start's; `synced`:
   * as after a poll to another address, which installing on a chip forgets). */
  run(host, ms, tick = undefined, { synced = false } = {}) {
    this.setPin(FROM_CABINET, true);
    host.install(this);
    if (synced) host.synced = true;
    host.start(tick);
    this.mcu.clock.tick(ms * 1e6);
    host.stop();
    return host.stats();
  }
}

describe('SAS host on the wire (sashost.mjs)', () => {
  it('takes and times a one-byte answer to its general poll', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    wire.machineSends(POLL_END_NS + 2e6, [0x00]);
    const s = wire.run(host, 90, undefined, { synced: true });
    assert.equal(s.wrong, 0, s.firstWrong);
    assert.equal(s.answers, 1, JSON.stringify(s));
    assert.ok(Math.abs(s.maxMs - 2) < 0.01, JSON.stringify(s));
  });

  it('counts a chirp that began while it sent its poll as a chirp', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    // the chirp (the address, 01) starts in the poll's wakeup bit: its start bit's fall comes
    // while the host sends, its bit 1's fall after the host's stop bit
    wire.machineSends(POLL_NS + 9.5 * BIT_NS, [host.address]);
    const s = wire.run(host, 90);
    assert.deepEqual(host.wrong, []);
    assert.equal(s.chirps, 1, JSON.stringify(s));
    assert.equal(s.answers, 0, JSON.stringify(s));
  });

  // a machine answers nothing before it has seen a poll to another address (firmware/sas/SAS.md,
  // start-up synchronisation); a host started on its own general poll waits its 1 s for it, and its
  // next poll is long poll 19, still before any to another address: neither is a missed answer
  it('counts the polls before its first to another address apart, not as unanswered', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    const s = wire.run(host, 2200);
    assert.deepEqual([s.polls, s.beforeSync, s.unanswered, s.wrong], [3, 2, 0, 0], JSON.stringify(s));
  });

  it('reports an answer to a poll before its first to another address', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    wire.machineSends(POLL_END_NS + 2e6, [0x00]);
    const s = wire.run(host, 90);
    assert.deepEqual(host.wrong, ['answered a poll before any to another address: 00']);
    assert.equal(s.answers, 1, JSON.stringify(s));
  });

  it('reports any other byte that began while it sent its poll', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    wire.machineSends(POLL_NS + 9.5 * BIT_NS, [0x00]);
    const s = wire.run(host, 90);
    assert.deepEqual(host.wrong, ['byte 0 while the host sent a poll']);
    assert.equal(s.chirps, 0, JSON.stringify(s));
  });

  it('records each poll left unanswered after start-up synchronisation, with its time', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    // a poll to another address at 50 ms, then the general poll at 150 ms: no answer in 1 s
    const s = wire.run(host, 1300, SasHost.OTHER_FIRST);
    assert.equal(s.unanswered, 1, JSON.stringify(s));
    assert.equal(s.beforeSync, 0, JSON.stringify(s));
    assert.equal(host.missed.length, 1);
    const [t, poll] = host.missed[0];
    assert.equal(poll, 'general');
    assert.ok(t > 1150 && t < 1170, `given up at ${t} ms`);
  });

  it('counts a poll before the first to another address apart (the machine is not synchronised)', () => {
    const wire = new Wire();
    const host = new SasHost({ toCabinet: TO_CABINET, fromCabinet: FROM_CABINET });
    const s = wire.run(host, 1100);
    assert.equal(s.beforeSync, 1, JSON.stringify(s));
    assert.equal(s.unanswered, 0, JSON.stringify(s));
    assert.deepEqual(host.missed, []);
  });
});
