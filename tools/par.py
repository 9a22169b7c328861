"""PAR sheet: exact house edge of every wager, by driving the rules engine.

Host-only (CPython). For each wager the starting table is built through the
engine's own API (place the bet, roll the dice that set a point, take the
odds...), with table limits lifted through profile overrides so the unit bet
can be one that makes every payout and every commission a whole number. From
there every reachable table state (key: Table.encode() with credits zeroed) is
explored through all 36 ordered dice outcomes by loading the state into a
scratch Table and rolling it. Only the wager under study is tracked: the roll
that settles it is an absorbing outcome labelled by its settlement tuple
(result, paid, vig; plus the bet's aux count for Sharp Shooter). The absorbing
Markov chain is then solved exactly with fractions.Fraction: strongly
connected components (Tarjan) in reverse topological order, Gaussian
elimination inside each component. No closed-form formulas, no simulation.

House edge = expected loss / amount wagered, per decision: a bet that stays
on the layout after a win counts as given back (with the vig it has prepaid
for its next decision). For Buy/Lay with the 5% vig paid up front (000, 003)
the edge is given on two bases: per stake (the vig counts as part of the
loss) and per stake+vig (loss over everything put up). Where the vig is
taken from the win (002) the stake is the only money put up.

--stakes: the same edge at every stake a player can bet, from the minimum to
at least $100 (or the table maximum), by the profile's real limits and
chips, computed from what the engine pays at that stake: the labelled
outcomes are solved once at the unit bet (where nothing rounds), then each
outcome's settling roll is replayed with the stake in question.

Usage: tools/par [--profile NAME] [--json] [--stakes [--top DOLLARS]]
"""
import json
import os
import sys
from fractions import Fraction

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "tools", "cpython_shims")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from firmware.rules import profiles as P  # noqa: E402
from firmware.rules import reasons as R  # noqa: E402
from firmware.rules import table as T  # noqa: E402
from firmware.rules import wagers as W  # noqa: E402

CENTS = 100           # profiles.get() builds every amount in cents
UNIT = 1320 * CENTS    # lcm of every pay denominator; 5% of it and of its lay wins is whole
BIG = 10 ** 6          # lifted table maximum (dollars)
MAX_STATES = 200000
# Non-pair dice for each point total (a pair would also touch the hardways).
DICE = {4: (1, 3), 5: (1, 4), 6: (2, 4), 8: (3, 5), 9: (4, 5), 10: (4, 6)}
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
RESULT_NAMES = T.RESULTS


class ParError(Exception):
    pass


def lifted(name):
    """The named profile with every table limit lifted (pay is unchanged)."""
    prof = P.get(name, {"limits": {n: (1, BIG, 1) for n in W.NAMES}})
    if prof is None:
        raise ParError("unknown profile %r" % name)
    return prof


def _ok(code, what):
    if code != R.OK:
        raise ParError("%s refused: %s" % (what, R.code_name(code)))


def _denominators(profile, kind, number):
    try:
        ratios = T._pay_ratios(profile, kind, number)
    except (KeyError, TypeError):
        return 1
    out = 1
    for _n, d in ratios:
        out = out * d // _gcd(out, d)
    return out


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def wagers_of(profile):
    """(kind, number) for every wager the profile offers, in kind order."""
    out = []
    for k in sorted(profile["offered"]):
        if k in (W.PASS_ODDS, W.DONT_PASS_ODDS, W.COME_ODDS, W.DONT_COME_ODDS):
            nums = W.POINTS
        elif k == W.HOP and profile.get("hops"):
            nums = profile["hops"]
        else:
            nums = W.NUMBERS.get(k, (0,))
        for n in nums:
            out.append((k, n))
    return out


