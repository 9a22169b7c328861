"""Power-loss-safe, mirrored, log-structured journal over a raw NOR block device.

Pure logic: the block device (extended protocol, 4096-byte blocks) is passed in.
See firmware/store/JOURNAL.md for the on-flash format and the reasoning.

Usage after any exception from the device (power cut, OSError): call mount() again.
"""
from micropython import const
import struct
from binascii import crc32

OK = const(0)
REPAIRED = const(1)
EMPTY = const(2)
CRITICAL = const(3)

_SEC = const(4096)
_PAGE = const(256)
_HDR = const(8)  # commit u8, type u8, len u16, seq u32
_OVH = const(12)  # header + crc32
_MAXP = const(2036)  # max payload: one entry <= 2048 bytes
_K_AHEAD = const(2)  # sectors kept erased ahead of the head

T_REC = const(1)  # record
T_SNAPC = const(2)  # snapshot chunk
T_SNAPE = const(3)  # snapshot end (commit): start_seq u32, total u32, crc u32
T_FMT = const(4)  # format / RAM clear: empty base state

# What marks a retired sector at offset 0: zeros no entry header starts
# with, and a text an all-zero (wrecked) sector does not have.
_MARK = b"\x00" * 16 + b"retired sector\x00\x00"
_WORN = const(1)  # Journal.wear: found worn, retired once nothing in it is live
_RETIRED = const(2)  # Journal.wear: marked, skipped by the ring


class JournalFull(Exception):
    pass


class JournalCorrupt(Exception):
    pass


def _put(page, p, start, src):
    """Copies the part of src (which starts at sector offset start) that falls in
    the page starting at offset p."""
    lo = start if start > p else p
    hi = start + len(src)
    if hi > p + _PAGE:
        hi = p + _PAGE
    if lo < hi:
        page[lo - p:hi - p] = src[lo - start:hi - start]


