"""SAS pieces on their own: wire format, framer, validation numbers, ITF
bars, and the machine's queue (implied ACK/NACK, overflow, a power cut) over
the in-memory line. Plain asserts: runs on CPython and on the MicroPython
unix port. The reference algorithms here are written independently of
firmware/sas (bitwise CRC, the published secure-enhanced steps)."""
from firmware.sas import wire as Wr
from firmware.sas import validation as V
from firmware.sas import machine as X
from firmware.store import events as E
from firmware import timefmt
from hal.itf import itf_bars, barcode_bytes
from test_e2e_session import make


def kermit(data, crc=0):
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def test_crc_is_kermit():
    assert Wr.crc16(b"123456789") == 0x2189          # the CRC-16/KERMIT check value
    data = bytes(range(200))
    for seed in (0, 1, 0x1234, 0xFFFF):
        assert Wr.crc16(data, seed=seed) == kermit(data, seed)
    framed = bytearray(b"\x01\x7f\x03\x15\x20\x30\x13\x45\x00")
    c = Wr.crc16(framed)
    framed += bytes((c & 0xFF, c >> 8))
    assert Wr.crc_ok(framed, len(framed)) and not Wr.crc_ok(framed, len(framed) - 1)


def test_bcd():
    buf = bytearray(6)
    assert Wr.put_bcd(buf, 1, 12345678, 4) == 5 and bytes(buf[1:5]) == b"\x12\x34\x56\x78"
    assert Wr.get_bcd(buf, 1, 4) == 12345678
    Wr.put_bcd(buf, 0, 10 ** 10 + 42, 4)              # keeps the low 8 digits
    assert Wr.get_bcd(buf, 0, 4) == 42
    assert Wr.get_bcd(b"\x1a", 0, 1) == -1            # not a decimal digit


def _frames(framer, data, wake_at=(0,)):
    got = []
    for i in range(len(data)):
        k = framer.feed(data[i], 1 if i in wake_at else 0)
        if k:
            got.append((k, bytes(framer.buf[:framer.n])))
    return got


# what Framer.feed() returns for a complete message (firmware/sas/wire.py)
GENERAL, LONG, BROADCAST = 1, 2, 3


def test_framer():
    f = Wr.Framer(3)
    assert _frames(f, b"\x83") == [(GENERAL, b"\x83")]
    assert _frames(f, b"\x03\x1c") == [(LONG, b"\x03\x1c")]
    assert _frames(f, b"\x05\x1c") == [] and f.skip == 1        # another machine
    assert _frames(f, b"\x03\x99\x01\x02") == []                 # unknown: ignored
    body = b"\x03\x2f\x04\x00\x00\x05\x0c"
    c = Wr.crc16(body)
    whole = body + bytes((c & 0xFF, c >> 8))
    assert _frames(f, whole) == [(LONG, whole)]               # variable length
    # a wakeup byte in the middle starts over: the cut frame is dropped
    assert _frames(f, b"\x03\x7f\x01\x02\x83", wake_at=(0, 4)) == [(GENERAL, b"\x83")]
    assert _frames(f, b"\x00\x7f" + bytes(9)) == [(BROADCAST, b"\x00\x7f" + bytes(9))]
    off = Wr.Framer(0)
    assert _frames(off, b"\x80") == [] and _frames(off, b"\x00\x7f") == []


def reference_number(vid, seq):
    """SAS 6.02 15.15 step by step, as an independent implementation."""
    a = [(seq >> 0) & 255, (seq >> 8) & 255, (seq >> 16) & 255,
         (vid >> 0) & 255, (vid >> 8) & 255, (vid >> 16) & 255]
    b = [a[0], a[1], a[2] ^ a[0], a[3] ^ a[1], a[4] ^ a[0], a[5] ^ a[1]]
    c = []
    for i in (0, 2, 4):
        crc = kermit(bytes(b[i:i + 2]))
        c += [crc & 255, crc >> 8]
    n0 = c[3] + (c[4] << 8) + (c[5] << 16)
    n1 = c[0] + (c[1] << 8) + (c[2] << 16)
    digits = [int(x) for x in ("%08d" % n0) + ("%08d" % n1)]
    digits[0] += (sum(digits[0:8]) % 5) * 2
    digits[8] += (sum(digits[8:16]) % 5) * 2
    return "00" + "".join(str(x) for x in digits)


