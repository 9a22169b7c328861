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
# a buy/lay that won and stayed up: the vig taken from the win is for its
# next decision, so until the next roll taking it down returns it (an undo)
_REPLACED = const(4)

WIN = const(1)
LOSE = const(2)
PUSH = const(3)
RETURNED = const(4)
RESULTS = ("", "win", "lose", "push", "returned")
_MOVE = const(5)
# what Table._give_back returns
_FRESH = const(0)
_FREE = const(1)
_ALL = const(2)
# placement checks by kind (Table._checks), beyond amount, number, limits
_ON_POINT = const(1)  # line odds: the point is their number
_PHASE = const(2)
_ODDS = const(4)
_PROP = const(8)  # a maximum payoff
_UPFRONT = const(16)  # commission paid with the bet
# what Table._hear gives for the families every roll decides
_TABLED = const(-1)  # one-roll bets paid by a table of totals
_CALLED = const(-2)  # hop, horn high, Lucky Roller, Sharp Shooter: settled by a call

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
_UP = const(b"\x02\x00\x01\x01\x01\x00\x00")
_NO_NUMBER = const((0,))   # the numbers of a bet that carries none
_EVEN = const((1, 1))       # even money


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
        self._ratio = _EVEN       # pay ratio a settling call leaves for roll()
        self.settled = []
        self.last_vig = 0         # vig charged (refunded if < 0) by the last action
        # by kind, built once: the numbers a bet may carry, the total it
        # hears, the checks its placement needs
        self._numbers = _numbers(profile)
        self._hear = _hear()
        self._checks = _checks(profile)
        # profile entries read on every bet or roll, as attributes
        self._limits = profile["limits"]
        self._round_up = profile["round_up"]
        self._vig_kind = profile["vig"]
        self._max_prop = profile["max_prop_win"]
        self._no_opposites = profile["no_opposites"]
        self._one_roll = profile["one_roll"]
        self._comeout_off = frozenset(profile["off_on_comeout"])
        self._toggle = frozenset(profile["toggle"])
        self._dark_one_roll = profile["dark_one_roll"]

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

    def stake(self, kind, number=0):
        """What `place` accepts now for (kind, number), credits aside:
        (code, least, unit, most). The legal totals of the bet are the
        multiples of `unit` from `least` to `most` (cents): the table
        limits, the odds cap of its line bet, the maximum proposition
        payoff, odds that pay whole cents (003). `code` is why nothing can
        be added now (R.OK when something can); a wager not offered, or not
        on that number now, is (its code, 0, 0, 0). The player's stake keys
        and refusal texts are built on it."""
        if type(kind) is not int or not 0 <= kind < W.COUNT or self._numbers[kind] is None:
            return R.NOT_OFFERED, 0, 0, 0
        checks = self._checks[kind]
        if checks & _ON_POINT:
            number = number or self.point
            if number != self.point or not number:
                return (R.BAD_NUMBER if self.point else R.POINT_OFF), 0, 0, 0
        if number not in self._numbers[kind]:
            return R.BAD_NUMBER, 0, 0, 0
        cur = self.find(kind, number)
        code = self._check_phase(kind, number, cur) if checks & _PHASE else R.OK
        lo, most, unit = self._limits[kind]
        most = most or MAX_CREDITS
        why = R.ABOVE_MAX
        if checks & _ODDS:
            odd = odds_step(self.p, kind, number)
            unit = unit * odd // gcd(unit, odd)
            cap = self._odds_cap(kind, number)
            if cap is not None and cap < most:
                most, why = cap, R.ODDS_LIMIT
        if checks & _PROP:
            for n, d in _pay_ratios(self.p, kind, number):
                if n <= 0:
                    continue  # a push (World on 7) wins nothing
                # the largest stake whose win stays within the payoff
                top = self._max_prop * d // n if self._round_up else \
                    ((self._max_prop + 1) * d - 1) // n
                if top < most:
                    most, why = top, R.MAX_PAYOFF
        least = lo + (-lo) % unit
        most -= most % unit
        if code == R.OK and most < max(least, (cur[_A] if cur else 0) + unit):
            code = why
        return code, least, unit, most

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
        numbers = self._numbers[kind]
        if numbers is None:
            return R.NOT_OFFERED
        if type(amount) is not int or amount <= 0 or type(number) is not int:
            return R.BAD_AMOUNT
        checks = self._checks[kind]
        if checks & _ON_POINT:
            if self.point == 0:
                return R.POINT_OFF
            if number == 0:
                number = self.point
            elif number != self.point:
                return R.BAD_NUMBER
        if number not in numbers:
            return R.BAD_NUMBER
        cur = None
        bets = self.bets
        for b in bets:
            if b[_K] == kind and b[_N] == number:
                cur = b
                break
        total = cur[_A] + amount if cur else amount
        if checks & _PHASE:
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
        vig = 0
        if checks > _PHASE:
            if checks & _ODDS:
                if total % odds_step(self.p, kind, number):
                    return R.NOT_MULTIPLE
                cap = self._odds_cap(kind, number)
                if cap is not None and total > cap:
                    return R.ODDS_LIMIT
            if checks & _PROP:
                if self._max_win(kind, number, total) > self._max_prop:
                    return R.MAX_PAYOFF
            if checks & _UPFRONT:
                vig = max(0, self._vig(kind, number, total) - (cur[_X] if cur else 0))
        left = self.credits - amount - vig
        if left < 0:
            return R.NO_FUNDS
        staked = self.staked + amount
        if left + staked * _MAX_PAY > MAX_CREDITS:
            return R.CREDIT_LIMIT
        self.credits = left
        self.staked = staked
        self.last_vig = vig
        if cur:
            cur[_A] = total
            cur[_X] += vig
            cur[_FR] += amount
        else:
            bets.append([kind, number, total, 0, vig, amount])
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
        odds = None
        if kind in W.BASE_ODDS:
            # line odds ride on the point, come odds on their come bet's
            # number: a come bet still in the come box has none
            on = self.point if kind < W.COME else number
            if on:
                odds = self.find(W.BASE_ODDS[kind], on)
        if odds is not None:
            if self.p["dont_odds_first"]:
                return R.ODDS_FIRST
            if take < bet[_A]:
                cap = self._odds_cap(odds[_K], odds[_N], bet[_A] - take)
                if cap is not None and odds[_A] > cap:
                    return R.ODDS_FIRST
        if take > bet[_FR] and kind in (W.DONT_PASS, W.DONT_COME) and self.point:
            # 003 5(d): not re-made until a new come-out roll (004 line 86:
            # a new don't come from the next roll)
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
        bet[_F] = (bet[_F] & _REPLACED) | (_CALLED_ON if on else _CALLED_OFF)
        if on and self.p["on_all"]:
            # 003 5(e): one ON button calls all similar wagers ON
            for b in self.bets:
                if b[_K] == kind:
                    b[_F] = (b[_F] & _REPLACED) | _CALLED_ON
        return R.OK

    def return_fresh(self, everything=False):
        """Gives back everything placed since the last roll (CLEAR button,
        a voided roll), or every bet. Fills `settled`."""
        return self._give_back(_ALL if everything else _FRESH)

    def _give_back(self, which):
        """Returns, with the vig they prepaid, the part placed since the
        last roll (_FRESH), all of every bet that may come down and the
        fresh part of a contract bet (_FREE), or every bet (_ALL)."""
        out = self.settled
        del out[:]
        refund = 0
        for bet in list(self.bets):
            back = bet[_A]
            if which == _FRESH or which == _FREE and self.in_contract(bet):
                back = bet[_FR]
            if back:
                self._take(bet, back, True)
                # paid: the stake and its vig (last_vig < 0 is a refund)
                out.append((bet[_K], bet[_N], back, RETURNED, back - self.last_vig, 0, 0, 0))
                refund += self.last_vig
        self.last_vig = refund
        return out

    def close_betting(self):
        """Bets close: under the aggregate minimum (002 6(g)) every bet that
        may come down goes back (a contract bet plays on); if a win could
        pass the credit meter (bets that stayed up kept winning) every bet
        goes back."""
        agg = self.p["agg_min"]
        total = self.on_table()
        if self.credits + total * _MAX_PAY > MAX_CREDITS:
            return self.return_fresh(True)
        if agg and 0 < total < agg:
            return self._give_back(_FREE)
        self.last_vig = 0
        del self.settled[:]
        return self.settled

    # ---- the roll ------------------------------------------------------
    def roll(self, d1, d2):
        if type(d1) is not int or type(d2) is not int or d1 < 1 or d1 > 6 or d2 < 1 or d2 > 6:
            return R.BAD_DICE
        t = d1 + d2
        p = self.point
        out = self.settled
        del out[:]  # keeps the list's storage: no reallocation per roll
        idle = self.idle
        del idle[:]
        bets = self.bets
        family = W.FAMILY
        hear = self._hear
        hear[W.PASS] = hear[W.DONT_PASS] = p
        gain = lost = 0  # credits and stakes change once, after the loop
        ratio = _EVEN
        moved = None
        quiet = 12 if t == 7 else 0  # a bet hearing a total above it may be left alone
        j = 0
        for bet in bets:  # kept bets are written back in place: bets[j], j <= i
            k, n, a, f, x, fresh = bet
            if f & _REPLACED:  # a roll: the vig it prepaid is no longer an undo
                f &= ~_REPLACED
                bet[_F] = f
            h = hear[k] or n
            if h > quiet and h != t:
                # a line, odds, number or hardway bet hears only its number
                # and the seven: most rolls decide nothing for it
                idle.append(bet)
            else:
                if h > 0:
                    res = WIN if (t == h) != (k in W.DARK) else LOSE
                    fam = family[k]
                    if fam and (f or p == 0) and not self.working(bet):
                        res = RETURNED if fam == W.F_ODDS else 0
                    elif fam == W.F_HARD and d1 != d2:
                        res = LOSE  # the easy way
                    elif res == WIN:
                        ratio = _RATIOS[k][h]
                elif h == 0:  # a line bet on the come-out
                    res = _COMEOUT[k * 13 + t]
                    ratio = _EVEN
                elif h == _TABLED and not f:
                    # a one-roll bet paid by a table of totals (not called
                    # ON/OFF): one look-up
                    ratio = self._one_roll[k].get(t)
                    if ratio is None:
                        res = LOSE
                        ratio = _EVEN   # not read: a loss pays nothing
                    else:
                        res = WIN if ratio[0] else PUSH
                else:
                    res = _SETTLE[family[k]](self, bet, t, d1, d2, p)
                    ratio = self._ratio
                if res == 0:
                    idle.append(bet)
                elif res == LOSE:
                    out.append((k, n, a, LOSE, 0, 0, 0, 0))
                    lost += a
                    continue
                elif res == _MOVE:
                    idle.append(bet)
                    moved = (bet, moved)
                else:
                    # paid: the winnings, plus the stake where the bet comes down
                    up = _UP[family[k]]
                    if up == 2:
                        # a come/don't come leaving its number comes down; so
                        # does one the seven-out decides in the come box: a
                        # come bet never plays a come-out roll (003 4(d))
                        up = 1 if k < W.PASS_ODDS or n == 0 and t != 7 else 0
                    vig = diff = 0
                    if res == WIN:
                        rn, rd = ratio
                        if rd == 1:
                            paid = a * rn
                        else:
                            paid, diff = _win(a, rn, rd, self._round_up)
                        if k in _VIGGED and self._vig_kind:
                            # 002 takes it from the win; where it was paid up
                            # front the bet that stays up pays it again for
                            # its next decision, an undo until the next roll
                            vig = self._vig(k, n, a)
                            paid -= vig
                            if self._checks[k] & _UPFRONT:
                                bet[_X] = vig
                                bet[_F] = f | _REPLACED
                        if not up:
                            paid += a
                    else:  # a push stays up and pays nothing; a bet returned comes down
                        if res == RETURNED:
                            up = 0
                        paid = 0 if up else a
                    gain += paid
                    out.append((k, n, a, res, paid, vig, diff, up))
                    if not up:
                        lost += a
                        continue
            if fresh:
                bet[_FR] = 0
            bets[j] = bet
            j += 1
        del bets[j:]
        self.credits += gain
        self.staked -= lost
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
        if self.point == 0 or self._dark_one_roll:
            self.dark_down = False
        self.new_shooter = p != 0 and t == 7
        self.lucky_open = t == 7
        return R.OK

    # ---- internals -----------------------------------------------------
    def _take(self, bet, amount, undo=False):
        """Gives `amount` of a bet back (this period's part first) with the
        vig paid for this period's part (an undo), or for all of it where
        the profile refunds it (003 7(c))."""
        fresh = min(amount, bet[_FR])
        refund = 0
        if bet[_X] and bet[_K] in _VIGGED:
            undo = undo or bet[_F] & _REPLACED or self.p["vig_refund"]
            keep = bet[_A] - (amount if undo else fresh)
            refund = max(0, bet[_X] - self._vig(bet[_K], bet[_N], keep))
            bet[_X] -= refund
        bet[_A] -= amount
        bet[_FR] -= fresh
        self.staked -= amount
        self.credits += amount + refund
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

    def _check_phase(self, kind, number, bet):
        p = self.point
        if kind in (W.PASS, W.DONT_PASS):
            if p and not (kind == W.PASS and bet and self.p["contract_increase"]):
                return R.POINT_ON
            if kind == W.DONT_PASS and self.dark_down:
                return R.DARK_DOWN
        elif kind in (W.COME, W.DONT_COME):
            if number:
                if bet is None:
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
            if bet and bet[_FR] < bet[_A]:
                return R.NO_INCREASE
        elif kind == W.SHARP_SHOOTER:
            if not self.new_shooter:
                return R.NEW_SHOOTER
        if self._no_opposites:
            other = _OPPOSITE.get(kind)
            if other is not None and self.find(other, number) is not None:
                return R.OPPOSITE
        return R.OK

    def _odds_cap(self, kind, number, amount=None):
        """Most an odds bet may be, from its line bet and the multiple."""
        if kind not in W.ODDS_BASE:
            return None
        if amount is None:
            base = self.find(W.ODDS_BASE[kind], number if kind in (W.COME_ODDS, W.DONT_COME_ODDS) else 0)
            if base is None:
                return 0
            amount = base[_A]
        if self.p["odds_mult"] is None:
            return None  # 004: odds up to the table limit
        mult = self.p["odds_mult"][number]
        if kind in W.DARK:
            n, d = P.LAY_ODDS[number]
            return mult * amount * d // n
        return mult * amount

    def _max_win(self, kind, number, amount):
        best = 0
        for n, d in _pay_ratios(self.p, kind, number):
            best = max(best, _win(amount, n, d, self.p["round_up"])[0])
        return best

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
        if point and point not in W.POINTS:
            return False
        bets = []
        for i in range(nbets):
            k, n, f, a, x, fr = struct.unpack_from(_BET, data, hsize + i * bsize)
            # a number no placement (or come bet moving) gives: roll() could
            # not settle it
            if k >= W.COUNT or n not in W.NUMBERS.get(
                    k, _COME_NUMBERS if k == W.COME or k == W.DONT_COME else _NO_NUMBER):
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


