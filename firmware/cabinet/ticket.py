"""The cashout ticket: its text, its validation number, printing it.

A ticket is two records: TK_PENDING (credits out) is committed before the
printer is told anything, TK_PRINTED only when the printer confirms. The
validation number is fixed in the pending record, so a reprint after a
printer fault or a power cut carries the same number and the ticket system
can pay it only once, whichever paper the player holds.
"""
from firmware import timefmt
from firmware.store import records as T
from firmware.store.config import NEVER_EXPIRES, TICKET_LINES


def civil(t):
    """Clock seconds -> 'YYYY-MM-DD HH:MM': the time as the clock was set
    (by the SAS host, 7F, its local time; or by the technician), with no
    zone, which the cabinet cannot know."""
    return "%04d-%02d-%02d %02d:%02d" % timefmt.civil(t)[:5]


def number(led):
    """Validation number for a new ticket: the 18-digit SAS secure-enhanced
    number of the next sequence (firmware/sas/validation.py); the pending
    record carries it and advances the sequence, so a power cut can never
    issue the same number twice."""
    from firmware.sas import validation as V
    return int(V.number(led.val_id, (led.val_seq + 1) & 0xFFFFFF))


def expiry(cfg):
    """The ticket's expiration line (SAS 4D reports the same days)."""
    days = cfg["ticket_expiry"]
    return "NO EXPIRATION" if days == NEVER_EXPIRES else "VOID AFTER %d DAYS" % days


def lines(cfg, amount, number, now, reprint=False, clock_ok=True):
    from firmware import version
    from firmware import fmt
    # the location and address lines the host set (SAS 7C/7D), when set
    out = [cfg[k] for k in TICKET_LINES if cfg[k].strip()]
    # the voucher is for the cents themselves (credits are cents)
    out += ["%s CASHOUT VOUCHER" % version.NAME,
            "STATION %s" % cfg["station"],
            civil(now) if clock_ok else "TIME NOT SET",
            "AMOUNT $" + fmt(amount),
            "VALIDATION %018d" % number,
            expiry(cfg)]
    if reprint:
        out.append("REPRINT")
    return out


def print_pending(store, printer, now, reprint, clock_ok, serve):
    """Prints the pending ticket; True once the printer confirmed it and
    TK_PRINTED is committed. False: not printed, or nobody knows. serve():
    the SAS polls answered while it prints."""
    led = store.ledger
    if not led.ticket:
        return False
    try:
        ok = printer.print_ticket(lines(led.config, led.ticket, led.ticket_no, now, reprint,
                                        clock_ok),
                                  "%018d" % led.ticket_no, serve)
    except Exception:  # a printer driver error is "not confirmed", never a crash
        ok = False
    return bool(ok) and store.ticket(now, T.TK_PRINTED, led.ticket_no) == 0
