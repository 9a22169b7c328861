"""Screen text: cabinet state -> up to 8 lines of at most 16 characters
(fewer when a line uses render's 2x/3x scale marks).

Pure: reads the controller's state (store.ledger, game, player, messages)
and returns (lines, dice, invert); nothing here draws or changes state, so
tests assert on the text. render.draw() puts it on the display.
"""
from micropython import const
from hal.ticks import ticks_diff
from firmware.rules.table import WIN, LOSE
from firmware.cabinet import game as G
from firmware.cabinet.paytext import label, pays, names, money, signed, W16
from firmware.cabinet import player as PL
from firmware.cabinet import bigfont as BF

_RES = const(("", "WIN", "LOSE", "PUSH", "BACK"))
_WIDTH = const(128)
_GAP = const(3)              # render: pixels between parts of different sizes


def fit(label, value="", width=W16):
    """label left and value right justified in `width` columns (the label
    cut if needed: it is a label or a name; amounts go right, or through
    pair())."""
    room = width - len(value)
    if value:
        room -= 1
    if room < 0:
        return value[:width]
    label = label[:room]
    return label + " " * (width - len(label) - len(value)) + value


def dollars(m):
    """'1150.00' -> '$1150', '+25.00' -> '+$25': as exact (no cents) and
    two characters shorter; an amount with cents stays as it is."""
    if m[-3:] != ".00":
        return m
    i = 1 if m[:1] in "+-" else 0
    return m[:i] + "$" + m[i:-3]


def _tag(label, value):
    return label + " " + value if label else value


def pair(label, value, rlabel, rvalue, keep=False):
    """'LABEL value' left and 'RLABEL rvalue' right justified on one line,
    both values whole: a player must see an amount exactly, never cut. Short
    of room the right label goes, then an amount with no cents loses '.00'
    ('$1150'), then (unless `keep`: None) the left label."""
    for r in (_tag(rlabel, rvalue), rvalue):
        for v in (value, dollars(value)):
            left = _tag(label, v)
            if len(left) + len(r) < W16:
                return fit(left, r)
    if keep:
        return None
    for v in (value, dollars(value)):
        if len(v) + len(rvalue) < W16:
            return fit(v, rvalue)
    return fit(dollars(value), rvalue)


def _px(label, v):
    """Pixels of a 1x label then v in 2x digits (render.draw_line)."""
    return (8 * len(label) + _GAP if label else 0) + BF.width(v, 2)


def big(label, m, alt=None):
    """label (1x) then the amount m in 2x digits when all of it fits the
    display's width, or as '$N' when that fits, or with the shorter label
    `alt`; else both at 1x (labelled, the amount whole) rather than a digit
    off the screen."""
    for lb in (label,) if alt is None else (label, alt):
        for v in (m, dollars(m)):
            if _px(lb, v) <= _WIDTH:
                return lb + "\x02" + v
    return fit(label, m)


