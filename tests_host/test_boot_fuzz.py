"""Boot fuzz (issue 9): random, corrupt, truncated and blank flash images
fed to the real boot path (Controller on a mock board). Whatever the image,
boot never raises: it ends on the CRITICAL lock screen (reason kept) or in a
consistent state. Flips, garbage sectors, truncation and a lost copy of a
sector give exactly the state of the used cabinet or CRITICAL, never an
older one; a blank region on a cabinet that booted before is CRITICAL.

CI runs a seeded sample; FULL=1 feeds 10,000 images:
  FULL=1 .venv/bin/pytest -s tests_host/test_boot_fuzz.py
  FULL=1 .venv/bin/micropython -X heapsize=2M tests_host/mp_runner.py test_boot_fuzz
"""
import sys

import session
from hal.mock.board import Board
from hal.mock.norflash import NorFlash
from hal.mock.xorshift import Rng
from firmware.store.store import Store

MP = sys.implementation.name == "micropython"
SIZE = 256 * 1024
SEC = 4096
_FF = b"\xff" * SEC
_BASE = []


def _full():
    try:
        import os
        return os.getenv("FULL") == "1"
    except ImportError:
        return False


def base():
    """(sectors of a used cabinet's flash, its state view); _BASE[0][2] is
    the anchor its provisioned mark holds."""
    if not _BASE:
        from hal.marker import Marker
        f = NorFlash(SIZE)
        mk = Marker()
        s = Store(f, provision=mk)
        s.boot(1)
        for name, args in session.iter_steps(60, 5, "table"):
            getattr(s, name)(*args)
        _BASE.append((f.secs, session.view(s.ledger), mk.anchor()))
    return _BASE[0][0], _BASE[0][1]


def _garbage(sec, rng):
    for i in range(0, SEC, 4):
        r = rng.next()
        sec[i] = r & 0xFF
        sec[i + 1] = (r >> 8) & 0xFF
        sec[i + 2] = (r >> 16) & 0xFF
        sec[i + 3] = r >> 24


def mutate(secs, rng, kind, f):
    """Loads secs into f, damaged: kind 0 flips, 1 random sectors,
    2 truncation, 3 blank, 4 garbage everywhere, 5 one copy of a sector
    erased. A sector at a time (a 256 KB image does not fit the MicroPython
    heap twice)."""
    used = [n for n in range(len(secs)) if secs[n][:64] != _FF[:64]]
    for n in range(len(secs)):
        f.secs[n][:] = secs[n]
    if kind == 0:
        for _ in range(1 + rng.below(8)):
            f.secs[used[rng.below(len(used))]][rng.below(SEC)] ^= 1 << rng.below(8)
    elif kind == 1:
        for _ in range(1 + rng.below(3)):
            _garbage(f.secs[rng.below(len(secs))], rng)
    elif kind == 2:
        t = rng.below(SIZE)
        f.secs[t // SEC][t % SEC:] = _FF[t % SEC:]
        for n in range(t // SEC + 1, len(secs)):
            f.secs[n][:] = _FF
    elif kind == 3:
        for n in range(len(secs)):
            f.secs[n][:] = _FF
    elif kind == 4:
        for n in range(len(secs)):
            _garbage(f.secs[n], rng)
    else:
        f.secs[used[rng.below(len(used))]][:] = _FF


def boot_one(f, seed):
    """The real boot path on flash f: ('critical', None) or ('ok', state
    view); raises only if the firmware did."""
    from firmware.cabinet.controller import Controller
    b = Board(seed=seed, fake_clock=True, flash=False)
    b.flash = f
    if getattr(b, "provision", None) is not None:
        # this cabinet booted before (blank is not "new"), and its mark
        # holds the anchor the used image left: garbage over the newest
        # sector in both copies is a rollback, not the state before it
        b.provision.set(_BASE[0][2] if _BASE else 0)
    ctl = Controller(b)
    ctl.tick_display(b.clock.ticks_ms(), force=True)
    st = ctl.store
    if st.critical:
        assert st.reason, "CRITICAL without a reason"
        assert "MEMORY ERROR" in " ".join(ctl.lines), ctl.lines
        return "critical", None
    led = st.ledger
    assert led.balance_check() == 0
    return "ok", session.view(led)


def fuzz(n, seed):
    secs, ref = base()
    rng = Rng(seed)
    f = NorFlash(SIZE)
    seen = {}
    for i in range(n):
        kind = i % 6
        mutate(secs, rng, kind, f)
        f.power_on()
        try:
            got, view = boot_one(f, seed + i)
        except Exception as e:  # the point of the test: this must never happen
            raise AssertionError("image %d (kind %d) crashed boot: %r" % (i, kind, e))
        if kind in (0, 1, 2, 5) and got == "ok":
            # flips, garbage sectors, truncation, one copy of a sector gone:
            # never an older or other state: rebuilt from the other copy
            # exactly, or CRITICAL
            assert view == ref, "image %d (kind %d): another state" % (i, kind)
        if kind == 3:
            assert got == "critical", "a wiped region became a new cabinet"
        k = (kind, got)
        seen[k] = seen.get(k, 0) + 1
    return seen


def test_boot_fuzz():
    n = 10000 if _full() else (18 if MP else 120)
    seen = fuzz(n, 99 if MP else 4242)
    print("boot fuzz: %d images, 0 crashes; (kind, outcome): %r" % (n, sorted(seen.items())))
    assert sum(seen.values()) == n
    assert "critical" in [k[1] for k in seen] and "ok" in [k[1] for k in seen]
