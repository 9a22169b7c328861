"""Devices that do not answer (hal.faults): what the controller does about
them.

A fault locks play as DEVICE FAULT with the device's code (lock screen, event
"device fault"); under a handpay/jackpot lock only the event is logged (the
amount stays). With no journal there is no log: it goes to the console. The
tower light keeps RED on and WHITE blinks the code of the first fault.
"""
from micropython import const

from hal import faults as F
from hal import prstatus as PR
from hal.ticks import ticks_diff
from firmware.store import events as E
from firmware.store import ledger as L

_BLINK_MS = const(400)
_LINE_QUIET_MS = const(2000)   # a stopped line is quiet this long before it counts again
# the idle watch asks the printer one step of its status every this long (a
# status every third step: ~1.5 s; a change counts when read twice)
_PRINTER_STEP_MS = const(500)


def poll(ctl, found, now_ms):
    """The board's list of dead devices; an input chain that answers again
    is read again (its lock stays for the attendant)."""
    if F.INPUTS in ctl.faults and F.INPUTS not in found:
        ctl.faults.remove(F.INPUTS)
        _flags(ctl)
    for code in found:
        note(ctl, code, now_ms)


def cleared(ctl, codes):
    """The money device answers again without a fault: its codes leave the
    list (its lock stays for the attendant) and the log says so (SAS: the
    cash box back is 1C)."""
    for code in codes:
        if code in ctl.faults:
            ctl.faults.remove(code)
            ctl.dirty = True
            if not ctl.store.critical:
                ctl.store.event(ctl.now_s(), E.DEVICE_OK, code)


def lines(ctl, money, now_ms):
    """Pulse lines (firmware/cabinet/money.py channels) that never stop: the
    burst is logged and dropped (a chattering line is not money), the line
    is locked with its name and its pulses ignored until it has been quiet
    for _LINE_QUIET_MS."""
    for ch in (0, 1):
        code = F.LINES[ch]
        if code in ctl.faults:
            money.drop(ch, now_ms)
            if ticks_diff(now_ms, money.last[ch]) >= _LINE_QUIET_MS:
                cleared(ctl, (code,))
    ch = money.endless(now_ms)
    if ch >= 0:
        store = ctl.store
        if not store.critical:
            store.event(ctl.now_s(), E.PULSES_DROPPED, money.pending[ch] << 1 | ch)
        money.drop(ch, now_ms)
        note(ctl, F.LINES[ch], now_ms)


def printer(ctl, now_ms):
    note(ctl, F.PRINTER, now_ms)


def watch_printer(ctl, now_ms):
    """The printer's status at any time, not only at a cash out: one short
    exchange a step (board.printer.poll(), never waiting), a status read
    twice in a row counts (a reply lost to a ticket's own status requests
    reads once)."""
    if ticks_diff(now_ms, ctl.printer_ms) < _PRINTER_STEP_MS:
        return
    ctl.printer_ms = now_ms
    try:
        st = ctl.board.printer.poll()
    except OSError:
        st = PR.FAULT
    if st is None:
        return
    if st != ctl.printer_read:
        ctl.printer_read = st
        return
    printer_status(ctl, st)


def printer_status(ctl, st):
    """Logs a change of the printer's status, each once: not answering (or
    an error) as a device fault (SAS 60), answering again as "device back"
    (76), the paper sensor (61 out, 74 low; back to OK has no SAS code).
    Play is not locked: a cash out without a printer is a handpay."""
    was = ctl.printer_seen
    if st == was:
        return
    ctl.printer_seen = st
    store = ctl.store
    if store.critical:
        return
    now = ctl.now_s()
    if st == PR.FAULT:
        if F.PRINTER not in ctl.faults:     # at power-up devfault.printer() logged it
            store.event(now, E.DEVICE_FAULT, F.PRINTER)
        return
    paper = was
    if was == PR.FAULT:
        if F.PRINTER in ctl.faults:         # its lock, if any, stays for the attendant
            cleared(ctl, (F.PRINTER,))
        else:
            store.event(now, E.DEVICE_OK, F.PRINTER)
        paper = PR.OK
    if st != paper:
        store.event(now, E.PRINTER_PAPER, st)


def display(ctl, now_ms):
    note(ctl, F.DISPLAY, now_ms)


def note(ctl, code, now_ms):
    if code in ctl.faults:
        return
    ctl.faults.append(code)
    _flags(ctl)
    ctl.dirty = True
    print("DEVICE FAULT", F.name(code))
    store = ctl.store
    if store.critical:
        return
    if store.ledger.lock:
        store.event(ctl.now_s(), E.DEVICE_FAULT, code)
    else:
        store.lock(ctl.now_s(), L.LK_DEVICE, code)


def _flags(ctl):
    ctl.inputs_dead = F.INPUTS in ctl.faults
    ctl.display_dead = F.DISPLAY in ctl.faults
    ctl.no_journal = F.JOURNAL in ctl.faults


def lock_lines(code):
    from firmware.cabinet.screens import center
    return [center(F.name(code)), center(F.detail(code))]


def no_journal_screen():
    """Nothing to clear: the flash layout itself is wrong."""
    from firmware.cabinet.screens import center
    return [center("NO JOURNAL"), center("PARTITION"), center("PLAY LOCKED"), "",
            center("CALL ATTENDANT"), "", center("FLASH THE"), center("RELEASE IMAGE")]


def white(ctl, now_ms):
    """WHITE lamp now: `code` flashes, then three dark slots."""
    code = ctl.faults[0]
    slot = (now_ms // _BLINK_MS) % (2 * code + 3)
    return slot < 2 * code and not slot & 1
