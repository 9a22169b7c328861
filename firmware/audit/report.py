"""Shared views of the store for the audit menu, the read-out and tickets.

Read-only: nothing here changes the ledger.
"""
from firmware.store import meters as M
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.audit import text as T

ID_KEYS = ("station", "name", "version", "serial", "profile")
SECRET = ("pin",)


def identity_items(store, identity):
    """[(key, value)] of the cabinet identity: name, version and serial from
    the identity dict; station and profile from the live configuration (they
    are settings), the identity dict only when the configuration has none."""
    cfg = store.ledger.config
    out = []
    for k in ID_KEYS:
        v = cfg.get(k)
        if v is None or v == "":
            v = identity.get(k, "")
        out.append((k, str(v)))
    return out


def config_value(key, value):
    return "(set)" if key in SECRET else str(value)


def event_detail(code, arg):
    """Short text decoding an event's argument ('' if none worth showing)."""
    if code == E.CONFIG:
        return C.CONFIG[arg][0] if 0 <= arg < len(C.CONFIG) else "setting %d" % arg
    if code in (E.HANDPAY, E.JACKPOT, E.CASHOUT):
        return "amount %d" % arg
    if code in (E.HANDPAY_RESET, E.FAULT_CLEAR):
        return L.LOCK_NAMES[arg] if 0 < arg < len(L.LOCK_NAMES) else "lock %d" % arg
    if code == E.PIN_FAIL:
        return "failure %d" % arg
    if code == E.PIN_LOCKOUT:
        return "%d min" % arg
    if code in (E.COCKED, E.STUCK):
        return "re-roll %d" % arg
    if code == E.RAM_CLEAR:
        return "after critical" if arg else ""
    if code == E.DEVICE_FAULT:
        from hal import faults
        return faults.name(arg)
    if arg:
        return "arg %d" % arg
    return ""


def event_count(store):
    return store.ledger.events.count


def ticket_lines(store, identity, title, now):
    """ASCII meter ticket (printed before and after a RAM clear)."""
    out = [title]
    for k, v in identity_items(store, identity):
        out.append("%s %s" % (k, v))
    out.append("time %s UTC" % T.stamp(now))
    m = store.ledger.meters
    for i in range(M.COUNT):
        key, label, group = M.METERS[i]
        out.append("%-16s %10d" % (label, m.get(i)))
    out.append("credits %d" % store.ledger.table.credits)
    return out
