"""The journal's start-up (firmware/store/journal.py): construction (its
geometry and per-sector state), mount (the merged scan of both copies, the
chain, the repairs) and the boot's reads (the snapshot's chunks, the records
after it). Journal holds this module from its construction until release(),
and the store lets it go after the boot: play does not carry its
code (about half of the journal's). Functions of the Journal `j`; JOURNAL.md
has the format and the reasoning.
"""
from micropython import const
import struct
from binascii import crc32
from array import array
from firmware.store.journal import (OK, REPAIRED, EMPTY, CRITICAL, T_REC, T_SNAPC, T_SNAPE,
                                    T_FMT, JournalCorrupt, _MARK)

# the journal's geometry (its own consts: a const() is no module attribute)
_SEC = const(4096)
_PAGE = const(256)
_HDR = const(8)
_OVH = const(12)
_MAXP = const(2036)
_RETIRED = const(2)
_K_AHEAD = const(2)

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
_S_BCRC = const(10)
_S_BTYPE = const(11)
_S_LASTNC = const(12)  # seq of newest entry that is not a snapshot chunk, 0 none
_S_WIPED = const(13)  # entries in one copy, the other copy blank: 1 A, 2 B
_S_RET = const(14)  # retired: a worn sector, marked (see _retire)


def init(j, dev, count, max_snapshot, max_entries):
    """Journal(dev, count, max_snapshot, max_entries): the geometry and the
    per-sector state, before mount()."""
    if dev.ioctl(5, 0) != _SEC:
        raise ValueError("block size must be 4096")
    if count is None:
        count = dev.ioctl(4, 0)
    j.dev = dev
    j.m = m = count // 2  # logical sectors; copy B at +m
    if m < 2:
        raise ValueError("need at least 4 blocks")
    # sectors a snapshot of max_snapshot bytes needs (2 chunks per sector)
    j._hard = (max_snapshot + 24 + 4071) // 4072 + 1
    j._soft = j._hard + 1 + (_K_AHEAD if m > 8 else 0)
    if j._hard + 1 > m:
        raise ValueError("region too small for max_snapshot")
    j.max_entries = max_entries
    # Sector buffers for reading both copies: only mount, repair and
    # replay need them, so they exist from mount() until release().
    j._a = None
    j._b = None
    j._h = bytearray(_OVH)  # header + crc of the entry being written
    j._c = bytearray(_PAGE)
    # per logical sector: its first and last seq, erased and ready (an
    # array and a bytearray: a third of the heap of lists of ints)
    j.first = array("I", bytes(4 * m))
    j.last = array("I", bytes(4 * m))
    j.ready = bytearray(m)
    # per logical sector: 0, _WORN or _RETIRED (skipped by the ring; an
    # empty member of the live range when inside it)
    j.wear = bytearray(m)
    j.nret = 0  # retired sectors
    j.rlive = 0  # retired sectors inside the live range
    j.worn_log = []  # physical sectors found worn, for the owner's log
    j.sync_erases = 0
    j.erase_ops = 0
    j.repairs = 0
    j.status = None
    j.pause = None  # called after every erase (watchdog feed)
    j._reset_state()


def _parse(buf, off, last, commit=True):
    """Entry at offset off of a sector image: (type, len, seq, crc) or None;
    last: the seq it must follow (0: any). commit=False ignores the commit
    byte (repair: see _repair). Parameters are named with names interned
    anyway (README *Heap budget: interned names*)."""
    if off + _OVH > _SEC or (commit and buf[off] != 0):
        return None
    t = buf[off + 1]
    if t < T_REC or t > T_FMT:
        return None
    ln = buf[off + 2] | (buf[off + 3] << 8)
    if ln > _MAXP or off + _OVH + ln > _SEC:
        return None
    seq = struct.unpack_from("<I", buf, off + 4)[0]
    if last and seq != last + 1:
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


_FF = b"\xff" * _PAGE


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
        if page != _FF:
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


def _untouched(buf, off, page):
    """True if nothing was programmed at off or after it but the type byte
    that _neutralize clears (o + 1)."""
    return buf[off] == 0xFF and (off + 2 >= _SEC or _blank(buf, off + 2, page))


def _read_pair(j, s):
    j.dev.readblocks(s, j._a, 0)
    j.dev.readblocks(j.m + s, j._b, 0)

