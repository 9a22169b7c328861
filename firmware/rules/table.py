"""The craps layout of one player station: bets, point, credits in hand.

Pure logic over integers. Every player action returns a reason code and
changes nothing when refused; nothing here raises on bad input. A roll fills
`settled` with one tuple per bet it decided or returned:
(kind, number, amount, result, paid, vig, rounding) where `paid` is what went
back to the player's credits (stake included), `vig` the commission taken
from that payment and `rounding` the exact winnings minus the paid winnings
in 1/_ROUND_DEN credit (positive when the house kept a fraction).
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
MAX_CREDITS = 10 ** 10 - 1  # what a 10-digit meter shows
_STATE_VERSION = const(1)
_HDR = "<BBBHQ"
_BET = "<BBBIII"
_NEW_SHOOTER = const(1)
# may not be taken down once they have seen a roll
_CONTRACT = (W.PASS, W.COME, W.LUCKY_LOW, W.LUCKY_HIGH, W.LUCKY_ALL, W.SHARP_SHOOTER)
_LUCKY_OPEN = const(2)


def _odds_ratio(kind, n):
    return P.LAY_ODDS[n] if kind in W.DARK else P.TRUE_ODDS[n]


class Table:
    def __init__(self, profile):
        self.p = profile
        self.credits = 0
        self.point = 0
        self.bets = []
        self.new_shooter = True   # Sharp Shooter may be placed
        self.lucky_open = True    # Lucky Roller may be placed
        self.settled = []
        self.last_vig = 0         # vig charged (refunded if < 0) by the last place/remove
        self._offered = frozenset(profile["offered"])
        self._comeout_off = frozenset(profile["off_on_comeout"])
        self._toggle = frozenset(profile["toggle"])

    # ---- queries -------------------------------------------------------
    def find(self, kind, number=0):
        for b in self.bets:
            if b[_K] == kind and b[_N] == number:
                return b
        return None

    def on_table(self):
        total = 0
        for b in self.bets:
            total += b[_A]
        return total

    def working(self, bet):
        f = bet[_F]
        if f & _CALLED_ON:
            return True
        if f & _CALLED_OFF:
            return False
        return not (self.point == 0 and bet[_K] in self._comeout_off)

    def in_contract(self, bet):
        """True for a contract bet that has seen a roll: it cannot come down."""
        return bet[_K] in _CONTRACT and bet[_A] > bet[_FR]

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
        if not _whole(kind) or not 0 <= kind < W.COUNT:
            return R.BAD_WAGER
        if kind not in self._offered:
            return R.NOT_OFFERED
        if not _whole(amount) or amount <= 0 or not _whole(number):
            return R.BAD_AMOUNT
        if kind in (W.PASS_ODDS, W.DONT_PASS_ODDS):
            if self.point == 0:
                return R.POINT_OFF
            if number == 0:
                number = self.point
            elif number != self.point:
                return R.BAD_NUMBER
        code = self._check_number(kind, number)
        if code:
            return code
        cur = self.find(kind, number)
        have = cur[_A] if cur else 0
        total = have + amount
        code = self._check_phase(kind, number, cur)
        if code:
            return code
        lo, hi, mult = self.p["limits"][kind]
        if total < lo:
            return R.BELOW_MIN
        if hi and total > hi:
            return R.ABOVE_MAX
        if total % mult:
            return R.NOT_MULTIPLE
        cap = self._odds_cap(kind, number)
        if cap is not None and total > cap:
            return R.ODDS_LIMIT
        if self.p["max_prop_win"] and kind in W.PROPS:
            if self._max_win(kind, number, total) > self.p["max_prop_win"]:
                return R.MAX_PAYOFF
        vig = 0
        if self.p["vig"] == "upfront":
            vig = _vig(kind, number, total) - (cur[_X] if cur else 0)
        if amount + vig > self.credits:
            return R.NO_FUNDS
        self.credits -= amount + vig
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
        if kind in _CONTRACT and take > bet[_FR]:
            return R.CONTRACT
        odds = self.find(W.BASE_ODDS[kind], number or self.point) if kind in W.BASE_ODDS else None
        if odds is not None:
            if self.p["dont_odds_first"]:
                return R.ODDS_FIRST
            if take < bet[_A]:
                cap = self._odds_cap(odds[_K], odds[_N], bet[_A] - take)
                if odds[_A] > cap:
                    return R.ODDS_FIRST
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
        return R.OK

    def return_fresh(self):
        """Gives back everything placed since the last roll (CLEAR button,
        a voided roll, a missed aggregate minimum). Fills `settled`."""
        out = self.settled
        del out[:]
        for bet in list(self.bets):
            fresh = bet[_FR]
            if fresh:
                out.append((bet[_K], bet[_N], fresh, RETURNED, fresh, 0, 0))
                self._take(bet, fresh, True)
        return out

    def close_betting(self):
        """Bets close: under the aggregate minimum the new bets go back."""
        agg = self.p["agg_min"]
        total = self.on_table()
        if agg and 0 < total < agg:
            return self.return_fresh()
        del self.settled[:]
        return self.settled

    # ---- the roll ------------------------------------------------------
    def roll(self, d1, d2):
        if not (_whole(d1) and _whole(d2) and 1 <= d1 <= 6 and 1 <= d2 <= 6):
            return R.BAD_DICE
        t = d1 + d2
        p = self.point
        out = self.settled
        del out[:]  # keeps the list's storage: no reallocation per roll
        bets = self.bets
        moved = None
        j = 0
        for i in range(len(bets)):
            bet = bets[i]
            res = _SETTLE[W.FAMILY[bet[_K]]](self, bet, t, d1, d2, p)
            if res == 0 or res == _MOVE:
                bet[_FR] = 0
                bets[j] = bet
                j += 1
                if res == _MOVE:
                    moved = (bet, moved)
            else:
                self._pay(bet, res, t, d1, d2)
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
        self.new_shooter = p != 0 and t == 7
        self.lucky_open = t == 7
        return R.OK

    # ---- internals -----------------------------------------------------
    def _take(self, bet, take, undo=False):
        """Gives `take` of a bet back; an undo of this period's placement, or
        a profile that refunds it, also gives back the matching vig."""
        fresh = min(take, bet[_FR])
        bet[_A] -= take
        bet[_FR] -= fresh
        refund = 0
        if bet[_X] and bet[_K] in (W.BUY, W.LAY) and (undo or take == fresh
                                                      or self.p["vig_refund"]):
            refund = bet[_X] - _vig(bet[_K], bet[_N], bet[_A])
            bet[_X] -= refund
        self.credits += take + refund
        self.last_vig = -refund
        if bet[_A] == 0:
            self.bets.remove(bet)

    def _check_number(self, kind, number):
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
        elif kind in (W.COME, W.DONT_COME):
            if number:
                if cur is None:
                    return R.NO_BET
            elif p == 0:
                return R.POINT_OFF
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
        if self.p["no_opposites"]:
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

    def _pay(self, bet, res, t, d1, d2):
        kind, number, amount = bet[_K], bet[_N], bet[_A]
        paid = vig = diff = 0
        if res == WIN:
            n, d = _ratio(self, bet, t, d1, d2)
            win, diff = _win(amount, n, d, self.p["round_up"])
            if self.p["vig"] == "on_win" and kind in (W.BUY, W.LAY):
                vig = _vig(kind, number, amount)
            paid = amount + win - vig
        elif res != LOSE:
            paid = amount
        self.credits += paid
        self.settled.append((kind, number, amount, res, paid, vig, diff))

    # ---- snapshot ------------------------------------------------------
    def encode(self):
        flags = (_NEW_SHOOTER if self.new_shooter else 0) | (_LUCKY_OPEN if self.lucky_open else 0)
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
        self.credits = credits
        self.bets = [[b[0], b[1], b[3], b[2], b[4], b[5]] for b in bets]
        return True


def _whole(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _win(amount, n, d, round_up):
    """Winnings on `amount` at n:d, rounded per profile, and the rounding
    difference in 1/_ROUND_DEN credit."""
    exact = amount * n
    win = -((-exact) // d) if round_up else exact // d
    return win, exact * _ROUND_DEN // d - win * _ROUND_DEN


def _vig(kind, number, amount):
    """5% commission, whole credits rounded down, at least one credit."""
    if amount <= 0:
        return 0
    if kind == W.BUY:
        base = amount
    elif kind == W.LAY:
        n, d = P.LAY_ODDS[number]
        base = amount * n // d
    else:
        return 0
    v = base * P.VIG_PERCENT // 100
    return v if v > 0 else 1


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
    n = 6 if kind == W.BIG6 else 8 if kind == W.BIG8 else bet[_N]
    return _versus_seven(t, n, kind in W.DARK)


def _hard(tab, bet, t, d1, d2, p):
    if not tab.working(bet):
        return 0
    if t == bet[_N]:
        return WIN if d1 == d2 else LOSE
    return LOSE if t == 7 else 0


def _one_roll(tab, bet, t, d1, d2, p):
    if not tab.working(bet):
        return 0
    r = _one_roll_ratio(tab.p, bet[_K], bet[_N], t, d1, d2)
    if r is None:
        return LOSE
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
        return _one_roll_ratio(tab.p, kind, n, t, d1, d2)
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
