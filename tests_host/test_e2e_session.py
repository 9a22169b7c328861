"""End-to-end: the real controller on the mock board, driven step by step
with a fake clock (no sleeping). Plain asserts: runs on CPython (pytest) and
on the MicroPython unix port (tests_host/mp_runner.py).

Every test ends with check(): ledger.balance_check() == 0, the journal
replayed on a copy of the flash gives the same table and meters, and a
shadow engine Table fed with the same committed records settled every roll
to the same credits and bets.
"""
import gc

from hal import buttons as B
from hal import printer as PR
from hal.mock.board import Board
from hal.mock.norflash import NorFlash
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.rules.table import Table
from firmware.rules import profiles as P
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import ledger as L
from firmware.store.store import Store
from firmware.cabinet.drive import Driver
from firmware.cabinet import loop
from firmware.cabinet import game as G

FLASH = 131072


class Shadow:
    """The engine's own settlement, fed with every record the store committed."""

    def __init__(self, store):
        self.store = store
        self.table = Table(store.ledger.table.p)
        self.table.load(store.ledger.table.encode())
        self.rolls = 0
        inner = store.commit

        def commit(payload):
            code = inner(payload)
            if code == R.OK:
                self.apply(payload)
            return code
        store.commit = commit

    def apply(self, payload):
        rtype, time, f, tail = T.unpack(payload)
        t = self.table
        if rtype == T.CREDIT:
            t.credit(f[1])
        elif rtype == T.BET:
            assert t.place(f[0], f[2], f[1]) == R.OK
        elif rtype == T.REMOVE:
            assert t.remove(f[0], f[1], f[2]) == R.OK
        elif rtype == T.WORKING:
            assert t.set_working(f[0], f[1], bool(f[2])) == R.OK
        elif rtype in (T.CLEAR, T.VOID):
            t.return_fresh()
        elif rtype == T.CLOSE:
            t.close_betting()
        elif rtype == T.ROLL:
            assert t.roll(f[0], f[1]) == R.OK
            self.rolls += 1
        elif rtype == T.CASHOUT or (rtype == T.TICKET and f[0] == T.TK_PENDING):
            t.cashout()

    def same(self):
        a = self.store.ledger.table
        return a.credits == self.table.credits and a.bets == self.table.bets \
            and a.point == self.table.point


def make(seed=1, timer=5, profile=None, flash=None, store=None, **opts):
    """A fresh cabinet: mock board (fake clock) and its driver; `store`
    builds the Store from the flash (default: the controller's own)."""
    b = Board(seed=seed, fake_clock=True, flash=flash is None, flash_size=FLASH, **opts)
    if flash is not None:
        b.flash = flash
    d = Driver(b, draw=True, profile=profile,
               store=store(b.flash) if store is not None else None)
    st = d.ctl.store
    if st.ledger.config["bet_timer_s"] != timer and not st.critical:
        st.set_config(b.clock.now(), "bet_timer_s", str(timer))
    return b, d


def run_loop(d, stop):
    """The real main loop (Controller.run under asyncio) until stop(): its
    sleeps move the mock board's fake clock, so a minute of play takes no
    minute of the wall."""
    import asyncio
    clock = d.board.clock

    async def sleep(ms):
        clock.advance(max(ms, 1))
        await asyncio.sleep(0)
    real = loop._sleeper
    loop._sleeper = lambda: sleep
    try:
        asyncio.run(d.ctl.run(stop))
    finally:
        loop._sleeper = real


def check(d, shadow=None):
    st = d.ctl.store
    led = st.ledger
    assert led.balance_check() == 0
    assert led.table.on_table() == sum(b[2] for b in led.table.bets)
    if shadow is not None:
        assert shadow.same(), (led.table.bets, shadow.table.bets)
    gc.collect()
    copy = NorFlash(FLASH)
    src = d.board.flash
    for i in range(len(copy.secs)):  # sector by sector: no 128 KB block on a small heap
        copy.secs[i][:] = src.secs[i]
    st2 = Store(copy)
    assert st2.boot(0) != 3  # not CRITICAL
    assert st2.ledger.table.encode() == led.table.encode()
    m1, m2 = led.meters, st2.ledger.meters
    for key in ("total_in", "total_out", "wagered", "won", "returned", "vig", "games",
                "handpays", "tickets", "voided", "cocked", "stuck"):
        assert m1.get(key) == m2.get(key), key
    return led


