"""Rules-engine benchmark: rolls per second settling a full layout.

Every wager kind the profile offers is on the table (tests_host/full_layout);
before each roll whatever settled is put back from a pre-built list, so the
table stays full. Figures:
  * rolls/s including the re-placing, and rolls/s counting the time inside
    Table.roll() only;
  * on the MicroPython unix port (engine compiled with mpy-cross, loaded as
    .mpy): the same, plus micropython.mem_peak() under -X heapsize=96K with a
    full layout, and heap growth over 10,000 rolls (mem_current() after
    gc.collect() at roll 1,000 against roll 10,000).

Run on CPython:  .venv/bin/python tools/bench_engine.py [--rolls N] [PROFILE ...]
It runs the CPython part, compiles the engine to a temp dir, then runs this
same file under `.venv/bin/micropython -X heapsize=96K` (the MicroPython part,
`--mp DIR PROFILE`) once per profile, and prints one table.
"""
import sys

MP = sys.implementation.name == "micropython"
PROFILES = ("table", "etg", "casino", "house")


class Rng:
    """xorshift32: same dice on both ports."""

    def __init__(self, seed=2463534242):
        self.s = seed

    def die(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x % 6 + 1


def run(name, rolls, clock, diff, per_s, mem=None):
    """The benchmark loop. clock() -> ticks, diff(a, b) -> elapsed ticks,
    per_s = ticks per second. mem(), if given, returns the heap in use after a
    collection; sampled just after the refill of roll 1,000 and of the last."""
    import full_layout as F
    t, pl = F.build(name)
    kinds = len(F.kinds_on(t))
    bets_full = len(t.bets)
    rng = Rng()
    n_lists = len(pl)
    in_roll = 0
    settled = 0
    mem_1000 = mem_end = None
    start = clock()
    for i in range(rolls):
        F.fill(t, pl[i % n_lists])
        # Sampled with the layout just refilled, so both samples hold the
        # same bets and any difference is growth.
        if mem is not None and i + 1 == 1000:
            mem_1000 = mem()
        if mem is not None and i + 1 == rolls:
            mem_end = mem()
        d1 = rng.die()
        d2 = rng.die()
        a = clock()
        t.roll(d1, d2)
        in_roll += diff(clock(), a)
        settled += len(t.settled)
    total = diff(clock(), start)
    return {
        "profile": name, "rolls": rolls, "kinds": kinds, "bets_full": bets_full,
        "bets_end": len(t.bets), "settled_per_roll": settled / rolls,
        "rolls_per_s": rolls * per_s / total if total else 0,
        "roll_only_per_s": rolls * per_s / in_roll if in_roll else 0,
        "mem_1000": mem_1000, "mem_end": mem_end,
    }


# ---- MicroPython part --------------------------------------------------------------
def mp_main(argv):
    import gc
    import time
    import micropython
    libdir, name = argv[0], argv[1]
    rolls = int(argv[2]) if len(argv) > 2 else 10000
    sys.path.insert(0, ".")
    sys.path.insert(0, "tests_host")
    sys.path.insert(0, libdir)          # the .mpy engine wins over the sources
    gc.collect()
    base = gc.mem_alloc()
    import full_layout as F
    from firmware.rules import table as T
    gc.collect()
    after_import = gc.mem_alloc()
    t, pl = F.build(name)
    gc.collect()
    full = gc.mem_alloc()
    del t, pl
    gc.collect()

    # mem_current()/mem_peak() on the unix port count m_malloc/m_free only:
    # blocks the GC sweeps are never subtracted, so they measure allocation
    # volume, not live heap. Live heap is gc.mem_alloc() after a collection.
    def mem():
        gc.collect()
        return gc.mem_alloc()

    r = run(name, rolls, time.ticks_us, time.ticks_diff, 1000000, mem)
    r["engine_mpy"] = T.__file__.endswith(".mpy") if hasattr(T, "__file__") else "?"
    r["mem_base"] = base
    r["mem_import"] = after_import - base
    r["mem_layout"] = full - after_import
    r["mem_peak"] = micropython.mem_peak()
    r["mem_current"] = micropython.mem_current()
    r["heap_total"] = gc.mem_alloc() + gc.mem_free()
    print("RESULT", repr(r))


# ---- CPython driver -----------------------------------------------------------------
def _host(argv):
    import argparse
    import ast
    import os
    import shutil
    import subprocess
    import tempfile
    import time
    import mpyc

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for p in (root, os.path.join(root, "tools", "cpython_shims"),
              os.path.join(root, "tests_host"), os.path.join(root, "tools")):
        if p not in sys.path:
            sys.path.insert(0, p)
    ap = argparse.ArgumentParser(description="rules-engine benchmark")
    ap.add_argument("--rolls", type=int, default=10000)
    ap.add_argument("--heap", default="96K")
    ap.add_argument("--min-heap", action="store_true",
                    help="also search the smallest heapsize (KiB) that runs 1,500 rolls")
    ap.add_argument("--vs", choices=("crapssim",),
                    help="only the same small workload on this engine and on crapssim"
                         " (100,000 rolls unless --rolls)")
    ap.add_argument("profiles", nargs="*", default=list(PROFILES))
    args = ap.parse_args(argv)
    if args.vs:
        import bench_vs
        return bench_vs.main(args.rolls if "--rolls" in " ".join(argv) else 100000)
    mp = os.path.join(root, ".venv", "bin", "micropython")

    print("Rules engine benchmark: full layout, %d rolls per profile, xorshift dice" % args.rolls)
    print("\nCPython %s (CPU time of this process)" % sys.version.split()[0])
    print("%-7s %5s %5s %8s %12s %14s" % ("profile", "kinds", "bets", "settle/r",
                                           "rolls/s", "roll() only/s"))
    for name in args.profiles:
        r = run(name, args.rolls, time.process_time, lambda a, b: a - b, 1.0)
        print("%-7s %5d %5d %8.2f %12.0f %14.0f" % (
            name, r["kinds"], r["bets_full"], r["settled_per_roll"], r["rolls_per_s"],
            r["roll_only_per_s"]))

    tmp = tempfile.mkdtemp(prefix="bench_mpy_")
    try:
        files = ["firmware/__init__.py"] + sorted(
            "firmware/rules/" + f for f in os.listdir(os.path.join(root, "firmware", "rules"))
            if f.endswith(".py"))
        for rel in files:
            out = os.path.join(tmp, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            mpyc.compile_mpy(root, rel, out)
        out = os.path.join(tmp, "full_layout.mpy")
        mpyc.compile_mpy(root, "tests_host/full_layout.py", out, "full_layout")
        print("\nMicroPython unix port, -X heapsize=%s, engine + full_layout as .mpy (mpy-cross)"
              % args.heap)
        print("%-7s %5s %9s %13s %9s %9s %8s %8s %9s %11s" % (
            "profile", "bets", "rolls/s", "roll() only/s", "mem_peak", "B/roll", "import",
            "layout", "@1000", "@%d" % args.rolls))

        def mp_run(name, heap, rolls):
            cmd = [mp, "-X", "heapsize=" + heap, os.path.abspath(__file__), "--mp", tmp,
                   name, str(rolls)]
            proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
            line = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
            if proc.returncode or not line:
                err = (proc.stdout + proc.stderr).strip().splitlines()
                return None, " | ".join(err[-3:])
            return ast.literal_eval(line[0][7:]), ""

        for name in args.profiles:
            r, err = mp_run(name, args.heap, args.rolls)
            if r is None:
                print("%-7s DOES NOT FIT in %s: %s" % (name, args.heap, err[-240:]))
                continue
            print("%-7s %5d %9.0f %13.0f %9d %9d %8d %8d %9d %11d" % (
                name, r["bets_full"], r["rolls_per_s"], r["roll_only_per_s"], r["mem_peak"],
                r["mem_peak"] // max(1, r["rolls"]), r["mem_import"], r["mem_layout"],
                r["mem_1000"], r["mem_end"]))
        print("\nmem_peak = micropython.mem_peak() at the end (on the unix port it counts every"
              " m_malloc and\nnever the GC's frees, so it is allocation volume: B/roll ="
              " bytes allocated per roll).\nimport = live heap (gc.mem_alloc after collect)"
              " held by the engine modules + full_layout;\nlayout = live heap of the full table;"
              " @N = live heap at roll N (growth = last two columns).")
        if args.min_heap:
            print("\nSmallest -X heapsize that runs a full layout for 1,500 rolls:")
            for name in args.profiles:
                lo, hi = 64, 512
                while lo < hi:
                    mid = (lo + hi) // 2
                    if mp_run(name, "%dK" % mid, 1500)[0] is None:
                        lo = mid + 1
                    else:
                        hi = mid
                print("  %-7s %dK" % (name, lo))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    if MP:
        if len(sys.argv) > 1 and sys.argv[1] == "--mp":
            mp_main(sys.argv[2:])
        else:
            print("usage: micropython tools/bench_engine.py --mp LIBDIR PROFILE [ROLLS]")
    else:
        sys.exit(_host(sys.argv[1:]))
