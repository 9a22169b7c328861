"""Player buttons -> store actions and pages. Every refusal becomes a message.

Selection: the six group keys pick the layout's areas, NEXT/PREV step
inside the area, NUMBER then a group key picks the box number printed on the
key. Staking (firmware/cabinet/stakes.py): + adds the stake shown, the chip
made legal for the selected wager; CHIP shows the next larger stake, NUMBER
then CHIP the next smaller (so does - on a wager with no bet); - takes one
stake off the selected bet; ODDS adds a stake of odds to the selected
line/come bet; ONOFF toggles working; REBET puts the last game's layout back
(what can be placed now, with the reasons for what cannot); CLEAR takes this
period's bets back; ROLL ends the timer; CASHOUT.

Pages over the betting screen: HELP (the selected wager's pay and limits,
the keys, the pay tables), MYBETS (every bet on the
layout; NEXT/PREV move the cursor, BET_DOWN takes that bet down, ONOFF calls
it ON/OFF, BET_UP adds a stake; MYBETS again shows the roll statistics, once
more closes). NEXT/PREV turn pages; any other key closes the page and acts.

Where the selection goes on a key (the layout's groups as data, pure
functions over (selection, profile, table) at the end of this file): a
group key selects its group's first wager; pressed again it steps the
wager's number (PLACE, PLACE, PLACE: place 4, 5, 6; HARD HARD: hard 8), or,
for a wager without numbers, jumps to the group's middle (groups longer than
_ONE_ANCHOR wagers) or to the next wager. At power-up the selection (Pass
Line) is not the player's yet: the first group key selects its group's
first wager, LINE the Pass Line. NEXT/PREV step through the wagers of the
group the selection is in, wrapping inside it.
NUMBER arms the number keys for ARMED_MS: a group key then picks the box
number printed on it (4 5 6 8 9 10) on the selected wager, or the place bet
on that number when the wager does not take it; a second key within the
time makes it the hop of the two keys' die faces (1-6), where hops are
offered. With the hop selected the two keys are its dice. NUMBER pressed
again steps to the next number. tests_host/test_nav.py checks by search
that every wager is at most 4 presses away and every point number 2 more.
"""
from micropython import const
from hal import buttons as B
from hal.ticks import ticks_diff, ticks_add
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.cabinet import stakes as S
from firmware.cabinet.paytext import money

MSG_MS = const(3000)
BETTING = const(0)
HELP = const(1)
MYBETS = const(2)
STATS = const(3)


def message(code):
    return split2(R.message(code))


def refusal(code, table, kind, number):
    """A refused bet on two lines, stating the rule it broke
    (firmware.cabinet.stakes.refusal)."""
    return split2(S.refusal(code, table, kind, number))


def split2(m):
    """Two display lines from a message of up to 32 characters (word wrap)."""
    if len(m) <= 16:
        return m
    cut = m.rfind(" ", 0, 17)
    if cut <= 0:
        cut = 16
        return m[:16] + "\n" + m[16:32]
    return m[:cut] + "\n" + m[cut + 1:cut + 17]


