"""Player buttons -> store actions. Every refusal becomes a message.

Selection: NEXT/PREV step through the wagers the profile offers, numbers as
sub-steps (Place 4..10, Hardway 4..10, Hop 1-1..6-6); odds bets and come
bets that travelled to a number appear right after their line bet while
they are on the table. CHIP cycles the chip value; BET_UP/BET_DOWN add or
take a chip on the selection; ODDS adds a chip to the odds of the selected
line/come bet; ONOFF toggles working; REPEAT re-places the last period's
bets; CLEAR takes this period's bets back; ROLL ends the timer; CASHOUT;
HELP opens the pay-table pages (NEXT/PREV turn pages, HELP closes).
"""
from micropython import const
from hal import buttons as B
from firmware.rules import wagers as W
from firmware.rules import reasons as R

CHIPS = (1, 5, 25, 100)
MSG_MS = const(3000)
_LINES = (W.PASS, W.DONT_PASS, W.COME, W.DONT_COME)


def _each(profile, table):
    """Selectable (kind, number) pairs for this profile and table, one by one:
    checking a selection after every roll then builds no list."""
    for k in profile["offered"]:
        if k in W.ODDS_BASE:
            continue
        nums = W.NUMBERS.get(k)
        if nums:
            for n in nums:
                yield (k, n)
        else:
            yield (k, 0)
        if k in _LINES:
            odds = W.BASE_ODDS[k]
            for b in table.bets:
                if b[0] == k and b[1]:
                    yield (k, b[1])
            for b in table.bets:
                if b[0] == odds:
                    yield (odds, b[1])


def entries(profile, table):
    """Selectable (kind, number) pairs for this profile and table."""
    return list(_each(profile, table))


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
        self.help_page = -1     # -1: not in help
        self._help = None       # cached pages
        self.changed = True

    @property
    def chip(self):
        return CHIPS[self.chip_i]

    def _move(self, table, profile, d):
        lst = entries(profile, table)
        if not lst:
            return
        try:
            i = lst.index(self.sel)
        except ValueError:
            i = -1 if d > 0 else 0
        self.sel = lst[(i + d) % len(lst)]

    def fix_selection(self, table, profile):
        """After a roll or a profile change the selection may be gone."""
        if self.sel not in _each(profile, table):
            kind, num = self.sel
            base = W.ODDS_BASE.get(kind, kind)
            self.sel = (base, 0) if (base, 0) in _each(profile, table) else \
                entries(profile, table)[0]

    def help_pages(self, profile):
        if self._help is None or self._help[0] is not profile:
            from firmware.cabinet.paytext import help_pages
            self._help = (profile, help_pages(profile))
        return self._help[1]

    def on_button(self, code, ctl, now_ms):
        """Handles one press; returns the message to show ('' = none)."""
        self.changed = True
        store = ctl.store
        led = store.ledger
        table = led.table
        profile = table.p
        now = ctl.now_s()
        if self.help_page >= 0:
            pages = self.help_pages(profile)
            if code == B.NEXT:
                self.help_page = (self.help_page + 1) % len(pages)
                return ""
            if code == B.PREV:
                self.help_page = (self.help_page - 1) % len(pages)
                return ""
            self.help_page = -1
            if code == B.HELP:
                return ""
        if code == B.HELP:
            self.help_page = 0
            return ""
        if code == B.NEXT:
            self._move(table, profile, 1)
            return ""
        if code == B.PREV:
            self._move(table, profile, -1)
            return ""
        if code == B.CHIP:
            self.chip_i = (self.chip_i + 1) % len(CHIPS)
            return ""
        if code == B.CASHOUT:
            return ctl.cashout(now_ms)
        if ctl.game.rolling():
            return "BETS CLOSED\nwait for result"
        kind, number = self.sel
        if code == B.BET_UP:
            return self._result(store.bet(now, kind, self.chip, number))
        if code == B.BET_DOWN:
            bet = table.find(kind, number)
            if bet is None:
                return message(R.NO_BET)
            take = 0 if self.chip >= bet[2] else self.chip
            return self._result(store.remove(now, kind, number, take))
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
            return self._repeat(store, ctl.game.repeat, now)
        if code == B.CLEAR:
            if not any(b[5] for b in table.bets):
                return "NOTHING TO CLEAR"
            return self._result(store.clear(now), "BETS CLEARED")
        if code == B.ROLL:
            if not table.bets:
                return "PLACE A BET\nTO ROLL"
            if led.suspended():
                return message(R.LOCKED)
            ctl.game.request_roll()
            return ""
        return ""

    def _result(self, code, ok=""):
        return ok if code == R.OK else message(code)

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
        return self._result(code)

    def _repeat(self, store, rep, now):
        if not rep:
            return "NO BETS TO\nREPEAT"
        for kind, number, amount in rep:
            code = store.bet(now, kind, amount, number)
            if code != R.OK:
                return message(code)
        return "BETS REPEATED"
