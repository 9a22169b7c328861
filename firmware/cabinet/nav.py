"""Where the player's selection goes on a key: the layout's groups as data.

Pure functions over (selection, profile, table); nothing here places a bet.

A group key selects its group's first wager; pressed again it steps the
wager's number (PLACE, PLACE, PLACE: place 4, 5, 6; HARD HARD: hard 6), or,
for a wager without numbers, jumps to the group's middle (groups longer than
_ONE_ANCHOR wagers) or to the next wager. NEXT/PREV step through the wagers
of the group the selection is in, wrapping inside it.
NUMBER arms the number keys for _ARMED_MS: a group key then picks the box
number printed on it (4 5 6 8 9 10), or, for a hop, a die face (1-6, two keys);
NUMBER pressed again steps to the next number. tests_host/test_nav.py checks
by search that every wager is at most 4 presses away and every point number
2 more.
"""
from micropython import const
from hal import buttons as B
from firmware.rules import wagers as W

# the layout's areas, in the order the keys sit; wagers by popularity
GROUPS = (
    (B.LINE, "LINE+ODDS", (W.PASS, W.DONT_PASS, W.PASS_ODDS, W.DONT_PASS_ODDS)),
    (B.COME, "COME", (W.COME, W.DONT_COME, W.COME_ODDS, W.DONT_COME_ODDS)),
    (B.PLACE, "PLC/BUY/LAY", (W.PLACE, W.BUY, W.LAY, W.PLACE_LOSE, W.BIG6, W.BIG8)),
    (B.HARD, "HARDWAYS", (W.HARD,)),
    (B.PROPS, "FIELD+PROPS", (W.FIELD, W.C_E, W.ANY7, W.ANY_CRAPS, W.TWO, W.THREE,
                              W.ELEVEN, W.TWELVE, W.HORN, W.HORN_HIGH, W.HI_LO,
                              W.WORLD, W.HOP)),
    (B.BONUS, "BONUS", (W.LUCKY_ALL, W.LUCKY_LOW, W.LUCKY_HIGH, W.SHARP_SHOOTER)),
)
_ONE_ANCHOR = const(7)   # up to this many wagers NEXT/PREV reach all in 3
ARMED_MS = const(3000)
BOX = W.POINTS           # the number printed on each group key, in key order


def group_of(kind):
    """Index in GROUPS of the group holding `kind` (odds with their line)."""
    for i in range(len(GROUPS)):
        if kind in GROUPS[i][2]:
            return i
    return 0


def kinds(profile, g):
    """The wagers of group g this profile offers, in layout order."""
    off = profile["offered"]
    return [k for k in GROUPS[g][2] if k in off]


def numbers(kind, table):
    """Numbers the selection may carry for `kind` now ((0,) = none)."""
    if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
        return (table.point,) if table.point else (0,)
    if kind in (W.COME, W.DONT_COME, W.COME_ODDS, W.DONT_COME_ODDS):
        base = W.ODDS_BASE.get(kind, kind)
        out = [] if kind != base else [0]
        for b in table.bets:
            if b[0] == base and b[1]:
                out.append(b[1])
        return out or [0]
    return W.NUMBERS.get(kind) or (0,)


def land(kind, number, table):
    """(kind, n): keep the number the player had if `kind` takes it."""
    ns = numbers(kind, table)
    return (kind, number if number in ns else ns[0])


def first(profile, table, number=0):
    """The selection at power-up / after a profile change."""
    for g in range(len(GROUPS)):
        ks = kinds(profile, g)
        if ks:
            return land(ks[0], number, table)
    return (W.PASS, 0)


def valid(sel, profile, table):
    kind, number = sel
    return kind in profile["offered"] and number in numbers(kind, table)


def fix(sel, profile, table):
    """The selection still valid after a roll or a profile change: the same
    wager if it is still offered (number kept where it can be), else the
    first wager of its group, else the first wager."""
    kind, number = sel
    if kind in profile["offered"]:
        return land(kind, number, table)
    ks = kinds(profile, group_of(kind))
    if ks:
        return land(ks[0], number, table)
    return first(profile, table, number)


def step(sel, d, profile, table):
    """NEXT (d=1) / PREV (d=-1) inside the selection's group."""
    kind, number = sel
    ks = kinds(profile, group_of(kind))
    if not ks:
        return sel
    i = ks.index(kind) if kind in ks else (-1 if d > 0 else 0)
    return land(ks[(i + d) % len(ks)], number, table)


def group_key(sel, g, profile, table):
    """A group key: (new selection, or None when the group offers nothing)."""
    ks = kinds(profile, g)
    if not ks:
        return None
    kind, number = sel
    if kind not in ks:
        return land(ks[0], number, table)
    if len(ks) == 1 or len(numbers(kind, table)) > 1:
        return next_number(sel, table)
    if len(ks) > _ONE_ANCHOR:
        mid = len(ks) // 2
        i = ks.index(kind)
        return land(ks[mid] if i < mid else ks[0], number, table)
    return step(sel, 1, profile, table)


def next_number(sel, table):
    kind, number = sel
    ns = numbers(kind, table)
    i = ns.index(number) if number in ns else -1
    return (kind, ns[(i + 1) % len(ns)])


def pick(sel, key_i, die, table):
    """A group key while NUMBER is armed. key_i: the key's place (0-5).
    Returns (selection or None if the wager has no such number, die): `die`
    is the first die face chosen for a hop (0: none yet)."""
    kind, number = sel
    if kind == W.HOP:
        face = key_i + 1
        if not die:
            return sel, face
        return (kind, W.hop_number(die, face)), 0
    n = BOX[key_i]
    ns = numbers(kind, table)
    if n in ns:
        return (kind, n), 0
    if ns[0] not in BOX and ns[0] and key_i < len(ns):  # horn high 2 3 11 12
        return (kind, ns[key_i]), 0
    return None, 0
