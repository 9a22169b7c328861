// pico.mjs - the emulator core: the real MicroPython rp2 firmware (a UF2) on the rp2040js
// RP2040 emulator, with a SPI-NOR flash model (erase/program), the USB-CDC REPL driven
// through MicroPython's raw-REPL protocol, UART/GPIO/PWM hooks.
//
// Copied from the reference harness ../shared/rp2-emu/run.mjs (its README lists the nine
// rp2040js 1.4.1 gaps patched here), without its CLI. Added for the cabinet's tests:
// flash busy times (opts.flashTiming: the bootrom polls the status register like on a
// W25Q16JV, so erase/program take emulated time with interrupts off), a hook that can cut
// the power inside a flash operation (SpiNorFlash.onBeforeOp + Pico.cut()), a start image
// from memory (opts.flashBytes) and a PRIMASK watch (opts.watchIrqOff) that records the
// longest interrupts-off window. Fixed: a run could spin forever when a deadline in float ms
// was missed by a rounding step; a lost Ctrl-A when entering the raw REPL.
// Chip time (chiptime.mjs, with opts.chipTime or EMU_CHIPTIME=1): the XIP cache's miss stalls are
// charged to the emulated clock and the I2C/SPI/UART blocks take their bus time, so emulated
// time reads as a real Pico's; `chip` counts what the model added, `busyNs` the time the core
// ran (not asleep in WFI/WFE) and `feeds` the watchdog's feeds and their longest gap.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BasePeripheral, ConsoleLogger, GPIOPinState, LogLevel, RP2040, USBCDC } from 'rp2040js';
import { decodeBlock } from 'uf2';
import { XipCache, timeBuses } from './chiptime.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// Wall-clock guard against a hung emulator only: every wait is bounded in emulated time,
// and a loaded CI machine (2 cores, the other stages beside) may run it several times slower.
export const WALL_MS = Number(process.env.EMU_WALL_MS || 30 * 60 * 1000);
export const FLASH_SIZE = 2 * 1024 * 1024; // W25Q16JV on a Raspberry Pi Pico
export const FS_OFFSET = FLASH_SIZE - 1408 * 1024; // 0xA0000: rp2 RPI_PICO littlefs (352 x 4 KiB)
export const FS_BLOCK_SIZE = 4096;
export const FS_BLOCK_COUNT = 352;
const NS_PER_CYCLE = 8; // 125 MHz, as rp2040js' own Simulator assumes

