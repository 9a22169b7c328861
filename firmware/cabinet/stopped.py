"""Screens of a cabinet that cannot be played: a restart after a passing
fault, a lock for the attendant, a memory error, the audit key, an open door
or a tilt. Each says what to try first; a RAM clear, which loses the meters,
only after a power cycle did not help.
"""
from firmware.store import ledger as L
from firmware.cabinet.paytext import money
from firmware.cabinet.screens import W16, center, cr_bet, puck


def build(ctl):
    """screens.build() of a cabinet restarting, in audit mode, with a memory
    error, a lock, an open door or a tilt, in that order."""
    store = ctl.store
    led = store.ledger
    why = ctl.restarting()
    if why:
        return restart_screen(why), None, 0
    if ctl.audit_mode and ctl.menu is not None:
        # the technician needs the menu most when memory is critical (RAM clear)
        return audit_screen(ctl), None, -1
    if store.critical:
        if getattr(ctl, "no_journal", False):
            from firmware.cabinet import devfault
            return devfault.no_journal_screen(), None, 0
        return critical_screen(store.old_format), None, 0
    if ctl.audit_mode:
        return audit_screen(ctl), None, -1
    if led.lock:
        return lock_screen(led), None, 0
    return suspended_screen(led), None, 0


def critical_screen(old_format=False):
    """The journal failed its checks. A power cycle reads it again (a fault
    on the way may have been passing); a RAM clear starts over and loses the
    meters. A previous release's data: read its meters with that release."""
    if old_format:
        todo = ["READ METERS WITH", "OLD RELEASE,", "THEN RAM CLEAR"]
    else:
        todo = ["1 POWER CYCLE", "2 STILL LOCKED:", "  RAM CLEAR"]
    return [center("MEMORY ERROR"), center("OLD RELEASE DATA") if old_format else "",
            center("PLAY LOCKED"), center("CALL ATTENDANT"), ""] + todo


def restart_screen(why):
    """A passing fault (no memory, a device): the cabinet restarts by itself;
    nothing committed is lost."""
    words = why.replace(":", " ").split()
    name = words[0] if words else ""
    for w in words:
        if w.endswith("Error"):   # "snapshot: MemoryError ...": the exception's name
            name = w
            break
    return [center("RESTARTING"), "", center(name[:W16]), "", "",
            center("IF IT REPEATS:"), center("POWER CYCLE,"), center("CALL SERVICE")]


def audit_screen(ctl):
    menu = ctl.menu
    if menu is not None and getattr(menu, "active", False):
        lines = list(menu.lines())[:8]
        while len(lines) < 8:
            lines.append("")
        return [str(x)[:W16] for x in lines]
    return [center("AUDIT MODE"), "", center("PLAY SUSPENDED"), "",
            center("TURN KEY OFF") if menu is not None else center("NO AUDIT MENU"),
            center("TO RESUME"), "", ""]


def lock_screen(led):
    name = L.LOCK_NAMES[led.lock] if 0 < led.lock < len(L.LOCK_NAMES) else "LOCKED"
    lines = [center(name), ""]
    if led.lock in (L.LK_HANDPAY, L.LK_JACKPOT):
        lines.append(center("AMOUNT " + money(led.lock_arg)))
        lines.append("")
    elif led.lock == L.LK_MALFUNCTION:
        lines.append(center("PLAYS AND PAYS"))
        lines.append(center("VOIDED"))
    elif led.lock == L.LK_SHAKER:
        lines.append(center("DICE NOT MOVING"))
        lines.append(center("PLAYS VOIDED"))
    elif led.lock == L.LK_PRINTER or led.lock == L.LK_DOUBT:
        # the ticket (if one is pending) was maybe printed, maybe not
        lines.append(center("NOT CONFIRMED" if led.ticket else "TICKET NOT"))
        lines.append(center("TICKET " + money(led.ticket) if led.ticket else "CONFIRMED"))
    elif led.lock == L.LK_DEVICE:
        from firmware.cabinet import devfault
        lines += devfault.lock_lines(led.lock_arg)
    else:
        lines += ["", ""]
    return lines + [center("CALL ATTENDANT"), ""] + cr_bet(led.table)


def suspended_screen(led):
    why = "DOOR OPEN" if led.door_open else "TILT"
    return [center(why), "", center("PLAY SUSPENDED"), ""] + cr_bet(led.table) + \
        [center(puck(led.table)), ""]
