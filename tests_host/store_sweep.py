"""Power-cut and bit-flip sweeps over the whole store (ledger + journal),
driven by the scripted cabinet session. Shared by the tests (a seeded sample)
and by FULL=1 runs (every cut point)."""
import session
from hal.marker import Marker
from hal.mock.norflash import NorFlash, PowerCut
from firmware.store.store import Store, CRITICAL

SIZE = 256 * 1024


class Reference:
    """The uncut run: the state view after boot and after every step, and
    how many flash operations had happened before each step."""

    def __init__(self, rolls=100, seed=11, profile="table"):
        self.steps = session.steps(rolls, seed, profile)
        f = NorFlash(SIZE)
        s = Store(f)
        s.boot(1)
        self.views = [session.view(s.ledger)]
        self.boot_ops = f.ops
        for name, args in self.steps:
            getattr(s, name)(*args)
            assert s.ledger.balance_check() == 0
            self.views.append(session.view(s.ledger))
        self.ops = f.ops - self.boot_ops
        self.final = self.views[-1]


def cut_run(ref, k):
    """Cuts power at flash operation k of the session (1-based, counted after
    the installation boot), restarts, checks the recovered state, finishes the
    session and checks the end state."""
    f = NorFlash(SIZE, seed=k)
    mark = Marker()  # the provisioned mark and anchor, outside the region
    s = Store(f, provision=mark)
    s.boot(1)
    f.cut_after(k)
    done = 0
    try:
        for name, args in ref.steps:
            getattr(s, name)(*args)
            done += 1
    except PowerCut:
        pass
    else:
        raise AssertionError("no power cut at op %d" % k)
    f.power_on()
    s = Store(f, provision=mark)
    status = s.boot(2)
    assert status != CRITICAL, "cut %d: critical after a plain power cut: %s" % (k, s.reason)
    v = session.view(s.ledger)
    # The step in flight when power went is either fully there or not at all.
    if v == ref.views[done]:
        resume = done
    elif v == ref.views[done + 1]:
        resume = done + 1
    else:
        raise AssertionError("cut %d in step %d: recovered state matches neither side" % (k, done))
    assert s.ledger.balance_check() == 0
    session.run(s, ref.steps, resume)
    assert session.view(s.ledger) == ref.final, "cut %d: final state differs" % k
    assert s.ledger.balance_check() == 0
    return resume == done + 1


def flip_run(ref, rng):
    """Flips one random bit in the used flash of a finished session: the
    restart must give exactly the reference state or a critical error."""
    f = NorFlash(SIZE)
    s = Store(f)
    s.boot(1)
    session.run(s, ref.steps)
    used = [i for i in range(f.nsectors) if f.secs[i] != b"\xff" * 4096]
    sector = rng.choice(used)
    page = f.secs[sector]
    offsets = [i for i in range(4096) if page[i] != 0xFF]
    off = rng.choice(offsets) if offsets else rng.below(4096)
    f.flip_bit(sector * 4096 + off, rng.below(8))
    s2 = Store(f)
    status = s2.boot(2)
    if status == CRITICAL:
        return "critical"
    assert session.view(s2.ledger) == ref.final, "flip at %d:%d gave a different state" % (sector, off)
    return "ok"
