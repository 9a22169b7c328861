"""Safe boot: the board starts without the cabinet and leaves the REPL free
(for tools/deploy, or to rescue a board that resets in a loop).

Asked for by the flag file SAFE_BOOT at the filesystem root (tools/deploy
writes it over the raw REPL before the watchdog is armed, and deletes it at
the end of the deploy), or by CASHOUT + HELP held while the board powers up.
Checked in main.py after the board is built (nothing there arms the
watchdog: its first feed() does) and before the controller starts.
"""
from hal import buttons as B
from hal import faults as F

FLAG = "SAFE_BOOT"
KEYS = (1 << B.CASHOUT) | (1 << B.HELP)


def requested(board, root=""):
    """Why the cabinet must not start ('flag' / 'buttons'), or ''."""
    import os
    try:
        os.stat(root + FLAG)
        return "flag"
    except OSError:
        pass
    # a chain stuck low reads every button pressed: it is a fault, not a wish
    if F.INPUTS not in board.faults() and board.inputs.read() & KEYS == KEYS:
        return "buttons"
    return ""
