"""The craps layout of one player station: bets, point, credits in hand.

Pure logic over integers. Every player action returns a reason code and
changes nothing when refused; nothing here raises on bad input. A roll fills
`settled` with one tuple per bet it decided or returned:
(kind, number, amount, result, paid, vig, rounding, up) where `paid` is what
went back to the player's credits (the stake too only when the bet came
down), `vig` the commission taken from that payment, `rounding` the exact
winnings minus the paid winnings in 1/_ROUND_DEN cent (positive when the
house kept a fraction) and `up` 1 when the bet stays on the layout.

Money is integer cents everywhere; the documents' limits (dollars) are
turned into cents when the profile is built (profiles.get).
"""
import struct
from micropython import const
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.rules import pays as P

# Bet record: a list [kind, number, amount, flags, aux, fresh]. aux is the
# vig paid up front (buy/lay), the totals seen (Lucky Roller) or the points
# made (Sharp Shooter); fresh is the part placed since the last roll.
_K = const(0)
_N = const(1)
_A = const(2)
_F = const(3)
_X = const(4)
_FR = const(5)
_CALLED_ON = const(1)
_CALLED_OFF = const(2)

WIN = const(1)
LOSE = const(2)
PUSH = const(3)
RETURNED = const(4)
RESULTS = ("", "win", "lose", "push", "returned")
_MOVE = const(5)

_ROUND_DEN = const(1320)  # lcm of every pay-ratio denominator
MAX_CREDITS = 10 ** 10 - 1  # cents a 10-digit meter shows
# Stake plus the largest pay of any document (Sharp Shooter 300:1): bets are
# refused, and bets that stayed up come down at the close, while a win could
# take the credits past MAX_CREDITS.
_MAX_PAY = const(301)
_STATE_VERSION = const(2)  # 1: the release that counted whole dollars
_HDR = "<BBBHQ"
_BET = "<BBBIII"
_NEW_SHOOTER = const(1)
# may not be taken down once they have seen a roll
_LUCKY_OPEN = const(2)
_DARK_DOWN = const(4)

# Which families stay on the layout after a win or a push (003 5(c), 004
# lines 92 and 132): 1 stays, 0 comes down by rule, 2 a line bet that stays
# unless it is a come/don't come leaving its number.
_UP = b"\x02\x00\x01\x01\x01\x00\x00"
# By kind, 1 for those that carry a number (_NUMBERED) or whose placement
# depends on the game's phase (_PHASED): bytes, a tenth of a set's heap.
_NUMBERED = bytes(1 if k in W.NUMBERS or k in (W.COME, W.DONT_COME) else 0
                  for k in range(W.COUNT))
_PHASED = bytes(1 if k in W.ODDS_BASE or k in W.LUCKY_NEED or k in (
    W.PASS, W.DONT_PASS, W.COME, W.DONT_COME, W.SHARP_SHOOTER) else 0 for k in range(W.COUNT))


def _odds_ratio(kind, n):
    return P.LAY_ODDS[n] if kind in W.DARK else P.TRUE_ODDS[n]


