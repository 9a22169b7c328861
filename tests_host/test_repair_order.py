"""Issue 9, FULL write sweep casino step 5111 op 2 + a second cut: the order
in which a repair rewrites the two copies of a sector.

A torn commit program leaves copy A's commit byte marginal. The recovery
boot reads it one way and starts writing (a repair of B when it read
"committed", a neutralize when it read "not committed"); a second cut tears
that; the next boot reads the byte the other way. It must recover, to the
state with or without the entry in flight, never CRITICAL. Before the fix
the repair rewrote B first and a cut there left A's marginal byte beside a
torn B: "newest entry damaged in both copies", CRITICAL.

Journal level, with the marginal bits read as the test says (not at random)
so every case is reached whatever the model's rng draws. With B's older
entry damaged too (B's repair needs an erase), only "0 then 1": read 1 first,
the boot neutralizes the torn entry in both copies and then erases B; a cut
in that erase is CRITICAL by the "newest entry damaged in both copies" rule
(three faults: the damage, the torn commit, the cut; JOURNAL.md).
"""
import copy

from hal.mock.norflash import NorFlash, PowerCut, SECTOR
from hal.mock.hostile import HostileNor
from firmware.store import journal as J

# 1,000-byte records: four fill sector 0, the torn one is the third of
# sector 1 (a journal of one sector has a documented CRITICAL of its own)
BASE = [b"%d" % i * 1000 for i in range(6)]
N = 16  # blocks: 8 logical sectors, copy B at +8


class Forced(HostileNor):
    """Marginal bits read as `reads` (0x00: all 0, 0xFF: all 1)."""

    reads = 0x00

    def read(self, addr, buf):
        NorFlash.read(self, addr, buf)
        for a, m in self._in(addr, len(buf)):
            i = a - addr
            buf[i] = (buf[i] & ~m | self.reads & m) & 0xFF


def torn_commit(seed, damage_b):
    """Six records, then one whose commit program is torn: its commit byte
    stored as 0 with one marginal bit. damage_b: an old entry of copy B of
    that sector has a bit at 0 that should be 1 (B's repair needs an
    erase)."""
    f = Forced(N * SECTOR, seed=seed)
    j = J.Journal(f, max_snapshot=1024)
    j.mount()
    for r in BASE:
        j.append(r)
    off = j.head * SECTOR + j.off
    assert j.head == 1
    f.cut_after(2)  # data program of A done, the commit program torn
    try:
        j.append(b"torn")
    except PowerCut:
        pass
    f.weak.clear()
    f.secs[off // SECTOR][off % SECTOR] = 0x00
    f.set_weak(off, 0x10)
    if damage_b:
        sec = f.secs[N // 2 + 1]  # copy B of sector 1
        v = sec[20]  # inside its first record
        assert v
        sec[20] = v & (v - 1)
    return f


def boot(f, reads, cut=0):
    """Mounts with marginal bits reading `reads`; cut: tear op `cut` of it.
    Returns (status, records) or None if the cut came."""
    f.power_on()
    f.reads = reads
    if cut:
        f.cut_after(cut)
    j = J.Journal(f, max_snapshot=1024)
    try:
        st = j.mount()
        recs = []
        if st != J.CRITICAL:
            j.replay(recs.append)
    except PowerCut:
        return None
    f.power_on()
    return st, recs, j


def test_cut_in_the_recovery_of_a_marginal_commit_then_read_the_other_way():
    """Every operation of the recovery boot cut, for both readings of the
    marginal commit byte (and with B needing an erase), over six rng seeds
    of the torn writes. Failed on main (0 then 1: cut in B's repair ->
    CRITICAL) and on the first candidate fix (A first only when A read
    differently from the merged image)."""
    cases = 0
    for damage_b, first, second in ((False, 0x00, 0xFF), (False, 0xFF, 0x00),
                                    (True, 0x00, 0xFF)):
        for seed in range(1, 7):
            f0 = torn_commit(seed, damage_b)
            secs, weak = copy.deepcopy(f0.secs), copy.deepcopy(f0.weak)
            ops = f0.ops
            assert boot(f0, first)[0] != J.CRITICAL
            n = f0.ops - ops
            assert n >= 1  # a repair or a neutralize
            for k in range(1, n + 1):
                f = torn_commit(seed, damage_b)
                f.secs, f.weak = copy.deepcopy(secs), copy.deepcopy(weak)
                assert boot(f, first, cut=k) is None
                where = "damage_b=%s reads %02x then %02x seed %d op %d/%d" % (
                    damage_b, first, second, seed, k, n)
                st, recs, j = boot(f, second)
                assert st != J.CRITICAL, where
                assert recs in (BASE, BASE + [b"torn"]), where
                # what this boot presented stays, whatever the byte reads later
                j.append(b"next")
                for reads in (first, second):
                    st2, recs2, _ = boot(f, reads)
                    assert st2 != J.CRITICAL, where
                    assert recs2 == recs + [b"next"], where
                cases += 1
    assert cases >= 3 * 6 * 2
