"""What the attendant can do about a lockup, for the audit menu and for the
built-in fallback menu (so both do exactly the same, and the cabinet can
still do it when the audit menu cannot be loaded).

Each action commits through the store (journalled and logged) and returns
the lines that say what happened.
"""
from firmware.store import ledger as L
from firmware.store import records as T
from firmware.cabinet import ticket as TK


def state(led):
    """Up to 4 lines: the lock and, for a ticket in doubt, what it was."""
    if led.ticket:
        return ["Ticket in doubt", "amount %d" % led.ticket, "no. %d" % led.ticket_no,
                L.LOCK_NAMES[led.lock] if led.lock else "printing"]
    if led.lock:
        return ["Lock:", L.LOCK_NAMES[led.lock], "Amount", "%16d" % led.lock_arg]
    return ["No lockup", "", "", ""]


def reprint(store, printer, now):
    led = store.ledger
    amount, number = led.ticket, led.ticket_no
    if TK.print_pending(store, printer, now, True):
        return ["REPRINTED", "ticket %d" % amount, "no. %d" % number, "(logged)"]
    return ["NOT PRINTED", "printer: check", "still in doubt", ""]


def handpay(store, now):
    led = store.ledger
    amount = led.ticket
    rc = store.ticket(now, T.TK_HANDPAID, led.ticket_no)
    if rc == 0:
        return ["HANDPAID", "ticket %d" % amount, "pay by hand", "(logged)"]
    return ["NOT DONE", "store code %d" % rc, "", ""]


def reset(store, now):
    led = store.ledger
    name, amount = L.LOCK_NAMES[led.lock], led.lock_arg
    rc = store.reset(now)
    if rc == 0:
        return ["RESET DONE", name, "amount %d" % amount, "(logged)"]
    return ["NOT RESET", "store code %d" % rc, "", ""]
