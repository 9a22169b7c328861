// chipprofile.mjs - what the emulated chip ran while a SAS poll waited for its answer, named
// from the image's ELF: each executed instruction by its C function, each read of frozen
// bytecode (the fun_data_<module>_<function> arrays in flash) by its Python function. A wait
// over `overMs` is kept with its top functions and the order the Python functions ran in.
// tools/bench_rp2.mjs --elf F (the ELF the release image was linked from: tools/build-firmware
// leaves it beside the UF2).
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

function top(counts, total) {
  return [...counts].sort((x, y) => y[1] - x[1]).slice(0, TOP)
    .map(([f, k]) => `${f} ${((100 * k) / total).toFixed(0)}%`).join(', ');
}

export class PollProfile {
  constructor(elf, overMs) {
    this.code = symbols(elf, (t) => 'tTwW'.includes(t));
    this.bytecode = symbols(elf, (t, n) => n.startsWith('fun_data_'));
    this.overMs = overMs;
    this.slow = []; // one text per wait over overMs
  }

  /** Profile `host`'s waits on `pico` (its chip as built now: call again after a reset). */
  attach(pico, host) {
    const { core } = pico.mcu;
    const lo = this.bytecode.length ? this.bytecode[0][0] : 0;
    const hi = this.bytecode.length ? this.bytecode[this.bytecode.length - 1][1] : 0;
    let pcs = null;
    let reads = null;
    let trail = null;
    let t0 = 0;
    const execute = core.executeInstruction.bind(core);
    core.executeInstruction = () => {
      if (pcs) pcs.set(core.PC, (pcs.get(core.PC) ?? 0) + 1);
      return execute();
    };
    const read8 = core.readUint8; // bytecode is read a byte at a time
    core.readUint8 = (a) => {
      const f = reads && a >= lo && a < hi ? nameAt(this.bytecode, a) : null;
      if (f) {
        const fn = f.slice('fun_data_'.length);
        reads.set(fn, (reads.get(fn) ?? 0) + 1);
        if (trail.length < TRAIL && trail[trail.length - 1] !== fn) trail.push(fn);
      }
      return read8(a);
    };
    host.onSent = () => {
      pcs = new Map();
      reads = new Map();
      trail = [];
      t0 = pico.simMs;
    };
    host.onAnswer = (frame) => {
      if (!pcs) return;
      const ms = pico.simMs - t0;
      if (ms > this.overMs) {
        const byFn = new Map();
        let n = 0;
        for (const [pc, k] of pcs) {
          const f = nameAt(this.code, pc & ~1) ?? '?';
          byFn.set(f, (byFn.get(f) ?? 0) + k);
          n += k;
        }
        const nReads = [...reads.values()].reduce((x, y) => x + y, 0);
        this.slow.push(`${ms.toFixed(1)} ms at ${(t0 / 1000).toFixed(2)} s (${frame.cmd?.toString(16) ?? frame.kind}): `
          + `C ${top(byFn, n)}; Python ${top(reads, nReads || 1)}; ran ${trail.join(' > ')}`);
      }
      pcs = reads = trail = null;
    };
  }
}
