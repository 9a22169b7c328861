// harness.mjs - the cabinet on the emulated Pico, for node:test files and tools/bench.
//
//   const h = await cabinet({ files: { 'hashlib.py': '...' } });   // boots main.py, board wired
//   await h.board.press(BUTTON.ROLL); h.status() ...
//   const r = await runPython({ files: {...}, code: 'print(1)' });  // no main.py: REPL script
//
// The UF2 is $CABINET_UF2 (tools/test passes build/rp2/cabinet-rp2-frozen.uf2); the RP2040
// bootrom comes from shared/rp2-emu/, found by tools/sharedpath.py (the rule every tool uses).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pico, WALL_MS } from './pico.mjs';
import { CabinetBoard } from './board.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** shared/rp2-emu as tools/sharedpath.py finds it, or null. */
export function sharedDir() {
  const venv = path.join(ROOT, '.venv', 'bin', 'python');
  try {
    return execFileSync(fs.existsSync(venv) ? venv : 'python3',
      [path.join(ROOT, 'tools', 'sharedpath.py'), 'rp2-emu'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;  // exit 1: not found
  }
}

export const UF2 = process.env.CABINET_UF2 || path.join(ROOT, 'build', 'rp2', 'cabinet-rp2-frozen.uf2');
const SHARED = sharedDir();
export const BOOTROM = SHARED && path.join(SHARED, 'bootrom_b1.bin');

/** null when the emulator can run, else what is missing (one line). */
export function missing() {
  if (!BOOTROM || !fs.existsSync(BOOTROM)) {
    return 'shared/rp2-emu/bootrom_b1.bin not found (tools/sharedpath.py; BUBBLECRAPS_SHARED points elsewhere)';
  }
  if (!fs.existsSync(UF2)) return `${UF2} not built (tools/build-firmware rp2)`;
  return null;
}

/** The files the release puts on the filesystem (the rest is frozen in the image). */
export function releaseFiles() {
  const out = {};
  for (const name of ['boot.py', 'main.py']) out[name] = fs.readFileSync(path.join(ROOT, name));
  return out;
}

const images = new Map(); // key -> flash bytes after the files were written (first boot done)

/**
 * Flash image of `uf2` with `files` ({ '/path': string|Buffer }) on its littlefs, made by the
 * firmware itself (first boot formats the filesystem, files go through the raw REPL).
 */
export async function flashWithFiles(files, { uf2 = UF2 } = {}) {
  const key = JSON.stringify([uf2, Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('base64')])]);
  if (images.has(key)) return images.get(key);
  const pico = new Pico({ firmware: uf2, bootrom: BOOTROM });
  await pico.waitReady();
  await pico.enterRawRepl();
  for (const [name, data] of Object.entries(files)) {
    await pico.putFile(name.startsWith('/') ? name : '/' + name, data);
  }
  if (!glyphs) glyphs = await readFont(pico);
  if (!faces) faces = await readFaces(pico);
  const img = pico.flashCopy();
  images.set(key, img);
  return img;
}

let glyphs = null; // 8 column bytes (MONO_VLSB) -> character, read from the firmware's framebuf

async function readFont(pico) {
  const r = await pico.exec(`import framebuf
b = bytearray(8 * 95)
framebuf.FrameBuffer(b, 8 * 95, 8, framebuf.MONO_VLSB).text(''.join(chr(c) for c in range(32, 127)), 0, 0, 1)
print(b.hex())`);
  if (r.err) throw new Error('font: ' + r.err);
  const hex = r.out.trim();
  const map = new Map();
  for (let c = 0; c < 95; c++) map.set(hex.slice(16 * c, 16 * c + 16), String.fromCharCode(32 + c));
  return map;
}

let faces = null; // [{ ch, cols: [column bytes] }]: the large-digit face (firmware/cabinet/bigfont.py)

