"""AFT in-house transfers (issue 23, SAS 6.02 section 8): 74 lock and status,
72 transfers to and from the credit meter, their refusals, interrogation of
the current transfer and of the history, the AFT meters, and a power cut at
every flash operation of a transfer in each direction. Every poll is built
here from the SAS tables (8.2a, 8.3a) and every answer decoded by
tests_host/sas_spec.py, not by firmware/sas.
"""
import os

from hal.mock.norflash import PowerCut
from firmware.store import records as T
from firmware.store import snapshot
from firmware.store.ledger import Ledger
from sas_spec import with_crc, bcd
from test_e2e_session import make, check
from test_sas_floor import ADDR, poll, ask, drain, meters_2f

ASSET = 0x01020304
IN, OUT = 0x00, 0x80


def cabinet(seed, flash=None, asset=ASSET):
    """SAS on the in-memory line, the host past synchronisation, the
    house's asset number set."""
    b, d = make(seed=seed, flash=flash, sas="loop")
    st = d.ctl.store
    if st.ledger.config["asset_number"] != asset:
        st.set_config(b.clock.now(), "asset_number", str(asset))
    poll(d, [0x80 | (ADDR + 1)])
    drain(d)
    return b, d


def t72(kind, cents, tid, code=0x00, asset=ASSET, flags=0, restricted=0, index=0):
    """72 transfer funds, field by field as Table 8.3a lays it out."""
    body = [code, index, kind] + list(bcd(cents, 5)) + list(bcd(restricted, 5)) \
        + list(bcd(0, 5)) + [flags] + list(asset.to_bytes(4, "little")) + [0] * 20 \
        + [len(tid)] + list(tid.encode("latin-1")) + list(bcd(0, 4)) + [0, 0] \
        + [0] + list(bcd(0, 2))
    return with_crc([ADDR, 0x72, len(body)] + body)


def ask72(index=0, code=0xFF):
    return with_crc([ADDR, 0x72, 2, code, index])


def t74(code, conditions=0, hundredths=0):
    return with_crc([ADDR, 0x74, code, conditions] + list(bcd(hundredths, 2)))


def test_74_status_lock_timeout_and_cancel():
    b, d = cabinet(31)
    led = d.ctl.store.ledger
    limit = led.config["credit_limit"] * 100
    s = ask(d, t74(0xFF))
    assert (s["asset"], s["lock"], s["available"]) == (ASSET, 0xFF, 0x01)  # nothing to send out
    assert s["aft_status"] == 0x92 and s["max_index"] == 16            # partial to host, in-house
    assert (s["cashable"], s["restricted"], s["nonrestricted"], s["limit"]) == (0, 0, 0, limit)
    assert ask(d, t72(IN, 1500, "A1"))["status"] == 0x00
    # lock for transfers both ways, 3 s: locked at once, play held, 6F reported
    s = ask(d, t74(0x00, 0x03, 300))
    assert (s["lock"], s["available"], s["cashable"], s["limit"]) == (0x00, 0x03, 1500, limit - 1500)
    assert led.suspended() == "PLEASE WAIT"
    assert 0x6F in drain(d)
    d.run(3100)
    assert ask(d, t74(0xFF))["lock"] == 0xFF and led.suspended() == ""   # timed out
    assert ask(d, t74(0x00, 0x01, 9999))["lock"] == 0x00
    assert ask(d, t74(0x80))["lock"] == 0xFF and led.suspended() == ""   # cancelled
    led.phase = 1                       # a roll in progress: the lock waits for its end
    assert ask(d, t74(0x00, 0x01, 9999))["lock"] == 0x40
    assert led.suspended() == "PLEASE WAIT"
    led.phase = 0
    d.run(50)
    assert ask(d, t74(0xFF))["lock"] == 0x00
    assert ask(d, t74(0x80))["lock"] == 0xFF
    # a timeout that is not BCD: NACK
    assert poll(d, with_crc([ADDR, 0x74, 0x00, 0x01, 0xAA, 0x00])) == bytes((ADDR | 0x80,))
    check(d)


def test_a_transfer_ends_the_lock_and_only_if_locked_needs_one():
    b, d = cabinet(32)
    led = d.ctl.store.ledger
    r = ask(d, t72(IN, 1000, "L1", flags=0x40))
    assert r["status"] == 0x94 and led.table.credits == 0               # not locked
    assert ask(d, t74(0x00, 0x01, 1000))["lock"] == 0x00
    assert ask(d, t72(IN, 1000, "L1", flags=0x40))["status"] == 0x00
    assert led.table.credits == 1000
    assert ask(d, t74(0xFF))["lock"] == 0xFF and led.suspended() == ""


