"""Pay ratios as short text, from the profile data (selected wager, help pages).

Pure functions over a profile dict (firmware.rules.profiles.get) so the help
pages always follow the rules the engine settles with.
"""
from firmware.rules import wagers as W
from firmware.rules import pays as P


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


def short(kind, number=0, width=8):
    """Very short label for the result list (fits `width`)."""
    name = W.LABELS[kind].replace(" ", "").replace("'", "")
    if kind == W.HOP and number:
        tail = "%d%d" % (number // 10, number % 10)
    elif number:
        tail = str(number)
    else:
        tail = ""
    return name[:width - len(tail)] + tail


def _one_roll_table(profile, kind, number):
    return profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH else kind]


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
        return ratio(P.PLACE_ODDS[number]) if number in P.PLACE_ODDS else "-"
    if kind == W.PLACE_LOSE:
        return ratio(P.PLACE_LOSE_ODDS[number]) if number in P.PLACE_LOSE_ODDS else "-"
    if kind == W.BUY:
        return ratio(P.TRUE_ODDS[number]) if number in P.TRUE_ODDS else "-"
    if kind == W.LAY:
        return ratio(P.LAY_ODDS[number]) if number in P.LAY_ODDS else "-"
    if kind == W.HARD:
        return ratio(P.HARD_ODDS[number]) if number in P.HARD_ODDS else "-"
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
    if lo is None:
        return "-"
    if lo[0] == hi[0]:
        return ratio(lo[1])
    return ratio(lo[1]) + "-" + ratio(hi[1])


def _nums(ns):
    return ",".join(str(n) for n in ns)


def _grouped(out, kind, groups):
    """One line when every number pays alike, else a line per group."""
    if len(groups) == 1:
        out.append(_fit(W.LABELS[kind], ratio(groups[0][1])))
        return
    out.append(W.LABELS[kind])
    for g in groups:
        out.append(_fit(" " + _nums(g[0]), ratio(g[1])))


def _groups(pairs):
    """[(number, ratio)] -> [(numbers, ratio)] grouping equal ratios, in order."""
    out = []
    for n, r in pairs:
        for g in out:
            if g[1] == r:
                g[0].append(n)
                break
        else:
            out.append(([n], r))
    return out


def _fit(left, right, width=16):
    room = width - len(right) - 1
    if room < 1:
        return (left + " " + right)[:width]
    left = left[:room]
    return left + " " * (width - len(left) - len(right)) + right


def help_entries(profile):
    """Lines (<= 16 chars) describing every offered wager's pay."""
    out = []
    odds_done = False
    for kind in profile["offered"]:
        fam = W.FAMILY[kind]
        if fam == W.F_ODDS:
            if odds_done:
                continue
            odds_done = True
            out.append("Odds (true)")
            for g in _groups([(n, P.TRUE_ODDS[n]) for n in W.POINTS]):
                out.append(_fit(" " + _nums(g[0]), ratio(g[1])))
            out.append(" Lay side:")
            for g in _groups([(n, P.LAY_ODDS[n]) for n in W.POINTS]):
                out.append(_fit(" " + _nums(g[0]), ratio(g[1])))
            continue
        if kind == W.HOP:
            out.append(_fit("Hop pair", ratio(profile["hop"][0])))
            out.append(_fit("Hop hard", ratio(profile["hop"][1])))
            continue
        if fam == W.F_SHARP:
            out.append("Sharp Shooter")
            for made, pay in P.SHARP_PAYS:
                out.append(_fit(" %d pts" % made, "%d:1" % pay))
            continue
        nums = W.NUMBERS.get(kind)
        if fam == W.F_ONE_ROLL and kind != W.HORN_HIGH:
            table = profile["one_roll"][kind]
            pairs = [(t, table[t]) for t in sorted(table) if table[t][0] > 0]
            _grouped(out, kind, _groups(pairs))
            continue
        if nums and kind != W.HORN_HIGH:
            _grouped(out, kind, _groups([(n, _num_ratio(kind, n)) for n in nums]))
            continue
        if kind == W.HORN_HIGH:
            out.append(W.LABELS[kind])
            for n in nums:
                out.append(_fit(" high %d" % n, pays(profile, kind, n)))
            continue
        out.append(_fit(W.LABELS[kind], pays(profile, kind, 0)))
    if profile.get("vig"):
        out.append("Buy/Lay vig 5%")
    if profile.get("max_prop_win"):
        out.append(_fit("Max prop pay", str(profile["max_prop_win"])))
    if profile.get("agg_min"):
        out.append(_fit("Min total bet", str(profile["agg_min"])))
    return out


def _num_ratio(kind, n):
    if kind == W.PLACE:
        return P.PLACE_ODDS[n]
    if kind == W.PLACE_LOSE:
        return P.PLACE_LOSE_ODDS[n]
    if kind == W.BUY:
        return P.TRUE_ODDS[n]
    if kind == W.LAY:
        return P.LAY_ODDS[n]
    if kind == W.HARD:
        return P.HARD_ODDS[n]
    return (1, 1)


HELP_ROWS = 6


def help_pages(profile):
    """Help pages: each a list of 8 lines (title, 6 entries, footer)."""
    entries = help_entries(profile)
    n = (len(entries) + HELP_ROWS - 1) // HELP_ROWS
    pages = []
    for i in range(n):
        page = [_fit("PAYS " + profile.get("title", "")[:6], "%d/%d" % (i + 1, n))]
        chunk = entries[i * HELP_ROWS:(i + 1) * HELP_ROWS]
        page.extend(chunk)
        while len(page) < 7:
            page.append("")
        page.append("NEXT/PREV HELP=x")
        pages.append(page)
    return pages
