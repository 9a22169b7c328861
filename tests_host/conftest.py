"""pytest set-up: the repo root and the CPython `micropython` shim on sys.path."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for path in (ROOT, os.path.join(ROOT, "tools", "cpython_shims")):
    if path not in sys.path:
        sys.path.insert(0, path)
