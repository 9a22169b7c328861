"""Shared views of the store for the audit menu, the read-out and tickets.

Read-only: nothing here changes the ledger.
"""
from firmware import fmt
from firmware.store import meters as M
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.rules import profiles as P
from firmware.rules import wagers as W
from firmware.audit import text as T
from firmware import timefmt

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


def config_value(key, value, cfg=None):
    """A setting as the technician reads it: secrets hidden, and the 0 that
    means "the profile's own" shown as `default (...)` with that value."""
    if key in SECRET:
        return "(set)"
    if value == 0 and cfg is not None and key in ("odds_mult", "min_bet", "max_bet"):
        k = (key, cfg["profile"])
        if k not in _DEFAULTS:  # the profile documents are big: read them once
            _DEFAULTS[k] = profile_default(key, cfg["profile"])
        return "default (%s)" % _DEFAULTS[k]
    return str(value)


_DEFAULTS = {}


def last_bills(led, n=10):
    """(time, amount) of the newest n bills, newest first, from the event log."""
    out = []
    ev = led.events
    for i in range(ev.count):
        number, t, code, arg = ev.get(i)
        if code == E.BILL_IN:
            out.append((t, arg))
            if len(out) == n:
                break
    return out


def profile_default(key, profile):
    """What odds_mult / min_bet / max_bet are when left at 0: the profile's
    odds multiples (3-4-5x), its lowest minimum, its highest maximum."""
    prof = P.base(profile)
    if key == "odds_mult":
        seen = []
        for n in (4, 5, 6):
            m = prof["odds_mult"][n]
            if m not in seen:
                seen.append(m)
        text = "-".join(str(m) for m in seen) + "x"
    else:
        lim = P.limits(prof["limits"])
        plain = [lim[k] for k in range(W.COUNT) if k not in W.ODDS_BASE]
        text = str(min(l[0] for l in plain) if key == "min_bet" else max(l[1] for l in plain))
    return text


def event_detail(code, arg):
    """Short text decoding an event's argument ('' if none worth showing)."""
    if code == E.CONFIG:
        return C.CONFIG[arg][0] if 0 <= arg < len(C.CONFIG) else "setting %d" % arg
    if code in (E.HANDPAY, E.JACKPOT, E.CASHOUT):
        return "amount " + fmt(arg)
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
    if code == E.CLOCK_SET:   # the event's own time is the old clock
        return "new %04d-%02d-%02d %02d:%02d:%02d" % timefmt.civil(arg)
    if code in (E.BILL_IN, E.COIN_IN):
        return "amount %d" % arg
    if code in (E.HOST_OFF, E.HOST_ON):
        return "bills" if arg == 2 else "play"
    if code == E.DEVICE_FAULT or code == E.DEVICE_OK:
        from hal import faults
        return faults.name(arg)
    if code == E.PRINTER_PAPER:
        from hal.prstatus import STATUS_NAMES
        return STATUS_NAMES[arg] if 0 <= arg < len(STATUS_NAMES) else "status %d" % arg
    if code == E.CLOCK_UNSET:
        return "oscillator stopped" if arg else ""
    if code == E.FAULT_RESTART:
        return ("error", "no memory", "device")[arg] if 0 <= arg <= 2 else "kind %d" % arg
    if code == E.BILL_DOUBT:
        return "amount %d" % arg
    if code == E.PULSES_DROPPED:
        return "%s %d" % ("coin" if arg & 1 else "bill", arg >> 1)
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
    out.append("time %s" % T.stamp(now))
    m = store.ledger.meters
    for i in range(M.COUNT):
        key, label, group = M.METERS[i]
        out.append("%-16s %10d" % (label, m.get(i)))
    out.append("credits " + fmt(store.ledger.table.credits))
    return out
