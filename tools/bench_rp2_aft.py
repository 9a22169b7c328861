"""Runs ON the emulated Pico after tools/bench_rp2_session.py, in the same raw REPL.

The heap session's AFT and ticket phase (issue 23's memory point): ROLLS more
rolls of the same cabinet (the session's globals: ctl, board, clk, inp, run,
press, stake, at_roll), before each one a money movement, in turn an AFT transfer
to the credit meter, a ticket redeemed, an AFT transfer to the host and a
cash-out ticket (a point in play is rolled out first: no cash out while a
contract bet plays). The casino system is node's SAS host on the wire
(tests_emu/floorhost.mjs): a `BENCH aft_in|aft_out CENTS` line asks it to
lock the game (74) and transfer (72), a `BENCH ticket_in NUMBER CENTS` line
tells it a ticket it will redeem (67, 70, 71). The bill validator is a
scripted escrow one (hal/escrow.py contract) that reads the ticket; the
board's ID-003 driver stays referenced, so its memory still counts. Sent
only after the session's own readings, so its code is not in RAM then.
Free heap is read at each roll of its two windows like the session's. The waits
for the host run 10 ms passes (until()); `BENCH missed ...` says what did not
happen in WAIT_MS.
"""
from hal import escrow as V  # noqa: E402

ROLLS = int("@ROLLS@")
CHECK = int("@CHECK@")
WINDOW = max(1, min(100, (ROLLS - CHECK) // 2))  # at_roll's windows, over the phase's rolls
print("BENCH heap_window", WINDOW)
WAIT_MS = 60000     # of the fake clock: what a host's answer may take before the phase stops
AFT_IN = 2000
TICKET = 1500


class Escrow:
    """A validator with escrow holding what the phase inserts: a ticket."""

    def __init__(self):
        self.state = V.IDLE
        self.barcode = b""

    def poll(self, now_ms):
        return self.state, 0

    def stack(self):
        if self.state == V.TICKET:
            self.state = V.STACKED

    def ret(self):
        self.state = V.IDLE

    def ack(self):
        self.state = V.IDLE

    def inhibit(self, flag):
        pass


id003 = board.validator
board.validator = Escrow()
ctl.store.set_config(clk.now(), "asset_number", "16909060")   # the house's asset number


def until(done, step=50, ms=WAIT_MS):
    """Runs until done() (True) or ms of the fake clock (False). The host's turns
    take 10 ms passes: at 50 ms the fake clock runs ~10x the host's, and a
    ticket's 15 s for the host's answer would be ~1.5 s of its polling."""
    STEP[0] = step
    while not done() and ms > 0:
        run(100)
        ms -= 100
    STEP[0] = 50
    return ms > 0


def credits():
    return ctl.store.ledger.table.credits


def aft(key, cents):
    """The host locks the game and moves `cents` (node reads the line)."""
    want = credits() + (cents if key == "aft_in" else -cents)
    print("BENCH", key, cents)
    return until(lambda: credits() == want and not ctl.store.ledger.aft_lock, 10)


def ticket_in(k):
    number = 100000000000000000 + SEED * 1000 + k
    want = credits() + TICKET
    print("BENCH ticket_in", number, TICKET)
    esc = board.validator
    esc.barcode = ("%018d" % number).encode()
    esc.state = V.TICKET
    return until(lambda: credits() == want and esc.state == V.IDLE, 10)


def roll():
    """The bet (bills first when short) and ROLL, until the dice landed."""
    stake(ctl.store.ledger)
    before = g.rolls
    press(B.ROLL)
    return until(lambda: g.rolls != before)


def in_contract():
    table = ctl.store.ledger.table
    for b in table.bets:
        if table.in_contract(b):
            return True
    return False


def cash_out(k):
    """A ticket for the credits: no cash out while a contract bet plays, so the
    point is rolled out first."""
    while in_contract():
        if not roll():
            return False
    before = ctl.store.ledger.meters.get("tickets")
    press(B.CASHOUT)
    return until(lambda: ctl.store.ledger.meters.get("tickets") > before and not credits())


STEPS = (lambda k: aft("aft_in", AFT_IN), ticket_in,
         lambda k: aft("aft_out", credits() // 2), cash_out)
n = 0
while n < ROLLS:
    if not STEPS[n % 4](n):
        print("BENCH missed step", n % 4, "at phase roll", n + 1, ctl.store.ledger.suspended())
        break
    if not roll():
        print("BENCH missed roll at phase roll", n + 1, ctl.store.ledger.suspended())
        break
    n += 1
    at_roll(n)
m = ctl.store.ledger.meters
print("BENCH phase_meters", " ".join("%s=%d" % (k, m.get(k)) for k in
                                     ("aft_in_n", "aft_out_n", "tickets_in_n", "tickets")))
print("BENCH sas_line", "errors=%d bad_crc=%d overruns=%d" % (ctl.sas.errors, ctl.sas.refused, ctl.sas.port.overruns))
print("BENCH balance_check", ctl.store.ledger.balance_check())
print("BENCH done", n)
