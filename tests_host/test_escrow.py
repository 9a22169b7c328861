"""Bills through an escrow validator (ID-003 style, issue 9): the bill is
journalled PENDING before the validator is told to stack it and credited
only when the validator reports it in the cash box. A power cut at any
moment, or at any flash operation of the commits, never loses a stacked
bill and never credits one twice; a bill that never reached the cash box
goes back to the player.
"""
import os

from hal.mock.norflash import PowerCut
from hal.mock.validator import MockValidator, _STACKING as STACKING
from hal import escrow as V
from firmware.store import records as T
from firmware.store import events as E
from firmware.store.store import Store
from test_e2e_session import make, check, events_of


def _cabinet(tmp, seed, flash=None):
    b, d = make(seed=seed, flash=flash, escrow=True)
    # the same validator, with its bill position kept in a file across power cuts
    b.validator = MockValidator(b.clock, b.money, os.path.join(tmp, "validator.log"))
    return b, d


def _moves(tmp):
    """(cents stacked, cents returned, lines) from the validator's log."""
    with open(os.path.join(tmp, "validator.log")) as f:
        lines = [l.split() for l in f.read().split("\n") if l]
    stacked = sum(int(l[1]) for l in lines if l[0] == "S")
    returned = sum(int(l[1]) for l in lines if l[0] == "R")
    return stacked, returned, [l[0] for l in lines]


def test_bill_is_journalled_pending_before_the_stack_order(tmp_path):
    tmp = str(tmp_path)
    b, d = _cabinet(tmp, 61)
    led = d.ctl.store.ledger
    v = b.validator
    assert b.insert_bill(20)
    seen = []
    for _ in range(100):
        d.run(10)
        if v.state == STACKING and not seen:
            seen.append((led.escrow, led.table.credits))
    assert seen[0] == (2000, 0), "stack ordered before the bill was journalled"
    assert led.escrow == 0 and led.table.credits == 2000
    assert led.meters.get("bills_20") == 1 and led.meters.get("bills_in") == 2000
    assert _moves(tmp)[2] == ["I", "E", "K", "S", "A"]
    check(d)


def test_bill_refused_when_the_cabinet_cannot_take_it(tmp_path):
    tmp = str(tmp_path)
    b, d = _cabinet(tmp, 62)
    st = d.ctl.store
    st.set_config(b.clock.now(), "credit_limit", "10")
    assert b.insert_bill(20)              # over the limit: read, then given back
    d.run(1500)
    assert st.ledger.table.credits == 0 and st.ledger.escrow == 0
    assert _moves(tmp)[:2] == (0, 2000) and "K" not in _moves(tmp)[2]
    st.set_config(b.clock.now(), "credit_limit", "1000")
    d.run(100)
    b.validator.cents = 300               # a note the cabinet has no meter for ($3)
    b.validator.state = V.ESCROW
    d.run(500)
    assert st.ledger.table.credits == 0 and _moves(tmp)[1] == 2300
    check(d)


def _power_cut_run(tmp, seed, cut_ms=None, cut_ops=None):
    """Insert a $20 bill, cut the power cut_ms later or at the cut_ops-th
    flash operation from the insertion; power up again (cabinet and
    validator) and let it settle. Returns (credits, escrow, the cabinet)."""
    b, d = _cabinet(tmp, seed)
    assert b.insert_bill(20)
    try:
        if cut_ops is not None:
            b.flash.cut_after(cut_ops)
            d.run(1500)
        else:
            d.run(cut_ms)
    except PowerCut:
        pass
    b.validator.close()
    b.flash.power_on()
    b2, d2 = _cabinet(tmp, seed + 1, flash=b.flash)
    d2.run(1500)
    return b2, d2


def test_power_cut_at_every_moment_of_a_bill_loses_nothing(tmp_path):
    """Cut every 10 ms from the insertion to well after the credit."""
    outcomes = set()
    for k, ms in enumerate(range(0, 900, 10)):
        tmp = str(tmp_path / str(k))
        os.mkdir(tmp)
        b, d = _power_cut_run(tmp, 200 + k, cut_ms=ms)
        led = d.ctl.store.ledger
        stacked, returned, moves = _moves(tmp)
        assert led.escrow == 0 and stacked + returned == 2000, (ms, moves)
        assert led.table.credits == stacked == led.meters.get("bills_in"), (ms, moves)
        assert b.validator.state == V.IDLE
        if returned and "K" in moves:  # stack ordered, so it was journalled: the return too
            assert E.BILL_RETURNED in events_of(led), (ms, moves)
        outcomes.add((stacked, returned))
        check(d)
    assert outcomes == {(2000, 0), (0, 2000)}  # both sides of the stack order were hit


def test_power_cut_at_every_flash_operation_of_a_bill(tmp_path):
    """The cut lands inside the PENDING and STACKED commits themselves."""
    hit = 0
    for n in range(1, 40):
        tmp = str(tmp_path / str(n))
        os.mkdir(tmp)
        b, d = _power_cut_run(tmp, 300 + n, cut_ops=n)
        led = d.ctl.store.ledger
        stacked, returned, moves = _moves(tmp)
        assert not d.ctl.store.critical and led.escrow == 0, (n, moves)
        assert led.table.credits == stacked == led.meters.get("bills_in"), (n, moves)
        assert stacked + returned == 2000, (n, moves)
        hit += "S" in moves and moves.count("A") == 1 and moves.index("S") < moves.index("A")
        check(d)
    assert hit


def test_escrow_pending_survives_a_snapshot():
    from firmware.store.ledger import Ledger
    a = Ledger()
    assert a.apply(T.pack(T.ESCROW, 1, T.ES_PENDING, 5000)) == 0
    assert a.apply(T.pack(T.ESCROW, 1, T.ES_PENDING, 100)) != 0   # one bill at a time
    assert a.money_on_table()
    from firmware.store import snapshot
    c = Ledger()
    assert snapshot.load(c, [a.encode()]) == 0 and c.escrow == 5000
    assert c.apply(T.pack(T.ESCROW, 2, T.ES_STACKED, 2000)) != 0  # not the bill pending
    assert c.apply(T.pack(T.ESCROW, 2, T.ES_STACKED, 5000)) == 0
    assert c.escrow == 0 and c.table.credits == 5000 and c.meters.get("bills_50") == 1
    assert c.apply(T.pack(T.ESCROW, 3, T.ES_RETURNED, 5000)) != 0  # nothing pending


def test_audit_key_and_a_note_in_escrow(tmp_path):
    """A note held in escrow when the audit key turns is given back (refused
    at the validator, never credited in the menu); a note already journalled
    pending keeps the menu shut until the validator says where it went."""
    tmp = str(tmp_path)
    b, d = _cabinet(tmp, 64)
    led = d.ctl.store.ledger
    v = b.validator
    assert b.insert_bill(10)
    d.run(100)                          # being read
    b.audit_key.set(1)
    d.run(1500)
    assert d.ctl.audit_mode and led.table.credits == 0 and led.escrow == 0
    assert _moves(tmp)[:2] == (0, 1000) and v.state == V.IDLE
    b.audit_key.set(0)
    d.run(500)
    assert b.insert_bill(20)
    for _ in range(60):                 # up to the stack order
        d.run(10)
        if v.state == STACKING:
            break
    assert led.escrow == 2000
    b.audit_key.set(1)
    d.run(20)
    assert not d.ctl.audit_mode         # the note in flight first
    d.run(1000)
    assert d.ctl.audit_mode and led.table.credits == 2000 and led.escrow == 0
    check(d)
