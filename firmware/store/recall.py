"""Game recall: the last 100 games, each one compact bytes.

A game lists up to _MAX_BETS bets (kind, number, result, amount, paid); a
layout with more keeps the first _MAX_BETS and totals for the rest, so one
snapshot stays bounded whatever a player puts on the table.
"""
import struct
from micropython import const

CAPACITY = const(100)
_MAX_BETS = const(24)
_HEAD = "<IIBBBBBBQQHHII"
_BET = "<BBBII"
VOIDED = const(1)
NO_ACTION = const(0)


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
    size = struct.calcsize(_HEAD)
    bsize = struct.calcsize(_BET)
    bets = [struct.unpack_from(_BET, data, size + i * bsize) for i in range(h[10])]
    return {"game": h[0], "time": h[1], "dice": (h[2], h[3]), "point_before": h[4],
            "point_after": h[5], "rerolls": h[6], "voided": bool(h[7] & VOIDED),
            "credits_before": h[8], "credits_after": h[9], "bets": bets,
            "more": h[11], "more_amount": h[12], "more_paid": h[13]}


class Recall:
    """The newest CAPACITY games in a ring of fixed size: a list that grew
    and shifted with every game would re-allocate during play."""

    def __init__(self):
        self._ring = [None] * CAPACITY
        self._first = 0   # ring slot of the oldest game
        self._n = 0

    def _at(self, k):
        """k-th oldest game (0 = oldest), encoded."""
        return self._ring[(self._first + k) % CAPACITY]

    def add(self, encoded):
        if self._n < CAPACITY:
            self._ring[(self._first + self._n) % CAPACITY] = encoded
            self._n += 1
        else:  # full: the newest takes the oldest's slot
            self._ring[self._first] = encoded
            self._first = (self._first + 1) % CAPACITY

    def get(self, i):
        """i-th newest game (0 = newest), decoded, or None."""
        if not 0 <= i < self._n:
            return None
        return decode_game(self._at(self._n - 1 - i))

    def roll(self, i):
        """(d1, d2, point before, voided) of the i-th newest game without
        decoding it (the statistics page reads a hundred at a time)."""
        if not 0 <= i < self._n:
            return None
        g = self._at(self._n - 1 - i)
        return g[8], g[9], g[10], bool(g[13] & VOIDED)

    def __len__(self):
        return self._n

    def pieces(self):
        """The encoded recall as a list of pieces (count, then each game's
        length and bytes): the games themselves, not a copy of them all in
        one block, which a fragmented heap may not have (issue 10)."""
        n = self._n
        out = [None] * (1 + 2 * n)
        out[0] = struct.pack("<H", n)
        for k in range(n):
            g = self._at(k)
            out[1 + 2 * k] = struct.pack("<H", len(g))
            out[2 + 2 * k] = g
        return out

    def load(self, rd, size):
        """Reads what pieces() wrote, `size` bytes, from a snapshot reader
        (firmware.store.snapload._Reader) a game at a time."""
        n = struct.unpack("<H", rd.read(2))[0]
        if n > CAPACITY:
            return False
        games = [None] * CAPACITY
        pos = 2
        for k in range(n):
            g = struct.unpack("<H", rd.read(2))[0]
            games[k] = rd.read(g)
            pos += 2 + g
        if pos != size:
            return False
        self._ring = games
        self._first = 0
        self._n = n
        return True