async function readFaces(pico) {
  const r = await pico.exec(`from firmware.cabinet import bigfont as BF
for ch in BF.CHARS:
    f, n = BF.columns(ch)
    print(bytes(f[:n]).hex())`);
  if (r.err) throw new Error('faces: ' + r.err);
  const rows = r.out.trim().split(/\r?\n/);
  const chars = '0123456789+-$.,: ';
  if (rows.length !== chars.length) throw new Error('faces: ' + r.out);
  return rows.map((hex, i) => ({ ch: chars[i], cols: hex.match(/../g).map((b) => parseInt(b, 16)) }))
    .filter((f) => f.cols.some((b) => b));
}

/** The large-digit character drawn at scale k >= 2 with its left edge at x on the band's baseline
 * (render.big_text: a face's columns, bit 0 the top row); { ch, w } or null. */
function faceAt(px, x, y, h, k) {
  const top = y + h - 8 * k;
  for (const f of faces) {
    const w = f.cols.length * k;
    if (x + w > 128) continue;
    let ok = true;
    for (let yy = y; yy < top && ok; yy++) for (let xx = x; xx < x + w && ok; xx++) if (px(xx, yy)) ok = false;
    for (let c = 0; c < f.cols.length && ok; c++) {
      for (let r = 0; r < 8 && ok; r++) {
        const v = (f.cols[c] >> r) & 1;
        for (let dy = 0; dy < k && ok; dy++) for (let dx = 0; dx < k && ok; dx++) {
          if (px(x + c * k + dx, top + r * k + dy) !== v) ok = false;
        }
      }
    }
    if (ok) return { ch: f.ch, w };
  }
  return null;
}

/**
 * The display read back as text lines, the way firmware/cabinet/render.py draws them: lines
 * stacked from the top, each 8, 16 or 24 pixels high (1x, 2x, 3x font parts sitting on the
 * line's baseline, parts 3 pixels apart), a highlighted line inverted. Each band is read left
 * to right, matching framebuf's 8x8 glyphs at every scale; the split into lines is the one that
 * leaves the fewest lit pixels unread. Blank runs become spaces (one per 8 pixels, at least one
 * for a gap between parts); pixels no glyph explains (dice) read as '?'.
 */
export function screenText(display) {
  const px = (x, y) => (display.ram[(y >> 3) * 128 + x] >> (y & 7)) & 1;
  const best = new Map(); // y -> { cost, lines }
  const solve = (y) => {
    if (y >= 64) return { cost: 0, lines: [] };
    if (best.has(y)) return best.get(y);
    let top = null;
    for (const h of [8, 16, 24]) {
      if (y + h > 64) break;
      const band = readBand(px, y, h);
      const rest = solve(y + h);
      const cost = band.cost + rest.cost;
      if (!top || cost < top.cost) top = { cost, lines: [band.text, ...rest.lines] };
    }
    best.set(y, top);
    return top;
  };
  return solve(0).lines;
}

function readBand(px0, y, h) {
  let lit = 0;
  for (let yy = y; yy < y + h; yy++) for (let x = 0; x < 128; x++) lit += px0(x, yy);
  // a highlighted (inverted) line is a full-width lit 8-pixel band
  const inv = h === 8 && lit > (128 * 8) / 2;
  const px = inv ? (x, yy) => 1 - px0(x, yy) : px0;
  const col = (x) => {
    let n = 0;
    for (let yy = y; yy < y + h; yy++) n += px(x, yy);
    return n;
  };
  let text = '';
  let cost = 0;
  let blank = 0;
  let junk = false;
  const flush = () => {
    if (blank >= 3) text += ' '.repeat(Math.max(1, Math.round(blank / 8)));
    blank = 0;
  };
  for (let x = 0; x < 128;) {
    let hit = null;
    for (let k = h / 8; k >= 1 && !hit; k--) {
      const ch = glyphAt(px, x, y, h, k);
      if (ch) hit = { ch, w: 8 * k };
      else if (k >= 2) hit = faceAt(px, x, y, h, k);
    }
    if (hit) {
      flush();
      junk = false;
      text += hit.ch;
      x += hit.w;
      continue;
    }
    const n = col(x);
    if (n === 0) {
      blank++;
      junk = false;
    } else {
      flush();
      cost += n;
      if (!junk) text += '?';
      junk = true;
    }
    x++;
  }
  return { text: text.trimEnd(), cost };
}

