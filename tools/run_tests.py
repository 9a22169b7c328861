"""tools/test: the whole suite, or the stages named.

    tools/test [STAGE ...] [-k EXPR] [-- PYTEST_ARGS ...]

Stages, in order: pytest (CPython, tests_host/), micropython (the suites of
tests_host/mp_suites.txt on the MicroPython unix port), heap (informative:
the .mpy firmware's heap on the unix port, printed, not gated), mpy-cross
(every file that ships compiles for the board), pyright (tools/typecheck),
emulator (the rp2 release image in an emulated Pico, tests_emu/: node,
its files one a core). No STAGE: all of them (EMU=0 leaves the emulator
out). `-k EXPR` and everything after `--` go to pytest.

Two lanes share the machine: the emulator (when named) starts on the side
lane and pytest, spread over the cores by pytest-xdist, on the main lane;
each lane then takes the next stage left. The main lane's output passes
straight through; the side lane's lines are prefixed with its stage's name.

A stage fails when a command it runs exits non-zero or when it runs no
tests: the verdict comes from exit statuses and from the counts pytest and
node write as JUnit XML, never from reading their text. Each stage's output
streams as it runs; the emulator's are also kept in
build/test-logs/emulator.log. Every stage prints its wall time.
BUBBLECRAPS_TESTS_HOST (the runner's own tests) points the pytest and
micropython stages at another folder of suites.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET

import mpyc
import sharedpath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, ".venv", "bin")
SHIPPED = ("firmware", "hal", "boot.py", "main.py")
STAGES = ("pytest", "micropython", "heap", "mpy-cross", "pyright", "emulator")
EMU_LOG = os.path.join("build", "test-logs", "emulator.log")
# The unix port's heap figures are informative (the guarded memory figure is
# the release image's, on the emulated Pico): sessions in a roomy heap, so
# the stage fails only when the bench itself does (a crash, a wrong SAS answer).
# the SAS session untimed: the 20 ms answer budget is the bench's
# (tools/bench firmware --sas), a loaded test machine must not fail the heap
HEAP_SESSIONS = ((), ("--sas-plain",))
HEAP_ROLLS = 200
HEAP_SIZE = "384K"
HEAP_TIMEOUT_S = 900


class Result:
    def __init__(self, name):
        self.name = name
        self.passed = self.failed = 0
        self.problems = []      # why the stage failed besides failed tests
        self.skipped = None     # the line saying why the stage did not run
        self.seconds = 0.0

    def ok(self):
        return self.skipped is not None or (not self.failed and not self.problems and self.passed)

    def verdict(self):
        if self.skipped is not None:
            return "SKIPPED"
        if self.ok():
            return "ok"
        why = list(self.problems)
        if not self.passed and not self.failed:
            why.append("no tests ran")
        return "FAILED (%s)" % "; ".join(why) if why else "FAILED"


class Out:
    """One stdout for two lanes: the main lane's bytes pass straight through,
    the side lane's whole lines go in with their stage's prefix, on a line of
    their own."""

    def __init__(self):
        self.lock = threading.Lock()
        self.at_line_start = True
        self.stream = sys.stdout.buffer
        self.lane = threading.local()  # .prefix: set on the side lane

    def side_lane(self, prefix):
        self.lane.prefix = prefix

    def passes_through(self):
        return getattr(self.lane, "prefix", None) is None

    def stage(self, data):
        """A stage's output, as its lane shows it."""
        if self.passes_through():
            self.raw(data)
        else:
            self.prefixed(self.lane.prefix + data)

    def raw(self, data):
        with self.lock:
            self.stream.write(data)
            self.stream.flush()
            self.at_line_start = data.endswith(b"\n")

    def line(self, text):
        self.prefixed((text + "\n").encode())

    def prefixed(self, data):
        with self.lock:
            if not self.at_line_start:
                self.stream.write(b"\n")
            self.stream.write(data if data.endswith(b"\n") else data + b"\n")
            self.stream.flush()
            self.at_line_start = True


OUT = Out()


def show(cmd):
    return " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c for c in cmd)


def run(cmd, sink=None, env=None, timeout=None):
    """Runs `cmd` in the clone, streaming its output to stdout (or to
    `sink(bytes)`); returns its exit status (-9 after a timeout)."""
    sink = sink or OUT.stage
    sink(("$ %s\n" % show(cmd)).encode())
    # its own process group, so a timeout also ends what it started
    p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                         start_new_session=True)
    timer = None
    if timeout:
        timer = threading.Timer(timeout, lambda: os.killpg(p.pid, signal.SIGKILL))
        timer.start()
    try:
        if sink == OUT.stage and OUT.passes_through():  # pytest's dots as they come
            for chunk in iter(lambda: os.read(p.stdout.fileno(), 4096), b""):
                OUT.raw(chunk)
        else:
            for line in p.stdout:
                sink(line)
        rc = p.wait()
    finally:
        if timer:
            timer.cancel()
    if timeout and rc == -signal.SIGKILL:
        sink(("TIMEOUT after %d s: %s\n" % (timeout, show(cmd))).encode())
    return rc


