"""Technician PIN (issue 9, defect 9): a correct PIN clears the failure
count for good (across a reboot), the stored verifier has a 64-bit salt and
is stretched, the check runs in slices from the main loop, and a record of
the first firmware is migrated on its first correct use.
Plain asserts: runs on CPython and on the MicroPython unix port.
"""
import hashlib
from hal import buttons as B
from firmware.store import events as E
from firmware.store.store import Store
from firmware.audit import pin as PIN
from test_audit_support import make, menu, Driver, TECH_PIN, set_pin


def _reboot(b):
    s = Store(b.flash)
    s.boot(b.clock.now())
    return s


def _legacy_record(pin, salt="0badc0de"):
    h = hashlib.sha256(b"BC-PIN\x00")
    h.update(salt.encode())
    h.update(b"\x00")
    h.update(pin.encode())
    return salt + "$" + "".join("%02x" % x for x in h.digest())


def test_correct_pin_clears_failures_across_a_reboot():
    s, b = make(1)
    g = PIN.PinGuard(s, b.clock)
    now = b.clock.now()
    assert not g.verify(now, "1111") and not g.verify(now, "2222")
    assert g.tries_left(now) == 1
    assert g.verify(now, TECH_PIN)
    assert g.tries_left(now) == PIN.MAX_TRIES
    s2 = _reboot(b)
    g2 = PIN.PinGuard(s2, b.clock)
    assert g2.tries_left(b.clock.now()) == PIN.MAX_TRIES, "a correct PIN must clear for good"
    assert not g2.verify(b.clock.now(), "3333")       # one wrong try after is just one
    assert g2.tries_left(b.clock.now()) == PIN.MAX_TRIES - 1


def test_stored_verifier_is_salted_64_bits_and_stretched():
    s, b = make(1)
    g = PIN.PinGuard(s, b.clock)
    assert g.change(b.clock.now(), "567812") == 0
    rec = s.ledger.config["pin"]
    salt, n, digest = rec.split("$")
    assert len(salt) == 16 and int(salt, 16) >= 0          # 64-bit salt
    assert int(n) == PIN.ITERATIONS >= 4000
    assert "567812" not in rec
    one = hashlib.sha256(b"BC-PIN2\x00" + salt.encode() + b"\x00567812").digest()
    assert digest != "".join("%02x" % x for x in one)      # not a single hash
    x = one
    for _ in range(int(n)):
        x = hashlib.sha256(x).digest()
    assert digest == "".join("%02x" % c for c in x)        # exactly the documented chain
    assert PIN.check(rec, "567812") and not PIN.check(rec, "567813")
    g.change(b.clock.now(), "567812")
    assert s.ledger.config["pin"].split("$")[0] != salt    # a fresh salt each time


def test_check_runs_in_slices():
    c = PIN.Check(PIN.make_record(TECH_PIN, PIN.new_salt()), TECH_PIN)
    passes = 0
    while c.step() is None:
        passes += 1
    assert c.result is True
    assert passes + 1 == (PIN.ITERATIONS + PIN.SLICE - 1) // PIN.SLICE
    assert PIN.Check("garbage", "1234").step() is False
    assert PIN.Check("ab$99999999$00", "1234").step() is False   # absurd iteration count
    assert PIN.Check("ab$x$00", "1234").step() is False


def test_menu_checks_pin_over_many_passes_without_starving_the_loop():
    s, b = make(1)
    m = menu(s, b)
    d = Driver(m, b)
    d.enter("Config (PIN)")
    for _ in range(int(TECH_PIN[0])):
        d.press(B.BET_UP)
    for digit in TECH_PIN[1:]:
        d.press(B.NEXT)
        for _ in range(int(digit)):
            d.press(B.BET_UP)
    b.press(B.ROLL)
    for _ in range(20):               # the press is accepted within a few passes
        d.step()
        if getattr(m.top(), "busy", False):
            break
    assert getattr(m.top(), "busy", False) and "CHECKING PIN" in d.text()
    passes = 0
    check = m.top().check
    while getattr(m.top(), "busy", False):
        left = check.left
        d.step()
        assert left - check.left <= PIN.SLICE      # ~10 ms a pass on an RP2040
        passes += 1
    assert passes >= PIN.ITERATIONS // PIN.SLICE - 1
    assert "CONFIG" in d.text()
    assert any(s.ledger.events.get(i)[2] == E.PIN_OK for i in range(3))


def _to_pin_setting(d):
    from firmware.store import config as C
    while d.m.top().cur != C.index(PIN.KEY):
        d.press(B.NEXT)
    d.press(B.ROLL)


def test_legacy_record_migrated_on_first_correct_use():
    s, b = make(1)
    now = b.clock.now()
    assert s.set_config(now, "pin", _legacy_record("567812")) == 0
    assert PIN.legacy(s.ledger.config["pin"])
    m = menu(s, b)
    d = Driver(m, b)
    d.enter("Config (PIN)")
    d.pin("9999")
    assert "WRONG PIN" in d.text()
    assert PIN.legacy(s.ledger.config["pin"])      # a wrong PIN migrates nothing
    d.press(B.ROLL)
    d.enter("Config (PIN)")
    d.pin("567812")
    d.settle()
    assert "CONFIG" in d.text(), d.text()
    rec = s.ledger.config["pin"]
    assert not PIN.legacy(rec) and len(rec.split("$")[0]) == 16
    assert PIN.check(rec, "567812")
    s2 = _reboot(b)
    assert PIN.check(s2.ledger.config["pin"], "567812") and not PIN.legacy(s2.ledger.config["pin"])
    assert s2.ledger.conf_history[-1][1] == s.ledger.conf_history[-1][1]   # logged as a change


