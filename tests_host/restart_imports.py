"""No memory at an import the main loop makes on use: one cabinet, one point.

    python|micropython tests_host/restart_imports.py            POINT lines: the points
    python|micropython tests_host/restart_imports.py POINT      fail there once, check

A fresh cabinet on the mock board plays a session through the real main
loop (money, a roll, the help, MY BETS, cash out, the audit menu, a door, a
tilt) while every import of the cabinet's own modules (firmware, hal) is
watched. Without POINT it prints each import statement the session runs,
as written ("a import b" for `from a import b`): a module loaded on first
use runs its own imports then, so each process starts from a fresh boot.
With POINT that import raises MemoryError the first time it runs (no memory
for its code), and the cabinet must not lock CRITICAL nor ask for a RAM
clear: it restarts with exactly what it had committed, or (the audit side)
falls back to the basic audit and plays on. Its last line is OK and the
outcome; otherwise FAILED and the reason, exit 1. (The cabinet's console
log comes before it.) tests_host/test_restart_imports.py runs
it on both ports.
"""
import sys

_HERE = __file__.rpartition("/")[0] or "."
sys.path.insert(0, _HERE)                       # the suites beside this file
sys.path.insert(0, _HERE + "/..")               # the clone
if sys.implementation.name != "micropython":
    sys.path.insert(0, _HERE + "/../tools/cpython_shims")

import builtins  # noqa: E402
import session  # noqa: E402
from hal import buttons as B  # noqa: E402
from test_e2e_session import make, run_loop  # noqa: E402

# (second, what the board does)
SESSION = (
    (0, lambda b: b.insert_bill(20)),
    (2, lambda b: b.press(B.BET_UP)),
    (3, lambda b: b.press(B.ROLL)),
    (20, lambda b: b.press(B.HELP)), (21, lambda b: b.press(B.NEXT)),
    (22, lambda b: b.press(B.HELP)),
    (24, lambda b: b.press(B.MYBETS)), (25, lambda b: b.press(B.MYBETS)),
    (26, lambda b: b.press(B.MYBETS)),
    (28, lambda b: b.press(B.CASHOUT)),
    (32, lambda b: b.audit_key.toggle()), (34, lambda b: b.press(B.NEXT)),
    (35, lambda b: b.press(B.NEXT)), (36, lambda b: b.press(B.ROLL)),
    (38, lambda b: b.audit_key.toggle()),
    (40, lambda b: b.door.toggle()), (42, lambda b: b.door.toggle()),
    (44, lambda b: b.tilt.toggle()), (46, lambda b: b.tilt.toggle()),
)
SESSION_END_S = 48


def play(d, stop_early):
    """SESSION through the real main loop, to its end or until stop_early()."""
    b = d.board
    todo = list(SESSION)
    start = b.clock.ticks_ms()

    def stop():
        ms = b.clock.ticks_ms() - start
        while todo and todo[0][0] * 1000 <= ms:
            todo.pop(0)[1](b)
        return stop_early() or ms > SESSION_END_S * 1000
    run_loop(d, stop)


def statement(mod, args):
    """The import statement as written, or None for MicroPython's own nested
    import of the submodule of a `from a import b` (fromlist True)."""
    frm = args[2] if len(args) > 2 else None
    if frm is True:
        return None
    return "%s import %s" % (mod, frm[0]) if frm else mod


def watch(on_import):
    """on_import(statement) before each import of firmware or hal modules;
    returns the function that undoes it."""
    real = builtins.__import__

    def watched(mod, *args):
        s = statement(mod, args) if mod.startswith(("firmware", "hal")) else None
        if s is not None:
            on_import(s)
        return real(mod, *args)
    builtins.__import__ = watched

    def undo():
        builtins.__import__ = real
    return undo


def points():
    seen = []
    b, d = make(seed=5)
    undo = watch(lambda s: s in seen or seen.append(s))
    try:
        play(d, lambda: False)
    finally:
        undo()
    if b.resets or d.ctl.restarting():
        raise AssertionError("the session itself restarted: " + d.ctl.restarting())
    return seen


def fail_at(point):
    """The outcome ('restarted' or 'played on') of no memory at `point`."""
    b, d = make(seed=5)
    st = d.ctl.store
    failed = []
    committed = []

    def fail_once(s):
        if s == point and not failed:
            failed.append(s)
            raise MemoryError("memory allocation failed")

    def reset_seen():
        if b.resets and not committed:
            committed.append(session.view(st.ledger))
        return b.resets > 0
    undo = watch(fail_once)
    try:
        play(d, reset_seen)
    finally:
        undo()
    assert failed == [point], "the session never ran " + point
    assert not st.critical, "CRITICAL: " + st.reason
    assert not d.on_screen("RAM CLEAR"), d.screen_text()
    if not b.resets:
        assert not d.ctl.restarting() and st.ledger.balance_check() == 0
        return "played on"
    assert b.resets == 1 and "MemoryError" in d.ctl.restarting(), d.ctl.restarting()
    b2, d2 = make(seed=5, flash=b.flash)
    st2 = d2.ctl.store
    assert not st2.critical and not d2.ctl.restarting(), st2.reason
    assert st2.ledger.balance_check() == 0
    assert session.view(st2.ledger) == committed[0], "the clean boot lost or gained something"
    return "restarted"


def main(argv):
    if not argv:
        for s in points():
            print("POINT", s)
        return 0
    try:
        print("OK", fail_at(argv[0]))
    except AssertionError as e:
        print("FAILED at %s: %s" % (argv[0], e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
