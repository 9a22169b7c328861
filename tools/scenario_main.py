"""Entry point of tools/scenario; runs under CPython or the MicroPython port."""
import sys

sys.path.insert(0, ".")
sys.path.insert(1, "tools/cpython_shims")
from firmware.rules import profiles  # noqa: E402
from firmware.rules.scenario import run_lines  # noqa: E402


def main(profile, path):
    if profile not in profiles.NAMES:
        print("unknown profile %s; choose one of: %s" % (profile, ", ".join(profiles.NAMES)))
        sys.exit(2)
    # bytes, not text: each line is decoded by the strict reader, the same
    # way on both ports (a text stream would decode, or fail, on its own)
    src = sys.stdin.buffer if path == "-" else open(path, "rb")
    run_lines(src, profile, print)


main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "-")
