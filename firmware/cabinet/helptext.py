"""The help pages, from the profile in use: first the selected wager (its
pay, its limits, the keys that stake it), then the keys, then every offered
wager's pay. The footer names the real keys."""
from firmware import fmt
from firmware.rules import wagers as W
from firmware.rules import pays as P
from firmware.rules.table import odds_step, gcd
from firmware.cabinet.paytext import ratio, pays, label

FOOTER = "NEXT HELP=CLOSE"
# the keys page: what each key of the station does, a line each
KEYS = ("LINE..BONUS:AREA", "NUMBER,KEY: BOX", "NEXT/PREV: WAGER", "+ BET  - TAKE 1",
        "CHIP: STAKE SIZE", "MYBETS: ALL BETS")


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


def _dollars(cents):
    return "$%d" % (cents // 100) if cents % 100 == 0 else "$" + fmt(cents)


def wager_page(profile, kind, number, pages):
    """The help's first page: the selected wager, what it pays, its limits
    (an odds bet's maximum is its multiple of the line bet), the keys that
    stake it. `pages`: the help's page count, for the title."""
    lo, hi, step = profile["limits"][kind]
    if kind in W.ODDS_BASE and number:
        # odds that must pay whole cents take their own step (003: $3 laid on 6)
        odd = odds_step(profile, kind, number)
        step = step * odd // gcd(step, odd)
        lo += -lo % step
    least = "MIN " + _dollars(lo)
    mult = profile.get("odds_mult")
    if hi:
        limits = [_fit(least, "MAX " + _dollars(hi)),
                  "IN STEPS OF " + _dollars(step) if step > 100 else ""]
    elif mult and number in mult:
        limits = [_fit(least, "STEPS " + _dollars(step)) if step > 100 else least,
                  "MAX %dX LINE BET" % mult[number]]
    else:
        limits = [least, "MAX: TABLE MAX"]
    lines = [label(kind, number), _fit("PAYS", pays(profile, kind, number))] + limits + \
        ["+ BETS A STAKE", "- TAKES ONE OFF", _fit("", "1/%d" % pages)]
    if kind not in profile["offered"]:
        lines[2:4] = ["NOT OFFERED", "IN THIS GAME"]
    return lines + [FOOTER]


def help_pages(profile):
    """The help's pages after the selected wager's: the keys, then the
    pays; each a list of 8 lines (title, 6 entries, footer)."""
    entries = help_entries(profile)
    n = (len(entries) + HELP_ROWS - 1) // HELP_ROWS
    total = n + 2
    pages = [[_fit("KEYS", "2/%d" % total)] + list(KEYS) + [FOOTER]]
    for i in range(n):
        page = [_fit("PAYS " + profile.get("title", "")[:6], "%d/%d" % (i + 3, total))]
        chunk = entries[i * HELP_ROWS:(i + 1) * HELP_ROWS]
        page.extend(chunk)
        while len(page) < 7:
            page.append("")
        page.append(FOOTER)
        pages.append(page)
    return pages
