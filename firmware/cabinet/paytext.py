"""Pay ratios and money as short text, from the profile data (selected
wager, help pages). Every amount on the player screens is formatted by
money()/signed(), so a change of money unit touches those two only.

Pure functions over a profile dict (firmware.rules.profiles.get) so the help
pages always follow the rules the engine settles with.
"""
from firmware.rules import wagers as W
from firmware.rules import pays as P
from firmware import fmt, Packed

W16 = 16


def money(n):
    """An amount held or staked, in cents: '25.00' (firmware.fmt)."""
    return fmt(n)


def signed(n):
    """A net result in cents: '+25.00', '-5.00', '0.00'."""
    return "+" + fmt(n) if n > 0 else fmt(n)


def ratio(r):
    return "%d:%d" % (r[0], r[1])


def label(kind, number=0):
    """Short name of a wager with its number, e.g. 'Place 6', 'Hop 2-5'."""
    name = W.LABELS[kind]
    if not number:
        return name
    if kind == W.HOP:
        return "%s %d-%d" % (name, number // 10, number % 10)
    return "%s %d" % (name, number)


# A wager's name on a player line is never cut: its short name, or where
# that does not fit its code (SHORT[kind], TINY[kind]: whole words, or the
# shorthand printed on craps layouts), with its number.
SHORT = Packed(
    "Pass Line Don't PassPass Odds DP Odds   "
    "Come      Don't ComeCome Odds DC Odds   "
    "Place     Place LoseBuy       Lay       "
    "Big 6     Big 8     Hard      Field     "
    "Any 7     Any Craps Two       Three     "
    "Eleven    Twelve    Hi-Lo     Horn      "
    "Horn High C&E       World     Hop       "
    "Lucky Low Lucky HighLucky All Sharp     ", 10)
TINY = Packed(
    "PassDP  PO  DPO "
    "C   DC  CO  DCO "
    "P   PL  B   L   "
    "B6  B8  H   Fld "
    "A7  AC  2   3   "
    "11  12  HiLoHorn"
    "HH  C&E Wrld    "
    "Low HighAll SS  ", 4)


def names(kind, number=0):
    """(short name, code) of a wager with its number: ('Hard 8', 'H8')."""
    if kind == W.HOP and number:
        tail = "%d-%d" % (number // 10, number % 10)
    else:
        tail = str(number) if number else ""
    short, code = SHORT[kind], TINY[kind]
    if tail:
        short += " " + tail
        code = code + tail
    return short, code


def name(kind, number=0, width=W16):
    """The wager's name with its number within `width` columns: 'Don't Pass',
    else its code 'DP'; only a width under the code's (a bet beyond every
    profile's limit) cuts the code."""
    for text in names(kind, number):
        if len(text) <= width:
            return text
    return text[:width]


def _one_roll_table(profile, kind, number):
    return profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH else kind]


def _number_ratio(table, number):
    """The ratio of a number's row in a pays table, "-" for a number it lacks."""
    return ratio(table[number]) if number in W.POINTS and table[number] else "-"


def pays(profile, kind, number=0):
    """Pay text of one (kind, number) selection, e.g. '7:6', '1:1-2:1'."""
    fam = W.FAMILY[kind]
    if fam == W.F_LINE or kind in (W.BIG6, W.BIG8):
        return "1:1"
    if fam == W.F_ODDS:
        if number in W.POINTS:
            return ratio(P.LAY_ODDS[number] if kind in W.DARK else P.TRUE_ODDS[number])
        return "true"
    if kind == W.PLACE:
        return _number_ratio(P.PLACE_ODDS, number)
    if kind == W.PLACE_LOSE:
        return _number_ratio(P.PLACE_LOSE_ODDS, number)
    if kind == W.BUY:
        return _number_ratio(P.TRUE_ODDS, number)
    if kind == W.LAY:
        return _number_ratio(P.LAY_ODDS, number)
    if kind == W.HARD:
        return _number_ratio(P.HARD_ODDS, number)
    if kind == W.HOP:
        hard = number // 10 == number % 10
        return ratio(profile["hop"][1 if hard else 0])
    if fam == W.F_LUCKY:
        return ratio(P.LUCKY_PAYS[kind])
    if fam == W.F_SHARP:
        return "to %d:1" % P.SHARP_PAYS[0][1]
    table = _one_roll_table(profile, kind, number)
    lo = hi = None
    for r in table.values():
        if r[0] <= 0:
            continue
        v = r[0] * 1000 // r[1]
        if lo is None or v < lo[0]:
            lo = (v, r)
        if hi is None or v > hi[0]:
            hi = (v, r)
    if lo is None or hi is None:
        return "-"
    if lo[0] == hi[0]:
        return ratio(lo[1])
    return ratio(lo[1]) + "-" + ratio(hi[1])


def help_pages(profile):
    """Help pages: each a list of 8 lines (title, 6 entries, footer).

    Built by firmware.cabinet.helptext (imported here: it imports this module)."""
    from firmware.cabinet import helptext
    return helptext.help_pages(profile)
