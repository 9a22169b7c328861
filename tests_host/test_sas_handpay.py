"""The SAS handpay queue (SAS 6.02 7.8.1), legacy reporting (7.8.2) and
long poll A8, enable jackpot handpay reset method (14): every answer through
tests_host/sas_spec.py, the decoder written from the spec tables, over the
mock board's SAS line driving the real controller (firmware/sas/handpays.py).

The power-cut sweep cuts at a flash operation of a session of handpays (a
cancelled-credit handpay and a jackpot, each reset, a host reading them) and
checks that the host records each handpay once, in order, and sees each
reset: none lost, none reported again as a new one. CI runs a seeded sample
(the seed is printed; SEED=n replays it); FULL=1 cuts at every operation.
"""
import os
import random

from firmware.rules import wagers as W
from firmware.store import events as E
from firmware.store import ledger as L
from hal.mock.norflash import PowerCut
from sas_spec import decode, with_crc
from test_e2e_session import make
from test_e2e_powercut import CutDriver, Cut, _full
from test_sas_floor import ADDR, ask, poll, synced, drain, cash_out_to_a_handpay

OTHER = [0x80 | (ADDR + 1)]


def general(d):
    """One general poll, acknowledged by a poll to another address."""
    code = ask(d, [0x80 | ADDR])["exception"]
    poll(d, OTHER)
    return code


def handpay_1b(d):
    r = ask(d, [ADDR, 0x1B])
    return r["level"], r["amount"], r["reset_id"]


