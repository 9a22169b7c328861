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
    def __init__(self):
        self.games = []  # oldest first

    def add(self, encoded):
        if len(self.games) >= CAPACITY:
            self.games.pop(0)
        self.games.append(encoded)

    def get(self, i):
        """i-th newest game (0 = newest), decoded, or None."""
        if not 0 <= i < len(self.games):
            return None
        return decode_game(self.games[-1 - i])

    def __len__(self):
        return len(self.games)

    def encode(self):
        out = bytearray(struct.pack("<H", len(self.games)))
        for g in self.games:
            out += struct.pack("<H", len(g)) + g
        return bytes(out)

    def load(self, data):
        n = struct.unpack_from("<H", data, 0)[0]
        pos = 2
        games = []
        for _ in range(n):
            size = struct.unpack_from("<H", data, pos)[0]
            games.append(bytes(data[pos + 2:pos + 2 + size]))
            pos += 2 + size
        if pos != len(data) or n > CAPACITY:
            return False
        self.games = games
        return True
