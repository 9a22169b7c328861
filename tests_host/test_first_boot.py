"""The first boot of a new cabinet is itself power-cut safe (issue 25,
finding 3): its first erases, its first snapshot, the power-up and
validation-ID records and the provisioned mark, cut at every flash
operation (torn programs and erases read unstably: the hostile NOR model),
boot as a new cabinet again, never CRITICAL; one cut point in two is cut a
second time at an operation of the boot that follows. Before, a cut in the
first erases or the first snapshot chunk made the next boot CRITICAL
"region not blank, no entry" (70 of 344 cut points): a RAM clear at
installation for a cabinet that never held a cent.

The boot after the cuts and a later one give the same new cabinet, which
takes money and keeps it across a power cycle. Plain asserts: pytest and
the MicroPython unix port.
"""
from hal.marker import Marker
from hal.mock.hostile import HostileNor
from hal.mock.norflash import PowerCut
from firmware.store.store import Store, CRITICAL
from firmware.store import records as T

SIZE = 256 * 1024


def first_boot_ops():
    f = HostileNor(SIZE, seed=3)
    Store(f, provision=Marker()).boot(1)
    return f.ops


def cut_boot(f, mark, k, now):
    """Boots with a cut at operation k (0: none); True if the cut came."""
    f.power_on()
    if k:
        f.cut_after(k)
    try:
        Store(f, provision=mark).boot(now)
    except PowerCut:
        return True
    f.power_on()    # disarms a cut that did not come
    return False


def check_new(f, mark, where):
    f.power_on()
    s = Store(f, provision=mark)
    assert s.boot(20) != CRITICAL, (where, s.reason)
    led = s.ledger
    assert led.table.credits == 0 and led.meters.get("total_in") == 0, where
    assert led.balance_check() == 0 and mark.get(), where
    assert s.credit(21, T.SRC_BILL, 500) == 0, where
    f.power_on()
    s = Store(f, provision=mark)
    assert s.boot(22) != CRITICAL, (where, s.reason)
    assert s.ledger.table.credits == 500, where


def recovery_ops(k):
    """Flash operations of the boot after a cut at operation k (the same
    seed gives the same torn flash)."""
    f = HostileNor(SIZE, seed=100 + k)
    mark = Marker()
    cut_boot(f, mark, k, 1)
    f.power_on()
    before = f.ops
    Store(f, provision=mark).boot(2)
    return f.ops - before


def test_a_cut_at_every_operation_of_the_first_boot_boots_new_again():
    n = first_boot_ops()
    assert n >= 10
    for k in range(1, n + 1):
        for second in (False, True):
            f = HostileNor(SIZE, seed=100 + k)
            mark = Marker()
            assert cut_boot(f, mark, k, 1), "no cut at op %d" % k
            where = "op %d/%d" % (k, n)
            if second and k % 2:
                ops = recovery_ops(k)
                assert ops, where + ": the next boot wrote nothing"
                j = 1 + (k * 7) % ops   # an operation the recovery boot really does
                assert cut_boot(f, mark, j, 2), where + ": no cut at op %d of the next boot" % j
                where += " then op %d/%d of the next boot" % (j, ops)
            check_new(f, mark, where)


def test_a_wrecked_region_is_not_a_new_cabinet():
    """Only what a cut first boot leaves (the sectors it writes) counts as
    new; flash programmed beyond them with no valid entry stays CRITICAL,
    with or without the mark."""
    f = HostileNor(SIZE, seed=4)
    mark = Marker()
    s = Store(f, provision=mark)
    s.boot(1)
    assert s.credit(2, T.SRC_BILL, 500) == 0
    for sec in f.secs:
        sec[:] = bytes(4096)
    for mk in (mark, Marker()):
        f.power_on()
        s = Store(f, provision=mk)
        assert s.boot(3) == CRITICAL and s.ledger.table.credits == 0
