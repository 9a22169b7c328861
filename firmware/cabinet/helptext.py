"""The help pages: every offered wager's pay, from the profile in use."""
from firmware import fmt
from firmware.rules import wagers as W
from firmware.rules import pays as P
from firmware.cabinet.paytext import ratio, pays


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
            for n in nums or ():
                out.append(_fit(" high %d" % n, pays(profile, kind, n)))
            continue
        out.append(_fit(W.LABELS[kind], pays(profile, kind, 0)))
    if profile.get("vig"):
        out.append("Buy/Lay vig 5%")
    if profile.get("max_prop_win"):
        out.append(_fit("Max prop pay", fmt(profile["max_prop_win"])))
    if profile.get("agg_min"):
        out.append(_fit("Min total bet", fmt(profile["agg_min"])))
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