class Table:
    def __init__(self, profile):
        self.p = profile
        self.credits = 0
        self.point = 0
        self.bets = []
        self.staked = 0           # sum of the bets' amounts, kept with every change
        self.new_shooter = True   # Sharp Shooter may be placed
        self.lucky_open = True    # Lucky Roller may be placed
        self.dark_down = False    # a don't bet came down: no new one until the come-out
        self.idle = []            # bets the last roll left alone (no action)
        self._ratio = None        # pay ratio of the one-roll bet being settled
        self.settled = []
        self.last_vig = 0         # vig charged (refunded if < 0) by the last place/remove
        self._offered = frozenset(profile["offered"])
        # profile entries read on every bet or roll, as attributes
        self._limits = profile["limits"]
        self._round_up = profile["round_up"]
        self._vig_kind = profile["vig"]
        self._upfront = profile["vig"] == "upfront"
        self._max_prop = profile["max_prop_win"]
        self._no_opposites = profile["no_opposites"]
        self._one_roll = profile["one_roll"]
        self._comeout_off = frozenset(profile["off_on_comeout"])
        self._toggle = frozenset(profile["toggle"])

    # ---- queries -------------------------------------------------------
    def find(self, kind, number=0):
        for b in self.bets:
            if b[_K] == kind and b[_N] == number:
                return b
        return None

    def on_table(self):
        return self.staked

    def working(self, bet):
        f = bet[_F]
        if f & _CALLED_ON:
            return True
        if f & _CALLED_OFF:
            return False
        return not (self.point == 0 and bet[_K] in self._comeout_off)

    def in_contract(self, bet):
        """True for a contract bet that has seen a roll: it cannot come down
        (pass with a point on, a come bet on its number, a bonus bet; a pass
        or come bet that won and stayed up is free until its next point)."""
        if bet[_A] <= bet[_FR]:
            return False
        kind = bet[_K]
        if kind == W.PASS:
            return self.point != 0
        if kind == W.COME:
            return bet[_N] != 0
        return W.FAMILY[kind] in (W.F_LUCKY, W.F_SHARP)

    def max_add(self, kind, number=0):
        """Largest amount `place` would accept now on top of the current bet
        (ignoring credits in hand), or 0. Used by the player screens."""
        lo, hi, mult = self.p["limits"][kind]
        cur = self.find(kind, number)
        room = (hi or 1 << 30) - (cur[_A] if cur else 0)
        lim = self._odds_cap(kind, number)
        if lim is not None:
            room = min(room, lim - (cur[_A] if cur else 0))
        return room if room > 0 else 0

    # ---- money in and out ----------------------------------------------
    def credit(self, amount):
        if not _whole(amount) or amount <= 0:
            return R.BAD_AMOUNT
        if self.credits + amount > MAX_CREDITS:
            return R.CREDIT_LIMIT
        self.credits += amount
        return R.OK

    def cashout(self):
        """Takes every credit in hand off the station; returns the amount."""
        amount = self.credits
        self.credits = 0
        return amount

    # ---- wagers --------------------------------------------------------
    def place(self, kind, amount, number=0):
        self.last_vig = 0
        # type() is int: a bool is not an amount (and no call per check)
        if type(kind) is not int or not 0 <= kind < W.COUNT:
            return R.BAD_WAGER
        if kind not in self._offered:
            return R.NOT_OFFERED
        if type(amount) is not int or amount <= 0 or type(number) is not int:
            return R.BAD_AMOUNT
        if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
            if self.point == 0:
                return R.POINT_OFF
            if number == 0:
                number = self.point
            elif number != self.point:
                return R.BAD_NUMBER
        if number or _NUMBERED[kind]:
            code = self._check_number(kind, number)
            if code:
                return code
        cur = None
        for b in self.bets:
            if b[_K] == kind and b[_N] == number:
                cur = b
                break
        total = cur[_A] + amount if cur else amount
        if _PHASED[kind] or self._no_opposites:
            code = self._check_phase(kind, number, cur)
            if code:
                return code
        lo, hi, mult = self._limits[kind]
        if total < lo:
            return R.BELOW_MIN
        if hi and total > hi:
            return R.ABOVE_MAX
        if total % mult:
            return R.NOT_MULTIPLE
        if kind in W.ODDS_BASE:
            if self.p["exact_odds"]:
                n, d = _odds_ratio(kind, number)
                if total * n % d:
                    return R.NOT_MULTIPLE
            cap = self._odds_cap(kind, number)
            if cap is not None and total > cap:
                return R.ODDS_LIMIT
        if self._max_prop and kind in W.PROPS:
            if self._max_win(kind, number, total) > self._max_prop:
                return R.MAX_PAYOFF
        vig = 0
        if self._upfront:
            vig = max(0, self._vig(kind, number, total) - (cur[_X] if cur else 0))
        if amount + vig > self.credits:
            return R.NO_FUNDS
        if self.credits - amount - vig + (self.staked + amount) * _MAX_PAY > MAX_CREDITS:
            return R.CREDIT_LIMIT
        self.credits -= amount + vig
        self.staked += amount
        self.last_vig = vig
        if cur:
            cur[_A] = total
            cur[_X] += vig
            cur[_FR] += amount
        else:
            self.bets.append([kind, number, total, 0, vig, amount])
        return R.OK

    def remove(self, kind, number=0, amount=0):
        """Takes a bet down (amount 0) or reduces it by `amount`."""
        self.last_vig = 0
        if not _whole(kind) or not _whole(number) or not _whole(amount) or amount < 0:
            return R.BAD_AMOUNT
        number, bet = self._named(kind, number)
        if bet is None:
            return R.NO_BET
        take = amount or bet[_A]
        if take > bet[_A]:
            return R.BAD_AMOUNT
        if take > bet[_FR] and self.in_contract(bet):
            return R.CONTRACT
        odds = self.find(W.BASE_ODDS[kind], number or self.point) if kind in W.BASE_ODDS else None
        if odds is not None:
            if self.p["dont_odds_first"]:
                return R.ODDS_FIRST
            if take < bet[_A]:
                cap = self._odds_cap(odds[_K], odds[_N], bet[_A] - take)
                if odds[_A] > cap:
                    return R.ODDS_FIRST
        if take > bet[_FR] and kind in (W.DONT_PASS, W.DONT_COME) and (number or self.point):
            # 003 5(d), 004 line 60: not re-made until the next come-out
            self.dark_down = True
        if odds is not None and take == bet[_A]:
            self._take(odds, odds[_A])
        self._take(bet, take)
        return R.OK

    def _named(self, kind, number):
        """(number, bet) a player means: line odds named without a number
        are the odds on the point."""
        if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS) and number == 0:
            number = self.point
        return number, self.find(kind, number)

    def set_working(self, kind, number, on):
        if not _whole(kind) or not 0 <= kind < W.COUNT or kind not in self._toggle:
            return R.NO_TOGGLE
        number, bet = self._named(kind, number)
        if bet is None:
            return R.NO_BET
        bet[_F] = _CALLED_ON if on else _CALLED_OFF
        if on and self.p["on_all"]:
            # 003 5(e): one ON button calls all similar wagers ON
            for b in self.bets:
                if b[_K] == kind:
                    b[_F] = _CALLED_ON
        return R.OK

    def return_fresh(self, everything=False):
        """Gives back everything placed since the last roll (CLEAR button,
        a voided roll, a missed aggregate minimum), or every bet. Fills
        `settled`."""
        out = self.settled
        del out[:]
        for bet in list(self.bets):
            back = bet[_A] if everything else bet[_FR]
            if back:
                out.append((bet[_K], bet[_N], back, RETURNED, back, 0, 0, 0))
                self._take(bet, back, True)
        return out

    def close_betting(self):
        """Bets close: under the aggregate minimum the new bets go back; if
        a win could pass the credit meter (bets that stayed up kept winning)
        every bet goes back."""
        agg = self.p["agg_min"]
        total = self.on_table()
        if self.credits + total * _MAX_PAY > MAX_CREDITS:
            return self.return_fresh(True)
        if agg and 0 < total < agg:
            return self.return_fresh()
        del self.settled[:]
        return self.settled

    # ---- the roll ------------------------------------------------------
    def roll(self, d1, d2):
        if not (type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6):
            return R.BAD_DICE
        t = d1 + d2
        p = self.point
        out = self.settled
        del out[:]  # keeps the list's storage: no reallocation per roll
        idle = self.idle
        del idle[:]
        bets = self.bets
        family = W.FAMILY
        settle = _SETTLE
        one_roll = self._one_roll
        moved = None
        j = 0
        for bet in bets:  # kept bets are written back in place: bets[j], j <= i
            k = bet[_K]
            fam = family[k]
            res = -1
            if fam <= W.F_HARD and t != 7:
                # line (on its point), odds, number and hardway bets hear
                # only their number and the seven: most rolls decide nothing
                # for them, found without a call
                n = bet[_N]
                if fam == W.F_LINE:
                    if k < W.PASS_ODDS:
                        n = p
                elif n == 0:
                    n = 6 if k == W.BIG6 else 8  # only big 6/8 have no number
                if n and t != n:
                    res = 0
            elif fam == W.F_ONE_ROLL and not bet[_F] and k != W.HOP and k != W.HORN_HIGH:
                # the plain one-roll bets (not called ON/OFF): one look-up
                r = one_roll[k].get(t)
                if r is None:
                    res = LOSE
                else:
                    self._ratio = r
                    res = WIN if r[0] else PUSH
            if res < 0:
                res = settle[fam](self, bet, t, d1, d2, p)
            if res == 0:
                idle.append(bet)
            elif res == LOSE:
                a = bet[_A]
                out.append((k, bet[_N], a, LOSE, 0, 0, 0, 0))
                self.staked -= a
                continue
            elif res == _MOVE:
                idle.append(bet)
                moved = (bet, moved)
            elif not self._pay(bet, res, t, d1, d2, fam):
                self.staked -= bet[_A]
                continue
            if bet[_FR]:
                bet[_FR] = 0
            bets[j] = bet
            j += 1
        del bets[j:]
        # A come bet moving onto its number joins a come bet already there.
        while moved:
            bet, moved = moved
            same = None
            for b in bets:
                if b[_K] == bet[_K] and b[_N] == t:
                    same = b
            if same:
                same[_A] += bet[_A]
                bets.remove(bet)
            else:
                bet[_N] = t
        if p == 0:
            if t in W.POINTS:
                self.point = t
        elif t == p or t == 7:
            self.point = 0
            self.dark_down = False
        self.new_shooter = p != 0 and t == 7
        self.lucky_open = t == 7
        return R.OK

    # ---- internals -----------------------------------------------------
    def _take(self, bet, take, undo=False):
        """Gives `take` of a bet back (this period's part first) with the
        vig paid for this period's part (an undo), or for all of it where
        the profile refunds it (003 7(c))."""
        fresh = min(take, bet[_FR])
        refund = 0
        if bet[_X] and bet[_K] in (W.BUY, W.LAY):
            keep = bet[_A] - (take if undo or self.p["vig_refund"] else fresh)
            refund = max(0, bet[_X] - self._vig(bet[_K], bet[_N], keep))
            bet[_X] -= refund
        bet[_A] -= take
        bet[_FR] -= fresh
        self.staked -= take
        self.credits += take + refund
        self.last_vig = -refund
        if bet[_A] == 0:
            self.bets.remove(bet)

    def _vig(self, kind, number, amount):
        """5% commission to the cent: down where winnings round down, up
        where they round up (003), so the player never gains a fraction."""
        if amount <= 0:
            return 0
        if kind == W.BUY:
            num, den = amount * P.VIG_PERCENT, 100
        elif kind == W.LAY:
            n, d = P.LAY_ODDS[number]
            num, den = amount * n * P.VIG_PERCENT, d * 100
        else:
            return 0
        return -((-num) // den) if self._round_up else num // den

    def _check_number(self, kind, number):
        if kind == W.HOP and self.p["hops"]:
            return R.OK if number in self.p["hops"] else R.BAD_NUMBER
        allowed = W.NUMBERS.get(kind)
        if kind in (W.COME, W.DONT_COME):
            allowed = W.POINTS if number else None
            if number and not (kind == W.COME and self.p["contract_increase"]):
                return R.BAD_NUMBER
        if allowed is None:
            return R.BAD_NUMBER if number else R.OK
        return R.OK if number in allowed else R.BAD_NUMBER

    def _check_phase(self, kind, number, cur):
        p = self.point
        if kind in (W.PASS, W.DONT_PASS):
            if p and not (kind == W.PASS and cur and self.p["contract_increase"]):
                return R.POINT_ON
            if kind == W.DONT_PASS and self.dark_down:
                return R.DARK_DOWN
        elif kind in (W.COME, W.DONT_COME):
            if number:
                if cur is None:
                    return R.NO_BET
            elif p == 0:
                return R.POINT_OFF
            elif kind == W.DONT_COME and self.dark_down:
                return R.DARK_DOWN
        elif kind in W.ODDS_BASE:
            if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS) and p == 0:
                return R.POINT_OFF
            if self.find(W.ODDS_BASE[kind], number if kind in (W.COME_ODDS, W.DONT_COME_ODDS) else 0) is None:
                return R.NO_BASE
        elif kind in W.LUCKY_NEED:
            if not self.lucky_open:
                return R.LUCKY_CLOSED
            if cur and cur[_FR] < cur[_A]:
                return R.NO_INCREASE
        elif kind == W.SHARP_SHOOTER:
            if not self.new_shooter:
                return R.NEW_SHOOTER
        if self._no_opposites:
            other = _OPPOSITE.get(kind)
            if other is not None and self.find(other, number) is not None:
                return R.OPPOSITE
        return R.OK

    def _odds_cap(self, kind, number, base_amount=None):
        """Most an odds bet may be, from its line bet and the multiple."""
        if kind not in W.ODDS_BASE:
            return None
        if base_amount is None:
            base = self.find(W.ODDS_BASE[kind], number if kind in (W.COME_ODDS, W.DONT_COME_ODDS) else 0)
            if base is None:
                return 0
            base_amount = base[_A]
        if self.p["odds_mult"] is None:
            return None  # 004: odds up to the table limit
        mult = self.p["odds_mult"][number]
        if kind in W.DARK:
            n, d = P.LAY_ODDS[number]
            return mult * base_amount * d // n
        return mult * base_amount

    def _max_win(self, kind, number, amount):
        best = 0
        for n, d in _pay_ratios(self.p, kind, number):
            best = max(best, _win(amount, n, d, self.p["round_up"])[0])
        return best

    def _pay(self, bet, res, t, d1, d2, fam):
        """Pays a decided bet (not a loss); True when it stays on the layout."""
        kind, number, amount = bet[_K], bet[_N], bet[_A]
        up = _UP[fam]
        if up == 2:
            up = 1 if kind < W.PASS_ODDS or number == 0 else 0
        vig = diff = 0
        if res == WIN:
            n, d = self._ratio if fam == W.F_ONE_ROLL else _ratio(self, bet, t, d1, d2)
            if d == 1:
                paid = amount * n
            else:
                paid, diff = _win(amount, n, d, self._round_up)
            if self._vig_kind and (kind == W.BUY or kind == W.LAY):
                # 002 takes it from the win; where it was paid up front the
                # bet that stays up pays it again for its next decision
                vig = self._vig(kind, number, amount)
                paid -= vig
            if not up:
                paid += amount
        else:  # a push stays up and pays nothing; a bet returned comes down
            if res == RETURNED:
                up = 0
            paid = 0 if up else amount
        self.credits += paid
        self.settled.append((kind, number, amount, res, paid, vig, diff, up))
        return up

    # ---- snapshot ------------------------------------------------------
    def encode(self):
        flags = ((_NEW_SHOOTER if self.new_shooter else 0) | (_LUCKY_OPEN if self.lucky_open else 0)
                 | (_DARK_DOWN if self.dark_down else 0))
        out = bytearray(struct.pack(_HDR, _STATE_VERSION, self.point, flags,
                                    len(self.bets), self.credits))
        for b in self.bets:
            out += struct.pack(_BET, b[_K], b[_N], b[_F], b[_A], b[_X], b[_FR])
        return bytes(out)

    def load(self, data):
        """Restores a state written by encode(); False if it is not one."""
        hsize = struct.calcsize(_HDR)
        bsize = struct.calcsize(_BET)
        if not isinstance(data, (bytes, bytearray, memoryview)) or len(data) < hsize:
            return False
        ver, point, flags, nbets, credits = struct.unpack_from(_HDR, data, 0)
        if ver != _STATE_VERSION or len(data) != hsize + nbets * bsize:
            return False
        bets = []
        for i in range(nbets):
            k, n, f, a, x, fr = struct.unpack_from(_BET, data, hsize + i * bsize)
            if k >= W.COUNT:
                return False
            bets.append([k, n, f, a, x, fr])
        self.point = point
        self.new_shooter = bool(flags & _NEW_SHOOTER)
        self.lucky_open = bool(flags & _LUCKY_OPEN)
        self.dark_down = bool(flags & _DARK_DOWN)
        self.credits = credits
        self.bets = [[b[0], b[1], b[3], b[2], b[4], b[5]] for b in bets]
        self.staked = sum(b[_A] for b in self.bets)
        return True


