"""Flash wear and start-up cost of the journal vs a littlefs state file.

CPython:     .venv/bin/python tools/bench_journal.py [--rolls 20000] [--lfs-rolls 2000]
MicroPython: .venv/bin/micropython -X heapsize=4M tools/bench_journal.py --mount-only
(the CPython run also launches the MicroPython mount timing itself if it finds
.venv/bin/micropython).

The workload is pluggable: workload(rng) yields, per roll, a list of record
payloads; state_fn(roll) returns the full state bytes (snapshot / file content).
By default it is the real cabinet: the records the store commits for the
scripted session of tests_host/session.py (every wager kind, money in and
out, re-rolls, voids) and the ledger's own snapshot as the state, which is
also the file the littlefs user rewrites each roll. --synthetic uses ~6
records of 20-40 bytes and an 8 KB state instead. --sectors N sets the
region (default 64 sectors = 256 KiB, the region the boards reserve).
"""
import sys

sys.path.insert(0, ".")
sys.path.insert(0, "tools/cpython_shims")

from hal.mock.norflash import NorFlash  # noqa: E402
from firmware.store.store import new_journal  # noqa: E402

SEC = 4096
REGION = 64 * SEC  # 256 KiB, the region the boards reserve
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


class Cabinet:
    """The real workload: a ledger driven by the scripted session; yields the
    record payloads of each roll and gives the ledger snapshot as state."""

    def __init__(self, rolls, seed=1):
        sys.path.insert(0, "tests_host")
        import session
        from firmware.store import store as S

        self.session = session
        self.rolls = rolls

        class Recorder:  # stands in for the journal: keeps what would be appended
            def __init__(self, dev=None):
                self.out = []
                self.worn_log = []  # Store.commit logs what the journal found worn

            def append(self, p):
                self.out.append(bytes(p))

            def should_snapshot(self):
                return False

            def make_room(self, state):
                pass  # never asks for a snapshot (should_snapshot)

        class Unjournaled(S.Store):
            def __init__(self):
                S.Store.__init__(self, None)  # every attribute a Store has, no device
                self.journal = Recorder()

        self.store = Unjournaled()
        self.seed = seed

    def workload(self, rng):
        st = self.store
        steps = self.session.iter_steps(self.rolls, self.seed)
        while True:
            for name, args in steps:
                getattr(st, name)(*args)
                if name in ("roll", "void"):
                    break
            else:
                raise RuntimeError("session over: ask Cabinet for more rolls")
            out = st.journal.out
            st.journal.out = []
            yield out

    def state(self, roll):
        return self.store.ledger.encode()


def run_journal(rolls, workload=synthetic_workload, state_fn=synthetic_state, seed=1):
    f = NorFlash(REGION)
    j = new_journal(f)
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
    """A journal with the longest log the store lets it hold: records after a
    snapshot up to the commit that would write the next one (Journal.make_room:
    once one is due, each commit first erases a sector pair ahead; no idle
    erases in between)."""
    f = NorFlash(REGION)
    j = new_journal(f)
    j.mount()
    gen = workload(Rng(5))
    for _ in range(150):  # a full game recall in the snapshot
        next(gen)
    j.write_snapshot(state_fn(0))
    recs = 0
    while True:
        for p in next(gen):
            if j.should_snapshot():
                if not j.erase_pending() or j.must_snapshot():
                    return f, recs
                j.erase_step()
            j.append(p)
            recs += 1


def time_mount(f):
    import time

    f.reset_counters()
    if MP:
        t0 = time.ticks_us()
    else:
        t0 = time.perf_counter()
    j = new_journal(f)
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


def time_boot(f):
    """The whole start-up: mount, snapshot load and replay through the ledger."""
    import time
    from firmware.store.store import Store

    f.reset_counters()
    t0 = time.ticks_us() if MP else time.perf_counter()
    st = Store(f)
    status = st.boot(0)
    if MP:
        dt = time.ticks_diff(time.ticks_us(), t0) / 1000
    else:
        dt = (time.perf_counter() - t0) * 1000
    assert st.ledger.balance_check() == 0
    return status, f.bytes_read, dt


def mount_report(synthetic=False):
    if synthetic:
        f, recs = fill_for_mount()
    else:
        cab = Cabinet(100000)
        f, recs = fill_for_mount(cab.workload, cab.state)
    st, slen, n, nread, ms = time_mount(f)
    print("%s: journal mount+snapshot+replay of %d records (snapshot %d B): status %d, %d bytes read, %d ms"
          % (sys.implementation.name, n, slen, st, nread, ms))
    if not synthetic:
        st, nread, ms = time_boot(f)
        print("%s: store boot (the same + ledger load + every record applied): status %d, "
              "%d bytes read, %d ms" % (sys.implementation.name, st, nread, ms))


def main(argv):
    global REGION
    rolls = 20000
    lfs_rolls = 2000
    if "--sectors" in argv:
        REGION = int(argv[argv.index("--sectors") + 1]) * SEC
    if "--rolls" in argv:
        rolls = int(argv[argv.index("--rolls") + 1])
    if "--lfs-rolls" in argv:
        lfs_rolls = int(argv[argv.index("--lfs-rolls") + 1])
    if "--mount-only" in argv:
        mount_report("--synthetic" in argv)
        return
    if "--synthetic" in argv:
        work, state, wl, st = synthetic_workload, synthetic_state, synthetic_workload, synthetic_state
        what = "synthetic records"
    else:
        cab = Cabinet(rolls + 10)
        work, state = cab.workload, cab.state
        lcab = Cabinet(lfs_rolls + 10)
        wl, st = lcab.workload, lcab.state
        what = "cabinet session records"
    f, j, snaps = run_journal(rolls, work, state)
    ec = f.erase_counts
    jer = f.erases / rolls
    print("journal, %d rolls of %s on %d KiB (%d sectors), %d snapshots of %d B:"
          % (rolls, what, REGION // 1024, REGION // SEC, snaps, len(state(rolls))))
    print("  programmed %.0f B/roll (%.1f page programs/roll), erases %.4f/roll, "
          "sector erase counts min %d max %d, sync erases %d"
          % (f.bytes_programmed / rolls, f.programs / rolls, jer, min(ec), max(ec), j.sync_erases))
    g = run_littlefs(lfs_rolls, wl, st)
    ler = g.erases / lfs_rolls
    print("littlefs file rewrite (the same state, %d B, every roll), %d rolls on the same model:"
          % (len(st(lfs_rolls)), lfs_rolls))
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
    mount_report("--synthetic" in argv)
    import os
    import subprocess

    mp = os.path.join(".venv", "bin", "micropython")
    if os.path.exists(mp):
        out = subprocess.run([mp, "-X", "heapsize=4M", "tools/bench_journal.py", "--mount-only"]
                             + (["--synthetic"] if "--synthetic" in argv else []),
                             capture_output=True, text=True)
        print(out.stdout.strip() or out.stderr.strip())


if __name__ == "__main__":  # tools/bench_firmware.py --rp2 imports fill_for_mount
    main(sys.argv[1:])
