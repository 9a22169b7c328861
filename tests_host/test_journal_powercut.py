"""Power cut at every program/erase (small workload) and at a seeded sample
(large workload, several wraps); FULL=1 runs every cut point of the large one."""
import os
import time

import powercut as P
from firmware.store import journal as J

SEC = 4096
FULL = os.environ.get("FULL") == "1"


def large_setup():
    # 16 sectors (8 per copy), 4 KB snapshots spanning sectors, many wraps
    return P.Setup(P.synthetic_workload(1200, 10, 200), lambda: P.HistoryModel(4000),
                   size=16 * SEC, seed=99, max_snapshot=4096)


def test_small_every_cut_point():
    s = P.Setup(P.synthetic_workload(150), lambda: P.HistoryModel(600))
    counts = P.sweep(s, range(1, s.nops + 1))
    print("small: %d cut points, statuses %r" % (s.nops, counts))
    assert sum(counts.values()) == s.nops


def test_large_wraps():
    s = large_setup()
    # the workload must really go round the ring several times
    from hal.mock.norflash import NorFlash
    f = NorFlash(s.size)
    j = s.journal(f)
    j.mount()
    P.drive(j, s.model_factory(), s.workload(P.Rng(s.seed)), P.Progress())
    assert min(f.erase_counts) >= 4, f.erase_counts


def test_large_cut_points():
    s = large_setup()
    pts = range(1, s.nops + 1) if FULL else P.sample_points(s.nops, 60, 2024)
    t = time.time()
    counts = P.sweep(s, pts)
    print("large: %d ops, %d cut points run in %.0f s, statuses %r (0=OK 1=REPAIRED 2=EMPTY)"
          % (s.nops, len(pts), time.time() - t, counts))
    assert J.CRITICAL not in counts and sum(counts.values()) == len(pts)