def _whole(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _win(amount, n, d, round_up):
    """Winnings on `amount` at n:d, rounded to the cent per profile (003
    6(d): up to the next cent), and the rounding difference in 1/_ROUND_DEN
    cent."""
    exact = amount * n
    if d == 1:
        return exact, 0
    win = -((-exact) // d) if round_up else exact // d
    return win, exact * _ROUND_DEN // d - win * _ROUND_DEN


_OPPOSITE = {W.PASS: W.DONT_PASS, W.DONT_PASS: W.PASS, W.COME: W.DONT_COME,
             W.DONT_COME: W.COME, W.BUY: W.LAY, W.LAY: W.BUY}


# ---- settlement by family: return 0 (stays), WIN, LOSE, PUSH, RETURNED, _MOVE
def _line(tab, bet, t, d1, d2, p):
    kind = bet[_K]
    dark = kind in W.DARK
    target = p if kind in (W.PASS, W.DONT_PASS) else bet[_N]
    if target == 0:
        if t == 7 or t == 11:
            return LOSE if dark else WIN
        if t == 2 or t == 3:
            return WIN if dark else LOSE
        if t == 12:
            return PUSH if dark else LOSE
        return _MOVE if kind in (W.COME, W.DONT_COME) else 0
    return _versus_seven(t, target, dark)


def _versus_seven(t, n, dark):
    """A number against the seven: right side wins on n, dark side on 7."""
    if t == n:
        return LOSE if dark else WIN
    if t == 7:
        return WIN if dark else LOSE
    return 0


def _odds(tab, bet, t, d1, d2, p):
    res = _number(tab, bet, t, d1, d2, p, True)
    if res and not tab.working(bet):
        return RETURNED
    return res


def _number(tab, bet, t, d1, d2, p, always=False):
    if not always and not tab.working(bet):
        return 0
    kind = bet[_K]
    n = bet[_N] or (6 if kind == W.BIG6 else 8)
    return _versus_seven(t, n, kind in W.DARK)


def _hard(tab, bet, t, d1, d2, p):
    if not tab.working(bet):
        return 0
    if t == bet[_N]:
        return WIN if d1 == d2 else LOSE
    return LOSE if t == 7 else 0


def _one_roll(tab, bet, t, d1, d2, p):
    if bet[_F] and not tab.working(bet):  # one-roll bets work unless called OFF
        return 0
    kind = bet[_K]
    if kind == W.HOP or kind == W.HORN_HIGH:
        r = _one_roll_ratio(tab.p, kind, bet[_N], t, d1, d2)
    else:
        r = tab._one_roll[kind].get(t)
    if r is None:
        return LOSE
    tab._ratio = r  # _pay reads it back: the table is looked up once
    return WIN if r[0] else PUSH


def _lucky(tab, bet, t, d1, d2, p):
    if t == 7:
        return LOSE
    bet[_X] |= 1 << t
    need = _LUCKY_MASK[bet[_K]]
    return WIN if bet[_X] & need == need else 0


def _sharp(tab, bet, t, d1, d2, p):
    if p and t == p:
        bet[_X] += 1
        return WIN if bet[_X] >= P.SHARP_PAYS[0][0] else 0
    if p and t == 7:
        for made, pays in P.SHARP_PAYS:
            if bet[_X] >= made:
                return WIN
        return LOSE
    return 0


_LUCKY_MASK = {}
for _k in W.LUCKY_NEED:
    _m = 0
    for _t in W.LUCKY_NEED[_k]:
        _m |= 1 << _t
    _LUCKY_MASK[_k] = _m


def _one_roll_ratio(profile, kind, number, t, d1, d2):
    """Net pay ratio of a one-roll wager for this roll, or None if it loses."""
    if kind == W.HOP:
        if W.hop_number(d1, d2) != number:
            return None
        return profile["hop"][1] if d1 == d2 else profile["hop"][0]
    table = profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH else kind]
    return table.get(t)


def _ratio(tab, bet, t, d1, d2):
    """Net pay ratio of a winning bet."""
    kind, n = bet[_K], bet[_N]
    fam = W.FAMILY[kind]
    if fam == W.F_LINE:
        return (1, 1)
    if fam == W.F_ODDS:
        return _odds_ratio(kind, n)
    if fam == W.F_ONE_ROLL:
        return tab._ratio
    if fam == W.F_LUCKY:
        return P.LUCKY_PAYS[kind]
    if fam == W.F_SHARP:
        for made, pays in P.SHARP_PAYS:
            if bet[_X] >= made:
                return (pays, 1)
    return _NUMBER_ODDS[kind](n)


_NUMBER_ODDS = {
    W.PLACE: lambda n: P.PLACE_ODDS[n],
    W.PLACE_LOSE: lambda n: P.PLACE_LOSE_ODDS[n],
    W.BUY: lambda n: P.TRUE_ODDS[n],
    W.LAY: lambda n: P.LAY_ODDS[n],
    W.BIG6: lambda n: (1, 1),
    W.BIG8: lambda n: (1, 1),
    W.HARD: lambda n: P.HARD_ODDS[n],
}


def _pay_ratios(profile, kind, number):
    """Every ratio a wager can win at (for the maximum-payoff check)."""
    if kind == W.HOP:
        return (profile["hop"][1] if number // 10 == number % 10 else profile["hop"][0],)
    if kind == W.HARD:
        return (P.HARD_ODDS[number],)
    table = profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH else kind]
    return tuple(table.values())


_SETTLE = (_line, _odds, _number, _hard, _one_roll, _lucky, _sharp)
