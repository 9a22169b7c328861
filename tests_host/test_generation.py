"""The generation log (firmware/store/generation.py): a journal written back
from a dump even one record older is CRITICAL (issue 25, finding 4); the log
follows every commit across its own sector moves and power cycles, never
ahead of the journal. The power-cut sweep is test_generation_sweep.py.
Plain asserts: CPython and the MicroPython unix port.
"""
from hal.marker import Marker
from hal.mock.hostile import HostileNor
from hal.mock.norflash import NorFlash
from firmware.store import records as TR
from firmware.store.store import Store, CRITICAL

SIZE = 256 * 1024        # the journal region, as on the boards
GEN = 2                  # sectors of the log (the mock board's)


def _chip(hostile=True, seed=5):
    """One chip: the journal region and the log's region above it."""
    n = SIZE // 4096
    f = HostileNor(SIZE + GEN * 4096, seed=seed) if hostile else NorFlash(SIZE + GEN * 4096)
    return f, f.region(0, n), f.region(n, GEN)


def _store(jdev, gdev, mark):
    return Store(jdev, provision=mark, generation=gdev)


def _dump(f, mark):
    """What a dump of the journal region and the filesystem holds."""
    n = SIZE // 4096
    return [bytes(f.secs[i]) for i in range(n)], mark._set, mark._anchor


def _write_back(f, mark, dump):
    secs, was_set, anchor = dump
    for i in range(len(secs)):
        f.secs[i][:] = secs[i]
    mark._set, mark._anchor = was_set, anchor


def test_a_dump_one_record_older_written_back_is_critical():
    f, jdev, gdev = _chip(hostile=False)
    mark = Marker()
    s = _store(jdev, gdev, mark)
    s.boot(1)
    for i in range(40):
        assert s.credit(2, TR.SRC_BILL, 100) == 0
    for back in (1, 2, 3):
        dump = _dump(f, mark)
        credits = s.ledger.table.credits
        for i in range(back):                        # e.g. a cashout after the dump
            assert s.credit(3, TR.SRC_BILL, 500) == 0
        _write_back(f, mark, dump)                   # the mark and its anchor too
        s2 = _store(jdev, gdev, mark)
        assert s2.boot(4) == CRITICAL and "rolled back" in s2.reason, (back, s2.reason)
        assert s2.ledger.table.credits != credits or s2.critical
        # without the log (the anchor alone) the same image boots as current:
        # the window this closes
        s3 = Store(jdev, provision=mark)
        assert s3.boot(4) != CRITICAL and s3.ledger.table.credits == credits
        # the RAM clear numbers on above the log: the cabinet goes on
        s2 = _store(jdev, gdev, mark)
        s2.boot(5)
        assert s2.ram_clear(5) == 0
        assert s2.credit(6, TR.SRC_BILL, 100) == 0
        s = _store(jdev, gdev, mark)
        assert s.boot(7) != CRITICAL and s.ledger.table.credits == 100, s.reason
        for i in range(20):
            assert s.credit(8, TR.SRC_BILL, 100) == 0


def test_the_log_survives_its_own_sector_moves_and_never_leads():
    f, jdev, gdev = _chip(hostile=False)
    mark = Marker()
    s = _store(jdev, gdev, mark)
    s.boot(1)
    for i in range(1200):                            # the 2-sector ring wraps twice
        assert s.credit(2, TR.SRC_BILL, 1) == 0
        if i % 97 == 0:
            s = _store(jdev, gdev, mark)             # a power cycle now and then
            assert s.boot(3) != CRITICAL
        assert s.generation.value == s.journal.seq - 1
    assert s.ledger.table.credits == 1200


def _scanned(f, first, n):
    """(value, sector, slot after it): the highest valid slot anywhere in the
    log's n sectors from sector `first` of chip f, slot by slot."""
    import struct
    best = (0, 0, 512)
    for s in range(n):
        sec = f.secs[first + s]
        for i in range(512):
            seq, inv = struct.unpack_from("<II", sec, i * 8)
            if seq ^ inv == 0xFFFFFFFF and seq > best[0]:
                best = (seq, s, i + 1)
    return best


def test_load_finds_the_slot_a_scan_of_every_slot_finds():
    # load() reads each sector from its end (values rise in write order):
    # with torn slots stepped over, pages left part-written and the ring
    # wrapped, it finds what reading every slot finds
    import random
    from firmware.store.generation import Generation
    f, jdev, gdev = _chip(hostile=False)
    first = SIZE // 4096
    if hasattr(random, "Random"):
        rnd = random.Random(11)
    else:       # the MicroPython port: its one generator, seeded
        random.seed(11)
        rnd = random
    g = Generation(gdev)
    g.load()
    seq = 0
    for k in range(2 * GEN * 512 + 300):                # the ring wraps twice
        if rnd.getrandbits(4) == 0 and g.slot < 512:
            # a cut inside the next slot's program: some of its bits cleared
            at = g.slot * 8
            sec = f.secs[first + g.sector]
            for b in range(8):
                sec[at + b] &= rnd.getrandbits(8)
        seq += 1
        g.advance(seq)
        if k % 61 == 0 or k % 512 in (510, 511, 0, 1):
            again = Generation(gdev)
            assert again.load() == seq, (k, again.value, seq)
            assert (again.value, again.sector, again.slot) == _scanned(f, first, GEN), k
