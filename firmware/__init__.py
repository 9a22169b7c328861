def fmt(amount):
    """The one way money is shown: an amount in integer cents as
    dollars.cents ("1234.56"). Every amount in the firmware is integer
    cents; screens, tickets and reports format it here and nowhere else."""
    sign = "-" if amount < 0 else ""
    amount = -amount if amount < 0 else amount
    return "%s%d.%02d" % (sign, amount // 100, amount % 100)


class Packed:
    """Read-only sequence of short strings kept as one fixed-width string:
    P[i] is row i without its padding. A tuple of string constants costs a
    heap object per string, and short ones stay interned for good."""

    def __init__(self, text, width):
        self._t = text
        self._w = width
        self._n = len(text) // width

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        return self._t[i * self._w:(i + 1) * self._w].rstrip()
