"""The MicroPython side of tools/bench_firmware.py: the headless session.

tools/bench_firmware.py compiles this file with mpy-cross beside the firmware
and runs it on the unix port (`micropython -X heapsize=HEAP -m bench_session
ROLLS FLASH SAS [FRAMES LOG]` in the .mpy directory), so the heap figures are the
firmware's plus this small driver's, not the bench tool's whole source
compiled on the port. With --sas / --sas-plain the cabinet's SAS port is
tools/bench_sas_line.py (--sas: tools/bench_sas_timed.py); the casino system's side, which polls it and checks
its answers, is CPython's (tools/bench_sas_host.py), not in this heap.
"""
import sys


class FileFlash:
    """NOR behaviour (erase to 0xFF, programming clears bits) over a file,
    extended block-device protocol; nothing of the image is kept in RAM."""

    def __init__(self, path, size):
        self.size = size
        self.f = open(path, "w+b")     # blank: every sector is written erased below
        # one 256-byte page for everything (read-modify-write, and 0xFF
        # written 16 times a sector to erase): the bench's heap, not the firmware's
        self._tmp = bytearray(256)
        for i in range(size // 4096):
            self.ioctl(6, i)
        self.f.flush()

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
            old = tmp if k == 256 else memoryview(tmp)[:k]
            self.f.readinto(old)
            for i in range(k):
                old[i] &= mv[pos + i]
            self.f.seek(addr + pos)
            self.f.write(old)
            pos += k

    def ioctl(self, op, arg):
        if op == 4:
            return self.size // 4096
        if op == 5:
            return 4096
        if op == 6:
            blank = self._tmp
            for i in range(256):
                blank[i] = 0xFF
            self.f.seek(arg * 4096)
            for _ in range(16):
                self.f.write(blank)
            return 0
        return 0



def cpu_ms():
    """This process's time on a CPU so far (Linux /proc/self/schedstat, field
    1, ns), -1 where unknown: a heap too small makes the collector run at
    nearly every allocation, which shows here and not in the wall clock of a
    machine other processes keep busy."""
    try:
        with open("/proc/self/schedstat") as f:
            return int(f.read().split()[0]) // 1000000
    except (OSError, ValueError, IndexError):
        return -1


def main(rolls, path, sas=0):
    import gc
    import time
    import micropython
    from hal.mock.board import Board
    from hal import buttons as B
    from firmware.cabinet.controller import Controller

    gc.collect()
    base = gc.mem_alloc()
    board = Board(seed=1234, fake_clock=True, flash=False)
    board.flash = FileFlash(path, 262144)
    line = None
    own_bytes = 0
    if sas:
        # the cabinet's SAS port; the host is the CPython bench (tools/bench_sas_host.py)
        if sas == 1:
            import bench_sas_timed as S
        else:
            import bench_sas_line as S
        gc.collect()
        m0 = gc.mem_alloc()
        line = board.sas = S.Line(sys.argv[4], sys.argv[5])
        gc.collect()
        own_bytes = gc.mem_alloc() - m0
    ctl = Controller(board)
    if line is not None:
        gc.collect()
        m0 = gc.mem_alloc()
        line.start(ctl)
        gc.collect()
        own_bytes += gc.mem_alloc() - m0
        print("bench SAS line: %d B of heap (taken out of the figures below)" % own_bytes)
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
            if line is not None:
                line.host(passes)
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
            micropython.qstr_info()     # the interned names at roll 100 (one line, no heap)
        n += 1
    t_total = time.ticks_diff(time.ticks_us(), t_start)
    gc.collect()
    heap_end = gc.mem_alloc() - own_bytes
    # and at the end: past 1,260 names (n_qstr) the port allocates a 7th pool of ~15 KB
    micropython.qstr_info()
    cpu = cpu_ms()
    # the figures are taken: the report's code loads only now
    # (tools/bench_report.py), in the room of the session's game recall,
    # which nothing after this reads (a heap at the session's smallest has
    # no room for it else)
    ctl.store.ledger.recall = type(ctl.store.ledger.recall)()
    gc.collect()
    import bench_report
    bench_report.report(ctl, board, line, sas, passes, fake_ms, t_total, cpu, base,
                        after_boot, high[0], heap100, heap_end)


main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