def junit_counts(path):
    """(passed, failed, skipped) of a JUnit XML report; (0, 0, 0) if there is none."""
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError):
        return 0, 0, 0
    passed = failed = skipped = 0
    for case in tree.iter("testcase"):
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            failed += 1
        elif "skipped" in kinds:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def tests_host():
    return os.environ.get("BUBBLECRAPS_TESTS_HOST") or os.path.join(ROOT, "tests_host")


def stage_pytest(res, logs, pytest_args):
    report = os.path.join(logs, "pytest.xml")
    # -n auto: one worker a core (pytest-xdist); `-- -n 0` runs it in one process
    rc = run([os.path.join(BIN, "pytest"), "-q", "-p", "no:cacheprovider", "-n", "auto",
              "--dist", "worksteal", tests_host(), "--junitxml=" + report] + pytest_args)
    res.passed, res.failed, _ = junit_counts(report)
    if rc:
        res.problems.append("pytest exit %d" % rc)


def stage_micropython(res, logs, _):
    folder = tests_host()
    with open(os.path.join(folder, "mp_suites.txt")) as f:
        suites = [l.split() for l in f if l.strip() and not l.startswith("#")]
    for heap, *modules in suites:
        lines = []

        def keep(data):
            OUT.stage(data)
            lines.append(data)
        rc = run([os.path.join(BIN, "micropython"), "-X", "heapsize=" + heap,
                  os.path.join(folder, "mp_runner.py")] + modules, sink=keep)
        # mp_runner exits non-zero on a failure or on no tests; its count line feeds the total
        passed, failed = _mp_counts(b"".join(lines))
        res.passed += passed
        res.failed += failed
        if rc:
            res.problems.append("%s exit %d" % (" ".join(modules), rc))


def _mp_counts(output):
    for line in reversed(output.decode(errors="replace").splitlines()):
        words = line.split()
        if words[:1] == ["micropython:"] and len(words) == 5:
            return int(words[1]), int(words[3])
    return 0, 0


def stage_heap(res, logs, _):
    for extra in HEAP_SESSIONS:
        rc = run([os.path.join(BIN, "python"), "tools/bench_firmware.py", "--rolls", str(HEAP_ROLLS),
                  "--heap", HEAP_SIZE] + list(extra), timeout=HEAP_TIMEOUT_S)
        if rc:
            res.failed += 1
            res.problems.append("bench_firmware %s exit %d" % (" ".join(extra) or "(no SAS)", rc))
        else:
            res.passed += 1
    OUT.line("heap: the figures above are informative (64-bit unix port, .mpy); the guarded"
             " memory figure is the release image's on the emulated Pico (docs/TESTING.md)")


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


def stage_mpy_cross(res, logs, _):
    for rel in shipped_files():
        r = subprocess.run(mpyc.command(ROOT, rel, os.devnull), cwd=ROOT, capture_output=True,
                           text=True)
        if r.returncode:
            res.failed += 1
            OUT.line("mpy-cross rejects %s: %s" % (rel, r.stdout + r.stderr))
        else:
            res.passed += 1
    OUT.line("mpy-cross: %d files compiled, %d rejected" % (res.passed, res.failed))


def stage_pyright(res, logs, _):
    rc = run([os.path.join(ROOT, "tools", "typecheck")])
    if rc:
        res.failed = 1
        res.problems.append("typecheck exit %d" % rc)
    else:
        res.passed = 1


def stage_emulator(res, logs, _):
    """The cabinet's UF2 built (cached) and booted in rp2040js: tests_emu/*.test.mjs.
    Skipped with one line saying what is missing and how to get it."""
    import build_firmware
    log_path = os.path.join(ROOT, EMU_LOG)
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with open(log_path, "wb") as log:
        def sink(data):
            log.write(data)
            log.flush()
            OUT.stage(data)
        OUT.line("emulator: output also in %s" % EMU_LOG)
        skip = emulator_missing(build_firmware)
        if skip:
            res.skipped = skip
            sink((skip + "\n").encode())
            return
        if run([os.path.join(ROOT, "tools", "build-firmware"), "rp2", "--quiet"], sink=sink):
            res.problems.append("build-firmware failed")
            return
        emu = os.path.join(ROOT, "tests_emu")
        if npm_ci(emu, sink):
            res.problems.append("npm ci failed")
            return
        report = os.path.join(logs, "emulator.xml")
        env = dict(os.environ, CABINET_UF2=os.path.join(ROOT, "build", "rp2", "cabinet-rp2-frozen.uf2"))
        tests = sorted(os.path.join("tests_emu", f) for f in os.listdir(emu) if f.endswith(".test.mjs"))
        # a file a core: the files are independent boards, and the stage is the run's longest
        rc = run(["node", "--test", "--test-concurrency=%d" % (os.cpu_count() or 1),
                  "--test-reporter=spec", "--test-reporter-destination=stdout",
                  "--test-reporter=junit", "--test-reporter-destination=" + report] + tests,
                 sink=sink, env=env)
        res.passed, res.failed, skipped = junit_counts(report)
        if skipped:  # only missing() skips them, and this stage checked what they need
            res.problems.append("%d tests skipped although shared/rp2-emu is there" % skipped)
        if rc:
            res.problems.append("node --test exit %d" % rc)


