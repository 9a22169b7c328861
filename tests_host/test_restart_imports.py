"""No memory at each import the main loop makes on use never locks CRITICAL
nor asks for a RAM clear: the cabinet restarts with what it had committed,
or the audit side falls back to the basic audit (tests_host/restart_imports.py
does one point in a fresh process, so a module loaded on first use runs its
own imports as on a cabinet). CI: on the MicroPython port, the one that
ships, the points whose outcome is asserted plus a seeded sample of the
rest (seed printed; replay with SEED=N); FULL=1 runs every point on both
ports. CPython only (it starts the ports).
"""
import os
import random
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKER = os.path.join("tests_host", "restart_imports.py")
PORTS = {"micropython": [os.path.join(ROOT, ".venv", "bin", "micropython"), "-X", "heapsize=2M"],
         "cpython": [sys.executable]}
FULL = os.getenv("FULL") == "1"
TIMEOUT_S = 600
SEED = int(os.getenv("SEED") or random.SystemRandom().randrange(1 << 30))
SEED_NOTE = "restart imports: seed %d (replay: SEED=%d)" % (SEED, SEED)
# each point is a fresh cabinet playing a session (a few CPU-seconds): the
# sample keeps the CI run short, FULL=1 covers them all
SAMPLE = 8
ASSERTED = ("firmware.cabinet import pages", "firmware.audit.menu import _")


def worker(port, *args):
    r = subprocess.run(PORTS[port] + [WORKER] + list(args), cwd=ROOT, capture_output=True,
                       text=True, timeout=TIMEOUT_S)
    return r.returncode, r.stdout, r.stderr


_POINTS = {}


def points(port):
    if port not in _POINTS:
        rc, out, err = worker(port)
        assert rc == 0, out + err
        _POINTS[port] = [l[6:] for l in out.split("\n") if l.startswith("POINT ")]
    return _POINTS[port]


def test_both_ports_find_the_same_import_points():
    mp = points("micropython")
    # the help, MY BETS, the ticket, the audit side and the lock screens at least
    for want in ("firmware.cabinet import helptext", "firmware.cabinet import pages",
                 "firmware.sas import validation", "firmware.audit.menu import _",
                 "firmware.cabinet.stopped import _"):
        assert want in mp, mp
    assert points("cpython") == mp


@pytest.mark.parametrize("port", ["micropython"] + (["cpython"] if FULL else []))
def test_no_memory_at_each_import_point_restarts_or_falls_back(port):
    outcomes = {}
    chosen = points(port)
    if not FULL:
        rest = [p for p in chosen if p not in ASSERTED]
        chosen = list(ASSERTED) + random.Random(SEED).sample(rest, min(SAMPLE, len(rest)))
        print(SEED_NOTE)
    for point in chosen:
        rc, out, err = worker(port, point)
        last = (out.strip().split("\n") or [""])[-1]
        assert rc == 0 and last.startswith("OK "), "%s: %s\n%s\n%s" % (port, point, out[-3000:],
                                                                       err[-2000:])
        outcomes[point] = last[3:]
    # both outcomes occur: play restarts; the audit side falls back and plays on
    assert outcomes["firmware.cabinet import pages"] == "restarted", outcomes
    assert outcomes["firmware.audit.menu import _"] == "played on", outcomes
    assert set(outcomes.values()) == {"restarted", "played on"}, outcomes