// ---------------------------------------------------------------------------
// SPI NOR flash (W25Q16-like). Bytes arrive one at a time while CS is asserted.
// rp2040js (<= 1.4.1) ignores every SSI command, so flash erase/program are lost;
// this model makes flash_range_erase()/flash_range_program() (bootrom) real.
export class SpiNorFlash {
  constructor(mem, size = FLASH_SIZE) {
    this.mem = mem; // the RP2040's flash Uint8Array; XIP reads see changes at once
    this.mask = size - 1;
    this.wel = false;
    this.sr2 = 0x02; // QE set, so boot2 does not try to write the status register
    this.selected = false;
    this.uid = [0xe6, 0x61, 0x38, 0x52, 0x03, 0x2b, 0x45, 0x21];
    this.stats = { sectorErases: 0, blockErases: 0, pagePrograms: 0, programmedBytes: 0 };
    this.onErase = null; // (addr, len) => void
    this.onProgram = null; // (addr, len) => void
    // (kind 'erase'|'program', start, len, data) => true when the hook applied the operation
    // itself (partly: a power cut inside it); data = [[addr, byte], ...] for a program
    this.onBeforeOp = null;
    this.timing = null; // { erase: ns per 4 KiB sector, program: ns per page }
    this.nanos = () => 0; // emulated time, set by the Pico
    this.busyUntil = 0;
  }
  select() {
    this.prog = [];
    this.selected = true;
    this.cmd = -1;
    this.n = 0;
    this.addr = 0;
  }
  deselect() {
    if (this.selected) this.finish();
    this.selected = false;
  }
  transfer(b) {
    if (!this.selected) return 0xff;
    const n = this.n++;
    if (n === 0) {
      this.cmd = b;
      return 0xff;
    }
    switch (this.cmd) {
      case 0x03: // READ DATA
      case 0x0b: // FAST READ (1 dummy byte)
        if (n <= 3) {
          this.addr = (this.addr << 8) | b;
          return 0xff;
        }
        if (this.cmd === 0x0b && n === 4) return 0xff;
        return this.mem[this.addr++ & this.mask];
      case 0x02: // PAGE PROGRAM: bits can only go 1 -> 0, address wraps within a 256-byte page
        if (n <= 3) {
          this.addr = (this.addr << 8) | b;
          return 0xff;
        }
        if (this.wel) {
          // applied when CS goes high, as a real NOR starts programming only then
          this.prog.push([((this.addr & ~0xff) | ((this.addr + n - 4) & 0xff)) & this.mask, b]);
        }
        return 0xff;
      case 0x20: // SECTOR ERASE 4K
      case 0x52: // BLOCK ERASE 32K
      case 0xd8: // BLOCK ERASE 64K
        if (n <= 3) this.addr = (this.addr << 8) | b;
        return 0xff;
      case 0x05: // READ STATUS 1: BUSY bit 0 (only with timing), WEL bit 1
        return (this.wel ? 0x02 : 0x00) | (this.busyUntil > this.nanos() ? 0x01 : 0x00);
      case 0x35: // READ STATUS 2
        return this.sr2;
      case 0x15: // READ STATUS 3
        return 0x00;
      case 0x01: // WRITE STATUS (SR1[, SR2])
        if (n === 2 && this.wel) this.sr2 = b;
        return 0xff;
      case 0x31: // WRITE STATUS 2
        if (n === 1 && this.wel) this.sr2 = b;
        return 0xff;
      case 0x9f: // JEDEC ID: Winbond W25Q16JV
        return [0xef, 0x40, 0x15][(n - 1) % 3];
      case 0x90: // MANUFACTURER/DEVICE ID
        return n <= 3 ? 0xff : [0xef, 0x14][(n - 4) % 2];
      case 0xab: // RELEASE POWER-DOWN / DEVICE ID
        return n <= 3 ? 0xff : 0x14;
      case 0x4b: // READ UNIQUE ID (4 dummy bytes)
        return n <= 4 ? 0xff : this.uid[(n - 5) % 8];
      default:
        return 0xff;
    }
  }
  finish() {
    const { cmd, n } = this;
    switch (cmd) {
      case 0x06:
        this.wel = true;
        break;
      case 0x04:
        this.wel = false;
        break;
      case 0x02:
        if (this.wel && n > 4) {
          this.stats.pagePrograms++;
          this.stats.programmedBytes += n - 4;
          if (!this.onBeforeOp?.('program', this.addr & this.mask, n - 4, this.prog)) {
            for (const [a, b] of this.prog) this.mem[a] &= b;
          }
          if (this.timing) this.busyUntil = this.nanos() + this.timing.program;
          this.onProgram?.(this.addr & this.mask, n - 4);
        }
        this.wel = false;
        break;
      case 0x20:
      case 0x52:
      case 0xd8: {
        if (this.wel && n >= 4) {
          const len = cmd === 0x20 ? 4096 : cmd === 0x52 ? 32768 : 65536;
          const start = this.addr & this.mask & ~(len - 1);
          if (!this.onBeforeOp?.('erase', start, len, null)) this.mem.fill(0xff, start, start + len);
          if (this.timing) this.busyUntil = this.nanos() + (this.timing.erase * len) / 4096;
          if (cmd === 0x20) this.stats.sectorErases++;
          else this.stats.blockErases++;
          this.onErase?.(start, len);
        }
        this.wel = false;
        break;
      }
      case 0x60:
      case 0xc7:
        if (this.wel) this.mem.fill(0xff, 0, this.mask + 1);
        this.wel = false;
        break;
      case 0x01:
      case 0x31:
        this.wel = false;
        break;
    }
  }
}

