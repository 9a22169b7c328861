"""Power-loss-safe, mirrored, log-structured journal over a raw NOR block device.

Pure logic: the block device (extended protocol, 4096-byte blocks) is passed in.
See firmware/store/JOURNAL.md for the on-flash format and the reasoning.

Usage after any exception from the device (power cut, OSError): call mount() again.
"""
from micropython import const
import struct
from binascii import crc32
from array import array

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
# replay pauses (the watchdog feed) every 32 entries as well as every sector:
# a sector of small records takes about a second to apply on the chip
_PAUSE_EVERY_MASK = const(31)
# an empty sector whose cells keep flipping under an entry after this many
# erases is worn (retired)
_ERASE_TRIES = const(3)

T_REC = const(1)  # record
T_SNAPC = const(2)  # snapshot chunk
T_SNAPE = const(3)  # snapshot end (commit): start_seq u32, total u32, crc u32
T_FMT = const(4)  # format / RAM clear: empty base state

# What marks a retired sector at offset 0: zeros no entry header starts
# with, and a text an all-zero (wrecked) sector does not have.
_MARK = b"\x00" * 16 + b"retired sector\x00\x00"
_WORN = const(1)  # Journal.wear: found worn, retired once nothing in it is live
_RETIRED = const(2)  # Journal.wear: marked, skipped by the ring


# summary slots (one small list per logical sector, mount only)
_S_FIRST = const(0)
_S_LAST = const(1)
_S_END = const(2)
_S_CLEAN = const(3)
_S_BADA = const(4)
_S_BADB = const(5)
_S_CONFLICT = const(6)
_S_BSEQ = const(7)  # seq of newest base entry (SNAPE/FMT) in sector, 0 none
_S_BSTART = const(8)  # seq where that base's data starts
_S_BLEN = const(9)
_S_BTYPE = const(10)
_S_LASTNC = const(11)  # seq of newest entry that is not a snapshot chunk, 0 none
_S_WIPED = const(12)  # entries in one copy, the other copy blank: 1 A, 2 B
_S_RET = const(13)  # retired: a worn sector, marked (see _retire)


class JournalFull(Exception):
    pass


class JournalCorrupt(Exception):
    pass


def refused(e):
    """The journal itself refused (its checks, no room): CRITICAL. Any other
    exception (no memory, a flash device error) is a passing fault."""
    return isinstance(e, (JournalCorrupt, JournalFull))


def _put(page, p, start, src):
    """Copies the part of src (which starts at sector offset start) that falls in
    the page starting at offset p."""
    lo = start if start > p else p
    hi = start + len(src)
    if hi > p + _PAGE:
        hi = p + _PAGE
    if lo < hi:
        page[lo - p:hi - p] = src[lo - start:hi - start]


def _parse(buf, off, prev_seq, committed=True):
    """Entry at offset off of a sector image: (type, len, seq, crc) or None;
    prev_seq: the seq it must follow (0: any). committed=False ignores the commit
    byte (repair: see Journal._repair)."""
    if off + _OVH > _SEC or (committed and buf[off] != 0):
        return None
    t = buf[off + 1]
    if t < T_REC or t > T_FMT:
        return None
    ln = buf[off + 2] | (buf[off + 3] << 8)
    if ln > _MAXP or off + _OVH + ln > _SEC:
        return None
    seq = struct.unpack_from("<I", buf, off + 4)[0]
    if prev_seq and seq != prev_seq + 1:
        return None
    c = struct.unpack_from("<I", buf, off + _HDR + ln)[0]
    if crc32(buf[off + 1:off + _HDR + ln]) != c:
        return None
    return (t, ln, seq, c)


def _later(buf, off, last):
    """True if a valid entry newer than `last` starts anywhere after offset off."""
    for p in range(off + 1, _SEC - _OVH + 1):
        if buf[p] == 0 and T_REC <= buf[p + 1] <= T_FMT:
            e = _parse(buf, p, 0)
            if e is not None and e[2] > last:
                return True
    return False


