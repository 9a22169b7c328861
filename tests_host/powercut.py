"""Reusable power-cut harness for the journal (CPython and MicroPython).

A *workload* is a callable `workload(rng)` returning an iterable of record
payloads (bytes), deterministic for a given rng.  A *model* factory returns an
object with apply(payload), dump() -> bytes (the snapshot), load(bytes|None)
and key() (a small comparable summary of the state).  The team can plug in the
real cabinet session as the model and its records as the workload.

drive()       runs records through a journal like the cabinet does.
cut_run(k)    replays the workload on fresh flash with cut_after(k), recovers,
              checks the recovered state, continues, checks the final state.
sweep()       does cut_run for a list of cut points (all, or a seeded sample).
"""
import struct
from binascii import crc32

from hal.mock.norflash import NorFlash, PowerCut
from firmware.store import journal as J


class HistoryModel:
    """Default model: record count + CRC chain over every record, in order."""

    def __init__(self, snap_size=600):
        self.snap_size = snap_size
        self.n = 0
        self.c = 0

    def apply(self, p):
        self.n += 1
        self.c = crc32(p, self.c)

    def key(self):
        return (self.n, self.c)

    def dump(self):
        head = struct.pack("<II", self.n, self.c)
        # deterministic filler so snapshot bytes depend on the state
        fill = bytes([(self.n + i) & 0xFF for i in range(256)])
        k = self.snap_size - 8
        out = bytearray(head)
        while k > 0:
            out += fill[:k]
            k -= 256
        return bytes(out)

    def load(self, b):
        if b is None:
            self.n = 0
            self.c = 0
            return
        if len(b) != self.snap_size or bytes(b) != self._expect(b):
            raise AssertionError("snapshot bytes differ from what was written")
        self.n, self.c = struct.unpack_from("<II", b, 0)

    def _expect(self, b):
        n, c = struct.unpack_from("<II", b, 0)
        m = HistoryModel(self.snap_size)
        m.n, m.c = n, c
        return m.dump()


class Rng:
    """Deterministic xorshift32 with the random-module calls workloads use."""

    def __init__(self, seed):
        self.s = (seed & 0xFFFFFFFF) or 1

    def getrandbits(self, k):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s >> (32 - k) if k < 32 else s

    def randint(self, a, b):
        return a + self.getrandbits(32) % (b - a + 1)


def synthetic_workload(nrec, lo=10, hi=120):
    """Returns a workload: nrec records of lo..hi bytes with varied content."""

    def workload(rng):
        for i in range(nrec):
            n = rng.randint(lo, hi)
            b = bytearray(n)
            b[0] = i & 0xFF
            for j in range(1, n):
                b[j] = (i * 7 + j) & 0xFF
            yield bytes(b)

    return workload


def recover(j, model):
    """Mount result -> model state. Returns status (model loaded unless CRITICAL)."""
    st = j.mount()
    if st == J.CRITICAL:
        return st
    model.load(j.snapshot())
    j.replay(model.apply)
    return st


class Progress:
    def __init__(self):
        self.done = 0  # appends that returned
        self.inflight = False  # an append was in progress at the exception


def drive(j, model, payloads, prog, skip=0, idle_erase=True):
    """Append payloads (after skipping `skip`), snapshot when asked, erase
    ahead when idle. Updates prog so the caller knows what had returned."""
    i = 0
    for p in payloads:
        if i < skip:
            i += 1
            continue
        if j.should_snapshot():  # e.g. right after a reboot
            j.write_snapshot(model.dump())
        prog.inflight = True
        j.append(p)
        prog.inflight = False
        model.apply(p)
        prog.done += 1
        i += 1
        if j.should_snapshot():
            j.write_snapshot(model.dump())
        if idle_erase:
            while j.erase_pending():
                j.erase_step()


class Setup:
    def __init__(self, workload, model_factory, size=12 * 4096, seed=7,
                 max_snapshot=1024, idle_erase=True):
        self.workload = workload
        self.model_factory = model_factory
        self.size = size
        self.seed = seed
        self.max_snapshot = max_snapshot
        self.idle_erase = idle_erase
        # reference: state key after each number of committed records
        m = model_factory()
        self.ref = [m.key()]
        for p in workload(Rng(seed)):
            m.apply(p)
            self.ref.append(m.key())
        self.total = len(self.ref) - 1
        f = NorFlash(size)
        j = self.journal(f)
        j.mount()
        f.reset_counters()
        drive(j, model_factory(), workload(Rng(seed)), Progress(), 0, idle_erase)
        self.nops = f.ops

    def journal(self, f):
        return J.Journal(f, max_snapshot=self.max_snapshot)


def cut_run(setup, k, flash_seed=None):
    """One power cut at operation k (1-based). Returns (status after cut,
    records that had returned). Raises AssertionError on any mismatch."""
    f = NorFlash(setup.size, seed=flash_seed if flash_seed is not None else k)
    j = setup.journal(f)
    j.mount()
    f.cut_after(k)
    prog = Progress()
    model = setup.model_factory()
    try:
        drive(j, model, setup.workload(Rng(setup.seed)), prog, 0, setup.idle_erase)
        raise AssertionError("cut %d never fired" % k)
    except PowerCut:
        pass
    f.power_on()
    j = setup.journal(f)
    m2 = setup.model_factory()
    st = recover(j, m2)
    assert st != J.CRITICAL, "CRITICAL after cut %d" % k
    key = m2.key()
    n = prog.done
    if key == setup.ref[n]:
        have = n
    elif prog.inflight and key == setup.ref[n + 1]:
        have = n + 1
    else:
        raise AssertionError("cut %d: recovered %r, expected %r (inflight=%r)"
                             % (k, key, setup.ref[n], prog.inflight))
    # a second mount must agree (repairs were durable, nothing flip-flops)
    j = setup.journal(f)
    m3 = setup.model_factory()
    st2 = recover(j, m3)
    assert st2 != J.CRITICAL and m3.key() == key, "cut %d: second mount differs" % k
    # continue the workload, then check the final state after a reboot
    p2 = Progress()
    drive(j, m3, setup.workload(Rng(setup.seed)), p2, have, setup.idle_erase)
    j = setup.journal(f)
    m4 = setup.model_factory()
    st3 = recover(j, m4)
    assert st3 != J.CRITICAL, "cut %d: CRITICAL at the end" % k
    assert m4.key() == setup.ref[setup.total], "cut %d: final state differs" % k
    return st, n


def sweep(setup, points):
    """cut_run for each k in points; returns {status: count}."""
    counts = {}
    for k in points:
        st, _ = cut_run(setup, k)
        counts[st] = counts.get(st, 0) + 1
    return counts


def sample_points(nops, count, seed):
    r = Rng(seed)
    pts = []
    for _ in range(count):
        pts.append(1 + r.getrandbits(32) % nops)
    return pts
