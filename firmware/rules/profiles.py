"""The four rule documents as selectable profiles: pure data plus a builder.

Pay ratios are net winnings per unit staked, as (numerator, denominator).
Each document's table is a function, built only when asked for (the profile
in use, the audit menu's defaults): no board keeps the four in its heap.
Combination bets (horn, horn high, world, C&E) are expanded once, here, from
the profile's single-number odds into a per-total pay table, so the engine
settles every one-roll wager with one table lookup.
"""
from micropython import const
from firmware.rules import wagers as W

# The shared pay ratios, also reachable here as P.TRUE_ODDS and so on.
from firmware.rules.pays import (TRUE_ODDS, LAY_ODDS, PLACE_ODDS, PLACE_LOSE_ODDS,  # noqa: F401
                                 HARD_ODDS, SHARP_PAYS, LUCKY_PAYS, VIG_PERCENT)

CRAPS = (2, 3, 12)


def _ratio(n, d):
    a, b = abs(n), d
    while b:
        a, b = b, a % b
    return (n // a, d // a)


def composite(parts, single):
    """Net pay table of a bet split in equal units over `parts` totals.

    single[t] is the net ratio of one unit on total t. A hit returns that
    unit's stake and winnings; every other unit of the bet loses.
    """
    units = sum(parts.values())
    table = {}
    for t in parts:
        n, d = single[t]
        # units_on_t * (n/d + 1) returned out of `units` staked.
        num = parts[t] * (n + d) - units * d
        table[t] = _ratio(num, units * d)
    return table


def _one_roll_tables(singles):
    two, three, eleven, twelve, any_craps, any7, field_2, field_12, hi_lo, combined_ce = singles
    single = {2: two, 3: three, 11: eleven, 12: twelve, 7: any7}
    # units each combination bet spreads over totals: {total: units}
    horn = {2: 1, 3: 1, 11: 1, 12: 1}
    t: dict = {
        W.FIELD: {2: field_2, 3: (1, 1), 4: (1, 1), 9: (1, 1), 10: (1, 1),
                  11: (1, 1), 12: field_12},
        W.ANY7: {7: any7},
        W.ANY_CRAPS: {2: any_craps, 3: any_craps, 12: any_craps},
        W.TWO: {2: two}, W.THREE: {3: three}, W.ELEVEN: {11: eleven},
        W.TWELVE: {12: twelve},
        W.HI_LO: {2: hi_lo, 12: hi_lo},
        W.HORN: composite(horn, single),
        W.WORLD: composite({2: 1, 3: 1, 7: 1, 11: 1, 12: 1}, single),
    }
    if combined_ce:
        t[W.C_E] = {2: combined_ce[0], 3: combined_ce[0], 12: combined_ce[0],
                    11: combined_ce[1]}
    else:
        ce_single = {2: any_craps, 3: any_craps, 12: any_craps, 11: eleven}
        t[W.C_E] = composite({2: 1, 11: 1}, ce_single)
        for c in CRAPS:
            t[W.C_E][c] = t[W.C_E][2]
    for h in (2, 3, 11, 12):
        parts = dict(horn)
        parts[h] += 1
        t[(W.HORN_HIGH, h)] = composite(parts, single)
    return t


def limits(spec, scale=1):
    """(min, max, multiple) of every kind in the documents' dollars, indexed
    by kind: the default unless named. spec is the profile's "limits": (the
    default, {kind: its own}), kinds as numbers. A list indexed by kind.

    Odds bets default to no maximum of their own (max 0): the odds multiple
    of their line bet is their limit.
    """
    default, per_kind = spec
    odds_default = (default[0], 0, 1)
    out = []
    scaled = {}  # one tuple per distinct limit, shared by the kinds that have it
    for k in range(W.COUNT):
        lim = per_kind.get(k, odds_default if k in W.ODDS_BASE else default)
        got = scaled.get(lim)
        if got is None:
            got = scaled[lim] = (lim[0] * scale, lim[1] * scale, lim[2] * scale)
        out.append(got)
    return out


def _offered(bonus, *drop):
    """Every kind but `drop`; the bonus bets (Lucky Roller, Sharp Shooter)
    only with `bonus`."""
    return tuple(k for k in range(W.COUNT) if k not in drop and
                 (bonus or W.FAMILY[k] not in (W.F_LUCKY, W.F_SHARP)))


# 002 lines 134-135: the hops offered (1-1, 1-2, 5-6 and 6-6 are the two,
# three, eleven and twelve bets, not hops).
_ETG_HOPS = const((22, 33, 44, 55, 13, 14, 15, 16, 23, 24, 25, 26, 34, 35, 36, 45, 46))
_CENTS = const(100)


def _table():
    """000: table-game ruleset (Appendix D, rule 4.1)."""
    return {
        "doc": "000", "title": "Table game",
        "offered": _offered(False, W.PLACE_LOSE, W.BIG6, W.BIG8, W.HI_LO, W.WORLD, W.HOP),
        "odds_mult": {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3},
        "singles": ((30, 1), (15, 1), (15, 1), (30, 1), (7, 1),
                                     (4, 1), (2, 1), (2, 1), (15, 1), ((3, 1), (7, 1))),
        "hop": ((15, 1), (30, 1)),
        "limits": ((1, 500, 1), {W.HORN: (4, 500, 4), W.HORN_HIGH: (5, 500, 5),
                                 W.C_E: (2, 500, 2)}),
        "off_on_comeout": (W.PLACE, W.BUY, W.LAY, W.HARD, W.COME_ODDS),
        "toggle": (W.PLACE, W.BUY, W.LAY, W.HARD, W.COME_ODDS),
        "vig": "upfront", "vig_refund": False,
        "round_up": False, "contract_increase": True, "dont_odds_first": False,
        "no_opposites": False, "max_prop_win": 0, "agg_min": 0,
        "exact_odds": False, "on_all": False, "hops": None,
        "dark_one_roll": False,  # 003 5(d): no new don't bet until a new come-out
    }


def _etg():
    """002: electronic craps with Lucky Roller bonus bets."""
    return {
        "doc": "002", "title": "Electronic craps",
        "offered": _offered(True, W.PLACE_LOSE, W.HI_LO, W.HORN_HIGH, W.WORLD,
                            W.SHARP_SHOOTER),
        "odds_mult": {4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3},
        "singles": ((30, 1), (15, 1), (15, 1), (30, 1), (7, 1),
                                     (4, 1), (2, 1), (2, 1), (15, 1), ((3, 1), (7, 1))),
        "hop": ((15, 1), (30, 1)),
        "limits": ((1, 500, 1), {W.PASS: (3, 500, 1), W.DONT_PASS: (3, 500, 1),
                                 W.COME: (3, 500, 1), W.DONT_COME: (3, 500, 1)}),
        "off_on_comeout": (W.PLACE, W.BUY, W.LAY, W.HARD, W.COME_ODDS),
        "toggle": (W.PLACE, W.BUY, W.LAY, W.HARD, W.BIG6, W.BIG8, W.COME_ODDS),
        "vig": "on_win", "vig_refund": False,
        "round_up": False, "contract_increase": False, "dont_odds_first": True,
        "no_opposites": True, "max_prop_win": 1250, "agg_min": 5,
        "exact_odds": False, "on_all": False, "hops": _ETG_HOPS,
        "dark_one_roll": False,  # 003 5(d): no new don't bet until a new come-out
    }


def _casino():
    """003: casino ruleset with World, place-to-lose and buy-to-lose (lay)."""
    return {
        "doc": "003", "title": "Casino",
        "offered": _offered(False, W.HI_LO, W.HORN_HIGH, W.HOP),
        "odds_mult": {4: 10, 5: 10, 6: 10, 8: 10, 9: 10, 10: 10},
        "singles": ((32, 1), (15, 1), (15, 1), (32, 1), (7, 1),
                                     (4, 1), (2, 1), (2, 1), (15, 1), None),
        "hop": ((15, 1), (30, 1)),
        "limits": ((1, 500, 1), {}),
        "off_on_comeout": (W.PLACE, W.BUY, W.HARD, W.COME_ODDS),
        "toggle": (W.PLACE, W.PLACE_LOSE, W.BUY, W.LAY, W.HARD, W.BIG6, W.BIG8,
                   W.COME_ODDS),
        "vig": "upfront", "vig_refund": True,
        "round_up": True, "contract_increase": False, "dont_odds_first": False,
        "no_opposites": False, "max_prop_win": 0, "agg_min": 0,
        "exact_odds": True, "on_all": True, "hops": None,
        "dark_one_roll": False,  # 003 5(d): no new don't bet until a new come-out
    }


def _house():
    """004: house ruleset, $1-$10, Sharp Shooter, no buy or lay."""
    return {
        "doc": "004", "title": "House",
        "offered": _offered(True, W.BUY, W.LAY, W.HORN_HIGH, W.LUCKY_LOW, W.LUCKY_HIGH,
                            W.LUCKY_ALL),
        "odds_mult": None,  # 004 lines 45, 64: odds up to the table limit
        "singles": ((30, 1), (15, 1), (15, 1), (30, 1), (7, 1),
                                     (4, 1), (2, 1), (2, 1), (15, 1), ((3, 1), (7, 1))),
        "hop": ((15, 1), (30, 1)),
        "limits": ((1, 10, 1), {W.HORN: (4, 10, 1), W.WORLD: (5, 10, 1), W.C_E: (2, 10, 1),
                                W.PASS_ODDS: (1, 10, 1), W.DONT_PASS_ODDS: (1, 10, 1),
                                W.COME_ODDS: (1, 10, 1), W.DONT_COME_ODDS: (1, 10, 1)}),
        "off_on_comeout": (W.PLACE, W.PLACE_LOSE, W.HARD, W.COME_ODDS),
        "toggle": (W.PASS_ODDS, W.DONT_PASS_ODDS, W.COME_ODDS, W.DONT_COME_ODDS,
                   W.PLACE, W.PLACE_LOSE, W.BIG6, W.BIG8, W.HARD, W.FIELD, W.ANY7,
                   W.ANY_CRAPS, W.TWO, W.THREE, W.ELEVEN, W.TWELVE, W.HI_LO, W.HORN,
                   W.C_E, W.WORLD, W.HOP),
        "vig": None, "vig_refund": False,
        "round_up": False, "contract_increase": False, "dont_odds_first": False,
        "no_opposites": False, "max_prop_win": 0, "agg_min": 0,
        "exact_odds": False, "on_all": False, "hops": None,
        "dark_one_roll": True,  # 004 line 86: a new don't come from the next roll
    }

# Each ruleset's table is built when asked for: a board keeps the profile in
# play (get()), not the four tables as dicts (~1.7 KB of its heap).
_BUILD = {"table": _table, "etg": _etg, "casino": _casino, "house": _house}
NAMES = ("table", "etg", "casino", "house")


def base(name):
    """The named ruleset's own table (one of NAMES), amounts in the
    documents' dollars: a new dict."""
    return _BUILD[name]()


def get(name, overrides=None):
    """The named profile, with configuration overrides applied (a new dict).

    overrides may set "odds_mult" (one multiple for every point, or a dict) and
    "limits" ({kind name: (min, max, multiple)} in dollars) and nothing that
    changes pay. Every amount of the built profile is in cents.
    """
    if name not in _BUILD:
        return None
    p = base(name)
    p["name"] = name
    # Built on demand, for the one profile in use: four sets of tables
    # built at import would cost a board about 20 KB of heap.
    p["one_roll"] = _one_roll_tables(p["singles"])
    p["limits"] = limits(p["limits"], _CENTS)
    p["max_prop_win"] *= _CENTS
    p["agg_min"] *= _CENTS
    if overrides:
        mult = overrides.get("odds_mult")
        if isinstance(mult, int):
            p["odds_mult"] = {n: mult for n in W.POINTS}
        elif mult:
            p["odds_mult"] = mult
        lim = overrides.get("limits")
        if lim:
            for kname in lim:
                k = W.kind_of(kname)
                if k >= 0:
                    lo, hi, mult = lim[kname]
                    p["limits"][k] = (lo * _CENTS, hi * _CENTS, mult * _CENTS)
    return p


def configured(config):
    """The profile the configuration names, with its odds multiple and bet
    limits (firmware/store/config.py: 0 = the profile's own) applied."""
    over = {}
    if config["odds_mult"]:
        over["odds_mult"] = config["odds_mult"]
    if config["min_bet"] or config["max_bet"]:
        own = limits(base(config["profile"])["limits"])
        lim = {}
        for k in range(W.COUNT):
            lo, hi, mult = own[k]
            if config["min_bet"] and k not in W.ODDS_BASE:
                lo = max(lo, config["min_bet"])
            if config["max_bet"] and (hi or k not in W.ODDS_BASE):
                hi = config["max_bet"]
            lim[W.NAMES[k]] = (lo, hi, mult)
        over["limits"] = lim
    return get(config["profile"], over)
