"""The stake: what one press of + (or ODDS) adds to the selected wager,
what CHIP steps through, and the sentence that refuses one.

The chips $1 $5 $25 $100 $500 made legal for the wager (Table.stake gives
its least, unit and most): the $1 chip is one legal unit of it (horn $4 in
000, odds laid on 6 in 003 $3); the others are rounded down to the wager's
natural unit, the least stake that pays (or pays its commission) in whole
dollars (place 6 $6, buy $20, lay 10 $40), never below it; every chip is
clipped to the most the bet may be. A first bet is at least the wager's
minimum.

Each wager kind keeps the chip its player chose (same as last time):
stakes[kind] is that chip's index + 1, 0 while none was chosen. Until then
the propositions (the hardways and the one-roll bets but the field) and the
bonus bets start at their least whole-paying stake (hard 8 $1, any 7 $1,
horn $4, hop $1), every other wager at the $5 chip (pass $5, field $5,
place 6 $6, buy 4 $20, lay 10 $40).
"""
from micropython import const
from firmware.rules import wagers as W
from firmware.rules import pays as P
from firmware.rules import reasons as R
from firmware.cabinet.paytext import label
from firmware.rules.table import gcd

CHIPS = const((100, 500, 2500, 10000, 50000))  # cents
_FIVE = const(1)        # index of the $5 chip


def natural(profile, kind, number):
    """The least whole-dollar stake of (kind, number) that pays, and pays
    its commission, in whole dollars, in cents."""
    d = 1
    if kind == W.BUY:
        d = 100 // P.VIG_PERCENT            # 5% of $20 is $1
    elif kind == W.LAY:
        n, d = P.LAY_ODDS[number]
        d = 100 // P.VIG_PERCENT * d // n   # a $20 win: $1 commission
    elif kind == W.PLACE:
        d = P.PLACE_ODDS[number][1]
    elif kind == W.PLACE_LOSE:
        d = P.PLACE_LOSE_ODDS[number][1]
    elif kind in W.ODDS_BASE and number:
        d = (P.LAY_ODDS if kind in W.DARK else P.TRUE_ODDS)[number][1]
    elif W.FAMILY[kind] == W.F_ONE_ROLL:
        if kind == W.HOP:
            ratios = profile["hop"]
        else:
            ratios = profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH
                                         else kind].values()
        for n in ratios:
            d = d * n[1] // gcd(d, n[1])
    return 100 * d


def chips(stakes, table, kind, number):
    """(Table.stake() rule, the chip values made legal, the chip in use)
    for (kind, number) now."""
    rule = table.stake(kind, number)
    unit, most = rule[2], rule[3]
    if not unit:  # the wager or number is not there now: no chips
        return rule, (0,), 0
    nat = natural(table.p, kind, number)
    nat = nat * unit // gcd(nat, unit)
    out = [unit]
    for c in CHIPS[1:]:
        v = c - c % nat
        out.append(min(max(v, nat), most) if most >= unit else max(v, nat))
    i = stakes[kind] - 1
    if i < 0:  # none chosen: the kind's usual chip
        fam = W.FAMILY[kind]
        i = _FIVE
        if (fam == W.F_ONE_ROLL and kind != W.FIELD) or fam in (W.F_HARD, W.F_LUCKY,
                                                               W.F_SHARP):
            i = _FIVE if nat > unit else 0
    return rule, out, i


def amount(stakes, table, kind, number):
    """(code, cents) one press of + adds to (kind, number) now: code is
    why nothing can be added (R.OK when something can)."""
    rule, out, i = chips(stakes, table, kind, number)
    if rule[0] != R.OK:
        return rule[0], 0
    bet = table.find(kind, number or (table.point if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS)
                                      else 0))
    return R.OK, max(out[i], rule[1] - (bet[2] if bet else 0))


def step(stakes, table, kind, number, d):
    """CHIP: the next larger chip for `kind` (d=1; after the largest the
    smallest) or the next smaller (d=-1; stops at the smallest), skipping
    chips that come to the same amount made legal. Returns the new stake in
    cents, 0 when the wager takes no bet now."""
    rule, out, i = chips(stakes, table, kind, number)
    if not rule[2]:
        return 0
    j = i + d
    while 0 <= j < len(out) and (out[j] - out[i]) * d <= 0:
        j += d
    if j < 0:
        j = i
    elif j >= len(out):
        j = 0
    stakes[kind] = j + 1
    return out[j]


def refusal(code, table, kind, number):
    """A refused bet as one sentence stating the rule it broke, e.g. 'Horn:
    $4 steps', 'Odds on 6: max $50' (firmware/rules/reasons.py RULES)."""
    if kind in W.ODDS_BASE:
        name = ("Lay odds on %d" if kind in W.DARK else "Odds on %d") % number
    else:
        name = label(kind, number)
    return R.stated(code, name, table.stake(kind, number))
