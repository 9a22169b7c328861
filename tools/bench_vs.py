"""tools/bench engine --vs crapssim: our engine against crapssim, one process.

The same workload on both, the same dice: pass line $10 with 2x odds, place
6 and 8 for $6 each, field $5, each bet put back whenever it is not on the
layout, over N seeded rolls (xorshift, as tools/bench_engine.py). crapssim
(PyPI, pinned in requirements.txt, host-only) is driven through its own
Table/Player/Strategy API with the dice given to `fixed_run`. Both must end
with the same bankroll (cash plus what is on the layout), or the comparison
is refused. Prints rolls/s of each and the ratio.

Run: tools/bench engine --vs crapssim [--rolls N]   (5 rounds)
"""
import sys
import time

PASS, ODDS, PLACE, FIELD = 1000, 2000, 600, 500   # cents: $10, $20, $6, $5
START = 10 ** 8                                  # cents: never runs dry


def dice(n, seed=2463534242):
    """The seeded rolls, pre-drawn so neither engine pays for the generator."""
    from bench_engine import Rng
    rng = Rng(seed)
    return [(rng.die(), rng.die()) for _ in range(n)]


def ours(rolls):
    """Rolls/s and final bankroll (dollars) of firmware.rules on `rolls`.

    The player re-places what the roll took down, read from the roll's own
    settlement list (bets that win stay up), and takes odds when a point is
    set: the same bets on the layout as crapssim's strategy keeps."""
    from firmware.rules import profiles as P
    from firmware.rules import wagers as W
    from firmware.rules.table import Table
    t = Table(P.get("table"))
    t.credit(START)
    place, roll, settled = t.place, t.roll, t.settled
    k_odds, k_place = W.PASS_ODDS, W.PLACE
    # a pass bet comes down only by losing, and then the point is off: it
    # goes straight back; odds are taken the roll a point is set
    again = {W.PASS: (W.PASS, PASS, 0), W.FIELD: (W.FIELD, FIELD, 0)}
    place(W.PASS, PASS)
    for n in (6, 8):
        place(k_place, PLACE, n)
    place(W.FIELD, FIELD)
    start = time.process_time()
    for d1, d2 in rolls:
        point = t.point
        roll(d1, d2)
        for s in settled:
            if not s[7]:                       # it came down: put it back
                k = s[0]
                if k == k_place:
                    place(k, PLACE, s[1])
                elif k in again:
                    place(*again[k])
        if not point and t.point:
            place(k_odds, ODDS)
    took = time.process_time() - start
    return len(rolls) / took, (t.credits + t.on_table()) / 100


def crapssim(rolls):
    """Rolls/s and final bankroll (dollars) of crapssim on `rolls`."""
    from crapssim.table import Table
    from crapssim.bet import PassLine, Odds, Place, Field
    from crapssim.strategy.tools import Strategy

    class Workload(Strategy):
        def completed(self, player):
            return False

        def update_bets(self, player):
            table = player.table
            bets = player.bets
            if table.point.status == "Off":
                if not any(isinstance(b, PassLine) for b in bets):
                    player.add_bet(PassLine(PASS / 100))
            elif any(isinstance(b, PassLine) for b in bets) and \
                    not any(isinstance(b, Odds) for b in bets):
                player.add_bet(Odds(PassLine, table.point.number, ODDS / 100))
            for n in (6, 8):
                if not any(isinstance(b, Place) and b.number == n for b in bets):
                    player.add_bet(Place(n, PLACE / 100))
            if not any(isinstance(b, Field) for b in bets):
                player.add_bet(Field(FIELD / 100))

    table = Table(seed=1)
    player = table.add_player(bankroll=START / 100, strategy=Workload())
    start = time.process_time()
    table.fixed_run(rolls, verbose=False)
    took = time.process_time() - start
    return len(rolls) / took, player.bankroll + player.total_bet_amount


def main(n=100000, repeat=5):
    """`repeat` rounds, each running ours then crapssim on the same rolls
    (CPU time of this process: the machine is shared, and waiting for a core
    is no part of either engine). The headline ratio is best against best;
    the ratios of the rounds show what a loaded machine does to it."""
    rolls = dice(n)
    runs = [(ours(rolls), crapssim(rolls)) for _ in range(repeat)]
    a_rate = max(r[0][0] for r in runs)
    b_rate = max(r[1][0] for r in runs)
    a_bank, b_bank = runs[0][0][1], runs[0][1][1]
    print("Same workload, same %d seeded rolls: pass line $10 + 2x odds, place 6 and 8 $6, "
          "field $5 (best of %d, CPU time)" % (n, repeat))
    print("%-22s %12s %16s" % ("engine", "rolls/s", "final bankroll"))
    print("%-22s %12.0f %16.2f" % ("bubblecraps (CPython)", a_rate, a_bank))
    print("%-22s %12.0f %16.2f" % ("crapssim 0.4.1", b_rate, b_bank))
    if any(abs(r[0][1] - a_bank) > 1e-6 or abs(r[1][1] - a_bank) > 1e-6 for r in runs):
        print("DIFFERENT BANKROLLS: the engines did not play the same game")
        return 1
    each = sorted(r[0][0] / r[1][0] for r in runs)
    print("ratio %.1fx (rounds: min %.1fx, median %.1fx, max %.1fx)" % (
        a_rate / b_rate, each[0], each[len(each) // 2], each[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
