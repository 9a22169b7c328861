"""Audit menu through the mock HAL: every page, PIN, refusals, lockout, RAM
clear, diagnostics that never touch money, software verification.

Plain test functions: runs under pytest and on the MicroPython unix port
(tests_host/mp_runner.py); MP_SKIP lists the ones that need CPython tools.
"""
import os
import sys

from hal import buttons as B
from firmware.store import meters as M
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.store import records as TR
from firmware.store.store import Store
from firmware.audit import pin as PIN
from firmware.audit.digest import Digest, compute
from test_audit_support import make, play, cash_out, Driver, menu, IDENT, TECH_PIN

MP_SKIP = ("test_verify_matches_host_tool_and_micropython", "test_shell_equivalent_digest",
           "test_digest_detects_a_changed_byte")

try:
    ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
except AttributeError:  # MicroPython: run from the repo root
    ROOT = "."


def _setup(games=3, credits=200):
    s, b = make(games, credits)
    m = menu(s, b, ROOT)
    return s, b, m, Driver(m, b)


def _events(s, code):
    ev = s.ledger.events
    return [ev.get(i) for i in range(ev.count) if ev.get(i)[2] == code]


def _auth(d, purpose_item="Config (PIN)"):
    d.enter(purpose_item)
    assert "ENTER PIN" in d.text()
    d.pin(TECH_PIN)


def test_no_default_pin():
    assert C.CONFIG[C.index("pin")][1] == PIN.NOT_SET
    for pin in ("1234", "0000", "123456", ""):
        assert not PIN.check(PIN.NOT_SET, pin)


def test_opening_inhibits_money_and_exit_closes():
    s, b, m, d = _setup()
    b.money.inhibit(False)
    m2 = menu(s, b)
    assert b.money.inhibited
    d2 = Driver(m2, b)
    d2.enter("Exit")
    assert not m2.active and b.money.inhibited
    d2.press(B.ROLL)  # ignored once closed
    assert not m2.active


def test_meters_identity_and_every_meter():
    s, b, m, d = _setup()
    s.ledger.meters.set("total_in", 9999999999)
    d.enter("Meters")
    first = d.text()
    for v in ("CRAPS-01", "0.1.0", "SN0042", "BubbleCraps", "table"):
        assert v in first, first
    seen = first
    pages = m.top().pages
    for _ in range(pages - 1):
        d.press(B.NEXT)
        seen += "\n" + d.text()
    for key, label, group in M.METERS:
        assert label in seen, label
    assert "99999999.99" in seen          # money meters count cents
    d.press(B.NEXT)
    assert d.text() == first  # wraps to the identity page


def test_meters_group_jump():
    s, b, m, d = _setup()
    d.enter("Meters")
    groups = []
    for _ in range(6):
        d.press(B.BET_UP)
        groups.append(m.lines()[-1])
    assert groups[:5] == ["[money]", "[play]", "[count]", "[bills]", "[wager]"], groups
    d.press(B.BET_DOWN)
    assert m.top().page == 0 or m.lines()[-1] == "[wager]"


def test_recall_newest_first_marked_and_complete():
    s, b, m, d = _setup(games=4)
    d.enter("Game recall")
    screens = []
    for game in range(4):
        pages = []
        for _ in range(8):
            t = d.text()
            assert "RECALL" in m.lines()[0] and "RECALL" in m.lines()[-1]
            pages.append(t)
            before = m.top().off
            d.press(B.BET_DOWN)
            if m.top().off == before:
                break
        screens.append("\n".join(pages))
        d.press(B.NEXT)
    newest = s.ledger.recall.get(0)
    assert "Game #%d" % newest["game"] in screens[0]
    assert "Game #%d" % (newest["game"] - 3) in screens[3]
    g = newest
    full = screens[0]
    assert "Dice %d+%d = %d" % (g["dice"][0], g["dice"][1], sum(g["dice"])) in full
    assert "Cr begin" in full and "Cr end" in full and "Re-rolls" in full and "Voided: no" in full
    assert "Field" in full and ("WIN" in full or "LOSE" in full)
    assert "[" in full  # pips


