"""Money on the player station's screens is never cut (issue 11 review:
credits of $1,150.00 read "CR 115" while the dice shook, "CR 184." on the
result, a bet "OFF 6.0", MY BETS "Hardway8 OF 1.00").

Every screen that shows an amount is built for amounts from 0.01 to
99,999.99: credits, the bets' total, one bet, a win or a loss, a handpay, a
refused REBET bet. The exact amount must be on it whole, as dollars.cents
or (no cents only) "$N", as a word of its own; every line fits 16
characters, a line with 2x/3x digits is drawn by render.draw_line into a
frame buffer twice the display's width and must leave every pixel right of
128 dark, and the lines fit the 64 pixel rows.

CI: the amounts at every change of length (9.99, 10.00, ...) with and
without cents, plus a seeded sample; FULL=1 a seeded 20,000:
  FULL=1 .venv/bin/pytest -s tests_host/test_money_screens.py
Plain asserts: CPython and the MicroPython unix port.
"""
from hal.mock.board import Board
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.rules.table import WIN, LOSE, PUSH
from firmware.store import ledger as L
from firmware.cabinet.drive import Driver
from firmware.cabinet import screens as S
from firmware.cabinet import stopped as ST
from firmware.cabinet import player as PL
from firmware.cabinet import rebet
from firmware import fmt
from screen_fit import fits


def _full():
    try:
        import os
        return os.getenv("FULL") == "1"
    except (ImportError, AttributeError):
        return False


def amounts(full=False):
    """Cents: both sides of every change of length, then a seeded sample."""
    out = [1, 99]
    for k in range(3, 8):
        top = 10 ** k
        out += [top - 1, top - 100, top, top + 1, top + 50]
    out = [a for a in out if 0 < a < 10 ** 7]
    s = 12345
    for _ in range(20000 if full else 120):
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        n = (s >> 4) % 10 ** ((s & 7) % 7 + 1)  # every length equally
        out.append(max(1, n if s & 8 else n - n % 100))  # half whole dollars
    return out


def _no_cents(m):
    """The other exact form of an amount with no cents: '+$25' for '+25.00'."""
    if not m.endswith(".00"):
        return m
    sign = m[:1] if m[:1] in "+-" else ""
    return sign + "$" + m[len(sign):-3]


def _plain(line):
    for m in "\x01\x02\x03\x04":
        line = line.replace(m, " ")
    return line


def _has(lines, text):
    """True when `text` (an amount) is a whole word on one of the lines."""
    for line in lines:
        p = " " + _plain(line) + " "
        i = p.find(text)
        while i >= 0:
            if p[i - 1] == " " and p[i + len(text)] == " ":
                return True
            i = p.find(text, i + 1)
    return False


def check(lines, amount_text, where):
    fits(lines, where)
    assert _has(lines, amount_text) or _has(lines, _no_cents(amount_text)), \
        (where, amount_text, lines)


def cabinet():
    b = Board(seed=1, fake_clock=True, flash_size=131072)
    d = Driver(b, draw=True, profile="table")
    d.bill(100)
    d.press("BET_UP")            # pass line 1.00
    while d.ctl.player.sel != (W.HARD, 8):
        d.press("HARD")          # hard 4, 6, 8
    d.press("BET_UP")
    table = d.ctl.store.ledger.table
    if table.working(table.find(W.HARD, 8)):
        d.press("ONOFF")         # called OFF: MY BETS lost the OFF for long names
    return b, d


