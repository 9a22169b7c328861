"""Screens of a cabinet that cannot be played: a lock for the attendant, a
memory error, the audit key, an open door or a tilt. Play never shows them,
so firmware/cabinet/screens.py imports this module only when one is needed.
"""
from firmware.store import ledger as L
from firmware.cabinet.paytext import money
from firmware.cabinet.screens import W16, center, cr_bet, puck


def build(ctl):
    """screens.build() of a cabinet in audit mode, with a memory error, a
    lock, an open door or a tilt, in that order (one entry point: the names
    of the screens below stay out of screens.py, loaded for play)."""
    store = ctl.store
    led = store.ledger
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
    return [center("MEMORY ERROR"), center("OLD RELEASE DATA") if old_format else "",
            center("PLAY LOCKED"), "",
            center("CALL ATTENDANT"), "", center("RAM CLEAR"), center("REQUIRED")]


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
