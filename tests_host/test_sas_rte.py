"""Real-time event reporting (long poll 0E, SAS 6.02 section 12) as a host
meets it: every answer through tests_host/sas_spec.py, the decoder written
from the SAS tables, over the mock board's line driving the real
controller."""
from firmware.rules import wagers as W
from sas_spec import decode, with_crc
from test_sas_floor import ADDR, ask, drain, poll, synced, meters_2f

GP = [0x80 | ADDR]
OTHER = [0x80 | (ADDR + 1)]


def rte(d, on):
    return ask(d, with_crc([ADDR, 0x0E, 1 if on else 0]))


def events(d, limit=20):
    """Events in order, each acknowledged by a poll to another address,
    until a general poll gets no answer (12.6: no 00 in this mode)."""
    got = []
    for _ in range(limit):
        raw = poll(d, GP)
        if raw == b"":
            return got
        r = decode(GP, raw)
        assert r["rte"]
        got.append(r)
        poll(d, OTHER)
    raise AssertionError("events never ran out: %r" % got)


def test_0e_reports_events_with_their_data_then_plain_exceptions_again():
    """Before: 0E was ignored (no answer) and exceptions stayed one byte."""
    b, d = synced(seed=41)
    assert rte(d, True) == {"ack": True}
    assert poll(d, GP) == b""                              # nothing: no 00 (12.6)
    d.bill(20)
    st = d.ctl.store
    assert st.bet(b.clock.now(), W.PASS, 500) == 0
    d.command("dice 3 4")
    assert d.roll()
    got = events(d)
    assert [r["exception"] for r in got] == [0x4F, 0x7E, 0x7F]
    bill, start, end = got
    assert (bill["country"], bill["denomination"], bill["count"]) == (0x37, 0x04, 1)  # C-5 US, C-6 $20
    m = meters_2f(d, (0x00, 0x22))
    assert (start["wagered"], start["coin_in"], start["wager_type"]) == (500, m[0x00], 0)
    assert end["win"] == m[0x22] == 500                    # the $5 pass paid even money
    # disabled: the one-byte exception again, 00 when there is none
    assert rte(d, False) == {"ack": True}
    d.bill(5)
    assert drain(d) == [0x48]
    assert ask(d, GP) == {"exception": 0}
    assert ask(d, with_crc([ADDR, 0x0E, 0x02])) == {"ack": False}   # neither 00 nor 01


def test_an_event_goes_before_a_long_polls_answer():
    """12.3: with an event pending a long poll gets the event; the host
    sends the long poll again (12.4) and then gets its answer."""
    b, d = synced(seed=42)
    assert rte(d, True) == {"ack": True}
    d.bill(10)
    r = ask(d, [ADDR, 0x1A])
    assert r["rte"] and r["exception"] == 0x4F and r["denomination"] == 0x03
    assert ask(d, [ADDR, 0x1A]) == {"cmd": 0x1A, "credits": 1000}
    assert poll(d, GP) == b""
    # a repeated general poll (no answer reached the host) gets the same event
    d.bill(5)
    first = poll(d, GP)
    assert poll(d, GP) == first and decode(GP, first)["denomination"] == 0x02
    poll(d, OTHER)
    assert poll(d, GP) == b""


def test_rte_is_off_after_a_power_up():
    """Not kept: a host that wants it sends 0E at link-up."""
    from test_e2e_session import make
    b, d = synced(seed=43)
    assert rte(d, True) == {"ack": True}
    b2, d2 = make(seed=43, flash=b.flash, sas="loop")
    poll(d2, OTHER)
    assert all(len(poll(d2, GP)) == 1 for _ in range(3))   # one-byte exceptions
