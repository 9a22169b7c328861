"""SAS secure-enhanced validation numbers (SAS 6.02 section 15.15): the
gaming machine's validation ID and a sequence number that goes up with every
ticket give a 16-digit number; with the two-digit validation system ID in
front (00 for secure enhanced) it is the 18-digit number printed on a ticket.
Pure logic: the sequence number is kept by the ledger (journal), so a power
cut can never issue the same number twice."""
from firmware.sas.wire import crc16


def _crc2(b, i):
    c = crc16(b, i, i + 2)
    return c & 0xFF, c >> 8


def number(vid, seq):
    """The 18-digit validation number (str) of sequence `seq` (0..2**24-1)
    under validation ID `vid` (1..2**24-1)."""
    a = bytearray(6)
    for i in range(3):
        a[i] = (seq >> (8 * i)) & 0xFF
        a[3 + i] = (vid >> (8 * i)) & 0xFF
    b = bytearray(6)
    b[0], b[1] = a[0], a[1]
    b[2] = a[2] ^ a[0]
    b[3] = a[3] ^ a[1]
    b[4] = a[4] ^ a[0]
    b[5] = a[5] ^ a[1]
    c = bytearray(6)
    c[0], c[1] = _crc2(b, 0)
    c[2], c[3] = _crc2(b, 2)
    c[4], c[5] = _crc2(b, 4)
    n0 = c[3] | (c[4] << 8) | (c[5] << 16)
    n1 = c[0] | (c[1] << 8) | (c[2] << 16)
    d = [int(ch) for ch in "%08d%08d" % (n0, n1)]
    # a check value (digit sum mod 5, doubled) goes into the top digit of each
    # half; both halves are below 2**24, so that digit is 0 or 1 before it
    d[0] |= (sum(d[0:8]) % 5) << 1
    d[8] |= (sum(d[8:16]) % 5) << 1
    return "00" + "".join([str(x) for x in d])


def ticket(led):
    """(18-digit number, time, amount) of the newest printed ticket (from the
    event log and the ledger), or None."""
    if not (led.val_seq or led.ticket_last):    # no ticket ever
        return None
    from firmware.store import events as E
    ev = led.events
    for i in range(ev.count):
        number, t, code, arg = ev.get(i)
        if code == E.CASHOUT:
            # the number printed, kept by the ledger: the ID and sequence
            # may have changed since (4C); journals from before it kept
            # only those, and a ticket there had the newest of them
            last = led.ticket_last
            return ("%018d" % last) if last else of_ledger(led)[2], t, arg
    return None


def of_ledger(led):
    """(validation ID, sequence, 18-digit number) of the ledger's newest ticket."""
    return led.val_id, led.val_seq, number(led.val_id, led.val_seq)
