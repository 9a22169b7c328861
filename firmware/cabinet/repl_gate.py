"""The USB REPL on a board: opened only by a logged physical act.

Whoever has the REPL can read and write the whole flash (a dump written back
later rolls the journal back: docs/SECURITY.md, "The USB port"). So on a
release image main.py turns Ctrl-C off as its first statement (MicroPython's
pyexec turns it on for each file it runs) and never ends while the cabinet
runs (an error resets the board instead), and the
only way to the REPL is safe boot (hal/safeboot.py: CASHOUT + HELP held at
power-up, or the SAFE_BOOT flag a deploy in progress leaves) with the logic
area door open. The act is committed to the journal (event "safe boot",
arg = why: 1 flag, 2 buttons) before main.py returns to the REPL; a journal that cannot take the record keeps the REPL
shut (rescue then goes through the chip's ROM bootloader: BOOTSEL / esptool).
"""
from micropython import const
from firmware.store import events as E

WHY = {"flag": const(1), "buttons": const(2)}
_POLL_MS = const(20)


def _show(board, lines):
    print(" / ".join(lines))
    try:
        from firmware.cabinet import render
        render.draw(board.display, lines)
        board.display.show()
    except OSError:
        pass  # no display: the console says it


def door_open(board, sleep_ms, wait=True):
    """True once the logic door reads open (a board without that switch
    cannot be opened this way: False). `wait`: until it does."""
    door = getattr(board, "logic_door", None)
    if door is None:
        return False
    shown = False
    while True:
        if door.value():
            return True
        if not wait:
            return False
        if not shown:
            _show(board, ["SAFE BOOT", "OPEN LOGIC DOOR", "FOR THE REPL"])
            shown = True
        sleep_ms(_POLL_MS)


def log_act(board, why, store=None):
    """Commits the safe boot to the journal; True once it is there. No
    watchdog feed on the way: the first feed would arm it under the REPL."""
    from firmware.store.store import Store
    from firmware.rules import reasons as R
    if store is None:
        store = Store(board.flash, None, getattr(board, "provision", None),
                      getattr(board, "urandom", None))
    now = board.clock.now()
    store.boot(now)
    ok = store.event(now, E.SAFE_BOOT, WHY.get(why, 0)) == R.OK
    if store.journal is not None:
        store.journal.release()
    return ok


def open_repl(board, why, sleep_ms):
    """Waits for the logic door, logs the act. True: the caller returns to
    the REPL; False: it must not (nothing logged)."""
    if not door_open(board, sleep_ms):
        _show(board, ["SAFE BOOT", "NO LOGIC DOOR", "REPL REFUSED"])
        return False
    if not log_act(board, why):
        _show(board, ["SAFE BOOT", "NOT LOGGED", "REPL REFUSED"])
        return False
    _show(board, ["SAFE BOOT", "LOGGED", "REPL OPEN"])
    return True
