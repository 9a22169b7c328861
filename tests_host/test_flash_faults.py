"""Issue 9, storage half: the faults real NOR flash and real power give.

Each defect test names the defect it reproduces; each failed on the code
before the fix (see the commit message).
"""
import copy

import session
from hal.mock.norflash import PowerCut, SECTOR
from hal.mock.hostile import HostileNor as NorFlash
from firmware.store import journal as J
from firmware.store.store import Store, CRITICAL

SIZE = 256 * 1024
_FULL = {}


def full_run(profile="table"):
    """(steps, [(step index, ops) of each step that wrote a snapshot])."""
    if profile not in _FULL:
        steps = list(session.full_steps(130, 3, profile))
        f = NorFlash(SIZE)
        s = Store(f)
        s.boot(1)
        snaps = []
        for i, (name, args) in enumerate(steps):
            ops, base = f.ops, s.journal.base_seq
            getattr(s, name)(*args)
            if s.journal.base_seq != base:
                snaps.append((i, f.ops - ops))
        _FULL[profile] = (steps, snaps, len(s.ledger.encode()))
    return _FULL[profile]


def prefix(steps, upto):
    """A booted store that ran steps[:upto], and its flash."""
    f = NorFlash(SIZE)
    s = Store(f)
    s.boot(1)
    session.run(s, steps[:upto])
    return f, s


def reboot(f, now=2):
    f.power_on()
    s = Store(f)
    return s, s.boot(now)


def test_defect1_cut_inside_a_periodic_snapshot_recovers():
    """A cut at every flash operation of a periodic snapshot of a full
    layout (state near 35 KB): the next boot used to raise JournalFull from
    the power-up record on every start (bricked)."""
    steps, snaps, size = full_run()
    assert size > 30000 and len(snaps) >= 2
    i, ops = snaps[0]
    f0, s0 = prefix(steps, i)
    before = session.view(s0.ledger)
    name, args = steps[i]
    checked = 0
    for k in range(1, ops + 1):
        f, s = copy.deepcopy((f0, s0))
        f.cut_after(k)
        try:
            getattr(s, name)(*args)
            raise AssertionError("no cut at %d" % k)
        except PowerCut:
            pass
        s2, st = reboot(f)
        assert st != CRITICAL, "cut %d of the snapshot step: %s" % (k, s2.reason)
        v = session.view(s2.ledger)
        assert v == before or v == after_view(steps, i, f0, s0), "cut %d: older/other state" % k
        # and the cabinet keeps working: the rest of the session runs
        session.run(s2, steps[i + 1:i + 40])
        assert not s2.critical, s2.reason
        s3, st = reboot(f, 3)
        assert st != CRITICAL and session.view(s3.ledger) == session.view(s2.ledger)
        checked += 1
    assert checked == ops


_AFTER = {}


def after_view(steps, i, f0, s0):
    if i not in _AFTER:
        f, s = copy.deepcopy((f0, s0))
        name, args = steps[i]
        getattr(s, name)(*args)
        _AFTER[i] = session.view(s.ledger)
    return _AFTER[i]