class Player:
    def __init__(self):
        self.sel = (W.PASS, 0)
        self.picked = False     # the selection is the power-up one, not the player's
        self.stakes = bytearray(W.COUNT)  # per wager kind the chip chosen (stakes.py)
        self.shown = None       # (code, cents) + adds to the selection: the STAKE shown
        self.page = BETTING
        self.page_i = 0         # help page / MY BETS cursor
        self._help = None       # cached pages
        self.armed_until = None  # NUMBER pressed: group keys pick numbers until then
        self.die = 0            # die face of the first key after NUMBER (a hop's first die)
        self.changed = True

    def stake(self, table):
        """(code, cents) + adds to the selection now: the STAKE the betting
        screen shows, kept until a press, a roll or a change of profile."""
        if self.shown is None:
            self.shown = S.amount(self.stakes, table, self.sel[0], self.sel[1])
        return self.shown

    def fix_selection(self, table, profile):
        """After a roll or a profile change the selection may be gone."""
        self.sel = fix(self.sel, profile, table)
        self.shown = None

    def close_pages(self):
        if self.page != BETTING or self.armed_until is not None:
            self.page = BETTING
            self.armed_until = None
            self.die = 0
            self.changed = True

    def armed(self, now_ms):
        return self.armed_until is not None and ticks_diff(self.armed_until, now_ms) > 0

    def help_pages(self, profile):
        if self._help is None or self._help[0] is not profile:
            from firmware.cabinet.paytext import help_pages
            self._help = (profile, help_pages(profile))
        return self._help[1]

    def on_button(self, code, ctl, now_ms):
        """Handles one press; returns the message to show ('' = none)."""
        self.changed = True
        self.shown = None  # the stake shown may change
        table = ctl.store.ledger.table
        if self.page != BETTING:
            done, text = self._on_page(code, ctl, table)
            if done:
                return text
            self.page = BETTING
        if code == B.HELP:
            self.page = HELP
            self.page_i = 0
            return ""
        if code == B.MYBETS:
            self.page = MYBETS
            self.page_i = 0
            pages().cursor_sel(self, table)
            return ""
        armed = self.armed(now_ms)
        if code != B.NUMBER and code not in B.GROUP_KEYS:
            self.armed_until = None
            self.die = 0
        if code in B.GROUP_KEYS or code == B.NUMBER or code == B.NEXT or code == B.PREV:
            text = self._navigate(code, armed, table, now_ms)
            self.picked = True
            return text
        if code == B.CHIP:
            return self.chip(table, -1 if armed else 1)
        if code == B.CASHOUT:
            text = ctl.cashout(now_ms)
            if not table.credits and not table.bets:
                self.stakes = bytearray(W.COUNT)  # the next player's: the usual stakes
            return text
        if ctl.game.rolling():
            return "BETS CLOSED\nwait for result"
        return self.act(code, ctl, table, self.sel)

    # ---- selection -------------------------------------------------------
    def _navigate(self, code, armed, table, now_ms):
        profile = table.p
        sel = self.sel
        if code == B.NEXT or code == B.PREV:
            self.sel = step(sel, 1 if code == B.NEXT else -1, profile, table)
            return ""
        if code == B.NUMBER or armed:
            return self._number(code, armed, table, now_ms)
        g = B.GROUP_KEYS.index(code)
        if self.picked:
            new = group_key(sel, g, profile, table)
        else:
            new = enter(g, sel[1], profile, table)
        if new is None:
            return "NO %s BETS\nIN THIS GAME" % GROUPS[g][1]
        self.sel = new
        return ""

    # ---- bets ------------------------------------------------------------
    def act(self, code, ctl, table, sel):
        """A key that acts on the selection `sel`: the message to show."""
        store = ctl.store
        now = ctl.now_s()
        kind, number = sel
        if code == B.BET_UP:
            return self.add(store, table, now, kind, number)
        if code == B.BET_DOWN:
            bet = table.find(kind, number)
            if bet is None:
                return self.chip(table, -1)  # nothing to take: a smaller stake
            take = S.amount(self.stakes, table, kind, number)[1]
            if bet[2] - take < table.stake(kind, number)[1]:
                take = 0  # what would stay is below the minimum: all of it
            return self.result(store.remove(now, kind, number, take), table, sel)
        if code == B.ONOFF:
            bet = table.find(kind, number)
            if bet is None:
                return message(R.NO_BET)
            on = not table.working(bet)
            code = store.working(now, kind, number, on)
            if code == R.OK:
                return "BET WORKING ON" if on else "BET OFF"
            return message(code)
        if code == B.ODDS:
            return self._odds(store, table, now, kind, number)
        if code == B.REBET:
            from firmware.cabinet.rebet import rebet
            return rebet(ctl, table, now)
        if code == B.CLEAR:
            if not any(b[5] for b in table.bets):
                return "NOTHING TO CLEAR"
            return self.result(store.clear(now), table, sel, "BETS CLEARED")
        if code == B.ROLL:
            if not table.bets:
                return "PLACE A BET\nTO ROLL"
            if store.ledger.suspended():
                return message(R.LOCKED)
            ctl.game.request_roll()
            return ""
        return ""

    def result(self, code, table, sel, msg=""):
        return msg if code == R.OK else refusal(code, table, sel[0], sel[1])

    def add(self, store, table, now, kind, number):
        """+ (and ODDS on the odds): one stake on (kind, number)."""
        code, amount = S.amount(self.stakes, table, kind, number)
        if code == R.OK:
            code = store.bet(now, kind, amount, number)
        return self.result(code, table, (kind, number))

    def chip(self, table, d):
        """CHIP: the next larger stake for the selected wager (d=1), or the
        next smaller (d=-1; NUMBER then CHIP, or - with no bet)."""
        kind, number = self.sel
        v = S.step(self.stakes, table, kind, number, d)
        return "STAKE " + money(v) if v else message(table.stake(kind, number)[0])

    def _odds(self, store, table, now, kind, number):
        """ODDS: a stake of odds on the selected line or come bet (or on the
        odds selected); the selection moves to the odds."""
        odds = W.BASE_ODDS.get(kind)
        if odds is None:
            if kind in W.ODDS_BASE:  # an odds bet itself is selected
                odds = kind
                kind = W.ODDS_BASE[kind]
            else:
                return "ODDS: SELECT A\nLINE/COME BET"
        if kind in (W.PASS, W.DONT_PASS):
            number = table.point
            if not number:
                return message(R.POINT_OFF)
            if table.find(kind, 0) is None:
                return message(R.NO_BASE)
        elif not number:
            return "ODDS: SELECT THE\nCOME ON A NUMBER"
        text = self.add(store, table, now, odds, number)
        if not text:
            self.sel = (odds, number)
        return text

    def _number(self, code, armed, table, now_ms):
        """NUMBER, or a group key while NUMBER is armed: the message."""
        sel = self.sel
        if code == B.NUMBER:
            if armed and not self.die:  # pressed again right away: the next number
                sel = next_number(sel, table)
            self.sel = sel
            self.armed_until = ticks_add(now_ms, ARMED_MS)
            self.die = 0
            if sel[0] == W.HOP:
                return "HOP: DIE 1?\nkey 1-6"
            return "NUMBER: key\n4 5 6 8 9 10"
        g = B.GROUP_KEYS.index(code)
        first = self.die
        new, self.die = pick(sel, g, first, table)
        self.armed_until = ticks_add(now_ms, ARMED_MS) if self.die else None
        if new is None:
            return "NO HOP %d-%d\nIN THIS GAME" % (first, g + 1)
        self.sel = new
        if not self.die:
            return ""
        if new[0] == W.HOP:
            return "HOP: DIE 1 = %d\nDIE 2? key 1-6" % self.die
        return "2ND KEY: HOP\n%d-1 TO %d-6" % (self.die, self.die)

    # ---- pages -----------------------------------------------------------
    def _on_page(self, code, ctl, table):
        """(handled, message) for a key while a page is open."""
        if self.page != HELP:
            return pages().on_key(self, code, ctl, table)
        if code == B.NEXT or code == B.PREV:
            d = 1 if code == B.NEXT else -1
            # the selected wager's page, then help_pages()
            self.page_i = (self.page_i + d) % (len(self.help_pages(table.p)) + 1)
            return True, ""
        if code == B.HELP:
            self.page = BETTING
            return True, ""
        return False, ""


