"""SAS as a floor integrator meets it (issue 23): every answer here goes
through tests_host/sas_spec.py, a strict decoder written from the SAS 6.02
tables (not from firmware/sas), over the in-memory line of the mock board
driving the real controller. test_sas_host.py runs polls through a host
library (sas-comm-py) over the simulator's pty."""
import pytest

from firmware.rules import wagers as W
from firmware.store import ledger as L
from sas_spec import decode, with_crc, bcd, Bad
from test_e2e_session import make

ADDR = 1


def poll(d, frame, ms=20):
    """The host's frame on the line (wakeup bit on its first byte); the
    cabinet's answer after `ms`."""
    sas = d.board.sas
    sas.host_read()
    sas.host_send(bytes(frame))
    d.run(ms)
    return sas.host_read()


def ask(d, frame):
    """A poll and its decoded answer (sas_spec.decode)."""
    frame = bytes(frame)
    return decode(frame, poll(d, frame))


def synced(seed=1, **kw):
    """A cabinet on a SAS line whose host has polled another address (the
    start-up synchronisation) and read every exception there was."""
    b, d = make(seed=seed, sas="loop", **kw)
    poll(d, [0x80 | (ADDR + 1)])
    drain(d)
    return b, d


def drain(d, limit=80):
    """Exceptions in order, each acknowledged by a poll to another address."""
    got = []
    for _ in range(limit):
        r = ask(d, [0x80 | ADDR])
        poll(d, [0x80 | (ADDR + 1)])
        if r["exception"] == 0:
            return got
        got.append(r["exception"])
    raise AssertionError("exceptions never ran out: %r" % got)


def meters_2f(d, codes):
    r = ask(d, with_crc([ADDR, 0x2F, 2 + len(codes), 0, 0] + list(codes)))
    assert r["game"] == 0
    return r["meters"]


# ---- defects ------------------------------------------------------------------
def test_2f_answers_every_meter_asked_for():
    """Defect 1: a 48-byte buffer cut 2F after 8 of 10 meters and 6F/AF
    after 5 of 12."""
    b, d = synced(seed=21)
    d.bill(20)
    codes = (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0C, 0x24)
    got = meters_2f(d, codes)
    assert sorted(got) == sorted(codes)
    assert got[0x0C] == 2000 and got[0x24] == 2000
    wide = (0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0C, 0x24, 0x0B, 0x22)
    for cmd in (0x6F, 0xAF):
        data = []
        for c in wide:
            data += [c, 0]
        r = ask(d, with_crc([ADDR, cmd, 2 + len(data), 0, 0] + data))
        assert sorted(r["meters"]) == sorted(wide) and r["meters"][0x0B] == 2000


def test_6f_fills_the_answer_to_its_length_byte_and_no_further():
    b, d = synced(seed=22)
    data = []
    for _ in range(40):                          # 40 x 8 bytes would not fit 255
        for c in (0x00, 0x05):
            data += [c, 0]
    r = poll(d, with_crc([ADDR, 0x6F, 2 + len(data), 0, 0] + data), 100)
    assert r[2] == len(r) - 5 <= 255
    with pytest.raises(Bad):                     # the same code twice: kept out once
        decode(with_crc([ADDR, 0x6F, 2 + len(data), 0, 0] + data), r)


def _handpay_1b(d):
    return ask(d, [ADDR, 0x1B])


def cash_out_to_a_handpay(d):
    """$5 in, then CASHOUT over a $3 handpay limit: a cancelled-credit
    handpay, the cabinet locked for the attendant."""
    st = d.ctl.store
    assert st.set_config(d.ctl.now_s(), "handpay_limit", "3") == 0
    d.bill(5)
    d.press("CASHOUT")
    d.run(300)
    assert st.ledger.lock == L.LK_HANDPAY


def test_1b_levels_cancelled_credits_80_and_top_award_40():
    """Defect 2: a cancelled-credit handpay was reported at level 40 (the
    non-progressive top award); it is level 80."""
    b, d = synced(seed=23)
    st = d.ctl.store
    cash_out_to_a_handpay(d)
    r = _handpay_1b(d)
    assert (r["level"], r["amount"], r["reset_id"]) == (0x80, 500, 0)
    assert st.reset(b.clock.now()) == 0
    assert _handpay_1b(d)["amount"] == 0
    # a win over the jackpot limit: the non-progressive top award, 40
    assert st.set_config(b.clock.now(), "jackpot_limit", "1") == 0
    d.bill(20)
    assert st.bet(b.clock.now(), W.PASS, 500) == 0
    d.command("dice 3 4")
    assert d.roll()
    assert st.ledger.lock == L.LK_JACKPOT
    r = _handpay_1b(d)
    assert (r["level"], r["amount"]) == (0x40, 500)


def test_meters_are_cents_and_reconcile_with_the_ticket():
    """Defect 3: at $1 accounting a $1 place-6 win of $1.16 then a cashout
    printed a $21.16 ticket while cancelled credits said 21."""
    b, d = synced(seed=24)
    st = d.ctl.store
    d.bill(20)
    assert st.bet(b.clock.now(), W.PLACE, 100, 6) == 0
    assert st.working(b.clock.now(), W.PLACE, 6, True) == 0     # on the come-out too
    d.command("dice 3 3")
    assert d.roll()
    led = st.ledger
    assert led.table.credits == 2016, led.table.credits          # 7:6 on $1 is $1.16
    d.press("CASHOUT")
    d.run(1500)
    assert b.printer.tickets and "AMOUNT $21.16" in b.printer.tickets[-1]
    m = meters_2f(d, (0x04, 0x24, 0x00, 0x01, 0x0C, 0x0E, 0x86, 0x16))
    assert m[0x04] == 2116 and m[0x0E] == 2116 and m[0x86] == 2116 and m[0x16] == 2116
    assert m[0x24] == 2000 and m[0x0C] == 0
    # SAS's own balance holds to the cent: credits = drop - cancelled + out - in
    assert m[0x0C] == m[0x24] - m[0x04] + m[0x01] - m[0x00]
    assert ask(d, [ADDR, 0x10])["cancelled"] == 2116
    t = ask(d, with_crc([ADDR, 0x4D, 0xFF]))
    assert t["amount"] == 2116
    info = ask(d, [ADDR, 0x1F])
    assert info["denomination"] == 0x01          # Table C-4: $0.01