def _scan(j, s):
    """Merged scan of logical sector s (both copies in j._a/_b)."""
    _read_pair(j, s)
    a = memoryview(j._a)
    b = memoryview(j._b)
    sm = [0, 0, 0, True, False, False, False, 0, 0, 0, 0, 0, 0, 0, False]
    if _marked(a) or _marked(b):
        sm[_S_RET] = True
        return sm
    o = 0
    prev = 0
    while o + _OVH <= _SEC:
        ea = _parse(a, o, prev)
        eb = _parse(b, o, prev)
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
            st, tot, c = struct.unpack_from("<III", mv, o + _HDR)
            sm[_S_BSEQ] = seq
            sm[_S_BSTART] = st
            sm[_S_BLEN] = tot
            sm[_S_BCRC] = c
            sm[_S_BTYPE] = T_SNAPE
        elif t == T_FMT:
            sm[_S_BSEQ] = seq
            sm[_S_BSTART] = seq
            sm[_S_BTYPE] = T_FMT
        prev = seq
        o += _OVH + ln
    sm[_S_END] = o
    if o and sm[_S_BADA] != sm[_S_BADB]:
        if _blank(b if sm[_S_BADB] else a, 0, j._c):
            sm[_S_WIPED] = 2 if sm[_S_BADB] else 1
    sm[_S_CLEAN] = _blank(a, o, j._c) and _blank(b, o, j._c)
    if not sm[_S_CLEAN] and (_later(a, o, sm[_S_LAST]) or _later(b, o, sm[_S_LAST])):
        # a bad entry with valid newer ones after it: lost data, not a
        # torn tail (after a torn write nothing more goes in that sector)
        sm[_S_CONFLICT] = True
    return sm

def mount(j):
    j._pair()
    j._reset_state()
    m = j.m
    for i in range(m):
        j.ready[i] = 0
    sums = []
    j.nret = 0
    j.rlive = 0
    for s in range(m):
        sums.append(_scan(j, s))
        j.wear[s] = _RETIRED if sums[s][_S_RET] else 0
        j.nret += sums[s][_S_RET]
        j._pause()
    h = -1
    for s in range(m):
        if sums[s][_S_LAST] and (h < 0 or sums[s][_S_LAST] > sums[h][_S_LAST]):
            h = s
    if h < 0:
        j.status = EMPTY
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
        j.status = CRITICAL
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
            j.status = CRITICAL
            return CRITICAL
        chain.append(p)
        cur = p
    wiped = [0, 0, 0]
    for s in chain:
        if sums[s][_S_CONFLICT]:
            j.status = CRITICAL
            return CRITICAL
        wiped[sums[s][_S_WIPED]] += 1
    if wiped[1] > 1 or wiped[2] > 1:
        # Whole sectors of one copy blank under live data: a power cut
        # blanks at most one (a repair's erase); this is a wiped or
        # truncated image, whose other copy may have lost its newest
        # sectors too. Never present what is left as current.
        j.status = CRITICAL
        return CRITICAL
    k = _reclaim(j, chain, sums)
    if not k and not sums[h][_S_CLEAN]:
        # The scan stopped at a bad entry in the head sector. A power
        # cut leaves one copy untouched there (a torn entry in A: B was
        # not begun; a torn repair erase of B: A ends there). Something
        # in both copies is the newest entry damaged twice: data lost.
        # Not so in the sectors of an unfinished snapshot (k > 0): they
        # are erased below whatever they hold, and a cut in that erase
        # (A first) leaves A torn and B with the mirror write the first
        # cut tore, both touched while every needed sector is intact.
        _read_pair(j, h)
        e = sums[h][_S_END]
        if not _untouched(j._a, e, j._c) and not _untouched(j._b, e, j._c):
            j.status = CRITICAL
            return CRITICAL
    n = (h + 1) % m
    if not sums[n][_S_FIRST] and not sums[n][_S_CLEAN]:
        # A torn first entry there (or a torn erase): its seq is one the
        # log is about to reuse, and a marginal commit byte could make
        # it read as committed at a later boot. Gone before any write.
        j._prepare(n)
    for s in chain[:k]:  # newest first: what is left stays contiguous
        j._prepare(s)
    if k == len(chain):
        # nothing but a torn first snapshot: the region is new again
        j._reset_state()
        j.status = EMPTY
        return EMPTY
    chain = chain[k:]
    h = chain[0]
    hs = sums[h]
    j.seq = hs[_S_LAST] + 1
    bad = False
    for s in chain:
        sc = sums[s]
        j.first[s] = sc[_S_FIRST]
        j.last[s] = sc[_S_LAST]
    if base is not None:
        j.base_seq = base[_S_BSEQ]
        j.base_type = base[_S_BTYPE]
        j.keep = base[_S_BSTART]
        if base[_S_BTYPE] == T_SNAPE:
            j.snap_start = base[_S_BSTART]
            j.snap_len = base[_S_BLEN]
            j.snap_crc = base[_S_BCRC]
    j.head = h
    j.nlive = len(chain)
    for s in chain:
        j.rlive += j.wear[s] == _RETIRED
    j.off = hs[_S_END] if hs[_S_CLEAN] else _SEC
    if not hs[_S_CLEAN]:
        j._neutralize(h, hs[_S_END])
    # repair damaged copies in the needed range
    for s in chain:
        sc = sums[s]
        if sc[_S_BADA] or sc[_S_BADB]:
            _repair(j, s, sc[_S_END])
            bad = True
    if j.wear[h]:
        j.off = _SEC  # a worn head takes nothing more
    if base is not None and base[_S_BTYPE] == T_SNAPE:
        for _ in chunks(j):  # length and CRC: snap_ok
            pass
        if not j.snap_ok:
            j.status = CRITICAL
            return CRITICAL
    if bad:
        j.repairs += 1
        j.status = REPAIRED
    elif j.snap_len == 0 and j.base_type != T_SNAPE:
        j.status = EMPTY
    else:
        j.status = OK
    return j.status

