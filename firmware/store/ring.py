"""The newest ENTRIES fixed-size entries in one bytearray (no object per
entry): the ledger's histories a SAS host reads back (AFT transfers, 4D
validation records). A subclass names its ENTRIES, FMT (struct format) and
SIZE (bytes apart) as class attributes: no per-instance copies.

The bytearray is allocated with the ring, at boot while the heap is whole:
a cabinet's heap then holds from its first roll what it holds after its
first ticket or transfer (the memory guard measures that), and no record
can fail for want of it. The snapshot carries the count and only the
entries used.
"""
import struct

_HEAD = "<I"                 # entries ever added


class Ring:
    ENTRIES = 1
    FMT = "<I"
    SIZE = 4

    def __init__(self):
        self.ring = bytearray(self.ENTRIES * self.SIZE)
        self.total = 0

    def add(self, *values):
        struct.pack_into(self.FMT, self.ring, (self.total % self.ENTRIES) * self.SIZE, *values)
        self.total += 1

    def slot(self, i):
        """The slot (0..ENTRIES-1) of the i-th newest entry (0 = newest), or -1."""
        if not 0 <= i < min(self.total, self.ENTRIES):
            return -1
        return (self.total - 1 - i) % self.ENTRIES

    def get(self, i):
        """The i-th newest entry's fields (0 = newest), or None."""
        slot = self.slot(i)
        return None if slot < 0 else struct.unpack_from(self.FMT, self.ring, slot * self.SIZE)

    def pieces(self):
        used = min(self.total, self.ENTRIES) * self.SIZE
        head = struct.pack(_HEAD, self.total)
        return [head, memoryview(self.ring)[:used]] if used else [head]

    def load(self, data, at=0):
        """Reads a ring's snapshot from data[at:]: the offset after it, or -1."""
        if len(data) < at + 4:
            return -1
        total = struct.unpack_from(_HEAD, data, at)[0]
        end = at + 4 + min(total, self.ENTRIES) * self.SIZE
        if len(data) < end:
            return -1
        self.total = total
        if end > at + 4:
            self.ring[:end - at - 4] = data[at + 4:end]
        return end
