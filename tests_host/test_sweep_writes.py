"""Power cuts at every kind of write (issue 9): full-layout sessions in all
four profiles (state at its designed maximum, so every periodic snapshot is a
full one), the ring going round several times, configuration changes, cashout
by ticket and handpay, AFT transfers in and out, a RAM clear, each cut at every flash operation on the
hostile NOR model with every torn cell marginal (unstable reads), and in a
seeded sample a second fault: a cut during the recovery boot (which may be
the first snapshot after recovery, or the RAM clear's), then a third boot.

Every cut must recover to the state just before or just after the step in
flight, with the provisioned mark and anchor in place; never CRITICAL (a
plain cut always leaves a copy), never a crash, never an older state; a
later boot gives the same state and the cabinet keeps working.

The session runs 130 rolls (RAM clear at 122, then a new PIN) and goes on
until the journal's head has crossed the ring's end (last logical sector to
the first) three times, about 230-270 rolls; the count is printed.

Each cut point runs in a fork of the reference run (copy-on-write: no
replay from the start per point). CI runs a seeded sample (the first step of
each kind, every step holding a periodic snapshot, crossing the ring's end
or the RAM clear at three of their operations, every operation of the first
plain step crossing the ring's end, a few others) in two of the four
profiles, chosen by a seed that varies and is printed (SEED=N replays);
FULL=1 runs all four profiles and cuts at every
operation of every step of the first 130 rolls but two bets in three
(BET_STRIDE), and after them at every operation of the steps holding a
snapshot or crossing the ring's end (the others sampled as in CI), and
prints the count:
  FULL=1 .venv/bin/pytest -s tests_host/test_sweep_writes.py
"""
import os
import pickle
import random

import session
from hal.marker import Marker
from hal.mock.hostile import HostileNor
from hal.mock.norflash import PowerCut
from hal.mock.xorshift import Rng
from firmware.store.store import Store, CRITICAL
from firmware.store import records as T

FULL = os.getenv("FULL") == "1"
SIZE = 256 * 1024
PROFILES = ("table", "etg", "casino", "house")
SEED = int(os.getenv("SEED") or random.SystemRandom().randrange(1 << 30))
SEED_NOTE = "write sweep: seed %d (replay: SEED=%d)" % (SEED, SEED)
CI_PROFILES = 2  # each profile's session is ~40 CPU-seconds of forks
ROLLS = 130  # rolls whose steps are cut as described above
RAM_CLEAR_AT = 122  # roll after which the attendant RAM-clears (recall full)
# After ROLLS the session goes on (the same generator) until the journal's
# head has gone from its last logical sector to the first WRAPS times: the
# "extra laps". Their steps that cross the ring's end (every op) and hold a
# snapshot are cut like the first part's; the others by the CI sample rule.
WRAPS = 3
MAX_ROLLS = 400  # the generator's length: WRAPS must be reached before it
DOUBLE = 8  # one cut point in DOUBLE also gets a cut in its recovery boot
# Full mode cuts every op of every step but the bets (thousands of one-record
# steps like the credits and rolls it does cut): one bet in BET_STRIDE, and
# every bet that carries a periodic snapshot.
BET_STRIDE = 3
AFT_EVERY = 10  # rolls between two AFT transfers (in, then out)


def steps(profile, seed=3):
    """session.full_steps with a RAM clear (then a new PIN, without which
    play stays locked, and the profile set again), and every AFT_EVERY
    rolls an AFT transfer to the credit meter and one back to the host."""
    from firmware.audit import pin as PIN
    n = 0
    for name, args in session.full_steps(MAX_ROLLS, seed, profile):
        yield name, args
        if name == "roll":
            n += 1
            if n % AFT_EVERY == 3:
                now = args[0]
                yield "commit", (T.pack(T.AFT, now, T.AFT_IN, T.AFT_FULL, 2500) + b"IN%d" % n,)
                yield "commit", (T.pack(T.AFT, now, T.AFT_OUT, T.AFT_FULL, 1500) + b"OUT%d" % n,)
            if n == RAM_CLEAR_AT:
                now = args[0]
                yield "ram_clear", (now,)
                yield "set_config", (now, "pin", PIN.make_record("24681357", "a1b2c3d4e5f60718"))
                if profile != "table":
                    yield "set_config", (now, "profile", profile)


