"""Runs every stage of the suite and prints one closing line.

Stages: pytest (CPython), MicroPython unix port suites (tests_host/mp_suites.txt),
the firmware heap budget (headless sessions of the .mpy firmware in a bounded heap),
mpy-cross over every file that ships to the board, pyright over the drivers, and
the cabinet's rp2 image in the emulator (tests_emu/, node:test; beside the
others in a thread; EMU=0 leaves it out).
"""
import os
import re
import signal
import subprocess
import sys
import threading
import time

import mpyc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".venv", "bin")
SHIPPED = ("firmware", "hal", "boot.py", "main.py")


def shipped_files():
    for top in SHIPPED:
        path = os.path.join(ROOT, top)
        if os.path.isfile(path):
            yield top
        for base, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.relpath(os.path.join(base, name), ROOT)


def counts(text, pattern):
    m = re.findall(pattern, text)
    return m[-1] if m else None


def stage_pytest(extra):
    cmd = [os.path.join(BIN, "pytest"), "-q", "-p", "no:cacheprovider", "tests_host"] + extra
    out = run(cmd)
    passed = int(counts(out, r"(\d+) passed") or 0)
    failed = int(counts(out, r"(\d+) failed") or 0) + int(counts(out, r"(\d+) error") or 0)
    return passed, failed


def stage_micropython():
    passed = failed = 0
    with open(os.path.join(ROOT, "tests_host", "mp_suites.txt")) as f:
        suites = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for heap, *modules in suites:
        cmd = [os.path.join(BIN, "micropython"), "-X", "heapsize=" + heap,
               "tests_host/mp_runner.py"] + modules
        out = run(cmd)
        m = re.search(r"micropython: (\d+) passed, (\d+) failed", out)
        if m:
            passed += int(m.group(1))
            failed += int(m.group(2))
        else:
            failed += 1
    return passed, failed


# The firmware's heap budget (docs/BENCHMARKS.md): the .mpy firmware runs a
# headless session in these heaps with no growth after roll 100, so nobody's
# change makes it worse unnoticed. The goal is 192K for both; the session
# without SAS runs in 174K (1,000 rolls of `tools/bench firmware`; 172K
# fails); with SAS in 192K with the bench's host polling untimed
# (--sas-plain: the firmware's own heap; 190K fails) and 194K with the
# bench's answer-time instrumentation in the heap too (--sas: its code and
# state, ~2.6 KB; 192K fails): 1,000 rolls each (the bench's SAS host runs
# in CPython and fails the bench on a wrong answer: docs/BENCHMARKS.md;
# main 2972f90 needed 320K). A shorter session than the benchmark's so the
# suite stays quick: boot, the interned names and the recall's first 100
# games are all in by roll 100.
HEAP_BUDGETS = (("174K", ()), ("192K", ("--sas-plain",)), ("194K", ("--sas",)))
HEAP_ROLLS = 200
# A heap only just too small does not fail at once: the collector runs at
# nearly every allocation and the session crawls. Over this much CPU time
# (the session's own, printed by the bench: a busy machine stretches the
# wall clock, not that) it has failed; the wall-clock limit is a backstop.
HEAP_CPU_MS = 30000
HEAP_TIMEOUT_S = 900


def stage_heap_budget():
    passed = failed = 0
    for heap, extra in HEAP_BUDGETS:
        out = run([os.path.join(BIN, "python"), "tools/bench_firmware.py",
                   "--rolls", str(HEAP_ROLLS), "--heap", heap] + list(extra),
                  timeout=HEAP_TIMEOUT_S)
        m = re.search(r"heap after gc at roll 100: (\d+) B, at roll (\d+): (\d+) B", out)
        cpu = re.search(r"session CPU time: (-?\d+) ms", out)
        ok = (not LAST_RC[0] and m is not None and int(m.group(2)) >= HEAP_ROLLS
              and int(m.group(1)) > 0 and int(m.group(3)) <= int(m.group(1))
              and cpu is not None and int(cpu.group(1)) <= HEAP_CPU_MS
              and "CRITICAL" not in out and "MemoryError" not in out)
        what = (" with SAS (untimed host)" if "--sas-plain" in extra else
                " with SAS" if extra else "")
        print("firmware heap budget: %d-roll session%s in %s %s" % (
            HEAP_ROLLS, what, heap, "with no growth: OK" if ok else
            "FAILED (MemoryError, growth or too slow; trim what you added: lazy imports, no import-time"
            " tables, fewer interned names; docs/BENCHMARKS.md)"))
        passed += ok
        failed += not ok
    return passed, failed


def stage_mpy_cross():
    passed = failed = 0
    for rel in shipped_files():
        r = subprocess.run(mpyc.command(ROOT, rel, os.devnull),
                           cwd=ROOT, capture_output=True, text=True)
        if r.returncode:
            failed += 1
            print("mpy-cross rejects", rel, r.stdout + r.stderr)
        else:
            passed += 1
    print("mpy-cross: %d files compiled, %d rejected" % (passed, failed))
    return passed, failed


