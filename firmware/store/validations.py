"""The validation records a SAS host may read back with long poll 4D
(SAS 6.02 15.10): the newest RECORDS cash out tickets printed, a ring of
fixed-size entries (firmware/store/ring.py).

The ledger adds an entry when a ticket is confirmed printed (records
TK_PRINTED), so the journal replays it and the snapshot carries the ring:
a power cut or a snapshot loses none and adds none twice. Each entry keeps
what was printed: the number, the time, the cents, the ticket number and
the expiration days in force then (a later 7D does not change it).
"""
from micropython import const
from firmware.store.ring import Ring

RECORDS = const(31)          # buffer indexes 01-1F
# validation number (16 digits after the system ID; 0: a ticket from before
# the number was kept, worked out from the ID and sequence), time, cents,
# ticket number (sequence, low 16 bits), expiration days
_ENTRY = "<QIIHH"
_SIZE = const(20)            # struct.calcsize(_ENTRY)


class ValidationLog(Ring):
    """The newest RECORDS printed tickets."""

    def __init__(self):
        super().__init__(RECORDS, _ENTRY, _SIZE)

    def record(self, time, number, cents, seq, expiry):
        self.add(number, time, cents, seq & 0xFFFF, expiry)

    def get(self, i):
        """The i-th newest (0 = newest) as (number, time, cents, ticket
        number, expiration days), or None."""
        slot = self.slot(i)
        return None if slot < 0 else self.unpack(slot)
