"""SAS as a floor integrator meets it (issue 23): every answer here goes
through tests_host/sas_spec.py, a strict decoder written from the SAS 6.02
tables (not from firmware/sas), over the in-memory line of the mock board
driving the real controller. test_sas_host.py runs polls through a host
library (sas-comm-py) over the simulator's pty."""
import pytest

from firmware.rules import wagers as W
from firmware.store import ledger as L
from firmware import version
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
    # the handpay queue (7.8.1): the entry leaves once 52 is acknowledged
    assert _handpay_1b(d)["amount"] == 500
    # 51 never went: 1B read the handpay first; 52 goes before the queue (2.2.1)
    assert drain(d) == [0x52, 0x3C, 0x48]          # then options changed, the $5 bill
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


# ---- link-up discovery ----------------------------------------------------------
def test_nothing_is_answered_before_a_poll_to_another_address():
    """Start-up synchronisation: a machine that has not yet seen a poll to
    another address (where the host's messages begin) answers nothing; a
    general poll to address 0 (80) counts as one."""
    b, d = make(seed=25, sas="loop")
    d.run(100)
    assert poll(d, [0x80 | ADDR]) == b""
    assert poll(d, [ADDR, 0x54]) == b""
    assert poll(d, [0x80]) == b""                # the host's sync: not for us
    assert ask(d, [0x80 | ADDR])["exception"] == 0x18     # power lost, now reported
    assert ask(d, [ADDR, 0x54])["version"] == "602"


def test_chirps_after_5_s_without_a_poll_and_stops_when_polled():
    """Loop break: no poll on the line for 5 s, the machine sends its
    address alone every 200 ms until the host polls again."""
    b, d = synced(seed=26)
    sas = d.board.sas
    poll(d, [0x80 | (ADDR + 1)])
    d.run(4800)
    assert sas.host_read() == b""
    d.run(1000)                                   # 5.0 s to 5.8 s: chirps at 5.0 5.2 ...
    out = sas.host_read()
    assert 4 <= len(out) <= 5 and set(out) == {ADDR}, out.hex()
    assert ask(d, [ADDR, 0x51])["games"] == 1     # the host is back: answered
    for _ in range(8):                            # a host polling every second
        poll(d, [0x80 | (ADDR + 1)])
        d.run(1000)
        assert sas.host_read() == b""
    # SAS off (address 0): silent, however long
    assert d.ctl.store.set_config(b.clock.now(), "sas_address", "0") == 0
    d.run(12000)
    assert sas.host_read() == b""


def test_link_up_discovery_a0_1f_51_to_56():
    b, d = synced(seed=27)
    cfg = d.ctl.store.ledger.config
    m = ask(d, [ADDR, 0x1F])
    assert (m["game_id"], m["additional_id"], m["denomination"]) == \
        ("BC", version.sas_id(), 0x01)
    assert m["paytable"] == (cfg["profile"].upper() + "      ")[:6]
    assert m["max_bet"] == (min(255, cfg["max_bet"] * 100) if cfg["max_bet"] else 255)
    assert m["progressive_group"] == 0 and m["options"] == 0
    # a single-game machine: one game, 0001, selected and enabled; 0000 is the machine
    assert ask(d, [ADDR, 0x51])["games"] == 1
    assert ask(d, [ADDR, 0x55])["game"] == 1
    assert ask(d, [ADDR, 0x56])["games"] == [1]
    for game in (0, 1):
        g = ask(d, with_crc([ADDR, 0x53] + list(bcd(game, 2))))
        assert g.pop("game") == game and g.pop("cmd") == 0x53
        assert g == dict((k, v) for k, v in m.items() if k != "cmd")
        a = ask(d, with_crc([ADDR, 0xA0] + list(bcd(game, 2))))
        assert a["game"] == game
        assert a["features1"] & 0x60 == 0x40           # secure-enhanced validation
        assert a["features1"] & 0x80 == 0x80           # ticket redemption (70/71)
        assert a["features2"] & 0x03 == 0x01           # won credits metered when won
        assert a["features2"] & 0x0C == 0x0C           # tickets in drop/cancelled; 6F/AF
        assert a["features2"] & 0x40 == 0x40           # AFT (in-house transfers)
        assert meters_2f(d, (0x0C,)) == {0x0C: 0}
    r = ask(d, with_crc([ADDR, 0x2F, 3, 0x00, 0x01, 0x0C]))
    assert r["game"] == 1 and r["meters"] == {0x0C: 0}
    # a game this machine does not have: no answer (the host polls again)
    for frame in ([ADDR, 0x53, 0x00, 0x02], [ADDR, 0xA0, 0x00, 0x02],
                  [ADDR, 0x2F, 3, 0x00, 0x02, 0x0C]):
        assert poll(d, with_crc(frame)) == b""
    v = ask(d, [ADDR, 0x54])
    assert v["version"] == "602" and v["serial"] == d.ctl.identity()["serial"]


