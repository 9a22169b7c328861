"""What one printed ticket reveals (issue 25, finding 5; docs/SECURITY.md):
the 18-digit SAS secure-enhanced validation number is a reversible function
of the cabinet's validation ID and the ticket's sequence number, so one
paper gives both exactly, and with them every later ticket's number. The
scheme is SAS's own (firmware/sas/validation.py); what protects a ticket
is the ticket system's record of it (paid once), not the number's secrecy.
"""
import random

from firmware.sas import validation as V
from firmware.sas.wire import crc16


def _inverse_pairs():
    """CRC-16 of two bytes is one-to-one: crc -> the two bytes."""
    inv = {}
    b = bytearray(2)
    for x in range(65536):
        b[0], b[1] = x & 0xFF, x >> 8
        inv[crc16(b, 0, 2)] = x
    assert len(inv) == 65536
    return inv


def recover(printed, inv):
    """(validation ID, sequence) from an 18-digit ticket number."""
    d = [int(ch) for ch in printed[2:]]
    d[0] &= 1       # the check values sit in the top digit of each half
    d[8] &= 1
    n0 = int("".join(str(x) for x in d[:8]))
    n1 = int("".join(str(x) for x in d[8:]))
    c = [n1 & 0xFF, (n1 >> 8) & 0xFF, n1 >> 16, n0 & 0xFF, (n0 >> 8) & 0xFF, n0 >> 16]
    b = []
    for i in (0, 2, 4):
        x = inv[c[i] | c[i + 1] << 8]
        b += [x & 0xFF, x >> 8]
    a = [b[0], b[1], b[2] ^ b[0], b[3] ^ b[1], b[4] ^ b[0], b[5] ^ b[1]]
    return a[3] | a[4] << 8 | a[5] << 16, a[0] | a[1] << 8 | a[2] << 16


def test_one_ticket_gives_the_validation_id_and_every_next_number():
    inv = _inverse_pairs()
    rng = random.Random(25)
    for _ in range(200):
        vid, seq = rng.randrange(1, 1 << 24), rng.randrange(0, (1 << 24) - 1)
        printed = V.number(vid, seq)
        assert recover(printed, inv) == (vid, seq)
        got_vid, got_seq = recover(printed, inv)
        assert V.number(got_vid, got_seq + 1) == V.number(vid, seq + 1)