def idle(d, ms):
    """The host polls another machine every second for `ms`."""
    for _ in range(ms // 1000):
        d.run(1000)
        poll(d, OTHER)


def jackpot(d, limit=1):
    """A $5 pass line win over a $`limit` jackpot limit: a jackpot lockup."""
    st = d.ctl.store
    now = d.board.clock.now
    assert st.set_config(now(), "jackpot_limit", str(limit)) == 0
    d.run(500)                            # the acceptor is enabled again after a lockup
    d.bill(20)
    assert st.ledger.table.credits >= 2000
    assert st.bet(now(), W.PASS, 500) == 0
    d.command("dice 3 4")
    assert d.roll()
    assert st.ledger.lock == L.LK_JACKPOT
    return st.ledger.lock_arg


def test_51_again_every_15_s_until_1b_reads_it():
    b, d = synced(seed=41)
    cash_out_to_a_handpay(d)
    # a priority exception: before the config change and the bill (2.2.1)
    assert general(d) == 0x51
    assert drain(d) == [0x3C, 0x48]
    idle(d, 13000)
    assert general(d) == 0                 # acknowledged 14 s ago: not yet
    idle(d, 2000)
    assert general(d) == 0x51              # 15 s unread: again (7.8.1)
    assert general(d) == 0
    assert handpay_1b(d) == (0x80, 500, 0)
    idle(d, 31000)
    assert general(d) == 0                 # read: never again
    assert d.ctl.store.reset(b.clock.now()) == 0
    assert general(d) == 0x52              # read and reset
    assert general(d) == 0
    assert handpay_1b(d) == (0, 0, 0)      # the queue is empty


def host_turns(d, seen, got=None, limit=40, asking=None):
    """A host: general polls until none is pending; each 51 answered by 1B,
    whose handpay it records in `got` (returned). `seen` collects the
    exceptions. `asking` (a list) holds a 1B the host sent and got no
    answer to: it polls it again first, as a host repeats a poll (3.2)."""
    got = [] if got is None else got
    asking = [] if asking is None else asking
    for _ in range(limit):
        if asking:
            got.append(handpay_1b(d)[:2])
            asking.pop()
        code = ask(d, [0x80 | ADDR])["exception"]
        if code:
            seen.append(code)       # received before the host acknowledges it
        poll(d, OTHER)
        if not code:
            return got
        if code == 0x51:
            asking.append(1)
            got.append(handpay_1b(d)[:2])
            asking.pop()
    raise AssertionError("exceptions never ran out: %r" % seen)


def test_handpays_while_the_host_is_away_come_one_by_one_in_order():
    b, d = synced(seed=42)
    st = d.ctl.store
    cash_out_to_a_handpay(d)
    assert st.reset(b.clock.now()) == 0
    win = jackpot(d)
    seen = []
    assert host_turns(d, seen) == [(0x80, 500), (0x40, win)]
    # the first read and reset: 52, then the second's 51; it waits for its reset
    assert [c for c in seen if c in (0x51, 0x52)] == [0x51, 0x52, 0x51]
    seen = []
    assert st.reset(b.clock.now()) == 0
    assert host_turns(d, seen) == [] and seen == [0x52]
    assert handpay_1b(d) == (0, 0, 0)


def test_legacy_reporting_queues_51_and_52_and_1b_is_the_lockup():
    b, d = synced(seed=43)
    st = d.ctl.store
    assert st.set_config(b.clock.now(), "handpay_queue", "0") == 0
    cash_out_to_a_handpay(d)
    assert drain(d) == [0x3C, 0x3C, 0x48, 0x51]    # in event order, from the queue
    idle(d, 16000)
    assert general(d) == 0                          # never sent again
    assert handpay_1b(d) == (0x80, 500, 0)
    assert st.reset(b.clock.now()) == 0
    assert drain(d) == [0x52]
    assert handpay_1b(d) == (0, 0, 0)               # no lockup: all zeros


def a8(d, method):
    return ask(d, with_crc([ADDR, 0xA8, method]))["ack"]


def sas_meters(d, codes=(0x00, 0x01, 0x02, 0x04, 0x0C, 0x22, 0x24)):
    r = ask(d, with_crc([ADDR, 0x2F, 2 + len(codes), 0, 0] + list(codes)))
    return r["meters"]


def test_a8_resets_a_jackpot_to_the_credit_meter_across_a_power_cut():
    b, d = synced(seed=44)
    st = d.ctl.store
    assert a8(d, 1) == 2                            # not in a handpay
    cash_out_to_a_handpay(d)
    assert a8(d, 1) == 1                            # cancelled credits: only by hand
    assert a8(d, 0) == 0
    assert handpay_1b(d) == (0x80, 500, 0)
    assert st.reset(b.clock.now()) == 0
    assert 0x52 in drain(d)                         # that handpay leaves the queue
    win = jackpot(d)
    credits = st.ledger.table.credits
    assert handpay_1b(d) == (0x40, win, 1)          # reset to the credit meter possible
    assert a8(d, 2) == 1                            # no such method
    before = sas_meters(d)
    assert a8(d, 1) == 0
    assert a8(d, 1) == 0                            # again: nothing more written
    # the power goes: the host's choice is journalled
    b, d = make(seed=45, flash=b.flash, sas="loop")
    poll(d, OTHER)
    st = d.ctl.store
    assert st.ledger.lock == L.LK_JACKPOT and st.ledger.host & L.TO_CREDIT
    assert st.reset(b.clock.now()) == 0             # the attendant's key
    led = st.ledger
    assert led.table.credits == credits + win and led.lock == L.LK_NONE
    assert led.meters.get("jp_to_credit") == win and led.balance_check() == 0
    m = sas_meters(d)
    # the machine paid it: coin out; still a jackpot lockup: jackpot; each once in total won
    assert m[0x01] == before[0x01] + win and m[0x02] == before[0x02]
    assert m[0x22] == before[0x22] and m[0x0C] == credits + win
    assert m[0x0C] == m[0x24] - m[0x04] + m[0x01] - m[0x00]   # SAS's own balance
    assert not led.host & L.TO_CREDIT


def test_a8_is_refused_over_the_credit_limit_and_the_reset_is_by_hand():
    b, d = synced(seed=46)
    st = d.ctl.store
    win = jackpot(d)
    assert st.set_config(b.clock.now(), "credit_limit", "19") == 0   # $19
    assert st.ledger.table.credits + win > 1900
    assert handpay_1b(d) == (0x40, win, 0)
    assert a8(d, 1) == 1
    credits = st.ledger.table.credits
    assert st.reset(b.clock.now()) == 0
    assert st.ledger.table.credits == credits and st.ledger.meters.get("jp_to_credit") == 0


# ---- power cuts ----------------------------------------------------------------
def _start(seed, flash=None):
    b, d0 = make(seed=seed, flash=flash, sas="loop")
    return b, CutDriver(b, ctl=d0.ctl)


def _session(d, host):
    """The steps: two handpays and their resets, a host polling between."""
    def cashout(d):
        cash_out_to_a_handpay(d)

    def reset(d):
        if d.ctl.store.ledger.lock in (L.LK_HANDPAY, L.LK_JACKPOT):
            assert d.ctl.store.reset(d.board.clock.now()) == 0

    def turns(d):
        host_turns(d, host["seen"], host["got"], asking=host["asking"])

    def win(d):
        if d.ctl.store.ledger.lock == L.LK_NONE:
            jackpot(d, 2)
    return (cashout, turns, reset, turns, win, turns, reset, turns)


def run_session(seed, cut=0):
    """The session with a cut at the cut-th flash operation (0: none); the
    host goes on polling the new board. Returns the host's records, the
    exceptions it saw, the flash operations used and the cuts survived."""
    b, d = _start(seed)
    flash = b.flash
    flash.reset_counters()
    if cut:
        flash.cut_after(cut)
    host = {"got": [], "seen": [], "asking": []}
    poll(d, OTHER)
    cuts = 0
    steps = _session(d, host)
    i = 0
    while i < len(steps):
        try:
            steps[i](d)
        except (Cut, PowerCut):
            cuts += 1
            flash.power_on()
            b, d = _start(seed + 1000, flash)
            poll(d, OTHER)                         # the host polls on: in sync
            if steps[i].__name__ != "turns":
                i += 1                             # a cabinet step cut short is not redone
            continue
        i += 1
    for step in _session(d, host)[-2:]:            # the lockup a cut left, reset; the host reads
        step(d)
    led = d.ctl.store.ledger
    assert led.lock == L.LK_NONE and led.balance_check() == 0
    return host["got"], host["seen"], made(led), flash.ops, cuts


def made(led):
    """The handpays in the cabinet's event log, oldest first: (1B level, cents)."""
    ev = led.events
    out = []
    for i in range(ev.count - 1, -1, -1):
        number, t, code, arg = ev.get(i)
        if code in (E.HANDPAY, E.JACKPOT):
            out.append((0x40 if code == E.JACKPOT else 0x80, arg))
    return out


def verify(got, seen, paid, cuts=0):
    """The host recorded each handpay the cabinet made once, in order, and a
    52 for each; a 52 acknowledged just as the power went (its close not yet
    journalled) comes once more after the power-up: the same reset."""
    assert got == paid, (got, paid)
    assert len(paid) <= seen.count(0x52) <= len(paid) + cuts, seen


def test_a_power_cut_at_any_flash_operation_loses_or_repeats_no_handpay():
    got, seen, paid, ops, cuts = run_session(51)
    assert cuts == 0 and paid == [(0x80, 500), (0x40, 500)]
    verify(got, seen, paid)
    seed = int(os.getenv("SEED", "0")) or random.randrange(1, 1 << 30)
    print("handpay power cuts: SEED=%d" % seed)
    rng = random.Random(seed)
    points = range(1, ops + 1) if _full() else sorted({1, ops} | {rng.randint(1, ops)
                                                                    for _ in range(12)})
    for n in points:
        try:
            got, seen, paid, _, cuts = run_session(51, n)
            assert cuts == 1
            # a cut may fall before a handpay is made (that step is abandoned):
            # the host recorded exactly the handpays the cabinet made
            assert paid and set(paid) <= {(0x80, 500), (0x40, 500)}
            verify(got, seen, paid, cuts)
        except AssertionError:
            print("cut at flash op", n, "of", ops)
            raise