def setup(profile, kind, number, amount):
    """A Table holding the wager under study, built through the engine API.

    Returns (table, upfront_vig). The table's credits are zeroed afterwards:
    the money in hand is no part of the state."""
    t = T.Table(profile)
    t.credit(BIG * 10 * CENTS)
    # the line bet under odds: the stake, or the line minimum if that is more
    line = max(amount, profile["limits"][W.ODDS_BASE.get(kind, W.PASS)][0])
    if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
        _ok(t.place(W.ODDS_BASE[kind], line), "line bet")
        _ok(t.roll(*DICE[number]), "point roll")
        _ok(t.place(kind, amount), W.NAMES[kind])
    elif kind in (W.COME_ODDS, W.DONT_COME_ODDS):
        _ok(t.roll(*DICE[10 if number == 4 else 4]), "point roll")
        _ok(t.place(W.ODDS_BASE[kind], line), "come bet")
        _ok(t.roll(*DICE[number]), "come point roll")
        _ok(t.place(kind, amount, number), W.NAMES[kind])
    elif kind in (W.COME, W.DONT_COME):
        _ok(t.roll(*DICE[4]), "point roll")
        _ok(t.place(kind, amount), W.NAMES[kind])
    else:
        _ok(t.place(kind, amount, number), W.NAMES[kind])
    vig = t.last_vig
    t.credits = 0
    return t, vig


def _value(table, st):
    """What a settlement gives the player: the payment, plus, where the bet
    stays on the layout, what taking it down right away gives back (the
    engine's own take-down: the stake and any vig it returns)."""
    if not st[7]:
        return st[4]
    before = table.credits
    _ok(table.remove(st[0], st[1]), "taking down %s" % W.NAMES[st[0]])
    return st[4] + table.credits - before


def explore(profile, start, kind):
    """Every table state reachable until the tracked wager settles.

    Returns (states, edges, labels, reps): edges[i] is a list of (count,
    target) where target >= 0 is a state index and target < 0 is absorbing
    label -1 - j; counts are out of 36. reps[j] is (state, d1, d2) of one
    roll that ends in label j."""
    scratch = T.Table(profile)
    index = {start: 0}
    states = [start]
    edges = []
    labels = []
    reps = []
    label_ix = {}
    sharp = kind == W.SHARP_SHOOTER
    i = 0
    while i < len(states):
        s = states[i]
        out = {}
        for d1, d2 in ROLLS:
            scratch.load(s)
            bet = None
            for b in scratch.bets:
                if b[0] == kind:
                    bet = b
            if bet is None:
                raise ParError("tracked %s vanished" % W.NAMES[kind])
            _ok(scratch.roll(d1, d2), "roll")
            hit = None
            for st in scratch.settled:
                if st[0] == kind:
                    hit = st
            if hit is not None:
                if hit[6]:
                    raise ParError("%s: unit bet leaves a fraction (rounding %d/1320)"
                                   % (W.NAMES[kind], hit[6]))
                aux = bet[4] if sharp else 0
                lab = (hit[3], _value(scratch, hit), hit[5], aux, hit[2])
                j = label_ix.get(lab)
                if j is None:
                    j = label_ix[lab] = len(labels)
                    labels.append(lab)
                    reps.append((s, d1, d2))
                target = -1 - j
            else:
                scratch.credits = 0
                key = scratch.encode()
                target = index.get(key)
                if target is None:
                    target = index[key] = len(states)
                    states.append(key)
                    if len(states) > MAX_STATES:
                        raise ParError("state space over %d" % MAX_STATES)
            out[target] = out.get(target, 0) + 1
        edges.append(list(out.items()))
        i += 1
    return states, edges, labels, reps


def tarjan(n, edges):
    """Strongly connected components, each listed after every component it
    reaches (reverse topological order). Iterative."""
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    stack = []
    comps = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on[root] = True
        while work:
            v, pos = work[-1]
            succ = edges[v]
            advanced = False
            while pos < len(succ):
                w = succ[pos][0]
                pos += 1
                if w < 0:
                    continue
                if index[w] < 0:
                    work[-1] = (v, pos)
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on[w] = True
                    work.append((w, 0))
                    advanced = True
                    break
                if on[w] and index[w] < low[v]:
                    low[v] = index[w]
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
    return comps


