"""Screens of a cabinet that cannot be played: a lock for the attendant, a
memory error, the audit key, an open door or a tilt. Play never shows them,
so firmware/cabinet/screens.py imports this module only when one is needed.
"""
from firmware.store import ledger as L
from firmware.cabinet.paytext import money
from firmware.cabinet.screens import W16, center, cr_bet, puck


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
