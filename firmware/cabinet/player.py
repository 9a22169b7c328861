"""Player buttons -> store actions and pages. Every refusal becomes a message.

Selection: the six group keys pick the layout's
areas, NEXT/PREV step inside the area, NUMBER then a group key picks the box
number printed on the key. CHIP cycles the chip value; BET_UP/BET_DOWN add
or take a chip on the selection; ODDS adds a chip to the odds of the selected
line/come bet; ONOFF toggles working; REPEAT puts back the last period's new
bets that are not on the table; CLEAR takes this period's bets back; ROLL
ends the timer; CASHOUT.

Pages over the betting screen: HELP (the selected wager's pay and limits,
the keys, the pay tables), MYBETS (every bet on the
layout; NEXT/PREV move the cursor, BET_DOWN takes that bet down, ONOFF calls
it ON/OFF, BET_UP adds a chip; MYBETS again shows the roll statistics, once
more closes). NEXT/PREV turn pages; any other key closes the page and acts.

Where the selection goes on a key (the layout's groups as data, pure
functions over (selection, profile, table) at the end of this file):
a group key selects its group's first wager; pressed again it steps the
wager's number (PLACE, PLACE, PLACE: place 4, 5, 6; HARD HARD: hard 6), or,
for a wager without numbers, jumps to the group's middle (groups longer than
_ONE_ANCHOR wagers) or to the next wager. NEXT/PREV step through the wagers
of the group the selection is in, wrapping inside it.
NUMBER arms the number keys for ARMED_MS: a group key then picks the box
number printed on it (4 5 6 8 9 10), or, for a hop, a die face (1-6, two keys);
NUMBER pressed again steps to the next number. tests_host/test_nav.py checks
by search that every wager is at most 4 presses away and every point number
2 more.
"""
from micropython import const
from hal import buttons as B
from hal.ticks import ticks_diff, ticks_add
from firmware.rules import wagers as W
from firmware.rules import reasons as R

CHIPS = (100, 500, 2500, 10000)  # cents: $1, $5, $25, $100 chips
MSG_MS = const(3000)
BETTING = const(0)
HELP = const(1)
MYBETS = const(2)
STATS = const(3)


def message(code):
    m = R.message(code)
    return split2(m)


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
        self.chip_i = 0
        self.page = BETTING
        self.page_i = 0         # help page / MY BETS cursor
        self._help = None       # cached pages
        self.armed_until = None  # NUMBER pressed: group keys pick numbers until then
        self.die = 0            # first die of a hop being picked
        self.changed = True

    @property
    def chip(self):
        return CHIPS[self.chip_i]

    def fix_selection(self, table, profile):
        """After a roll or a profile change the selection may be gone."""
        self.sel = fix(self.sel, profile, table)

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
            return self._navigate(code, armed, table, now_ms)
        if code == B.CHIP:
            self.chip_i = (self.chip_i + 1) % len(CHIPS)
            return ""
        if code == B.CASHOUT:
            return ctl.cashout(now_ms)
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
        if code == B.NUMBER:
            if armed:
                sel = next_number(sel, table)
            elif numbers(sel[0], table)[0] == 0 and len(numbers(sel[0], table)) == 1:
                return "NO NUMBER FOR\nTHIS BET"
            self.sel = sel
            self.armed_until = ticks_add(now_ms, ARMED_MS)
            self.die = 0
            if sel[0] == W.HOP:
                return "HOP: DIE 1?\nkey 1-6"
            return "NUMBER: key\n4 5 6 8 9 10"
        g = B.GROUP_KEYS.index(code)
        if armed:
            new, self.die = pick(sel, g, self.die, table)
            if self.die:
                self.armed_until = ticks_add(now_ms, ARMED_MS)
                return "HOP: DIE 1 = %d\nDIE 2? key 1-6" % self.die
            self.armed_until = None
            if new is None:
                return "NO %s\nON %d" % (W.LABELS[sel[0]][:13], W.POINTS[g])
            self.sel = new
            return ""
        new = group_key(sel, g, profile, table)
        if new is None:
            return "NO %s BETS\nIN THIS GAME" % GROUPS[g][1]
        self.sel = new
        return ""

    # ---- bets ------------------------------------------------------------
    def act(self, code, ctl, table, sel):
        store = ctl.store
        now = ctl.now_s()
        kind, number = sel
        if code == B.BET_UP:
            return self.result(store.bet(now, kind, self.chip, number))
        if code == B.BET_DOWN:
            bet = table.find(kind, number)
            if bet is None:
                return message(R.NO_BET)
            take = 0 if self.chip >= bet[2] else self.chip
            return self.result(store.remove(now, kind, number, take))
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
        if code == B.REPEAT:
            return self._repeat(ctl, table, now)
        if code == B.CLEAR:
            if not any(b[5] for b in table.bets):
                return "NOTHING TO CLEAR"
            return self.result(store.clear(now), "BETS CLEARED")
        if code == B.ROLL:
            if not table.bets:
                return "PLACE A BET\nTO ROLL"
            if store.ledger.suspended():
                return message(R.LOCKED)
            ctl.game.request_roll()
            return ""
        return ""

    def result(self, code, msg=""):
        return msg if code == R.OK else message(code)

    def _odds(self, store, table, now, kind, number):
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
        code = store.bet(now, odds, self.chip, number)
        if code == R.OK:
            self.sel = (odds, number)
        return self.result(code)

    def _repeat(self, ctl, table, now):
        """The last period's new bets that are not on the table now, each
        placed if it can be; the refused ones are listed with the reason."""
        rep = ctl.game.repeat
        if not rep:
            return "NO BETS TO\nREPEAT"
        placed = 0
        refused = []
        for kind, number, amount in rep:
            if table.find(kind, number) is not None:
                continue  # still up: repeating it would double it
            code = ctl.store.bet(now, kind, amount, number)
            if code == R.OK:
                placed += 1
            else:
                refused.append((kind, number, amount, code))
        if not refused:
            if not placed:
                return "BETS ALREADY UP"
            return "REPEATED 1 BET" if placed == 1 else "REPEATED %d BETS" % placed
        return "\n".join(pages().repeat_notice(placed, refused))

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
    """NEXT (d=1) / PREV (d=-1) inside the selection's group."""
    kind, number = sel
    ks = kinds(profile, group_of(kind))
    if not ks:
        return sel
    i = ks.index(kind) if kind in ks else (-1 if d > 0 else 0)
    return land(ks[(i + d) % len(ks)], number, table)


def group_key(sel, k, profile, table):
    """Group key k: (new selection, or None when the group offers nothing)."""
    ks = kinds(profile, k)
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


def pick(sel, i, die, table):
    """A group key while NUMBER is armed. i: the key's place (0-5).
    Returns (selection or None if the wager has no such number, die): `die`
    is the first die face chosen for a hop (0: none yet)."""
    kind, number = sel
    if kind == W.HOP:
        face = i + 1
        if not die:
            return sel, face
        return (kind, W.hop_number(die, face)), 0
    n = W.POINTS[i]
    ns = numbers(kind, table)
    if n in ns:
        return (kind, n), 0
    if ns[0] not in W.POINTS and ns[0] and i < len(ns):  # horn high 2 3 11 12
        return (kind, ns[i]), 0
    return None, 0
