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
from test_audit_support import make, menu, Driver


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
    assert g.verify(now, PIN.DEFAULT_PIN)
    assert g.tries_left(now) == PIN.MAX_TRIES
    s2 = _reboot(b)
    g2 = PIN.PinGuard(s2, b.clock)
    assert g2.tries_left(b.clock.now()) == PIN.MAX_TRIES, "a correct PIN must clear for good"
    assert not g2.verify(b.clock.now(), "3333")       # one wrong try after is just one
    assert g2.tries_left(b.clock.now()) == PIN.MAX_TRIES - 1


def test_stored_verifier_is_salted_64_bits_and_stretched():
    s, b = make(1)
    g = PIN.PinGuard(s, b.clock)
    assert g.change(b.clock.now(), "5678") == 0
    rec = s.ledger.config["pin"]
    salt, n, digest = rec.split("$")
    assert len(salt) == 16 and int(salt, 16) >= 0          # 64-bit salt
    assert int(n) == PIN.ITERATIONS >= 4000
    assert "5678" not in rec
    one = hashlib.sha256(b"BC-PIN2\x00" + salt.encode() + b"\x005678").digest()
    assert digest != "".join("%02x" % x for x in one)      # not a single hash
    x = one
    for _ in range(int(n)):
        x = hashlib.sha256(x).digest()
    assert digest == "".join("%02x" % c for c in x)        # exactly the documented chain
    assert PIN.check(rec, "5678") and not PIN.check(rec, "5679")
    g.change(b.clock.now(), "5678")
    assert s.ledger.config["pin"].split("$")[0] != salt    # a fresh salt each time


def test_check_runs_in_slices():
    c = PIN.Check(PIN.DEFAULT_RECORD, PIN.DEFAULT_PIN)
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
    d.press(B.BET_UP)                 # 1
    for digit in (2, 3, 4):
        d.press(B.NEXT)
        for _ in range(digit):
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


def test_legacy_record_migrated_on_first_correct_use():
    s, b = make(1)
    now = b.clock.now()
    assert s.set_config(now, "pin", _legacy_record("5678")) == 0
    assert PIN.legacy(s.ledger.config["pin"])
    m = menu(s, b)
    d = Driver(m, b)
    d.enter("Config (PIN)")
    d.pin("9999")
    assert "WRONG PIN" in d.text()
    assert PIN.legacy(s.ledger.config["pin"])      # a wrong PIN migrates nothing
    d.press(B.ROLL)
    d.enter("Config (PIN)")
    d.pin("5678")
    d.settle()
    assert "CONFIG" in d.text(), d.text()
    rec = s.ledger.config["pin"]
    assert not PIN.legacy(rec) and len(rec.split("$")[0]) == 16
    assert PIN.check(rec, "5678")
    s2 = _reboot(b)
    assert PIN.check(s2.ledger.config["pin"], "5678") and not PIN.legacy(s2.ledger.config["pin"])
    assert s2.ledger.conf_history[-1][1] == s.ledger.conf_history[-1][1]   # logged as a change