def _set_twice(d, pin):
    """The new PIN twice, then the item it was asked for opens (Config)."""
    d.pin(pin)
    d.pin(pin)
    assert "PIN CHANGED" in d.text(), d.text()
    d.press(B.ROLL)


def test_new_cabinet_has_no_pin_and_asks_for_one():
    """Issue 25 finding 6, issue 23 defect 4: no default PIN opens anything;
    the first PIN item asks the key holder to set one of 6-8 digits."""
    s, b = make(1, pin=None)
    assert not PIN.is_set(s)
    for guess in ("1234", "0000", "123456"):
        assert not PIN.check(PIN.record_of(s), guess)
    d = Driver(menu(s, b), b)
    d.enter("Config (PIN)")
    assert "SET NEW PIN" in d.text() and "6-8 digits" in d.text(), d.text()
    d.press(B.ROLL)
    assert "new PIN" in d.text(), d.text()
    d.pin("1234")                                   # the old default: refused
    assert "PIN NOT CHANGED" in d.text() and "Use 6-8 digits" in d.text(), d.text()
    d.press(B.ROLL)
    d.enter("Config (PIN)")
    d.press(B.ROLL)
    d.pin("13579")                                  # 5 digits: refused
    assert "Use 6-8 digits" in d.text() and not PIN.is_set(s), d.text()
    d.press(B.ROLL)
    d.enter("Config (PIN)")
    d.press(B.ROLL)
    for _ in range(PIN.MAX_LEN):                    # a 9th digit: refused on the spot
        d.press(B.NEXT)
    assert "PIN *******0" in d.text() and "MAX 8 DIGITS" in d.text(), d.text()
    d.press(B.CLEAR)
    assert "CONFIG" not in d.text() and not PIN.is_set(s)
    d.enter("Config (PIN)")
    d.press(B.ROLL)
    _set_twice(d, "13572468")
    assert "CONFIG" in d.text(), d.text()
    assert PIN.check(PIN.record_of(s), "13572468")
    d2 = Driver(menu(_reboot(b), b), b)             # the next session asks for it
    d2.enter("Config (PIN)")
    assert "ENTER PIN" in d2.text(), d2.text()
    d2.pin("13572468")
    assert "CONFIG" in d2.text(), d2.text()


def test_ram_clear_asks_for_a_new_pin_and_not_a_short_one():
    s, b = make(0, credits=0)
    d = Driver(menu(s, b), b)
    d.enter("RAM clear (PIN)")
    d.pin(TECH_PIN)
    d.press(B.CHIP, B.ODDS, B.REBET)
    d.press(B.ROLL)
    assert "RAM CLEARED" in d.text() and "PIN cleared" in d.text(), d.text()
    assert not PIN.is_set(s) and s.ledger.suspended() == "SET NEW PIN"
    d = Driver(menu(s, b), b)
    d.enter("Clock (PIN)")
    assert "SET NEW PIN" in d.text(), d.text()      # the old PIN opens nothing
    d.press(B.ROLL)
    d.pin("1234")
    assert "Use 6-8 digits" in d.text() and s.ledger.suspended() == "SET NEW PIN", d.text()
    d.press(B.ROLL)
    d.enter("Clock (PIN)")
    d.press(B.ROLL)
    _set_twice(d, "97531864")
    assert "SET CLOCK" in d.text() and s.ledger.suspended() == "", d.text()


def test_short_pin_of_an_older_release_only_leads_to_a_new_one():
    """A 4-digit PIN stored by an older release (the old default 1234
    included) still verifies, but opens nothing until a 6-8 digit PIN
    replaces it."""
    s, b = make(1, pin=None)
    assert s.set_config(b.clock.now(), PIN.KEY, PIN.make_record("1234", "5eed20265eed2026")) == 0
    for _ in range(2):                              # cancelled: asked again next time
        d = Driver(menu(s, b), b)
        d.enter("Config (PIN)")
        d.pin("1234")
        assert "PIN TOO SHORT" in d.text(), d.text()
        d.press(B.ROLL)
        d.press(B.CLEAR)                            # no new PIN
        assert "AUDIT MENU" in d.text() and not d.m.pin_ok, d.text()
    d.enter("Config (PIN)")
    d.pin("1234")
    d.press(B.ROLL)
    _set_twice(d, "24687531")
    assert "CONFIG" in d.text(), d.text()
    d2 = Driver(menu(_reboot(b), b), b)
    d2.enter("Config (PIN)")
    d2.pin("1234")
    assert "WRONG PIN" in d2.text(), d2.text()
    d2.press(B.ROLL)
    d2.enter("Config (PIN)")
    d2.pin("24687531")
    assert "CONFIG" in d2.text(), d2.text()


def test_lockout_holds_with_long_pins():
    s, b = make(1)
    d = Driver(menu(s, b), b)
    d.enter("Config (PIN)")
    d.pin("123")                                     # not a PIN: refused, not counted
    assert "NOT A PIN" in d.text(), d.text()
    d.press(B.ROLL)
    for _ in range(PIN.MAX_TRIES):
        d.enter("Config (PIN)")
        d.pin("13579246")
        assert "WRONG PIN" in d.text(), d.text()
        d.press(B.ROLL)
    d.enter("Config (PIN)")
    assert "PIN LOCKED" in d.text(), d.text()
    d.press(B.ROLL)
    b.clock.advance(PIN.LOCK_S * 1000 - 5000)
    d.enter("Config (PIN)")
    assert "PIN LOCKED" in d.text(), d.text()       # the right PIN waits too
    d.press(B.ROLL)
    b.clock.advance(6000)
    d.enter("Config (PIN)")
    d.pin(TECH_PIN)
    assert "CONFIG" in d.text(), d.text()
