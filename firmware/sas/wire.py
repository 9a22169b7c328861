"""SAS 6.02 wire format, pure logic over bytes: CRC-16 (Kermit), packed BCD,
and the receive framer. The ninth (wakeup) bit arrives as a flag with each
byte; how a board gets it (PIO 9-bit UART, parity trick, a pty marker) is the
HAL's business.

References (firmware/sas/SAS.md): 1.2.1 wakeup mode, 2.2 polls, 2.2.2 long
poll types R/S/M/G, 5 CRC.
"""
from micropython import const

GENERAL = const(1)     # general poll: one byte, address | 0x80
LONG = const(2)        # long poll addressed to us: addr, cmd, ...
BROADCAST = const(3)   # type G (address 0): no answer

R = const(2)           # type R: address + command, no CRC
VAR = const(0)         # length byte after the command: addr cmd len data.. crc crc

# total frame length (address, command, data, CRC) of each long poll the
# machine knows; R = type R. Anything else is ignored (4.4: never NACKed).
LENGTH = {
    0x01: 4, 0x02: 4, 0x06: 4, 0x07: 4, 0x94: 4,
    0x0F: R, 0x10: R, 0x11: R, 0x12: R, 0x13: R, 0x14: R, 0x15: R, 0x16: R,
    0x17: R, 0x18: R, 0x19: R, 0x1A: R, 0x1B: R, 0x1C: R, 0x1E: R, 0x1F: R,
    0x20: R, 0x48: R, 0x54: R, 0x57: R, 0x7E: R,
    0x21: 6, 0x4C: 10, 0x4D: 5, 0x58: 13, 0x7F: 11,
    0x2F: VAR, 0x6F: VAR, 0xAF: VAR,
}
MAX_FRAME = const(40)


def crc16(data, start=0, end=-1, crc=0):
    """CRC-16/KERMIT (x^16+x^12+x^5+1, reflected, seed `crc`), four bits at
    a time: no 512-byte table on the heap. Sent least significant byte first."""
    if end < 0:
        end = len(data)
    for i in range(start, end):
        c = data[i]
        q = (crc ^ c) & 15
        crc = (crc >> 4) ^ (q * 0x1081)
        q = (crc ^ (c >> 4)) & 15
        crc = (crc >> 4) ^ (q * 0x1081)
    return crc


def put_bcd(buf, pos, value, nbytes):
    """Packed BCD, most significant byte first; keeps the low 2*nbytes digits."""
    i = pos + nbytes - 1
    while i >= pos:
        lo = value % 10
        value //= 10
        buf[i] = ((value % 10) << 4) | lo
        value //= 10
        i -= 1
    return pos + nbytes


def get_bcd(buf, pos, nbytes):
    """Value of packed BCD, or -1 if a nibble is not a decimal digit."""
    v = 0
    for i in range(pos, pos + nbytes):
        hi = buf[i] >> 4
        lo = buf[i] & 15
        if hi > 9 or lo > 9:
            return -1
        v = v * 100 + hi * 10 + lo
    return v


def crc_ok(frame, n):
    return n >= 4 and crc16(frame, 0, n) == 0


class Framer:
    """Collects one host message at a time. feed(byte, wake) returns GENERAL,
    LONG or BROADCAST when a complete message for us is in `frame[:n]`, else 0.
    A byte with the wakeup bit always starts a new message (an unfinished one
    is dropped); messages for another address are skipped to the next wakeup
    byte; unknown commands likewise."""

    def __init__(self, address):
        self.address = address
        self.frame = bytearray(MAX_FRAME)
        self.n = 0
        self.want = 0        # total bytes expected; 0 = not collecting
        self.kind = 0
        self.other = 0       # polls seen for other addresses (implied ACK)

    def feed(self, b, wake):
        f = self.frame
        if wake:
            self.want = 0
            self.n = 0
            a = self.address
            if a == 0:
                return 0       # address 0: the machine ignores the host (2.1)
            if b == (0x80 | a):
                f[0] = b
                self.n = 1
                return GENERAL
            if b == a or b == 0:
                f[0] = b
                self.n = 1
                self.want = -1   # command byte next
                self.kind = LONG if b else BROADCAST
            else:
                self.other += 1
            return 0
        if self.want == 0:
            return 0             # not ours, or already complete: wait for a wakeup
        f[self.n] = b
        self.n += 1
        if self.want == -1:
            ln = LENGTH.get(b)
            if ln is None:
                self.want = 0
                return 0
            if ln == VAR:
                self.want = -2
                return 0
            self.want = ln
        elif self.want == -2:
            total = 3 + b + 2
            if total > MAX_FRAME:
                self.want = 0
                return 0
            self.want = total
        if self.n >= self.want > 0:
            self.want = 0
            return self.kind
        return 0