def _numbers(profile):
    """By kind, the numbers a bet may carry (0: none), or None where the
    profile does not offer the kind."""
    out: list = [None] * W.COUNT
    for k in profile["offered"]:
        if k == W.HOP and profile["hops"]:
            out[k] = profile["hops"]
        elif k == W.COME and profile["contract_increase"]:
            out[k] = _COME_NUMBERS  # 000: a come bet on its number may be increased
        else:
            out[k] = W.NUMBERS.get(k, _NO_NUMBER)
    return out


_COME_NUMBERS = (0,) + W.POINTS


def _checks(profile):
    """By kind, the checks a placement needs besides amount, number and
    limits (bits _ON_POINT ... _UPFRONT): most kinds need none."""
    out = bytearray(W.COUNT)
    for k in range(W.COUNT):
        c = 0
        if k == W.PASS_ODDS or k == W.DONT_PASS_ODDS:
            c |= _ON_POINT
        if k in W.ODDS_BASE or k in W.LUCKY_NEED or k in _PHASED or profile["no_opposites"]:
            c |= _PHASE  # it depends on the game's phase (or on the other side)
        if k in W.ODDS_BASE:
            c |= _ODDS
        if profile["max_prop_win"] and k in W.PROPS:
            c |= _PROP
        if profile["vig"] == "upfront" and k in _VIGGED:
            c |= _UPFRONT
        out[k] = c
    return bytes(out)


