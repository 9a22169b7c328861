"""The generation log: the sequence number of the newest committed record,
advanced after every commit in a raw flash area of its own (the HAL gives
the device: outside the journal region and the filesystem). A journal
whose newest entry is older than it was written back from a dump, even one
record older (store.py; firmware/store/JOURNAL.md, "Generation log").

Pure logic over a block device (MicroPython's extended protocol, 4 KiB
sectors, whole 256-byte page programs). Layout: the sectors are a ring of
8-byte slots `seq u32 | seq ^ 0xFFFFFFFF u32` (little-endian), written in
order, one page program a commit; a full sector moves the log to the next,
erased first (one erase per 512 commits a sector: wear-levelled over the
ring). The value is the highest valid slot anywhere.

Why a slot cannot lie: a program only clears bits, so a torn or half-read
slot has every bit of the wanted seq and of its complement or more ones;
both halves agree only when both are exact. An erased slot (all ones) and
a zeroed one fail the check. A torn erase leaves random bytes: a random
slot passes with odds 2^-32. So the value read is always one that was
written after its record was committed: it may lag (a cut before the
slot, a slot read as torn), never lead, and a lag only weakens the check.
"""
from micropython import const
import struct

from firmware.store.journal import ERASED

SECTOR = const(4096)
PAGE = const(256)
SLOT = const(8)
_PER = const(512)          # slots a sector
_PAGE_SLOTS = const(32)    # slots a page
_MASK = const(0xFFFFFFFF)


def _slot(buf, i):
    """The value of slot i of a page buffer, or -1 when it is not valid."""
    seq, inv = struct.unpack_from("<II", buf, i * SLOT)
    return seq if seq ^ inv == _MASK else -1


def _last_valid(buf):
    """The index of a page buffer's last valid slot, or -1."""
    i = _PAGE_SLOTS
    while i:
        i -= 1
        if _slot(buf, i) >= 0:
            return i
    return -1


def _erased(buf, at):
    for i in range(at, at + SLOT):
        if buf[i] != 0xFF:
            return False
    return True


class Generation:
    def __init__(self, dev, pause=None):
        self.dev = dev
        self.pause = pause  # the watchdog's feed, after each erase
        self.n = dev.ioctl(4, 0)
        self.value = 0      # the newest valid seq found or written (0: none)
        self.sector = 0     # where the next slot goes
        self.slot = _PER    # (full: the next program moves to the next sector)
        self.ready = False  # the next sector is erased (this power-up)
        self._buf = bytearray(PAGE)

    def load(self):
        """Reads the ring: the value, and the slot after the newest one.
        No erase is trusted from before the boot (the next sector is erased
        again before use). Values rise in the order slots are written (a
        RAM clear numbers on), so a sector's highest valid slot is its last
        valid one: each is read from its end, an erased page skipped whole
        (a slot-by-slot scan of the 8 sectors took ~0.5 s of the boot on
        an RP2040)."""
        buf = self._buf
        best = 0
        self.sector, self.slot, self.ready = 0, _PER, False
        for s in range(self.n):
            first = _PER    # the first slot of the page read
            while first:
                first -= _PAGE_SLOTS
                self.dev.readblocks(s, buf, first * SLOT)
                i = -1 if buf == ERASED else _last_valid(buf)
                if i >= 0:
                    v = _slot(buf, i)
                    if v > best:
                        best, self.sector, self.slot = v, s, first + i + 1
                    break
        self.value = best
        return best

    def erase_pending(self):
        """True while the next sector should be erased ahead (the current
        one is half used): the owner does it when idle (erase_step)."""
        return not self.ready and self.slot >= _PER // 2

    def erase_step(self):
        self.dev.ioctl(6, (self.sector + 1) % self.n)
        self.ready = True
        if self.pause is not None:
            self.pause()

    def advance(self, seq):
        """Records `seq` (the record just committed). A slot that does not
        read erased (a torn earlier program) is stepped over."""
        buf = self._buf
        while True:
            if self.slot >= _PER:
                if not self.ready:
                    self.erase_step()
                self.sector = (self.sector + 1) % self.n
                self.slot = 0
                self.ready = False
            page = self.slot // _PAGE_SLOTS * PAGE
            at = self.slot % _PAGE_SLOTS * SLOT
            self.dev.readblocks(self.sector, buf, page)
            self.slot += 1
            if not _erased(buf, at):
                continue
            buf[:] = ERASED
            struct.pack_into("<II", buf, at, seq & _MASK, (seq ^ _MASK) & _MASK)
            self.dev.writeblocks(self.sector, buf, page)
            self.value = seq
            return
