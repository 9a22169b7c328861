"""Issue 9, storage half: the faults real NOR flash and real power give.

Each defect test names the defect it reproduces; each failed on the code
before the fix (see the commit message).
"""
import copy
import os

import session
from hal.mock.norflash import PowerCut, SECTOR
from hal.mock.hostile import HostileNor as NorFlash
from firmware.store import journal as J
from firmware.store.store import Store, CRITICAL

SIZE = 256 * 1024
FULL = os.getenv("FULL") == "1"
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
    """A booted store that ran steps[:upto], and its flash (with the
    cabinet's provisioned mark and anchor as f.mark)."""
    from hal.marker import Marker
    f = NorFlash(SIZE)
    f.mark = Marker()
    s = Store(f, provision=f.mark)
    s.boot(1)
    session.run(s, steps[:upto])
    return f, s


def reboot(f, now=2):
    f.power_on()
    s = Store(f, provision=getattr(f, "mark", None))
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
            Store(f, provision=f.mark).boot(2 + n)
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


def test_defect3_any_exception_at_boot_stops_the_store_with_a_reason():
    """Never a crash: the journal's own errors lock CRITICAL; any other
    exception (a device, no memory, a bug) is a passing fault: RESTART,
    never CRITICAL (tests_host/test_restart.py)."""
    from firmware.store.store import RESTART
    for exc in (RuntimeError("bus"), ValueError("bad"), MemoryError(), KeyError(3),
                J.JournalCorrupt("x"), J.JournalFull("y"), OSError(5)):
        s = Store(_Broken(NorFlash(SIZE), exc))
        journal = isinstance(exc, (J.JournalCorrupt, J.JournalFull))
        assert s.boot(1) == (CRITICAL if journal else RESTART)
        assert s.critical == journal
        assert type(exc).__name__ in (s.reason if journal else s.restart_reason)
        assert s.credit(2, 0, 5) != 0  # stopped: nothing moves


# ---------------------------------------------------------------- defect 10
def _slow_cabinet(flash=None):
    """The real controller on a mock board whose flash takes the W25Q16JV
    datasheet maximum for every operation (400 ms a sector erase) and
    advances the board's clock by it."""
    from hal.mock.board import Board
    from hal.mock.hostile import DATASHEET_MAX
    from firmware.cabinet.controller import Controller
    b = Board(seed=5, fake_clock=True, flash=False)
    b.flash = flash if flash is not None else NorFlash(SIZE, timing=DATASHEET_MAX)
    b.flash.clock = b.clock
    b.flash.timing = DATASHEET_MAX
    b.watchdog.feed()  # armed, as by the first pass of the main loop
    return b, Controller(b)


