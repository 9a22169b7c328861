"""xorshift32: the same sequence on CPython and MicroPython, with private
state (MicroPython's `random` has one global generator and other numbers)."""


class Rng:
    def __init__(self, seed, default=0x6D2B79F5):
        self.s = (seed & 0xFFFFFFFF) or default

    def next(self):
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def below(self, n):
        return self.next() % n
