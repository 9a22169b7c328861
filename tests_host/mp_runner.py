"""Runs test modules on the MicroPython unix port (no pytest there).

Usage: micropython -X heapsize=N tests_host/mp_runner.py MODULE [MODULE ...]
Each module's plain `test_*` functions are called in file order; a module that
also wants a reduced MicroPython run can define MP_SKIP = ("test_name", ...)
for tests that need CPython-only tooling. Prints a closing
'micropython: N passed, N failed' line and exits non-zero on any failure or
when no test ran.
"""
import gc
import sys

sys.path.insert(0, __file__.rpartition("/")[0] or ".")  # the suites beside this runner
sys.path.insert(0, ".")


def _scrub(depth=60):
    """Overwrites the C stack below this frame with None. MicroPython's GC
    is conservative: a stale pointer left on the stack by one test can keep
    that test's 256 KB mock flash alive, and the next test then runs out of
    heap for reasons that are not the firmware's."""
    a = b = c = d = e = f = g = h = None
    if depth:
        _scrub(depth - 1)
    return a or b or c or d or e or f or g or h


def run_module(name):
    passed = failed = 0
    mod = __import__(name)
    skip = getattr(mod, "MP_SKIP", ())
    names = sorted(n for n in dir(mod) if n.startswith("test_") and n not in skip)
    for n in names:
        fn = getattr(mod, n)
        gc.collect()  # each test starts from a collected heap, not the last one's garbage
        try:
            fn()
            passed += 1
        except Exception as exc:  # report every failure, keep going
            failed += 1
            print("FAIL", name + "." + n, repr(exc))
            sys.print_exception(exc)
        _scrub()
    print(name, passed, "passed,", failed, "failed")
    return passed, failed


def main(argv):
    total_p = total_f = 0
    for name in argv:
        p, f = run_module(name)
        total_p += p
        total_f += f
    print("micropython: %d passed, %d failed" % (total_p, total_f))
    if total_f or not total_p:
        sys.exit(1)


main(sys.argv[1:])