// Synopsys SSI (XIP_SSI, 0x18000000) with FIFOs that feed the flash model while
// the QSPI_SS pin is forced low (that is how the bootrom/SDK flash routines talk to flash).
class FlashSSI extends BasePeripheral {
  constructor(rp2040, flash) {
    super(rp2040, 'SSI');
    this.flash = flash;
    this.r = { ctrlr0: 0x70000, ctrlr1: 0, ssienr: 0, mwcr: 0, ser: 0, baudr: 0, txftlr: 0, rxftlr: 0,
      imr: 0, dmacr: 0, dmatdlr: 0, dmardlr: 0, rxsd: 0, spictrlr0: 0x03000218, txde: 0 };
    this.rx = [];
    this.csForced = false;
  }
  setCs(low) {
    if (low && !this.csForced) {
      this.csForced = true;
      this.flash.select();
    } else if (!low && this.csForced) {
      this.csForced = false;
      this.flash.deselect();
    }
  }
  readUint32(off) {
    const r = this.r;
    if (off >= 0x60 && off < 0xf0) return this.rx.length ? this.rx.shift() : 0;
    switch (off) {
      case 0x00: return r.ctrlr0;
      case 0x04: return r.ctrlr1;
      case 0x08: return r.ssienr;
      case 0x0c: return r.mwcr;
      case 0x10: return r.ser;
      case 0x14: return r.baudr;
      case 0x18: return r.txftlr;
      case 0x1c: return r.rxftlr;
      case 0x20: return 0; // TXFLR: every frame is shifted out instantly
      case 0x24: return this.rx.length; // RXFLR
      case 0x28: // SR: TFNF | TFE | RFNE | RFF (never BUSY)
        return 0x06 | (this.rx.length || !this.csForced ? 0x08 : 0) | (this.rx.length >= 16 ? 0x10 : 0);
      case 0x2c: return r.imr;
      case 0x4c: return r.dmacr;
      case 0x50: return r.dmatdlr;
      case 0x54: return r.dmardlr;
      case 0x58: return 0x51535049; // IDR
      case 0x5c: return 0x3430312a; // SSI_VERSION_ID
      case 0xf0: return r.rxsd;
      case 0xf4: return r.spictrlr0;
      case 0xf8: return r.txde;
      default: return 0; // ISR/RISR/interrupt-clear registers
    }
  }
  writeUint32(off, v) {
    const r = this.r;
    if (off >= 0x60 && off < 0xf0) {
      this.pushFrame(v >>> 0);
      return;
    }
    switch (off) {
      case 0x00: r.ctrlr0 = v; break;
      case 0x04: r.ctrlr1 = v; break;
      case 0x08:
        r.ssienr = v & 1;
        if (!r.ssienr) this.rx.length = 0; // disabling the SSI flushes its FIFOs
        break;
      case 0x0c: r.mwcr = v; break;
      case 0x10: r.ser = v; break;
      case 0x14: r.baudr = v; break;
      case 0x18: r.txftlr = v; break;
      case 0x1c: r.rxftlr = v; break;
      case 0x2c: r.imr = v; break;
      case 0x4c: r.dmacr = v; break;
      case 0x50: r.dmatdlr = v; break;
      case 0x54: r.dmardlr = v; break;
      case 0xf0: r.rxsd = v & 0xff; break;
      case 0xf4: r.spictrlr0 = v; break;
      case 0xf8: r.txde = v & 0xff; break;
    }
  }
  pushFrame(v) {
    const tmod = (this.r.ctrlr0 >> 8) & 3; // 0 TX/RX, 1 TX only, 2 RX only, 3 EEPROM read
    const bits = ((this.r.ctrlr0 >> 16) & 0x1f) + 1;
    let resp = 0;
    if (this.csForced) {
      for (let i = Math.max(1, Math.ceil(bits / 8)) - 1; i >= 0; i--) {
        resp = (resp << 8) | this.flash.transfer((v >>> (8 * i)) & 0xff);
      }
      resp >>>= 0;
      if (bits < 32) resp &= (1 << bits) - 1;
    }
    // Without forced CS (boot2 / XIP set-up) frames are not executed and read back as 0,
    // exactly as rp2040js' original stub behaves.
    if (tmod !== 1 && this.rx.length < 16) this.rx.push(resp);
  }
}

// IO_QSPI (0x40018000): only GPIO_QSPI_SS_CTRL.OUTOVER matters - it is the flash chip-select.
class IoQspi extends BasePeripheral {
  constructor(rp2040, ssi) {
    super(rp2040, 'IO_QSPI');
    this.ssi = ssi;
    this.ctrl = new Uint32Array(6);
  }
  readUint32(off) {
    if (off < 0x30) return off & 4 ? this.ctrl[off >> 3] : 0;
    return 0;
  }
  writeUint32(off, v) {
    if (off < 0x30 && off & 4) {
      const pin = off >> 3;
      this.ctrl[pin] = v;
      if (this.rp2040.qspi?.[pin]) this.rp2040.qspi[pin].ctrl = v;
      if (pin === 1) this.ssi.setCs(((v >> 8) & 3) === 2); // OUTOVER: 2 = drive low
    }
  }
}

// VREG_AND_CHIP_RESET (0x40064000). rp2040js leaves it unimplemented (reads 0xffffffff), which
// makes the bootrom see PSM_RESTART_FLAG and park in its "rescue" halt instead of booting.
class VregChipReset extends BasePeripheral {
  constructor(rp2040, chipReset) {
    super(rp2040, 'VREG_AND_CHIP_RESET');
    this.regs = [0xb1, 0x91, chipReset];
  }
  readUint32(off) {
    return off < 12 ? this.regs[off >> 2] : 0;
  }
  writeUint32(off, v) {
    if (off < 8) this.regs[off >> 2] = v;
    else if (off === 8) this.regs[2] &= ~(v & (1 << 24)); // PSM_RESTART_FLAG is write-1-to-clear
  }
}

