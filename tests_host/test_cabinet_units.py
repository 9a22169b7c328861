"""Unit tests: money bursts, player selection, pay texts, screens, renderer.
Plain asserts, no pytest imports: runs on CPython and MicroPython."""
from hal.mock.board import Board, PulseChannel
from hal.mock.clock import FakeClock
from hal.pulses import Money
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.rules import profiles as P
from firmware.rules.table import Table, WIN, LOSE, PUSH, RETURNED
from firmware.cabinet.money import MoneyIn, BILL, COIN, GAP_MS
from firmware.cabinet import player as PL
from firmware.cabinet import paytext as PT
from firmware.cabinet import screens as S
from firmware.cabinet import render
from firmware.cabinet.ticket import civil


def _money():
    c = FakeClock()
    bill, coin = PulseChannel(c), PulseChannel(c)
    m = Money(bill, coin, lambda f: None)
    return c, bill, coin, m


def _drain(c, mi, ms):
    got = []
    for _ in range(ms // 10):
        c.advance(10)
        ch = mi.poll(c.ticks_ms())
        if ch >= 0:
            got.append((ch, mi.pending[ch]))
            mi.done(ch)
    return got


def test_money_burst_is_one_bill():
    c, bill, coin, m = _money()
    mi = MoneyIn(m, c.ticks_ms())
    bill.schedule(20, 100)
    got = _drain(c, mi, 20 * 100 + GAP_MS + 100)
    assert got == [(BILL, 20)]
    assert _drain(c, mi, 3000) == []


def test_money_counts_each_pulse_once_and_keeps_channels_apart():
    c, bill, coin, m = _money()
    bill.schedule(3, 100)
    c.advance(1000)                     # counted before start-up: not ours
    mi = MoneyIn(m, c.ticks_ms())
    coin.schedule(1, 100)
    bill.schedule(5, 100)
    got = _drain(c, mi, 3000)
    assert sorted(got) == [(BILL, 5), (COIN, 1)]
    coin.schedule(2, 100)
    coin.schedule(1, 100)               # back to back: one burst of 3
    assert _drain(c, mi, 2000) == [(COIN, 3)]


def test_money_not_done_is_kept():
    c, bill, coin, m = _money()
    mi = MoneyIn(m, c.ticks_ms())
    bill.schedule(2, 100)
    for _ in range(100):
        c.advance(10)
        mi.poll(c.ticks_ms())
    assert mi.pending[BILL] == 2 and mi.busy()  # store refused: still owed
    bill.schedule(1, 100)
    got = _drain(c, mi, 2000)
    assert got == [(BILL, 3)]


def test_selection_survives_rolls_and_profile_changes():
    # (was: the linear NEXT list; navigation is now by groups, see test_nav)
    prof = P.get("table")
    t = Table(prof)
    t.credit(10000)
    assert t.place(W.PASS, 500) == R.OK
    t.roll(3, 3)                         # point 6
    assert t.place(W.PASS_ODDS, 500) == R.OK
    assert t.place(W.COME, 500) == R.OK
    t.roll(4, 4)                         # come to 8
    assert PL.numbers(W.PASS_ODDS, t) == (6,)
    assert PL.numbers(W.COME, t) == [0, 8] and PL.numbers(W.COME_ODDS, t) == [8]
    p = PL.Player()
    p.sel = (W.HOP, 24)
    p.fix_selection(t, prof)             # no hop at the table game
    assert p.sel[0] == W.FIELD
    p.sel = (W.PLACE, 5)
    p.fix_selection(t, P.get("house"))
    assert p.sel == (W.PLACE, 5)


def test_messages_fit_two_lines():
    for code in range(len(R.MESSAGES)):
        text = PL.message(code)
        a, _, b = text.partition("\n")
        assert len(a) <= 16 and len(b) <= 16, text


def test_text_tables_cover_every_code():
    from firmware.store import events as E
    assert len(R.CODES) == len(R.MESSAGES) == R.NOT_AVAILABLE + 1
    assert R.code_name(R.LOCKED) == "locked" and R.message(99) == "Refused"
    assert R.code_name(R.DARK_DOWN) == "dark_down"
    assert len(E.NAMES) == E.COUNT == E.PRINTER_PAPER + 1  # the newest code
    assert E.name(E.AGG_MIN) == "aggregate min" and E.name(E.COUNT) == "event %d" % E.COUNT
    assert E.name(E.DEVICE_FAULT) == "device fault"


def test_pay_texts():
    prof = P.get("table")
    assert PT.pays(prof, W.PLACE, 6) == "7:6"
    assert PT.pays(prof, W.PLACE, 4) == "9:5"
    assert PT.pays(prof, W.HARD, 8) == "9:1"
    assert PT.pays(prof, W.PASS) == "1:1"
    assert PT.pays(prof, W.FIELD) == "1:1-2:1"
    assert PT.pays(prof, W.PASS_ODDS, 5) == "3:2"
    assert PT.pays(prof, W.DONT_PASS_ODDS, 4) == "1:2"
    assert PT.pays(P.get("etg"), W.HOP, 22) == "30:1"
    assert PT.pays(P.get("etg"), W.HOP, 25) == "15:1"
    assert PT.label(W.HOP, 25) == "Hop 2-5"


def test_help_pages_fit_and_follow_profile():
    for name in P.NAMES:
        prof = P.get(name)
        pages = PT.help_pages(prof)
        assert pages
        for page in pages:
            assert len(page) == 8
            for line in page:
                assert len(line) <= 16, (name, line)
        text = "\n".join("\n".join(p) for p in pages)
        assert ("Place" in text) == (W.PLACE in prof["offered"])
        assert ("Hop" in text) == (W.HOP in prof["offered"])
    casino = "\n".join("\n".join(p) for p in PT.help_pages(P.get("casino")))
    assert "32:1" in casino             # its own two/twelve pay


def test_help_starts_with_the_selected_wager_and_the_keys():
    """Issue 22: help was pay tables only, its footer naming a key the
    station does not have ("HELP=x"). Its first page is the selected
    wager's pay and limits, the second the keys; the footer names HELP."""
    from firmware.cabinet import helptext as HT
    for name in P.NAMES:
        prof = P.get(name)
        t = Table(prof)
        n = len(PT.help_pages(prof)) + 1
        assert PT.help_pages(prof)[0][0].startswith("KEYS")
        for k in prof["offered"]:
            for num in W.NUMBERS.get(k) or PL.numbers(k, t):
                page = HT.wager_page(prof, k, num, n)
                assert len(page) == 8 and all(len(l) <= 16 for l in page), page
                assert page[0] == PT.label(k, num) and page[6].endswith(" 1/%d" % n), page
                assert page[1].endswith(PT.pays(prof, k, num))
                lo, hi, _ = prof["limits"][k]
                # 003's odds laid on 5, 6, 8, 9 are $3 steps (5:6 and 2:3 in whole cents)
                steps = 300 if name == "casino" and k in (W.DONT_PASS_ODDS, W.DONT_COME_ODDS) \
                    and num in (5, 6, 8, 9) else 0
                if steps:
                    lo += -lo % steps
                    assert page[2] == "MIN $%d  STEPS $3" % (lo // 100), page
                assert page[2].startswith("MIN $%d" % (lo // 100)), page
                assert ("MAX $%d" % (hi // 100) in page[2]) if hi else \
                    page[3].startswith("MAX ") and ("X LINE BET" in page[3] or "TABLE" in page[3])
        for page in [HT.wager_page(prof, W.PASS, 0, n)] + PT.help_pages(prof):
            assert page[-1] == "NEXT HELP=CLOSE"
    assert HT.wager_page(P.get("table"), W.HORN, 0, 9)[3] == "IN STEPS OF $4"


def test_screen_helpers():
    assert S.fit("CR 5", "BET 1") == "CR 5       BET 1"
    assert len(S.fit("x" * 30, "y" * 5)) == 16
    assert S.center("AB") == "       AB"
    assert S.history_line([7, 11, 6, 8, 10, 4, 5, 9]) == "LAST 7 11 6 8 10"
    assert S.history_line([]) == ""
    for res in (WIN, LOSE, PUSH, RETURNED):
        for k in range(W.COUNT):
            for up in (0, 1):
                line = S.bet_line((k, 25, 500, res, 1200, 0, 0, up))
                assert len(line) <= 16
    # the roll's net in cents: a pass win of 5 that stays up (paid 5) and a
    # lost field 5 net 0; a place win that stays up shows UP and its winnings
    settled = [(W.PASS, 0, 500, WIN, 500, 0, 0, 1), (W.FIELD, 0, 500, LOSE, 0, 0, 0, 0)]
    assert S.net_of(settled) == 0
    assert S.bet_line(settled[0]) == "Pass Line UP +$5"
    assert S.bet_line(settled[1]) == "Field LOSE   -$5"
    assert " UP " in S.bet_line((W.PLACE, 6, 600, WIN, 700, 0, 0, 1))
    assert S.bet_line((W.COME, 6, 600, WIN, 1200, 0, 0, 0)) == "Come 6 WIN   +$6"
    assert S.net_of([(W.PASS_ODDS, 6, 1000, RETURNED, 1000, 0, 0, 0)]) == 0
    # the roll in the words a dealer calls (issue 22: it read "PT 6>OFF")
    assert [S.outcome(b, t, a) for b, t, a in ((0, 7, 0), (0, 11, 0), (0, 3, 0), (0, 8, 8),
                                                (8, 6, 8), (8, 8, 0), (8, 7, 0))] == \
        ["NATURAL 7", "NATURAL 11", "CRAPS 3", "POINT IS 8", "POINT IS 8", "POINT 8 MADE",
         "SEVEN OUT"]
    assert S.net_words(settled[:1], 500)[0] == "WINNER"
    assert S.net_words(settled, 0)[0] == "NET"
    assert S.net_words([(W.PASS_ODDS, 6, 1000, RETURNED, 1000, 0, 0, 0)], 0)[0] == "PUSH"
    from firmware import fmt
    assert (fmt(0), fmt(5), fmt(117), fmt(123456), fmt(-250)) == \
        ("0.00", "0.05", "1.17", "1234.56", "-2.50")


def test_names_are_whole_on_every_row():
    """Issue 22: names were cut unevenly ('Hardwa8', 'DontPas'). A row's
    name is the wager's short name or its code, whole, for every wager and
    number, in MY BETS (ON/OFF) and on the result (WIN/LOSE/PUSH/UP), at
    whole-dollar amounts to $9,999 (above every profile's largest stake;
    stakes are whole dollars) and amounts with cents to 99.99."""
    assert max(len(PT.SHORT[k]) for k in range(W.COUNT)) <= 10
    assert max(len(PT.TINY[k]) for k in range(W.COUNT)) <= 4
    assert PT.names(W.HARD, 8) == ("Hard 8", "H8")
    assert PT.names(W.DONT_PASS) == ("Don't Pass", "DP")
    for k in range(W.COUNT):
        for n in W.NUMBERS.get(k) or (0,):
            forms = PT.names(k, n)
            for cents in (1, 100, 500, 1234, 9999, 50000, 250000, 999900):
                for word, keep in (("ON", True), ("OFF", True), ("UP", False), ("PUSH", True),
                                   ("LOSE", False)):
                    m = PT.money(cents)
                    row = S.bet_row(k, n, word, m, keep)
                    assert len(row) == 16, row
                    nm = forms[0] if row.startswith(forms[0] + " ") else forms[1]
                    assert row.startswith(nm + " "), row
                    rest = row[len(nm):].split()
                    assert rest in ([word, m], [word, S.dollars(m)], [m], [S.dollars(m)]), row
                    assert not keep or rest[0] == word, row


def test_labels_fit_for_every_selection():
    for name in P.NAMES:
        prof = P.get(name)
        t = Table(prof)
        for k in prof["offered"]:
            for n in W.NUMBERS.get(k) or PL.numbers(k, t):
                assert len(PT.label(k, n)) <= 16
                assert len(S.fit("ON 500", PT.pays(prof, k, n))) == 16


def test_render_draws_dice_pips():
    b = Board(seed=1, fake_clock=True, flash=False)
    fb = b.display
    for face in range(1, 7):
        render.draw(fb, ["ROLL"], (face, face))
        pips = 0
        for y in range(render.DICE_Y + 2, render.DICE_Y + render.DIE - 2):
            for x in range(render.DICE_X + 2, render.DICE_X + render.DIE - 2):
                pips += fb.get(x, y)
        assert pips == 9 * face
    render.draw(fb, ["A"], None, 0)
    assert fb.get(127, 0) == 1          # inverted row


def test_civil_time():
    assert civil(0) == "1970-01-01 00:00"
    assert civil(1767225600) == "2026-01-01 00:00"
    assert civil(951782400 + 3600 * 13 + 60 * 7) == "2000-02-29 13:07"


def test_stats_hot_is_rolled_cold_says_never_rolled():
    from firmware.cabinet.pages import hot_cold
    counts = bytearray(13)
    assert hot_cold(counts) == ([], [2, 3, 4])
    counts[4] = 1
    assert hot_cold(counts) == ([4], [2, 3, 5])
    counts[7], counts[6] = 3, 2
    assert hot_cold(counts) == ([7, 6, 4], [2, 3, 5])
    counts[2:13] = bytes((3, 4, 1, 5, 6, 9, 6, 5, 4, 2, 1))  # every total rolled
    assert hot_cold(counts) == ([7, 6, 8], [12, 4, 11])  # cold = least frequent
