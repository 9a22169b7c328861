// The emulator side of `tools/bench firmware --rp2` (tools/bench_firmware.py builds the images
// and calls this): boots a cabinet UF2 in rp2040js with a littlefs image, runs
// tools/bench_rp2_session.py over the raw REPL (the real rp2 board, fake clock), then, with
// --boot-check, powers up the release image with the journal the session left: time to the
// first screen, and the longest interrupts-off window while the idle cabinet erases ahead
// (flash with W25Q16JV busy times). --journal-image J (a full journal region,
// tools/bench_firmware.py makes it on the host with tools/bench_journal.py: the longest log
// the journal allows, just before its next snapshot) boots the release with that journal and
// with a blank one: time to the first screen, and the interrupts-off windows of the erases the
// idle cabinet then schedules. --rolls 0 skips the session.
//   node tools/bench_rp2.mjs --uf2 F --fs-image IMG --rolls N --timed T [--boot-check] [--journal-image J]
import fs from 'node:fs';
import path from 'node:path';
import { BOOTROM, ROOT, cabinet, flashWithFiles, missing, releaseFiles } from '../tests_emu/harness.mjs';
import { CabinetBoard } from '../tests_emu/board.mjs';
import { FS_OFFSET, Pico, WALL_MS } from '../tests_emu/pico.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const uf2 = opt('--uf2');
const rolls = Number(opt('--rolls', 1000));
const timed = Number(opt('--timed', 20));
const say = (k, v) => console.log(`BENCH ${k} ${v}`);
// hal/rp2/storage.py: the journal is the top 256 KiB of the 1408 KiB storage area
const JOURNAL_LEN = 256 * 1024;
const JOURNAL_OFFSET = FS_OFFSET + 1408 * 1024 - JOURNAL_LEN;

/** Boot the release with `journal` (bytes, or null: blank) in the journal region; first screen,
 * then 10 s idle: the erases the cabinet schedules and the longest interrupts-off window. */
async function journalBoot(label, journal) {
  const flash = Buffer.from(await flashWithFiles(releaseFiles(), { uf2 }));
  flash.fill(0xff, JOURNAL_OFFSET, JOURNAL_OFFSET + JOURNAL_LEN);
  if (journal) flash.set(journal.subarray(0, JOURNAL_LEN), JOURNAL_OFFSET);
  const c = await cabinet({ flashBytes: flash, flashTiming: {}, watchIrqOff: true, bootMs: 60000 });
  if (c.traceback()) throw new Error(c.traceback());
  say(`${label}_boot_to_screen_ms`, c.pico.simMs.toFixed(0));
  const st = await c.status();
  say(`${label}_boot_status`, `critical=${st.critical} lock=${st.lock} games=${st.games} events=${st.events}`);
  if (st.critical !== '0') {
    const why = /CRITICAL [^\r\n]*/.exec(c.pico.console);
    say(`${label}_CRITICAL`, why ? why[0] : '(no reason printed)');
    failures.push(label);
  }
  const irqBoot = c.pico.irqOffMaxNs ?? 0;
  c.pico.irqOffMaxNs = 0;
  const erases0 = c.pico.flash.stats.sectorErases;
  await c.runFor(10000);
  say(`${label}_idle_erases_10s`, c.pico.flash.stats.sectorErases - erases0);
  say(`${label}_irq_off_max_ms_boot`, (irqBoot / 1e6).toFixed(2));
  say(`${label}_irq_off_max_ms_idle`, ((c.pico.irqOffMaxNs ?? 0) / 1e6).toFixed(2));
}

const failures = []; // boots that ended CRITICAL: reported, and the exit status is 1

async function main() {
  const why = missing();
  if (why && !uf2) throw new Error(why);
  const jimg = opt('--journal-image');
  if (jimg) {
    await journalBoot('full_journal', fs.readFileSync(jimg));
    await journalBoot('blank_journal', null);
  }
  if (rolls === 0) return;
  const pico = new Pico({ firmware: uf2, bootrom: BOOTROM, flashTiming: {} });
  pico.flash.mem.set(fs.readFileSync(opt('--fs-image')), FS_OFFSET);
  new CabinetBoard().attach(pico); // display, printer, inputs answer as on the cabinet
  const t0 = Date.now();
  await pico.waitReady({ wallMs: WALL_MS });
  await pico.enterRawRepl({ wallMs: WALL_MS });
  const code = fs.readFileSync(path.join(ROOT, 'tools', 'bench_rp2_session.py'), 'utf8')
    .replace('@ROLLS@', String(rolls)).replace('@TIMED@', String(timed));
  const sim0 = pico.simMs;
  const r = await pico.exec(code, { wallMs: 4 * 3600 * 1000, onOutput: (s) => process.stdout.write(s) });
  if (r.err || r.reset) throw new Error(`session failed: ${r.err || 'chip reset'}`);
  say('session_emulated_s', ((pico.simMs - sim0) / 1000).toFixed(1));
  say('session_wall_s', ((Date.now() - t0) / 1000).toFixed(0));
  if (!args.includes('--boot-check')) return;
  // The session's journal, booted by the release image on a fresh chip (the session armed the
  // watchdog: a file written over the REPL afterwards can be cut by its reset, so the boot does
  // not reuse this chip's filesystem).
  await journalBoot('session', pico.flashCopy().subarray(JOURNAL_OFFSET, JOURNAL_OFFSET + JOURNAL_LEN));
}

main().then(() => process.exit(failures.length ? 1 : 0), (e) => {
  console.error(`bench_rp2: ${e.stack || e}`);
  process.exit(1);
});
