"""Flash wear and start-up cost of the journal vs a littlefs state file.

CPython:     .venv/bin/python tools/bench_journal.py [--rolls 20000] [--lfs-rolls 2000]
MicroPython: .venv/bin/micropython -X heapsize=4M tools/bench_journal.py --mount-only
(the CPython run also launches the MicroPython mount timing itself if it finds
.venv/bin/micropython).

The workload is pluggable: workload(rng) yields, per roll, a list of record
payloads; state_fn(roll) returns the full state bytes (snapshot / file content).
"""
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tools/cpython_shims")

from hal.mock.norflash import NorFlash  # noqa: E402
from firmware.store import journal as J  # noqa: E402

SEC = 4096
REGION = 64 * SEC  # 256 KiB
MP = sys.implementation.name == "micropython"


class Rng:
    def __init__(self, seed):
        self.s = seed or 1

    def randint(self, a, b):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return a + s % (b - a + 1)


def synthetic_workload(rng):
    """Per roll: ~6 records of 20-40 bytes (bets, roll, settlement, meters)."""
    roll = 0
    while True:
        roll += 1
        recs = []
        for k in range(rng.randint(5, 7)):
            n = rng.randint(20, 40)
            b = bytearray(n)
            b[0] = k
            b[1] = roll & 0xFF
            for i in range(2, n):
                b[i] = (roll + i * 31) & 0xFF
            recs.append(bytes(b))
        yield recs


def synthetic_state(roll, size=8192):
    """~8 KB of JSON-like state text."""
    head = ('{"roll":%d,"credits":%d,"meters":[' % (roll, roll * 5 % 100000)).encode()
    out = bytearray(head)
    i = 0
    while len(out) < size - 2:
        out += b"%010d," % ((roll * 7919 + i) % 10000000000)
        i += 1
    out = out[:size - 2] + b"]}"
    return bytes(out)


def run_journal(rolls, workload=synthetic_workload, state_fn=synthetic_state, seed=1):
    f = NorFlash(REGION)
    j = J.Journal(f)
    j.mount()
    gen = workload(Rng(seed))
    snaps = 0
    for roll in range(1, rolls + 1):
        for p in next(gen):
            j.append(p)
        if j.should_snapshot():
            j.write_snapshot(state_fn(roll))
            snaps += 1
        while j.erase_pending():  # idle, money inputs inhibited
            j.erase_step()
    return f, j, snaps


def run_littlefs(rolls, workload=synthetic_workload, state_fn=synthetic_state, seed=1):
    from littlefs import LittleFS, UserContext

    f = NorFlash(REGION)

    class NorContext(UserContext):
        def __init__(self):
            self.buffer = None

        def read(self, cfg, block, off, size):
            buf = bytearray(size)
            f.readblocks(block, buf, off)
            return buf

        def prog(self, cfg, block, off, data):
            f.writeblocks(block, bytearray(data), off)
            return 0

        def erase(self, cfg, block):
            f.ioctl(6, block)
            return 0

        def sync(self, cfg):
            return 0

    fs = LittleFS(NorContext(), block_size=SEC, block_count=REGION // SEC, prog_size=256,
                  read_size=256, block_cycles=100, mount=False)
    fs.format()
    fs.mount()
    f.reset_counters()
    gen = workload(Rng(seed))
    for roll in range(1, rolls + 1):
        next(gen)
        with fs.open("state.json", "wb") as fh:  # rewrite the file every roll
            fh.write(state_fn(roll))
    return f


def fill_for_mount(workload=synthetic_workload, state_fn=synthetic_state):
    """A journal with the longest log it allows (just before a snapshot)."""
    f = NorFlash(REGION)
    j = J.Journal(f)
    j.mount()
    j.write_snapshot(state_fn(0))
    gen = workload(Rng(5))
    recs = 0
    while not j.should_snapshot():
        for p in next(gen):
            j.append(p)
            recs += 1
    return f, recs


def time_mount(f):
    import time

    f.reset_counters()
    if MP:
        t0 = time.ticks_us()
    else:
        t0 = time.perf_counter()
    j = J.Journal(f)
    st = j.mount()
    snap = j.snapshot()
    n = [0]

    def fn(p):
        n[0] += 1

    j.replay(fn)
    if MP:
        dt = time.ticks_diff(time.ticks_us(), t0) / 1000
    else:
        dt = (time.perf_counter() - t0) * 1000
    return st, len(snap), n[0], f.bytes_read, dt


def mount_report():
    f, recs = fill_for_mount()
    st, slen, n, nread, ms = time_mount(f)
    print("%s: mount+snapshot+replay of %d records (snapshot %d B): status %d, %d bytes read, %d ms"
          % (sys.implementation.name, n, slen, st, nread, ms))


def main(argv):
    rolls = 20000
    lfs_rolls = 2000
    if "--rolls" in argv:
        rolls = int(argv[argv.index("--rolls") + 1])
    if "--lfs-rolls" in argv:
        lfs_rolls = int(argv[argv.index("--lfs-rolls") + 1])
    if "--mount-only" in argv:
        mount_report()
        return
    f, j, snaps = run_journal(rolls)
    ec = f.erase_counts
    jer = f.erases / rolls
    print("journal, %d rolls on %d KiB (%d sectors), %d snapshots of %d B:"
          % (rolls, REGION // 1024, REGION // SEC, snaps, len(synthetic_state(1))))
    print("  programmed %.0f B/roll (%.1f page programs/roll), erases %.4f/roll, "
          "sector erase counts min %d max %d, sync erases %d"
          % (f.bytes_programmed / rolls, f.programs / rolls, jer, min(ec), max(ec), j.sync_erases))
    g = run_littlefs(lfs_rolls)
    ler = g.erases / lfs_rolls
    print("littlefs file rewrite (8 KB state per roll), %d rolls on the same model:" % lfs_rolls)
    print("  programmed %.0f B/roll, erases %.3f/roll, worst sector %d erases"
          % (g.bytes_programmed / lfs_rolls, ler, max(g.erase_counts)))
    print("erases per roll: journal %.4f, littlefs file %.3f, %.1fx fewer" % (jer, ler, ler / jer))
    secs_per_roll = 10
    nsec = REGION // SEC
    for name, worst_rate in (("journal", max(ec) / rolls), ("littlefs", max(g.erase_counts) / lfs_rolls)):
        life_rolls = 100000 / worst_rate
        years = life_rolls * secs_per_roll / (365.25 * 86400)
        print("projected life (%s, worst sector, 100k cycles, 1 roll/10 s, %d sectors): %.1f years"
              % (name, nsec, years))
    mount_report()
    import os
    import subprocess

    mp = os.path.join(".venv", "bin", "micropython")
    if os.path.exists(mp):
        out = subprocess.run([mp, "-X", "heapsize=4M", "tools/bench_journal.py", "--mount-only"],
                             capture_output=True, text=True)
        print(out.stdout.strip() or out.stderr.strip())


main(sys.argv[1:])
