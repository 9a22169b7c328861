"""The state the cabinet keeps between rolls holds no int a Pico would put on
the heap. rp2's small ints are 31-bit: an int of 2**30 or more (or below
-2**30) is a heap object there, 32 B of free heap, so a 32-bit value kept in
an attribute (a random generator's state, a CRC) took heap on the rolls its
value was high and none on the others: the FULL heap run on the emulated
Pico read 96 B less free at roll 1,000 than at roll 100 for it. Such values
live in a one-word array("I") instead. These tests walk the objects (plain
values on any port: the 64-bit unix port and CPython have no such limit).
"""
from binascii import crc32

from hal.mock.board import Board
from hal.mock.norflash import NorFlash
from firmware.cabinet.drive import Driver
from firmware.store import journal as J

SMALL = 1 << 30     # rp2: small ints are -2**30 .. 2**30 - 1


def _ours(o):
    """An instance of a class of the firmware or the HAL (module-level names
    and class attributes are constants made once, not state)."""
    m = getattr(type(o), "__module__", "") or ""
    return m.startswith("firmware") or m.startswith("hal")


def big_ints(root, skip=()):
    """(path, value) of every int outside the rp2 small-int range that root
    holds, through the attributes of firmware/HAL objects, lists, tuples and
    dicts; the objects in skip and what only they hold are not walked."""
    found = []
    seen = set(id(o) for o in skip)
    todo = [("", root)]
    while todo:
        path, o = todo.pop()
        t = type(o)
        if t is int:
            if not -SMALL <= o < SMALL:
                found.append((path, o))
            continue
        if id(o) in seen:
            continue
        if t in (list, tuple):
            seen.add(id(o))
            todo.extend(("%s[%d]" % (path, i), v) for i, v in enumerate(o))
        elif t is dict:
            seen.add(id(o))
            todo.extend(("%s{%r}" % (path, k), v) for k, v in o.items())
            todo.extend(("%s{key}" % path, k) for k in o)
        elif _ours(o) and hasattr(o, "__dict__"):
            seen.add(id(o))
            todo.extend(("%s.%s" % (path, k), v) for k, v in o.__dict__.items())
    return found


def test_walk_finds_a_big_int():
    class Held:
        __module__ = "firmware.x"

        def __init__(self):
            self.a = [1, {"k": (2, SMALL)}]
            self.b = -SMALL
            self.c = SMALL - 1
    assert big_ints(Held()) == [(".a[1]{'k'}[1]", SMALL)]


def test_controller_state_stays_small_roll_by_roll():
    """The stand-alone cabinet's controller (store, ledger, journal, game and
    SAS, polled for its meters between the rolls) after each of 30 rolls; the
    mock board and its clock are host stand-ins, not walked."""
    board = Board(seed=1234, fake_clock=True, sas="loop")
    d = Driver(board, draw=False)
    ctl = d.ctl

    def poll(frame):
        board.sas.host_read()
        board.sas.host_send(frame)
        d.run(20)
        return board.sas.host_read()

    poll(b"\x82")      # the start-up synchronisation: a poll to another address
    for roll in range(30):
        led = ctl.store.ledger
        if led.table.credits < 500:
            d.bill(20)
        if not led.table.bets:
            d.press("BET_UP")
        assert d.roll(), roll
        for frame in (b"\x81", b"\x01\x1c", b"\x01\x0f", b"\x01\x1a"):
            assert poll(frame), frame
        assert big_ints(ctl, skip=(board, board.clock)) == [], roll


def test_journal_snapshot_crc_stays_small():
    """A snapshot whose CRC-32 is 2**30 or more, written and then mounted."""
    payload = next(p for p in (b"snapshot %d" % i for i in range(100)) if crc32(p) >= SMALL)
    f = NorFlash(12 * 4096)
    j = J.Journal(f, max_snapshot=1024)
    j.mount()
    j.append(b"record")
    j.write_snapshot(payload)
    assert big_ints(j) == []
    j2 = J.Journal(f, max_snapshot=1024)
    assert j2.mount() == J.OK
    assert big_ints(j2) == []
    assert b"".join(bytes(p) for p in j2.chunks()) == payload and j2.snap_ok