def test_recall_voided_and_hundred_games():
    s, b, m, d = _setup(games=0)
    t = b.clock.now()
    s.bet(t, 15, 200)
    s.close(t)
    s.void(t, 1)
    d.enter("Game recall")
    d.press(B.BET_DOWN)
    assert "GAME VOIDED" in d.text() and "Voided: YES" in d.text()
    play(s, b, 105)
    d.press(B.CLEAR)
    d.enter("Game recall")
    assert "RECALL 1/100" in d.text()
    d.press(B.PREV)
    assert "RECALL 100/100" in d.text()


def test_events_browse_with_names():
    s, b, m, d = _setup()
    s.event(b.clock.now(), E.DOOR_OPEN)
    s.event(b.clock.now(), E.DOOR_CLOSE)
    d.enter("Event log")
    assert "door closed" in d.text() and "EVENTS 1/" in d.text()
    d.press(B.NEXT)
    assert "door open" in d.text()
    d.press(B.BET_DOWN)
    d.press(B.BET_DOWN)
    assert "power up" in d.text() or "EVENTS" in d.text()


def test_config_needs_pin_and_changes_are_logged():
    s, b, m, d = _setup(credits=0, games=0)
    d.enter("Config (PIN)")
    assert "ENTER PIN" in d.text()
    d.press(B.CLEAR)
    assert "AUDIT MENU" in d.text()
    _auth(d)
    assert "CONFIG 1/" in d.text()
    idx = C.index("bet_timer_s")
    while m.top().cur != idx:
        d.press(B.NEXT)
    d.press(B.ROLL)
    assert "bet_timer_s" in d.text()
    d.press(B.BET_UP, B.ROLL)  # 15 -> 16
    assert "SAVED" in d.text() and "old 15" in d.text() and "new 16" in d.text()
    assert s.ledger.config["bet_timer_s"] == 16
    assert s.ledger.conf_history[-1][1:] == (idx, "15", "16")
    assert _events(s, E.CONFIG)[0][3] == idx
    d.press(B.ROLL)
    # history page
    while m.top().cur != len(C.CONFIG):
        d.press(B.NEXT)
    d.press(B.ROLL)
    assert "bet_timer_s" in d.text() and "old 15" in d.text() and "new 16" in d.text()


def test_a_40_character_ticket_line_fits_the_screen_and_edits():
    # ticket lines (set by the SAS host, 7C) are longer than the 16-column
    # screen: the list shows their start, the editor scrolls with its cursor
    s, b, m, d = _setup(credits=0, games=0)
    line = "1234 SOUTH CASINO BOULEVARD LAS VEGAS NV"
    assert len(line) == 40 and s.set_config(b.clock.now(), "ticket_address1", line) == 0
    _auth(d)
    idx = C.index("ticket_address1")
    while m.top().cur != idx:
        d.press(B.NEXT)            # the support driver fails on any overflow
    assert "1234 SOUTH CASIN" in d.text()
    d.press(B.ROLL)
    for _ in range(39):
        d.press(B.NEXT)
    d.press(B.BET_DOWN)            # the 40th character: V -> U
    d.press(B.ROLL)
    assert s.ledger.config["ticket_address1"] == line[:-1] + "U"
    assert "old 1234 SOUTH C" in d.text()


def test_config_refusals_money_and_range():
    s, b, m, d = _setup(credits=50, games=0)
    _auth(d)
    idx = C.index("min_bet")
    while m.top().cur != idx:
        d.press(B.NEXT)
    d.press(B.ROLL, B.BET_UP, B.ROLL)
    assert "REFUSED" in d.text() and "Money on the" in d.text()
    assert s.ledger.config["min_bet"] == 0
    d.press(B.ROLL)
    idx = C.index("bet_timer_s")
    while m.top().cur != idx:
        d.press(B.NEXT)
    d.press(B.ROLL)
    for _ in range(5):  # 15 -> 10 on the last digit, then the tens: 10 -> 00
        d.press(B.BET_DOWN)
    d.press(B.PREV, B.BET_DOWN, B.ROLL)
    assert "REFUSED" in d.text() and "5 and 120" in d.text(), d.text()
    assert s.ledger.config["bet_timer_s"] == 15


