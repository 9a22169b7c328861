// board.mjs - the cabinet's board around the emulated Pico (pin map: hal/REFERENCE.md).
//
// Node-side models of everything the firmware talks to: the three 74HC165 (buttons, dice hall
// sensors, door/key/tilt) on SPI0 + SH/LD, the SSD1306 on I2C0 (its frame readable, PNG),
// bill and coin pulse trains into the PIO counters, the motion sensor (shakes while the motor
// runs), the ESC/POS printer on UART1 (answers DLE EOT status), the technician port on UART0,
// the shaker PWM measured from its edges (frequency, duty, soft-start ramp) and the lamps.
// Times are emulated milliseconds (pico.simMs); the models run on rp2040js clock alarms so the
// emulator's sleep fast-forward sees them.
import zlib from 'node:zlib';
import { WALL_MS } from './pico.mjs';

export const PIN = {
  TECH_TX: 0, TECH_RX: 1, PRN_TX: 4, PRN_RX: 5, LAMPS: [2, 3, 6, 7], SDA: 8, SCL: 9,
  BILL: 10, COIN: 11, INHIBIT: 12, MOTION: 14, SHAKER: 15, SR_MISO: 16, SR_LOAD: 17, SR_SCK: 18,
  SAS_TX: 20, SAS_RX: 21, BILL_TX: 22, LOGIC_DOOR: 26, BILL_RX: 27,
};
export const BUTTON = {
  NEXT: 0, PREV: 1, CHIP: 2, BET_UP: 3, BET_DOWN: 4, ONOFF: 5, ODDS: 6, REBET: 7, CLEAR: 8,
  ROLL: 9, CASHOUT: 10, HELP: 11, LINE: 12, COME: 13, PLACE: 14, HARD: 15, PROPS: 16, BONUS: 17,
  NUMBER: 18, MYBETS: 19,
};
export const LAMP_NAMES = ['RED', 'AMBER', 'GREEN', 'WHITE'];
const DIE1_SHIFT = 12;
const DIE2_SHIFT = 15;
const DOOR_CLOSED = 1 << 18;
const AUDIT_KEY = 1 << 19;
const TILT = 1 << 20;
const TIE_D5 = 1 << 21; // tie-off pair (hal/common.py): the chain answers
const CASHBOX_CLOSED = 1 << 23;
const SSD1306_ADDR = 0x3c;
const DS3231_ADDR = 0x68;
const MS = 1e6; // nanoseconds

// Hall pattern of a die showing `up`: the bottom face 7 - up as 3 bits (hal/dice_decode.py);
// 0 = not seated (cocked, moving)
const hall = (up) => (up >= 1 && up <= 6 ? 7 - up : 0);

/** An alarm on the chip's clock with a `pending` flag that is true until it fired or was cancelled. */
function oneShot(clock, cb) {
  const a = clock.createAlarm(() => {
    t.pending = false;
    cb();
  });
  const t = {
    pending: false,
    schedule(ns) {
      t.pending = true;
      a.schedule(ns);
    },
    cancel() {
      t.pending = false;
      a.cancel();
    },
  };
  return t;
}

/** DS3231 real-time clock: a register pointer, then registers read/written in sequence (BCD
 * time 2026-11-26 12:00:00, oscillator-stop flag clear). */
export class Ds3231 {
  constructor() {
    this.regs = new Uint8Array(19);
    this.regs.set([0x00, 0x00, 0x12, 0x05, 0x26, 0x11, 0x26], 0);
    this.regs[0x0e] = 0x1c;
    this.ptr = 0;
  }
  begin(mode) {
    this.first = mode === 0; // a write starts with the register pointer
  }
  write(b) {
    if (this.first) {
      this.first = false;
      this.ptr = b % 19;
      return;
    }
    this.regs[this.ptr] = b;
    this.ptr = (this.ptr + 1) % 19;
  }
  read() {
    const v = this.regs[this.ptr];
    this.ptr = (this.ptr + 1) % 19;
    return v;
  }
}

