"""pytest set-up: the repo root and the CPython `micropython` shim on sys.path."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "tools", "cpython_shims")):
    if path not in sys.path:
        sys.path.insert(0, path)


def pytest_terminal_summary(terminalreporter):
    """A seeded sample prints its seed (SEED_NOTE of its module): with -q
    too, and whether it passed or not, so a run can be replayed."""
    for name in sorted(sys.modules):
        note = getattr(sys.modules[name], "SEED_NOTE", None) if name.startswith("test_") else None
        if note:
            terminalreporter.write_line(note)