def _hear():
    """By kind, the total a bet hears besides the seven: 0 where it is the
    bet's number (the pass line's is the point, set each roll), 6/8 for big
    6/8. Every roll decides the others: _TABLED for the one-roll bets paid
    by a table of totals, _CALLED for those settled by a call. A list: a
    bytearray is a tenth of its heap but a slower look-up on CPython."""
    out = [0] * W.COUNT
    for k in range(W.COUNT):
        if W.FAMILY[k] > W.F_HARD:
            out[k] = _CALLED
        if W.FAMILY[k] == W.F_ONE_ROLL and k != W.HOP and k != W.HORN_HIGH:
            out[k] = _TABLED
    out[W.BIG6] = 6
    out[W.BIG8] = 8
    return out


def odds_step(profile, kind, number):
    """Cents an odds bet must be a multiple of so its true-odds pay is whole
    cents (003, which rounds pays up: 2:3 and 5:6 take multiples of 3 and 6
    cents, so $3 steps in whole dollars); 1 where pays round down."""
    if not profile["exact_odds"]:
        return 1
    n, d = _odds_ratio(kind, number)
    return d // gcd(n, d)


def gcd(a, b):
    """Greatest common divisor: stake units and pay denominators (the
    player station's stakes too)."""
    while b:
        a, b = b, a % b
    return a


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


