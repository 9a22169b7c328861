"""Ticket in (TITO redemption, issue 23): a ticket read by the escrow
validator is held while the casino system decides over SAS (67, 70, 71,
68), credited once it is in the cash box, or given back with the reason.
Every answer goes through tests_host/sas_spec.py (the decoder written from
the SAS tables); the power-cut sweeps cut at every 10 ms and at every flash
operation of a redemption, with a host that keeps polling across the cut.
"""
import os

from hal.mock.norflash import PowerCut
from hal.mock.validator import MockValidator
from hal import escrow as V
from firmware.store import records as T
from sas_spec import decode, with_crc, bcd
from test_e2e_session import make, check
from test_sas_floor import ADDR, poll, ask, drain, meters_2f

NUMBER = "123456789012345678"
CENTS = 2500


def cabinet(tmp, seed, flash=None):
    """SAS on the in-memory line, an escrow validator whose ticket position
    survives a power cut (its log file), the host past synchronisation."""
    b, d = make(seed=seed, flash=flash, sas="loop", escrow=True)
    b.validator = MockValidator(b.clock, b.money, os.path.join(tmp, "validator.log"))
    poll(d, [0x80 | (ADDR + 1)])
    return b, d


def redeem_frame(code, cents=CENTS, number=NUMBER):
    body = [code] + list(bcd(cents, 5)) + [0x00] + list(bcd(int(number), 9))
    return with_crc([ADDR, 0x71, len(body)] + body)


def status_frame():
    return with_crc([ADDR, 0x71, 1, 0xFF])


def moves(tmp):
    """The validator's ticket moves: the tags of the lines naming NUMBER."""
    with open(os.path.join(tmp, "validator.log")) as f:
        return [line.split()[0] for line in f.read().split("\n") if line.endswith(NUMBER)]


def test_a_ticket_the_host_redeems_is_credited_once_it_is_stacked(tmp_path):
    tmp = str(tmp_path)
    b, d = cabinet(tmp, 91)
    led = d.ctl.store.ledger
    drain(d)
    assert decode(with_crc([ADDR, 0x70])[:2], poll(d, [ADDR, 0x70]))["status"] == 0xFF
    assert b.insert_ticket(NUMBER)
    d.run(500)
    assert led.tin_step == T.TI_PENDING and b.validator.state == V.TICKET
    assert drain(d) == [0x67]                                   # ticket inserted
    r = ask(d, [ADDR, 0x70])
    assert (r["status"], r["validation"], r["amount"]) == (0x00, NUMBER, 0)
    r = ask(d, redeem_frame(0x00))
    assert (r["status"], r["amount"], r["validation"]) == (0x40, CENTS, NUMBER)
    assert led.table.credits == 0                               # not before the cash box
    d.run(1000)
    assert led.table.credits == CENTS and led.tin_step == 0
    assert b.validator.tickets == [(NUMBER, "S")] and b.validator.state == V.IDLE
    assert drain(d) == [0x68]                                   # transfer complete
    r = ask(d, status_frame())
    assert (r["status"], r["amount"], r["validation"]) == (0x00, CENTS, NUMBER)
    assert ask(d, redeem_frame(0x00))["status"] == 0xC0         # no ticket: not now
    assert ask(d, [ADDR, 0x70])["status"] == 0xFF
    m = meters_2f(d, (0x0D, 0x11, 0x15, 0x24, 0x28, 0x29, 0x35, 0x80, 0x81, 0x0C))
    assert m == {0x0D: CENTS, 0x11: 1, 0x15: CENTS, 0x24: CENTS, 0x28: CENTS,
                 0x29: CENTS, 0x35: 1, 0x80: CENTS, 0x81: 1, 0x0C: CENTS}
    assert led.meters.get("tickets_in") == CENTS and led.meters.get("total_in") == CENTS
    check(d)


def _refused(tmp, seed, frame, status, setup=None):
    b, d = cabinet(tmp, seed)
    led = d.ctl.store.ledger
    if setup:
        setup(b, d)
    drain(d)
    assert b.insert_ticket(NUMBER)
    d.run(500)
    assert drain(d) == [0x67]
    if frame is not None:
        r = ask(d, frame)
        assert r["status"] == status, hex(r["status"])
    d.run(1000 if frame is not None else 16000)
    assert led.table.credits == 0 and led.tin_step == 0 and led.tin_status == status
    assert b.validator.tickets == [(NUMBER, "R")]
    assert drain(d) == [0x68]
    r = ask(d, status_frame())
    assert (r["status"], r["validation"]) == (status, NUMBER)
    assert led.meters.get("tickets_in_n") == 0
    check(d)