class Hostile(HostileNor):
    """Every cell a torn program or erase was changing reads unstably."""

    def _mark(self, addr, before, want):
        for i in range(len(want)):
            todo = before[i] & ~want[i] & 0xFF
            if todo:
                self._set(addr + i, todo)

    def erase(self, sector):
        try:
            HostileNor.erase(self, sector)
        except PowerCut:
            d = self.secs[sector]
            base = sector * 4096
            for i in range(4096):
                if d[i] != 0xFF:
                    self._set(base + i, ~d[i] & 0xFF)
            raise


def _boot(f, mark, now):
    f.power_on()
    s = Store(f, provision=mark)
    return s, s.boot(now)


def _check(f, mark, before, after, now):
    """Boots and checks the state: 'before' or 'after' (raises otherwise)."""
    s, st = _boot(f, mark, now)
    if st == CRITICAL:
        raise AssertionError("CRITICAL after a power cut: %s" % s.reason)
    v = session.view(s.ledger)
    if v not in (before, after):
        raise AssertionError("recovered to another (older?) state")
    if s.ledger.balance_check():
        raise AssertionError("meters do not balance")
    return s, v


def _boot_ops(f, mark):
    ops = f.ops
    f.power_on()
    Store(f, provision=mark).boot(3)
    return f.ops - ops


def _child(f, mark, s, step, k, before, after, double, seed):
    """In the fork: cut at op k of `step`, recover, check; returns what it saw.
    double: 0 none, else a second cut in the recovery boot, at a random
    operation of it (or at operation `double` if it is a (double,) tuple)."""
    name, args = step
    f.rng = Rng(seed, 0x9E3779B9)
    f.cut_after(k)
    try:
        getattr(s, name)(*args)
    except PowerCut:
        pass
    else:
        raise AssertionError("no cut at op %d" % k)
    out = "after"
    if double:
        # a second cut inside the recovery boot (power-up record, repair,
        # neutralising a torn tail, the first snapshot after recovery, or
        # the snapshot that ends a RAM clear)
        bad, n = _fork(_boot_ops, f, mark)
        if bad:
            raise AssertionError("recovery boot: %s" % n)
        f.power_on()
        # the op is drawn apart from f.rng: the boot must read the marginal
        # cells as the measured one did, or it may do fewer ops (a repair
        # the other reading did not need) and the cut never comes
        f.cut_after(double[0] if isinstance(double, tuple)
                    else 1 + Rng(seed << 8 ^ double).below(n))
        try:
            Store(f, provision=mark).boot(3)
            raise AssertionError("no second cut")
        except PowerCut:
            out = "double"
    s2, v = _check(f, mark, before, after, 4)
    if out == "after" and v == before:
        out = "before"
    if double:
        # a third boot gives the same state
        s2, v3 = _check(f, mark, v, v, 5)
    # and the cabinet keeps working
    s2.credit(6, 0, 500)
    if s2.critical:
        raise AssertionError("locked after recovery: %s" % s2.reason)
    return out