def emulator_missing(build_firmware):
    """The SKIPPED line when the emulator stage cannot run here, else None."""
    if build_firmware.find_tarball() is None or sharedpath.rp2_emu(sharedpath.BOOTROM) is None:
        return "emulator: SKIPPED - " + sharedpath.missing_note()
    if not (shutil.which("node") and shutil.which("npm")):
        return ("emulator: SKIPPED - node and npm not found: install Node.js 18 or newer"
                " (Debian: apt-get install nodejs npm)")
    missing = build_firmware.missing_packages()
    if missing and not build_firmware.can_install():
        return "emulator: SKIPPED - the rp2 image needs " + build_firmware.install_advice(missing)
    return None


def npm_ci(folder, sink=None):
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
    if run(["npm", "ci", "--no-audit", "--no-fund", "--prefix", folder], sink=sink):
        return 1
    with open(stamp, "w") as f:
        f.write(want)
    return 0


RUNNERS = {"pytest": stage_pytest, "micropython": stage_micropython, "heap": stage_heap,
           "mpy-cross": stage_mpy_cross, "pyright": stage_pyright, "emulator": stage_emulator}


def timed(name, logs, pytest_args):
    res = Result(name)
    start = time.time()
    try:
        RUNNERS[name](res, logs, pytest_args)
    except Exception as exc:  # a stage that cannot run has failed, and says why
        res.problems.append("%s: %s" % (type(exc).__name__, exc))
    res.seconds = time.time() - start
    if res.skipped is None:
        OUT.line("== %s: %d passed, %d failed, %.0f s: %s" % (
            name, res.passed, res.failed, res.seconds, res.verdict()))
    return res


def parse_args(argv):
    """(stages, pytest args) or SystemExit(2) with what is wrong."""
    stages, pytest_args = [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            pytest_args += argv[i + 1:]
            break
        if a == "-k" and i + 1 < len(argv):
            pytest_args += ["-k", argv[i + 1]]
            i += 2
            continue
        if a in STAGES and a not in stages:
            stages.append(a)
        else:
            raise SystemExit("tools/test: unknown option or stage %r (stages: %s; -k EXPR and "
                             "-- ARGS go to pytest; tools/test --help)" % (a, ", ".join(STAGES)))
        i += 1
    if pytest_args and stages and "pytest" not in stages:
        raise SystemExit("tools/test: -k and -- ARGS are pytest's: name the pytest stage too")
    if not stages:
        stages = [s for s in STAGES if s != "emulator" or os.environ.get("EMU", "1") != "0"]
    return [s for s in STAGES if s in stages], pytest_args


def main(argv):
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return 0
    try:
        stages, pytest_args = parse_args(argv)
    except SystemExit as e:
        print(e, file=sys.stderr)
        return 2
    start = time.time()
    logs = tempfile.mkdtemp(prefix="tools-test-")
    results = {}
    left = [name for name in stages if name != "emulator"]
    taking = threading.Lock()

    def lane(first=None):
        if first:
            results[first] = timed(first, logs, pytest_args)
        while True:
            with taking:
                if not left:
                    return
                name = left.pop(0)
            if not OUT.passes_through():
                OUT.side_lane(("[%s] " % name).encode())
            results[name] = timed(name, logs, pytest_args)

    def side_lane():
        OUT.side_lane(b"[emulator] ")
        lane("emulator" if "emulator" in stages else None)

    first = left.pop(0) if left else None  # pytest, the longest, streams on the main lane
    side = threading.Thread(target=side_lane)
    side.start()
    try:
        lane(first)
        side.join()
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    if "emulator" not in stages and not argv:
        print("emulator: not run (EMU=0)")
    print()
    for name in stages:
        r = results.get(name) or Result(name)
        print("  %-12s %6d passed, %d failed  %5.0f s  %s" % (name, r.passed, r.failed, r.seconds,
                                                            r.skipped or r.verdict()))
    total_p = sum(r.passed for r in results.values())
    total_f = sum(r.failed + (0 if r.ok() or r.failed else 1) for r in results.values())
    print("suite took %.0f s" % (time.time() - start))
    print("total: %d passed, %d failed" % (total_p, total_f))
    return 0 if all((results.get(n) or Result(n)).ok() for n in stages) and total_p else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