/** The glyph drawn at scale k with its left edge at x, on the baseline of the band (y, h), the
 * band above it blank; null if none. */
function glyphAt(px, x, y, h, k) {
  if (x + 8 * k > 128) return null;
  const top = y + h - 8 * k;
  for (let yy = y; yy < top; yy++) for (let xx = x; xx < x + 8 * k; xx++) if (px(xx, yy)) return null;
  let key = '';
  let any = false;
  for (let c = 0; c < 8; c++) {
    let byte = 0;
    for (let r = 0; r < 8; r++) {
      const x0 = x + c * k;
      const y0 = top + r * k;
      const v = px(x0, y0);
      for (let dy = 0; dy < k; dy++) for (let dx = 0; dx < k; dx++) if (px(x0 + dx, y0 + dy) !== v) return null;
      byte |= v << r;
    }
    any ||= byte !== 0;
    key += byte.toString(16).padStart(2, '0');
  }
  return any ? glyphs.get(key) ?? null : null;
}

/**
 * Boot `uf2` with `files` on the filesystem (no main.py unless given), run `code` over the raw
 * REPL. Resolves to { out, err, reset, pico }.
 */
export async function runPython({ files = {}, code, uf2 = UF2, wallMs = WALL_MS, flashTiming } = {}) {
  const flashBytes = await flashWithFiles(files, { uf2 });
  const pico = new Pico({ firmware: null, flashBytes, bootrom: BOOTROM, flashTiming });
  await pico.waitReady({ wallMs });
  await pico.enterRawRepl({ wallMs });
  const r = await pico.exec(code, { wallMs });
  return { ...r, pico };
}

/**
 * The cabinet running: the release files (+ `files`) on the filesystem, main.py started by the
 * firmware, the board model attached. `flashBytes` starts from a saved flash (after a power
 * cut). Resolves to a Cabinet once the controller's first screen is on the display.
 */
export async function cabinet({ files = {}, flashBytes, seed = 1, board, flashTiming, onBeforeFlashOp,
  watchIrqOff, chipTime, bootMs = 20000, onPico } = {}) {
  const flash = flashBytes ?? (await flashWithFiles({ ...releaseFiles(), ...files }));
  // onBeforeFlashOp(kind, start, len, data, pico): see SpiNorFlash.onBeforeOp in pico.mjs
  const hook = onBeforeFlashOp && ((...a) => onBeforeFlashOp(...a, pico));
  const pico = new Pico({ firmware: null, flashBytes: flash, bootrom: BOOTROM, flashTiming, onBeforeFlashOp: hook, watchIrqOff, chipTime });
  const b = board ?? new CabinetBoard({ seed });
  b.attach(pico);
  onPico?.(pico); // before it runs (a profiler: tools/bench_rp2.mjs)
  const c = new Cabinet(pico, b);
  await c.waitScreen({ simMs: bootMs });
  return c;
}

/**
 * Run a host tool (argv; '{tcp}' in an argument becomes 127.0.0.1:PORT) with one of the board's
 * serial lines bridged to a local TCP port while the emulator keeps running: bytes from the
 * tool go to line.send(Buffer), line.read() gives what the board wrote since the last call.
 * Every connection the tool opens is bridged, one after the other. Resolves to
 * { code, stdout, stderr }.
 */
