"""The crash lock (firmware/cabinet/crashlock.py): a cabinet whose start keeps
failing stops resetting after LIMIT tries, locks with the lamp lit and money
inhibited, and its read-out answers METERS and EVENTS from the journal without
a byte written. The count lives where a reset keeps it (hal/restarts.py)."""
import asyncio
import hashlib

from firmware.cabinet import crashlock as CL
from firmware.cabinet.controller import Controller
from firmware.store.readonly import ReadOnly
from firmware.store.store import Store
from hal import lamps as LP
from hal.mock.board import Board
from hal.restarts import StartCount

MP_SKIP = ("test_a_healthy_start_clears_the_count",)  # pytest's monkeypatch


def _board(cell, flash=None, seed=5):
    b = Board(seed=seed, fake_clock=True, starts=cell)
    if flash is not None:
        b.flash = flash
    return b


def _flash_bytes(flash):
    """The journal region's SHA-256 (the whole region would not fit a 2M heap twice)."""
    h = hashlib.sha256()
    buf = bytearray(4096)
    for n in range(flash.ioctl(4, 0)):
        flash.readblocks(n, buf)
        h.update(buf)
    return h.digest()


def _replies(data):
    """Reply blocks (lists of lines), each ended by its "." line."""
    return [block.split("\n") for block in data.decode().split("\n.\n")[:-1]]


class _Raises:
    """The controller of a broken release: made (the store booted), then its
    loop raises at once."""

    def __init__(self, board):
        self.ctl = Controller(board)

    async def run(self):
        raise RuntimeError("planted: main loop raises")


def _crash_start(cell, flash, credit=0):
    b = _board(cell, flash)
    made = []

    def make():
        c = _Raises(b)
        if credit:
            c.ctl.store.credit(c.ctl.now_s(), 0, credit)
        made.append(c)
        return c
    CL.start(b, make)
    assert made and b.resets == 1, "the failed start resets the board"
    return b


def test_failed_starts_lead_to_the_lock_and_it_writes_nothing():
    cell = [0]
    first = _board(cell)
    flash = first.flash
    assert CL.lock_if_looping(first) is None
    _crash_start(cell, flash, credit=500)
    for n in range(2, CL.LIMIT + 1):
        b = _crash_start(cell, flash)
        assert b.starts.get() == n
        if n < CL.LIMIT:
            assert CL.lock_if_looping(_board(cell, flash)) is None
    before = _flash_bytes(flash)
    programs, erases = flash.programs, flash.erases

    b = _board(cell, flash)
    lock = CL.lock_if_looping(b)
    assert lock is not None, "LIMIT failed starts: the next start is the lock"
    assert b.lamps.state == LP.RED | LP.WHITE
    assert b.money.inhibited
    assert lock.lines[0] == "CRASH LOCK" and lock.lines[1] == "%d FAILED STARTS" % CL.LIMIT
    assert b.display.frames >= 1, "the lock screen is on the display"

    b.serial.host_write(b"METERS\nEVENTS 10\nSTATUS\n")
    for _ in range(20):
        lock.step()
    meters, events, status = _replies(b.serial.host_read())
    assert meters[0].startswith("OK METERS")
    assert any(line.startswith("bill_in 500 ") or line.startswith("total_in 500 ")
               for line in meters), meters
    assert events[0].startswith("OK EVENTS")
    # one power-up record for each failed start, none for the lock
    assert sum(1 for line in events[1:] if "power" in line.lower()) == CL.LIMIT, events
    assert "credits=500" in status
    assert b.starts.get() == CL.LIMIT, "the lock itself is not a counted start"
    assert _flash_bytes(flash) == before, "the lock wrote to the journal"
    assert (flash.programs, flash.erases) == (programs, erases)


def test_a_healthy_start_clears_the_count(monkeypatch):
    monkeypatch.setattr(CL, "HEALTHY_MS", 20)
    cell = [0]
    b = _board(cell)
    b.starts.set(CL.LIMIT - 1)

    class Healthy:
        async def run(self):
            await asyncio.sleep(0.1)

    CL.start(b, Healthy)
    assert b.resets == 0
    assert b.starts.get() == 0, "a start that ran HEALTHY_MS is not a failed one"

    class Short:
        async def run(self):
            await asyncio.sleep(0.001)
            raise OSError(5)

    CL.start(b, Short)
    assert b.resets == 1 and b.starts.get() == 1


def test_view_reads_without_writing_and_refuses_to_commit():
    b = _board([0])
    ctl = Controller(b)
    ctl.store.credit(ctl.now_s(), 0, 1200)
    before = _flash_bytes(b.flash)
    store = Store(ReadOnly(b.flash))
    assert store.view()
    assert store.ledger.table.credits == 1200
    assert store.credit(0, 0, 100) != 0, "a viewed store commits nothing"
    assert _flash_bytes(b.flash) == before


def test_view_does_not_read_a_journal_that_needs_a_write():
    b = _board([0])
    Controller(b).store.credit(0, 0, 100)
    # copy B of the newest sector damaged: mount would repair it (a write)
    flash = b.flash
    store = Store(flash)
    store.journal.mount()
    flash.flip_bit((store.journal.m + store.journal.head) * 4096 + 12, 0)
    before = _flash_bytes(flash)
    viewed = Store(ReadOnly(flash))
    assert not viewed.view()
    assert "OSError" in viewed.reason, viewed.reason
    assert _flash_bytes(flash) == before


def test_start_count_ignores_what_it_did_not_write():
    cell = [0x12345678]

    def save(v):
        cell[0] = v
    c = StartCount(lambda: cell[0], save)
    assert c.get() == 0, "power-on garbage (or another user's value) is no count"
    c.set(2)
    assert c.get() == 2
    c.set(1000)
    assert c.get() == 255