def stage_typecheck():
    run([os.path.join(ROOT, "tools", "typecheck")])
    return (0, 1) if LAST_RC[0] else (1, 0)


def stage_emulator(out):
    """The cabinet UF2 built (cached) and booted in rp2040js: tests_emu/*.test.mjs.
    Skipped, with one line saying why, when shared/rp2-emu is not beside the clone.
    Runs beside the other stages (its own thread, output kept in `out` and
    printed at the end): the emulator is one CPU-bound node process, pytest and
    the MicroPython suites the other core's work."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import build_firmware
    shared = build_firmware.shared_dir()
    if build_firmware.find_tarball() is None or shared is None or \
            not os.path.exists(os.path.join(shared, "bootrom_b1.bin")):
        out.append("emulator: SKIPPED - shared/rp2-emu/ (MicroPython source tarball + RP2040 bootrom)"
                   " not found beside the clone; the rp2 image and the emulator tests did not run\n")
        return 0, 0
    start = time.time()
    if run_quiet([os.path.join(ROOT, "tools", "build-firmware"), "rp2", "--quiet"], out):
        return 0, 1
    emu = os.path.join(ROOT, "tests_emu")
    if npm_ci(emu, out):
        return 0, 1
    env = dict(os.environ, CABINET_UF2=os.path.join(ROOT, "build", "rp2", "cabinet-rp2-frozen.uf2"))
    tests = sorted(os.path.join("tests_emu", f) for f in os.listdir(emu) if f.endswith(".test.mjs"))
    rc = run_quiet(["node", "--test", "--test-reporter=spec", "--test-concurrency=1"] + tests, out,
                   env=env)
    text = "".join(out)
    passed = int(counts(text, r"\u2139 pass (\d+)") or 0)
    failed = int(counts(text, r"\u2139 fail (\d+)") or 0) + \
        int(counts(text, r"\u2139 cancelled (\d+)") or 0)
    skipped = int(counts(text, r"\u2139 skipped (\d+)") or 0)
    if skipped:  # only missing() skips them, and the stage checked what it needs
        out.append("emulator: %d tests skipped although shared/rp2-emu is there\n" % skipped)
        failed += skipped
    if rc and not failed:
        failed = 1
    out.append("emulator stage took %.0f s (wall)\n" % (time.time() - start))
    return passed, failed


def run_quiet(cmd, out, env=None):
    """run() for a stage in a thread: output into `out`, returns the exit code."""
    out.append("$ " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd) + "\n")
    r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env)
    out.append(r.stdout)
    return r.returncode


def npm_ci(folder, out=None):
    """`npm ci` from the lockfile, skipped while node_modules matches it."""
    import hashlib
    with open(os.path.join(folder, "package-lock.json"), "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(folder, "node_modules", ".lock-sha256")
    try:
        with open(stamp) as f:
            if f.read().strip() == want:
                return 0
    except OSError:
        pass
    cmd = ["npm", "ci", "--no-audit", "--no-fund", "--prefix", folder]
    if out is not None:
        rc = run_quiet(cmd, out)
    else:
        run(cmd)
        rc = LAST_RC[0]
    if rc:
        return 1
    with open(stamp, "w") as f:
        f.write(want)
    return 0


LAST_RC = [0]


def run(cmd, env=None, timeout=None):
    print("$", " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd), flush=True)
    # its own process group, so a timeout also ends what it started
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         env=env, start_new_session=timeout is not None)
    try:
        out = p.communicate(timeout=timeout)[0]
        LAST_RC[0] = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out = p.communicate()[0] + "\nTIMEOUT after %d s\n" % timeout
        LAST_RC[0] = -1
    sys.stdout.write(out)
    sys.stdout.flush()
    return out


def main(argv):
    start = time.time()
    results = []
    emu = None
    if os.environ.get("EMU", "1") != "0":
        emu_out = []
        emu_result = []
        emu = threading.Thread(target=lambda: emu_result.append(stage_emulator(emu_out)))
        emu.start()
    results.append(("pytest", stage_pytest(argv)))
    results.append(("micropython", stage_micropython()))
    results.append(("heap budget", stage_heap_budget()))
    results.append(("mpy-cross", stage_mpy_cross()))
    if os.path.exists(os.path.join(ROOT, "tools", "typecheck")):
        results.append(("pyright", stage_typecheck()))
    if emu is not None:
        emu.join()
        sys.stdout.write("".join(emu_out))
        results.append(("emulator", emu_result[0] if emu_result else (0, 1)))
    else:
        print("emulator: not run (EMU=0)")
    print()
    for name, (p, f) in results:
        print("  %-12s %6d passed, %d failed" % (name, p, f))
    total_p = sum(p for _, (p, f) in results)
    total_f = sum(f for _, (p, f) in results)
    print("suite took %.0f s" % (time.time() - start))
    print("total: %d passed, %d failed" % (total_p, total_f))
    return 1 if total_f or not total_p else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