# an erased page; a page buffer is set to it by one copy (with a loop over
# its bytes, five a commit, a SAS poll waited ~21 ms for a commit on the chip)
ERASED = b"\xff" * _PAGE
_ERASED_MV = memoryview(ERASED)


def _blank(buf, off, page):
    """True if buf[off:] is all 0xFF. Compares a page at a time through the
    256-byte scratch buffer `page`: mount checks every sector twice and must not
    churn the heap with sector-sized copies."""
    while off < _SEC and off & (_PAGE - 1):
        if buf[off] != 0xFF:
            return False
        off += 1
    while off < _SEC:
        page[:] = buf[off:off + _PAGE]
        if page != ERASED:
            return False
        off += _PAGE
    return True


def _marked(buf):
    """True if the sector starts with the retire mark. No entry starts so:
    its seq (>= 1) keeps a 1 bit that no torn program can clear."""
    for i in range(len(_MARK)):
        if buf[i] != _MARK[i]:
            return False
    return True


def _lost(buf, off, last):
    """True if the entry at off was committed and does not read: its commit
    byte programmed whole (in A only after its data program returned; B's
    copy is written committed, after A's commit), its type not
    neutralized, its data or CRC wrong. Stray flips never clear a whole
    byte; a torn entry in A left its commit byte erased; a torn commit
    program left the data whole (its commit byte may read 0 or not)."""
    return off + _OVH <= _SEC and buf[off] == 0 and buf[off + 1] != 0 \
        and _parse(buf, off, last, False) is None


