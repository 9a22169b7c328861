"""Floor details (issue 12): after a RAM clear play stays locked until a new
PIN is set and ticket numbers go on; config shows what 0 means; the serial
DIGEST answers by itself once asked. Plain asserts: CPython and the
MicroPython unix port."""
from hal import buttons as B
from hal.mock.loopserial import LoopSerial
from firmware.store import ledger as L
from firmware.store import records as TR
from firmware.audit import pin as PIN
from firmware.audit.digest import compute
from firmware.cabinet import ticket as TK
from test_e2e_session import make
from test_audit_support import make as make_audit, menu, Driver, cash_out, TECH_PIN

try:
    import os
    ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
except AttributeError:  # MicroPython: run from the repo root
    ROOT = "."


def test_ram_clear_locks_play_until_a_new_pin():
    s, b = make_audit(2, 50)
    cash_out(s, b)
    t = b.clock.now()
    assert s.credit(t, 0, 7) == 0
    printed = TK.number(s.ledger)                      # a ticket before the clear
    assert s.ticket(t, TR.TK_PENDING, printed) == 0 and s.ticket(t, TR.TK_PRINTED, printed) == 0
    d = Driver(menu(s, b), b)
    seq = s.ledger.val_seq
    assert seq >= 1
    number = TK.number(s.ledger)
    assert number != printed
    d.enter("RAM clear (PIN)")
    d.pin(TECH_PIN)
    d.press(B.CHIP, B.ODDS, B.REBET)
    d.press(B.ROLL)
    assert "PLAY LOCKED:" in d.text()
    led = s.ledger
    assert led.suspended() == L.SET_PIN
    assert led.val_seq == seq and TK.number(led) == number  # numbers go on, none reused
    assert s.credit(b.clock.now(), 0, 500) == 0 and s.bet(b.clock.now(), 0, 100) != 0
    d = Driver(menu(s, b), b)                          # the next menu session
    d.enter("Config (PIN)")
    assert "SET NEW PIN" in d.text(), d.text()         # the old PIN is gone, no default
    d.press(B.ROLL)
    d.pin("24680")                                     # 5 digits: refused
    assert "PIN NOT CHANGED" in d.text() and "Use 6-8 digits" in d.text(), d.text()
    assert led.suspended() == L.SET_PIN
    d.press(B.ROLL)
    d.enter("Config (PIN)")
    d.press(B.ROLL)
    d.pin("246801")
    d.pin("246801")
    assert "PIN CHANGED" in d.text()
    d.press(B.ROLL)
    assert "CONFIG" in d.text(), d.text()              # the item the PIN was set for
    assert led.suspended() == "" and s.bet(b.clock.now(), 0, 100) == 0


def test_config_shows_what_zero_means():
    s, b = make_audit(0, 0)
    from firmware.audit.readout import Readout
    r = Readout(s, {"station": "X", "version": "0", "name": "BC", "serial": "s",
                    "profile": "table"})
    text = r.feed(b"CONFIG\n").decode()
    assert "odds_mult=default (3-4-5x)" in text and "max_bet=default (500)" in text, text
    d = Driver(menu(s, b), b)
    d.enter("Config (PIN)")
    d.pin(TECH_PIN)
    seen = ""
    for _ in range(6):
        seen += d.text()
        d.press(B.NEXT)
    assert "default (3-4-5x)" in seen, seen


def test_digest_on_the_port_answers_by_itself():
    b, d = make(seed=9)
    port = LoopSerial()
    b.serial = port
    d.ctl.readout = None
    port.host_write(b"DIGEST\nID\n")
    got = b""
    for _ in range(3000):
        d.step()
        got += port.host_read()
        if b"OK ID" in got:
            break
    text = got.decode()
    assert "ERR 5" not in text                          # asked once, never told to ask again
    assert text.index("OK DIGEST ") < text.index("OK ID")  # the next request waited
    assert "OK DIGEST " + compute(ROOT) in text


def test_last_ten_bills_in_menu_readout_and_log():
    b, d = make(seed=12)
    for pulses in (1, 5, 20, 2, 10, 1, 1, 5, 50, 20, 100, 5):
        d.bill(pulses)
    d.coin(1)
    led = d.ctl.store.ledger
    from firmware.audit import report as RP
    from firmware.store import events as E
    bills = RP.last_bills(led)
    # newest first, 10; in cents
    assert [a for t, a in bills] == [500, 10000, 2000, 5000, 500, 100, 100, 1000, 200, 2000]
    coins = [led.events.get(i) for i in range(led.events.count) if led.events.get(i)[2] == E.COIN_IN]
    assert len(coins) == 1 and coins[0][3] == 100
    from firmware.audit.readout import Readout
    r = Readout(d.ctl.store, d.ctl.identity())
    text = r.feed(b"BILLS\n").decode().split("\n")
    # spec change (issue 12 review): each line also carries the date and time
    assert text[0] == "OK BILLS 10"
    from firmware import timefmt
    for line, cents in ((text[1], "500"), (text[2], "10000")):
        t, amount, day, hms = line.split(" ")
        assert amount == cents
        assert day + " " + hms == "%04d-%02d-%02d %02d:%02d:%02d" % timefmt.civil(int(t)), line
    s2, b2 = make_audit(0, 0)
    for amount in (2000, 500):
        s2.credit(b2.clock.now(), 0, amount)
    dm = Driver(menu(s2, b2), b2)
    dm.enter("Last bills")
    t = dm.text()
    assert "LAST BILLS 2" in t and t.index("   5") < t.index("  20"), t


