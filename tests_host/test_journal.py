"""Journal tests: plain functions and asserts, runnable by pytest and by
tests_host/mp_runner.py on the MicroPython unix port."""
import random

from hal.mock.norflash import NorFlash, PowerCut
from firmware.store import journal as J
import powercut as P

MP_SKIP = ("test_bitflips_1000",)

SEC = 4096


def mk(nsec=12, max_snapshot=1024):
    f = NorFlash(nsec * SEC)
    j = J.Journal(f, max_snapshot=max_snapshot)
    return f, j


def state(f, max_snapshot=1024):
    j = J.Journal(f, max_snapshot=max_snapshot)
    st = j.mount()
    if st == J.CRITICAL:
        return st, None, None
    recs = []
    j.replay(recs.append)
    return st, j.snapshot(), recs


def test_empty_then_round_trip():
    f, j = mk()
    assert j.mount() == J.EMPTY
    assert j.snapshot() is None
    sent = []
    for i in range(50):
        p = bytes([i]) * (1 + i % 40)
        assert j.append(p) == i + 1
        sent.append(p)
    st, snap, recs = state(f)
    assert st == J.EMPTY and snap is None
    assert recs == sent


def test_record_sizes_up_to_max():
    f, j = mk()
    j.mount()
    sent = [b"", b"x", bytes(range(256)) * 4, b"\x00" * 2036]
    for p in sent:
        j.append(p)
    try:
        j.append(b"y" * 2037)
        assert False, "oversize record accepted"
    except ValueError:
        pass
    assert state(f)[2] == sent


def test_snapshot_and_records_after():
    f, j = mk()
    j.mount()
    for i in range(10):
        j.append(b"old%d" % i)
    snap = bytes(range(256)) * 3
    j.write_snapshot(snap)
    after = [b"new%d" % i for i in range(7)]
    for p in after:
        j.append(p)
    st, s2, recs = state(f)
    assert st == J.OK
    assert s2 == snap and recs == after


def test_big_snapshot_spans_sectors():
    f, j = mk(nsec=32, max_snapshot=24576)
    j.mount()
    j.append(b"a")
    snap = bytearray(24000)
    for i in range(24000):
        snap[i] = (i * 13) & 0xFF
    snap = bytes(snap)
    j.write_snapshot(snap)
    j.append(b"b")
    st, s2, recs = state(f, 24576)
    assert st == J.OK and s2 == snap and recs == [b"b"]


def test_wraparound_many_times_even_wear():
    random.seed(3)
    f, j = mk(nsec=12)
    j.mount()
    model = P.HistoryModel(600)
    for i in range(3000):
        p = bytes([i & 0xFF]) * random.randint(10, 60)
        j.append(p)
        model.apply(p)
        if j.should_snapshot():
            j.write_snapshot(model.dump())
        while j.erase_pending():
            j.erase_step()
    # several trips around the ring, each sector erased about equally
    assert min(f.erase_counts) >= 5
    assert max(f.erase_counts) - min(f.erase_counts) <= 2
    assert j.sync_erases <= 2  # only the very first sector
    m2 = P.HistoryModel(600)
    st = P.recover(J.Journal(f, max_snapshot=1024), m2)
    assert st == J.OK and m2.key() == model.key()


def test_full_without_snapshot_refuses():
    f, j = mk(nsec=8)
    j.mount()
    try:
        for i in range(10000):
            j.append(b"z" * 200)
        assert False, "never full"
    except J.JournalFull:
        pass
    # still consistent, and a snapshot can still be written from the reserve
    st, snap, recs = state(f)
    assert st == J.EMPTY and len(recs) == i
    j.write_snapshot(b"S" * 500)
    j.append(b"after")
    st, snap, recs = state(f)
    assert st == J.OK and snap == b"S" * 500 and recs == [b"after"]


def test_torn_tail_discarded_not_critical():
    f, j = mk()
    j.mount()
    for i in range(5):
        j.append(b"r%d" % i)
    f.cut_after(1)  # tear the first program of the next append (copy A data)
    try:
        j.append(b"torn")
        assert False
    except PowerCut:
        pass
    f.power_on()
    st, snap, recs = state(f)
    assert st != J.CRITICAL
    assert recs in ([b"r%d" % i for i in range(5)], [b"r%d" % i for i in range(5)] + [b"torn"])
    j = J.Journal(f, max_snapshot=1024)
    j.mount()
    j.append(b"next")
    assert state(f)[2][-1] == b"next"


def test_torn_b_with_good_a_is_committed_and_repaired():
    partial = 0
    for seed in range(1, 12):
        f = NorFlash(12 * SEC, seed=seed)
        j = J.Journal(f, max_snapshot=1024)
        j.mount()
        j.append(b"first")
        f.cut_after(3)  # A data, A commit, then the B program is torn
        try:
            j.append(b"second")
            assert False
        except PowerCut:
            pass
        f.power_on()
        b_differs = f.peek(6 * SEC, 256) != f.peek(0, 256)
        st, snap, recs = state(f)
        assert recs == [b"first", b"second"]  # committed once A was complete
        if b_differs:
            partial += 1
            assert st == J.REPAIRED
        assert f.peek(6 * SEC, 256) == f.peek(0, 256)
        st, snap, recs = state(f)  # the repair was durable
        assert st == J.EMPTY and recs == [b"first", b"second"]
    assert partial > 3


