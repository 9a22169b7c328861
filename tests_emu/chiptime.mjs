// chiptime.mjs - what rp2040js leaves out of the chip's time, modelled so the emulator's clock
// reads as a real Pico's (a "real-chip estimate"): the XIP flash cache and the serial buses.
//
// XIP cache (RP2040 datasheet 2.6.3.1): 16 KB, two-way set associative, 8-byte lines, a hit
// costs nothing beyond the instruction's own cycles. A miss stalls the bus while the SSI reads
// the line from the QSPI flash in the mode boot2 set up; the stall is computed from the SSI's
// own registers (clock divider, frame format, address/mode bits, wait cycles: for the Pico's
// boot2_w25q080 at CLKDIV 2 that is 8 + 4 + 16 = 28 SCK = 56 clk_sys cycles per miss) and is
// charged to the emulated clock, so timers, timeouts and the watchdog see it. The aliases
// behave as the datasheet lists (0x11 no allocate, 0x12/0x13 no lookup); FLUSH clears the tags.
//
// Buses: an I2C byte takes 9 SCL periods (the period from IC_FS_SCL_HCNT/LCNT/SPKLEN as the
// DW_apb_i2c counts them), START and STOP one each; an SPI frame its bits at the SSP's clock; a
// UART character start + data + parity + stop bits at its baud rate, through a 32-deep TX FIFO
// that raises TXINTR at the IFLS level (rp2040js moves every byte at once). RX characters are
// paced the same way. The time each bus held the CPU's request is counted in `busNs`.

const XIP_CTRL = 0x14000;     // rp2040js peripheral key of XIP_CTRL (0x14000000)
const SETS = 1024;            // 16 KB / 8-byte lines / 2 ways
const XIP_SEGMENTS = 4;       // 0x10.. 0x13..

/** The SSI's XIP read of one 8-byte cache line, in clk_sys cycles, from its registers. */
export function missCycles(ssi) {
  const r = ssi.r;
  const div = r.baudr & 0xfffe || 2;
  const frf = (r.ctrlr0 >> 21) & 3; // 0 standard, 1 dual, 2 quad
  const lanes = [1, 2, 4, 4][frf];
  const trans = r.spictrlr0 & 3; // 0: instruction and address on one lane, 1: address wide, 2: both
  const addrBits = ((r.spictrlr0 >> 2) & 0xf) * 4;
  const instBits = [0, 4, 8, 16][(r.spictrlr0 >> 8) & 3];
  const wait = (r.spictrlr0 >> 11) & 0x1f;
  const sck = (frf === 0 ? instBits + addrBits : instBits / (trans === 2 ? lanes : 1) + addrBits / (trans ? lanes : 1))
    + wait + 64 / lanes;
  return Math.ceil(sck) * div;
}

export class XipCache {
  constructor(mcu, ssi) {
    this.mcu = mcu;
    this.ssi = ssi;
    this.tags = new Int32Array(2 * SETS).fill(-1); // way w of set s at [2 s + w]: line number
    this.lru = new Uint8Array(SETS); // the way to replace next
    this.enabled = true;
    this.lastAbs = -1; // address >>> 3 of the last 0x10-alias line used (a hit again: cheap)
    this.hits = 0;
    this.misses = 0;
    this.pending = 0; // stall cycles not yet charged to the clock
    this.stallCycles = 0;
    this.penalty = 0;
  }
  flush() {
    this.tags.fill(-1);
    this.lastAbs = -1;
  }
  /** One read of the XIP window at `address` (0x10000000-0x13ffffff). */
  access(address) {
    const line = (address & 0xffffff) >>> 3;
    const seg = (address >>> 24) - 0x10;
    const set = line & (SETS - 1);
    const i = 2 * set;
    const t = this.tags;
    if (this.enabled && seg < 2) {
      if (t[i] === line) {
        this.lru[set] = 1;
        this.hits++;
        if (!seg) this.lastAbs = address >>> 3;
        return;
      }
      if (t[i + 1] === line) {
        this.lru[set] = 0;
        this.hits++;
        if (!seg) this.lastAbs = address >>> 3;
        return;
      }
    }
    this.misses++;
    if (!this.penalty) this.penalty = missCycles(this.ssi);
    this.pending += this.penalty;
    if (this.enabled && (seg === 0 || seg === 2)) {
      const w = this.lru[set];
      if (t[i + (1 - w)] === line) t[i + (1 - w)] = -1; // (0x12: never two copies)
      t[i + w] = line;
      this.lru[set] = 1 - w;
      if (!seg) this.lastAbs = address >>> 3;
    }
  }
  /** Stall cycles since the last call (step() adds them to the instruction's own). */
  take() {
    const c = this.pending;
    this.pending = 0;
    this.stallCycles += c;
    return c;
  }
  install() {
    const { mcu } = this;
    const { core, flash } = mcu;
    const view = mcu.flashView;
    const r8 = mcu.readUint8.bind(mcu);
    const r16 = mcu.readUint16.bind(mcu);
    const r32 = mcu.readUint32.bind(mcu);
    // every instruction fetch comes through here: the same line again is a hit, counted inline;
    // XIP reads index rp2040js' 16 MB flash array directly (all four aliases mirror it)
    core.readUint8 = (a) => {
      if (a < 0x10000000 || a >= 0x14000000) return r8(a);
      if (a >>> 3 === this.lastAbs) this.hits++;
      else this.access(a);
      return flash[a & 0xffffff];
    };
    core.readUint16 = (a) => {
      if (a < 0x10000000 || a >= 0x14000000) return r16(a);
      if (a >>> 3 === this.lastAbs) this.hits++;
      else this.access(a);
      return view.getUint16(a & 0xffffff, true);
    };
    core.readUint32 = (a) => {
      a >>>= 0;
      if (a < 0x10000000 || a >= 0x14000000) return r32(a);
      if (a >>> 3 === this.lastAbs) this.hits++;
      else this.access(a);
      return view.getUint32(a & 0xfffffc, true);
    };
    mcu.peripherals[XIP_CTRL] = new XipCtrl(mcu, this);
    // the SSI may be set up again (boot2, flash programming): recompute the miss cost
    const ssiWrite = this.ssi.writeUint32.bind(this.ssi);
    this.ssi.writeUint32 = (off, v) => {
      ssiWrite(off, v);
      this.penalty = 0;
    };
  }
}