// rp2040js' PL011 re-asserts TXINTR on every interrupt check, so once MicroPython's
// machine.UART enables TXIM the UART IRQ never clears (interrupt storm). A PL011 raises TX
// on the FIFO draining through its trigger level; here every byte leaves at once, so raise
// it after each DR write and let ICR clear it. (The chip-time model's timed UART replaces this.)
function patchUart(uart) {
  const TXINTR = 1 << 5;
  uart.checkInterrupts = function () {
    this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
  };
  const write = uart.writeUint32.bind(uart);
  uart.writeUint32 = (off, v) => {
    write(off, v);
    if (off === 0) {
      uart.interruptStatus |= TXINTR;
      uart.checkInterrupts();
    }
  };
}

export function installFlashModel(mcu) {
  const flash = new SpiNorFlash(mcu.flash);
  const ssi = new FlashSSI(mcu, flash);
  mcu.peripherals[0x18000] = ssi;
  mcu.peripherals[0x40018] = new IoQspi(mcu, ssi);
  flash.ssi = ssi;
  return flash;
}

export function loadUF2Into(flash, uf2Bytes) {
  let count = 0;
  for (let off = 0; off + 512 <= uf2Bytes.length; off += 512) {
    const block = decodeBlock(uf2Bytes.subarray(off, off + 512));
    flash.set(block.payload, block.flashAddress - 0x10000000);
    count++;
  }
  return count;
}

function readBootrom(file) {
  const b = fs.readFileSync(file);
  return new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length));
}

// ---------------------------------------------------------------------------
export class Pico {
  /**
   * opts: firmware (UF2 path), bootrom (16 KiB B1 image path), fsImage (littlefs image placed at
   * FS_OFFSET), flashImage (full flash dump to start from), echo (write console output to stdout),
   * onUart(n, byte), logLevel.
   */
  constructor(opts = {}) {
    this.opts = opts;
    this.bootromWords = readBootrom(opts.bootrom ?? path.join(HERE, 'bootrom_b1.bin'));
    this.flashBytes = new Uint8Array(FLASH_SIZE).fill(0xff);
    if (opts.flashBytes) this.flashBytes.set(opts.flashBytes.subarray(0, FLASH_SIZE));
    if (opts.flashImage) this.flashBytes.set(fs.readFileSync(opts.flashImage).subarray(0, FLASH_SIZE));
    if (opts.firmware !== null) {
      loadUF2Into(this.flashBytes, fs.readFileSync(opts.firmware ?? path.join(HERE, 'micropython-v1.28.0-RPI_PICO.uf2')));
    }
    if (opts.fsImage) this.flashBytes.set(fs.readFileSync(opts.fsImage).subarray(0, FLASH_SIZE - FS_OFFSET), FS_OFFSET);
    this.console = ''; // everything the device has written to USB CDC since the last clearConsole()
    this.consoleListeners = new Set();
    this.uartOut = [[], []];
    this.resets = 0;
    this.instructions = 0;
    this.busyNs = 0; // time the core executed (the rest it slept in WFI/WFE)
    // what the chip-time model added: XIP miss stalls (charged to the clock) and bus time
    this.chip = { on: opts.chipTime ?? process.env.EMU_CHIPTIME === '1', stallNs: 0, misses: 0, hits: 0, i2cNs: 0, spiNs: 0, uartNs: 0 };
    this.boot();
  }

