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
from test_audit_support import make as make_audit, menu, Driver, cash_out

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
    d.pin(PIN.DEFAULT_PIN)
    d.press(B.CHIP, B.ODDS, B.REPEAT)
    d.press(B.ROLL)
    assert "PLAY LOCKED:" in d.text()
    led = s.ledger
    assert led.suspended() == L.SET_PIN
    assert led.val_seq == seq and TK.number(led) == number  # numbers go on, none reused
    assert s.credit(b.clock.now(), 0, 5) == 0 and s.bet(b.clock.now(), 0, 1) != 0
    d = Driver(menu(s, b), b)                          # the next menu session
    d.enter("Config (PIN)")
    d.pin(PIN.DEFAULT_PIN)
    assert "CONFIG" in d.text(), d.text()
    m = d.m
    from firmware.store import config as C
    for _ in range(len(C.CONFIG)):
        if m.top().cur == C.INDEX["pin"]:
            break
        d.press(B.NEXT)
    d.press(B.ROLL)
    d.pin("2468")
    d.pin("2468")
    assert "PIN CHANGED" in d.text()
    assert led.suspended() == "" and s.bet(b.clock.now(), 0, 1) == 0


def test_config_shows_what_zero_means():
    s, b = make_audit(0, 0)
    from firmware.audit.readout import Readout
    r = Readout(s, {"station": "X", "version": "0", "name": "BC", "serial": "s",
                    "profile": "table"})
    text = r.feed(b"CONFIG\n").decode()
    assert "odds_mult=default (3-4-5x)" in text and "max_bet=default (500)" in text, text
    d = Driver(menu(s, b), b)
    d.enter("Config (PIN)")
    d.pin(PIN.DEFAULT_PIN)
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
