// floorhost.mjs - the casino system's money polls on a SasHost (sashost.mjs): AFT transfers with
// the game lock (74 lock, 72 transfer, SAS 6.02 section 8) and ticket redemption (exception 67,
// 70 ticket validation data, 71 redeem ticket, 68, 71 FF status; 15.11, 15.12), for the heap
// session's AFT and ticket phase (tools/bench_rp2_aft.py). The phase's `BENCH aft_in|aft_out
// CENTS` and `BENCH ticket_in NUMBER CENTS` lines (onLine) start each exchange. Every poll is
// built and every answer checked here from the SAS tables (8.2a/b, 8.3a/b, 15.11, 15.12), not
// from firmware/sas; a poll without an answer is sent again (a transfer with the same ID: the
// machine answers a repeat with its result, 8.3).
import { crcKermit } from './sashost.mjs';

export const ASSET = 16909060; // the phase's asset number (0x01020304)
const LOCK_MS = 9999; // 74 lock timeout, hundredths of a second (2 BCD bytes at most)
const IN = 0x00; // 72 transfer types: in-house to the machine, to the host (Table 8.3c)
const OUT = 0x80;
const ONLY_IF_LOCKED = 0x40; // 72 transfer flags (Table 8.3d)
const LOCKED = 0x00; // 74 lock status (Table 8.2b)
const PENDING = 0x40;
const TRIES = 200; // 74 status polls while the lock waits for the game

/** `n` as `size` bytes of packed BCD, most significant first. */
export function bcd(n, size) {
  const out = [];
  for (let i = 0; i < size; i++) {
    out.unshift((Math.floor(n / 10) % 10) * 16 + (n % 10));
    n = Math.floor(n / 100);
  }
  return out;
}

export function fromBcd(bytes) {
  return bytes.reduce((v, b) => v * 100 + (b >> 4) * 10 + (b & 15), 0);
}

function withCrc(bytes) {
  const crc = crcKermit(bytes);
  return [...bytes, crc & 0xff, crc >> 8];
}

const asset = (a, at) => a[at] | (a[at + 1] << 8) | (a[at + 2] << 16) | (a[at + 3] * 2 ** 24);

export class FloorHost {
  constructor(host) {
    this.host = host;
    this.address = host.address;
    this.transfer = null; // the AFT transfer under way: { kind, cents, tid, tries }
    this.serial = 0;
    this.tickets = new Map(); // number (string) -> { cents, redeemed }
    this.done = { aftIn: 0, aftOut: 0, ticketsIn: 0 };
    this.exceptions = new Map(); // exception code -> times seen
    host.onException = (code) => this.exception(code);
  }

  /** A line of the phase's output. */
  onLine(line) {
    const [, key, ...v] = line.split(' ');
    if (key === 'aft_in' || key === 'aft_out') this.aft(key === 'aft_in' ? IN : OUT, Number(v[0]));
    if (key === 'ticket_in') this.tickets.set(v[0], { cents: Number(v[1]), redeemed: false });
  }

  exception(code) {
    this.exceptions.set(code, (this.exceptions.get(code) ?? 0) + 1);
    // ticket inserted; or the exception buffer overflowed, and a 67 may be what was lost
    if (code === 0x67 || code === 0x70) this.ask70();
    if (code === 0x68) this.ask71Status(); // ticket transfer complete
  }

  // ---- AFT ---------------------------------------------------------------------------------
  aft(kind, cents) {
    this.serial += 1;
    this.transfer = { kind, cents, tid: `H${this.serial}-${Date.now() % 100000}`, tries: 0 };
    this.lock(0x00);
  }

  /** 74: lock for the transfer's direction (00) or read the lock's status (FF). */
  lock(code) {
    const t = this.transfer;
    const bytes = withCrc([this.address, 0x74, code, t.kind === IN ? 0x01 : 0x02, ...bcd(LOCK_MS, 2)]);
    this.host.queue(bytes, (a) => this.locked(a), () => this.lock(code));
  }

  locked(a) {
    if (a.length !== 40 || a[2] !== 0x23) return `74 answer of ${a.length} bytes, length byte ${a[2]}`;
    if (asset(a, 3) !== ASSET) return `74 asset number ${asset(a, 3)}`;
    const t = this.transfer;
    if (!t) return '';
    const status = a[7];
    if (status === LOCKED) this.send72();
    else if (status === PENDING && ++t.tries < TRIES) this.lock(0xff);
    else return `74 lock status ${status.toString(16)} after ${t.tries} status polls`;
    return '';
  }