def pages():
    """firmware.cabinet.pages (imported here: it imports this module)."""
    from firmware.cabinet import pages as P
    return P


# ---- navigation: where the selection goes on a key ---------------------------
# the layout's areas, in the order the keys sit: (key, name, wagers by
# popularity, the number the key lands on when the selection's does not fit
# its first wager (0: the wager's first)). Lay last: PREV from place reaches
# it; horn last: PREV from the field; the props with numbers (a group key
# there steps the number) mid-way, where NEXT/PREV reach the rest in 4. The
# hardways start at the 6: from there NEXT/PREV reach the 8 and the 4.
GROUPS = (
    (B.LINE, "LINE+ODDS", (W.PASS, W.DONT_PASS, W.PASS_ODDS, W.DONT_PASS_ODDS), 0),
    (B.COME, "COME", (W.COME, W.DONT_COME, W.COME_ODDS, W.DONT_COME_ODDS), 0),
    (B.PLACE, "PLC/BUY/LAY", (W.PLACE, W.BUY, W.PLACE_LOSE, W.BIG6, W.BIG8, W.LAY), 0),
    (B.HARD, "HARDWAYS", (W.HARD,), 6),
    (B.PROPS, "FIELD+PROPS", (W.FIELD, W.ANY7, W.C_E, W.ANY_CRAPS, W.TWO, W.HORN_HIGH,
                              W.HOP, W.THREE, W.ELEVEN, W.TWELVE, W.HI_LO, W.WORLD,
                              W.HORN), 0),
    (B.BONUS, "BONUS", (W.LUCKY_ALL, W.LUCKY_LOW, W.LUCKY_HIGH, W.SHARP_SHOOTER), 0),
)
_ONE_ANCHOR = const(7)   # up to this many wagers NEXT/PREV reach all in 3
ARMED_MS = const(3000)