def solve(edges, nlabels):
    """Absorption probabilities x[state][label], exact."""
    n = len(edges)
    x = [None] * n
    zero = Fraction(0)
    for comp in tarjan(n, edges):
        pos = {s: i for i, s in enumerate(comp)}
        m = len(comp)
        # Rows: [a_0 .. a_{m-1} | b_0 .. b_{L-1}] for (I - Q) x = b.
        rows = []
        for s in comp:
            a = [zero] * m
            b = [zero] * nlabels
            a[pos[s]] += 1
            for target, count in edges[s]:
                p = Fraction(count, 36)
                if target < 0:
                    b[-1 - target] += p
                elif target in pos:
                    a[pos[target]] -= p
                else:
                    xt = x[target]
                    for j in range(nlabels):
                        if xt[j]:
                            b[j] += p * xt[j]
            rows.append(a + b)
        for c in range(m):
            piv = None
            for r in range(c, m):
                if rows[r][c] != 0:
                    piv = r
                    break
            if piv is None:
                raise ParError("wager never settles from some state (closed class)")
            rows[c], rows[piv] = rows[piv], rows[c]
            pr = rows[c]
            inv = 1 / pr[c]
            if inv != 1:
                pr = rows[c] = [v * inv for v in pr]
            for r in range(m):
                if r != c:
                    f = rows[r][c]
                    if f:
                        rr = rows[r]
                        rows[r] = [rv - f * pv for rv, pv in zip(rr, pr)]
        for s in comp:
            x[s] = rows[pos[s]][m:]
    return x


def analyse(name_or_profile, kind, number):
    """Exact figures for one wager: dict with Fractions."""
    profile = lifted(name_or_profile) if isinstance(name_or_profile, str) else name_or_profile
    amount = UNIT
    try:
        table, vig = setup(profile, kind, number, amount)
    except ParError:
        # A profile whose maximum payoff cannot be lifted (002's $1,250):
        # the smallest unit that still pays whole numbers.
        amount = _denominators(profile, kind, number) * CENTS
        table, vig = setup(profile, kind, number, amount)
    start = table.encode()
    states, edges, labels, reps = explore(profile, start, kind)
    probs = solve(edges, len(labels))[0]
    win = lose = push = returned = Fraction(0)
    paid = Fraction(0)
    vig_on_win = Fraction(0)
    pays = {}
    points_made = {}
    for lab, p in zip(labels, probs):
        res, got, v, aux, amt = lab
        if amt != amount:
            raise ParError("settled amount %d, placed %d" % (amt, amount))
        paid += p * got
        vig_on_win += p * v
        if res == T.WIN:
            win += p
            ratio = Fraction(got + v - amount - vig, amount)
            pays[ratio] = pays.get(ratio, 0) + p
        elif res == T.LOSE:
            lose += p
        elif res == T.PUSH:
            push += p
        else:
            returned += p
        if kind == W.SHARP_SHOOTER:
            points_made[aux] = points_made.get(aux, 0) + p
    loss = amount + vig - paid
    out = {
        "kind": kind, "name": W.NAMES[kind], "label": W.LABELS[kind], "number": number,
        "amount": amount, "vig_upfront": vig, "states": len(states),
        "win": win, "lose": lose, "push": push, "returned": returned,
        "pays": sorted(pays.items()), "expected_paid": paid,
        "vig_on_win": vig_on_win,
        "edge": loss / amount,
        "outcomes": list(zip(reps, probs)),
    }
    if vig:
        out["edge_stake_vig"] = loss / (amount + vig)
    if kind == W.SHARP_SHOOTER:
        out["points_made"] = points_made
    return out


def stake_outcomes(name, kind, number, top=100, base=None):
    """For every stake a player can bet on this wager in the real profile,
    from its minimum up to `top` dollars (or its maximum), in steps of its
    chip multiple (stakes the table refuses are left out):
    (stake, upfront vig, [(probability, (state, d1, d2), settlement, value)]).

    Each outcome of the unit-bet solution (base) is replayed from its
    settling roll with the tracked bet set to the stake; `value` is what
    the player gets back (_value)."""
    base = base or analyse(name, kind, number)
    real = P.get(name)
    lo, hi, mult = real["limits"][kind]
    last = top * CENTS
    if hi:
        last = min(last, hi)
    scratch = T.Table(real)
    for stake in range(lo, last + 1, mult):
        try:
            _t, upfront = setup(real, kind, number, stake)
        except ParError:
            continue
        out = []
        for (state, d1, d2), p in base["outcomes"]:
            scratch.load(state)
            for b in scratch.bets:
                if b[0] == kind:
                    b[2] = stake
                    b[4] = upfront if kind in (W.BUY, W.LAY) else b[4]
            scratch.staked = sum(b[2] for b in scratch.bets)
            _ok(scratch.roll(d1, d2), "roll")
            hit = [st for st in scratch.settled if st[0] == kind][0]
            out.append((p, (state, d1, d2), hit, _value(scratch, hit)))
        yield stake, upfront, out