def test_wrong_pin_lockout_is_logged_and_survives_reboot():
    s, b, m, d = _setup()
    for i in range(PIN.MAX_TRIES):
        d.enter("Config (PIN)")
        d.pin("9999")
        assert "WRONG PIN" in d.text()
        d.press(B.ROLL)
    assert len(_events(s, E.PIN_FAIL)) == PIN.MAX_TRIES
    assert len(_events(s, E.PIN_LOCKOUT)) == 1
    d.enter("Config (PIN)")
    assert "PIN LOCKED" in d.text()
    # power cycle: a fresh store from the same flash and a new menu
    s2 = Store(b.flash)
    s2.boot(b.clock.now())
    m2 = menu(s2, b)
    d2 = Driver(m2, b)
    d2.enter("Config (PIN)")
    assert "PIN LOCKED" in d2.text()
    b.clock.advance(PIN.LOCK_S * 1000 + 1000)
    d2.enter("Config (PIN)")
    d2.pin(TECH_PIN)
    assert "CONFIG" in d2.text()


def test_change_pin_hashed_and_persisted():
    s, b, m, d = _setup(credits=50)
    _auth(d)
    while m.top().cur != C.index("pin"):
        d.press(B.NEXT)
    d.press(B.ROLL)
    d.pin("567812")
    d.pin("567812")
    assert "PIN CHANGED" in d.text()  # allowed with money on the table
    rec = s.ledger.config["pin"]
    # the salt is 16 random hex digits and may hold "567812" by chance, so
    # check the exact verifier instead of searching the text for the PIN
    salt = rec.split("$")[0]
    assert len(salt) == 16 and all(c in "0123456789abcdef" for c in salt)
    assert rec == PIN.make_record("567812", salt) and PIN.check(rec, "567812")
    assert b"pin=567812" not in s.ledger.encode()
    s2 = Store(b.flash)
    s2.boot(b.clock.now())
    d2 = Driver(menu(s2, b), b)
    d2.enter("Config (PIN)")
    d2.pin(TECH_PIN)
    assert "WRONG PIN" in d2.text()
    d2.press(B.ROLL)
    d2.enter("Config (PIN)")
    d2.pin("567812")
    assert "CONFIG" in d2.text()
    d2.press(B.NEXT)
    while d2.m.top().cur != len(C.CONFIG):
        d2.press(B.NEXT)
    d2.press(B.ROLL)
    assert "(hidden)" in d2.text()