def test_validation_numbers():
    assert V.number(0x654321, 1) == reference_number(0x654321, 1)
    x = 12345
    seen = set()
    for _ in range(300):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        vid, seq = (x >> 3) & 0xFFFFFF or 1, x & 0xFFFFFF
        n = V.number(vid, seq)
        assert n == reference_number(vid, seq) and len(n) == 18 and n.isdigit()
    for seq in range(1, 500):                          # one ID: no number twice
        n = V.number(0x00ABCD, seq)
        assert n not in seen
        seen.add(n)


def test_itf_bars_decode_back():
    digits = "006429188185446104"
    bars = itf_bars(digits)
    assert bars.startswith("1010") and bars.endswith("11101")
    runs = []
    i = 4
    end = len(bars) - 5
    while i < end:
        j = i
        while j < end and bars[j] == bars[i]:
            j += 1
        runs.append(j - i)
        i = j
    assert len(runs) == 10 * len(digits) // 2 and set(runs) <= {1, 3}
    table = ("nnwwn", "wnnnw", "nwnnw", "wwnnn", "nnwnw", "wnwnn", "nwwnn", "nnnww",
             "wnnwn", "nwnwn")
    out = ""
    for k in range(0, len(runs), 10):
        pair = runs[k:k + 10]
        out += str(table.index("".join("w" if r == 3 else "n" for r in pair[0::2])))
        out += str(table.index("".join("w" if r == 3 else "n" for r in pair[1::2])))
    assert out == digits
    assert barcode_bytes(digits).endswith(b"\x1dk\x46\x12" + digits.encode())
    for bad in ("123", "12a4"):
        try:
            itf_bars(bad)
            raise AssertionError("accepted " + bad)
        except ValueError:
            pass


def test_unix_time_round_trip():
    for t in (0, 951782400, 1767225600, 1709164800, 4102444799):
        assert timefmt.unix(*timefmt.civil(t)) == t


def _poll(d, data):
    d.board.sas.host_read()                 # what came before (a chirp) is not the answer
    d.board.sas.host_send(data)
    d.run(20)
    return d.board.sas.host_read()


def hosted(seed, **kw):
    """A cabinet on the in-memory SAS line, its host past the start-up
    synchronisation (a poll to another address; nothing is answered before)."""
    b, d = make(seed=seed, sas="loop", **kw)
    _poll(d, b"\x82")
    return b, d


def test_queue_ack_nack_and_power_cut():
    b, d = hosted(3)
    sas = d.ctl.sas
    assert _poll(d, b"\x81") == b"\x18"                 # power lost...
    assert _poll(d, b"\x81") == b"\x18"                 # same poll again: a NACK
    assert _poll(d, b"\x82") == b""                     # another machine: an ACK
    assert _poll(d, b"\x81") == b"\x17"                 # ...power applied
    assert _poll(d, b"\x01\x1a")[:2] == b"\x01\x1a"     # a long poll also ACKs
    assert _poll(d, b"\x81") == b"\x3c"                 # the test's bet timer setting
    assert _poll(d, b"\x82") == b""
    assert _poll(d, b"\x81") == b"\x00"
    b.door.set(1)
    d.run(300)
    b.door.set(0)
    d.run(300)
    assert sas.pending() == b"\x11\x12"
    assert _poll(d, b"\x81") == b"\x11"
    assert _poll(d, b"\x82") == b""                     # 11 acknowledged
    d.run(1500)                                          # the acknowledgement is journalled
    acked = d.ctl.store.ledger.sas_ack
    assert acked and d.ctl.store.ledger.events.get(0)[0] >= acked
    # power cut: 12 was never acknowledged, so it comes again, then 18 17
    b2, d2 = hosted(4, flash=b.flash)
    d2.run(20)
    assert d2.ctl.sas.pending() == b"\x12\x18\x17"