  /** (Re)creates the chip, keeping flash contents - a power cycle / watchdog reset. */
  boot() {
    const old = this.mcu;
    const keep = old ? old.flash.slice(0, FLASH_SIZE) : this.flashBytes;
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(this.opts.logLevel ?? LogLevel.Error);
    mcu.loadBootrom(this.bootromWords); // also resets the core and fills flash with 0xff
    mcu.flash.set(keep, 0);
    this.flash = installFlashModel(mcu);
    this.flash.nanos = () => mcu.clock.nanos;
    // W25Q16JV typical: sector erase 45 ms, page program 0.4 ms
    if (this.opts.flashTiming) this.flash.timing = { erase: 45e6, program: 0.4e6, ...this.opts.flashTiming };
    this.flash.onBeforeOp = this.opts.onBeforeFlashOp ?? null;
    this.installPioClock(mcu);
    // cold boot: CHIP_RESET.HAD_POR; after a watchdog reset keep the watchdog's REASON + SCRATCH
    mcu.peripherals[0x40064] = new VregChipReset(mcu, old ? 0 : 1 << 8);
    if (old) {
      const ow = old.peripherals[0x40058];
      const nw = mcu.peripherals[0x40058];
      nw.reason = ow.reason;
      nw.scratchData.set(ow.scratchData);
    }
    // QSPI_SS has a pull-up on the Pico; the bootrom reads it as the BOOTSEL button (low = pressed)
    // (rp2040js' pad default lacks IE, so also apply the datasheet reset values of PADS_QSPI).
    [0x56, 0x5a, 0x52, 0x52, 0x52, 0x52].forEach((v, i) => (mcu.qspi[i].padValue = v));
    mcu.qspi[1].setInputValue(true);
    this.mcu = mcu;
    // Pad model rp2040js lacks: an input reads what drives it - the chip's own output (so
    // Pin.value() on an output reads back), else an external driver (setPin), else the pull.
    this.extDrive = this.extDrive ?? new Array(30).fill(null);
    mcu.gpio.forEach((pin, n) => {
      pin.addListener(() => this.resolvePin(n));
      this.resolvePin(n);
    });
    mcu.adc.channelValues[4] = 876; // temperature sensor: 0.706 V = 27 C
    (this.adcVolts ?? []).forEach((v, ch) => v !== undefined && (mcu.adc.channelValues[ch] = Math.round((v / 3.3) * 4095)));
    this.pinListeners = this.pinListeners ?? [];
    for (const l of this.pinListeners) l.attach();
    this.nanosBase = (this.nanosBase ?? 0) + (this.lastNanos ?? 0);
    this.lastNanos = 0;
    this.resetPending = false;
    mcu.watchdog = mcu.peripherals[0x40058];
    mcu.watchdog.onWatchdogTrigger = () => {
      // Stop the counter: rp2040js' periodic alarm would otherwise re-fire at the same instant
      // forever (the counter sits at 0). The chip is rebuilt by step() - see boot().
      mcu.watchdog.alarm.enable = false;
      mcu.watchdog.timer.enable = false;
      mcu.watchdog.enable = false;
      this.resetPending = true;
    };
    for (let n = 0; n < 2; n++) {
      mcu.uart[n].onByte = (b) => {
        this.uartOut[n].push(b);
        this.opts.onUart?.(n, b);
      };
    }
    this.installChipTime(mcu);
    this.installFeedWatch(mcu);
    // USB host side: enumerate the CDC ACM device, NAK OUT transfers until we have data.
    this.inQueue = [];
    this.pendingRead = 0;
    this.usbReady = false;
    const cdc = new USBCDC(mcu.usbCtrl);
    this.cdc = cdc;
    cdc.onDeviceConnected = () => {
      this.usbReady = true;
    };
    cdc.onSerialData = (buf) => {
      const s = Buffer.from(buf).toString('latin1');
      this.console += s;
      if (this.opts.echo) process.stdout.write(Buffer.from(buf));
      for (const l of this.consoleListeners) l(s);
    };
    const usb = mcu.usbCtrl;
    // rp2040js' host waits 10 ms of bus reset before enumerating; MicroPython drops console
    // output until the CDC port is open, so a short reset keeps boot.py/main.py output.
    usb.resetDevice = () => usb.resetAlarm.schedule((this.opts.usbResetUs ?? 100) * 1000);
    usb.onEndpointRead = (ep, size) => {
      if (ep === cdc.outEndpoint) {
        this.pendingRead = size;
        this.feedUsb();
      }
    };
    // Real power-on path: bootrom -> reads boot2 over SSI (our flash model) -> CRC check -> boot2 -> app.
    mcu.core.reset();
    this.opts.onBoot?.(mcu); // device models re-attach to the new chip
  }

  /** The chip-time model on this (new) chip: the XIP cache on the core's reads, timed buses. */
  installChipTime(mcu) {
    this.xip = null;
    this.uartIn = null;
    if (!this.chip.on) {
      for (const uart of mcu.uart) patchUart(uart);
      return;
    }
    this.xip = new XipCache(mcu, this.flash.ssi);
    this.xip.install();
    this.xipBase = { stallNs: this.chip.stallNs, misses: this.chip.misses, hits: this.chip.hits };
    this.uartIn = timeBuses(mcu, this.chip).uart;
  }
  noteXip() {
    const { xip, xipBase: b, chip } = this;
    chip.stallNs = b.stallNs + xip.stallCycles * NS_PER_CYCLE;
    chip.misses = b.misses + xip.misses;
    chip.hits = b.hits + xip.hits;
  }
  /** The model's share of emulated time so far (ns): XIP stalls plus bus time. */
  get modelNs() {
    const c = this.chip;
    return c.stallNs + c.i2cNs + c.spiNs + c.uartNs;
  }