_VIGGED = (W.BUY, W.LAY)  # the wagers that pay a commission
_PHASED = (W.PASS, W.DONT_PASS, W.COME, W.DONT_COME, W.SHARP_SHOOTER)
_OPPOSITE = {W.PASS: W.DONT_PASS, W.DONT_PASS: W.PASS, W.COME: W.DONT_COME,
             W.DONT_COME: W.COME, W.BUY: W.LAY, W.LAY: W.BUY}


def _comeout():
    """A line bet with no point or number yet, by kind and total
    (index kind * 13 + total): the come-out rules."""
    out = bytearray(13 * (W.DONT_COME + 1))
    for kind in (W.PASS, W.DONT_PASS, W.COME, W.DONT_COME):
        dark = kind in W.DARK
        for t in range(2, 13):
            if t == 7 or t == 11:
                res = LOSE if dark else WIN
            elif t == 2 or t == 3:
                res = WIN if dark else LOSE
            elif t == 12:
                res = PUSH if dark else LOSE
            else:
                res = _MOVE if kind >= W.COME else 0
            out[kind * 13 + t] = res
    return bytes(out)


_COMEOUT = _comeout()
del _comeout  # run once: its code need not stay on the heap


# ---- the rarer families: return 0 (stays), WIN, LOSE or PUSH; a win or
# push leaves its pay ratio in table._ratio (roll() reads it back)
def _one_roll(table, bet, t, d1, d2, p):
    if bet[_F] and not table.working(bet):  # one-roll bets work unless called OFF
        return 0
    kind = bet[_K]
    if kind == W.HOP or kind == W.HORN_HIGH:
        r = _one_roll_ratio(table.p, kind, bet[_N], t, d1, d2)
    else:
        r = table._one_roll[kind].get(t)
    if r is None:
        return LOSE
    table._ratio = r
    return WIN if r[0] else PUSH