def events_of(led, n=40):
    out = []
    for i in range(min(n, led.events.count)):
        out.append(led.events.get(i)[2])
    return out


def test_money_bet_roll_cashout_ticket():
    b, d = make(seed=11)
    sh = Shadow(d.ctl.store)
    assert d.on_screen("INSERT MONEY")
    d.bill(20)
    led = d.ctl.store.ledger
    assert led.table.credits == 2000          # cents
    assert led.meters.get("bills_20") == 1
    assert d.on_screen("CR 20.00")
    d.press("BET_UP")           # pass line: the stake starts at $5
    assert led.table.find(W.PASS) is not None
    assert d.on_screen("ON 5.00")
    assert d.roll()
    assert d.on_screen("ROLL ")  # result screen after the commit
    assert sh.rolls == 1
    for _ in range(5):          # a few more rolls by timer
        if not led.table.bets:
            d.press("BET_UP")
        d.wait_result()
    check(d, sh)
    # cashout waits for a contract bet in play (docs/RULES.md: cashout with bets in play)
    pas = led.table.find(W.PASS)
    if pas is not None and led.table.in_contract(pas):
        d.run(5000)
        d.press("CASHOUT")
        assert d.on_screen("NO CASHOUT WHILE") and not b.printer.tickets
        assert led.table.find(W.PASS) is pas
    for _ in range(30):
        if not led.table.bets:
            break
        d.wait_result()
    assert not led.table.bets
    credits = led.table.credits
    d.run(5000)
    if credits:
        d.press("CASHOUT")
        assert led.table.credits == 0
        assert len(b.printer.tickets) == 1
        assert ("AMOUNT $%d.%02d" % (credits // 100, credits % 100)) in b.printer.tickets[0]
        assert d.on_screen("TICKET PRINTED")
        assert led.meters.get("tickets_out") == credits
    check(d, sh)


def test_no_bets_no_roll():
    b, d = make(seed=2)
    d.bill(5)
    d.run(30000)
    assert d.ctl.game.state == G.BETTING and d.ctl.game.rolls == 0
    assert d.on_screen("NO BET")
    d.press("ROLL")
    assert d.on_screen("PLACE A BET")
    assert b.dome.rolls == 0
    check(d)


def test_buttons_select_odds_onoff_repeat_clear():
    b, d = make(seed=3, timer=20)
    sh = Shadow(d.ctl.store)
    led = d.ctl.store.ledger
    d.bill(100)
    d.press("BET_UP", 2)                       # pass 2
    d.press("ODDS")
    assert d.on_screen("Only after")           # point off
    # (was NEXT x8 through a linear list: navigation is by group keys now)
    d.press("PLACE")                           # the place/buy/lay group
    assert d.ctl.player.sel == (W.PLACE, 4)
    d.press("NUMBER")
    d.press("PLACE")                           # after NUMBER: the key with 6 on it
    assert d.ctl.player.sel == (W.PLACE, 6)
    assert d.on_screen("Place 6")
    assert d.on_screen("7:6")
    assert d.on_screen("STAKE $6 ")           # place 6: the $5 chip made whole-paying
    d.press("BET_UP")
    assert led.table.find(W.PLACE, 6)[2] == 600
    d.press("CHIP")                            # $25 chip: $24 on the 6
    assert d.on_screen("STAKE $24")
    d.press("NUMBER")
    d.press("CHIP")                            # NUMBER then CHIP: back down
    assert d.on_screen("STAKE $6 ")
    w0 = led.table.working(led.table.find(W.PLACE, 6))   # off on the come-out
    d.press("ONOFF")
    assert led.table.working(led.table.find(W.PLACE, 6)) != w0
    d.press("ONOFF")
    d.press("BET_DOWN")                        # takes the stake off: nothing left
    assert led.table.find(W.PLACE, 6) is None
    d.press("BET_DOWN")                        # no bet: a smaller stake, $1
    assert d.on_screen("STAKE $1 ")
    d.press("BET_UP", 5)
    assert led.table.find(W.PLACE, 6)[2] == 500
    d.press("CLEAR")
    assert not led.table.bets
    d.press("PREV")
    d.press("HELP")                            # the selected wager first
    assert d.on_screen("HELP=CLOSE") and d.on_screen(" 1/")
    d.press("NEXT")
    assert d.on_screen("KEYS") and d.on_screen("2/")
    d.press("NEXT")
    assert d.on_screen("PAYS Table")           # (the betting screen shows PAYS n:n too)
    d.press("HELP")
    assert not d.on_screen("PAYS Table") and not d.on_screen("HELP=CLOSE")
    # pass line, then roll until a point, then odds
    d.press("LINE")
    assert d.ctl.player.sel == (W.PASS, 0)
    d.press("BET_UP", 2)
    rolls = 0
    while led.table.point == 0 and rolls < 20:
        if not led.table.find(W.PASS):
            d.press("BET_UP", 2)
        d.roll()
        rolls += 1
        check(d, sh)
    assert led.table.point
    while d.ctl.player.sel != (W.PASS, 0):
        d.press("NEXT")
    d.press("ODDS")
    assert led.table.find(W.PASS_ODDS, led.table.point) is not None
    d.wait_result()
    d.press("REBET")
    check(d, sh)


def test_handpay_over_limit_and_printer_not_ready():
    b, d = make(seed=4)
    st = d.ctl.store
    st.set_config(b.clock.now(), "handpay_limit", "10")
    d.bill(20)
    d.press("CASHOUT")
    led = st.ledger
    assert led.lock == L.LK_HANDPAY and led.table.credits == 0
    assert d.on_screen("HANDPAY") and d.on_screen("CALL ATTENDANT")
    assert b.money.inhibited
    assert not b.printer.tickets
    assert st.reset(b.clock.now()) == R.OK    # the attendant (audit menu) resets
    d.run(500)
    b.printer.status_value = PR.PAPER_OUT
    d.bill(5)
    d.press("CASHOUT")
    assert led.lock == L.LK_HANDPAY and led.meters.get("handpay_cc") == 2500
    check(d)


def test_print_fails_after_commit_locks_printer():
    b, d = make(seed=5)
    d.bill(10)

    def broken(lines, barcode=None, serve=None):
        return False
    b.printer.print_ticket = broken
    d.press("CASHOUT")
    led = d.ctl.store.ledger
    assert led.lock == L.LK_PRINTER
    assert E.PRINTER_FAULT in events_of(led)
    # two-phase ticket (issue 9): out of the credits, not a ticket until printed
    assert led.meters.get("total_out") == 1000 and led.ticket == 1000
    assert led.meters.get("tickets_out") == 0
    assert d.on_screen("PRINTER FAULT") and d.on_screen("TICKET 10.00")
    check(d)


def test_cocked_die_rerolls_automatically():
    b, d = make(seed=6)
    led = d.ctl.store.ledger
    d.bill(20)
    d.press("BET_UP", 3)
    b.dome.cocked_permille = 1000       # next outcome: both dice cocked
    d.press("ROLL")
    assert d.until(lambda: led.rerolls == 1, 30000)
    assert d.until(lambda: d.on_screen("COCKED DIE"), 2000)
    b.dome.cocked_permille = 0
    assert d.wait_result()
    assert led.meters.get("cocked") == 1 and led.lock == 0
    assert led.recall.get(0)["rerolls"] == 1
    check(d)


def test_consecutive_cocked_malfunction_voids_and_locks():
    b, d = make(seed=7)
    led = d.ctl.store.ledger
    d.bill(20)
    d.press("BET_UP", 4)
    before = led.table.credits + led.table.on_table()
    b.dome.cocked_permille = 1000
    d.press("ROLL")
    assert d.until(lambda: led.lock != 0, 120000)
    assert led.lock == L.LK_MALFUNCTION
    assert led.meters.get("cocked") == 3 and led.meters.get("voided") == 1
    assert led.table.credits == before and not led.table.bets  # plays voided
    assert led.recall.get(0)["voided"]
    assert d.on_screen("MALFUNCTION")
    assert d.ctl.game.state == G.BETTING and not b.shaker.running
    d.press("BET_UP")
    assert not led.table.bets
    check(d)


def test_dice_not_moving_reshake_then_shaker_lock():
    b, d = make(seed=8)
    led = d.ctl.store.ledger
    d.bill(20)
    d.press("BET_UP", 2)
    b.dome.stuck_permille = 1000
    d.press("ROLL")
    assert d.until(lambda: led.rerolls == 1, 30000)
    b.dome.stuck_permille = 0
    assert d.wait_result()
    assert led.meters.get("stuck") == 1
    d.press("BET_UP")
    b.dome.motor_fail = True
    d.press("ROLL")
    assert d.until(lambda: led.lock != 0, 120000)
    assert led.lock == L.LK_SHAKER
    assert d.on_screen("SHAKER FAULT")
    check(d)


def test_door_open_suspends_and_holds_roll():
    b, d = make(seed=9)
    led = d.ctl.store.ledger
    d.bill(20)
    d.press("BET_UP")
    b.door.set(1)
    d.run(300)
    assert led.door_open and d.on_screen("DOOR OPEN") and b.money.inhibited
    d.press("BET_UP")
    assert led.table.on_table() == 500   # one press: the $5 stake
    d.run(20000)
    assert d.ctl.game.rolls == 0 and d.ctl.game.state == G.BETTING
    b.door.set(0)
    d.run(300)
    assert not led.door_open
    d.press("ROLL")
    assert d.until(lambda: d.ctl.game.state == G.SHAKING, 3000)
    b.door.set(1)                        # mid-roll: the roll is held
    d.run(500)
    assert d.ctl.game.state == G.HELD and not b.shaker.running
    b.door.set(0)
    assert d.wait_result()
    ev = events_of(led)
    assert E.DOOR_OPEN in ev and E.DOOR_CLOSE in ev
    check(d)


def test_tilt_suspends():
    b, d = make(seed=10)
    led = d.ctl.store.ledger
    d.bill(10)
    b.tilt.set(1)
    d.run(300)
    assert led.tilt and d.on_screen("TILT")
    d.press("BET_UP")
    assert not led.table.bets
    b.tilt.set(0)
    d.run(300)
    d.press("BET_UP")
    assert led.table.bets
    ev = events_of(led)
    assert E.TILT in ev and E.TILT_CLEAR in ev
    check(d)


def test_audit_key_waits_for_roll_end():
    b, d = make(seed=12)
    led = d.ctl.store.ledger
    d.bill(10)
    d.press("BET_UP")
    d.press("ROLL")
    assert d.until(lambda: d.ctl.game.state == G.SHAKING, 3000)
    b.audit_key.set(1)
    d.run(500)
    assert not led.audit and d.ctl.game.rolling()
    assert d.until(lambda: led.audit, 30000)
    assert d.ctl.game.rolls == 1 and d.ctl.audit_mode
    assert b.money.inhibited
    d.press("BET_UP")                    # goes to the menu, not the table
    assert led.table.on_table() == 500   # one press: the $5 stake
    rolls = d.ctl.game.rolls
    d.run(30000)
    assert d.ctl.game.rolls == rolls     # no roll while in audit
    b.audit_key.set(0)
    d.run(300)
    assert not led.audit and not d.ctl.audit_mode
    ev = events_of(led)
    assert E.AUDIT_ON in ev and E.AUDIT_OFF in ev
    check(d)


def test_credit_limit_inhibits_money():
    b, d = make(seed=13)
    d.ctl.store.set_config(b.clock.now(), "credit_limit", "30")
    d.bill(20)
    assert not b.money.inhibited
    d.bill(20)
    assert d.ctl.store.ledger.table.credits == 4000
    assert b.money.inhibited
    assert not b.insert_bill(5)
    check(d)


def test_critical_memory_locks_everything():
    b, d = make(seed=14)
    d.bill(10)
    flash = b.flash
    for i in range(flash.size // 4096):          # wreck both copies
        flash.secs[i][:] = bytes(4096)
    b2, d2 = make(seed=14, flash=flash)
    assert d2.ctl.store.critical
    assert d2.on_screen("MEMORY ERROR")
    assert b2.money.inhibited
    d2.press("BET_UP")
    d2.run(20000)
    assert d2.ctl.game.state == G.HALTED and not b2.shaker.running


def test_coin_and_bill_counted_once():
    b, d = make(seed=15)
    d.bill(5)
    d.coin(1)
    d.coin(1)
    d.bill(1)
    led = d.ctl.store.ledger
    assert led.table.credits == 800
    assert led.meters.get("coins_in") == 200 and led.meters.get("bills_in") == 600
    d.run(5000)
    assert led.table.credits == 800
    check(d)


def test_power_cut_in_closed_phase_rerolls_same_bets():
    b, d = make(seed=16)
    led = d.ctl.store.ledger
    d.bill(20)
    d.press("BET_UP", 3)
    d.press("ROLL")
    assert d.until(lambda: d.ctl.game.state == G.SHAKING, 3000)
    bets = [list(x) for x in led.table.bets]
    assert led.phase == L.CLOSED
    # power cut: new board (RAM and counters lost), same flash
    b2, d2 = make(seed=99, flash=b.flash)
    led2 = d2.ctl.store.ledger
    assert led2.phase == L.CLOSED and led2.table.bets == bets
    assert d2.ctl.game.state == G.SHAKING
    assert d2.wait_result()
    assert led2.meters.get("games") == 1
    check(d2)


def test_erase_maintenance_runs_when_idle():
    b, d = make(seed=17)
    st = d.ctl.store
    d.bill(50)
    for _ in range(40):
        d.press("BET_UP")
        d.press("BET_DOWN")
    before = d.ctl.erases
    d.run(10000)
    assert st.erase_pending() is False or d.ctl.erases > before
    assert not b.money.inhibited
    check(d)


def erase_due(seed, **opts):
    """A cabinet (make()) whose journal wants a sector erased ahead."""
    b, d = make(seed=seed, **opts)
    st = d.ctl.store
    d.bill(50)
    for _ in range(400):  # commits until the log has used a prepared sector
        d.press("BET_UP")
        d.press("BET_DOWN")
        if st.erase_pending():
            break
    assert st.erase_pending()
    return b, d


def test_no_erase_while_a_key_settles():
    """A key that went down but is not debounced yet keeps the loop polling:
    an erase then (tens of ms with the CPU stopped on rp2) let a short press
    go unseen on the emulated Pico."""
    b, d = erase_due(17)
    st = d.ctl.store
    last = d.ctl._last_input
    assert d.until(lambda: b.clock.ticks_ms() - last >= 2980, 4000)
    before = d.ctl.erases
    b.buttons.set_raw(1 << B.NEXT)  # down 20 ms before the loop would be idle
    d.run(40)
    assert b.buttons.busy() == 1 << B.NEXT
    assert b.clock.ticks_ms() - last >= 3000 and not d.ctl.idle(b.clock.ticks_ms())
    assert d.ctl.erases == before and st.erase_pending()
    d.run(100)
    assert b.buttons.held() == 1 << B.NEXT and b.buttons.busy() == 0
    check(d)


def test_profile_etg_screens():
    b, d = make(seed=18, profile="etg")
    led = d.ctl.store.ledger
    assert led.config["profile"] == "etg"
    d.bill(20)
    d.press("BET_DOWN")            # no bet: the stake goes down to $1
    assert d.on_screen("STAKE $3")  # but a first pass bet is at least 002's $3
    d.press("BET_UP")
    assert led.table.find(W.PASS)[2] == 300
    d.press("BET_UP", 2)           # then $1 a press
    assert led.table.find(W.PASS)[2] == 500
    check(d)


def test_audit_money_pulse_test_is_never_credited():
    b, d = make(seed=15)
    led = d.ctl.store.ledger
    d.bill(10)
    b.audit_key.set(1)
    assert d.until(lambda: d.ctl.audit_mode, 3000)
    assert b.money.inhibited
    b.money.inhibit(False)               # the menu's pulse test opens the inputs
    b.insert_bill(5)
    b.insert_coin(2)
    d.run(3000)
    assert led.table.credits == 1000 and led.meters.get("total_in") == 1000
    b.audit_key.set(0)
    d.run(3000)                          # leaving: those pulses stay uncredited
    assert not d.ctl.audit_mode
    assert led.table.credits == 1000 and led.meters.get("total_in") == 1000
    d.bill(5)                            # and real money after it still counts once
    assert led.table.credits == 1500
    check(d)


def test_sounds_last_call_no_more_bets_win_seven_out():
    """Issue 22: the buzzer played only on a net win. Last call when the
    countdown reaches 5 s, no more bets when the bets close, a win, a seven
    out; each its pattern (hal/buzzer.py) on the PWM pin."""
    from hal import buzzer as BZ
    b, d = make(seed=5, timer=15)
    bz = b.buzzer
    d.bill(20)
    d.press("BET_UP")                   # pass 5
    g = d.ctl.game
    assert d.until(lambda: g.countdown_s() == 6)
    assert bz.cues == 0
    assert d.until(lambda: g.countdown_s() == 5, 1500) and bz.last == BZ.LAST_CALL
    b.dome.forced.append((3, 4))        # a 7 on the come-out: pass wins
    assert d.wait_result()
    assert bz.last == BZ.WIN and bz.cues == 3
    d.run(1000)
    assert b.tones[-5:] == [f for f, ms in BZ.PATTERNS[BZ.WIN]] + [0]
    b.dome.forced.append((2, 2))        # point 4
    assert d.roll() and bz.last == BZ.NO_MORE_BETS
    b.dome.forced.append((1, 1))        # no decision for the pass line: silence
    cues = bz.cues
    assert d.roll() and bz.cues == cues + 1 and bz.last == BZ.NO_MORE_BETS
    b.dome.forced.append((3, 4))        # seven out
    assert d.roll() and bz.last == BZ.SEVEN_OUT
    d.run(2000)
    assert b.tones[-4:] == [f for f, ms in BZ.PATTERNS[BZ.SEVEN_OUT]] + [0]
    check(d)


def test_result_screen_draws_big_total_and_net():
    b, d = make(seed=5)
    d.bill(20)
    d.press("BET_UP")                   # pass 5
    b.dome.forced.append((5, 6))        # 11: pass wins
    d.press("ROLL")
    g = d.ctl.game
    assert d.until(lambda: g.rolls == 1)
    d.run(100)
    assert d.on_screen("ROLL 11") and d.on_screen("WINNER +5.00")
    fb = b.display
    # the total "11" in 3x: 24 pixel rows lit between y 8 and 32 at the left
    rows = [y for y in range(64) if any(fb.get(x, y) for x in range(32, 80))]
    assert rows and rows[0] <= 12 and rows[-1] >= 50
    tall = [y for y in range(8, 32) if any(fb.get(x, y) for x in range(32, 80))]
    assert len(tall) >= 20             # a 1x line is 7 pixels tall


def _meters(led):
    return [led.meters.v[i] for i in range(len(led.meters.v))]


def test_an_exception_in_a_player_action_is_a_refusal():
    # issue 19: the engine (or the player side) raising during a press is a
    # refusal: nothing changes, "Not available", logged and metered, and the
    # cabinet plays on (no reset, no lock)
    from firmware.store import meters as M
    b, d = make(seed=19)
    sh = Shadow(d.ctl.store)
    st = d.ctl.store
    led = st.ledger
    d.bill(20)
    d.press("BET_UP")                            # pass line $5
    table = led.table.encode()
    meters = _meters(led)
    events = led.events.total
    real = Table.place
    calls = []

    def broken(self, kind, amount, number=0):
        calls.append(kind)
        self.credits -= amount                   # half done, then a bug
        self.bets.append([kind, number, amount, 0, 0, amount])
        raise TypeError("an engine bug")
    Table.place = broken
    try:
        d.press("PROPS")
        d.press("BET_UP")                        # field $5: the engine raises
    finally:
        Table.place = real
    assert calls == [W.FIELD]
    assert d.on_screen("Not available")
    assert led.table.encode() == table
    after = _meters(led)
    i = M.index("action_faults")
    assert after[i] == meters[i] + 1
    after[i] = meters[i]
    assert after == meters
    assert led.events.total == events + 1
    assert led.events.get(0)[2:] == (E.ACTION_FAULT, T.BET)
    assert not st.critical and not led.lock and not b.watchdog.starved()
    d.press("BET_UP")                            # plays on: the field goes up
    assert led.table.find(W.FIELD) is not None
    assert d.roll()
    check(d, sh)

    # a program error in the player side (outside the store): the same, arg
    # 0x100 + key (no memory there is a restart: test_restart.py)
    from firmware.cabinet import player as PL
    real_act = PL.Player.act

    def broken_act(self, code, ctl, table, sel):
        raise KeyError("a player-side bug")
    PL.Player.act = broken_act
    before = led.table.encode()
    try:
        d.press("BET_UP")
    finally:
        PL.Player.act = real_act
    assert d.on_screen("Not available") and led.table.encode() == before
    assert led.events.get(0)[2:] == (E.ACTION_FAULT, 0x100 | B.BET_UP)
    assert led.meters.get("action_faults") == meters[i] + 2
    assert not st.critical and d.ctl.game.state != G.HALTED
    d.press("BET_UP")
    assert led.table.encode() != before
    check(d, sh)
