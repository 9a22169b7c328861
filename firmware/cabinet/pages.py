"""What a player uses now and then (firmware.cabinet.player.pages): the
pages over the betting screen besides help (MY BETS: every bet on the
layout, take one down or call it ON/OFF; the roll statistics board) and
cashout with bets in play.
"""
from micropython import const
from hal import buttons as B
from firmware.rules import reasons as R
from firmware.rules import wagers as W
from firmware.cabinet.paytext import name, money
from firmware.cabinet import player as PL
from firmware.cabinet.screens import W16, fit, center, msg_lines, bet_row

MYBETS_ROWS = const(5)
_DICE_ROWS = const(2)   # the statistics' rolls drawn as dice: 2 rows of 3
_DICE_COLS = const(3)
_cache: list = [None, None]   # [rolls, figures]: the statistics, computed once per roll


def screen(ctl, now_ms):
    """(lines, dice, inverted line) of the open page."""
    if ctl.player.page == PL.MYBETS:
        return mybets_screen(ctl, now_ms)
    return stats_screen(ctl), None, -1


def on_key(p, code, ctl, table):
    """(handled, message) for a key while MY BETS or the statistics are up."""
    if p.page == PL.STATS:
        if code == B.MYBETS:
            p.page = PL.BETTING
            return True, ""
        return code in (B.NEXT, B.PREV), ""
    if code == B.MYBETS:
        p.page = PL.STATS
        return True, ""
    if not table.bets:
        return code in (B.NEXT, B.PREV), ""
    if code == B.NEXT or code == B.PREV:
        p.page_i = (p.page_i + (1 if code == B.NEXT else -1)) % len(table.bets)
        cursor_sel(p, table)
        return True, ""
    if code in (B.BET_DOWN, B.ONOFF, B.BET_UP):
        if ctl.game.rolling():
            return True, "BETS CLOSED\nwait for result"
        cursor_sel(p, table)
        kind, number = p.sel
        if code == B.BET_DOWN:
            text = p.result(ctl.store.remove(ctl.now_s(), kind, number, 0), table, p.sel,
                            "BET TAKEN DOWN")
        else:
            text = p.act(code, ctl, table, p.sel)
        cursor_sel(p, table)
        return True, text
    return False, ""


def cursor_sel(p, table):
    """The MY BETS cursor stays on a bet; the selection follows it."""
    n = len(table.bets)
    if not n:
        p.page_i = 0
        return
    if p.page_i >= n:
        p.page_i = n - 1
    b = table.bets[p.page_i]
    p.sel = (b[0], b[1])


def take_down_all(ctl, now, held=False):
    """Cashout with bets on the table:
    refused while a contract bet is in play, else every bet comes down into
    the credits first, so nothing is left rolling for the next player.
    `held`: the SAS host disabled play, so a contract bet can be neither
    played out nor taken down: it stays (it is decided when play is enabled
    again) and the rest comes down. Returns the refusal, or '' when every
    bet that may come down is down."""
    table = ctl.store.ledger.table
    for b in table.bets:
        if table.in_contract(b) and not held:
            return "NO CASHOUT WHILE\n%s PLAYS" % name(b[0], b[1], W16 - 6)
    for odds_first in (True, False):
        for b in list(table.bets):
            if (b[0] in W.ODDS_BASE) == odds_first and table.find(b[0], b[1]) is b \
                    and not table.in_contract(b):
                code = ctl.store.remove(now, b[0], b[1], 0)
                if code != R.OK:
                    return PL.message(code)
    return ""


def _stats(ctl):
    rolls = ctl.game.rolls
    if _cache[0] != rolls or _cache[1] is None:
        _cache[0] = rolls
        _cache[1] = roll_stats(ctl.store.ledger.recall)
    return _cache[1]