def test_72_in_and_out_meters_history_and_interrogation():
    b, d = cabinet(33)
    led = d.ctl.store.ledger
    r = ask(d, t72(IN, 2500, "HOST-0001"))
    assert (r["index"], r["status"], r["receipt"], r["type"]) == (0, 0x00, 0xFF, IN)
    assert (r["cashable"], r["restricted"], r["nonrestricted"]) == (2500, 0, 0)
    assert (r["asset"], r["transaction"]) == (ASSET, "HOST-0001")
    assert r["date"] and r["cumulative"] == [2500, None, None]
    assert led.table.credits == 2500
    assert drain(d) == [0x69]                                  # AFT transfer complete
    r = ask(d, t72(OUT, 1000, "HOST-0002"))
    assert (r["status"], r["type"], r["cashable"], r["cumulative"]) == (0x00, OUT, 1000, [1000, None, None])
    assert led.table.credits == 1500
    # partial allowed, asking more than the credits: what there is, status 01
    r = ask(d, t72(OUT, 9000, "HOST-0003", code=0x01))
    assert (r["status"], r["cashable"]) == (0x01, 1500) and led.table.credits == 0
    m = meters_2f(d, (0xA0, 0xA1, 0xB8, 0xB9, 0x2E, 0x32, 0x24, 0x04, 0x0C))
    assert m == {0xA0: 2500, 0xA1: 1, 0xB8: 2500, 0xB9: 2, 0x2E: 2500, 0x32: 2500,
                 0x24: 2500, 0x04: 2500, 0x0C: 0}
    wide = ask(d, with_crc([ADDR, 0x6F, 6, 0, 0, 0xA0, 0x00, 0xB9, 0x00]))["meters"]
    assert wide == {0xA0: 2500, 0xB9: 2}
    assert led.meters.get("aft_in") == 2500 and led.meters.get("aft_out_n") == 2
    # interrogation: current (00), relative (FF newest, FE, FD), absolute positions
    cur = ask(d, ask72(0))
    assert (cur["index"], cur["status"], cur["transaction"]) == (0, 0x01, "HOST-0003")
    newest = ask(d, ask72(0xFF))
    assert (newest["index"], newest["transaction"], newest["cashable"]) == (3, "HOST-0003", 1500)
    assert ask(d, ask72(0xFE))["transaction"] == "HOST-0002"
    first = ask(d, ask72(0xFD))
    assert (first["index"], first["transaction"], first["type"]) == (1, "HOST-0001", IN)
    assert ask(d, ask72(1))["transaction"] == "HOST-0001"
    assert ask(d, ask72(2, code=0xFE))["transaction"] == "HOST-0002"
    assert ask(d, ask72(9))["status"] == 0xFF                  # nothing there yet
    check(d)


def test_a_repeated_transaction_id_is_answered_never_transferred_twice():
    b, d = cabinet(34)
    led = d.ctl.store.ledger
    one = ask(d, t72(IN, 700, "SAME"))
    assert one["status"] == 0x00 and led.table.credits == 700
    again = ask(d, t72(IN, 700, "SAME"))
    assert again == one and led.table.credits == 700
    assert ask(d, t72(IN, 700, "NEXT"))["status"] == 0x00
    r = ask(d, t72(IN, 700, "SAME"))                            # an older ID: not unique
    assert r["status"] == 0x81 and led.table.credits == 1400
    assert led.meters.get("aft_in_n") == 2
    check(d)


def _refusal(frame, status, setup=None, seed=35, current=True):
    b, d = cabinet(seed)
    led = d.ctl.store.ledger
    assert ask(d, t72(IN, 1000, "START"))["status"] == 0x00
    if setup:
        setup(b, d)
    before = (led.table.credits, led.meters.get("total_in"), led.meters.get("total_out"))
    r = ask(d, frame)
    assert r["status"] == status, "%02X" % r["status"]
    assert (led.table.credits, led.meters.get("total_in"), led.meters.get("total_out")) == before
    # the current transfer: the refused request (not a request at all: unchanged)
    assert ask(d, ask72(0))["status"] == (status if current else 0x00)
    assert ask(d, ask72(0xFF))["transaction"] == "START"       # the history: done ones only
    return r


