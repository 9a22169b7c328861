"""Game recall: the last 100 games, each one compact record, in one byte ring.

A game lists up to _MAX_BETS bets (kind, number, result, amount, paid); a
layout with more keeps the first _MAX_BETS and totals for the rest, so one
snapshot stays bounded whatever a player puts on the table.

The games are kept in one ring of bytes, each as the snapshot stores it
(its length, then the game), so a snapshot copies the ring as it is. As a
bytes object each, a one-bet game (53 bytes) took 96 bytes of the 64-bit
port's heap and a list slot, and every snapshot made a length object per
game. The ring is made of 256-byte pages, never one block: after a long
replay a board's heap may have room but no big piece of it.
"""
import struct
from array import array
from micropython import const

CAPACITY = const(100)
_MAX_BETS = const(24)
_HEAD = "<IIBBBBBBQQHHII"
_BET = "<BBBII"
VOIDED = const(1)
NO_ACTION = const(0)
_HEAD_SIZE = const(42)      # struct.calcsize(_HEAD)
_BET_SIZE = const(11)       # struct.calcsize(_BET)
_MAX_GAME = const(306)      # _HEAD_SIZE + _MAX_BETS * _BET_SIZE
# The ring grows when a game does not fit, by the pages it needs, inserted
# where it is free (a hundred games of a full layout: 30.8 KB). It keeps its
# size after (the journal reserves the largest snapshot anyway).
_PAGE = const(256)
_SHIFT = const(8)           # _PAGE == 1 << _SHIFT
_MASK = const(255)


def encode_game(number, time, d1, d2, before, after, rerolls, flags,
                credits_before, credits_after, bets):
    """bets: iterable of (kind, number, result, amount, paid)."""
    more = more_amount = more_paid = 0
    parts = []
    for b in bets:
        if len(parts) < _MAX_BETS:
            parts.append(struct.pack(_BET, b[0], b[1], b[2], b[3], b[4]))
        else:
            more += 1
            more_amount += b[3]
            more_paid += b[4]
    head = struct.pack(_HEAD, number, time, d1, d2, before, after, rerolls, flags,
                       credits_before, credits_after, len(parts), more,
                       more_amount, more_paid)
    return head + b"".join(parts)


def decode_game(data):
    """A dict for display and read-out."""
    h = struct.unpack_from(_HEAD, data, 0)
    bsize = struct.calcsize(_BET)
    bets = [struct.unpack_from(_BET, data, _HEAD_SIZE + i * bsize) for i in range(h[10])]
    return {"game": h[0], "time": h[1], "dice": (h[2], h[3]), "point_before": h[4],
            "point_after": h[5], "rerolls": h[6], "voided": bool(h[7] & VOIDED),
            "credits_before": h[8], "credits_after": h[9], "bets": bets,
            "more": h[11], "more_amount": h[12], "more_paid": h[13]}


