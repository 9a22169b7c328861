"""Firmware benchmark on the MicroPython unix port.

    .venv/bin/python tools/bench_firmware.py [--rolls 1000] [--heap 192K] [--sas|--sas-plain]
(--sas: with a SAS port and a host polling it, and the long-poll answer time;
--sas-plain: the same polls without the answer-time instrumentation, for the
firmware's own heap. The host is this process, tools/bench_sas_host.py: it
writes the frames before the session and checks every answer after it)
    .venv/bin/python tools/bench_firmware.py --rp2 [--rolls 1000] [--variant frozen|mpy]

This compiles firmware/, hal/ and the session driver (tools/bench_session.py,
tools/bench_sas_line.py: the cabinet's SAS port, --sas: tools/bench_sas_timed.py) with mpy-cross (tools/mpyc.py)
into a temp dir and runs the driver
there under `micropython -X heapsize=HEAP -m bench_session`: the heap holds
the firmware and that small driver, not this tool's source (compiled on the
port it cost ~18 KB). The session drives the real controller (fake clock,
10 ms passes like the asyncio loop) through a headless session of ROLLS
rolls (bills in, pass line + field by buttons, ROLL), over a file-backed NOR
flash so the flash image is not counted in the heap (on a board it is not
RAM either). Prints: peak heap, heap after gc at roll 100 and at the end,
firmware time per game cycle (all the work done; the fake clock removes the
timed waits), time per pass, and the time to build + redraw a screen.

--rp2 runs the same kind of session on the real MicroPython rp2 port in the
emulated Pico (tools/bench_rp2.mjs + tools/bench_rp2_session.py), for the
frozen release image and for the image whose cabinet code is .mpy files on
its filesystem, with a SAS host polling the cabinet's SAS line: heap free
after boot, with the controller up, at roll 100 and at the end; time per
game cycle and per screen. The emulated clock carries the chip-time model
(tests_emu/chiptime.mjs: XIP cache misses, bus transfer times), so every
time is a real-chip estimate, printed with its raw emulated value. Then, on
the frozen release image: the release booted with a full journal region
(made on the host: the longest log the journal allows), with a blank one and
with the journal the session left; main.py at the default bet timer for a
few rounds with the SAS host; the chip budgets (CPU busy per round, full
journal boot, watchdog feed gap, SAS answer time) and the heap guard judged,
exit status 1 when one is missed. --rolls 0: no heap session.
"""
import sys

import mpyc


# the MicroPython side: the session driver and the SAS line it loads with --sas
SESSION = ("bench_session", "bench_report", "bench_sas_line", "bench_sas_timed")


# ---------------------------------------------------------------- host side
def host_main(argv):
    import os
    import subprocess
    import tempfile
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--rp2" in argv:
        return rp2_main(root, [a for a in argv if a != "--rp2"])
    rolls, heap, sas = "1000", "192K", "0"
    i = 0
    while i < len(argv):
        if argv[i] in ("--sas", "--sas-plain"):
            sas = "1" if argv[i] == "--sas" else "2"
            i += 1
            continue
        if argv[i] == "--rolls":
            rolls = argv[i + 1]
            i += 2
        elif argv[i] == "--heap":
            heap = argv[i + 1]
            i += 2
        else:
            print(__doc__)
            return 2
    bin_dir = os.path.join(root, ".venv", "bin")
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        # the session driver beside the firmware, as .mpy too (tools/bench_session.py)
        sources = [os.path.join("tools", f + ".py") for f in SESSION]
        for top in ("firmware", "hal"):
            for base, dirs, files in os.walk(os.path.join(root, top)):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                sources += [os.path.relpath(os.path.join(base, f), root)
                            for f in files if f.endswith(".py")]
        for rel in sources:
            dst = os.path.join(tmp, (rel[len("tools/"):] if rel.startswith("tools") else rel)[:-3]
                               + ".mpy")
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            mpyc.compile_mpy(root, rel, dst)
        print("compiled %d modules to .mpy" % len(sources))
        flash = os.path.join(tmp, "flash.bin")
        cmd = [os.path.join(bin_dir, "micropython"), "-X", "heapsize=" + heap,
               "-m", "bench_session", rolls, flash, sas]
        if sas != "0":      # (argv is heap: not there without SAS)
            cmd += [flash + ".polls", flash + ".sas"]
        print("running:", " ".join(cmd[:5]), "<rolls> <flash> <sas> <SAS frames> <SAS log> in the"
              " .mpy directory")
        if sas != "0":
            sys.path.insert(0, os.path.join(root, "tools"))
            import bench_sas_host
            bench_sas_host.write_frames(flash + ".polls")
        r = subprocess.run(cmd, cwd=tmp)
        if sas != "0" and not r.returncode:
            # the casino system's side: every answer checked, the answer times
            return bench_sas_host.report(root, flash + ".sas", sas == "1")
        return r.returncode


# ---------------------------------------------------------------- emulated Pico
RP2_FS_BLOCKS = 280  # littlefs below the generation log and the journal: (1408 - 32 - 256) KiB / 4 KiB (hal/rp2/storage)
# what the .mpy build carries on its filesystem (tools/deploy's set: no mock, no esp32, no build files)
RP2_SKIP = ("hal/mock/", "hal/esp32/", "hal/rp2/manifest.py", "hal/rp2/manifest_boot.py",
            "hal/rp2/_boot.py")