def test_refusals_with_the_spec_reason_codes():
    led_limit = 5000 * 100
    _refusal(t72(IN, 100, "X", asset=ASSET + 1), 0x93)          # another machine
    _refusal(t72(OUT, 2000, "X"), 0x83)                         # more than the credits
    _refusal(t72(IN, led_limit, "X"), 0x84)                     # over the credit limit
    _refusal(t72(0x10, 100, "X"), 0x82)                         # bonus: not offered
    _refusal(t72(0x20, 100, "X"), 0x82)                         # to a ticket: not offered
    _refusal(t72(IN, 100, "X", restricted=100), 0x82)           # restricted credits
    _refusal(t72(IN, 0, "X"), 0x83)                             # nothing
    _refusal(t72(IN, 100, "X", flags=0x80), 0x90)               # a receipt: no receipts
    _refusal(t72(IN, 100, "\x01BAD"), 0x95)                     # not printable
    r = _refusal(t72(IN, 100, "X", code=0x02), 0xC1, current=False)   # not a transfer code
    assert sorted(r) == ["cmd", "index", "status"]              # index and status only

    def door(b, d):
        b.door.set(1)                                            # the main door opens
        d.run(200)
        assert d.ctl.store.ledger.door_open
    _refusal(t72(IN, 100, "X"), 0x87, door)

    def game(b, d):
        d.ctl.store.ledger.phase = 1                             # a roll in progress
    _refusal(t72(OUT, 100, "X"), 0x87, game)


def test_no_asset_number_refuses_every_transfer():
    b, d = cabinet(36, asset=0)
    assert ask(d, t72(IN, 100, "X", asset=0))["status"] == 0x93
    assert ask(d, ask72(0xFF))["status"] == 0xFF and d.ctl.store.ledger.table.credits == 0


def _cut_transfer(seed, kind, n):
    """A transfer with the power cut at its n-th flash operation, then the
    host, after the restart, sends the same 72 again (it never had an
    answer). Returns the cabinet after and whether the cut came first."""
    b, d = cabinet(seed)
    if kind == OUT:
        assert ask(d, t72(IN, 3000, "FUND"))["status"] == 0x00
    led = d.ctl.store.ledger
    before = (led.table.credits, led.meters.get("aft_in"), led.meters.get("aft_out"))
    frame = t72(kind, 1200, "CUT-%d" % n)
    b.flash.cut_after(n)
    cut = False
    try:
        poll(d, frame)
        d.run(200)
    except PowerCut:
        cut = True
    b.flash.power_on()
    b2, d2 = cabinet(seed + 1, flash=b.flash)
    led = d2.ctl.store.ledger
    assert not d2.ctl.store.critical, n
    moved = led.table.credits != before[0]
    r = ask(d2, frame)
    assert r["status"] == 0x00 and r["transaction"] == "CUT-%d" % n, (n, r)
    sign = 1 if kind == IN else -1
    assert led.table.credits == before[0] + sign * 1200, (n, moved)
    assert led.meters.get("aft_in") == before[1] + (1200 if kind == IN else 0), n
    assert led.meters.get("aft_out") == before[2] + (1200 if kind == OUT else 0), n
    assert led.aft.find(b"CUT-%d" % n) == 0 and led.balance_check() == 0, n
    check(d2)
    return cut, moved


def test_power_cut_at_every_flash_operation_of_a_transfer_both_ways():
    for kind in (IN, OUT):
        seen = set()
        for n in range(1, 12):
            cut, moved = _cut_transfer(700 + n, kind, n)
            seen.add((cut, moved))
            if not cut:
                break
        # cuts before the commit (nothing moved), after it (moved once), and
        # the run past the last flash operation of the transfer
        assert (True, False) in seen and (True, True) in seen and (False, True) in seen, seen


def test_the_ledger_refuses_a_second_record_of_a_transfer_and_a_snapshot_keeps_the_history():
    a = Ledger()
    rec = T.pack(T.AFT, 5, T.AFT_IN, T.AFT_FULL, 2500) + b"TX1"
    assert a.apply(rec) == 0 and a.apply(rec) != 0 and a.table.credits == 2500
    assert a.apply(T.pack(T.AFT, 6, T.AFT_OUT, T.AFT_FULL, 9999) + b"TX2") != 0   # no credits
    assert a.apply(T.pack(T.AFT, 6, T.AFT_OUT, T.AFT_FULL, 500) + b"") != 0       # no ID
    assert a.apply(T.pack(T.AFT, 6, T.AFT_OUT, T.AFT_FULL, 500) + b"TX2") == 0
    for i in range(20):                                           # round the ring
        assert a.apply(T.pack(T.AFT, 7 + i, T.AFT_IN, T.AFT_FULL, 1) + b"R%d" % i) == 0
    c = Ledger()
    assert snapshot.load(c, [a.encode()]) == 0
    assert c.aft.total == 22 and c.aft.get(0)[6] == b"R19" and c.aft.get(15)[6] == b"R4"
    assert c.aft.get(16) is None and c.aft.find(b"TX1") == -1
    assert c.balance_check() == 0 and c.meters.get("aft_in_n") == 21
    assert c.apply(T.pack(T.AFT, 40, T.AFT_IN, T.AFT_FULL, 1) + b"R19") != 0     # never twice