class Journal:
    def __init__(self, dev, count=None, max_snapshot=24576, max_entries=0):
        """The region's geometry and per-sector state; mount() reads it."""
        if dev.ioctl(5, 0) != _SEC:
            raise ValueError("block size must be 4096")
        if count is None:
            count = dev.ioctl(4, 0)
        self.dev = dev
        self.m = m = count // 2  # logical sectors; copy B at +m
        if m < 2:
            raise ValueError("need at least 4 blocks")
        # sectors a snapshot of max_snapshot bytes needs (2 chunks per sector)
        self._hard = (max_snapshot + 24 + 4071) // 4072 + 1
        self._soft = self._hard + 1 + (_K_AHEAD if m > 8 else 0)
        if self._hard + 1 > m:
            raise ValueError("region too small for max_snapshot")
        self.max_entries = max_entries
        # Sector buffers for reading both copies: only mount, repair and
        # replay need them, so they exist from mount() until release().
        self._a = None
        self._b = None
        self._h = bytearray(_OVH)  # header + crc of the entry being written
        self._c = bytearray(_PAGE)
        # per logical sector: its first and last seq, erased and ready (an
        # array and a bytearray: a third of the heap of lists of ints)
        self.first = array("I", bytes(4 * m))
        self.last = array("I", bytes(4 * m))
        self.ready = bytearray(m)
        # per logical sector: 0, _WORN or _RETIRED (skipped by the ring; an
        # empty member of the live range when inside it)
        self.wear = bytearray(m)
        self.nret = 0  # retired sectors
        self.rlive = 0  # retired sectors inside the live range
        self.worn_log = []  # physical sectors found worn, for the owner's log
        self.sync_erases = 0
        self.erase_ops = 0
        self.repairs = 0
        self.status = None
        self.pause = None  # called after every erase (watchdog feed)
        self._reset_state()

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

    # ------------------------------------------------------------------ mount
    def _read_pair(self, s):
        """Both copies of logical sector s, read into the sector buffers."""
        a, b = self._pair()
        self.dev.readblocks(s, a, 0)
        self.dev.readblocks(self.m + s, b, 0)
        return a, b

    def _scan(self, s):
        """Merged scan of logical sector s (both copies)."""
        abuf, bbuf = self._read_pair(s)
        a = memoryview(abuf)
        b = memoryview(bbuf)
        # a healthy sector's copies are byte for byte the same: one parse
        # tells for both (mount parses every entry: the chip's start-up time)
        same = abuf == bbuf
        sm = [0, 0, 0, True, False, False, False, 0, 0, 0, 0, 0, 0, False]
        if _marked(a) or (not same and _marked(b)):
            sm[_S_RET] = True
            return sm
        o = 0
        prev = 0
        while o + _OVH <= _SEC:
            ea = _parse(a, o, prev)
            eb = ea if same else _parse(b, o, prev)
            if ea is not None and eb is not None:
                if ea != eb:
                    sm[_S_CONFLICT] = True
                    break
                e = ea
                mv = a
            elif ea is not None:
                e = ea
                mv = a
                sm[_S_BADB] = True
            elif eb is not None:
                e = eb
                mv = b
                sm[_S_BADA] = True
            else:
                break
            t, ln, seq = e[0], e[1], e[2]
            if not sm[_S_FIRST]:
                sm[_S_FIRST] = seq
            sm[_S_LAST] = seq
            if t != T_SNAPC:
                sm[_S_LASTNC] = seq
            if t == T_SNAPE and ln == 12:
                st, tot = struct.unpack_from("<II", mv, o + _HDR)
                sm[_S_BSEQ] = seq
                sm[_S_BSTART] = st
                sm[_S_BLEN] = tot
                sm[_S_BTYPE] = T_SNAPE
            elif t == T_FMT:
                sm[_S_BSEQ] = seq
                sm[_S_BSTART] = seq
                sm[_S_BTYPE] = T_FMT
            prev = seq
            o += _OVH + ln
        sm[_S_END] = o
        if o and sm[_S_BADA] != sm[_S_BADB]:
            if _blank(b if sm[_S_BADB] else a, 0, self._c):
                sm[_S_WIPED] = 2 if sm[_S_BADB] else 1
        sm[_S_CLEAN] = _blank(a, o, self._c) and (same or _blank(b, o, self._c))
        if not sm[_S_CLEAN] and (_later(a, o, sm[_S_LAST]) or (not same and _later(b, o, sm[_S_LAST]))):
            # a bad entry with valid newer ones after it: lost data, not a
            # torn tail (after a torn write nothing more goes in that sector)
            sm[_S_CONFLICT] = True
        return sm

    def mount(self):
        self._pair()
        self._reset_state()
        m = self.m
        for i in range(m):
            self.ready[i] = 0
        sums = []
        self.nret = 0
        self.rlive = 0
        for s in range(m):
            sums.append(self._scan(s))
            self.wear[s] = _RETIRED if sums[s][_S_RET] else 0
            self.nret += sums[s][_S_RET]
            self._pause()
        h = -1
        for s in range(m):
            if sums[s][_S_LAST] and (h < 0 or sums[s][_S_LAST] > sums[h][_S_LAST]):
                h = s
        if h < 0:
            self.status = EMPTY
            return EMPTY
        n = 0
        for sm in sums:
            if sm[_S_WIPED] == 2:
                n += sm[_S_LAST] - sm[_S_FIRST] + 1
            elif sm[_S_END] or not sm[_S_CLEAN]:
                n = -1
                break
        if n > 1:
            # Copy B is blank from end to end under two or more entries: not
            # what a power cut leaves (B trails A by one entry at most), but
            # what a truncated or half-wiped image does; what is left of A
            # may be missing its newest sectors. (Cost: a cut during the
            # repair of a one-sector journal's B also lands here.)
            self.status = CRITICAL
            return CRITICAL
        # walk back along the chain of contiguous sequence numbers
        chain = [h]
        cur = h
        base = None
        while True:
            sc = sums[cur]
            if base is None and sc[_S_BSEQ]:
                base = sc
            need = base[_S_BSTART] if base is not None else 1
            if sc[_S_FIRST] <= need:
                break
            p = (cur - 1) % m
            while sums[p][_S_RET] and p != h:
                chain.append(p)  # retired: an empty member of the ring
                p = (p - 1) % m
            sp = sums[p]
            if p == h or not sp[_S_LAST] or sp[_S_LAST] + 1 != sc[_S_FIRST]:
                # chain broken before the needed start: data lost
                self.status = CRITICAL
                return CRITICAL
            chain.append(p)
            cur = p
        wiped = [0, 0, 0]
        for s in chain:
            if sums[s][_S_CONFLICT]:
                self.status = CRITICAL
                return CRITICAL
            wiped[sums[s][_S_WIPED]] += 1
        if wiped[1] > 1 or wiped[2] > 1:
            # Whole sectors of one copy blank under live data: a power cut
            # blanks at most one (a repair's erase); this is a wiped or
            # truncated image, whose other copy may have lost its newest
            # sectors too. Never present what is left as current.
            self.status = CRITICAL
            return CRITICAL
        k = self._reclaim(chain, sums)
        if not k and not sums[h][_S_CLEAN]:
            # The scan stopped in the head sector at an entry neither copy
            # reads. A committed one (its commit byte whole in either copy)
            # is data lost in both copies. Anything else is a torn
            # uncommitted entry (A torn, B not begun) or stray flipped
            # cells (program disturb, anywhere in the erased tail of both
            # copies): nothing committed is lost. Not checked in the
            # sectors of an unfinished snapshot (k > 0): they are erased
            # below whatever they hold.
            abuf, bbuf = self._read_pair(h)
            e = sums[h][_S_END]
            last = sums[h][_S_LAST]
            if _lost(abuf, e, last) or _lost(bbuf, e, last):
                self.status = CRITICAL
                return CRITICAL
        n = (h + 1) % m
        if not sums[n][_S_FIRST] and not sums[n][_S_CLEAN]:
            # A torn first entry there (or a torn erase): its seq is one the
            # log is about to reuse, and a marginal commit byte could make
            # it read as committed at a later boot. Gone before any write.
            self._prepare(n)
        for s in chain[:k]:  # newest first: what is left stays contiguous
            self._prepare(s)
        if k == len(chain):
            # nothing but a torn first snapshot: the region is new again
            self._reset_state()
            self.status = EMPTY
            return EMPTY
        chain = chain[k:]
        h = chain[0]
        hs = sums[h]
        self.seq = hs[_S_LAST] + 1
        bad = False
        for s in chain:
            sc = sums[s]
            self.first[s] = sc[_S_FIRST]
            self.last[s] = sc[_S_LAST]
        if base is not None:
            self.base_seq = base[_S_BSEQ]
            self.base_type = base[_S_BTYPE]
            self.keep = base[_S_BSTART]
            if base[_S_BTYPE] == T_SNAPE:
                self.snap_start = base[_S_BSTART]
                self.snap_len = base[_S_BLEN]
        self.head = h
        self.nlive = len(chain)
        for s in chain:
            self.rlive += self.wear[s] == _RETIRED
        self.off = hs[_S_END] if hs[_S_CLEAN] else _SEC
        if not hs[_S_CLEAN]:
            self._neutralize(h, hs[_S_END])
        # repair damaged copies in the needed range
        for s in chain:
            sc = sums[s]
            if sc[_S_BADA] or sc[_S_BADB]:
                self._repair(s, sc[_S_END])
                bad = True
        if self.wear[h]:
            self.off = _SEC  # a worn head takes nothing more
        if base is not None and base[_S_BTYPE] == T_SNAPE:
            for _ in self.chunks():  # length and CRC: snap_ok
                pass
            if not self.snap_ok:
                self.status = CRITICAL
                return CRITICAL
        if bad:
            self.repairs += 1
            self.status = REPAIRED
        elif self.snap_len == 0 and self.base_type != T_SNAPE:
            self.status = EMPTY
        else:
            self.status = OK
        return self.status

    def _reclaim(self, chain, sums):
        """chain: the live sectors, newest first; sums: each sector's summary.
        How many leading (newest) chain sectors hold nothing but an
        unfinished snapshot (chunks with no end): mount erases (reclaims)
        them, so the space a power cut left it holding is free for the next
        snapshot. Only counts: mount decides on CRITICAL before any erase."""
        k = 0
        while k < len(chain) and not sums[chain[k]][_S_LASTNC]:
            k += 1
        while k < len(chain) and self.wear[chain[k]] == _RETIRED:
            k += 1  # a retired sector is never the head
        return k

    def _repair(self, s, end):
        """Rebuild both copies of sector s from the merged valid entries."""
        abuf, bbuf = self._read_pair(s)
        a = memoryview(abuf)
        b = memoryview(bbuf)
        o = 0
        prev = 0
        # merge into copy A's buffer: take every entry from whichever copy is valid
        while o < end:
            ea = _parse(a, o, prev)
            if ea is None:
                # The scan found a committed entry here. If only its
                # commit byte reads otherwise now, that byte is marginal
                # (a torn commit): the scan's reading stands and this
                # repair makes it solid.
                eb = _parse(b, o, prev) or _parse(b, o, prev, False)
                if eb is not None:
                    n = _OVH + eb[1]
                    a[o:o + n] = b[o:o + n]
                    ea = eb
                else:
                    ea = _parse(a, o, prev, False)
                    if ea is None:
                        raise JournalCorrupt("repair lost sector %d" % s)
                a[o] = 0
            prev = ea[2]
            o += _OVH + ea[1]
        for i in range(end, _SEC):
            a[i] = 0xFF
        npg = (end + _PAGE - 1) // _PAGE * _PAGE
        mer = a[:npg]
        # Rewrite order (JOURNAL.md, "Repair order"): A in place first when
        # that needs no erase, even where it reads right: a program only
        # clears bits, so what is valid in A stays so, and it drives a
        # marginal 0 solid (a torn commit byte the scan read as committed:
        # left marginal beside a B torn by a cut in its repair, the next
        # boot reading it as 1 found the newest entry damaged in both
        # copies, CRITICAL; casino write sweep step 5111 op 2 + a cut at
        # boot). Then B; then A again, with an erase, if it still differs:
        # no copy is erased before the other holds the merged image.
        new = int.from_bytes(mer, "big")
        cur = bbuf
        bad = 0
        for phys, first in ((s, True), (self.m + s, False), (s, False)):
            self.dev.readblocks(phys, cur, 0)
            if not first and bytes(memoryview(cur)[:npg]) == bytes(mer):
                continue
            old = int.from_bytes(memoryview(cur)[:npg], "big")
            erase = old & new != new or not _blank(memoryview(cur), npg, self._c)
            if first and erase:
                continue
            while True:
                if erase:
                    self._erase(phys)
                if npg:
                    self.dev.writeblocks(phys, mer, 0)
                # read back: a marginal bit can hide a 0 where a 1 is wanted
                self.dev.readblocks(phys, cur, 0)
                if bytes(memoryview(cur)[:npg]) == bytes(mer) or first:
                    break  # A's erase, if any, waits for B
                if erase:
                    # erased and programmed, still wrong: worn. The other
                    # copy holds the entries; a worn pair is data lost.
                    bad += 1
                    if bad > 1:
                        raise JournalCorrupt("sector %d does not program" % phys)
                    self._found_worn(s, phys)
                    break
                erase = True

    def _entries(self, from_seq):
        """Yield (type, seq, payload memoryview) for live entries >= from_seq (a seq).

        The payload view is only valid until the next iteration step.
        """
        abuf, bbuf = self._pair()
        m = self.m
        s = (self.head - self.nlive + 1) % m
        for _ in range(self.nlive):
            if self.last[s] >= from_seq:
                self.dev.readblocks(s, abuf, 0)
                a = memoryview(abuf)
                loaded_b = False
                o = 0
                prev = 0
                while True:
                    e = _parse(a, o, prev)
                    mv = a
                    if e is None:
                        if prev == self.last[s]:
                            break
                        if not loaded_b:
                            self.dev.readblocks(m + s, bbuf, 0)
                            loaded_b = True
                        mv = memoryview(bbuf)
                        e = _parse(mv, o, prev)
                        if e is None:
                            raise JournalCorrupt("entry lost after mount")
                    t, ln, seq = e[0], e[1], e[2]
                    if seq >= from_seq:
                        yield t, seq, mv[o + _HDR:o + _HDR + ln]
                        if seq & _PAUSE_EVERY_MASK == 0:
                            self._pause()
                    prev = seq
                    o += _OVH + ln
                    if seq == self.last[s]:
                        break
                self._pause()
            s = (s + 1) % m

    def chunks(self):
        """The newest snapshot (base_type T_SNAPE) as its chunks' payloads,
        in order, each a memoryview valid until the next step. Once they
        are all read, snap_ok says whether their length and CRC are what its
        end entry holds. The store decodes a chunk at a time: a fragmented
        heap need not hold the snapshot in one block. The CRC is read from
        that entry here, not kept: a CRC of 2**30 or more held as an int is a
        heap object on rp2 (31-bit small ints)."""
        self.snap_ok = False
        n = 0
        c = 0
        for t, seq, p in self._entries(self.snap_start):
            if seq >= self.base_seq:
                self.snap_ok = seq == self.base_seq and t == T_SNAPE and len(p) == 12 \
                    and n == self.snap_len and c == struct.unpack_from("<I", p, 8)[0]
                break
            if t == T_SNAPC:
                n += len(p)
                c = crc32(p, c)
                yield p

    def snapshot(self):
        """Bytes of the newest valid snapshot in one block, or None (host
        tools and tests; the store reads chunks())."""
        if self.status is None or self.status == CRITICAL or self.base_type != T_SNAPE:
            return None
        out = bytearray()
        for p in self.chunks():
            out += p
        if not self.snap_ok:
            raise JournalCorrupt("snapshot changed after mount")
        return bytes(out)

    def replay(self, fn):
        """Call fn(payload) for each committed record after the snapshot."""
        if self.status is None or self.status == CRITICAL:
            return 0
        n = 0
        for t, seq, p in self._entries(self.base_seq + 1):
            if t == T_REC:
                fn(bytes(p))
                n += 1
        return n

    def erased(self, skip=0):
        """True if every block of the device reads erased (but logical
        sectors below `skip`, both copies): a blank region, not one whose
        entries were all destroyed. A page at a time, so no sector-sized
        buffer is needed."""
        buf = bytearray(_PAGE)
        for n in range(self.dev.ioctl(4, 0)):
            if n % self.m < skip:
                continue
            for off in range(0, _SEC, _PAGE):
                self.dev.readblocks(n, buf, off)
                if buf != ERASED:
                    return False
        return True

    def _pair(self):
        """The two sector buffers: made by the first read, freed by release()."""
        if self._a is None or self._b is None:
            self._a = bytearray(_SEC)
            self._b = bytearray(_SEC)
        return self._a, self._b

    def release(self):
        """Frees the 8 KB of read buffers once start-up is over (appends and
        snapshots do not use them)."""
        self._a = None
        self._b = None

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
            c[:] = ERASED
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

    def _erase(self, phys):
        """One sector erase (up to 400 ms with interrupts off), then `pause`:
        the owner feeds the watchdog there, so no run of flash work between
        two feeds is longer than one erase plus a few page programs. Mount
        and replay pause after every sector too (start-up can be long)."""
        self.dev.ioctl(6, phys)
        self.erase_ops += 1
        self._pause()

    def _prepare(self, s):
        if self.wear[s] == _RETIRED:
            return  # keeps its mark
        self._erase(s)
        self._erase(self.m + s)
        self.ready[s] = 1

    def _advance(self, reserve):
        """To the next sector, leaving `reserve` sectors free."""
        m = self.m
        while True:
            if self._free() <= reserve:
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
        c[:] = ERASED
        c[:len(_MARK)] = _MARK
        for phys in (s, self.m + s):
            self._erase(phys)
            self.dev.writeblocks(phys, c, 0)
        self.wear[s] = _RETIRED
        self.ready[s] = 0
        self.nret += 1

    def _found_worn(self, s, phys):
        """A program there returned but did not read back: the sector takes
        nothing more, is retired once nothing in it is live, and the owner
        logs it (worn_log)."""
        self.wear[s] = _WORN
        self.worn_log.append(phys)

    def _write(self, t, payload, reserve):
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
        erases = 0  # of an empty sector whose cells flipped under the entry
        while True:
            if self.off + need > _SEC:
                self._advance(reserve)
            s = self.head
            o = self.off
            p = o & ~(_PAGE - 1)
            got = None  # B's place checked first: no entry committed without it
            if self._blank_at(self.m + s, o, need):
                got = self._program(s, o, hv, payload)  # copy A, uncommitted
            if got:
                c[:] = ERASED
                c[o - p] = 0
                self.dev.writeblocks(s, c, p)  # commit marker in A: now committed
                self.dev.readblocks(s, c, p)
                if c[o - p] == 0:
                    break
                got = False
            if got is None and (self.first[s] or erases < _ERASE_TRIES):
                # Cells under the entry flipped since the erase (program
                # disturb), in either copy: a program cannot set them back,
                # and it is not wear. Nothing committed: a sector holding
                # entries takes nothing more, an empty one is erased again
                # (an empty sector in the live range would break its chain).
                if self.first[s]:
                    self._neutralize(s, o)
                    self.off = _SEC
                else:
                    erases += 1
                    self._prepare(s)
                    self.ready[s] = 0
                continue
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
            # committed in A; B's copy is bad (mount repairs or keeps A):
            # worn if a program did not land, else cells flipped under it
            if ok is not None:
                self._found_worn(s, self.m + s)
            self.off = _SEC
        return seq

    def _blank_at(self, phys, off, need):
        """True if physical sector phys is erased from off for need bytes,
        read a page at a time through the 256-byte buffer."""
        c = self._c
        cv = memoryview(c)
        end = off + need
        p = off & ~(_PAGE - 1)
        while p < end:
            self.dev.readblocks(phys, c, p)
            lo = (off if off > p else p) - p
            hi = (end if end < p + _PAGE else p + _PAGE) - p
            if crc32(cv[lo:hi]) != crc32(_ERASED_MV[lo:hi]):
                return False
            p += _PAGE
        return True

    def _program(self, phys, off, head, payload):
        """Programs the entry (header head[:8], payload, crc head[8:]) at
        offset off of physical sector phys, a page at a time through the
        256-byte buffer: no entry-sized buffer lives on the heap (the
        board's heap is tight). Reads each page back: False if the entry's
        bytes are not what was programmed (a worn
        sector returns from a program that did not land); None, before
        programming it, if the entry's part of a page is not erased (cells
        flipped by the program of an earlier page: program disturb)."""
        c = self._c
        cv = memoryview(c)
        pv = memoryview(payload)
        end = off + _OVH + len(payload)
        p = off & ~(_PAGE - 1)
        ok = True
        while p < end:
            lo = off if off > p else p
            if not self._blank_at(phys, lo, (end if end < p + _PAGE else p + _PAGE) - lo):
                return None
            c[:] = ERASED
            _put(c, p, off, head[:_HDR])
            _put(c, p, off + _HDR, pv)
            _put(c, p, end - 4, head[_HDR:])
            self.dev.writeblocks(phys, c, p)
            # read back into the same buffer: the entry's part of the page
            # must have the CRC it was programmed with
            lo = (off if off > p else p) - p
            hi = (end if end < p + _PAGE else p + _PAGE) - p
            want = crc32(cv[lo:hi])
            self.dev.readblocks(phys, c, p)
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
        is never needed in one block (after a long replay a fragmented heap
        may have no block that size)."""
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

    def make_room(self, state):
        """Before a record: when a snapshot is due, one sector pair erased
        ahead per call (800 ms at the datasheet maximum), then the snapshot
        of state() once the sectors it needs are erased: no commit does a
        snapshot's 26 erases (10 s) in one loop pass. The snapshot is taken
        from the state the journal holds, so after a power cut tore one the
        first record of the next boot finds the journal asking again."""
        if self.should_snapshot():
            if self.erase_pending() and not self.must_snapshot():
                self.erase_step()
            else:
                self.write_snapshot(state())

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
