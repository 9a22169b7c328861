"""SAS 7B / 7C / 7D: what the host sets for the tickets the cabinet prints
(SAS 6.02 section 15), every answer through tests_host/sas_spec.py (the
decoder written from the spec tables), over the mock board's line driving
the real controller; kept across a power cut (the same flash, a new
cabinet)."""
from firmware.store import ledger as L
from sas_spec import with_crc, bcd
from test_sas_floor import ADDR, ask, synced, drain
from test_ticket_in import cabinet, NUMBER


def _7c(*elements):
    body = []
    for code, text in elements:
        body += [code, len(text)] + list(text.encode())
    return with_crc([ADDR, 0x7C, len(body)] + body)


def _7d(expire, *texts, host=0x0102):
    body = [host & 0xFF, host >> 8, expire]
    for t in texts:
        body += [len(t)] + list(t.encode())
    return with_crc([ADDR, 0x7D, len(body)] + body)


def _7b(mask=0, bits=0, days=0, restricted=0):
    body = [mask & 0xFF, mask >> 8, bits & 0xFF, bits >> 8] + list(bcd(days, 2)) \
        + list(bcd(restricted, 2))
    return with_crc([ADDR, 0x7B, len(body)] + body)


def _cash_out(b, d, dollars=5):
    d.bill(dollars)
    d.press("CASHOUT")
    d.run(1500)
    assert b.printer.tickets, "no ticket printed"
    return "\n".join(b.printer.tickets[-1]) + "\n"


def test_7c_location_and_address_lines_print_on_tickets_across_a_power_cut():
    b, d = synced(seed=41)
    r = ask(d, _7c((0x00, "GOLDEN DOME CASINO"), (0x01, "1 MAIN ST"), (0x02, "RENO NV"),
                   (0x10, "PLAY ONLY")))
    assert r["flag"] == 1
    # a code Table 15.3c does not have, or a text over 40: refused, nothing set
    assert ask(d, _7c((0x00, "OTHER"), (0x05, "X")))["flag"] == 0
    assert ask(d, _7c((0x01, "Y" * 41)))["flag"] == 0
    b2, d2 = synced(seed=42, flash=b.flash)           # power cut
    text = _cash_out(b2, d2)
    assert "GOLDEN DOME CASINO\n1 MAIN ST\nRENO NV\n" in text, text
    assert "OTHER" not in text and "PLAY ONLY" not in text
    # the same data again writes nothing to the journal
    before = d2.ctl.store.journal.seq
    assert ask(d2, _7c((0x00, "GOLDEN DOME CASINO")))["flag"] == 1
    assert d2.ctl.store.journal.seq == before


def test_7d_sets_the_expiration_the_ticket_prints_and_4d_reports():
    b, d = synced(seed=43)
    assert ask(d, _7d(7, "RIVER HALL", "", "ELKO NV"))["flag"] == 1
    b2, d2 = synced(seed=44, flash=b.flash)           # power cut
    text = _cash_out(b2, d2)
    assert "VOID AFTER 7 DAYS" in text and "RIVER HALL\nELKO NV\n" in text, text
    t = ask(d2, with_crc([ADDR, 0x4D, 0xFF]))
    assert t["expiration"] == 7 and t["amount"] == 500
    # 00: never expires; a field left out keeps its text
    assert ask(d2, _7d(0))["flag"] == 1
    text = _cash_out(b2, d2)
    assert "NO EXPIRATION" in text and "RIVER HALL" in text, text
    assert ask(d2, with_crc([ADDR, 0x4D, 0xFF]))["expiration"] == 9999
    # a length running past the data: refused, nothing changed
    bad = with_crc([ADDR, 0x7D, 5, 0, 0, 3, 10, 0x41])
    assert ask(d2, bad)["flag"] == 0
    assert d2.ctl.store.ledger.config["ticket_expiry"] == 9999


def test_7b_status_bits_and_expiration():
    b, d = synced(seed=45)
    r = ask(d, _7b())                                 # mask 0: reads only
    assert r["status_bits"] == 0x8021 and r["cashable_days"] == 30
    assert (r["asset"], r["restricted_days"]) == (0, 0)
    # bits the cabinet does not have (1-4, 15) cannot be set or cleared
    r = ask(d, _7b(mask=0xFFFF, bits=0x001E, days=90))
    assert r["status_bits"] == 0x8000 and r["cashable_days"] == 90
    b2, d2 = synced(seed=46, flash=b.flash)           # power cut
    assert ask(d2, _7b())["status_bits"] == 0x8000
    # printer not the cash out device: a cash out is a handpay
    d2.bill(5)
    d2.press("CASHOUT")
    d2.run(1500)
    assert not b2.printer.tickets and d2.ctl.store.ledger.lock == L.LK_HANDPAY
    assert ask(d2, _7b(mask=0x0001, bits=0x0001, days=9999))["status_bits"] == 0x8001
    assert ask(d2, _7b())["cashable_days"] == 9999
    bad = with_crc([ADDR, 0x7B, 8, 0, 0, 0, 0, 0x0A, 0, 0, 0])    # BCD nibble A
    assert ask(d2, bad) == {"ack": False}


def test_7b_ticket_redemption_off_gives_tickets_back(tmp_path):
    b, d = cabinet(str(tmp_path), 47)
    drain(d)
    assert ask(d, _7b(mask=0x0020, bits=0))["status_bits"] == 0x8001
    assert drain(d) == [0x3C]                     # options changed (by the host)
    assert b.insert_ticket(NUMBER)
    d.run(1000)
    # given back at once: no 67, nothing journalled, nothing credited
    assert d.ctl.store.ledger.tin_step == 0 and drain(d) == []
    assert b.validator.tickets == [(NUMBER, "R")] and d.ctl.store.ledger.table.credits == 0
    assert ask(d, _7b(mask=0x0020, bits=0x0020))["status_bits"] == 0x8021


def test_a0_reports_validation_extensions():
    """A host reads A0 to know 7B/7C/7D are there: features 1, bit 4
    (Table 7.14c), with secure-enhanced validation and redemption."""
    b, d = synced(seed=48)
    for game in (0, 1):
        a = ask(d, with_crc([ADDR, 0xA0] + list(bcd(game, 2))))
        assert a["features1"] & 0x10 == 0x10 and a["features1"] & 0xE0 == 0xC0