  send72() {
    const t = this.transfer;
    const id = [...Buffer.from(t.tid, 'latin1')];
    const body = [0x00, 0x00, t.kind, ...bcd(t.cents, 5), ...bcd(0, 5), ...bcd(0, 5), ONLY_IF_LOCKED,
      ASSET & 0xff, (ASSET >> 8) & 0xff, (ASSET >> 16) & 0xff, ASSET >>> 24, ...new Array(20).fill(0),
      id.length, ...id, ...bcd(0, 4), 0, 0, 0, ...bcd(0, 2)];
    this.host.queue(withCrc([this.address, 0x72, body.length, ...body]), (a) => this.transferred(a),
      () => this.send72());
  }

  /** 72's answer (Table 8.3b): position 00, status 00 (full transfer), the type, amount and ID sent. */
  transferred(a) {
    const t = this.transfer;
    if (a[2] + 5 !== a.length) return `72 length byte ${a[2]} for ${a.length} bytes`;
    const id = Buffer.from(a.slice(28, 28 + a[27])).toString('latin1');
    const got = { index: a[3], status: a[4], type: a[6], cents: fromBcd(a.slice(7, 12)), asset: asset(a, 23), id };
    const want = { index: 0, status: 0, type: t.kind, cents: t.cents, asset: ASSET, id: t.tid };
    this.transfer = null;
    if (JSON.stringify(got) !== JSON.stringify(want)) return `72 ${JSON.stringify(got)}, wanted ${JSON.stringify(want)}`;
    if (t.kind === IN) this.done.aftIn += 1;
    else this.done.aftOut += 1;
    return '';
  }

  // ---- ticket in -----------------------------------------------------------------------------
  ask70() {
    this.host.queue([this.address, 0x70], (a) => this.validation(a), () => this.ask70());
  }

  /** 70's answer: the ticket in escrow (status 00, its number), or FF once none waits. */
  validation(a) {
    if (a.length === 6 && a[2] === 1 && a[3] === 0xff) return ''; // none (a 67 sent again)
    const r = this.ticket(a);
    if (typeof r === 'string') return `70 ${r}`;
    const known = this.tickets.get(r.number);
    if (r.status !== 0x00 || !known) return `70 status ${r.status.toString(16)}, ticket ${r.number}`;
    if (known.redeemed) return '';
    known.redeemed = true;
    const body = [0x00, ...bcd(known.cents, 5), 0x00, ...Buffer.from(r.number, 'hex')];
    const frame = withCrc([this.address, 0x71, body.length, ...body]);
    // without an answer it is not known whether it was taken: 70 tells (still waiting, or none)
    this.host.queue(frame, (x) => this.redeemed(x, r.number, [0x40, 0x00]), () => {
      known.redeemed = false;
      this.ask70();
    });
    return '';
  }

  ask71Status() {
    this.host.queue(withCrc([this.address, 0x71, 1, 0xff]), (a) => this.redeemed(a, null, [0x00]),
      () => this.ask71Status());
  }

  /** 71's answer: a status of `ok` (40 waiting to stack, 00 credited), the amount and number. */
  redeemed(a, number, ok) {
    const r = this.ticket(a);
    if (typeof r === 'string') return `71 ${r}`;
    const known = this.tickets.get(r.number);
    if (!ok.includes(r.status) || !known || (number && r.number !== number) || r.cents !== known.cents) {
      return `71 status ${r.status.toString(16)}, ${r.cents} cents, ticket ${r.number}`;
    }
    if (r.status === 0x00 && !known.credited) {
      known.credited = true;
      this.done.ticketsIn += 1;
    }
    return '';
  }

  /** 70/71's data (15.11, 15.12): status, amount (5 BCD), parsing code 00, 18 digits (9 BCD). */
  ticket(a) {
    if (a.length !== 21 || a[2] !== 16) return `answer of ${a.length} bytes, length byte ${a[2]}`;
    if (a[9] !== 0x00) return `parsing code ${a[9]}`;
    const digits = Buffer.from(a.slice(10, 19)).toString('hex');
    return { status: a[3], cents: fromBcd(a.slice(4, 9)), number: digits };
  }

  stats() {
    const ex = Object.fromEntries([...this.exceptions].map(([k, n]) => [k.toString(16), n]));
    return { ...this.done, exceptions: ex, waiting: this.transfer ? 'transfer' : '' };
  }
}