def test_a_ticket_the_host_refuses_goes_back(tmp_path):
    _refused(str(tmp_path), 92, redeem_frame(0x84), 0x80)        # already redeemed


def test_a_redemption_for_another_number_is_refused(tmp_path):
    _refused(str(tmp_path), 93, redeem_frame(0x00, number="123456789012345679"), 0x81)


def test_restricted_credits_are_not_taken(tmp_path):
    _refused(str(tmp_path), 94, redeem_frame(0x01), 0x82)


def test_a_ticket_over_the_credit_limit_goes_back(tmp_path):
    def limit(b, d):
        assert d.ctl.store.set_config(b.clock.now(), "credit_limit", "20") == 0
    _refused(str(tmp_path), 95, redeem_frame(0x00), 0x84, limit)


def test_a_ticket_the_host_never_answers_goes_back_after_15_s(tmp_path):
    _refused(str(tmp_path), 96, None, 0x88)


def test_with_sas_off_a_ticket_is_given_back_at_once(tmp_path):
    tmp = str(tmp_path)
    b, d = cabinet(tmp, 97)
    st = d.ctl.store
    assert st.set_config(b.clock.now(), "sas_address", "0") == 0
    d.run(100)
    total = st.ledger.events.total
    assert b.insert_ticket(NUMBER)
    d.run(1000)
    assert b.validator.tickets == [(NUMBER, "R")] and st.ledger.tin_number == 0
    assert st.ledger.events.total == total                      # nothing journalled
    # SAS on again: a barcode that is no 18-digit validation number goes back too
    assert st.set_config(b.clock.now(), "sas_address", str(ADDR)) == 0
    d.run(100)
    total = st.ledger.events.total
    assert b.insert_ticket("12345")
    d.run(1000)
    assert b.validator.tickets[-1] == ("12345", "R") and st.ledger.tin_number == 0
    assert st.ledger.events.total == total


class Host:
    """A casino system polling the cabinet: general polls, and each 67
    answered by 70 then 71 (redeem for CENTS)."""

    def __init__(self, d):
        self.d = d
        self.redeemed = 0

    def run(self, ms):
        d = self.d
        end = d.t + ms
        while d.t < end:
            poll(d, [0x80 | (ADDR + 1)])
            r = poll(d, [0x80 | ADDR])
            if r == bytes((0x67,)):
                poll(d, [0x80 | (ADDR + 1)])           # implied ACK
                a = poll(d, [ADDR, 0x70])
                if a and decode([ADDR, 0x70], a)["status"] == 0x00:
                    self.redeemed += 1
                    poll(d, redeem_frame(0x00))


def _cut_run(tmp, seed, cut_ms=None, cut_ops=None):
    b, d = cabinet(tmp, seed)
    host = Host(d)
    host.run(100)
    assert b.insert_ticket(NUMBER)
    try:
        if cut_ops is not None:
            b.flash.cut_after(cut_ops)
        host.run(cut_ms if cut_ms is not None else 2500)
    except PowerCut:
        pass
    b.validator.close()
    b.flash.power_on()
    b2, d2 = cabinet(tmp, seed + 1, flash=b.flash)
    Host(d2).run(2500)
    return b2, d2


def _settled(d, tmp, label):
    led = d.ctl.store.ledger
    mv = moves(tmp)
    done = [m for m in mv if m in ("S", "R")]
    assert len(done) == 1, (label, mv)                         # stacked or given back, once
    credited = CENTS if done[0] == "S" else 0
    assert led.table.credits == credited, (label, mv, led.table.credits)
    assert led.meters.get("tickets_in") == credited, (label, mv)
    assert led.meters.get("tickets_in_n") == (1 if credited else 0), (label, mv)
    assert led.tin_step == 0 and d.board.validator.state == V.IDLE, (label, mv)
    if led.tin_number:                    # journalled: its status says how it ended
        assert led.tin_number == int(NUMBER), label
        assert led.tin_status == (0x00 if credited else 0x87), (label, mv, led.tin_status)
    else:                                 # cut before the journal knew it: given back
        assert not credited, (label, mv)
    check(d)
    return done[0]