def stake_edges(name, kind, number, top=100, base=None):
    """[(stake, edge)] for every stake of stake_outcomes()."""
    out = []
    for stake, upfront, outcomes in stake_outcomes(name, kind, number, top, base):
        back = sum((p * value for p, _roll, _hit, value in outcomes), Fraction(0))
        out.append((stake, (stake + upfront - back) / stake))
    return out


def stakes_sheet(name, top=100):
    """Per wager: nominal edge, worst edge over every stake, and all stakes."""
    rows = []
    for kind, number in wagers_of(lifted(name)):
        base = analyse(name, kind, number)
        edges = stake_edges(name, kind, number, top, base)
        rows.append((base, edges))
    return rows


STAKES_WIDTH = 100  # columns: a row of every stake is wrapped under its wager


def print_stakes(name, rows, file=sys.stdout):
    """Per wager one line (nominal edge, worst stake), then the edge at every
    stake as runs of stakes with the same edge ("1.00-10.00 1.414": every
    stake the table takes from $1 to $10), wrapped at STAKES_WIDTH columns."""
    w = file.write
    w("House edge at every stake: profile %s (stakes in dollars, edge in %%)\n" % name)
    w("%-18s %9s  %s\n" % ("wager", "nominal", "worst (stake)"))
    w("    every stake the table takes, as runs of equal edge: FIRST-LAST EDGE\n")
    for base, edges in rows:
        worst = min(edges, key=lambda e: e[1]) if edges else (0, Fraction(0))
        w("%-18s %9.4f  %9.4f (%7s)\n" % (
            wager_title(base), float(base["edge"] * 100), float(worst[1] * 100),
            _dollars(worst[0])))
        line = "   "
        for run in edge_runs(edges):
            if len(line) + 1 + len(run) > STAKES_WIDTH:
                w(line + "\n")
                line = "   "
            line += " " + run
        if edges:
            w(line + "\n")
    w("\n")


def edge_runs(edges):
    """["FIRST-LAST EDGE" | "STAKE EDGE"] for runs of consecutive stakes whose
    edge prints the same."""
    runs = []
    for stake, edge in edges:
        text = "%.3f" % float(edge * 100)
        if runs and runs[-1][2] == text:
            runs[-1][1] = stake
        else:
            runs.append([stake, stake, text])
    return ["%s%s %s" % (_dollars(a), "" if a == b else "-" + _dollars(b), t) for a, b, t in runs]