class Recall:
    """The newest CAPACITY games, oldest first, in a ring of bytes over
    _PAGE-byte pages: each game is its length (2 bytes, little-endian) and
    then its encoding, the snapshot's layout. _at is a ring of CAPACITY
    slots: where each game starts. Ring positions wrap at its size."""

    def __init__(self):
        self._ring = []            # the pages, bytearray(_PAGE) each
        self._from = 0             # ring position of the oldest game
        self._count = 0            # bytes the games take, lengths included
        self._at = array("H", range(CAPACITY))
        self._first = 0            # slot of the oldest game
        self._n = 0

    def _get(self, p, n):
        """n bytes from ring position p."""
        pages = self._ring
        size = len(pages) << _SHIFT
        out = bytearray(n)
        for i in range(n):
            q = (p + i) % size
            out[i] = pages[q >> _SHIFT][q & _MASK]
        return out

    def _grow(self, size):
        """Pages inserted where the ring is free (at its newest end) until
        it holds `size` bytes: what lies from that end on moves up by as
        many pages, the part of its page at the same offsets in the last
        new page; nothing else is copied."""
        pages = self._ring
        old = len(pages) << _SHIFT
        tail = (self._from + self._count) % old if old else 0
        t = tail >> _SHIFT
        k = 0
        while old + (k << _SHIFT) < size:
            pages.insert(t + 1 if old else 0, bytearray(_PAGE))
            k += 1
        if not (old and k):
            return
        o = tail & _MASK
        pages[t + k][o:] = pages[t][o:]
        shift = k << _SHIFT
        if self._count and self._from >= tail:
            self._from += shift
        at = self._at
        for j in range(self._n):
            s = (self._first + j) % CAPACITY
            if at[s] >= tail:
                at[s] += shift

    def reserve(self):
        """Pages for a hundred one-bet games (the least a full recall
        holds), taken at the cabinet's boot while its heap is whole: grown
        in play, pages end up in the holes play leaves."""
        size = CAPACITY * (2 + _HEAD_SIZE + _BET_SIZE)
        if (len(self._ring) << _SHIFT) < size:
            self._grow(size)

    def add(self, data):
        if self._n == CAPACITY:  # full: the oldest game goes
            g = self._get(self._from, 2)
            k = 2 + (g[0] | g[1] << 8)
            self._from = (self._from + k) % (len(self._ring) << _SHIFT)
            self._count -= k
            self._first = (self._first + 1) % CAPACITY
            self._n -= 1
        n = 2 + len(data)
        if (len(self._ring) << _SHIFT) - self._count < n:
            self._grow(self._count + n)
        pages = self._ring
        size = len(pages) << _SHIFT
        p = (self._from + self._count) % size
        rec = memoryview(struct.pack("<H", n - 2) + data)
        i = 0
        while i < n:  # a run to the end of each page (the ring ends at a page end)
            q = (p + i) % size
            o = q & _MASK
            k = min(n - i, _PAGE - o)
            pages[q >> _SHIFT][o:o + k] = rec[i:i + k]
            i += k
        self._at[(self._first + self._n) % CAPACITY] = p
        self._count += n
        self._n += 1

    def get(self, i):
        """i-th newest game (0 = newest), decoded, or None."""
        if not 0 <= i < self._n:
            return None
        p = self._at[(self._first + self._n - 1 - i) % CAPACITY]
        g = self._get(p, 2)
        return decode_game(self._get(p + 2, g[0] | g[1] << 8))

    def roll(self, i):
        """(d1, d2, point before, voided) of the i-th newest game without
        decoding it (the statistics page reads a hundred at a time)."""
        if not 0 <= i < self._n:
            return None
        g = self._get(self._at[(self._first + self._n - 1 - i) % CAPACITY] + 10, 6)
        return g[0], g[1], g[2], bool(g[5] & VOIDED)

    def __len__(self):
        return self._n

    def pieces(self):
        """The encoded recall as pieces: the count, then the ring's bytes
        (each game's length and the game) as they are, a view a page."""
        out: list = [struct.pack("<H", self._n)]
        pages = self._ring
        p = self._from
        left = self._count
        while left:
            o = p & _MASK
            k = min(_PAGE - o, left)
            out.append(memoryview(pages[p >> _SHIFT])[o:o + k])
            p = (p + k) % (len(pages) << _SHIFT)
            left -= k
        return out

    def load(self, stream, size):
        """Reads what pieces() wrote, `size` bytes, from a snapshot reader
        (firmware.store.snapshot._Reader) a game at a time, into pages made
        once for them all."""
        n = struct.unpack("<H", stream.read(2))[0]
        if n > CAPACITY or size > 2 + CAPACITY * (2 + _MAX_GAME):
            return False
        self._grow(size - 2)
        pos = 2
        for _ in range(n):
            g = struct.unpack("<H", stream.read(2))[0]
            if g < _HEAD_SIZE or g > _MAX_GAME or pos + 2 + g > size:
                return False
            self.add(stream.read(g))
            pos += 2 + g
        return pos == size
