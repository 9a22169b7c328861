"""The controller's rarely used side: opening the audit menu or the read-out
(or the basic audit when they cannot be loaded), the station's identity, and
CASHOUT. The controller imports this module for the moment one of these
happens and lets it go (firmware/cabinet/controller.py `_service`): play
does not carry its code, nor its names interned on the unix port.
"""
from hal import prstatus as PR
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import ledger as L
from firmware.cabinet.controller import _import, _devfault
from firmware.cabinet.player import message as reason_message
from firmware import forget
from firmware import fmt

_BASIC = "firmware.cabinet.fallback"


def basic_import(ctl):
    """The basic audit module (kept on ctl from boot where it fits, else
    loaded now), or None."""
    if ctl._basic is None:
        ctl._basic = _import(_BASIC)[0]
    return ctl._basic


def _basic_part(ctl, name):
    mod = basic_import(ctl)
    return getattr(mod, name, None) if mod is not None else None


def _audit_class(module, name):
    mod, why = _import(module)
    return (getattr(mod, name, None) if mod is not None else None), why


def open_menu(ctl, now_ms):
    """The audit menu, or the basic audit saying why the menu did not load."""
    menu, why = _audit_class(ctl.menu_module, "Menu")
    if menu is None:
        _basic_menu(ctl, why)
        return
    try:
        ctl.menu = menu(ctl.store, ctl.board, identity(ctl))
    except Exception as exc:
        menu_failed(ctl, exc, now_ms)


def _basic_menu(ctl, why):
    """The technician is never locked out: when the audit menu cannot be
    loaded (or fails), the basic audit opens instead, saying why."""
    ctl.audit_error = why
    print("AUDIT MENU NOT LOADED:", why)
    cls = _basic_part(ctl, "Fallback")
    ctl.menu = cls(ctl.store, ctl.board, why) if cls is not None else None


def menu_failed(ctl, exc, now_ms):
    try:
        import sys
        sys.print_exception(exc)
    except Exception:
        pass
    was_basic = ctl.menu is not None and type(ctl.menu).__name__ == "Fallback"
    ctl.menu = None
    forget(ctl.menu_module)
    if not was_basic:
        _basic_menu(ctl, type(exc).__name__)


def open_readout(ctl):
    """Sets ctl.readout: the read-out, else the basic one (METERS and
    STATUS); False when neither can be loaded."""
    readout, why = _audit_class(ctl.readout_module, "Readout")
    if readout is not None:
        ctl.readout = readout(ctl.store, identity(ctl))
        return True
    ctl.audit_error = why
    readout = _basic_part(ctl, "MiniReadout")
    if readout is None:
        return False
    ctl.readout = readout(ctl.store)
    return True


def identity(ctl):
    from firmware import version
    cfg = ctl.store.ledger.config
    return {"station": cfg["station"], "version": version.VERSION,
            "name": version.NAME, "serial": version.serial(ctl.board),
            "profile": cfg["profile"]}


def cashout(ctl, now_ms):
    """CASHOUT: ticket when the printer is ready and the amount is under the
    handpay limit, else a handpay (locks for the attendant). The ticket is
    committed pending before it is printed and printed only when the
    printer confirms (firmware/cabinet/ticket.py); if the print fails the
    cabinet locks PRINTER FAULT, after a power cut TICKET IN DOUBT, and the
    attendant reprints it (same validation number) or pays it by hand."""
    store = ctl.store
    led = store.ledger
    why = led.suspended()
    # a host shutdown (SAS 01) leaves cash out possible (SAS 6.02 7.4.1)
    if (why and why != L.DISABLED) or ctl.game.rolling() or led.phase != L.BETTING:
        return reason_message(R.LOCKED)
    now = ctl.now_s()
    if led.table.bets:  # README: cashout with bets in play
        from firmware.cabinet.player import pages, forget_pages
        text = pages().take_down_all(ctl, now, why == L.DISABLED)
        forget_pages()
        if text:
            return text
    amount = led.table.credits
    if amount <= 0:
        return reason_message(R.NO_CREDITS)
    pr = ctl.board.printer
    try:
        st = pr.status()
    except OSError:
        st = PR.FAULT
        _devfault().printer(ctl, now_ms)
    if (st != PR.OK and st != PR.PAPER_LOW) or amount > led.config["handpay_limit"] * 100:
        code = store.cashout(now, T.BY_HANDPAY)
        if code != R.OK:
            return reason_message(code)
        return "HANDPAY " + fmt(amount) + "\nCALL ATTENDANT"
    # the ticket code is needed only now: loaded for the cashout, then let go
    from firmware.cabinet import ticket as TK
    forget("firmware.cabinet.ticket")
    code = store.ticket(now, T.TK_PENDING, TK.number(led))
    if code != R.OK:
        return reason_message(code)
    if not TK.print_pending(store, pr, now, False, getattr(ctl.clock, "valid", True)):
        store.lock(now, L.LK_PRINTER, amount)
        return "PRINTER FAULT\nCALL ATTENDANT"
    return "TICKET PRINTED\n$" + fmt(amount)
