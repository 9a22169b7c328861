// rs485.mjs - a table on emulated Picos: the dome and its stations, each an rp2040js chip
// running the release image in its role (table.cfg), their table links joined by an RS-485
// pair modelled here (hal/REFERENCE.md, "Table link"; firmware/link/LINK.md).
//
// A node drives the pair only while its DE pin (GP28) is high, as the transceiver does. The
// dome's link is UART1 (GP4/GP5): its bytes come from the UART model, and bytes reach it by
// its RX FIFO. A station's link is the 9-bit PIO UART on GP15 (TX) / GP14 (RX): its TX pin's
// edges are decoded into bytes at 115,200 baud, and bytes reach it as a waveform on GP14
// played on the station's own clock (start bit, 8 data bits LSB first, 2 stop bits).
// The chips run in turns of a few emulated milliseconds (runTable); a frame sent in one turn
// reaches the others in the next.
import { CabinetBoard, PIN } from './board.mjs';

const BAUD = 115200;
const BIT_NS = 1e9 / BAUD;
const BIT_MS = 1e3 / BAUD;
const DE = 28;
const LINK_TX = 15; // a station's (PIO0 SM2)
const LINK_RX = 14; // (PIO0 SM3)

/** The dome's board: no printer on UART1 (the link is there), no money devices. */
export class DomeBoard extends CabinetBoard {
  constructor(opts) {
    super(opts);
    this.link = null;
  }
  onUart(n, b) {
    if (n === 1) this.link?.fromNode(this, b);
    else super.onUart(n, b);
  }
}

/** A station's board: no shaker or motion sensor (GP15/GP14 are the link's). */
export class StationBoard extends CabinetBoard {
  constructor(opts) {
    super(opts);
    this.link = null;
  }
  attach(pico) {
    this.pico = pico;
    pico.opts.onBoot = () => this.install();
    pico.opts.onUart = (n, b) => this.onUart(n, b);
    this.install();
    pico.onPin(PIN.SR_LOAD, (v) => v === false && this.latch());
    this.edges = []; // [simMs, level] of the TX pin since the byte being received began
    pico.onPin(LINK_TX, (v, t) => v !== null && this.edges.push([t, v]));
  }
  install() {
    super.install();
    this.pico.setPin(LINK_RX, true); // the line idles high
    this.rxQueue = []; // [nanos, level] still to play on GP14
    this.rxFree = 0; // when the line is free for the next start bit
    this.rxAlarm = this.pico.mcu.clock.createAlarm(() => this.rxTick());
  }
  /** Bytes from the pair, as a waveform on the RX pin from now on. */
  play(bytes) {
    const now = this.pico.mcu.clock.nanos;
    // the next start bit after the last one queued has its two stop bits (bytes come
    // one at a time from the dome's UART: each waits for the one before)
    let t = Math.max(now + 1000, this.rxFree);
    for (const b of bytes) {
      this.rxQueue.push([t, false]); // start bit
      for (let i = 0; i < 8; i++) this.rxQueue.push([t + (i + 1) * BIT_NS, ((b >> i) & 1) === 1]);
      this.rxQueue.push([t + 9 * BIT_NS, true]); // stop bits (and the ninth bit the PIO reads)
      t += 11 * BIT_NS;
    }
    this.rxFree = t;
    this.rxAlarm.schedule(Math.max(0, this.rxQueue[0][0] - now));
  }
  rxTick() {
    const now = this.pico.mcu.clock.nanos;
    while (this.rxQueue.length && this.rxQueue[0][0] <= now) this.pico.setPin(LINK_RX, this.rxQueue.shift()[1]);
    if (this.rxQueue.length) this.rxAlarm.schedule(Math.max(0, this.rxQueue[0][0] - now));
  }
  /** Bytes the TX pin has finished sending (8 data bits at bit centres after each start bit). */
  decode(nowMs) {
    const out = [];
    const e = this.edges;
    const level = (t) => {
      let v = true;
      for (const [te, lv] of e) {
        if (te > t) break;
        v = lv;
      }
      return v;
    };
    for (;;) {
      const i = e.findIndex(([, v]) => v === false);
      if (i < 0) {
        e.length = Math.min(e.length, 1);
        return out;
      }
      const t0 = e[i][0];
      if (t0 + 10.5 * BIT_MS > nowMs) {
        e.splice(0, i);
        return out;
      }
      let b = 0;
      for (let k = 0; k < 8; k++) if (level(t0 + (1.5 + k) * BIT_MS)) b |= 1 << k;
      out.push(b);
      // drop the edges of this byte (up to its stop bit)
      const end = t0 + 10 * BIT_MS;
      let j = i;
      while (j < e.length && e[j][0] < end) j++;
      e.splice(0, j);
      e.unshift([end, true]);
    }
  }
}

export class Rs485 {
  constructor() {
    this.nodes = []; // {name, pico, board, station}
    this.frames = 0;
    this.bytes = 0;
  }
  add(name, cab) {
    const node = { name, pico: cab.pico, board: cab.board, station: cab.board instanceof StationBoard };
    cab.board.link = this;
    this.nodes.push(node);
    return node;
  }
  driving(node) {
    return node.pico.getPin(DE) === true;
  }
  fromNode(board, b) {
    const node = this.nodes.find((n) => n.board === board);
    if (node && this.driving(node)) this.deliver(node, [b]);
  }
  deliver(from, bytes) {
    this.bytes += bytes.length;
    for (const n of this.nodes) {
      if (n === from) continue;
      if (n.station) n.board.play(bytes);
      else n.pico.uartWrite(1, bytes);
    }
  }
  /** Runs every chip `ms` emulated milliseconds, in turns of `sliceMs`. */
  async run(ms, sliceMs = 2) {
    for (let t = 0; t < ms; t += sliceMs) {
      for (const n of this.nodes) {
        await n.pico.runFor(sliceMs);
        if (n.station) {
          const bytes = n.board.decode(n.pico.simMs);
          if (bytes.length) this.deliver(n, bytes);
        }
      }
    }
  }
}