def credit_line(m, count):
    """CR and the credits m in 2x digits; while the bet timer runs, its
    seconds `count` in 2x digits at the right edge, labelled T. Short of room
    the credits' cents go when they are none, then the T, then the CR."""
    if not count:
        return big("CR", m)
    for lb in ("CR", ""):
        for t in ("T", ""):
            for v in (m, dollars(m)):
                # a 1x part (spaces, then the T) between the 2x parts
                room = _WIDTH - _px(lb, v) - _GAP - 8 * len(t) - _GAP - BF.width(count, 2)
                if room >= 0:
                    return lb + "\x02" + v + "\x01" + " " * (room // 8) + t + "\x02" + count
    return big("CR", m)  # no room for the seconds: the credits whole come first


def center(s, width=W16):
    s = s[:width]
    pad = (width - len(s)) // 2
    return " " * pad + s


def msg_lines(text):
    """A message (lines separated by newline) as two display lines."""
    if not text:
        return "", ""
    a, _, b = text.partition("\n")
    return a[:W16], b[:W16]


def puck(table):
    return "PUCK ON %d" % table.point if table.point else "PUCK OFF"


def history_line(seq):
    """Recent roll totals, newest first, as many as fit, labelled."""
    out = "LAST"
    for t in seq:
        s = " %d" % t
        if len(out) + len(s) > W16:
            break
        out += s
    return out if seq else ""


def bet_row(kind, number, word, amount, keep=True):
    """'NAME WORD' left and the amount right, all of them whole: the wager's
    short name, else its code; the amount as '$N' when whole. Short of
    room a word not `keep` goes before the name gives way to its code (a
    result row's amount says it: signed, a net; unsigned, a stake back)."""
    forms = names(kind, number)
    m = dollars(amount)
    for nm in forms:
        for w in ((word,) if keep else (word, "")):
            left = nm + " " + w if w else nm
            if len(left) + len(m) < W16:
                return fit(left, m)
    return fit(forms[1] + (" " + word if keep else ""), m)  # beyond every limit


def bet_line(s):
    """One settled/returned bet as a display line with its own net; a win
    that stays on the layout says UP (it keeps working)."""
    res = s[3]
    word = "UP" if res == WIN and s[7] else _RES[res]
    if res in (WIN, LOSE):
        return bet_row(s[0], s[1], word, signed(_net(s)), False)
    # a stake that came back shows it; one that stays up only its word
    return bet_row(s[0], s[1], word, "" if s[7] else money(s[4]))


def _net(s):
    """Winnings, or minus the stake: the paid amount holds the stake only
    where the bet came down."""
    return s[4] if s[7] else s[4] - s[2]


def net_of(settled):
    """Net result of a roll for the player: paid back minus staked, over
    every bet it decided (a returned stake nets 0, not a win)."""
    total = 0
    for s in settled or ():
        total += _net(s)
    return total


def outcome(before, total, after):
    """The roll in the words a dealer calls, for the line: NATURAL 7,
    CRAPS 3, POINT IS 8, POINT 8 MADE, SEVEN OUT."""
    if not before:
        if after:
            return "POINT IS %d" % after
        return ("NATURAL %d" if total in (7, 11) else "CRAPS %d") % total
    if total == 7:
        return "SEVEN OUT"
    if total == before:
        return "POINT %d MADE" % total
    return "POINT IS %d" % before


def net_words(settled, net):
    """(word, shorter word) for the roll's net: WINNER, LOST, PUSH (every
    stake came back), NET (wins and losses that cancel)."""
    if net > 0:
        return "WINNER", "WIN"
    if net < 0:
        return "LOST", ""  # short of room the minus says it
    for s in settled:
        if s[3] in (WIN, LOSE):
            return "NET", None
    return "PUSH", None


def _stopped():
    """firmware/cabinet/stopped.py, the screens of a cabinet that cannot be
    played (restart, lock, memory error, audit, door, tilt); imported here
    because it imports this module."""
    return __import__("firmware.cabinet.stopped", None, None, ("_",))


def build(ctl, now_ms):
    """(lines, dice or None, inverted line or -1) for the current state."""
    store = ctl.store
    led = store.ledger
    table = led.table
    game = ctl.game
    if ctl.audit_mode or store.critical or led.lock or ctl.restarting():
        return _stopped().build(ctl)
    if game.state in (G.SHAKING, G.SETTLING, G.HELD):
        return rolling_screen(ctl, now_ms), None, -1
    if led.door_open or led.tilt:
        return _stopped().build(ctl)
    if game.showing_result(now_ms) and led.last_game is not None:
        d1, d2 = game.last_faces or (0, 0)
        return result_screen(ctl, now_ms), (d1, d2, 1), -1
    m = ctl.message(now_ms)
    if m.count("\n") > 1:  # a full-screen report (REBET)
        return m.split("\n"), None, 0
    p = ctl.player
    if p.page == PL.HELP:
        pages = p.help_pages(table.p)
        i = p.page_i % (len(pages) + 1)
        if i:
            return pages[i - 1], None, -1
        from firmware.cabinet.helptext import wager_page  # loaded with help_pages
        return wager_page(table.p, p.sel[0], p.sel[1], len(pages) + 1), None, -1
    if p.page != PL.BETTING:
        return PL.pages().screen(ctl, now_ms)
    if table.credits == 0 and not table.bets and not ctl.message(now_ms):
        return attract_screen(ctl), game.last_faces, -1
    return betting_screen(ctl, now_ms), None, 2


def cr_bet(table):
    """Credits and the bets on the table, a line each: both amounts whole
    with their labels do not fit one line."""
    return [fit("CREDITS", money(table.credits)), fit("BET", money(table.on_table()))]


def rolling_screen(ctl, now_ms):
    led = ctl.store.ledger
    game = ctl.game
    if game.state == G.SHAKING:
        what = "SHAKING DICE"
    elif game.state == G.SETTLING:
        what = "DICE SETTLING"
    else:
        what = "ROLL HELD"
    m1, m2 = msg_lines(game.message(now_ms))
    if game.state == G.HELD:
        m1, m2 = "ROLL HELD", led.suspended()
    # a CASHOUT pressed now is kept for after the result
    top = ("CASHOUT AFTER", "THE ROLL") if ctl.cashout_waiting() else ("NO MORE BETS", "")
    return [center(top[0]), center(top[1]), center(what)] + cr_bet(led.table) + \
        [center(puck(led.table)), m1, m2]


def attract_screen(ctl):
    led = ctl.store.ledger
    last = ctl.game.last_faces
    lines = ["BUBBLE", "CRAPS", "", center("INSERT MONEY"), center(puck(led.table)), "",
             "LAST ROLL %d+%d=%d" % (last[0], last[1], last[0] + last[1]) if last else "",
             history_line(ctl.history)]
    return lines


def result_screen(ctl, now_ms):
    """The roll in words, its total (3x) beside large dice, the roll's net
    (2x), then the credits and each settled bet with its own net, two rows
    a page (G.result_pages)."""
    led = ctl.store.ledger
    game = ctl.game
    d1, d2 = game.last_faces or (0, 0)
    settled = led.last_game or ()
    last = led.recall.roll(0)
    before = last[2] if last else led.table.point
    lines = [outcome(before, d1 + d2, led.table.point),
             "ROLL\x03%d" % (d1 + d2)]   # render: \x03 = 3x, \x02 = 2x digits
    rows = [fit("CREDITS", money(led.table.credits))]
    if settled:
        net = net_of(settled)
        word, alt = net_words(settled, net)
        lines.append(big(word, signed(net), alt))
        for s in settled:
            rows.append(bet_line(s))
    else:
        lines.append(center("NO BET DECIDED"))
        rows.append(center("BETS STAY UP"))
    per = G.RESULT_ROWS
    page = (ticks_diff(now_ms, game.result_at) // G.RESULT_PAGE_MS) % G.result_pages(len(settled))
    for i in range(page * per, page * per + per):
        lines.append(rows[i] if i < len(rows) else "")
    return lines


def betting_screen(ctl, now_ms):
    led = ctl.store.ledger
    table = led.table
    game = ctl.game
    p = ctl.player
    kind, number = p.sel
    bet = table.find(kind, number)
    cd = game.countdown_s()
    count = ""
    if led.suspended():
        timer = led.suspended()[:6]
    elif cd >= 0:
        timer, count = "", "%d" % cd
    elif table.bets:
        timer = "--"
    else:
        timer = "NO BET"
    lines = [credit_line(money(table.credits), count),   # 2x digits (render)
             pair("BET", money(table.on_table()), "", timer),
             label(kind, number)[:W16]]
    pay = pays(table.p, kind, number)
    if bet is not None:
        state = "ON" if table.working(bet) else "OFF"
        line = pair(state, money(bet[2]), "PAYS", pay, True)
        if line is None:  # the pays go to the group's line
            line = state + " " + money(bet[2])
    else:
        line = pair("", "NO BET", "PAYS", pay) or ""   # (never None without keep)
    lines.append(line)
    code, stake = p.stake(table)  # what + adds (firmware/cabinet/stakes.py)
    lines.append(pair("STAKE", "-" if code else money(stake), "PT",
                      "%s" % (table.point or "OFF")))
    m1, m2 = msg_lines(ctl.message(now_ms))
    if not m1 and not line.endswith(pay):
        m1, m2 = fit("PAYS", pay), history_line(ctl.history)
    if not m1:
        g = PL.group_of(kind)
        ks = PL.kinds(table.p, g)
        where = "%d/%d" % (ks.index(kind) + 1, len(ks)) if kind in ks else ""
        m1, m2 = fit(PL.GROUPS[g][1], where), history_line(ctl.history)
    lines.append(m1)
    lines.append(m2)
    return lines