def test_defect10_no_flash_step_outlasts_the_watchdog_at_datasheet_max():
    """A periodic snapshot of a full layout (13 sectors, both copies erased
    inside the commit) and the RAM clear of a critical journal (every sector
    erased) took 7.4 s and 25.7 s between two watchdog feeds at 400 ms an
    erase: the 5 s watchdog reset the cabinet in the middle of its own
    recovery. The journal now feeds it after every erase."""
    b, ctl = _slow_cabinet()
    wd, st = b.watchdog, ctl.store
    steps, snaps, size = full_run()
    done = 0
    for name, args in steps[:snaps[0][0] + 1]:
        getattr(st, name)(*args)
        wd.feed()  # the main loop's own feed between two passes
        done += 1
    assert st.journal.base_seq and not st.critical
    assert b.flash.longest_us == 400000 and b.flash.busy_us > 20 * 400000
    assert wd.longest_ms <= 2000, "a commit ran %d ms between feeds" % wd.longest_ms
    # a journal that boots CRITICAL, then the RAM clear that erases it all
    for n in range(SIZE // SECTOR):  # an entry mid-sector, in both copies
        b.flash.flip_bit(n * SECTOR + 2000, 1)
    b2, ctl2 = _slow_cabinet(b.flash)
    assert ctl2.store.critical and ctl2.store.journal.status == J.CRITICAL
    t0 = b2.flash.busy_us
    ctl2.store.ram_clear(b2.clock.now())
    assert b2.flash.busy_us - t0 >= 64 * 400000  # 25.6 s of erases
    assert b2.watchdog.longest_ms <= 2000, b2.watchdog.longest_ms
    assert not ctl2.store.critical


# ---------------------------------------------------------------- defect 6
def test_defect6_truncated_or_blank_image_is_critical_never_older():
    """Truncations of a used image booted as 'repaired' into an older state
    (credits 30 instead of 17), and an all-0xFF region became a new cabinet
    with zero meters. Now: exactly the state, or CRITICAL."""
    import test_boot_fuzz as BF
    secs, ref = BF.base()
    f = NorFlash(SIZE)
    seen = {}
    for t in list(range(0, SIZE, 1024)) + [SIZE // 2 + 300, 2848, 100]:
        for n in range(len(secs)):
            f.secs[n][:] = secs[n]
        f.secs[t // SECTOR][t % SECTOR:] = b"\xff" * (SECTOR - t % SECTOR)
        for n in range(t // SECTOR + 1, len(secs)):
            f.secs[n][:] = b"\xff" * SECTOR
        f.power_on()
        got, view = BF.boot_one(f, t)
        assert got == "critical" or view == ref, "truncated at %d: an older state" % t
        seen[got] = seen.get(got, 0) + 1
    assert seen.get("critical") and seen.get("ok")


# ---------------------------------------------------------------- the model
def test_hostile_model_marginal_cells_durations_and_worn_sectors():
    from hal.mock.clock import FakeClock
    from hal.mock.hostile import DATASHEET_MAX
    f = NorFlash(4 * SECTOR, seed=3)
    page = bytearray(b"\x00" * 256)
    f.cut_after(1)
    try:
        f.writeblocks(1, page, 0)
    except PowerCut:
        pass
    f.power_on()
    assert f.marginal() > 0
    reads = set()
    buf = bytearray(256)
    for _ in range(20):
        f.readblocks(1, buf, 0)
        reads.add(bytes(buf))
    assert len(reads) > 1  # a torn program reads back differently each time
    f.writeblocks(1, page, 0)  # a full program pulse settles them to 0
    assert f.marginal() == 0 and f.peek(SECTOR, 256) == bytes(page)
    f.cut_after(1)
    try:
        f.ioctl(6, 1)  # a torn erase leaves half-erased, marginal cells
    except PowerCut:
        pass
    f.power_on()
    f.ioctl(6, 1)
    assert f.marginal() == 0 and f.peek(SECTOR, SECTOR) == b"\xff" * SECTOR
    # durations: the clock moves by the datasheet maximum
    c = FakeClock()
    g = NorFlash(4 * SECTOR, timing=DATASHEET_MAX, clock=c)
    g.ioctl(6, 0)
    g.writeblocks(0, page, 0)
    assert c.ticks_ms() == 403 and g.longest_us == 400000
    # a worn sector: the program returns, only a read-back shows it
    g.wear_out(2)
    g.writeblocks(2, page, 0)
    assert g.peek(2 * SECTOR, 256) != bytes(page)


def test_journal_reads_back_what_a_repair_programmed():
    """A repair over a marginal byte that read as 1 programs around it; the
    read-back sees the difference and erases and programs again."""
    f = _weak_commit(5)
    b0 = 8 * SECTOR  # copy B of sector 0 (16-sector region)
    f.flip_bit(b0 + 30, 2)  # damage B: mount repairs it from A
    f.set_weak(b0 + 31, 0x01)
    for _ in range(3):
        f.power_on()
        j, st, recs = _history(f)
        assert st != J.CRITICAL
        assert recs[:5] == [b"rec%d" % i for i in range(5)]


# ------------------------------------------------- defect 6: rollback anchor
_WRAPPED = []


def wrapped():
    """(sectors, view, anchor) of a cabinet whose journal ring went round
    more than once (periodic snapshots), with its provisioned mark."""
    if not _WRAPPED:
        from hal.marker import Marker
        f = NorFlash(SIZE)
        mk = Marker()
        s = Store(f, provision=mk)
        s.boot(1)
        for name, args in session.iter_steps(2000, 9, "casino"):
            getattr(s, name)(*args)
        assert min(f.erase_counts) >= 2, "the ring did not wrap"
        assert mk.anchor() > 1000
        _WRAPPED.append(([bytes(x) for x in f.secs], session.view(s.ledger), mk.anchor(), s))
    return _WRAPPED[0]


def boot_image(secs, anchor, edit=None):
    """Boots a copy of the image on a cabinet whose mark holds `anchor`:
    ('critical', reason) or ('ok', view)."""
    from hal.marker import Marker
    f = NorFlash(SIZE)
    for n in range(len(secs)):
        f.secs[n][:] = secs[n]
    if edit is not None:
        edit(f)
    mk = Marker()
    mk.set(anchor)
    s = Store(f, provision=mk)
    if s.boot(5) == CRITICAL:
        assert s.reason
        return "critical", s.reason
    return "ok", session.view(s.ledger)


def test_defect6_every_truncation_of_a_wrapped_image_is_exact_or_critical():
    """The report's sweep: 1,024 truncation lengths of a used image (here
    one whose ring wrapped), 10 of which booted 'repaired' into an older
    state. Each must give exactly the state or CRITICAL."""
    secs, ref, anchor, _ = wrapped()
    seen = {"ok": 0, "critical": 0}
    # every length in full mode, a quarter of them (seeded offset) in CI
    step = 1 if FULL else 4
    for t in range(SIZE // 1024 * (0 if FULL else 3), SIZE, SIZE // 1024 * step):
        def cut(f, t=t):
            f.secs[t // SECTOR][t % SECTOR:] = b"\xff" * (SECTOR - t % SECTOR)
            for n in range(t // SECTOR + 1, f.nsectors):
                f.secs[n][:] = b"\xff" * SECTOR
        got, v = boot_image(secs, anchor, cut)
        assert got == "critical" or v == ref, "truncated at %d: an older state" % t
        seen[got] += 1
    print("truncations: %r" % seen)
    assert seen["critical"] and sum(seen.values()) == 1024 // step


def test_defect6_rollback_is_critical():
    """An older dump of the whole region written back (both copies
    consistent, every CRC good) booted as the current state. The anchor
    names the sector of the newest commit: a dump from before that sector
    is CRITICAL (one from inside it, less than a sector of records back,
    is the limit JOURNAL.md states)."""
    from hal.marker import Marker
    f = NorFlash(SIZE)
    mk = Marker()
    s = Store(f, provision=mk)
    s.boot(1)
    dumps = []
    for i, (name, args) in enumerate(session.iter_steps(300, 4, "table")):
        getattr(s, name)(*args)
        if i % 150 == 0:
            dumps.append((f.image(), s.journal.seq - 1))
    ref = session.view(s.ledger)
    older = 0
    for img, newest in dumps:
        got, v = boot_image([img[n * SECTOR:(n + 1) * SECTOR] for n in range(f.nsectors)],
                            mk.anchor())
        if newest < mk.anchor():
            assert got == "critical" and "anchor" in v, "rollback to seq %d booted" % newest
            older += 1
    assert older >= 10
    # the current image itself is fine
    assert boot_image([bytes(x) for x in f.secs], mk.anchor()) == ("ok", ref)


def test_defect6_newest_sector_or_entry_lost_in_both_copies_is_critical():
    secs, ref, anchor, s = wrapped()
    j = s.journal
    h, m = j.head, j.m

    def wipe_head(f):  # the newest sector gone in both copies
        f.secs[h][:] = b"\xff" * SECTOR
        f.secs[m + h][:] = b"\xff" * SECTOR

    got, why = boot_image(secs, anchor, wipe_head)
    assert got == "critical" and "anchor" in why, why
    # the newest entry damaged in both copies (a flipped payload bit each)
    o = j.off - 6

    def both(f):
        f.secs[h][o] ^= 0x04
        f.secs[m + h][o] ^= 0x20

    assert boot_image(secs, anchor, both)[0] == "critical"
    # in one copy only: repaired from the other, exactly the state
    assert boot_image(secs, anchor, lambda f: f.flip_bit(h * SECTOR + o, 2)) == ("ok", ref)
    assert boot_image(secs, anchor, lambda f: f.flip_bit((m + h) * SECTOR + o, 2)) == ("ok", ref)


def test_ram_clear_after_a_rollback_numbers_on_above_the_anchor():
    from hal.marker import Marker
    secs, ref, anchor, s = wrapped()
    f = NorFlash(SIZE)
    for n in range(f.nsectors):
        f.secs[n][:] = b"\xff" * SECTOR  # a wiped region on a used cabinet
    mk = Marker()
    mk.set(anchor)
    st = Store(f, provision=mk)
    assert st.boot(5) == CRITICAL
    assert st.ram_clear(6) == 0 and not st.critical
    assert st.journal.seq > anchor + 1 and mk.anchor() > anchor
    st.credit(7, 0, 500)
    st2 = Store(f, provision=mk)
    assert st2.boot(8) != CRITICAL, st2.reason
    assert st2.ledger.table.credits == 500


def test_torn_entry_right_after_a_page_end_is_neutralised():
    """Found by the write sweep: an entry ending at the last byte of a page
    and a torn entry after it; _neutralize read the page of the torn entry's
    start but cleared its type byte, which is in the next page (IndexError
    out of mount: CRITICAL after a plain power cut)."""
    for seed in range(1, 12):
        f = NorFlash(16 * SECTOR, seed=seed)
        j = J.Journal(f, max_snapshot=1024)
        j.mount()
        j.append(b"x" * (255 - 12))  # ends at offset 255
        assert j.off == 255
        f.cut_after(2)  # page 0 holds only its commit byte: tear page 1
        try:
            j.append(b"torn")
        except PowerCut:
            pass
        for _ in range(2):
            f.power_on()
            j, st, recs = _history(f)
            assert st != J.CRITICAL and recs == [b"x" * 243]


# ------------------------------------------------------------- worn sectors
def _worn_run(worn, nrec=1500, seed=4, boots=4):
    """A journal workload (snapshots, the ring round several times) on a
    16-sector NOR whose `worn` physical sectors program only partly (and
    return normally). Reboots in between; each boot must give exactly the
    records so far. Returns (flash, journal, worn sectors logged)."""
    import powercut as P
    f = NorFlash(16 * SECTOR, seed=seed)
    for n in worn:
        f.wear_out(n)
    model = P.HistoryModel(1500)
    logged = []
    j = None
    per = nrec // boots
    payloads = list(P.synthetic_workload(nrec, 10, 200)(P.Rng(seed)))
    for b in range(boots):
        j = J.Journal(f, max_snapshot=2048)
        check = P.HistoryModel(1500)
        assert P.recover(j, check) != J.CRITICAL, "boot %d" % b
        assert check.key() == model.key(), "boot %d: another history" % b
        logged += j.worn_log
        j.worn_log[:] = []
        P.drive(j, model, payloads[b * per:(b + 1) * per], P.Progress())
        logged += j.worn_log
    j = J.Journal(f, max_snapshot=2048)
    check = P.HistoryModel(1500)
    assert P.recover(j, check) != J.CRITICAL and check.key() == model.key()
    return f, j, logged


def test_worn_sector_in_copy_a_is_read_back_retired_and_logged():
    """A program that fails verification: the entry (not yet committed) goes
    again in the next sector, the sector is retired (marked, skipped by the
    ring at every later boot) and reported for the log."""
    f, j, logged = _worn_run([3], nrec=3000)
    assert 3 in logged
    # marked in the healthy copy (B of sector 3) whatever the worn one took
    assert j.wear[3] == J._RETIRED and f.peek(11 * SECTOR, 32) == J._MARK
    others = [f.erase_counts[n] for n in range(16) if n not in (3, 11)]
    assert min(others) >= 6  # the ring went round several times
    assert f.erase_counts[3] <= 3  # and left the retired sector alone


def test_worn_sector_in_copy_b_keeps_the_entries_of_copy_a():
    """The mirror's program fails: the entry is committed in A; the sector
    takes nothing more; the mount's repair cannot program B either and keeps
    A's entries (was: 'does not program' -> CRITICAL at the next boot)."""
    f, j, logged = _worn_run([8 + 2])
    assert 10 in logged and j.wear[2] == J._RETIRED


def test_worn_sectors_in_both_halves_and_a_store_logs_it():
    f, j, logged = _worn_run([1, 8 + 5, 6])
    assert {1, 13, 6} <= set(logged)
    # the store writes it in the event log (and the state is exact)
    from hal.marker import Marker
    from firmware.store import events as E
    g = NorFlash(SIZE, seed=2)
    mk = Marker()
    s = Store(g, provision=mk)
    s.boot(1)
    g.wear_out(s.journal.head)
    for i in range(200):
        s.credit(10 + i, 0, 100)
    assert not s.critical, s.reason
    worn = [e for e in _events(s.ledger) if e[2] == E.FLASH_WORN]
    assert worn, "a worn sector went unlogged"
    s2 = Store(g, provision=mk)
    assert s2.boot(500) != CRITICAL, s2.reason
    assert s2.ledger.table.credits == 20000
    assert [e for e in _events(s2.ledger) if e[2] == E.FLASH_WORN] == worn


def _events(led):
    ev = led.events
    return [ev.get(i) for i in range(ev.count)]


def test_cut_at_every_operation_of_the_ram_clear_of_a_critical_journal():
    """Double fault: the journal is critical (both copies of an entry in the
    middle damaged), and the RAM clear that erases it all is cut at each of
    its operations. The next boot is CRITICAL again (RAM clear still needed)
    or the cleared cabinet, never the old meters; a second RAM clear works;
    the sequence numbers never go below the anchor."""
    from hal.marker import Marker
    f0 = NorFlash(SIZE, seed=3)
    mk0 = Marker()
    s = Store(f0, provision=mk0)
    s.boot(1)
    for name, args in session.iter_steps(40, 6, "table"):
        getattr(s, name)(*args)
    h = s.journal.head
    f0.flip_bit((h - 1) * SECTOR + 100, 1)
    f0.flip_bit((h - 1 + SIZE // SECTOR // 2) * SECTOR + 100, 1)
    s = Store(f0, provision=mk0)
    assert s.boot(2) == CRITICAL
    anchor = mk0.anchor()
    ops0 = f0.ops
    probe = copy.deepcopy(f0)
    ps = Store(probe, provision=copy.deepcopy(mk0))
    ps.boot(2)
    o = probe.ops
    assert ps.ram_clear(3) == 0
    n = probe.ops - o
    assert n > SIZE // SECTOR  # every sector erased, then the new journal
    outcomes = {}
    for k in range(1, n + 1):
        f = copy.deepcopy(f0)
        mk = copy.deepcopy(mk0)
        st = Store(f, provision=mk)
        st.boot(2)
        f.cut_after(k)
        try:
            st.ram_clear(3)
            raise AssertionError("no cut at %d" % k)
        except PowerCut:
            pass
        f.power_on()
        s2 = Store(f, provision=mk)
        got = s2.boot(4)
        if got == CRITICAL:
            assert s2.ram_clear(5) == 0 and not s2.critical
            s2 = Store(f, provision=mk)
            assert s2.boot(6) != CRITICAL, s2.reason
        led = s2.ledger
        assert led.table.credits == 0 and led.balance_check() == 0, "cut %d: old meters" % k
        assert s2.journal.seq > anchor, "cut %d: a seq reused" % k
        outcomes[got == CRITICAL] = outcomes.get(got == CRITICAL, 0) + 1
    assert outcomes.get(True) and outcomes.get(False)
    assert ops0 == f0.ops


def test_ram_clear_split_across_passes_keeps_retired_sectors():
    """erase_for_format (the RAM clear of a critical journal, a sector a
    loop pass) ends although a retired sector is never erased (its mark
    stays), and the cleared journal still skips it."""
    f, j, logged = _worn_run([3])
    assert j.wear[3] == J._RETIRED
    n = 0
    while j.erase_for_format():
        n += 1
        assert n <= j.m
    j.format(True, j.seq + 5)
    assert f.peek(11 * SECTOR, 32) == J._MARK
    for i in range(400):
        j.append(b"after clear %d" % i)
        if j.should_snapshot():
            j.write_snapshot(b"s" * 100)
    j2 = J.Journal(f, max_snapshot=2048)
    assert j2.mount() != J.CRITICAL and j2.wear[3] == J._RETIRED