def rp2_fs_image(root, out, tmp, mpy):
    """littlefs image (the geometry hal/rp2/_boot.py mounts) with boot.py and, for the .mpy
    build, firmware/ and hal/ compiled by mpy-cross (tools/mpyc.py, as everywhere)."""
    import os
    from littlefs import LittleFS
    fs = LittleFS(block_size=4096, block_count=RP2_FS_BLOCKS, prog_size=256, read_size=32,
                  lookahead_size=32)
    with open(os.path.join(root, "boot.py"), "rb") as f, fs.open("boot.py", "wb") as g:
        g.write(f.read())
    n = 0
    for top in (("firmware", "hal") if mpy else ()):
        for base, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                rel = os.path.relpath(os.path.join(base, name), root).replace(os.sep, "/")
                if not name.endswith(".py") or any(rel.startswith(x) for x in RP2_SKIP):
                    continue
                dst = os.path.join(tmp, rel[:-3] + ".mpy")
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                mpyc.compile_mpy(root, rel, dst)
                fs.makedirs(os.path.dirname(rel), exist_ok=True)
                with open(dst, "rb") as f, fs.open(rel[:-3] + ".mpy", "wb") as g:
                    g.write(f.read())
                n += 1
    with open(out, "wb") as f:
        f.write(fs.context.buffer)
    return n


def rp2_full_journal(root, out):
    """The journal region with the longest log it allows (tools/bench_journal.py: the
    scripted cabinet session's records after a snapshot with a full game recall, up to the
    point where the next commit would snapshot), written on the host with the same journal
    code; tools/bench_rp2.mjs puts it where hal/rp2/storage.py keeps the journal."""
    import os
    sys.path.insert(0, os.path.join(root, "tools"))
    cwd = os.getcwd()
    os.chdir(root)
    try:
        import bench_journal as BJ
        cab = BJ.Cabinet(100000)
        f, recs = BJ.fill_for_mount(cab.workload, cab.state)
    finally:
        os.chdir(cwd)
    img = f.image()
    with open(out, "wb") as fh:
        fh.write(img)
    from firmware.store import journal as J
    from hal.mock.norflash import NorFlash
    copy = NorFlash(len(img))  # mounting may repair: never on the image written
    copy.load_image(img)
    j = J.Journal(copy)
    j.mount()
    snap = len(j.snapshot())
    return "%d records after a %d B snapshot, %d KiB region" % (recs, snap, len(f.image()) // 1024)


def rp2_main(root, argv):
    """tools/bench firmware --rp2 [--rolls N] [--check C] [--seed S] [--rounds R]
    [--variant frozen|mpy] [--role dome|station]: the figures on the real MicroPython rp2 port
    in the emulated Pico,
    real-chip estimates (tests_emu/chiptime.mjs). The frozen release image is the guarded one:
    its heap session runs with a SAS host polling (>= 150 KB free at roll C and at roll N, no
    growth), and the chip budgets are judged on it (tools/bench_rp2.mjs); the .mpy build's
    figures are informative. --role: only the heap session, in that table role (>= 100 KB free
    at roll C and N). Exit status 1 when a budget or the guard is missed."""
    import os
    import subprocess
    import tempfile
    rolls, timed, check, seed, rounds = "1000", "5", None, "12345", "3"
    variants = ("frozen", "mpy")
    role = None
    i = 0
    while i < len(argv):
        if argv[i] == "--rolls":
            rolls = argv[i + 1]
        elif argv[i] == "--timed":
            timed = argv[i + 1]
        elif argv[i] == "--check":
            check = argv[i + 1]
        elif argv[i] == "--seed":
            seed = argv[i + 1]
        elif argv[i] == "--rounds":
            rounds = argv[i + 1]
        elif argv[i] == "--variant":
            variants = (argv[i + 1],)
        elif argv[i] == "--role" and i + 1 < len(argv) and argv[i + 1] in ("dome", "station"):
            role = argv[i + 1]
        else:
            print(rp2_main.__doc__)
            return 2
        i += 2
    if check is None:   # roll 100, or half a shorter session
        check = str(min(100, max(1, int(rolls) // 2)))
    for v in variants:
        subprocess.run([os.path.join(root, "tools", "build-firmware"), "rp2", "--variant", v,
                        "--quiet"], check=True)
    sys.path.insert(0, os.path.join(root, "tools"))
    import run_tests
    if run_tests.npm_ci(os.path.join(root, "tests_emu")):
        return 1
    rc = 0
    with tempfile.TemporaryDirectory() as tmp:
        for v in variants:
            img = os.path.join(tmp, v + ".img")
            n = rp2_fs_image(root, img, os.path.join(tmp, v), v == "mpy")
            print("== rp2 %s build: %s" % (v, "cabinet code frozen in the image (the release: guarded)"
                                           if v == "frozen" else
                                           "%d .mpy files on the filesystem (informative)" % n),
                  flush=True)
            cmd = ["node", os.path.join(root, "tools", "bench_rp2.mjs"),
                   "--uf2", os.path.join(root, "build", "rp2", "cabinet-rp2-%s.uf2" % v),
                   "--fs-image", img, "--rolls", rolls, "--timed", timed, "--check", check,
                   "--seed", seed]
            if role:
                cmd += ["--role", role]
            elif v == "frozen":
                full = os.path.join(tmp, "journal-full.bin")
                print("== a full journal region for the boot figure: %s" % rp2_full_journal(root, full),
                      flush=True)
                cmd += ["--guard", "--boot-check", "--journal-image", full, "--rounds", rounds,
                        "--budgets"]
                elf = os.path.join(root, "build", "rp2", "cabinet-rp2-frozen.elf")
                if os.path.exists(elf):     # a slow SAS answer named with what held it
                    cmd += ["--elf", elf]
            rc |= subprocess.run(cmd, cwd=root).returncode
    return rc


if __name__ == "__main__":
    sys.exit(host_main(sys.argv[1:]))