def mybets_screen(ctl, now_ms):
    """Every bet on the layout, MYBETS_ROWS a page, the cursor inverted; the
    last two lines say what a key did (the whole message), else which keys
    act here."""
    led = ctl.store.ledger
    table = led.table
    p = ctl.player
    bets = table.bets
    rows = MYBETS_ROWS
    n = len(bets)
    pages = max(1, (n + rows - 1) // rows)
    page = p.page_i // rows if n else 0
    title = "MY BETS" if pages == 1 else "BETS %d/%d" % (page + 1, pages)
    total = money(table.on_table())  # dollars.cents: no room for "BET"
    if pages > 1 and len(title) + len(total) >= W16:
        title = title[5:]  # the page number before the total
    lines = [fit(title, total)]
    if not n:
        return lines + ["", center("NO BETS ON"), center("THE TABLE"), "", "", "",
                        "MYBETS: STATS"], None, -1
    for i in range(page * rows, page * rows + rows):
        if i < n:
            b = bets[i]
            lines.append(bet_row(b[0], b[1], "ON" if table.working(b) else "OFF", money(b[2])))
        else:
            lines.append("")
    m1, m2 = msg_lines(ctl.message(now_ms))
    lines += [m1, m2] if m1 else ["BET-:DOWN ONOFF", "MYBETS: STATS"]
    return lines, None, 1 + p.page_i - page * rows


def stats_screen(ctl):
    """The board commercial cabinets show: the last rolls, each as its dice
    (10x10) and its total, then older totals, the point, rolls this shooter,
    hot and cold totals of the last 100 (hot_cold)."""
    table = ctl.store.ledger.table
    rolls, counts, shooter, _ = _stats(ctl)
    lines = [fit("ROLLS", "POINT %s" % (table.point or "OFF"))]
    if not rolls:
        lines += ["", center("NO ROLLS YET")]   # where the dice rows go
    for r in range(_DICE_ROWS if rolls else 0):
        row = ""
        for d1, d2 in rolls[r * _DICE_COLS:r * _DICE_COLS + _DICE_COLS]:
            # render: "\x04" the two dice, "\x01" the total beside them at 1x
            row += "\x04%d%d\x01%2d" % (d1, d2, d1 + d2)
        lines.append(row)
    older = "THEN"
    for d1, d2 in rolls[_DICE_ROWS * _DICE_COLS:]:
        s = " %d" % (d1 + d2)
        if len(older) + len(s) > W16:
            break
        older += s
    lines.append(older if len(rolls) > _DICE_ROWS * _DICE_COLS else "")
    lines.append(fit("SHOOTER ROLLS", "%d" % shooter))
    hot, cold = hot_cold(counts)
    # three two-digit totals fill the line: no room for a count beside them
    lines.append("HOT " + " ".join(str(t) for t in hot))
    lines.append(("NO ROLL " if cold and not counts[cold[0]] else "COLD ") +
                 " ".join(str(t) for t in cold))
    return lines


def hot_cold(counts):
    """(hot, cold) totals in `counts`, three at most each. Hot: the most
    frequent of those rolled (a total never rolled is never hot). Cold: the
    totals never rolled when there are any (the board labels them NO ROLL),
    else the least frequent."""
    order = sorted(range(2, 13), key=lambda t: (-counts[t], t))
    hot = [t for t in order[:3] if counts[t]]
    cold = [t for t in range(2, 13) if not counts[t]][:3] if not counts[order[-1]] else \
        order[-1:-4:-1]
    return hot, cold


def roll_stats(recall, now_rolls=20, window=100):
    """(last rolls' dice newest first, counts per total, rolls this shooter,
    rolls counted) from the recall ring; voided games are no rolls."""
    rolls = []
    counts = bytearray(13)
    shooter = -1
    n = 0
    for i in range(len(recall)):
        d1, d2, before, voided = recall.roll(i)
        if voided:
            continue
        if shooter < 0 and before and d1 + d2 == 7:
            shooter = n  # the seven-out was the previous shooter's last roll
        if len(rolls) < now_rolls:
            rolls.append((d1, d2))
        if n < window:
            counts[d1 + d2] += 1
            n += 1
    return rolls, counts, shooter if shooter >= 0 else n, n
