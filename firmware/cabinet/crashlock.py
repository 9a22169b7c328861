"""Crash lock: a cabinet that keeps failing to start stops resetting.

Every start on a board is counted before the controller is made
(board.starts, hal/restarts.py: kept by a reset, cleared by a power cycle)
and the count is cleared once the controller has run HEALTHY_MS. A start
that raises (main.py's controller, at boot or in the loop), a restart the
controller asks for (a passing fault) or a hang the watchdog ends all leave
it counted. After LIMIT such starts in a row the next start does not make
the controller: it shows the lock screen, lights RED and WHITE steady,
keeps money inhibited, and answers the technician read-out (METERS, EVENTS,
STATUS, ID, DIGEST ...) from the journal read without writing a byte (no
power-up record: firmware/store/readonly.py, Store.view()). The watchdog is
fed: a lock that hangs comes back as the lock.

Out of it: a power cycle (the count starts again: LIMIT more tries), or
safe boot (CASHOUT + HELP at power-up, on a release image with the logic
door open: firmware/cabinet/repl_gate.py), which clears the count, then a
deploy.
"""
import sys
from micropython import const
from hal import lamps as LP

LIMIT = const(3)            # failed starts in a row before the lock
HEALTHY_MS = const(60_000)  # a start that ran this long is not a failed one
_PASS_MS = const(10)
LAMPS = LP.RED | LP.WHITE   # steady: the device faults blink WHITE


def run(board, make):
    """The board's start (main.py): the lock, or the controller that
    make() returns run under the count. Returns only on a host."""
    lock = lock_if_looping(board)
    if lock is not None:
        lock.run()
        return
    start(board, make)


def lock_if_looping(board):
    """A CrashLock when LIMIT starts in a row failed, else None."""
    n = board.starts.get()
    return CrashLock(board, n) if n >= LIMIT else None


def start(board, make):
    """Counts this start, runs the controller; an exception out of it is
    logged on the console, then the board resets (counted)."""
    starts = board.starts
    starts.set(starts.get() + 1)
    import asyncio
    try:
        asyncio.run(_watched(make(), starts))
    except Exception as exc:  # noqa: BLE001 - no memory at boot, a bug: the next start decides
        log = getattr(sys, "print_exception", None)  # CPython has none
        log(exc) if log else print("START FAILED", repr(exc))
        board.reset()


async def _watched(ctl, starts):
    import asyncio
    from firmware.cabinet.loop import sleep_ms

    async def healthy():
        await sleep_ms(HEALTHY_MS)
        starts.set(0)
    asyncio.create_task(healthy())
    await ctl.run()


class CrashLock:
    """The lock screen and the read-only read-out; step() is one pass."""

    def __init__(self, board, failed):
        from firmware.store.store import Store
        from firmware.store.readonly import ReadOnly
        self.board = board
        board.money.inhibit(True)
        board.lamps.set(LAMPS)
        dev = None if board.flash is None else ReadOnly(board.flash)
        self.store = store = Store(dev, board.watchdog.feed)
        self.readout = None
        if store.view():
            from firmware import version
            from firmware.audit.readout import Readout
            self.readout = Readout(store, version.identity(board, store.ledger.config))
        why = "READ-OUT: METERS" if self.readout else "JOURNAL NOT READ"
        self.lines = ["CRASH LOCK", "%d FAILED STARTS" % failed, "CALL TECHNICIAN",
                      why, "POWER OFF AND ON", "TO TRY AGAIN"]
        print("CRASH LOCK: %d failed starts; %s" % (
            failed, "read-out answers, read-only" if self.readout else store.reason))
        try:
            from firmware.cabinet import render
            render.draw(board.display, self.lines)
            board.display.show()
        except OSError:
            pass  # no display: the lamps and the read-out say it

    def step(self):
        self.board.watchdog.feed()
        if self.readout is not None:
            self.readout.service(self.board.serial)

    def run(self):
        import time
        while True:
            self.step()
            time.sleep_ms(_PASS_MS)