/** XIP_CTRL registers the firmware and the ROM use: CTRL (EN), FLUSH, STAT, the counters. */
class XipCtrl {
  constructor(mcu, cache) {
    this.cache = cache;
    this.ctrl = 3;
    this.acc0 = 0;
    this.hit0 = 0;
  }
  readUint32(off) {
    const c = this.cache;
    switch (off) {
      case 0x00: return this.ctrl;
      case 0x08: return 0x3; // STAT: FLUSH_READY, FIFO_EMPTY
      case 0x0c: return (c.hits - this.hit0) >>> 0; // CTR_HIT
      case 0x10: return (c.hits + c.misses - this.acc0) >>> 0; // CTR_ACC
      default: return 0;
    }
  }
  writeUint32Atomic(off, v, atomic) {
    // atomic aliases: 1 XOR, 2 SET, 3 CLEAR (only CTRL cares)
    const cur = off === 0 ? this.ctrl : 0;
    this.writeUint32(off, [v, cur ^ v, cur | v, cur & ~v][atomic]);
  }
  writeUint32(off, v) {
    const c = this.cache;
    switch (off) {
      case 0x00:
        this.ctrl = v & 0xb;
        c.enabled = !!(v & 1);
        c.lastAbs = -1;
        break;
      case 0x04:
        if (v & 1) c.flush();
        break;
      case 0x0c: this.hit0 = c.hits; break;
      case 0x10: this.acc0 = c.hits + c.misses; break;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Serial buses

/** Nanoseconds of one I2C bit (an SCL period) as the DW_apb_i2c times it from its registers. */
export function i2cBitNs(i2c, clkSys) {
  const high = i2c.speed === 1 ? i2c.ssClockHighPeriod : i2c.fsClockHighPeriod;
  const low = i2c.speed === 1 ? i2c.ssClockLowPeriod : i2c.fsClockLowPeriod;
  return ((high + (i2c.spikelen & 0xff) + 7 + low + 1) * 1e9) / clkSys;
}

/** Holds the I2C controller's completions for the bits they take on the wire. */
function timeI2c(mcu, i2c, stats) {
  const alarm = mcu.clock.createAlarm(() => {
    const fn = pending;
    pending = null;
    fn();
  });
  let pending = null;
  const later = (bits, fn) => {
    const ns = bits * i2cBitNs(i2c, mcu.clkSys);
    stats.i2cNs += ns;
    pending = fn;
    alarm.schedule(ns);
  };
  const wrap = (name, bits) => {
    const orig = i2c[name].bind(i2c);
    i2c[name] = (...a) => later(bits, () => orig(...a));
  };
  // rp2040js drops an odd IC_FS_SPKLEN (it tests the value's bit 0 for IC_ENABLE): the SDK
  // writes 11 at 400 kHz, and the spike length is part of the SCL period
  const write = i2c.writeUint32.bind(i2c);
  i2c.writeUint32 = (off, v) => {
    write(off, v);
    if (off === 0xa0 && !(i2c.enable & 1) && v & 0xff) i2c.spikelen = v & 0xff;
  };
  wrap('completeStart', 1);
  wrap('completeConnect', 9);
  wrap('completeWrite', 9);
  wrap('completeRead', 9);
  wrap('completeStop', 1);
}

/** An SSP (SPI) frame leaves after its bits at the programmed clock. */
function timeSpi(mcu, spi, stats) {
  let pending = null;
  const alarm = mcu.clock.createAlarm(() => {
    const v = pending;
    pending = null;
    orig(v);
  });
  const orig = spi.completeTransmit.bind(spi);
  spi.completeTransmit = (rx) => {
    const hz = spi.clockFrequency;
    if (!hz) return orig(rx);
    const ns = (spi.dataBits * 1e9) / hz;
    stats.spiNs += ns;
    pending = rx;
    alarm.schedule(ns);
  };
}

const UARTDR = 0x00;
const UARTFR = 0x18;
const UARTLCR_H = 0x2c;
const UARTIFLS = 0x34;
const UARTICR = 0x44;
const TXINTR = 1 << 5;
const FR_BUSY = 1 << 3;
const FR_TXFF = 1 << 5;
const FR_TXFE = 1 << 7;
const TX_LEVELS = [4, 8, 16, 24, 28]; // IFLS TXIFLSEL: 1/8 .. 7/8 of 32

/** Nanoseconds of one UART character: start, data, parity and stop bits at the baud rate. */
export function uartCharNs(uart) {
  const lcr = uart.lineCtrlRegister;
  const bits = 1 + uart.wordLength + (lcr & 2 ? 1 : 0) + (lcr & 8 ? 2 : 1);
  return (bits * 1e9) / (uart.baudRate || 115200);
}

/**
 * PL011 with a timed TX FIFO. rp2040js sends every byte at once and re-asserts TXINTR on every
 * interrupt check (an interrupt storm under machine.UART): here TXINTR rises when the FIFO
 * drains to the IFLS level and ICR clears it. onByte(b) is called when b's stop bit ends.
 */
function timeUart(mcu, uart, stats) {
  const tx = [];
  let shifting = false;
  let ifls = 0x12;
  const alarm = mcu.clock.createAlarm(() => {
    uart.onByte?.(current);
    next();
  });
  let current = 0;
  const cap = () => (uart.fifosEnabled ? 32 : 1);
  const next = () => {
    if (!tx.length) {
      shifting = false;
      return;
    }
    shifting = true;
    current = tx.shift();
    const ns = uartCharNs(uart);
    stats.uartNs += ns;
    alarm.schedule(ns);
    if (tx.length <= TX_LEVELS[Math.min(ifls & 7, 4)] && !(uart.interruptStatus & TXINTR)) {
      uart.interruptStatus |= TXINTR;
      uart.checkInterrupts();
    }
  };
  uart.checkInterrupts = function () {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const read = uart.readUint32.bind(uart);
  uart.readUint32 = (off) => {
    if (off === UARTFR) {
      return (read(off) & ~(FR_TXFE | FR_TXFF | FR_BUSY)) | (tx.length ? 0 : FR_TXFE)
        | (tx.length >= cap() ? FR_TXFF : 0) | (shifting || tx.length ? FR_BUSY : 0);
    }
    if (off === UARTIFLS) return ifls;
    return read(off);
  };
  const write = uart.writeUint32.bind(uart);
  uart.writeUint32 = (off, v) => {
    if (off === UARTDR) {
      if (tx.length < cap()) tx.push(v & 0xff);
      if (tx.length > TX_LEVELS[Math.min(ifls & 7, 4)]) uart.interruptStatus &= ~TXINTR;
      if (!shifting) next();
      uart.checkInterrupts();
      return;
    }
    if (off === UARTIFLS) {
      ifls = v & 0x3f;
      return;
    }
    write(off, v);
    if (off === UARTLCR_H && !uart.fifosEnabled) tx.length = Math.min(tx.length, 1);
    if (off === UARTICR) uart.checkInterrupts();
  };
  // RX: characters arrive one character time apart, as on the wire
  const rxq = [];
  const rxAlarm = mcu.clock.createAlarm(() => {
    uart.feedByte(rxq.shift());
    if (rxq.length) rxAlarm.schedule(uartCharNs(uart));
  });
  return {
    send(bytes) {
      const idle = !rxq.length;
      for (const b of bytes) rxq.push(b);
      if (idle && rxq.length) rxAlarm.schedule(uartCharNs(uart));
    },
  };
}

/** Times the chip's I2C, SPI and UART blocks; returns { uart: [sender0, sender1] }. */
export function timeBuses(mcu, stats) {
  for (const i2c of mcu.i2c) timeI2c(mcu, i2c, stats);
  for (const spi of mcu.spi) timeSpi(mcu, spi, stats);
  return { uart: mcu.uart.map((u) => timeUart(mcu, u, stats)) };
}
