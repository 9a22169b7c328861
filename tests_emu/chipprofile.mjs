// chipprofile.mjs - what the emulated chip ran over a window of its time, named from the
// image's ELF: each executed instruction by its C function, each read of frozen bytecode (the
// fun_data_<module>_<function> arrays in flash) by its Python function. tools/bench_rp2.mjs
// --elf F (the ELF the release image was linked from: tools/build-firmware leaves it beside
// the UF2) profiles the SAS answers that waited over a bound, and the boots.
import { execFileSync } from 'node:child_process';

const TOP = 8;
const TRAIL = 40;

/** [[address, end, name]] of the ELF's symbols that pass keep(type, name), by address. */
function symbols(elf, keep) {
  const out = execFileSync('arm-none-eabi-nm', ['-n', '-S', elf], { maxBuffer: 1 << 28 }).toString();
  const list = [];
  for (const line of out.split('\n')) {
    const [addr, size, type, name] = line.split(' ');
    if (name && keep(type, name)) list.push([parseInt(addr, 16), parseInt(addr, 16) + parseInt(size, 16), name]);
  }
  return list;
}

/** The name of the symbol that holds address `a`, or null. */
function nameAt(list, a) {
  let lo = 0;
  let hi = list.length - 1;
  if (hi < 0 || a < list[0][0]) return null;
  while (lo < hi) {
    const m = (lo + hi + 1) >> 1;
    if (list[m][0] <= a) lo = m;
    else hi = m - 1;
  }
  return a < list[lo][1] ? list[lo][2] : null;
}

function top(counts, total, n = TOP) {
  return [...counts].sort((x, y) => y[1] - x[1]).slice(0, n)
    .map(([f, k]) => `${f} ${((100 * k) / total).toFixed(0)}%`).join(', ');
}

export class ChipProfile {
  constructor(elf) {
    this.code = symbols(elf, (t) => 'tTwW'.includes(t));
    this.bytecode = symbols(elf, (t, n) => n.startsWith('fun_data_'));
    this.pcs = null; // executed instructions by address, while a window is open
    this.reads = null; // bytecode reads by Python function
    this.trail = null; // the Python functions in the order they first ran (TRAIL at most)
  }

  /** Count on `pico`'s core (as built now: again after a reset rebuilds it). */
  attach(pico) {
    const { core } = pico.mcu;
    const lo = this.bytecode.length ? this.bytecode[0][0] : 0;
    const hi = this.bytecode.length ? this.bytecode[this.bytecode.length - 1][1] : 0;
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      if (this.pcs) this.pcs.set(core.PC, (this.pcs.get(core.PC) ?? 0) + 1);
      return execute();
    };
    const read8 = core.readUint8.bind(core); // bytecode is read a byte at a time
    core.readUint8 = (a) => {
      const f = this.reads && a >= lo && a < hi ? nameAt(this.bytecode, a) : null;
      if (f) {
        const fn = f.slice('fun_data_'.length);
        this.reads.set(fn, (this.reads.get(fn) ?? 0) + 1);
        const t = this.trail;
        if (t.length < TRAIL && t[t.length - 1] !== fn) t.push(fn);
      }
      return read8(a);
    };
    return this;
  }

  start() {
    this.pcs = new Map();
    this.reads = new Map();
    this.trail = [];
  }

  /** Closes the window: its top C and Python functions (share of instructions, of bytecode
   * reads) and, with `trail`, the order the Python functions ran in. */
  stop({ n = TOP, trail = true } = {}) {
    const byFn = new Map();
    let total = 0;
    for (const [pc, k] of this.pcs ?? []) {
      const f = nameAt(this.code, pc & ~1) ?? '?';
      byFn.set(f, (byFn.get(f) ?? 0) + k);
      total += k;
    }
    const reads = this.reads ?? new Map();
    const nReads = [...reads.values()].reduce((x, y) => x + y, 0);
    const text = `C ${top(byFn, total || 1, n)}; Python ${top(reads, nReads || 1, n)}`
      + (trail ? `; ran ${(this.trail ?? []).join(' > ')}` : '');
    this.pcs = this.reads = this.trail = null;
    return text;
  }

  /** Each of `host`'s (tests_emu/sashost.mjs) answers that waited over `overMs`, with what the
   * chip ran meanwhile, into `out`. */
  polls(host, overMs, out) {
    let t0 = 0;
    host.onSent = () => {
      this.start();
      t0 = host.pico.simMs;
    };
    host.onAnswer = (frame) => {
      if (!this.pcs) return;
      const ms = host.pico.simMs - t0;
      const text = this.stop();
      if (ms > overMs) {
        out.push(`${ms.toFixed(1)} ms at ${(t0 / 1000).toFixed(2)} s (${frame.cmd?.toString(16) ?? frame.kind}): ${text}`);
      }
    };
  }
}