/** SSD1306 controller: commands, horizontal addressing within the column/page window. */
export class Ssd1306 {
  constructor() {
    this.ram = new Uint8Array(128 * 8);
    this.on = false;
    this.frames = 0; // data writes that ended a full window (one show())
    this.col0 = 0; this.col1 = 127; this.page0 = 0; this.page1 = 7;
    this.col = 0; this.page = 0;
    this.cmdArgs = [];
    this.begin();
  }
  begin() {
    this.first = true;
    this.mode = null; // 'cmd' | 'data' after the control byte
    this.cont = false;
  }
  write(b) {
    if (this.first) { // control byte: Co (bit 7), D/C# (bit 6)
      this.first = false;
      this.cont = !!(b & 0x80);
      this.mode = b & 0x40 ? 'data' : 'cmd';
      return;
    }
    if (this.mode === 'data') {
      this.ram[this.page * 128 + this.col] = b;
      if (++this.col > this.col1) {
        this.col = this.col0;
        if (++this.page > this.page1) {
          this.page = this.page0;
          this.frames++;
        }
      }
      return;
    }
    this.command(b);
    if (this.cont) this.first = true; // Co=1: another control byte follows
  }
  command(b) {
    const a = this.cmdArgs;
    if (a.length) {
      a.push(b);
      const [op] = a;
      const need = op === 0x21 || op === 0x22 ? 3 : 2;
      if (a.length < need) return;
      if (op === 0x21) { this.col0 = a[1] & 127; this.col1 = a[2] & 127; this.col = this.col0; }
      if (op === 0x22) { this.page0 = a[1] & 7; this.page1 = a[2] & 7; this.page = this.page0; }
      this.cmdArgs = [];
      return;
    }
    if (b === 0xae || b === 0xaf) this.on = b === 0xaf;
    // commands with arguments; the rest (0x40-0x7f start line, 0xa0/a1, 0xa4-a7, 0xc0/c8) stand alone
    if ([0x20, 0x21, 0x22, 0x81, 0x8d, 0xa8, 0xd3, 0xd5, 0xd9, 0xda, 0xdb].includes(b)) a.push(b);
  }
  pixel(x, y) {
    return (this.ram[(y >> 3) * 128 + x] >> (y & 7)) & 1;
  }
  /** The frame as text rows ('#' lit, '.' dark), for assertions and failure messages. */
  toText() {
    const rows = [];
    for (let y = 0; y < 64; y++) {
      let r = '';
      for (let x = 0; x < 128; x++) r += this.pixel(x, y) ? '#' : '.';
      rows.push(r);
    }
    return rows.join('\n');
  }
  /** PNG (8-bit grey, `scale` pixels per dot) of the frame. */
  toPNG(scale = 4) {
    const w = 128 * scale;
    const h = 64 * scale;
    const raw = Buffer.alloc((w + 1) * h);
    for (let y = 0; y < h; y++) {
      raw[y * (w + 1)] = 0;
      for (let x = 0; x < w; x++) raw[y * (w + 1) + 1 + x] = this.pixel((x / scale) | 0, (y / scale) | 0) ? 255 : 0;
    }
    const chunk = (type, data) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const td = Buffer.concat([Buffer.from(type), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(td) >>> 0);
      return Buffer.concat([len, td, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 0; // greyscale
    return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
  }
}

/**
 * The cabinet's board. `attach(pico)` wires it to a (new or rebooted) Pico; the board's own
 * state (held buttons, dice on the floor, door, money counted, printer paper) stays across
 * power cycles like the real hardware does.
 */
export class CabinetBoard {
  /** display: false leaves the SSD1306 off the bus; sasHost: a SasHost (sashost.mjs) on the line. */
  constructor({ seed = 1, display = true, sasHost = null } = {}) {
    this.rng = seed >>> 0 || 1;
    this.hasDisplay = display;
    this.sasHost = sasHost;
    this.held = 0; // buttons held (bit = code)
    this.doorClosed = true;
    this.cashboxClosed = true;
    this.logicDoorClosed = true; // GP26, NC to GND: closed reads low
    this.key = false;
    this.tilt = false;
    this.faces = [3, 4]; // dice on the floor (up faces; 0 = cocked)
    this.rollQueue = []; // faces for the next settles, e.g. [[0, 5], [3, 4]]
    this.rolls = []; // faces the dice landed on, in order
    this.moving = false;
    this.settleMs = 300; // dice come to rest this long after the motor stops
    this.display = new Ssd1306();
    this.rtc = new Ds3231();
    this.printerOut = [];
    this.techOut = [];
    this.printerStatus = { offline: 0x12, paper: 0x12 }; // DLE EOT 2 / 4 replies: all good
    this.pwm = { rise: null, fall: null, period: null, high: null, log: [] };
    this.motionEdges = 0;
    this.i2cLog = { naks: 0 };
  }

  rand(n) {
    let s = this.rng;
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    this.rng = s;
    return s % n;
  }

  attach(pico) {
    this.pico = pico;
    pico.opts.onBoot = () => this.install();
    pico.opts.onUart = (n, b) => this.onUart(n, b);
    this.install();
    for (const [i, p] of PIN.LAMPS.entries()) pico.onPin(p, () => {});
    pico.onPin(PIN.SHAKER, (v) => this.onShakerEdge(v));
    pico.onPin(PIN.SR_LOAD, (v) => v === false && this.latch());
  }

  install() {
    const mcu = this.pico.mcu;
    this.latched = 0;
    this.shiftIndex = 0;
    // 74HC165 chain on SPI0: each 8-bit frame clocks out the next chip (U1 first), active low
    this.spiStuck = false; // fault injection: the SPI block never finishes a frame (a reset clears it)
    mcu.spi[0].onTransmit = () => {
      if (this.spiStuck) return;
      const k = this.shiftIndex++;
      mcu.spi[0].completeTransmit(k < 4 ? ~(this.latched >>> (8 * k)) & 0xff : 0xff);
    };
    const i2c = mcu.i2c[0];
    let dev = null;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (addr, mode) => {
      dev = addr === SSD1306_ADDR && mode === 0 && this.hasDisplay ? this.display
        : addr === DS3231_ADDR ? this.rtc : null;
      if (dev) dev.begin(mode);
      else {
        this.i2cLog.naks++;
        this.i2cLog.last = [addr, mode];
      }
      i2c.completeConnect(!!dev);
    };
    i2c.onWriteByte = (b) => {
      dev?.write(b);
      i2c.completeWrite(!!dev);
    };
    i2c.onReadByte = () => i2c.completeRead(dev?.read ? dev.read() : 0xff);
    i2c.onStop = () => i2c.completeStop();
    // alarms live on the chip's clock: made again after every reset
    // (rp2040js leaves ClockAlarm.scheduled true after an alarm fired: keep our own flags)
    this.motionAlarm = oneShot(mcu.clock, () => this.motionTick());
    this.diceAlarm = oneShot(mcu.clock, () => this.land());
    this.pulseAlarm = mcu.clock.createAlarm(() => this.pulseTick());
    this.pulses = []; // [[pin, level, atNanos]] still to apply
    this.pico.setPin(PIN.BILL, true);
    this.pico.setPin(PIN.COIN, true);
    this.pico.setPin(PIN.MOTION, true);
    this.pico.setPin(PIN.LOGIC_DOOR, !this.logicDoorClosed);
    this.pico.setPin(PIN.SAS_RX, true); // SAS line idle (no host)
    this.sasHost?.install(this.pico);
    this.pico.setPin(PIN.BILL_RX, true); // ID-003 line idle: a pulse validator on GP10 instead
    if (this.moving) this.motionAlarm.schedule(20 * MS); // a reset mid-shake: the dice still fall
  }

  // ---- inputs ---------------------------------------------------------------------------
  word() {
    let w = (this.held & 0xfff) | (((this.held >>> 12) & 0xff) << 24); // U4 = buttons 12-19
    const [a, b] = this.moving ? [0, 0] : this.faces;
    w |= hall(a) << DIE1_SHIFT;
    w |= hall(b) << DIE2_SHIFT;
    if (this.doorClosed) w |= DOOR_CLOSED;
    if (this.key) w |= AUDIT_KEY;
    if (this.tilt) w |= TILT;
    w |= TIE_D5; // U3 D5 wired to GND (reads active), D6 to 3V3 (idle)
    if (this.cashboxClosed) w |= CASHBOX_CLOSED;
    return w >>> 0;
  }
  latch() {
    this.latched = this.word();
    this.shiftIndex = 0;
  }
  /** Hold a button for `ms` (emulated), then release it and let the debouncer see it. */
  async press(code, ms = 120) {
    this.held |= 1 << code;
    await this.pico.runFor(ms);
    this.held &= ~(1 << code);
    await this.pico.runFor(80);
  }
  /** Faces the next roll(s) land on: queueRoll([3, 4]), a cocked die is 0: queueRoll([0, 5]). */
  queueRoll(...faces) {
    this.rollQueue.push(...faces);
  }

  // ---- shaker, dice, motion ---------------------------------------------------------------
  onShakerEdge(v) {
    const t = this.pico.simMs;
    const p = this.pwm;
    if (v === true) {
      if (p.rise !== null) p.period = t - p.rise;
      if (p.fall !== null && p.rise !== null && p.fall > p.rise) p.high = p.fall - p.rise;
      p.rise = t;
      const duty = this.duty();
      const last = p.log[p.log.length - 1];
      if (duty !== null && (!last || Math.abs(last.duty - duty) >= 5)) p.log.push({ t, duty, hz: 1000 / p.period });
    } else if (v === false) {
      p.fall = t;
    }
    if (!this.moving && this.motorOn()) {
      this.moving = true;
      this.diceAlarm.cancel();
    }
    // the models' alarms run only while something happens, so an idle chip can sleep
    if (this.moving && !this.motionAlarm.pending) this.motionAlarm.schedule(20 * MS);
  }
  /** Duty of the last full PWM period, per mille (null before two periods). */
  duty() {
    const p = this.pwm;
    return p.period && p.high !== null ? Math.round((1000 * p.high) / p.period) : null;
  }
  frequency() {
    return this.pwm.period ? 1000 / this.pwm.period : null;
  }
  motorOn() {
    const p = this.pwm;
    return p.rise !== null && this.pico.simMs - p.rise < 1 && this.pico.getPin(PIN.SHAKER) !== null;
  }
  motionTick() {
    // the vibration sensor toggles while the motor runs; when it stops the dice settle
    const on = this.motorOn();
    if (on) {
      this.motionLevel = !this.motionLevel;
      this.pico.setPin(PIN.MOTION, this.motionLevel);
      if (!this.motionLevel) this.motionEdges++;
      this.motionAlarm.schedule(20 * MS);
    } else if (this.moving && !this.diceAlarm.pending) {
      this.diceAlarm.schedule(this.settleMs * MS);
    }
  }
  land() {
    const next = this.rollQueue.shift();
    this.faces = next ?? [1 + this.rand(6), 1 + this.rand(6)];
    this.rolls.push(this.faces.slice());
    this.moving = false;
  }

  // ---- money -------------------------------------------------------------------------------
  /**
   * A bill (or coin) worth `count` pulses: lowMs low, gapMs high each. Like a real validator it
   * takes money only while INHIBIT is low: this waits (in emulated time) until the line is low,
   * up to waitMs; false if it stayed inhibited.
   */
  async insert(count, { coin = false, lowMs = 50, gapMs = 50, waitMs = 10000 } = {}) {
    if (!(await this.pico.runUntil(() => !this.inhibited(), { simMs: waitMs, wallMs: WALL_MS }))) return false;
    this.pulseTrain(coin ? PIN.COIN : PIN.BILL, count, lowMs, gapMs);
    return true;
  }
  /** The raw pulse train, inhibit or not (a validator that ignores the line, a glitch). */
  pulseTrain(pin, count, lowMs = 50, gapMs = 50) {
    let t = Math.max(this.pico.mcu.clock.nanos, ...this.pulses.map((p) => p[2])) + MS;
    for (let i = 0; i < count; i++) {
      this.pulses.push([pin, false, t]);
      t += lowMs * MS;
      this.pulses.push([pin, true, t]);
      t += gapMs * MS;
    }
    this.schedulePulse();
  }
  schedulePulse() {
    if (!this.pulses.length) return;
    this.pulseAlarm.schedule(Math.max(0, this.pulses[0][2] - this.pico.mcu.clock.nanos));
  }
  pulseTick() {
    const now = this.pico.mcu.clock.nanos;
    while (this.pulses.length && this.pulses[0][2] <= now) {
      const [pin, level] = this.pulses.shift();
      this.pico.setPin(pin, level);
    }
    this.schedulePulse();
  }
  inhibited() {
    return this.pico.getPin(PIN.INHIBIT) === true;
  }

  // ---- UARTs: technician (0), printer (1) -----------------------------------------------------
  onUart(n, b) {
    if (n === 0) {
      this.techOut.push(b);
      return;
    }
    this.printerOut.push(b);
    const o = this.printerOut;
    const k = o.length;
    if (k >= 3 && o[k - 3] === 0x10 && o[k - 2] === 0x04) {
      const reply = o[k - 1] === 2 ? this.printerStatus.offline : o[k - 1] === 4 ? this.printerStatus.paper : null;
      if (reply !== null) this.pico.uartWrite(1, [reply]);
    }
  }
  /** Tickets printed so far: the text between ESC @ and the cut (GS V), status queries removed. */
  tickets() {
    const s = Buffer.from(this.printerOut).toString('latin1').replace(/\x10\x04[\x02\x04]/g, '');
    const out = [];
    const re = /\x1b@([\s\S]*?)\x1dVB\x00/g;
    let m;
    while ((m = re.exec(s))) out.push(m[1].replace(/\n+$/, ''));
    return out;
  }
  techSend(text) {
    this.pico.uartWrite(0, text);
  }
  techRead() {
    const s = Buffer.from(this.techOut).toString('latin1');
    this.techOut = [];
    return s;
  }

  // ---- lamps --------------------------------------------------------------------------------
  lamps() {
    return LAMP_NAMES.filter((_, i) => this.pico.getPin(PIN.LAMPS[i]) === true);
  }
}