def test_polls_the_host_gave_up_on_get_no_answer():
    # The line was not read for longer than the host waits: a long poll and the
    # general poll the host sent after giving up on it wait together. Only the
    # newest is answered (both would reach the host as a 9-byte answer to its
    # general poll); the stale long poll still acknowledges the 18 before it.
    b, d = hosted(seed=3)
    assert _poll(d, b"\x81") == b"\x18"
    b.sas.host_send(b"\x01\x1a")
    b.sas.host_send(b"\x81")
    d.run(20)
    assert b.sas.host_read() == b"\x17"
    b.sas.host_send(b"\x81")                           # a stale general poll: no answer,
    b.sas.host_send(b"\x01\x1a")                       # the long poll after it answered
    d.run(20)
    got = b.sas.host_read()
    assert got[:2] == b"\x01\x1a" and len(got) == 8 and kermit(got) == 0
    assert _poll(d, b"\x81") == b"\x3c"                 # and it acknowledged the 17


def test_queue_overflow_reports_70():
    b, d = hosted(5)
    sas = d.ctl.sas
    for i in range(40):
        sas.push(0x7E)                                  # game start
    assert sas.full and len(sas.pending()) == 32
    assert _poll(d, b"\x81") == b"\x70"                 # exception buffer overflow
    assert _poll(d, b"\x82") == b""
    assert _poll(d, b"\x81") != b"\x70"