def _reclaim(j, items, stats):
    """items: the chain (newest first), stats: each sector's sums.
    How many leading (newest) chain sectors hold nothing but an
    unfinished snapshot (chunks with no end): mount erases (reclaims)
    them, so the space a power cut left it holding is free for the next
    snapshot. Only counts: mount decides on CRITICAL before any erase."""
    k = 0
    while k < len(items) and not stats[items[k]][_S_LASTNC]:
        k += 1
    while k < len(items) and j.wear[items[k]] == _RETIRED:
        k += 1  # a retired sector is never the head
    return k

def _repair(j, s, end):
    """Rebuild both copies of sector s from the merged valid entries."""
    _read_pair(j, s)
    a = memoryview(j._a)
    b = memoryview(j._b)
    o = 0
    prev = 0
    # merge into _a: take every entry from whichever copy is valid
    while o < end:
        ea = _parse(a, o, prev)
        if ea is None:
            eb = _parse(b, o, prev)
            if eb is None:
                # The scan found a committed entry here. If only its
                # commit byte reads otherwise now, that byte is marginal
                # (a torn commit): the scan's reading stands and this
                # repair makes it solid.
                eb = _parse(b, o, prev, False)
                if eb is None:
                    ea = _parse(a, o, prev, False)
                    if ea is None:
                        raise JournalCorrupt("repair lost sector %d" % s)
            if ea is None:
                n = _OVH + eb[1]
                a[o:o + n] = b[o:o + n]
                ea = eb
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
    cur = j._b
    bad = 0
    for phys, first in ((s, True), (j.m + s, False), (s, False)):
        j.dev.readblocks(phys, cur, 0)
        if not first and bytes(memoryview(cur)[:npg]) == bytes(mer):
            continue
        old = int.from_bytes(memoryview(cur)[:npg], "big")
        erase = old & new != new or not _blank(memoryview(cur), npg, j._c)
        if first and erase:
            continue
        while True:
            if erase:
                j._erase(phys)
            if npg:
                j.dev.writeblocks(phys, mer, 0)
            # read back: a marginal bit can hide a 0 where a 1 is wanted
            j.dev.readblocks(phys, cur, 0)
            if bytes(memoryview(cur)[:npg]) == bytes(mer) or first:
                break  # A's erase, if any, waits for B
            if erase:
                # erased and programmed, still wrong: worn. The other
                # copy holds the entries; a worn pair is data lost.
                bad += 1
                if bad > 1:
                    raise JournalCorrupt("sector %d does not program" % phys)
                j._found_worn(s, phys)
                break
            erase = True

def _entries(j, first):
    """Yield (type, seq, payload memoryview) for live entries >= first (a seq).

    The payload view is only valid until the next iteration step.
    """
    j._pair()
    m = j.m
    s = (j.head - j.nlive + 1) % m
    for _ in range(j.nlive):
        if j.last[s] >= first:
            j.dev.readblocks(s, j._a, 0)
            a = memoryview(j._a)
            loaded_b = False
            o = 0
            prev = 0
            while True:
                e = _parse(a, o, prev)
                mv = a
                if e is None:
                    if prev == j.last[s]:
                        break
                    if not loaded_b:
                        j.dev.readblocks(m + s, j._b, 0)
                        loaded_b = True
                    e = _parse(memoryview(j._b), o, prev)
                    mv = memoryview(j._b)
                    if e is None:
                        raise JournalCorrupt("entry lost after mount")
                t, ln, seq = e[0], e[1], e[2]
                if seq >= first:
                    yield t, seq, mv[o + _HDR:o + _HDR + ln]
                prev = seq
                o += _OVH + ln
                if seq == j.last[s]:
                    break
            j._pause()
        s = (s + 1) % m

def chunks(j):
    """The newest snapshot (base_type T_SNAPE) as its chunks' payloads,
    in order, each a memoryview valid until the next step. Once they
    are all read, snap_ok says whether their length and CRC are what its
    end entry holds. The store decodes a chunk at a time: a fragmented
    heap need not hold the snapshot in one block."""
    j.snap_ok = False
    n = 0
    c = 0
    for t, seq, p in _entries(j, j.snap_start):
        if seq >= j.base_seq:
            break
        if t == T_SNAPC:
            n += len(p)
            c = crc32(p, c)
            yield p
    j.snap_ok = n == j.snap_len and c == j.snap_crc

def snapshot(j):
    """Bytes of the newest valid snapshot in one block, or None (host
    tools and tests; the store reads chunks())."""
    if j.status is None or j.status == CRITICAL or j.base_type != T_SNAPE:
        return None
    out = bytearray()
    for p in chunks(j):
        out += p
    if not j.snap_ok:
        raise JournalCorrupt("snapshot changed after mount")
    return bytes(out)

def replay(j, f):
    """Call f(payload) for each committed record after the snapshot."""
    if j.status is None or j.status == CRITICAL:
        return 0
    n = 0
    for t, seq, p in _entries(j, j.base_seq + 1):
        if t == T_REC:
            f(bytes(p))
            n += 1
    return n
