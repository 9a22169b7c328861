"""A power cut never produces two tickets with the same validation number
(issue 12). A session of four cashouts (bills and a coin in, CASHOUT) runs
on the mock board; the n-th flash program or erase is torn
(NorFlash.cut_after), the board loses power, a new board boots on the same
flash, the attendant settles a ticket in doubt by a reprint (firmware's own
attend.reprint), and the session goes on. With a second cut, the power goes
again at the m-th flash operation after the first power-up (its boot, the
TICKET IN DOUBT lock, the reprint).

Checked on every paper printed on every board of the run:
- the number is 18 digits, "00" then the secure-enhanced number of the
  cabinet's validation ID and a sequence, computed by the independent
  reference in test_sas_units (check digits included), and the barcode
  carries the same digits;
- the distinct numbers, in print order, are sequences 1, 2, 3, ... of that
  ID: no number is ever used for two cashouts, none is skipped;
- a number printed twice is the same cashout (same amount) and the second
  paper says REPRINT.

CI runs a seeded sample; FULL=1 cuts at every flash operation, and for
double cuts at every operation of the first power-up after each cut.
Plain asserts: runs on CPython and MicroPython.
"""
import gc
from hal.mock.norflash import PowerCut
from firmware.cabinet import attend
from test_e2e_session import make, check
from test_e2e_powercut import CutDriver, Cut, _full, _rng
from test_sas_units import reference_number

SESSION = ("bill 20", "press CASHOUT", "wait 1500", "bill 5", "press CASHOUT", "wait 1500",
           "bill 10", "coin 1", "press CASHOUT", "wait 1500", "bill 1", "press CASHOUT",
           "wait 3500")


def _start(seed, flash=None):
    b, d0 = make(seed=seed, flash=flash)
    return b, CutDriver(b, ctl=d0.ctl)


def _papers(b, out):
    """The papers a board printed: (validation digits, amount line, reprint, barcode)."""
    p = b.printer
    for lines, barcode in zip(p.tickets, p.barcodes):
        number = [l for l in lines if l.startswith("VALIDATION ")][0][len("VALIDATION "):]
        amount = [l for l in lines if l.startswith("AMOUNT ")][0]
        out.append((number, amount, "REPRINT" in lines, barcode))
    del p.tickets[:]
    del p.barcodes[:]


def _settle(b, d):
    """A ticket in doubt after the power-up: the attendant reprints it."""
    led = d.ctl.store.ledger
    if led.ticket:
        lines = attend.reprint(d.ctl.store, b.printer, b.clock.now())
        assert lines[0] == "REPRINTED", lines
    assert not led.ticket


def run_session(seed, cut=0, second=0):
    """SESSION with a cut at the cut-th flash op (0: none) and, after the
    first power-up, another at its second-th op (0: none). Returns (papers,
    validation ID, flash ops used, cuts survived)."""
    b, d = _start(seed)
    flash = b.flash
    flash.reset_counters()
    if cut:
        flash.cut_after(cut)
    papers = []
    i = 0
    cuts = 0
    pending = second
    while i < len(SESSION):
        try:
            if cuts:
                _settle(b, d)
            d.command(SESSION[i])
            i += 1
        except (Cut, PowerCut):
            cuts += 1
            assert cuts <= 2
            _papers(b, papers)
            flash.power_on()
            if pending:
                flash.reset_counters()
                flash.cut_after(pending)
                pending = 0
            i += 1          # the interrupted command is abandoned
            try:
                b, d = _start(seed + 1000 * cuts, flash)
                if cuts:
                    _settle(b, d)
            except (Cut, PowerCut):
                # the power went again during the power-up: once more
                cuts += 1
                assert cuts <= 2
                _papers(b, papers)
                flash.power_on()
                b, d = _start(seed + 5000, flash)
    flash._cut = 0          # a second cut never reached: disarmed (as power_on does)
    _settle(b, d)
    check(d)
    _papers(b, papers)
    led = d.ctl.store.ledger
    vid = led.val_id
    return papers, vid, flash.ops, cuts


def verify(papers, vid):
    first = {}                      # number -> amount of its first paper
    order = []
    for number, amount, reprint, barcode in papers:
        assert len(number) == 18 and number.isdigit() and number[:2] == "00", number
        assert barcode == number, (barcode, number)
        if number in first:
            assert reprint, "a second paper with %s that is not a reprint" % number
            assert first[number] == amount, ("two cashouts share", number)
        else:
            first[number] = amount
            order.append(number)
    # sequences 1, 2, 3... of the cabinet's ID, as the reference computes them
    assert order == [reference_number(vid, s) for s in range(1, len(order) + 1)], order
    return len(order)


def test_cashouts_without_cut_print_sequences_one_by_one():
    papers, vid, ops, cuts = run_session(31)
    assert cuts == 0 and ops > 10
    assert verify(papers, vid) == 4                    # four cashouts, four numbers
    assert not any(p[2] for p in papers)               # no reprint without a cut


def _points(ops, n, seed):
    below = _rng(seed)
    return sorted(set([1, ops] + [1 + below(ops) for _ in range(n)]))


def test_a_power_cut_at_any_flash_operation_never_repeats_a_number():
    papers, vid, ops, cuts = run_session(32)
    points = range(1, ops + 1) if _full() else _points(ops, 14, 777)
    tickets = reprints = survived = 0
    for n in points:
        papers = None
        gc.collect()
        try:
            papers, vid, _, cuts = run_session(32, n)
            tickets += verify(papers, vid)
        except AssertionError:
            print("cut at flash op", n, "of", ops)
            raise
        survived += cuts
        reprints += sum(1 for p in papers if p[2])
    assert survived == len(points)
    assert reprints > 0 or not _full()      # some cut fell between print and confirmation
    if _full():
        print("ticket power cuts: %d cut points, %d tickets, %d reprints" % (
            len(points), tickets, reprints))


def test_a_second_cut_during_the_power_up_never_repeats_a_number():
    papers, vid, ops, cuts = run_session(33)
    below = _rng(4242)
    if _full():
        pairs = [(n, m) for n in range(1, ops + 1) for m in range(1, 13)]
    else:
        pairs = [(1 + below(ops), 1 + below(12)) for _ in range(8)]
    tickets = doubles = 0
    for n, m in pairs:
        papers = None
        gc.collect()
        try:
            papers, vid, _, cuts = run_session(33, n, m)
            tickets += verify(papers, vid)
        except AssertionError:
            print("cuts at flash op", n, "then", m, "of", ops)
            raise
        doubles += cuts == 2
    assert doubles > 0
    if _full():
        print("ticket double cuts: %d pairs, %d with both cuts, %d tickets" % (
            len(pairs), doubles, tickets))
