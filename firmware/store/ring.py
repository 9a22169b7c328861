"""The newest N fixed-size entries in one bytearray (no object per entry):
the ledger's histories a SAS host reads back (AFT transfers, 4D validation
records).

The bytearray is allocated at the first entry, so a cabinet that never
makes one keeps no bytes for it; ready() allocates it before a record
changes anything else, so a failed allocation leaves the ledger as it was.
The snapshot carries the count and only the entries used.
"""
import struct

_HEAD = "<I"                 # entries ever added


class Ring:
    """`entries` entries of struct format `fmt`, each `size` bytes apart."""

    def __init__(self, entries, fmt, size):
        self.entries = entries
        self.fmt = fmt
        self.size = size
        self.ring = None
        self.total = 0

    def ready(self):
        ring = self.ring
        if ring is None:
            ring = self.ring = bytearray(self.entries * self.size)
        return ring

    def add(self, *values):
        struct.pack_into(self.fmt, self.ready(), (self.total % self.entries) * self.size, *values)
        self.total += 1

    def used(self):
        return min(self.total, self.entries)

    def slot(self, i):
        """The slot (0..entries-1) of the i-th newest entry (0 = newest), or -1."""
        if not 0 <= i < self.used():
            return -1
        return (self.total - 1 - i) % self.entries

    def unpack(self, slot):
        return struct.unpack_from(self.fmt, self.ring, slot * self.size)

    def pieces(self):
        head = struct.pack(_HEAD, self.total)
        if self.ring is None:
            return [head]
        return [head, memoryview(self.ring)[:self.used() * self.size]]

    def load(self, data, at=0):
        """Reads a ring's snapshot from data[at:]: the offset after it, or -1."""
        if len(data) < at + 4:
            return -1
        total = struct.unpack_from(_HEAD, data, at)[0]
        end = at + 4 + min(total, self.entries) * self.size
        if len(data) < end:
            return -1
        self.total = total
        if end > at + 4:
            self.ready()[:end - at - 4] = data[at + 4:end]
        return end
