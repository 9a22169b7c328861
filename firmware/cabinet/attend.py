"""What the attendant can do about a lockup (and, at a table's station, a
round its dome does not know), for the audit menu and for the
built-in basic audit (firmware/cabinet/fallback.py), so both do exactly the
same and the cabinet can still do it when the audit menu cannot be loaded.

Each action commits through the store (journalled and logged) and returns
the lines that say what happened. Every action takes two presses of its
button (the first arms it; CLEAR or another button disarms).
"""
from hal import buttons as B
from hal.ticks import ticks_diff
from firmware import fmt
from firmware.store import ledger as L
from firmware.store import records as T

SEQUENCE = (B.CHIP, B.ODDS, B.REBET)  # RAM clear arming sequence
SEQUENCE_MS = 10000


def _number(n):
    """The validation number's 16 digits after the system ID (the menu is
    16 columns; the paper shows all 18)."""
    return "%016d" % (n % 10 ** 16)


def bill_in_doubt(led):
    """Cents of the note a faulted validator held (0: none)."""
    return led.escrow if led.host & L.BILL_DOUBT else 0


def state(led):
    """4 lines: the lock and, for a ticket or a note in doubt, what it was."""
    if led.ticket:
        return ["Ticket in doubt", "amount " + fmt(led.ticket), _number(led.ticket_no),
                L.LOCK_NAMES[led.lock] if led.lock else "printing"]
    if bill_in_doubt(led):
        return ["Bill in doubt", "amount " + fmt(led.escrow), "in cash box?",
                "count it first"]
    if led.lock:
        return ["Lock:", L.LOCK_NAMES[led.lock], "Amount", "%16s" % fmt(led.lock_arg)]
    why = led.suspended()
    return ["No lockup", ("Paused: " + why) if why and why != "AUDIT" else "",
            "Credits %8s" % fmt(led.table.credits), ""]


def reprint(store, printer, now):
    from firmware.cabinet import ticket as TK
    led = store.ledger
    amount, number = led.ticket, led.ticket_no
    if TK.print_pending(store, printer, now, True, True, None):
        return ["REPRINTED", "ticket " + fmt(amount), _number(number), "(logged)"]
    return ["NOT PRINTED", "printer: check", "still in doubt", ""]


def handpay(store, now):
    led = store.ledger
    amount = led.ticket
    rc = store.ticket(now, T.TK_HANDPAID, led.ticket_no)
    if rc == 0:
        return ["HANDPAID", "ticket " + fmt(amount), "pay by hand", "(logged)"]
    return ["NOT DONE", "store code %d" % rc, "", ""]


def settle_bill(store, now, stacked):
    """The attendant's word on a note in doubt, from the cash box count:
    in the box (credited now) or not (never credited). Once settled, the
    validator's own later report credits nothing more."""
    cents = store.ledger.escrow
    rc = store.commit(T.pack(T.ESCROW, now, T.ES_STACKED if stacked else T.ES_RETURNED, cents))
    if rc == 0:
        return ["CREDITED" if stacked else "NOT CREDITED", "bill " + fmt(cents),
                "in cash box" if stacked else "not in box", "(logged)"]
    return ["NOT DONE", "store code %d" % rc, "", ""]


def void_round(store, now):
    """A station's open round that its dome does not know (the dome
    RAM-cleared or replaced): the bets come back, logged ("game voided",
    arg 6) and metered (`voided`)."""
    led = store.ledger
    n, bet = led.round, led.table.on_table()
    if store.seat.attendant_void(now):
        return ["ROUND %d VOID" % n, "bets back", fmt(bet), "(logged)"]
    return ["NOT VOIDED", "round %d" % n, "", ""]


def _foreign(store):
    seat = getattr(store, "seat", None)   # a player station at a table
    return seat is not None and seat.foreign()


def reset(store, now):
    led = store.ledger
    name, amount = L.LOCK_NAMES[led.lock], led.lock_arg
    rc = store.reset(now)
    if rc == 0:
        return ["RESET DONE", name, "amount " + fmt(amount), "(logged)"]
    return ["NOT RESET", "store code %d" % rc, "", ""]


class Desk:
    """The attendant's buttons: a lockup, ROLL twice resets it; a ticket in
    doubt, ROLL twice reprints it (same validation number), BET_UP twice
    pays it by hand; a note in doubt, ROLL twice credits it (found in the
    cash box), BET_UP twice settles it uncredited."""

    def __init__(self, store, board):
        self.store = store
        self.board = board
        self.confirm = -1  # the button pressed once, waiting for its second press

    def press(self, code):
        """Lines saying what was done; "" when the press was taken (armed or
        disarmed); None when it is not the desk's button."""
        led = self.store.ledger
        doubt = led.ticket or bill_in_doubt(led)
        foreign = _foreign(self.store)
        acts = (B.ROLL, B.BET_UP) if doubt else (B.ROLL,) if led.lock or foreign else ()
        if code in acts:
            if self.confirm != code:
                self.confirm = code
                return ""
            self.confirm = -1
            now = self.board.clock.now()
            if led.ticket:
                if code == B.ROLL:
                    return reprint(self.store, self.board.printer, now)
                return handpay(self.store, now)
            if doubt:
                return settle_bill(self.store, now, code == B.ROLL)
            if led.lock:
                return reset(self.store, now)
            return void_round(self.store, now)
        if code == B.CLEAR and self.confirm >= 0:
            self.confirm = -1
            return ""
        return None

    def lines(self):
        """6 lines: the state, then what the buttons do."""
        led = self.store.ledger
        out = state(led)
        if led.ticket:
            out += ["ROLL x2=reprint", "UP x2=handpay"]
        elif bill_in_doubt(led):
            out += ["ROLL x2=credit", "UP x2=not in box"]
        elif led.lock:
            out += ["ROLL again=RESET", "CLEAR=cancel"] if self.confirm >= 0 else ["ROLL=reset", ""]
        elif _foreign(self.store):
            out = ["Round %d open" % led.round, "dome has no", "record of it", "bets " +
                   fmt(led.table.on_table())]
            out += ["ROLL again=VOID", "CLEAR=cancel"] if self.confirm >= 0 else ["ROLL=void round", ""]
        else:
            out += ["", ""]
        return out


def clear_step(store):
    """Before the RAM clear of a critical store: erases one more journal
    sector (both copies). True while there was one to erase; the menus call
    it once a loop pass until False, then store.ram_clear() (which only
    writes by then: 64 erases, 25.6 s at the datasheet maximum, are not one
    loop pass). A store that is not critical has nothing to erase."""
    if store.journal is None or not store.critical:
        return False
    try:
        return store.journal.erase_for_format()
    except Exception:  # noqa: BLE001 - ram_clear() meets it again and locks
        return False


class Arming:
    """The RAM clear's arming: CHIP, ODDS, REBET in order within 10 s, then
    ROLL. Any other button, or the 10 s passing, disarms."""

    def __init__(self):
        self.step = 0
        self.t0 = 0

    def armed(self):
        return self.step == len(SEQUENCE)

    def press(self, code, now_ms):
        """True when ROLL confirms an armed sequence."""
        if self.armed():
            self.step = 0
            return code == B.ROLL
        if code == SEQUENCE[self.step]:
            if self.step == 0:
                self.t0 = now_ms
            self.step += 1
        else:
            self.step = 0
        return False

    def tick(self, now_ms):
        """True when the time ran out (the screen changes)."""
        if self.step and ticks_diff(now_ms, self.t0) > SEQUENCE_MS:
            self.step = 0
            return True
        return False
