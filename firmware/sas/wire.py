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

NONE = const(0xFF)     # not a long poll the machine knows

# total frame length (address, command, data, CRC) of each long poll the
# machine knows: command, length pairs (R = type R); anything else is
# ignored (4.4: never NACKed). Kept as a 256-byte table by command (NONE:
# unknown): bytes, not a dict (heap; README *Heap budget*).
_LENGTHS = (
    b"\x01\x04\x02\x04\x06\x04\x07\x04\x94\x04"
    b"\x0f\x02\x10\x02\x11\x02\x12\x02\x13\x02\x14\x02\x15\x02\x16\x02\x17\x02\x18\x02"
    b"\x19\x02\x1a\x02\x1b\x02\x1c\x02\x1e\x02\x1f\x02\x20\x02\x48\x02\x54\x02\x57\x02"
    b"\x7e\x02"
    b"\x21\x06\x4c\x0a\x4d\x05\x58\x0d\x7f\x0b"
    b"\x2f\x00\x6f\x00\xaf\x00"      # VAR
)


def _lengths():
    t = bytearray(256)
    for i in range(256):
        t[i] = NONE
    for i in range(0, len(_LENGTHS), 2):
        t[_LENGTHS[i]] = _LENGTHS[i + 1]
    return t


LENGTH = _lengths()
del _lengths, _LENGTHS
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
            ln = LENGTH[b]
            if ln == NONE:
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