  /** Watchdog feeds (writes to LOAD) on this chip: count, the longest gap between two, and
   * `long`: [start ms, gap ms, ms the core ran, sector erases] of every gap over 250 ms (what
   * filled it: code, sleep in WFI/WFE, or the flash off the bus). */
  installFeedWatch(mcu) {
    const wd = mcu.watchdog;
    const f = (this.feeds = this.feeds ?? { count: 0, maxGapNs: 0, maxGapRawNs: 0, maxGapAt: 0 });
    f.last = null; // a reset starts over
    const write = wd.writeUint32.bind(wd);
    wd.writeUint32 = (off, v) => {
      write(off, v);
      if (off !== 0x04) return;
      const t = this.nanosBase + mcu.clock.nanos;
      const model = this.modelNs;
      const erases = this.flash.stats.sectorErases + this.flash.stats.blockErases;
      if (f.last !== null && t - f.last > 250e6) {
        (f.long = f.long ?? []).push([f.last / 1e6, (t - f.last) / 1e6, (this.busyNs - f.lastBusy) / 1e6,
          erases - f.lastErases]);
      }
      if (f.last !== null && t - f.last > f.maxGapNs) {
        f.maxGapNs = t - f.last;
        f.maxGapRawNs = f.maxGapNs - (model - f.lastModel);
        f.maxGapAt = t / 1e6;
      }
      f.last = t;
      f.lastModel = model;
      f.lastBusy = this.busyNs;
      f.lastErases = erases;
      f.count++;
    };
  }

  feedUsb() {
    if (this.pendingRead && this.inQueue.length && this.cdc.outEndpoint >= 0) {
      const n = Math.min(this.pendingRead, this.inQueue.length);
      const chunk = Uint8Array.from(this.inQueue.splice(0, n));
      this.pendingRead = 0;
      this.mcu.usbCtrl.endpointReadDone(this.cdc.outEndpoint, chunk);
    }
  }

