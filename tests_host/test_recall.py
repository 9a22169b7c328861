"""Game recall: one byte ring of the newest 100 games, the same bytes in the
snapshot as the list of games it replaced, and its heap (runs on CPython and
on the port)."""
import gc
import struct
import sys
from firmware.store import recall as RC

_MP = sys.implementation.name == "micropython"


class Rng:
    """xorshift32: the same games on both ports."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x % n


def game(rng, number, nbets):
    bets = [(rng.next(40), rng.next(13), rng.next(3), rng.next(100000), rng.next(100000))
            for _ in range(nbets)]
    return RC.encode_game(number, 1000 + number, 1 + rng.next(6), 1 + rng.next(6),
                          rng.next(11), rng.next(11), rng.next(3), rng.next(2),
                          rng.next(10 ** 9), rng.next(10 ** 9), bets)


def old_snapshot(games):
    """The recall part of a snapshot as the list of bytes objects wrote it:
    the count, then each game's length and bytes."""
    out = [struct.pack("<H", len(games))]
    for g in games:
        out.append(struct.pack("<H", len(g)))
        out.append(g)
    return b"".join(out)


def joined(rec):
    return b"".join(bytes(p) for p in rec.pieces())


class Reader:
    """snapshot._Reader's read() over one block."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def read(self, n):
        if self.pos + n > len(self.data):
            raise StopIteration
        out = bytearray(self.data[self.pos:self.pos + n])
        self.pos += n
        return out


def check_same(rec, games):
    assert len(rec) == len(games)
    for i in range(len(games)):
        g = games[len(games) - 1 - i]
        assert rec.get(i) == RC.decode_game(g), i
        d = RC.decode_game(g)
        assert rec.roll(i) == (d["dice"][0], d["dice"][1], d["point_before"], d["voided"])
    assert rec.get(len(games)) is None and rec.roll(-1) is None
    assert joined(rec) == old_snapshot(games)


def test_ring_holds_the_newest_100_games_whatever_their_sizes():
    rng = Rng(2463534242)
    rec = RC.Recall()
    games = []
    check_same(rec, games)
    for number in range(1, 420):
        # small and big layouts in runs, so the ring wraps, grows, and
        # games straddle its end (over 24 bets keep 24 and totals)
        phase = (number // 60) % 3
        nbets = rng.next(3) if phase == 0 else rng.next(30) if phase == 1 else 24
        g = game(rng, number, nbets)
        rec.add(g)
        games.append(g)
        games = games[-RC.CAPACITY:]
        if number % 7 == 0 or number < 5:
            check_same(rec, games)
    check_same(rec, games)


def test_snapshot_of_the_ring_loads_back_the_same_games():
    rng = Rng(7)
    for count, nbets in ((0, 0), (1, 2), (100, 2), (150, 24), (250, 5)):
        rec = RC.Recall()
        games = []
        for number in range(count):
            g = game(rng, number, nbets + rng.next(3) if nbets else 0)
            rec.add(g)
            games.append(g)
        games = games[-RC.CAPACITY:]
        data = joined(rec)
        back = RC.Recall()
        assert back.load(Reader(data), len(data))
        check_same(back, games)
        # and play goes on after the load
        g = game(rng, 999, 3)
        back.add(g)
        check_same(back, (games + [g])[-RC.CAPACITY:])


def test_a_malformed_recall_is_refused():
    rng = Rng(11)
    games = [game(rng, n, 2) for n in range(3)]
    good = old_snapshot(games)
    assert RC.Recall().load(Reader(good), len(good))
    # a size that does not match what the games take
    assert not RC.Recall().load(Reader(good), len(good) + 2)
    assert not RC.Recall().load(Reader(good), len(good) - 2)
    # a size no recall can have
    assert not RC.Recall().load(Reader(good), 2 + RC.CAPACITY * 308 + 1)
    # more games than the recall holds
    many = struct.pack("<H", RC.CAPACITY + 1) + good[2:]
    assert not RC.Recall().load(Reader(many), len(many))
    # a game longer than 24 bets can make, or shorter than its head
    for n in (307, 41):
        bad = struct.pack("<HH", 1, n) + bytes(n)
        assert not RC.Recall().load(Reader(bad), len(bad))


def test_a_hundred_two_bet_games_take_pages_of_their_size():
    rng = Rng(3)
    games = [game(rng, n, 2) for n in range(RC.CAPACITY)]
    gc.collect()
    before = gc.mem_alloc() if _MP else 0
    rec = RC.Recall()
    for g in games:
        rec.add(g)
    gc.collect()
    need = RC.CAPACITY * (2 + 64)
    # the pages they need, 256 bytes each
    assert len(rec._ring) == (need + 255) // 256
    if _MP:
        # the pages (each an object too: 26 x 32 B), the page list, the slot
        # table and the recall itself; each game as its own bytes object was
        # 112 B of the 64-bit port's heap and a list slot (12 KB here)
        print("recall: 100 two-bet games, %d B of heap" % (gc.mem_alloc() - before))
        assert gc.mem_alloc() - before <= need + 1800, gc.mem_alloc() - before
    # a game more takes the oldest one's room: no new page
    pages = list(rec._ring)
    rec.add(game(rng, 100, 2))
    assert len(rec) == RC.CAPACITY and len(rec._ring) == len(pages)
    assert all(a is b for a, b in zip(rec._ring, pages))


def test_reserve_holds_a_hundred_one_bet_games_without_growing():
    """The cabinet's boot takes the pages a full recall of one-bet games
    needs (Controller.__init__): play then adds none for them."""
    rec = RC.Recall()
    rec.reserve()
    pages = len(rec._ring)
    assert pages * 256 >= 100 * (2 + 42 + 11) and pages * 256 < 100 * 55 + 256
    rng = Rng(7)
    for i in range(150):
        rec.add(game(rng, i + 1, 1))
    assert len(rec._ring) == pages, (len(rec._ring), pages)
    assert len(rec) == 100 and rec.get(0)["game"] == 150
    rec.reserve()       # a second call takes nothing more
    assert len(rec._ring) == pages