def test_every_mapped_event_is_an_event():
    # X.BY_EVENT is two bytes an event by event code (a bytes table since the
    # heap work of issue 12; it was a dict {event: exceptions}): it covers
    # real events only and says what SAS 6.02 Appendix A says, event by event
    want = {
        E.DOOR_OPEN: b"\x11", E.DOOR_CLOSE: b"\x12", E.LOGIC_OPEN: b"\x15",
        E.LOGIC_CLOSE: b"\x16", E.CASHBOX_OPEN: b"\x19", E.CASHBOX_CLOSE: b"\x1a",
        E.POWER_UP: b"\x18\x17", E.TILT: b"\x20", E.MALFUNCTION: b"\x20",
        E.SHAKER_FAULT: b"\x20", E.REPAIRED: b"\x31", E.CRITICAL: b"\x32",
        E.RAM_CLEAR: b"\x3a", E.CONFIG: b"\x3c", E.CASHOUT: b"\x3d", E.HANDPAY: b"\x51",
        E.JACKPOT: b"\x51", E.HANDPAY_RESET: b"\x52", E.PRINTER_FAULT: b"\x60",
        E.AUDIT_ON: b"\x84", E.AUDIT_OFF: b"\x85", E.TICKET_INSERTED: b"\x67",
        E.TICKET_IN_DONE: b"\x68", E.AFT_DONE: b"\x69",
    }
    t = X.BY_EVENT
    assert len(t) % 2 == 0 and len(t) // 2 <= E.COUNT
    got = {i // 2: t[i:i + 2].rstrip(b"\x00") for i in range(0, len(t), 2) if t[i]}
    assert got == want
    assert not t[0] and all(t[i] or not t[i + 1] for i in range(0, len(t), 2))
    # bills by Table C-6 denomination code: $1 2 5 10 20 25 50 100 200 250 500
    # (4F: a bill with no code of its own)
    assert X.BILL_CODES == bytes((0x47, 0x4D, 0x48, 0x49, 0x4A, 0x4F, 0x4B, 0x4C,
                                  0x50, 0x4F, 0x4E))


def test_meter_table_reads_the_named_ledger_meters():
    # meters.py keeps ledger meters by position: each SAS meter (Table C-7
    # code, or ours where C-7 has none) is the ledger meters named here,
    # added and subtracted; # a count or cents ($0.01 accounting: the
    # ledger's own unit), D dollars; then its 2F size
    from firmware.sas import meters as M
    from firmware.store.meters import index
    want = {
        0x00: "# wagered vig - 4", 0x02: "# jackpot - - 4",
        0x03: "# handpay_cc - - 4", 0x04: "# total_out - jackpot 4", 0x05: "# games - - 4",
        0x06: "# games_won - - 4", 0x07: "# games_lost - - 4", 0x08: "# coins_in - - 4",
        0x0A: "# coins_in - - 4", 0x0B: "# bills_in - - 4", 0x0D: "# tickets_in - - 5",
        0x0E: "# tickets_out - - 5", 0x11: "# tickets_in_n - - 4", 0x12: "# tickets - - 4",
        0x15: "# tickets_in - - 4", 0x16: "# tickets_out - - 4",
        0x1F: "# jackpot - - 4", 0x23: "# handpay_cc jackpot - 4",
        0x24: "# total_in - - 4", 0x25: "# games_power - - 4", 0x26: "# games_door - - 4",
        0x28: "# tickets_in - - 4", 0x29: "# tickets_in - - 4", 0x2C: "# tickets_out - - 4",
        0x2E: "# aft_in - - 4", 0x32: "# aft_out - - 4", 0x35: "# tickets_in_n - - 4",
        0x38: "# tickets - - 4", 0x3F: "# cashbox - - 4", 0x40: "# bills_1 - - 4",
        0x41: "# bills_2 - - 4", 0x42: "# bills_5 - - 4", 0x43: "# bills_10 - - 4",
        0x44: "# bills_20 - - 4", 0x46: "# bills_50 - - 4", 0x47: "# bills_100 - - 4",
        0x80: "# tickets_in - - 5", 0x81: "# tickets_in_n - - 4", 0x86: "# tickets_out - - 5",
        0x87: "# tickets - - 4", 0xA0: "# aft_in - - 5", 0xA1: "# aft_in_n - - 4",
        0xB8: "# aft_out - - 5", 0xB9: "# aft_out_n - - 4",
        M.DOOR_OPENS: "I door_opens - - 4", M.POWER_UPS: "I power_ups - - 4",
        M.BILL_DOLLARS: "D bills_in - - 4",
        # coin out: paid to the credit meter at the roll, and jackpots reset to it (A8)
        M.PAID_BY_MACHINE: "I won returned jackpot 4", M.JP_TO_CREDIT: "I jp_to_credit - - 4",
        0x22: "# won returned - 4",                      # total won: each win once
    }
    how = {"#": 1, "D": 0x83, "I": 0x81}
    t = M.ROWS
    seen = set()
    for r in range(0, len(t), 6):
        code = t[r]
        seen.add(code)
        row = bytes(t[r + 1:r + 6])
        if code in want:
            w = want[code].split()
            assert row == bytes([how[w[0]], int(w[4])] + [0xFF if n == "-" else index(n)
                                                            for n in w[1:4]]), code
        elif code == 0x0C:
            assert row[0] == 5                           # the player's credits
        else:
            assert code == 0x01 and row[0] == 4, code    # coin out: the sum of two rows
            assert row[2:4] == bytes((M.PAID_BY_MACHINE, M.JP_TO_CREDIT))
    assert seen == set(want) | {0x0C, 0x01}


def test_a_poll_is_answered_between_the_parts_of_a_redraw():
    # A whole frame is ~23 ms on the display's I2C bus, longer than the 20 ms
    # a SAS host waits: a poll landing during a redraw is answered before the
    # next part of the frame goes out.
    # The drawing itself (big digits) is ~10 ms on an RP2040: a poll landing
    # while the first line is drawn is answered before the frame goes out.
    b, d = hosted(6)
    d.run(100)
    disp = b.display
    sent = []
    real, text = disp.show, disp.text
    landed = []

    def show(part=-1):
        sent.append((part, b.sas.host_read()))
        if part == 0:
            b.sas.host_send(b"\x01\x1a")              # lands while part 0 goes out
        real(part)

    def first_text(*a):
        if not landed:
            landed.append(1)
            b.sas.host_send(b"\x01\x10")              # lands while line 1 is drawn
        text(*a)
    disp.show = show
    disp.text = first_text
    d.ctl.tick_display(b.clock.ticks_ms(), force=True)
    assert landed and [p for p, _ in sent] == [0, 1, 2, 3]
    for i, cmd in ((0, 0x10), (1, 0x1A)):                # read when part i started
        answer = sent[i][1]
        assert answer[:2] == bytes((1, cmd)) and kermit(answer) == 0, (i, answer)


def test_shutdown_with_a_contract_bet_up_still_cashes_out():
    """SAS 01 with a point on: the credits not at risk (and the odds, which
    may come down) leave on a ticket; the pass line stays and is decided
    when the host enables play again (SAS.md, 01/02)."""
    b, d = hosted(7)
    led = d.ctl.store.ledger
    t = led.table
    d.bill(20)
    d.command("press BET_UP")                            # the pass line's $5 stake
    b.dome.rng.face = lambda: 2                          # 2-2: point 4
    d.command("roll")
    assert t.point == 4 and t.on_table() == 500
    d.command("press ODDS")
    odds = t.on_table() - 500
    assert odds > 0
    body = b"\x01\x01"
    c = kermit(body)
    assert _poll(d, body + bytes((c & 0xFF, c >> 8))) == b"\x01"
    d.run(500)
    credits = t.credits
    d.command("press CASHOUT")
    d.run(3000)
    assert len(b.printer.tickets) == 1, d.screen_text()
    assert "AMOUNT $%d.00" % ((credits + odds) // 100) in b.printer.tickets[0]
    assert t.credits == 0 and t.on_table() == 500         # the pass line stays
    d.command("press ROLL")
    d.run(20000)
    assert t.point == 4 and d.ctl.game.rolls == 1         # still disabled: no roll
    body = b"\x01\x02"
    c = kermit(body)
    assert _poll(d, body + bytes((c & 0xFF, c >> 8))) == b"\x01"
    b.dome.rng.face = lambda: 2                          # 4 again: the pass line wins
    assert d.roll()
    assert t.point == 0 and t.credits == 500 and t.on_table() == 500  # paid even money
    assert led.balance_check() == 0


def test_a_new_sas_address_applies_at_once():
    b, d = hosted(8)
    st = d.ctl.store

    def answers(addr):
        got = _poll(d, bytes((addr, 0x1A)))
        return len(got) == 8 and got[:2] == bytes((addr, 0x1A)) and kermit(got) == 0
    assert answers(1) and not answers(5)
    assert st.set_config(b.clock.now(), "sas_address", "5") == 0
    assert answers(5) and not answers(1)
    assert _poll(d, b"\x85") != b"" and _poll(d, b"\x81") == b""
    assert st.set_config(b.clock.now(), "sas_address", "0") == 0
    assert not answers(5) and not answers(1) and _poll(d, b"\x85") == b""
    # a cabinet that started with SAS off takes an address without a restart
    b2, d2 = hosted(9, flash=b.flash)
    d = d2
    assert not answers(5)
    assert d2.ctl.store.set_config(b2.clock.now(), "sas_address", "3") == 0
    assert answers(3)


def _exceptions(d):
    out = b""
    for _ in range(40):
        r = _poll(d, b"\x81")
        if r in (b"", b"\x00"):
            return out
        out += r
        _poll(d, b"\x82")                               # acknowledged
    return out


def test_a_game_cut_by_power_is_reported_started_before_it_ends():
    b, d = hosted(10)
    d.bill(20)
    _exceptions(d)
    d.command("press BET_UP")
    d.command("press ROLL")
    d.run(300)
    assert d.ctl.game.rolling()
    b2, d2 = hosted(11, flash=b.flash)    # power cut mid-roll
    d2.run(20000)
    got = _exceptions(d2)
    assert got.count(b"\x7e") == got.count(b"\x7f") >= 1, got.hex()
    assert got.index(b"\x7e") < got.index(b"\x7f"), got.hex()


def _framed(body):
    c = kermit(body)
    return body + bytes((c & 0xFF, c >> 8))


def _ticket_4d(d):
    """4D look-ahead (FF): the 18-digit number it reports, None for no ticket."""
    r = _poll(d, _framed(b"\x01\x4d\xff"))
    assert len(r) == 35 and kermit(r) == 0 and r[:2] == b"\x01\x4d"
    if not any(r[2:33]):
        return None
    return "00" + "".join("%02x" % x for x in r[11:19])


def test_4d_reports_the_number_printed_after_4c_changes_the_id():
    # 4D used to work the newest ticket's number out from the ledger's
    # current ID and sequence: after a 4C it named the ticket wrongly
    b, d = hosted(6)
    d.bill(5)
    d.press("CASHOUT")
    d.run(300)
    printed = b.printer.barcodes[-1]
    assert len(printed) == 18 and _ticket_4d(d) == printed
    led = d.ctl.store.ledger
    for vid, seq in ((0x123456, 77), (0x2468AC, 0)):
        assert vid != led.val_id
        r = _poll(d, _framed(bytes((0x01, 0x4C, vid & 255, vid >> 8 & 255, vid >> 16,
                                    seq & 255, seq >> 8 & 255, seq >> 16))))
        assert kermit(r) == 0 and led.val_id == vid and led.val_seq == seq
        assert _ticket_4d(d) == printed
    # a power cut: the number comes back from the journal
    b2, d2 = hosted(7, flash=b.flash)
    d2.run(20)
    assert d2.ctl.store.ledger.val_id == 0x2468AC and _ticket_4d(d2) == printed
    # ...and from a snapshot
    st = d2.ctl.store
    st.journal.write_snapshot(st.ledger.pieces())
    b3, d3 = hosted(8, flash=b2.flash)
    d3.run(20)
    assert _ticket_4d(d3) == printed
    # the next ticket is numbered under the new ID, and 4D names it
    d3.bill(5)
    d3.press("CASHOUT")
    d3.run(300)
    newer = b3.printer.barcodes[-1]
    assert newer == reference_number(0x2468AC, 1) and _ticket_4d(d3) == newer


def test_ticket_data_from_the_host_survives_a_snapshot_and_prints():
    # 7C text lines (spaces in them) and 7D's expiration are Config
    # settings: through a snapshot and a power cut, onto the ticket and 4D
    b, d = hosted(9)
    loc = b"DOME HALL 2"
    r = _poll(d, _framed(bytes((0x01, 0x7C, 2 + len(loc), 0x00, len(loc))) + loc))
    assert kermit(r) == 0 and r[:3] == b"\x01\x7c\x01"
    r = _poll(d, _framed(b"\x01\x7d\x05\x00\x00\x05\x00\x00"))   # 5 days, texts unchanged
    assert kermit(r) == 0 and r[:3] == b"\x01\x7d\x01"
    st = d.ctl.store
    st.journal.write_snapshot(st.ledger.pieces())
    b2, d2 = hosted(10, flash=b.flash)
    cfg = d2.ctl.store.ledger.config
    assert cfg["ticket_location"] == "DOME HALL 2" and cfg["ticket_expiry"] == 5
    d2.bill(5)
    d2.press("CASHOUT")
    d2.run(300)
    text = b2.printer.tickets[-1]
    assert text[0] == "DOME HALL 2" and "VOID AFTER 5 DAYS" in text
    r = _poll(d2, _framed(b"\x01\x4d\xff"))
    assert kermit(r) == 0 and Wr.get_bcd(r, 27, 4) == 5


def _aft(d, kind, cents, tid, code=0):
    """72 transfer funds (Table 8.3a), asset 7, no key, no receipt data."""
    body = bytes([code, 0, kind]) + _bcd(cents, 5) + bytes(10) + b"\x00\x07\x00\x00\x00" \
        + bytes(20) + bytes([len(tid)]) + tid + bytes(10)
    return _poll(d, _framed(bytes([1, 0x72, len(body)]) + body))


def _bcd(v, n):
    digits = "%0*d" % (2 * n, v)
    return bytes(int(digits[i:i + 2], 16) for i in range(0, 2 * n, 2))


def test_aft_transfers_on_the_port_and_after_a_restart():
    # the AFT path (firmware/sas/aft.py, firmware/store/aft.py) on the port:
    # 72 in and out, each answered with its status and transaction ID, the
    # credits and the history kept across a restart; a repeat moves nothing
    from firmware.store import records as T
    b, d = hosted(61)
    st = d.ctl.store
    st.set_config(b.clock.now(), "asset_number", "7")
    r = _aft(d, 0x00, 1234, b"PORT-1")
    assert kermit(r) == 0 and r[:2] == b"\x01\x72" and r[3:5] == b"\x00\x00", r
    assert b"PORT-1" in r and st.ledger.table.credits == 1234
    assert _aft(d, 0x00, 1234, b"PORT-1") == r and st.ledger.table.credits == 1234
    r = _aft(d, 0x80, 234, b"PORT-2")
    assert r[4] == T.AFT_FULL and st.ledger.table.credits == 1000
    b2, d2 = make(seed=62, sas="loop", flash=b.flash)
    led = d2.ctl.store.ledger
    assert led.table.credits == 1000 and led.aft.find(b"PORT-2") == 0
    assert led.meters.get("aft_in") == 1234 and led.meters.get("aft_out") == 234
    assert led.balance_check() == 0