def sweep(full=False):
    b, d = cabinet()
    ctl = d.ctl
    led = ctl.store.ledger
    table = led.table
    now = b.clock.ticks_ms()
    pages = PL.pages()
    hard = table.find(W.HARD, 8)
    assert hard is not None and not table.working(hard)
    saved = (table.credits, table.staked, hard[2], led.last_game, led.lock, led.lock_arg)
    n = 0
    try:
        for a in amounts(full):
            m = fmt(a)
            table.credits = a
            check(S.betting_screen(ctl, now), m, "betting credits")
            check(S.rolling_screen(ctl, now), m, "rolling credits")
            check(ST.suspended_screen(led), m, "suspended credits")
            table.credits, table.staked = saved[0], a
            check(S.betting_screen(ctl, now), m, "betting total")
            check(S.rolling_screen(ctl, now), m, "rolling total")
            check(pages.mybets_screen(ctl, now)[0], m, "MY BETS total")
            table.staked = saved[1]
            hard[2] = a
            ctl.player.sel = (W.HARD, 8)
            check(S.betting_screen(ctl, now), m, "betting bet")
            line = S.betting_screen(ctl, now)[3]
            assert line.startswith("OFF "), line
            ctl.player.page_i = 1
            lines = pages.mybets_screen(ctl, now)[0]
            check(lines, m, "MY BETS bet")
            assert " OFF " in lines[2], lines
            hard[2] = saved[2]
            led.lock, led.lock_arg = L.LK_HANDPAY, a
            check(ST.lock_screen(led), m, "handpay")
            led.lock, led.lock_arg = saved[4], saved[5]
            check(rebet.notice(0, [(W.PLACE, 6, a, R.NO_CREDITS)], table), m, "rebet")
            ctl.game.last_faces = (3, 4)
            table.credits = a
            led.last_game = [(W.PASS, 0, 100, WIN, 100, 0, 0, 1)]
            check(S.result_screen(ctl, now), m, "result credits")
            table.credits = saved[0]
            for settled, text in (([(W.PASS, 0, 100, WIN, a, 0, 0, 1)], "+" + m),
                                  ([(W.HARD, 8, a, LOSE, 0, 0, 0, 0)], "-" + m),
                                  ([(W.PLACE, 6, a, PUSH, a, 0, 0, 0)], m)):
                led.last_game = settled
                lines = S.result_screen(ctl, now)
                check(lines, text, "result")
                assert _has(lines[3:], text) or _has(lines[3:], _no_cents(text)), lines
            n += 1
    finally:
        table.credits, table.staked, hard[2], led.last_game, led.lock, led.lock_arg = saved
    return n


def test_money_never_cut_on_any_screen():
    n = sweep(_full())
    assert n >= 140
    print("money screens: %d amounts, every screen" % n)


def test_pair_keeps_amounts_whole():
    assert S.pair("CR", "20.50", "PT", "OFF>4") == "CR 20.50   OFF>4"
    assert S.pair("CR", "20.00", "PT", "4") == "CR 20.00    PT 4"
    assert S.pair("CHIP", "100.00", "PT", "OFF") == "CHIP $100 PT OFF"
    assert S.pair("CR", "99999.99", "PT", "OFF>10") == "99999.99  OFF>10"
    assert S.pair("OFF", "99999.99", "PAYS", "11:5-57:5", True) is None
    assert S.dollars("1150.00") == "$1150" and S.dollars("-5.00") == "-$5"
    assert S.dollars("+0.50") == "+0.50"
    assert S.big("CR", "999.99") == "CR\x02999.99"
    assert S.big("CR", "1150.00") == "CR\x021150.00"
    assert S.big("CR", "1150.50") == "CR\x021150.50"   # issue 22: it fell back to 1x


def test_large_digits_to_99999_99():
    """Issue 22: credits, a win and the countdown in large (2x) digits for
    every amount to $99,999.99 (credits of $1,000 or more with cents fell
    back to 1x; the countdown was always 1x), each whole within the 128
    pixels (check())."""
    b, d = cabinet()
    ctl = d.ctl
    table = ctl.store.ledger.table
    led = ctl.store.ledger
    now = b.clock.ticks_ms()
    g = ctl.game
    saved = (table.credits, g.remaining_ms, led.last_game)
    n = 0
    try:
        for a in amounts(_full()):
            m = fmt(a)
            table.credits = a
            for ms in (-1, 5000, 45000):
                g.remaining_ms = ms
                lines = S.betting_screen(ctl, now)
                check(lines, m, "betting credits")
                assert "\x02" + m in lines[0] or "\x02" + _no_cents(m) in lines[0], lines[0]
                if ms > 0:  # the seconds, 2x, right of the credits
                    assert lines[0].endswith("\x02%d" % g.countdown_s()), lines[0]
            g.remaining_ms = -1
            led.last_game = [(W.PASS, 0, 100, WIN, a, 0, 0, 1)]
            lines = S.result_screen(ctl, now)
            check(lines, "+" + m, "result net")
            assert "\x02+" + m in lines[2] or "\x02" + _no_cents("+" + m) in lines[2], lines
            n += 1
    finally:
        table.credits, g.remaining_ms, led.last_game = saved
    assert n >= 140


def test_statistics_board_fits_before_the_first_roll_and_after():
    # the empty board once drew 9 lines: its last (NO ROLL 2 3 4) off the panel
    from firmware.cabinet import pages
    b, d = cabinet()
    lines = pages.stats_screen(d.ctl)
    fits(lines, "stats before any roll")
    assert any("NO ROLLS YET" in line for line in lines)
    assert lines[-1].startswith("NO ROLL ")
    assert d.roll()
    fits(pages.stats_screen(d.ctl), "stats after a roll")
