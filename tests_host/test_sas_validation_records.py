"""SAS 4D validation records (SAS 6.02 15.10): buffer indexes 01-1F read
back the newest 31 cash out tickets, each as it was printed (number, cents,
expiration days), through tests_host/sas_spec.py (the decoder written from
the spec tables), across a power cut and a snapshot."""
from firmware.store import validations as V
from sas_spec import with_crc
from test_sas_floor import ADDR, ask, synced
from test_sas_ticket_data import _7d, _cash_out


def _4d(d, fn):
    return ask(d, with_crc([ADDR, 0x4D, fn]))


def _records(d):
    """(index, number, cents, expiration) of buffer indexes 1.. until a blank."""
    got = []
    for fn in range(1, 0x20):
        r = _4d(d, fn)
        if not r["date"]:
            assert not any(r[k] for k in ("validation", "amount", "expiration"))
            break
        got.append((r["index"], "%018d" % r["validation"], r["amount"], r["expiration"]))
    return got


def _printed(b, d, dollars, days):
    assert ask(d, _7d(days))["flag"] == 1
    _cash_out(b, d, dollars)
    return b.printer.barcodes[-1]


def test_4d_buffer_indexes_read_back_each_ticket_as_printed_across_a_cut_and_a_snapshot():
    b, d = synced(seed=61)
    n5 = _printed(b, d, 5, 7)
    n10 = _printed(b, d, 10, 0)                  # 00: never expires (9999)
    n20 = _printed(b, d, 20, 3)
    want = [(1, n20, 2000, 3), (2, n10, 1000, 9999), (3, n5, 500, 7)]
    assert len({n5, n10, n20}) == 3 and _records(d) == want
    # a later 7D changes the next ticket, not the records of those printed
    assert ask(d, _7d(5))["flag"] == 1
    assert _records(d) == want
    assert _4d(d, 0xFF)["validation"] == int(n20)
    b2, d2 = synced(seed=62, flash=b.flash)      # power cut: from the journal
    assert _records(d2) == want
    st = d2.ctl.store
    st.journal.write_snapshot(st.ledger.pieces())
    b3, d3 = synced(seed=63, flash=b2.flash)     # ... and from the snapshot
    assert d3.ctl.store.ledger.validations.total == 3 and _records(d3) == want
    n1 = _printed(b3, d3, 1, 30)
    assert _records(d3) == [(1, n1, 100, 30)] + [(i + 2,) + w[1:] for i, w in enumerate(want)]


def test_the_ring_keeps_the_newest_31_and_round_trips_its_snapshot_bytes():
    log = V.ValidationLog()
    assert log.get(0) is None
    # no ticket printed: the records' bytes are there already, 4 in the snapshot
    assert len(log.ring) == V.RECORDS * 20 and b"".join(log.pieces()) == bytes(4)
    for i in range(40):
        log.add(10 ** 15 + i, 1000 + i, 100 * i, (65530 + i) & 0xFFFF, i)
    assert len(log.ring) == V.RECORDS * 20
    assert log.get(0) == (10 ** 15 + 39, 1039, 3900, (65530 + 39) & 0xFFFF, 39)
    assert log.get(30) == (10 ** 15 + 9, 1009, 900, 65539 & 0xFFFF, 9)
    assert log.get(31) is None and log.get(-1) is None
    data = b"".join(log.pieces())
    assert len(data) == 4 + V.RECORDS * 20
    back = V.ValidationLog()
    assert back.load(b"xy" + data, 2) == len(data) + 2 and back.total == 40
    assert [back.get(i) for i in range(31)] == [log.get(i) for i in range(31)]
    assert back.load(data[:-1]) == -1
    # two records: the snapshot keeps those two only
    two = V.ValidationLog()
    two.add(7, 5, 100, 1, 2)
    two.add(8, 6, 200, 2, 3)
    data = b"".join(two.pieces())
    assert len(data) == 4 + 2 * 20
    back = V.ValidationLog()
    assert back.load(data) == len(data) and [back.get(i) for i in range(3)] == \
        [(8, 6, 200, 2, 3), (7, 5, 100, 1, 2), None]
