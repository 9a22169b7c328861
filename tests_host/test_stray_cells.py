"""Stray flipped cells are not a torn entry (issue 25, finding 2).

One flipped erased byte in the unused tail of the head sector of each copy
(no entry damaged, both copies complete) locked CRITICAL "no good copy":
mount took any programmed byte after the scan's stop in both copies for the
newest entry damaged twice, kilobytes apart, where no torn program could
have written. Now CRITICAL only when a committed entry is unreadable in
both copies: an image with every committed entry intact in one copy boots
exactly.

Program disturb (hal/mock/hostile.py `disturb`: flips in erased cells of
the sector being programmed, both copies) through whole sessions with power
cycles: never CRITICAL, never an older state, and no sector retired for it
(the writer finds the flipped cells before it programs over them).

CI: a seeded sample (the seed is printed; SEED=N replays it); FULL=1: 200
head-tail images, 1,000 random two-flip images, four profiles of disturb:
  FULL=1 .venv/bin/pytest -s tests_host/test_stray_cells.py
"""
import os

import session
from hal.marker import Marker
from hal.mock.hostile import HostileNor
from hal.mock.norflash import SECTOR
from hal.mock.xorshift import Rng
from firmware.store.store import Store, CRITICAL
from test_flash_faults import wrapped, boot_image

FULL = os.getenv("FULL") == "1"


def _seed():
    s = os.getenv("SEED")
    if s:
        return int(s)
    import random
    return random.getrandbits(30)


def _flip(f, a, bit):
    """Clears one bit of the byte at absolute offset a."""
    f.secs[a // SECTOR][a % SECTOR] &= ~(1 << bit) & 0xFF


def _flipped_images(what, n_full, n_ci, flips_of):
    """Boots n images of the wrapped cabinet, each with the flips
    `flips_of(rng)` gives ((offset, bit), ...): every one the exact state."""
    secs, ref, anchor, _ = wrapped()
    seed = _seed()
    n = n_full if FULL else n_ci
    print("%s: %d images, SEED=%d" % (what, n, seed))
    rng = Rng(seed, 0x5DEECE66)
    for i in range(n):
        flips = flips_of(rng)

        def edit(f):
            for a, bit in flips:
                _flip(f, a, bit)
        got = boot_image(secs, anchor, edit)
        assert got == ("ok", ref), (seed, i, flips, got[1] if got[0] != "ok" else "")


def test_a_flipped_erased_byte_in_the_head_tail_of_each_copy_boots_exactly():
    """Failed on main: 200 of 200 such images CRITICAL."""
    j = wrapped()[3].journal
    h, m, off = j.head, j.m, j.off
    assert off < SECTOR - 64, "the head sector has a tail"
    _flipped_images("head tails", 200, 40, lambda rng: (
        (h * SECTOR + off + rng.below(SECTOR - off), rng.below(8)),
        ((m + h) * SECTOR + off + rng.below(SECTOR - off), rng.below(8))))


def test_two_random_flips_in_erased_cells_boot_exactly():
    """Failed on main: 98 of 1,000 such images CRITICAL."""
    secs = wrapped()[0]
    erased = [n * SECTOR + o for n in range(len(secs)) for o in range(SECTOR)
              if secs[n][o] == 0xFF]
    _flipped_images("two-flip images", 1000, 150, lambda rng: [
        (erased[rng.below(len(erased))], rng.below(8)) for _ in range(2)])


def test_a_committed_entry_unreadable_in_both_copies_stays_critical():
    """The other side of the rule: the newest committed entry damaged in
    both copies (a data bit each) is data lost, with or without stray
    flips beside it."""
    secs, ref, anchor, s = wrapped()
    j = s.journal
    h, m, o = j.head, j.m, j.off - 6

    def both(f):
        f.secs[h][o] ^= 0x04
        f.secs[m + h][o] ^= 0x20

    def both_and_stray(f):
        both(f)
        f.secs[h][SECTOR - 7] &= 0x7F
        f.secs[m + h][SECTOR - 300] &= 0xFD

    assert boot_image(secs, anchor, both)[0] == "critical"
    assert boot_image(secs, anchor, both_and_stray)[0] == "critical"


def disturbed_session(profile, seed, rate, cycle_every):
    """A full-layout session on a flash with program disturb, power-cycled
    every `cycle_every` steps: each boot must give the state before it.
    Returns (flips, power cycles, retired sectors)."""
    f = HostileNor(256 * 1024, seed=seed, disturb=rate)
    mark = Marker()
    s = Store(f, provision=mark)
    assert s.boot(1) != CRITICAL
    cycles = 0
    for i, (name, args) in enumerate(session.full_steps(60 if not FULL else 130, seed, profile)):
        getattr(s, name)(*args)
        assert not s.critical, (profile, seed, i, s.reason)
        if i % cycle_every == cycle_every - 1:
            before = session.view(s.ledger)
            f.power_on()
            s = Store(f, provision=mark)
            assert s.boot(2 + i) != CRITICAL, (profile, seed, i, s.reason)
            assert session.view(s.ledger) == before, (profile, seed, i)
            cycles += 1
    return f.disturbed, cycles, s.journal.nret


def test_program_disturb_through_sessions_with_power_cycles():
    seed = _seed()
    profiles = ("table", "etg", "casino", "house") if FULL else ("casino",)
    print("program disturb: %s, SEED=%d" % (",".join(profiles), seed))
    for p in profiles:
        flips, cycles, retired = disturbed_session(p, seed, 32, 23)
        print("  %s: %d flips, %d power cycles, %d sectors retired" % (p, flips, cycles, retired))
        assert flips >= 50 and cycles >= 10
        assert retired == 0