def group_of(kind):
    """Index in GROUPS of the group holding `kind` (odds with their line)."""
    for i in range(len(GROUPS)):
        if kind in GROUPS[i][2]:
            return i
    return 0


def kinds(profile, i):
    """The wagers of group i this profile offers, in layout order."""
    off = profile["offered"]
    return [k for k in GROUPS[i][2] if k in off]


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
    if kind == W.HOP:
        return table.p["hops"] or W.HOPS
    return W.NUMBERS.get(kind) or (0,)


def land(kind, number, table):
    """(kind, n): keep the number the player had if `kind` takes it."""
    ns = numbers(kind, table)
    return (kind, number if number in ns else ns[0])


def fix(sel, profile, table):
    """The selection still valid after a roll or a profile change: the same
    wager if it is still offered (number kept where it can be), else the
    first wager of its group, else the first wager."""
    kind, number = sel
    if kind in profile["offered"]:
        return land(kind, number, table)
    for g in (group_of(kind),) + tuple(range(len(GROUPS))):
        ks = kinds(profile, g)
        if ks:
            return land(ks[0], number, table)
    return (W.PASS, 0)


def step(sel, d, profile, table):
    """NEXT (d=1) / PREV (d=-1) inside the selection's group; in a group of
    one wager (the hardways) its numbers."""
    kind, number = sel
    ks = kinds(profile, group_of(kind))
    if not ks:
        return sel
    if ks == [kind]:
        ns = numbers(kind, table)
        i = ns.index(number) if number in ns else -1
        return (kind, ns[(i + d) % len(ns)])
    i = ks.index(kind) if kind in ks else (-1 if d > 0 else 0)
    return land(ks[(i + d) % len(ks)], number, table)


def enter(g, number, profile, table):
    """Group key g from outside its group: its first wager (None when the
    group offers nothing), with the selection's number where it takes it."""
    ks = kinds(profile, g)
    if not ks:
        return None
    if number not in numbers(ks[0], table):
        number = GROUPS[g][3]
    return land(ks[0], number, table)


def group_key(sel, k, profile, table):
    """Group key k: (new selection, or None when the group offers nothing)."""
    ks = kinds(profile, k)
    kind, number = sel
    if kind not in ks:
        return enter(k, number, profile, table)
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


def pick(sel, i, die, table):
    """A group key while NUMBER is armed. i: the key's place (0-5), die: the
    face of the key before it (0: none). Returns (selection, die): the
    selection is None for a hop the game does not offer; die is the face
    kept for a second key (0: the pick is done)."""
    kind, number = sel
    face = i + 1
    if die:  # a second key: the hop of the two faces
        n = W.hop_number(die, face)
        return ((W.HOP, n) if n in numbers(W.HOP, table) else None), 0
    if kind == W.HOP:
        return sel, face
    n = W.POINTS[i]
    ns = numbers(kind, table)
    if n in ns:
        return (kind, n), 0
    if ns[0] not in W.POINTS and ns[0] and i < len(ns):  # horn high 2 3 11 12
        return (kind, ns[i]), 0
    # not a number of this wager: the place bet on it (a second key: a hop)
    return (W.PLACE, n), (face if W.HOP in table.p["offered"] else 0)