def test_clock_set_from_the_menu_needs_pin_and_is_logged():
    from firmware.store import events as E
    from firmware import timefmt
    s, b = make_audit(0, 0)
    d = Driver(menu(s, b), b)
    d.enter("Clock (PIN)")
    assert "ENTER PIN" in d.text()
    d.pin(TECH_PIN)
    assert "SET CLOCK" in d.text() and "UTC" not in d.text()   # local time, as SAS 7F sets it
    old = b.clock.now()
    y = timefmt.civil(old)[0]
    d.press(B.BET_UP, B.BET_UP)                       # year + 2
    d.press(B.ROLL)
    assert "CLOCK SET" in d.text(), d.text()
    now = b.clock.now()
    assert timefmt.civil(now)[0] == y + 2
    number, t, code, arg = s.ledger.events.get(0)
    assert code == E.CLOCK_SET and abs(t - old) < 5 and arg == timefmt.unix(y + 2, *timefmt.civil(old)[1:5])


def test_logic_and_cash_box_doors_suspend_play_and_count():
    from firmware.cabinet import game as G
    from firmware.store import events as E
    b, d = make(seed=21)
    led = d.ctl.store.ledger
    d.bill(20)
    d.bill(5)
    assert led.meters.get("cashbox") == 2500
    d.press("BET_UP", 1)
    d.press("ROLL")
    assert d.until(lambda: d.ctl.game.rolling(), 5000)
    b.logic_door.set(1)
    d.run(300)
    assert d.ctl.game.state == G.HELD and led.suspended() == "DOOR OPEN"
    rolls = d.ctl.game.rolls
    d.run(10000)
    assert d.ctl.game.rolls == rolls                  # held while the door is open
    b.logic_door.set(0)
    assert d.wait_result()                            # shaken again when closed
    b.cashbox_door.set(1)
    d.run(300)
    assert led.suspended() == "DOOR OPEN" and b.money.inhibited
    b.cashbox_door.set(0)
    d.run(300)
    m = led.meters
    assert m.get("logic_opens") == 1 and m.get("cashbox_opens") == 1
    assert m.get("cashbox") == 0                       # the drop was taken out
    codes = [led.events.get(i)[2] for i in range(8)]
    for c in (E.LOGIC_OPEN, E.LOGIC_CLOSE, E.CASHBOX_OPEN, E.CASHBOX_CLOSE):
        assert c in codes


def test_diagnostics_show_every_door():
    s, b = make_audit(0, 0)
    d = Driver(menu(s, b), b)
    d.enter("Diagnostics")
    sub = d.m.top()
    target = [i[0] for i in sub.items].index("Switches")
    while sub.cursor != target:
        d.press(B.NEXT)
    d.press(B.ROLL)
    assert "Logic closed" in d.text() and "Cash box closed" in d.text(), d.text()
    b.logic_door.set(1)
    d.run(300)
    assert "Logic OPEN" in d.text(), d.text()


def test_readout_shows_the_newest_ticket():
    from firmware.audit.readout import Readout
    b, d = make(seed=31)
    r = Readout(d.ctl.store, d.ctl.identity())
    assert r.feed(b"TICKET\n").decode().startswith("OK TICKET none")
    d.bill(5)
    d.press("CASHOUT")
    text = r.feed(b"TICKET\n").decode()
    number = b.printer.barcodes[-1]
    assert "number=%s" % number in text and "amount=5" in text, text
    assert len(number) == 18 and any(number in line for line in b.printer.tickets[-1])


def _numbers(b, d, bills):
    """Cashes out each bill as a ticket; the validation numbers printed."""
    for n in bills:
        d.bill(n)
        d.command("press CASHOUT")
        d.command("wait 1500")
    out = []
    for lines in b.printer.tickets:
        out += [l.split()[1] for l in lines if l.startswith("VALIDATION ")]
    del b.printer.tickets[:]
    return out


def test_ram_clear_of_an_unreadable_journal_never_repeats_a_number():
    from firmware.cabinet.drive import Driver as CabDriver
    b, d = make(seed=2)
    before = _numbers(b, d, (20, 5))
    assert len(before) == 2
    fl = b.flash
    for sec in fl.secs:                                # both copies wrecked
        sec[:] = bytes([0x5A]) * len(sec)
    d = CabDriver(b, draw=True)                        # the power-up after
    st = d.ctl.store
    assert st.critical and st.ledger.val_seq == 0     # the sequence is lost
    assert st.ram_clear(b.clock.now()) == 0
    assert st.set_config(b.clock.now(), "pin", "2468") == 0
    d.command("wait 500")                              # the validator is enabled again
    after = _numbers(b, d, (20, 5, 10))
    assert len(after) == 3 and len(set(after)) == 3
    assert not set(before) & set(after), (before, after)
    # a readable journal keeps its ID and sequence through a RAM clear
    led = st.ledger
    vid, seq = led.val_id, led.val_seq
    assert st.ram_clear(b.clock.now()) == 0 and st.set_config(b.clock.now(), "pin", "2468") == 0
    d.command("wait 500")
    assert (st.ledger.val_id, st.ledger.val_seq) == (vid, seq)
    assert not set(_numbers(b, d, (5,))) & set(before + after)


def test_ticket_numbers_do_not_follow_from_the_station_name():
    firsts = []
    for seed in (4, 5):
        b, d = make(seed=seed)
        led = d.ctl.store.ledger
        assert led.config["station"] == make(seed=6)[1].ctl.store.ledger.config["station"]
        vid = led.val_id
        assert 0 < vid < 1 << 24
        firsts.append(_numbers(b, d, (5,))[0])
        # kept in the journal: the next power-up (another random draw) keeps it
        from firmware.cabinet.drive import Driver as CabDriver
        d2 = CabDriver(b, draw=True)
        assert d2.ctl.store.ledger.val_id == vid
    assert firsts[0] != firsts[1], firsts              # same name, other cabinet