def test_flip_in_copy_a_repaired_from_b():
    f, j = mk()
    j.mount()
    j.write_snapshot(b"snapshot-bytes" * 10)
    for i in range(20):
        j.append(b"rec%d" % i)
    f.flip_bit(7 * 40 + 20, 2)  # inside copy A, logical sector 0
    st, snap, recs = state(f)
    assert st == J.REPAIRED
    assert snap == b"snapshot-bytes" * 10 and recs == [b"rec%d" % i for i in range(20)]
    assert state(f)[0] == J.OK


def test_same_entry_bad_in_both_copies_is_critical():
    f, j = mk()
    j.mount()
    j.write_snapshot(b"S" * 100)
    for i in range(30):
        j.append(b"record-%02d" % i)
    m = j.m
    # damage one record in the middle in both copies: newer ones follow
    off = 112 + 24 + 5 * 21 + 9  # snapshot chunk, end, 5 records
    f.flip_bit(off, 1)
    f.flip_bit(m * SEC + off, 1)
    assert state(f)[0] == J.CRITICAL
    j2 = J.Journal(f, max_snapshot=1024)
    assert j2.mount() == J.CRITICAL
    assert j2.snapshot() is None and not j2.should_snapshot()
    try:
        j2.append(b"x")
        assert False, "append after CRITICAL"
    except J.JournalCorrupt:
        pass
    j2.format(full=True)  # RAM clear
    assert state(f)[0] == J.EMPTY


def test_format_is_a_logical_ram_clear():
    f, j = mk()
    j.mount()
    j.write_snapshot(b"state")
    j.append(b"a")
    j.format()
    st, snap, recs = state(f)
    assert st == J.EMPTY and snap is None and recs == []
    j.append(b"b")
    assert state(f)[2] == [b"b"]


def test_erase_ahead_avoids_sync_erases():
    f, j = mk()
    j.mount()
    while j.erase_pending():
        j.erase_step()
    before = j.sync_erases
    for i in range(400):
        j.append(b"q" * 30)
        if j.should_snapshot():
            j.write_snapshot(b"s" * 700)
        while j.erase_pending():
            j.erase_step()
    assert j.sync_erases == before == 0
    # without idle erasing, appends must erase synchronously and count it
    j2 = J.Journal(f, max_snapshot=1024)
    j2.mount()
    for i in range(400):
        j2.append(b"q" * 30)
        if j2.should_snapshot():
            j2.write_snapshot(b"s" * 700)
    assert j2.sync_erases > 0


def _used_bytes(f, j):
    """Absolute offsets of the used region (both copies of live sectors)."""
    spans = []
    m = j.m
    s = (j.head - j.nlive + 1) % m
    for _ in range(j.nlive):
        n = j.off if s == j.head else SEC
        spans.append((s * SEC, n))
        spans.append(((m + s) * SEC, n))
        s = (s + 1) % m
    return spans


def run_bitflips(count, seed):
    random.seed(seed)
    f, j = mk()
    j.mount()
    model = P.HistoryModel(600)
    for i in range(260):
        p = bytes([i & 0xFF]) * random.randint(10, 80)
        j.append(p)
        model.apply(p)
        if j.should_snapshot():
            j.write_snapshot(model.dump())
    spans = _used_bytes(f, j)
    total = sum(n for _, n in spans)
    image = f.image()
    res = {}
    for _ in range(count):
        k = random.randint(0, total - 1)
        for a, n in spans:
            if k < n:
                addr = a + k
                break
            k -= n
        f.load_image(image)
        f.flip_bit(addr, random.randint(0, 7))
        m2 = P.HistoryModel(600)
        st = P.recover(J.Journal(f, max_snapshot=1024), m2)
        res[st] = res.get(st, 0) + 1
        if st != J.CRITICAL:
            assert m2.key() == model.key(), "wrong state after flip at %d" % addr
            # and the repair (if any) left a clean image
            m3 = P.HistoryModel(600)
            st2 = P.recover(J.Journal(f, max_snapshot=1024), m3)
            assert st2 in (J.OK, J.EMPTY) and m3.key() == model.key()
    return res


def test_bitflips_small():
    res = run_bitflips(40, 11)
    assert res.get(J.REPAIRED, 0) > 20


def test_bitflips_1000():
    res = run_bitflips(1000, 12345)
    print("bit flips:", res)
    assert res.get(J.REPAIRED, 0) > 900


def test_powercut_every_point_tiny():
    s = P.Setup(P.synthetic_workload(40), lambda: P.HistoryModel(300), size=10 * SEC,
                max_snapshot=512)
    counts = P.sweep(s, range(1, s.nops + 1))
    assert sum(counts.values()) == s.nops
