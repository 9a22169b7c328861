"""REBET: the last game's layout back.

The layout is the game recall's newest game (every bet the dice were last
rolled with), so it survives a power cut. Every bet of it that is not up
now, or is up for less, is placed if it can be; a bet still up is never
doubled. A come or don't come bet that had moved to its number comes back
as a new one; line odds go on the point there is now. The bets that cannot
be placed are listed with the rule that refused them.
"""
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.cabinet.paytext import money
from firmware.cabinet.screens import bet_row
from firmware.cabinet.player import refusal


def rebet(ctl, table, now):
    """Places the layout; the message to show (a full screen when a bet
    was refused)."""
    game = ctl.store.ledger.recall.get(0)
    if game is None:
        return "NO LAST GAME\nTO REBET"
    placed = 0
    refused = []
    for kind, number, _, amount, _ in game["bets"]:
        if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
            number = table.point or number
        elif kind in (W.COME, W.DONT_COME) and table.find(kind, number) is None:
            number = 0
        bet = table.find(kind, number)
        need = amount - (bet[2] if bet else 0)
        if need <= 0:
            continue
        code = ctl.store.bet(now, kind, need, number)
        if code == R.OK:
            placed += 1
        else:
            refused.append((kind, number, need, code))
    if not refused:
        if not placed:
            return "BETS ALREADY UP"
        return "REBET: 1 BET" if placed == 1 else "REBET: %d BETS" % placed
    return "\n".join(notice(placed, refused, table))


def notice(placed, refused, table):
    """A full screen: how many went back, then each refused bet (two at
    most) and the rule that refused it, and how many were not placed."""
    lines = ["REBET: %d PLACED" % placed]
    for kind, number, amount, code in refused[:2]:
        lines.append(bet_row(kind, number, "", money(amount)))
        a, _, b = refusal(code, table, kind, number).partition("\n")
        lines.append(a)
        lines.append(b)
    lines.append("NOT PLACED: %d" % len(refused))
    return lines