def test_power_cut_at_every_moment_of_a_redemption(tmp_path):
    """Cut every 20 ms from the insertion to after the credit."""
    seen = set()
    for k, ms in enumerate(range(0, 1400, 20)):
        tmp = str(tmp_path / str(k))
        os.mkdir(tmp)
        b, d = _cut_run(tmp, 400 + 2 * k, cut_ms=ms)
        seen.add(_settled(d, tmp, ms))
    assert seen == {"S", "R"}                     # both sides of the stack order were hit


def test_power_cut_at_every_flash_operation_of_a_redemption(tmp_path):
    seen = set()
    for n in range(1, 60):
        tmp = str(tmp_path / str(n))
        os.mkdir(tmp)
        b, d = _cut_run(tmp, 600 + 2 * n, cut_ops=n)
        assert not d.ctl.store.critical, n
        seen.add(_settled(d, tmp, n))
    assert seen == {"S", "R"}


def test_the_ledger_takes_the_steps_in_order_and_a_snapshot_keeps_them():
    from firmware.store.ledger import Ledger
    from firmware.store import snapshot
    n = int(NUMBER)
    a = Ledger()
    TI = T.TICKET_IN
    assert a.apply(T.pack(TI, 1, T.TI_AUTH, n, CENTS)) != 0              # nothing pending
    assert a.apply(T.pack(TI, 1, T.TI_PENDING, 10 ** 18, 0)) != 0        # 19 digits
    assert a.apply(T.pack(TI, 1, T.TI_PENDING, n, 0)) == 0
    assert a.apply(T.pack(TI, 1, T.TI_PENDING, n + 1, 0)) != 0           # one at a time
    assert a.apply(T.pack(TI, 2, T.TI_STACKED, n, CENTS)) != 0           # not before AUTH
    assert a.apply(T.pack(TI, 2, T.TI_AUTH, n + 1, CENTS)) != 0          # another ticket
    assert a.apply(T.pack(TI, 2, T.TI_AUTH, n, CENTS)) == 0
    assert a.apply(T.pack(TI, 2, T.TI_REJECT, n, 0x80)) != 0             # spoken already
    assert a.money_on_table()
    c = Ledger()
    assert snapshot.load(c, [a.encode()]) == 0
    assert (c.tin_step, c.tin_number, c.tin_amount, c.tin_status) == \
        (T.TI_AUTH, n, CENTS, T.TS_PENDING)
    assert c.apply(T.pack(TI, 3, T.TI_STACKED, n, CENTS - 1)) != 0       # not its amount
    assert c.apply(T.pack(TI, 3, T.TI_STACKED, n, CENTS)) == 0
    assert c.table.credits == CENTS and c.meters.get("tickets_in_n") == 1
    assert c.apply(T.pack(TI, 3, T.TI_STACKED, n, CENTS)) != 0           # never twice
    assert c.balance_check() == 0


def test_50_validation_meters_count_tickets_out_and_in(tmp_path):
    """Long poll 50 (15.9): count and cents by validation type; the cabinet
    prints cashable tickets at a cash out (00) and redeems cashable tickets
    (80); a type it never handles (10: handpay receipt) answers zeros."""
    b, d = cabinet(str(tmp_path), 92)
    drain(d)
    assert b.insert_ticket(NUMBER)
    d.run(500)
    drain(d)
    assert ask(d, redeem_frame(0x00))["status"] == 0x40
    d.run(1000)
    assert d.ctl.store.ledger.table.credits == CENTS
    d.press("CASHOUT")
    d.run(1500)
    assert b.printer.tickets and "AMOUNT $25.00" in b.printer.tickets[-1]
    got = {t: ask(d, with_crc([ADDR, 0x50, t])) for t in (0x00, 0x80, 0x10, 0x01)}
    assert (got[0x00]["count"], got[0x00]["amount"]) == (1, CENTS)
    assert (got[0x80]["count"], got[0x80]["amount"]) == (1, CENTS)
    assert (got[0x10]["count"], got[0x10]["amount"]) == (0, 0)
    assert (got[0x01]["count"], got[0x01]["amount"]) == (0, 0)
    check(d)