def test_every_meter_poll_equals_the_cabinets_meters():
    """0F-20 decoded from the tables, each against the ledger's own meters
    (the mapping in firmware/sas/meters.py's docstring, worked out here
    again), after a session with a bill, a coin, games and a ticket."""
    b, d = synced(seed=28)
    st = d.ctl.store
    d.bill(20)
    d.bill(5)
    d.coin(1)
    d.board.door.set(1)
    d.run(300)
    d.board.door.set(0)
    d.run(300)
    d.press("BET_UP", 2)
    while True:
        assert d.roll()
        if not st.ledger.table.on_table():
            break
    d.press("CASHOUT")
    d.run(1500)
    m = st.ledger.meters.get
    assert m("tickets") == 1 and m("games") >= 1
    coin_in = m("wagered") + m("vig")
    coin_out = m("won") + m("returned") - m("jackpot")
    cancelled = m("total_out") - m("jackpot")
    drop, jackpot, games = m("total_in"), m("jackpot"), m("games")
    want = {
        0x0F: dict(cancelled=cancelled, coin_in=coin_in, coin_out=coin_out, drop=drop,
                   jackpot=jackpot, games=games),
        0x10: dict(cancelled=cancelled), 0x11: dict(coin_in=coin_in),
        0x12: dict(coin_out=coin_out), 0x13: dict(drop=drop), 0x14: dict(jackpot=jackpot),
        0x15: dict(games=games), 0x16: dict(won=m("games_won")),
        0x17: dict(lost=m("games_lost")), 0x1A: dict(credits=st.ledger.table.credits),
        0x18: dict(since_power=m("games_power"), since_door=m("games_door")),
        0x19: dict(coin_in=coin_in, coin_out=coin_out, drop=drop, jackpot=jackpot, games=games),
        0x1C: dict(coin_in=coin_in, coin_out=coin_out, drop=drop, jackpot=jackpot, games=games,
                   won=m("games_won"), door_opens=m("door_opens"),
                   power_resets=m("power_ups")),
        0x1E: dict(bills_1=m("bills_1"), bills_5=m("bills_5"), bills_10=m("bills_10"),
                   bills_20=m("bills_20"), bills_50=m("bills_50"), bills_100=m("bills_100")),
        0x20: dict(bill_dollars=m("bills_in") // 100),
    }
    for cmd, fields in want.items():
        r = ask(d, [ADDR, cmd])
        assert dict((k, r[k]) for k in fields) == fields, "%02X %r" % (cmd, r)
    assert want[0x1E]["bills_20"] == 1 and want[0x1C]["door_opens"] >= 1
    assert drop == 2600                            # $20 + $5 + a $1 coin
    assert cancelled == drop - st.ledger.table.credits + coin_out - coin_in
    # secure-enhanced validation: never waiting for a system validation number
    assert ask(d, [ADDR, 0x57]) == {"cmd": 0x57, "status": 0x80, "amount": 0}
    assert ask(d, with_crc([ADDR, 0x58, 0x00] + [0] * 8))["status"] == 0x80


def test_07_disables_and_06_enables_the_bill_acceptor_across_a_power_cut():
    b, d = synced(seed=29)
    assert ask(d, with_crc([ADDR, 0x07])) == {"ack": True}
    d.run(100)
    assert b.money.inhibited and not b.insert_bill(5)
    b2, d2 = synced(seed=30, flash=b.flash)           # power cut: still disabled
    d2.run(100)
    assert b2.money.inhibited
    assert ask(d2, with_crc([ADDR, 0x06])) == {"ack": True}
    d2.run(100)
    assert not b2.money.inhibited and b2.insert_bill(5)
    d2.run(2000)
    assert d2.ctl.store.ledger.table.credits == 500


def test_tickets_print_the_time_the_host_set_with_no_zone():
    """7F sets the casino's local time: a ticket prints it as set, not
    labelled UTC (it is not)."""
    b, d = synced(seed=24)
    date, tm = bcd(3152030, 4), bcd(94500, 3)        # 03/15/2030 09:45:00
    assert ask(d, with_crc([ADDR, 0x7F] + list(date) + list(tm))) == {"ack": True}
    d.bill(5)
    d.press("CASHOUT")
    d.run(1500)
    lines = b.printer.tickets[-1]
    assert "2030-03-15 09:45" in lines and not any("UTC" in x for x in lines), lines
