"""AFT in-house transfers in the ledger: the reducer of records.AFT and the
transaction history (SAS 6.02 8.3, 8.6).

One record is one whole transfer: the credits move, the meters count it,
it joins the history and the event log says it (SAS exception 69), all in
the one journal entry. A power cut before the entry is committed leaves no
trace (the host asks again, with the same transaction ID, and gets it
done once); after it, the transfer is done and the history answers a
repeat of that ID with its result. The ledger refuses a record naming the
newest transfer's ID, so nothing is ever transferred twice.
"""
import struct
from micropython import const
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import events as E
from firmware.store.ring import Ring

HISTORY = const(16)          # entries kept (the spec allows up to 127)
ID_MAX = const(20)           # a transaction ID is 1-20 printable characters


class AftLog(Ring):
    """The newest HISTORY transfers (firmware/store/ring.py)."""
    ENTRIES = HISTORY
    # time, cents, the type's cumulative meter after it, type, status, ID length, ID
    FMT = "<IIQBBB20s"
    SIZE = 40                # struct.calcsize(FMT) + 1 spare byte

    def record(self, time, kind, status, cents, cumulative, tid):
        self.add(time, cents, cumulative, kind, status, len(tid), tid)

    def _slot(self, slot):
        t, cents, cum, kind, status, n, tid = struct.unpack_from(self.FMT, self.ring, slot * self.SIZE)
        return slot + 1, t, kind, status, cents, cum, tid[:n]

    def get(self, i):
        """The i-th newest (0 = newest) as (position, time, type, status, cents,
        cumulative, ID bytes), or None. Positions run 1..HISTORY round the ring."""
        slot = self.slot(i)
        return None if slot < 0 else self._slot(slot)

    def at(self, position):
        """The entry at ring position 1..HISTORY, or None."""
        if not 1 <= position <= min(self.total, HISTORY):
            return None
        return self._slot(position - 1)

    def find(self, tid):
        """How many transfers back `tid` was done (0 = the newest), or -1."""
        for i in range(min(self.total, HISTORY)):
            if self._slot(self.slot(i))[6] == tid:
                return i
        return -1


def apply(led, time, f, tid):
    """records.AFT: (type, status, cents), the transaction ID as the tail."""
    kind, status, cents = f
    tid = bytes(tid)
    if cents <= 0 or status not in (T.AFT_FULL, T.AFT_PARTIAL) \
            or not 1 <= len(tid) <= ID_MAX or led.aft.find(tid) == 0:
        return R.BAD_AMOUNT
    m = led.meters
    if kind == T.AFT_IN:
        code = led.table.credit(cents)
        if code != R.OK:
            return code
        m.add("total_in", cents)
        m.add("aft_in", cents)
        m.add("aft_in_n")
        meter = "aft_in"
    elif kind == T.AFT_OUT:
        if cents > led.table.credits:
            return R.NO_CREDITS
        led.table.credits -= cents
        m.add("total_out", cents)
        m.add("aft_out", cents)
        m.add("aft_out_n")
        meter = "aft_out"
    else:
        return R.BAD_AMOUNT
    led.aft.record(time, kind, status, cents, m.get(meter), tid)
    led.events.log(time, E.AFT_DONE, cents)
    return R.OK