  /** Queue bytes/string for the USB CDC (REPL) input. */
  write(data) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (const b of bytes) this.inQueue.push(b);
    this.feedUsb();
  }

  clearConsole() {
    this.console = '';
  }

  /** Simulated time since first power-on, in ms. */
  get simMs() {
    return (this.nanosBase + this.mcu.clock.nanos) / 1e6;
  }

  /**
   * rp2040js runs PIO from its own setTimeout loop, 1000 instructions per turn, ignoring CLKDIV
   * and delay cycles, so PIO speed would depend on the host. Instead step each enabled state
   * machine here, on the emulated clock: one instruction per SM clock (clk_sys / CLKDIV) plus
   * its delay cycles.
   */
  installPioClock(mcu) {
    this.pioNext = 0;
    for (const pio of mcu.pio) {
      pio.run = () => {
        this.pioNext = 0;
      };
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (off, v) => {
        write(off, v);
        this.pioNext = 0; // CTRL / CLKDIV / EXEC may change what runs when
      };
    }
  }
  pioCatchUp(now) {
    let next = Infinity;
    for (const pio of this.mcu.pio) {
      if (pio.stopped) continue;
      let stepped = false;
      for (const m of pio.machines) {
        if (!m.enabled) {
          m.emuRunning = false;
          continue;
        }
        const div = (m.clockDivInt || 65536) + m.clockDivFrac / 256;
        const period = NS_PER_CYCLE * div;
        if (!m.emuRunning) {
          m.emuRunning = true;
          m.emuNext = now;
        }
        while (m.emuNext <= now && m.enabled) {
          const c0 = m.cycles;
          m.step();
          m.emuNext += period * Math.max(1, m.cycles - c0);
          stepped = true;
        }
        if (m.emuNext < next) next = m.emuNext;
      }
      if (stepped) pio.checkChangedPins();
    }
    return next;
  }

  /**
   * Run up to maxInstr instructions, stopping at emulated time untilMs (ms since power-on).
   * Returns 'idle' if the core sleeps with nothing scheduled (before untilMs).
   */
  step(maxInstr = 100000, untilMs = Infinity) {
    const { core, clock } = this.mcu;
    const [pio0, pio1] = this.mcu.pio;
    const until = untilMs * 1e6 - this.nanosBase; // in this chip's clock nanos
    let i = 0;
    let state = 'ran';
    const watch = !!this.opts.watchIrqOff;
    const xip = this.xip;
    if (this.cutPending) return 'cut';
    for (; i < maxInstr && clock.nanos < until; i++) {
      const pioOn = !pio0.stopped || !pio1.stopped;
      if (core.waiting) {
        let dn = clock.nanosToNextAlarm; // 0: nothing scheduled
        if (pioOn) {
          const pn = Math.max(1, this.pioNext - clock.nanos);
          if (dn <= 0 || pn < dn) dn = pn;
        }
        if (dn <= 0 || !Number.isFinite(dn)) {
          if (Number.isFinite(until)) {
            clock.tick(until - clock.nanos); // asleep with nothing due: time just passes
          } else state = 'idle';
          break;
        }
        clock.tick(Math.min(dn, until - clock.nanos));
      } else {
        const ns = (core.executeInstruction() + (xip ? xip.take() : 0)) * NS_PER_CYCLE;
        this.busyNs += ns;
        clock.tick(ns);
      }
      if (pioOn && clock.nanos >= this.pioNext) this.pioNext = this.pioCatchUp(clock.nanos);
      if (watch && core.PM !== this.irqOff) this.notePrimask(core.PM, clock.nanos);
      if (this.resetPending || this.cutPending) break;
    }
    this.instructions += i;
    this.lastNanos = clock.nanos;
    if (xip) this.noteXip();
    this.feedUsb();
    if (this.cutPending) return 'cut';
    if (this.resetPending) {
      this.resets++;
      this.opts.onReset?.(this.resets);
      this.boot();
      state = 'reset';
    }
    return state;
  }

  /** Run until pred() is true. Limits: wallMs (real time) and simMs (emulated time). */
  async runUntil(pred, { wallMs = WALL_MS, simMs = Infinity, stopOnReset = false } = {}) {
    const t0 = Date.now();
    const sim0 = this.simMs;
    let k = 0;
    for (;;) {
      if (pred()) return true;
      if (Date.now() - t0 > wallMs) throw new Error(`timeout after ${wallMs} ms wall (sim ${(this.simMs - sim0).toFixed(0)} ms)`);
      // (1 ns of slack: the clock stops exactly at the deadline, which ms floats may miss by
      // a rounding step, and the run would then never end)
      if (this.simMs - sim0 >= simMs - 1e-6) return false;
      const st = this.step(50000, sim0 + simMs);
      if (st === 'cut' || (st === 'reset' && stopOnReset)) return false;
      if (st === 'idle') await new Promise((r) => setTimeout(r, 0));
      else if (++k % 20 === 0) await new Promise((r) => setImmediate(r));
    }
  }

  /** Advance emulated time by ms. */
  async runFor(ms, opts = {}) {
    const end = this.simMs + ms;
    await this.runUntil(() => this.simMs >= end - 1e-6, { ...opts, simMs: ms });
  }

  async waitForConsole(text, opts) {
    await this.runUntil(() => this.console.includes(text), opts);
  }

  /** Boot to the point where the USB REPL is usable. */
  async waitReady({ wallMs = WALL_MS } = {}) {
    await this.runUntil(() => this.usbReady, { wallMs });
    await this.runFor(50, { wallMs });
  }

  async enterRawRepl({ wallMs = WALL_MS } = {}) {
    // Ctrl-A can be lost when it arrives while boot.py still runs: ask again until the raw
    // prompt shows (the reference harness waits once, forever)
    for (let tries = 0; tries < 10; tries++) {
      this.write('\r\x03\x03');
      await this.runFor(20, { wallMs });
      this.clearConsole();
      this.write('\r\x01');
      if (await this.runUntil(() => this.console.includes('raw REPL; CTRL-B to exit\r\n>'), { wallMs, simMs: 500 })) {
        this.clearConsole();
        return;
      }
    }
    throw new Error(`no raw REPL: ${JSON.stringify(this.console.slice(-200))}`);
  }

  /**
   * Execute code in raw REPL mode (must have called enterRawRepl). Resolves to
   * { out, err, reset } - err is the traceback text ('' on success); reset is true
   * if the chip was reset (watchdog / machine.reset()) before the code finished.
   */
  async exec(code, { wallMs = WALL_MS, onOutput } = {}) {
    this.clearConsole();
    const resets0 = this.resets;
    this.write(code);
    this.write('\x04');
    let shown = 0;
    const listener = onOutput
      ? () => {
          const i = this.console.indexOf('OK');
          if (i < 0) return;
          const body = this.console.slice(i + 2);
          const end = body.indexOf('\x04');
          const visible = end < 0 ? body : body.slice(0, end);
          if (visible.length > shown) {
            onOutput(visible.slice(shown));
            shown = visible.length;
          }
        }
      : null;
    if (listener) this.consoleListeners.add(listener);
    try {
      const done = () => {
        const i = this.console.indexOf('OK');
        return i >= 0 && /\x04[\s\S]*\x04>$/.test(this.console.slice(i)) || this.resets !== resets0;
      };
      await this.runUntil(done, { wallMs });
    } finally {
      if (listener) this.consoleListeners.delete(listener);
    }
    if (this.resets !== resets0) {
      const i = this.console.indexOf('OK');
      return { out: i >= 0 ? this.console.slice(i + 2) : this.console, err: '', reset: true };
    }
    const s = this.console.slice(this.console.indexOf('OK') + 2);
    const [out, err] = s.split('\x04');
    return { out, err, reset: false };
  }

  /** Write a file into the emulated littlefs through the REPL (exercises real flash erase/program). */
  async putFile(remote, content, opts) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const dirs = remote.split('/').slice(0, -1);
    let code = 'import os\n';
    let acc = '';
    for (const d of dirs) {
      if (!d) continue;
      acc += '/' + d;
      code += `try:\n os.mkdir(${JSON.stringify(acc)})\nexcept OSError:\n pass\n`;
    }
    code += `f=open(${JSON.stringify(remote)},'wb')\nw=f.write\n`;
    for (let i = 0; i < data.length; i += 256) {
      code += `w(bytes.fromhex('${data.subarray(i, i + 256).toString('hex')}'))\n`;
    }
    code += 'f.close()\n';
    const r = await this.exec(code, opts);
    // a reset part-way leaves the file short or missing: never report that as written
    if (r.reset) throw new Error(`putFile ${remote}: the chip reset before the write was confirmed`);
    if (r.err) throw new Error(`putFile ${remote}: ${r.err}`);
  }

  // ---- pins / peripherals seen from the outside --------------------------------------------
  resolvePin(n) {
    const pin = this.mcu.gpio[n];
    const st = pin.value;
    const ext = this.extDrive[n];
    let v;
    if (st === GPIOPinState.High) v = true;
    else if (st === GPIOPinState.Low) v = false;
    else if (ext !== null) v = ext;
    else if (st === GPIOPinState.InputPullUp) v = true;
    else if (st === GPIOPinState.InputPullDown) v = false;
    else v = pin.rawInputValue ?? false; // floating / bus keeper: keep last level
    if (v !== pin.rawInputValue) pin.setInputValue(v);
  }
  /** Drive a GPIO from outside (sensor, button): true/false, or null to release it (pulls apply). */
  setPin(n, value) {
    this.extDrive[n] = value === null ? null : !!value;
    this.resolvePin(n);
  }
  /** Connect output pin `from` to input pin `to` (a jumper wire). */
  wire(from, to) {
    this.onPin(from, (v) => v !== null && this.setPin(to, v));
  }
  /** Current level the chip drives on a pin: true/false, or null if it is not an output. */
  getPin(n) {
    const s = this.mcu.gpio[n].value;
    return s === GPIOPinState.High ? true : s === GPIOPinState.Low ? false : null;
  }
  /** cb(stateBoolOrNull, simMs) on each change of a pin's driven state (works for PWM too). */
  onPin(n, cb) {
    const l = {
      attach: () => {
        l.detach = this.mcu.gpio[n].addListener((st) =>
          cb(st === GPIOPinState.High ? true : st === GPIOPinState.Low ? false : null, this.simMs));
      },
    };
    l.attach();
    this.pinListeners.push(l);
    return () => {
      l.detach();
      this.pinListeners.splice(this.pinListeners.indexOf(l), 1);
    };
  }
  /** Analog input: ADC channel 0-3 = GP26-GP29 (4 = temperature sensor), volts at a 3.3 V ref. */
  setAdc(channel, volts) {
    this.adcVolts = this.adcVolts ?? [];
    this.adcVolts[channel] = volts;
    this.mcu.adc.channelValues[channel] = Math.max(0, Math.min(4095, Math.round((volts / 3.3) * 4095)));
  }
  /** Feed bytes into UARTn RX. */
  uartWrite(n, data) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.uartIn) this.uartIn[n].send(bytes);
    else for (const b of bytes) this.mcu.uart[n].feedByte(b);
  }
  uartRead(n) {
    const s = Buffer.from(this.uartOut[n]);
    this.uartOut[n] = [];
    return s;
  }
  saveFlash(file) {
    fs.writeFileSync(file, this.mcu.flash.subarray(0, FLASH_SIZE));
  }

  /** Power cut: the chip stops at once (also from inside a flash hook); flash keeps what it has. */
  cut() {
    this.cutPending = true;
  }
  /** The 2 MiB flash as it is now (a copy): the start image of the next power-up. */
  flashCopy() {
    return this.mcu.flash.slice(0, FLASH_SIZE);
  }
  notePrimask(off, nanos) {
    const t = this.nanosBase + nanos;
    this.irqOff = off;
    if (off) this.irqOffSince = t;
    else if (this.irqOffSince !== undefined) {
      const w = t - this.irqOffSince;
      if (w > (this.irqOffMaxNs ?? 0)) this.irqOffMaxNs = w;
    }
  }
}

