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


class ValidationLog(Ring):
    """The newest RECORDS printed tickets: add(number, time, cents, ticket
    number (sequence, low 16 bits), expiration days); get(i) gives them back,
    0 = newest. Number 0: a ticket from before the number was kept (4D works
    it out from the ID and sequence)."""
    ENTRIES = RECORDS
    FMT = "<QIIHH"
    SIZE = 20                # struct.calcsize(FMT)