def test_defect1_torn_snapshots_twice_in_a_row_still_recover():
    """Several faults per power-up: the snapshot is cut, the boot after it
    snapshots again and that one is cut too; the space is reclaimed."""
    steps, snaps, size = full_run()
    i, ops = snaps[0]
    f, s = prefix(steps, i)
    before = session.view(s.ledger)
    f.cut_after(ops // 2)
    try:
        session.run(s, steps[i:i + 1])
    except PowerCut:
        pass
    for n in range(4):
        f.power_on()
        f.cut_after(5 + 7 * n)  # inside the recovery snapshot of this boot
        try:
            Store(f).boot(2 + n)
        except PowerCut:
            pass
    s2, st = reboot(f, 9)
    assert st != CRITICAL, s2.reason
    assert session.view(s2.ledger) in (before, after_view(steps, i, *prefix(steps, i)))


def _weak_commit(seed, size=16 * SECTOR, store=False):
    """A journal whose newest entry's commit program was torn and left the
    commit byte marginal: it reads committed on some reads, not on others."""
    f = NorFlash(size, seed=seed)
    if store:
        w = Store(f)
        w.boot(1)
        j = w.journal
        for i in range(5):
            w.credit(2, 0, 5 + i)
    else:
        j = J.Journal(f, max_snapshot=1024)
        j.mount()
        for i in range(5):
            j.append(b"rec%d" % i)
    off = j.head * SECTOR + j.off
    f.cut_after(2)  # data program done, the commit program is torn
    try:
        if store:
            w.credit(3, 0, 20)
        else:
            j.append(b"torn")
    except PowerCut:
        pass
    # the model decides how much of a torn program landed; make the commit
    # byte marginal whatever it chose (the case the defect is about)
    f.secs[off // SECTOR][off % SECTOR] = 0x00
    f.set_weak(off, 0x10)  # one marginal bit: committed on about half the reads
    return f


def _history(f):
    j = J.Journal(f, max_snapshot=1024)
    st = j.mount()
    recs = []
    if st != J.CRITICAL:
        j.replay(recs.append)
    return j, st, recs


def test_defect2_weak_commit_byte_never_forces_a_ram_clear():
    """After a torn commit the next boot reuses the seq in the next sector;
    when the marginal commit byte later read 'committed' the journal saw the
    same seq twice and locked CRITICAL (a RAM clear for a power cut)."""
    base = [b"rec%d" % i for i in range(5)]
    for seed in range(1, 25):
        f = _weak_commit(seed)
        seen = None
        for boot in range(8):
            f.power_on()
            j, st, recs = _history(f)
            assert st != J.CRITICAL, "seed %d boot %d" % (seed, boot)
            if seen is None:
                assert recs in (base, base + [b"torn"])
            else:
                # never an older state than one already presented
                assert recs[:len(seen)] == seen, "seed %d boot %d went back" % (seed, boot)
            j.append(b"boot%d" % boot)
            seen = recs + [b"boot%d" % boot]


def test_defect2_commit_byte_read_uncommitted_then_committed():
    """The exact sequence of the report: boot 1 reads the torn commit byte
    as 'not committed' and appends; boot 2 reads it as 'committed'."""
    f = _weak_commit(1)
    off = [o for o in f.weak[0]][0]
    del f.weak[0][off]
    f.secs[0][off] = 0x10  # boot 1: reads uncommitted
    f.power_on()
    j, st, recs = _history(f)
    assert st != J.CRITICAL and recs == [b"rec%d" % i for i in range(5)]
    j.append(b"after")
    if f.secs[0][off + 1]:  # the entry is still there (not neutralised)
        f.secs[0][off] = 0x00  # boot 2: the marginal bit reads committed
    for boot in range(3):
        j, st, recs = _history(f)
        assert st != J.CRITICAL
        assert recs == [b"rec%d" % i for i in range(5)] + [b"after"]


def test_defect3_unstable_read_with_damaged_mirror_does_not_escape_boot():
    """A marginal commit byte plus a damaged mirror: repair re-read the
    sector, found the entry 'uncommitted' this time and raised
    JournalCorrupt('repair lost sector 0') out of boot."""
    for seed in range(1, 40):
        f = _weak_commit(seed, SIZE, store=True)
        f.flip_bit(SIZE // 2 + 20, 3)  # copy B of sector 0: an old entry
        st = None
        for boot in range(3):
            f.power_on()
            s = Store(f)
            st = s.boot(2 + boot)
            assert st != CRITICAL, "seed %d: %s" % (seed, s.reason)
            assert s.ledger.table.credits in (35, 55)


class _Broken:
    """A flash device whose reads fail in a way no driver documents."""

    def __init__(self, dev, exc):
        self.dev = dev
        self.exc = exc

    def readblocks(self, n, buf, off=0):
        raise self.exc

    def writeblocks(self, n, buf, off=None):
        raise self.exc

    def ioctl(self, op, arg):
        return self.dev.ioctl(op, arg)


def test_defect3_any_exception_at_boot_locks_critical_with_a_reason():
    for exc in (RuntimeError("bus"), ValueError("bad"), MemoryError(), KeyError(3),
                J.JournalCorrupt("x"), J.JournalFull("y"), OSError(5)):
        s = Store(_Broken(NorFlash(SIZE), exc))
        assert s.boot(1) == CRITICAL
        assert s.critical and type(exc).__name__ in s.reason
        assert s.credit(2, 0, 5) != 0  # locked: nothing moves