def _fork(fn, *a):
    """fn(*a) in a fork of this process; returns its result (pickled back)
    or raises with the child's error."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            msg = pickle.dumps((0, fn(*a)))
            code = 0
        except BaseException as e:  # report, never let the fork run on
            msg = pickle.dumps((1, "%s: %s" % (type(e).__name__, e)))
            code = 1
        os.write(w, msg)
        os._exit(code)
    os.close(w)
    data = b""
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        data += b
    os.close(r)
    os.waitpid(pid, 0)
    if not data:
        return 1, "the fork died"
    return pickle.loads(data)


def _measure(f, s, step):
    ops = f.ops
    h0, live = s.journal.head, s.journal.nlive
    getattr(s, step[0])(*step[1])
    return f.ops - ops, session.view(s.ledger), _wrapped(s.journal, h0, live)


def _wrapped(j, h0, live):
    """True if the step took the head from the ring's last logical sector
    to its first (a step advances less than a lap, so the head ends below
    where it was). The first sector of a blank journal is no wrap."""
    return bool(live) and j.head < h0


def _near_end(j, most):
    """The next step may cross the ring's end: the head is in the last
    logical sector with less than `most` bytes left, or a snapshot it may
    write reaches the end. Over-wide on purpose: a wrap it misses fails
    the sweep (facts["missed"])."""
    if not j.nlive:
        return False
    if j.head == j.m - 1 and j.off + most > 4096:
        return True
    return j.should_snapshot() and j.head + j._hard + 2 >= j.m


def sweep(profile, full=FULL, seed=2024, only=None):
    """Runs the profile's session; at each step forks a child per chosen cut
    point (full: every op; `only`: a range of step indices, the others are
    run but not cut). Returns (counts, facts about the run)."""
    rng = Rng(seed + len(profile), 12345)
    # the wrap boundaries' and extra laps' own draws: the first part's cut
    # points (and their double cuts) stay those of a run without them
    xrng = Rng(seed + len(profile), 54321)
    f = Hostile(SIZE, seed=7)
    mark = Marker()
    s = Store(f, provision=mark)
    s.boot(1)
    j = s.journal
    counts = {}
    facts = {"ops": 0, "cuts": 0, "snapshots": 0, "max_snapshot": 0, "ram_clears": 0,
             "wraps": 0, "wrap_cuts": 0, "missed": 0, "rolls": 0, "aft_cuts": 0}
    seen = set()
    fails = []
    bets = 0
    most = 0  # most bytes a step without a new sector has written so far
    for i, step in enumerate(steps(profile)):
        kind = step[0]
        before = session.view(s.ledger)
        base0 = j.base_seq
        h0, live0, off0 = j.head, j.nlive, j.off
        pts = ()
        snap = should_snap(s)
        bets += kind == "bet"
        extra = facts["rolls"] >= ROLLS
        edge = _near_end(j, most + 64)
        picked = xpick = False
        if only is not None and i not in only:
            pass
        elif not extra:
            picked = full and (kind != "bet" or snap or bets % BET_STRIDE == 0) \
                or not full and (kind not in seen or snap
                                 or rng.below(1000) < _RATES.get(kind, 2))
        else:
            xpick = snap or xrng.below(1000) < _RATES.get(kind, 2)
        if picked or xpick or edge and (only is None or i in only):
            bad, got = _fork(_measure, f, s, step)
            assert not bad, got
            n_ops, after, wrapped = got
            if n_ops:
                seen.add(kind)
            if wrapped and (full or not facts["wrap_cuts"] and not snap):
                # every op of a step crossing the ring's end (CI: of the
                # first one without a snapshot: ~250 ops otherwise)
                pts, xpick = range(1, n_ops + 1), not picked
            elif full and (picked or snap):
                pts = range(1, n_ops + 1)
            elif n_ops and (picked or xpick or wrapped):
                # the first step of each kind, sampled ones, those holding a
                # periodic snapshot or crossing the ring's end: first, last,
                # a random op
                r = rng if picked else xrng
                xpick = not picked
                pts = sorted({1, n_ops, 1 + r.below(n_ops)})
            if wrapped:
                facts["wrap_cuts"] += len(pts)
            if kind == "commit":
                facts["aft_cuts"] += len(pts)
        for k in pts:
            r = xrng if xpick else rng
            double = 0
            if r.below(DOUBLE) == 0:
                double = 40 + r.below(200)
            bad, res = _fork(_child, f, mark, s, step, k, before, after, double,
                             (i << 12) ^ k)
            if bad:
                fails.append("%s step %d (%s) op %d/%d%s: %s"
                             % (profile, i, kind, k, n_ops, " +double" if double else "", res))
                continue
            counts[res] = counts.get(res, 0) + 1
            facts["cuts"] += 1
            if full and facts["cuts"] % 1000 == 0:
                print("%s: %d cut points so far (step %d), %d failed"
                      % (profile, facts["cuts"], i, len(fails)), flush=True)
        ops0 = f.ops
        getattr(s, kind)(*step[1])
        assert not s.critical, s.reason
        if pts:
            assert f.ops - ops0 == n_ops
            assert session.view(s.ledger) == after
        n_ops = f.ops - ops0
        if kind == "ram_clear":
            facts["ram_clears"] += 1
        elif j.base_seq != base0:
            facts["snapshots"] += 1
            facts["max_snapshot"] = max(facts["max_snapshot"], j.snap_len)
        facts["ops"] += n_ops
        if _wrapped(j, h0, live0):
            facts["wraps"] += 1
            if not edge and (only is None or i in only):
                facts["missed"] += 1  # a boundary _near_end did not see
        elif j.head == h0 and j.base_seq == base0:
            most = max(most, j.off - off0)
        if kind == "roll":
            facts["rolls"] += 1
            if facts["rolls"] >= ROLLS and facts["wraps"] >= WRAPS:
                break
    facts["erase_laps"] = sum(f.erase_counts) / len(f.erase_counts)
    facts["fails"] = fails
    return counts, facts


def should_snap(s):
    return s.journal.should_snapshot()


# per-mille of the steps sampled in CI (3 cut points each): more of the rarer
# writes, few of the thousands of bets
_RATES = {"ram_clear": 1000, "set_config": 300, "cashout": 300, "reset": 100, "commit": 300}


def _job(profile):
    return profile, sweep(profile)


def test_every_kind_of_write_cut_at_every_operation():
    if FULL:
        from multiprocessing import Pool
        results = []
        with Pool(2) as pool:
            for r in pool.imap_unordered(_job, PROFILES):
                print("done %s: %d cut points, %d failed" % (r[0], r[1][1]["cuts"],
                                                          len(r[1][1]["fails"])), flush=True)
                results.append(r)
    else:
        print(SEED_NOTE)
        results = [_job(p) for p in random.Random(SEED).sample(PROFILES, CI_PROFILES)]
    total = {}
    cuts = 0
    fails = []
    for profile, (counts, facts) in results:
        print("%s: %d rolls, %d flash ops, %d cut points %r; %d snapshots (largest %d B), "
              "ring wrapped %d times (%d cut points in the steps crossing its end; "
              "%.1f erases a sector), %d RAM clear, %d cut points in AFT transfers"
              % (profile, facts["rolls"], facts["ops"], facts["cuts"], sorted(counts.items()),
                 facts["snapshots"], facts["max_snapshot"], facts["wraps"],
                 facts["wrap_cuts"], facts["erase_laps"], facts["ram_clears"],
                 facts["aft_cuts"]))
        fails += facts["fails"]
        # what the session must reach: full snapshots, the ring round several
        # times with cuts where it crosses its end, the RAM clear
        assert facts["snapshots"] >= 2 and facts["max_snapshot"] > 30000, facts
        assert facts["wraps"] >= WRAPS and facts["ram_clears"] == 1, facts
        assert facts["wrap_cuts"] and not facts["missed"], facts
        assert facts["aft_cuts"], facts          # AFT transfers cut too
        cuts += facts["cuts"]
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    print("write sweep: %d cut points, %d recovered (%r), %d failed"
          % (cuts, cuts - len(fails), sorted(total.items()), len(fails)))
    assert not fails, "\n".join(fails[:20])
    assert total.get("double", 0) and total.get("before", 0) and total.get("after", 0)
    if FULL:
        assert cuts >= 30000


def _snapshot_ops(f, s, step):
    """In a fork: runs `step`; if it wrote a periodic snapshot, the ops that
    programmed copy B of the first sector after the head it started in (a
    sector of snapshot chunks only), else None."""
    j = s.journal
    base, first = j.base_seq, (j.head + 1) % j.m
    log = []  # per op: the sector programmed, -1 an erase
    program, erase = f.program, f.erase

    def logged(addr, buf):
        log.append(addr // 4096)
        return program(addr, buf)

    def logged_erase(sector):
        log.append(-1)
        return erase(sector)
    f.program, f.erase = logged, logged_erase
    ops = f.ops
    getattr(s, step[0])(*step[1])
    assert len(log) == f.ops - ops
    if j.base_seq == base:
        return None
    return [k + 1 for k in range(len(log)) if log[k] == j.m + first]


def test_double_fault_in_the_reclaim_of_a_torn_snapshot():
    """The table profile's FULL run locked CRITICAL "journal: no good copy"
    at step 4989 ops 65, 66, 70 and step 6442 op 66 (issue 9), its 2nd and
    3rd periodic snapshots: the first cut tears copy B of a snapshot chunk
    in a sector holding only chunks; the recovery boot erases that
    unfinished snapshot (copy A first) and the second cut, at its first
    operation, tears that erase. Both copies of that sector are then
    touched past its last entry, which mount took for the newest entry lost
    twice, though every sector the state needs was intact. Here: those two
    commits, every program of copy B of that sector cut, then the recovery
    boot at its first operation; each must come back to the state before."""
    f = Hostile(SIZE, seed=7)
    mark = Marker()
    s = Store(f, provision=mark)
    s.boot(1)
    snaps = cuts = 0
    for i, step in enumerate(steps("table")):
        if should_snap(s) and step[0] != "ram_clear":
            bad, pts = _fork(_snapshot_ops, f, s, step)
            assert not bad, pts
            if pts is not None:
                snaps += 1
            if snaps >= 2 and pts:
                before = session.view(s.ledger)
                bad, got = _fork(_measure, f, s, step)
                assert not bad, got
                for k in pts:
                    bad, res = _fork(_child, f, mark, s, step, k, before, got[1], (1,),
                                     (i << 12) ^ k)
                    assert not bad and res == "double", "step %d op %d: %s" % (i, k, res)
                    cuts += 1
                if snaps == 3:
                    break
        getattr(s, step[0])(*step[1])
    print("%d double cuts in the 2nd and 3rd periodic snapshots" % cuts)
    assert snaps == 3 and cuts >= 20, (snaps, cuts)


_J_SNAP = 12288


def _state(f):
    """Mounts f: (status, what the journal holds: snapshot then records, as
    one byte string, the journal)."""
    from firmware.store.journal import Journal
    j = Journal(f, max_snapshot=_J_SNAP)
    st = j.mount()
    out = []
    j.replay(out.append)
    return st, (j.snapshot() or b"") + b"".join(out), j


def test_every_double_cut_of_a_snapshot_commit():
    """The same at the journal alone, every pair: a commit that carries a
    snapshot of two and a half sectors (written after records of as many) cut at each of its flash operations, then the recovery mount cut
    at each of its own. The next mount gives what was committed before the
    commit or after it, never CRITICAL, and the journal goes on."""
    from firmware.store.journal import Journal, CRITICAL as JC
    f = Hostile(32 * 4096, seed=5)
    j = Journal(f, max_snapshot=_J_SNAP)
    j.mount()
    recs = [bytes([n]) * 200 for n in range(1, 49)]
    for r in recs[:-1]:
        j.append(r)
    before = b"".join(recs[:-1])
    after = before + recs[-1]
    image = pickle.dumps(f)
    ops = f.ops
    j.write_snapshot(before)
    j.append(recs[-1])
    n_ops = f.ops - ops
    assert n_ops > 40 and j.snap_len == len(before) > 2 * 4096
    cuts = 0
    for k in range(1, n_ops + 1):
        g = pickle.loads(image)
        g.rng = Rng(k, 77)
        j = Journal(g, max_snapshot=_J_SNAP)
        j.mount()
        g.cut_after(k)
        try:
            j.write_snapshot(before)
            j.append(recs[-1])
            raise AssertionError("no cut at op %d" % k)
        except PowerCut:
            pass
        torn = pickle.dumps(g)
        g.power_on()
        ops = g.ops
        assert _state(g)[1] in (before, after)
        n_boot = g.ops - ops
        for k2 in range(1, n_boot + 1):
            h = pickle.loads(torn)
            h.power_on()
            h.cut_after(k2)
            try:
                Journal(h, max_snapshot=_J_SNAP).mount()
                raise AssertionError("no second cut at op %d" % k2)
            except PowerCut:
                pass
            h.power_on()
            st, got, j = _state(h)
            assert st != JC and got in (before, after), (k, k2, st)
            j.append(b"next")  # and it goes on, the same at the next mount
            assert _state(h)[1] == got + b"next", (k, k2)
            cuts += 1
    print("%d first cuts, %d double cuts" % (n_ops, cuts))
    assert cuts > 20, cuts
