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