def _lucky(table, bet, t, d1, d2, p):
    if t == 7:
        return LOSE
    bet[_X] |= 1 << t
    need = _LUCKY_MASK[bet[_K]]
    table._ratio = P.LUCKY_PAYS[bet[_K]]
    return WIN if bet[_X] & need == need else 0


def _sharp(table, bet, t, d1, d2, p):
    if p == 0 or (t != p and t != 7):
        return 0
    if t == p:
        bet[_X] += 1
        if bet[_X] < P.SHARP_PAYS[0][0]:  # pays at the seven, or at ten points made
            return 0
    for made, pays in P.SHARP_PAYS:
        if bet[_X] >= made:
            table._ratio = (pays, 1)
            return WIN
    return LOSE


def _lucky_masks():
    """By Lucky Roller kind, the bit (1 << total) of every total it needs."""
    out = {}
    for kind in W.LUCKY_NEED:
        mask = 0
        for t in W.LUCKY_NEED[kind]:
            mask |= 1 << t
        out[kind] = mask
    return out


_LUCKY_MASK = _lucky_masks()
del _lucky_masks  # run once: no loop names left among the module's globals


def _one_roll_ratio(profile, kind, number, t, d1, d2):
    """Net pay ratio of a one-roll wager for this roll, or None if it loses."""
    if kind == W.HOP:
        if W.hop_number(d1, d2) != number:
            return None
        return profile["hop"][1] if d1 == d2 else profile["hop"][0]
    table = profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH else kind]
    return table.get(t)


def _pay_ratios(profile, kind, number):
    """Every ratio a wager can win at (for the maximum-payoff check)."""
    if kind == W.HOP:
        return (profile["hop"][1] if number // 10 == number % 10 else profile["hop"][0],)
    if kind == W.HARD:
        ratio = P.HARD_ODDS[number]
        assert ratio is not None  # placement admits a hardway only on 4, 6, 8 or 10
        return (ratio,)
    table = profile["one_roll"][(W.HORN_HIGH, number) if kind == W.HORN_HIGH else kind]
    return tuple(table.values())


# Net pay ratio of a winning line, odds, number or hardway bet, by kind and
# the number it heard (the point for the pass line, 6/8 for big 6/8).
_EVENS = const((None, None, None, None, _EVEN, _EVEN, _EVEN, None, _EVEN, _EVEN, _EVEN))
_RATIOS = (_EVENS, _EVENS, P.TRUE_ODDS, P.LAY_ODDS, _EVENS, _EVENS, P.TRUE_ODDS, P.LAY_ODDS,
           P.PLACE_ODDS, P.PLACE_LOSE_ODDS, P.TRUE_ODDS, P.LAY_ODDS, _EVENS, _EVENS,
           P.HARD_ODDS)
_SETTLE = (None, None, None, None, _one_roll, _lucky, _sharp)