def test_attendant_reset_handpay():
    s, b, m, d = _setup()
    amount = s.ledger.table.credits
    s.cashout(b.clock.now(), TR.BY_HANDPAY)
    d.enter("Attendant")
    assert "HANDPAY" in d.text() and "%d.%02d" % (amount // 100, amount % 100) in d.text()
    d.press(B.ROLL)
    assert "ROLL again" in d.text()
    d.press(B.ROLL)
    assert "RESET DONE" in d.text()
    assert s.ledger.lock == L.LK_NONE
    assert _events(s, E.HANDPAY_RESET)
    d.press(B.ROLL)
    assert "No lockup" in d.text()


def test_diagnostics_never_touch_credits_or_meters():
    s, b, m, d = _setup()
    before = s.ledger.encode()
    credits = s.ledger.table.credits
    d.enter("Diagnostics")
    # shaker: start, stops by itself
    d.press(B.ROLL, B.ROLL)
    assert "RUNNING" in d.text()
    d.run(3500)
    assert "stopped" in d.text() and not b.shaker.running
    d.press(B.CLEAR, B.NEXT, B.ROLL)  # dice sensors
    d.run(200)
    assert "DICE SENSORS" in d.text()
    d.press(B.CLEAR, B.NEXT, B.ROLL)  # buttons
    d.press(B.CASHOUT)
    assert "CASHOUT" in d.text()
    d.press(B.ROLL)
    assert "ROLL" in d.text() and "BUTTON TEST" in d.text()  # captured, not acted on
    d.press(B.CLEAR)
    assert "BUTTON TEST" in d.text()
    d.press(B.CLEAR)
    d.press(B.NEXT, B.ROLL)  # lamps
    states = set()
    for _ in range(7):
        d.run(1000)
        states.add(b.lamps.state)
    assert len(states) >= 5
    d.press(B.CLEAR, B.NEXT, B.ROLL)  # display
    m.render()
    px = sum(b.display.get(x, y) for x in range(128) for y in range(64))
    assert px == 128 * 64 // 2
    d.press(B.NEXT)
    m.render()
    assert b.display.get(0, 0) != b.display.get(8, 0)
    d.press(B.CLEAR, B.NEXT, B.ROLL)  # switches
    b.door.set(1)
    d.run(200)
    assert "OPEN" in d.text()
    b.door.set(0)
    d.press(B.CLEAR, B.NEXT, B.ROLL)  # money pulses
    assert "NOT CREDITED" in d.text()
    assert not b.insert_bill(5)  # inhibited: refused
    d.press(B.ROLL)  # accept on for the test
    assert b.insert_bill(5)
    d.run(1000)
    assert "Bill pulses    5" in d.text(), d.text()
    d.press(B.CLEAR)
    assert b.money.inhibited
    assert s.ledger.encode() == before
    assert s.ledger.table.credits == credits


def test_ram_clear_needs_pin_sequence_and_confirm():
    s, b, m, d = _setup()
    d.enter("RAM clear (PIN)")
    assert "ENTER PIN" in d.text()
    d.pin(TECH_PIN)
    assert "REFUSED" in d.text()  # credits on the station
    d.press(B.ROLL)
    assert s.ledger.meters.get("games") == 3
    d.press(B.CLEAR)
    cash_out(s, b)
    games = s.ledger.meters.get("games")
    d.enter("RAM clear (PIN)")  # PIN already given in this session
    assert "To arm press" in d.text()
    d.press(B.ROLL)  # not armed: nothing
    d.press(B.CHIP, B.NEXT)  # wrong order disarms
    assert "done 0/3" in d.text()
    d.press(B.CHIP, B.ODDS)
    d.run(11000)  # too slow: disarms
    assert "done 0/3" in d.text()
    d.press(B.CHIP, B.ODDS, B.REBET)
    assert "ARMED" in d.text()
    d.press(B.ROLL)
    t = d.text()
    assert "RAM CLEARED" in t and "WIN" not in t.upper().replace("WINS", "")
    assert s.ledger.meters.get("games") == 0 and s.ledger.last_game is None
    assert s.ledger.events.count == 1 and s.ledger.events.get(0)[2] == E.RAM_CLEAR
    assert len(b.printer.tickets) == 2 and "BEFORE" in b.printer.tickets[0][0]
    assert any("Games played" in line and line.endswith(" %d" % games) for line in b.printer.tickets[0])


def test_verify_screen_computes_incrementally():
    s, b, m, d = _setup(games=0)
    d.enter("Verify software")
    ticks = 0
    while "files" not in d.text():
        d.step()
        ticks += 1
        assert ticks < 5000
    assert ticks > 3  # spread over many ticks
    lines = m.lines()
    hexd = "".join(lines[1:5])
    assert len(hexd) == 64
    assert hexd == compute(ROOT)


def test_verify_matches_host_tool_and_micropython():
    import subprocess
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import digest_host
    host, files = digest_host.digest(ROOT)
    assert compute(ROOT) == host
    mp = os.path.join(ROOT, ".venv", "bin", "micropython")
    out = subprocess.run([mp, "-c", "import sys; sys.path.insert(0, '.');"
                          "from firmware.audit.digest import compute; print(compute('.'))"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    assert out == host
    tool = subprocess.run([os.path.join(ROOT, "tools", "digest"), ROOT], capture_output=True,
                          text=True, check=True).stdout
    assert host in tool


def test_digest_detects_a_changed_byte():
    import tempfile
    import shutil
    tmp = tempfile.mkdtemp()
    try:
        os.makedirs(os.path.join(tmp, "firmware", "sub"))
        os.makedirs(os.path.join(tmp, "hal", "__pycache__"))
        for rel, data in (("firmware/a.py", b"x = 1\n"), ("firmware/sub/b.mpy", b"\x00\x01"),
                          ("hal/__pycache__/c.py", b"ignored"), ("firmware/notes.md", b"no"),
                          ("main.py", b"import firmware\n")):
            with open(os.path.join(tmp, rel), "wb") as f:
                f.write(data)
        d = Digest(tmp)
        first = d.run()
        assert [f[0] for f in d.files] == ["firmware/a.py", "firmware/sub/b.mpy", "main.py"]
        with open(os.path.join(tmp, "firmware", "a.py"), "wb") as f:
            f.write(b"x = 2\n")
        assert compute(tmp) != first
    finally:
        shutil.rmtree(tmp)


def test_shell_equivalent_digest():
    import subprocess
    script = ("find firmware hal -type d \\( -name __pycache__ -o -name '.*' \\) -prune -o "
              "-type f \\( -name '*.py' -o -name '*.mpy' \\) -print | "
              "{ cat; ls boot.py main.py 2>/dev/null; } | LC_ALL=C sort | "
              "while read -r f; do printf '%s\\n%s\\n' \"$f\" \"$(stat -c %s \"$f\")\"; cat \"$f\"; done"
              " | sha256sum")
    out = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()[0]
    assert out == compute(ROOT)


def test_every_screen_fits_the_display():
    s, b, m, d = _setup()
    main = m.stack[0]
    for label, _ in main.items[:-1]:
        d.enter(label)
        if "ENTER PIN" in d.text():
            d.pin(TECH_PIN)
        for code in (B.NEXT, B.BET_DOWN, B.BET_UP, B.PREV, B.NEXT, B.NEXT):
            d.press(code)
        d.press(B.CLEAR)
    assert m.overflow == 0


def test_station_text_setting_shows_on_meters_page():
    s, b, m, d = _setup(credits=0, games=0)
    _auth(d)
    while m.top().cur != C.index("station"):
        d.press(B.NEXT)
    d.press(B.ROLL, B.BET_UP, B.ROLL)  # C -> D
    assert "SAVED" in d.text() and s.ledger.config["station"] == "DRAPS-01"
    d.press(B.ROLL)
    d.enter("Meters")
    assert "DRAPS-01" in d.text()


def test_last_bills_shows_all_ten_a_page_at_a_time():
    # issue 23: "LAST BILLS 10" showed 7 bills and nothing scrolled
    s, b, m, d = _setup(games=0, credits=0)
    for i in range(12):
        s.credit(b.clock.now(), TR.SRC_BILL, (i % 3 + 1) * 100)   # $1 $2 $3 $1 ...
        b.clock.advance(60000)
    d.enter("Last bills")
    pages = [d.text()]
    d.press(B.NEXT)
    pages.append(d.text())
    d.press(B.NEXT)
    assert d.text() == pages[0]                     # two pages, then round again
    assert pages[0].split("\n")[0].strip() == "LAST BILLS 10"
    amounts = []
    for p in pages:
        for line in p.split("\n")[1:]:
            line = line.strip()
            if len(line) == 16 and line[2] == "-" and line[8] == ":":
                amounts.append(int(line[-4:]))
    # the ten newest, newest first: bills 11 down to 2 ($3 $2 $1 ...)
    assert amounts == [(i % 3 + 1) for i in range(11, 1, -1)], amounts
    assert "1-6" in pages[0] and "7-10" in pages[1]