class Journal:
    def __init__(self, dev, count=None, max_snapshot=24576, max_entries=0):
        # construction is start-up too (firmware/store/jmount.py), held
        # from here until release()
        self._m = None
        self._boot().init(self, dev, count, max_snapshot, max_entries)

    def _reset_state(self):
        m = self.m
        for i in range(m):
            self.first[i] = 0
            self.last[i] = 0
        self.head = m - 1
        self.off = _SEC
        self.nlive = 0
        self.rlive = 0
        self.seq = 1  # next sequence number
        self.base_seq = 0  # seq of newest SNAPE/FMT, 0 = none
        self.base_type = 0
        self.keep = 1  # oldest seq still needed
        self.snap_start = 0
        self.snap_len = 0
        self.snap_crc = 0

    # ------------------------------------------------------------------ mount
    def _boot(self):
        """firmware/store/jmount.py: the code of mount() and of the boot's
        reads, held until release() (the store then lets the module go)."""
        if self._m is None:
            from firmware.store import jmount
            self._m = jmount
        return self._m

    def mount(self):
        return self._boot().mount(self)

    def chunks(self):
        """The newest snapshot (base_type T_SNAPE) as its chunks' payloads,
        in order, each a memoryview valid until the next step. Once they
        are all read, snap_ok says whether their length and CRC are what its
        end entry holds. The store decodes a chunk at a time: a fragmented
        heap need not hold the snapshot in one block."""
        return self._boot().chunks(self)

    def snapshot(self):
        """Bytes of the newest valid snapshot in one block, or None (host
        tools and tests; the store reads chunks())."""
        return self._boot().snapshot(self)

    def replay(self, f):
        """Call f(payload) for each committed record after the snapshot."""
        return self._boot().replay(self, f)

    def _pair(self):
        if self._a is None:
            self._a = bytearray(_SEC)
            self._b = bytearray(_SEC)

    def release(self):
        """Frees the 8 KB of read buffers once start-up is over (appends and
        snapshots do not use them), and the start-up's code."""
        self._a = None
        self._b = None
        self._m = None

    def _neutralize(self, s, end):
        """A torn entry at `end` (the last write before the power went)
        must never read as committed later: a marginal commit byte can do
        that from one boot to the next, and its seq is reused by the next
        entry. Type 0 is invalid whatever the other bits read."""
        if end + _OVH > _SEC:
            return
        c = self._c
        t = end + 1  # the type byte: in the next page when end ends a page
        p0 = t & ~(_PAGE - 1)
        for phys in (s, self.m + s):
            self.dev.readblocks(phys, c, p0)
            if c[t - p0] == 0:
                continue
            for i in range(_PAGE):
                c[i] = 0xFF
            c[t - p0] = 0
            self.dev.writeblocks(phys, c, p0)

    # ---------------------------------------------------------------- writing
    def _ensure(self):
        if self.status is None or self.status == CRITICAL:
            raise JournalCorrupt("journal not mounted or critical")

    def _free(self):
        """Usable sectors outside the live range."""
        return self.m - self.nlive - self.nret + self.rlive

    def _pause(self):
        if self.pause is not None:
            self.pause()

    def _erase(self, n):
        """One sector erase (up to 400 ms with interrupts off), then `pause`:
        the owner feeds the watchdog there, so no run of flash work between
        two feeds is longer than one erase plus a few page programs. Mount
        and replay pause after every sector too (start-up can be long)."""
        self.dev.ioctl(6, n)
        self.erase_ops += 1
        self._pause()

    def _prepare(self, s):
        if self.wear[s] == _RETIRED:
            return  # keeps its mark
        self._erase(s)
        self._erase(self.m + s)
        self.ready[s] = 1

    def _advance(self, count):
        """To the next sector, leaving `count` sectors free (the reserve)."""
        m = self.m
        while True:
            if self._free() <= count:
                raise JournalFull("journal full: write a snapshot")
            n = (self.head + 1) % m
            if self.wear[n] == _WORN:
                self._retire(n)  # out of the live range since: mark it now
            self.first[n] = 0
            self.last[n] = 0
            self.head = n
            self.nlive += 1
            self.off = _SEC
            if self.wear[n]:
                self.rlive += 1  # an empty member: go on to the next one
                continue
            if not self.ready[n]:
                self._prepare(n)
                self.sync_erases += 2
            self.ready[n] = 0
            self.off = 0
            return

    def _retire(self, s):
        """A worn logical sector that holds nothing live: both copies erased
        and marked (_MARK at offset 0), so this and every later
        mount skips it (the healthy copy keeps the mark whatever the worn
        one does). A cut before the mark lands leaves it to be found worn
        again."""
        c = self._c
        for i in range(_PAGE):
            c[i] = 0xFF
        c[:len(_MARK)] = _MARK
        for phys in (s, self.m + s):
            self._erase(phys)
            self.dev.writeblocks(phys, c, 0)
        self.wear[s] = _RETIRED
        self.ready[s] = 0
        self.nret += 1

    def _found_worn(self, s, n):
        """A program there returned but did not read back: the sector takes
        nothing more, is retired once nothing in it is live, and the owner
        logs it (worn_log)."""
        self.wear[s] = _WORN
        self.worn_log.append(n)

    def _write(self, t, payload, count):
        ln = len(payload)
        if ln > _MAXP:
            raise ValueError("payload too long")
        need = _OVH + ln
        seq = self.seq
        h = self._h
        hv = memoryview(h)
        struct.pack_into("<BBHI", h, 0, 0xFF, t, ln, seq)
        struct.pack_into("<I", h, _HDR, crc32(payload, crc32(hv[1:_HDR])))
        c = self._c
        while True:
            if self.off + need > _SEC:
                self._advance(count)
            s = self.head
            o = self.off
            p = o & ~(_PAGE - 1)
            if self._program(s, o, hv, payload):  # copy A, uncommitted
                for i in range(_PAGE):
                    c[i] = 0xFF
                c[o - p] = 0
                self.dev.writeblocks(s, c, p)  # commit marker in A: now committed
                self.dev.readblocks(s, c, p)
                if c[o - p] == 0:
                    break
            # Copy A is worn: the entry has no (whole) commit byte, so it is
            # not committed; it goes again, same seq, in the next sector.
            self._found_worn(s, s)
            if self.first[s]:
                self._neutralize(s, o)
            else:
                self._retire(s)  # holds nothing: retired at once
                self.rlive += 1
            self.off = _SEC
        h[0] = 0
        ok = self._program(self.m + s, o, hv, payload)  # mirror B
        self.off = o + need
        self.seq = seq + 1
        if not self.first[s]:
            self.first[s] = seq
        self.last[s] = seq
        if not ok:
            # committed in A; B's copy is bad (mount repairs or keeps A)
            self._found_worn(s, self.m + s)
            self.off = _SEC
        return seq

    def _program(self, n, off, head, payload):
        """Programs the entry (header head[:8], payload, crc head[8:]) at
        offset off of physical sector n, a page at a time through the
        256-byte buffer: no entry-sized buffer lives on the heap (the
        board's heap is tight). Reads each page back: False if the entry's
        bytes are not what was programmed (a worn
        sector returns from a program that did not land)."""
        c = self._c
        cv = memoryview(c)
        pv = memoryview(payload)
        end = off + _OVH + len(payload)
        p = off & ~(_PAGE - 1)
        ok = True
        while p < end:
            for i in range(_PAGE):
                c[i] = 0xFF
            _put(c, p, off, head[:_HDR])
            _put(c, p, off + _HDR, pv)
            _put(c, p, end - 4, head[_HDR:])
            self.dev.writeblocks(n, c, p)
            # read back into the same buffer: the entry's part of the page
            # must have the CRC it was programmed with
            lo = (off if off > p else p) - p
            hi = (end if end < p + _PAGE else p + _PAGE) - p
            want = crc32(cv[lo:hi])
            self.dev.readblocks(n, c, p)
            if crc32(cv[lo:hi]) != want:
                ok = False
            p += _PAGE
        return ok

    def append(self, payload):
        """Append one record; durable when this returns. Returns its seq."""
        self._ensure()
        return self._write(T_REC, payload, self._hard)

    def write_snapshot(self, payload):
        """Write a full-state snapshot; durable when this returns. payload:
        bytes, or a list of pieces whose concatenation is the snapshot,
        copied a chunk at a time through one chunk-sized buffer: the state
        is never needed in one block (issue 10: after the replay of a full
        journal the rp2 heap had 160 KB free but no 16 KB in one piece)."""
        self._ensure()
        parts = payload if isinstance(payload, list) else (payload,)
        total = 0
        for p in parts:
            total += len(p)
        # refuse up front if it cannot fit (keep one sector of slack)
        room = (_SEC - self.off) + (self._free() - 1) * 4072
        if total + 2 * _OVH + _OVH * (total // 2000 + 2) > room:
            raise JournalFull("no room for snapshot")
        buf = memoryview(bytearray(min(total, _MAXP)))
        start = self.seq
        c = 0
        n = 0
        i = 0  # piece being copied, and how much of it is already
        pos = 0
        while n < total:
            space = _SEC - self.off - _OVH
            if space < 64:
                self._advance(0)
                space = _SEC - _OVH
            k = min(total - n, _MAXP, space)
            f = 0
            while f < k:
                p = parts[i]
                take = min(len(p) - pos, k - f)
                buf[f:f + take] = memoryview(p)[pos:pos + take]
                f += take
                pos += take
                if pos == len(p):
                    i += 1
                    pos = 0
            self._write(T_SNAPC, buf[:k], 0)
            c = crc32(buf[:k], c)
            n += k
        end = self._write(T_SNAPE, struct.pack("<III", start, total, c), 0)
        self.base_seq = end
        self.base_type = T_SNAPE
        self.snap_start = start
        self.snap_len = total
        self.snap_crc = c
        self._set_keep(start)
        if self.status == EMPTY:
            self.status = OK
        return end

    def _set_keep(self, keep):
        self.keep = keep
        m = self.m
        while self.nlive > 1:
            t = (self.head - self.nlive + 1) % m
            if self.last[t] >= keep:
                break
            self.first[t] = 0
            self.last[t] = 0
            self.nlive -= 1
            self.rlive -= self.wear[t] == _RETIRED

    def format(self, full=False, seq=1):
        """RAM clear. Normally one committed FMT entry (power-safe); with
        full (or when the journal is unreadable) erase everything first
        and number on from `seq` (the owner's anchor: never reuse a number)."""
        if full or self.status is None or self.status == CRITICAL:
            for s in range(self.m):
                if not self.ready[s]:  # erase_for_format() may have done it
                    self._prepare(s)
            self._reset_state()
            self.seq = seq
            self.status = EMPTY
        seq = self._write(T_FMT, b"", 0)
        self.base_seq = seq
        self.base_type = T_FMT
        self.snap_len = 0
        self._set_keep(seq)
        self.status = EMPTY
        return seq

    # ------------------------------------------------------------ scheduling
    def should_snapshot(self):
        if self.status is None or self.status == CRITICAL:
            return False
        if self._free() <= self._soft:
            return True
        return bool(self.max_entries) and self.seq - 1 - self.base_seq >= self.max_entries

    def erase_for_format(self):
        """One more sector (both copies) erased for a format(full): the
        owner calls it a loop pass at a time first, so the RAM clear of a
        critical journal is not 64 erases (25.6 s at the datasheet maximum)
        in one pass. True if it erased one, False when none is left."""
        for s in range(self.m):
            if not self.ready[s] and self.wear[s] != _RETIRED:  # a mark stays
                self._prepare(s)
                return True
        return False

    def must_snapshot(self):
        """The slack between should_snapshot() and the hard reserve is used
        up: the snapshot cannot wait for the sectors ahead any longer."""
        return self._free() <= self._hard + 1

    def _next_unready(self):
        m = self.m
        # enough ahead for the next snapshot too: sized like the last one,
        # and once one is due like the reserve (the designed maximum). The
        # last one may be far smaller: the first snapshot after a blank
        # journal's (3.6 KB) was 35 KB and erased 4 pairs in one commit.
        n = self.snap_len
        if self.should_snapshot():
            n = (self._hard - 1) * 4072
        ahead = _K_AHEAD + (n + 4071) // 4072
        lim = min(ahead, self._free())
        for i in range(1, lim + 1):
            s = (self.head + i) % m
            if self.wear[s] == _WORN or not (self.ready[s] or self.wear[s]):
                return s
        return -1

    def erase_pending(self):
        if self.status is None or self.status == CRITICAL:
            return False
        return self._next_unready() >= 0

    def erase_step(self):
        """Erase (both copies of) the next sector the log will need. Returns
        True if it erased something."""
        if not self.erase_pending():
            return False
        s = self._next_unready()
        if self.wear[s] == _WORN:
            self._retire(s)
        else:
            self._prepare(s)
        return True

    # ----------------------------------------------------------------- stats
    def stats(self):
        return {
            "seq": self.seq - 1,
            "entries_since_snapshot": self.seq - 1 - self.base_seq,
            "live_sectors": self.nlive,
            "free_sectors": self._free(),
            "bytes_used": 0 if not self.nlive else (self.nlive - 1) * _SEC + min(self.off, _SEC),
            "snapshot_bytes": self.snap_len,
            "sync_erases": self.sync_erases,
            "erase_ops": self.erase_ops,
            "repairs": self.repairs,
        }