export async function bridgedTool(pico, argv, line, { wallMs = WALL_MS } = {}) {
  let sock = null;
  const server = net.createServer((s) => {
    sock = s;
    s.on('data', (d) => line.send(d));
    s.on('error', () => {});
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  const pump = setInterval(() => {
    const out = line.read();
    if (out && sock && !sock.destroyed) sock.write(Buffer.from(out, 'latin1'));
  }, 5);
  const child = spawn(argv[0], [...argv.slice(1).map((a) => a.replace('{tcp}', `127.0.0.1:${port}`))], { cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let code = null;
  child.on('exit', (c) => (code = c));
  const t0 = Date.now();
  const sim0 = pico.simMs;
  try {
    // the board no faster than the wall clock: the tool's waits and time-outs are wall time
    // (an idle REPL would otherwise race hours ahead, and burn the CPU the tool needs)
    while (code === null) {
      if (Date.now() - t0 > wallMs) throw new Error(`${argv[0]}: still running after ${wallMs} ms wall`);
      if (pico.simMs - sim0 > Date.now() - t0) await new Promise((r) => setTimeout(r, 5));
      else await pico.runUntil(() => code !== null, { simMs: 20, wallMs });
    }
  } finally {
    clearInterval(pump);
    sock?.destroy();
    server.close();
  }
  return { code, stdout, stderr };
}

/**
 * Run a host tool against the USB console (the REPL; mpremote connect socket://{tcp}): what
 * a host on the board's micro-USB port sees, across the board's resets (bridgedTool).
 */
export async function usbTool(pico, argv, opts) {
  let out = '';
  const listener = (s) => (out += s);
  pico.consoleListeners.add(listener);
  const read = () => {
    const s = out;
    out = '';
    return s;
  };
  try {
    return await bridgedTool(pico, argv, { send: (d) => pico.write(d), read }, opts);
  } finally {
    pico.consoleListeners.delete(listener);
  }
}

export class Cabinet {
  constructor(pico, board) {
    this.pico = pico;
    this.board = board;
  }
  get display() {
    return this.board.display;
  }
  /** The screen as text lines (screenText). */
  screen() {
    return screenText(this.display);
  }
  /** Run until the display received a new frame (or simMs pass); true if one came. */
  async waitFrame({ simMs = 5000 } = {}) {
    const f0 = this.display.frames;
    return this.pico.runUntil(() => this.display.frames > f0 || this.traceback(), { simMs, wallMs: WALL_MS });
  }
  /** Run until the controller drew its first screen (the driver's init frame is blank). */
  async waitScreen({ simMs = 20000 } = {}) {
    this.display.ram.fill(0);
    return this.pico.runUntil(() => this.display.ram.some((b) => b) || this.traceback() || this.pico.cutPending,
      { simMs, wallMs: WALL_MS });
  }
  /** A Python traceback on the USB console (the cabinet died), or null. */
  traceback() {
    const i = this.pico.console.indexOf('Traceback (most recent call last)');
    return i < 0 ? null : this.pico.console.slice(i);
  }
  async runFor(ms) {
    await this.pico.runFor(ms, { wallMs: WALL_MS });
  }
  async runUntil(pred, simMs) {
    return this.pico.runUntil(pred, { simMs, wallMs: WALL_MS });
  }
  /**
   * One read-out request on the technician UART (firmware/audit/readout.py): resolves to
   * { status, lines } once the terminating "." line arrived.
   */
  async request(command, { simMs = 20000 } = {}) {
    this.board.techRead();
    this.board.techSend(command + '\n');
    let text = '';
    const done = () => {
      text += this.board.techRead();
      return /^ERR[^\n]*\n/.test(text) || /(^|\n)\.\r?\n/.test(text);
    };
    if (!(await this.runUntil(done, simMs))) throw new Error(`no reply to ${command}: ${JSON.stringify(text)}`);
    const lines = text.replace(/\r/g, '').split('\n');
    const status = lines.shift();
    const end = lines.indexOf('.');
    return { status, lines: (end < 0 ? [] : lines.slice(0, end)).map((l) => (l.startsWith('..') ? l.slice(1) : l)) };
  }
  /** STATUS as an object of strings (credits, phase, lock, games, ...). */
  async status() {
    const r = await this.request('STATUS');
    return Object.fromEntries(r.lines.map((l) => l.split('=', 2)).filter((kv) => kv.length === 2));
  }
  /**
   * Run a host tool against the technician port (tools/meters --tcp ...): the UART is bridged
   * to a local TCP port while the emulator keeps running. Resolves to { code, stdout, stderr }.
   */
  async tool(argv, { wallMs = WALL_MS } = {}) {
    const board = this.board;
    return bridgedTool(this.pico, argv, { send: (d) => board.techSend(d), read: () => board.techRead() }, { wallMs });
  }
  savePNG(file) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, this.display.toPNG());
  }
}