def _dollars(cents):
    return "%d.%02d" % (cents // CENTS, cents % CENTS) if CENTS > 1 else str(cents)


def sharp_table(points_made):
    """004's Sharp Shooter rows from the points-made distribution."""
    rows = []
    for made, pays in P.SHARP_PAYS:
        p = sum((v for k, v in points_made.items() if (k >= made if made == 10 else k == made)),
                Fraction(0))
        rows.append(("10 or more" if made == 10 else str(made), pays, p))
    low = sum((v for k, v in points_made.items() if k <= 2), Fraction(0))
    rows.append(("2 or less", -1, low))
    return rows


def sheet(name):
    profile = lifted(name)
    return [analyse(profile, k, n) for k, n in wagers_of(profile)]


def wager_title(r):
    n = r["number"]
    if r["kind"] == W.HOP:
        return "%s %d-%d" % (r["label"], n // 10, n % 10)
    if r["kind"] in (W.PASS_ODDS, W.DONT_PASS_ODDS, W.COME_ODDS, W.DONT_COME_ODDS,
                     W.PLACE, W.PLACE_LOSE, W.BUY, W.LAY, W.HARD, W.HORN_HIGH):
        return "%s %d" % (r["label"], n)
    return r["label"]


def _frac(f):
    return "%d/%d" % (f.numerator, f.denominator) if f.denominator != 1 else str(f.numerator)


def _ratio(f):
    return "%d:%d" % (f.numerator, f.denominator)


def as_json(name, rows):
    out = []
    for r in rows:
        d = {
            "wager": r["name"], "title": wager_title(r), "number": r["number"],
            "unit": r["amount"], "vig_upfront": r["vig_upfront"], "states": r["states"],
            "win": _frac(r["win"]), "lose": _frac(r["lose"]),
            "push": _frac(r["push"] + r["returned"]),
            "push_only": _frac(r["push"]), "returned": _frac(r["returned"]),
            "win_p": float(r["win"]), "lose_p": float(r["lose"]),
            "push_p": float(r["push"] + r["returned"]),
            "pays": [{"ratio": _ratio(k), "probability": _frac(v)} for k, v in r["pays"]],
            "edge": _frac(r["edge"]), "edge_pct": float(r["edge"] * 100),
            "edge_basis": "per stake",
        }
        if "edge_stake_vig" in r:
            d["edge_stake_vig"] = _frac(r["edge_stake_vig"])
            d["edge_stake_vig_pct"] = float(r["edge_stake_vig"] * 100)
        if r["vig_on_win"]:
            d["vig_on_win_expected"] = _frac(r["vig_on_win"])
        if "points_made" in r:
            d["points_made"] = [{"event": e, "pays": pays, "probability": _frac(p),
                                 "probability_f": float(p)}
                                for e, pays, p in sharp_table(r["points_made"])]
        out.append(d)
    prof = P.base(name)
    return {"profile": name, "doc": prof["doc"], "title": prof["title"], "vig": prof["vig"],
            "round_up": prof["round_up"], "wagers": out}


def print_text(name, rows, file=sys.stdout):
    prof = P.base(name)
    w = file.write
    w("PAR sheet: profile %s (document %s, %s)\n" % (name, prof["doc"], prof["title"]))
    w("House edge = expected loss / amount wagered (per stake); Buy/Lay with the vig\n"
      "paid up front also per stake+vig. Push includes bets returned (odds OFF).\n\n")
    w("%-18s %6s %9s %9s %9s  %-22s %9s  %s\n" % (
        "wager", "unit", "win", "lose", "push", "pays", "edge %", "edge (exact)"))
    for r in rows:
        pays = ", ".join(_ratio(k) for k, _v in r["pays"])
        if len(pays) > 22:
            pays = pays[:19] + "..."
        w("%-18s %6d %9.6f %9.6f %9.6f  %-22s %9.4f  %s\n" % (
            wager_title(r), r["amount"], float(r["win"]), float(r["lose"]),
            float(r["push"] + r["returned"]), pays, float(r["edge"] * 100), _frac(r["edge"])))
        if "edge_stake_vig" in r:
            w("%-18s vig %d up front (%s); per stake+vig: %.4f%%  %s\n" % (
                "", r["vig_upfront"], "refunded on removal" if prof["vig_refund"] else "kept",
                float(r["edge_stake_vig"] * 100), _frac(r["edge_stake_vig"])))
        elif r["vig_on_win"]:
            w("%-18s vig taken from the win: %s per unit bet on average\n" % (
                "", _frac(r["vig_on_win"] / r["amount"])))
        if "points_made" in r:
            w("  Sharp Shooter: points made before the seven-out\n")
            for e, pays, p in sharp_table(r["points_made"]):
                w("    %-10s pays %4d  %.6f  %s\n" % (e, pays, float(p), _frac(p)))
    w("\n")


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", choices=P.NAMES, action="append",
                    help="profile (repeatable; default: all four)")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    ap.add_argument("--stakes", action="store_true",
                    help="house edge at every stake from the minimum to --top dollars")
    ap.add_argument("--top", type=int, default=100, help="highest stake for --stakes")
    args = ap.parse_args(argv)
    names = args.profile or list(P.NAMES)
    if args.stakes:
        try:
            for n in names:
                print_stakes(n, stakes_sheet(n, args.top))
        except ParError as exc:
            sys.stderr.write("par: %s\n" % exc)
            return 2
        return 0
    try:
        sheets = [(n, sheet(n)) for n in names]
    except ParError as exc:
        sys.stderr.write("par: %s\n" % exc)
        return 2
    if args.json:
        out = [as_json(n, rows) for n, rows in sheets]
        json.dump(out[0] if len(out) == 1 else out, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        for n, rows in sheets:
            print_text(n, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
