"""SAS 6.02 wire format, pure logic over bytes: CRC-16 (Kermit), packed BCD,
and the receive framer. The ninth (wakeup) bit arrives as a flag with each
byte; how a board gets it (PIO 9-bit UART, parity trick, a pty marker) is the
HAL's business.

References (firmware/sas/SAS.md): 1.2.1 wakeup mode, 2.2 polls, 2.2.2 long
poll types R/S/M/G, 5 CRC.
"""
from micropython import const

# what Framer.feed() returns for a complete message (firmware/sas/machine.py)
_GENERAL = const(1)    # general poll: one byte, address | 0x80
_LONG = const(2)       # long poll addressed to us: addr, cmd, ...
_BROADCAST = const(3)  # type G (address 0): no answer

R = const(2)           # type R: address + command, no CRC
_VAR = const(0)        # length byte after the command: addr cmd len data.. crc crc

_NONE = const(0xFF)    # not a long poll the machine knows

# total frame length (address, command, data, CRC) of each long poll the
# machine knows: command, length pairs (R = type R); anything else is
# ignored (4.4: never NACKed). Searched once a frame (its command byte).
_LENGTHS = const(
    b"\x01\x04\x02\x04\x06\x04\x07\x04\x94\x04\x0e\x05"
    b"\x0f\x02\x10\x02\x11\x02\x12\x02\x13\x02\x14\x02\x15\x02\x16\x02\x17\x02\x18\x02"
    b"\x19\x02\x1a\x02\x1b\x02\x1c\x02\x1e\x02\x1f\x02\x20\x02\x48\x02\x54\x02\x57\x02"
    b"\x7e\x02\x51\x02\x55\x02\x56\x02\x70\x02"
    b"\x21\x06\x4c\x0a\x4d\x05\x50\x05\x58\x0d\x7f\x0b\x53\x06\xa0\x06\x74\x08\xa8\x05"
    b"\x2f\x00\x6f\x00\xaf\x00\x71\x00\x7b\x00\x7c\x00\x7d\x00\x72\x00"  # VAR
)


# the longest host message: address, command, a length byte, 255 bytes, CRC
_MAX_FRAME = const(260)


def length(c):
    """Total frame length of long poll c (R: type R, 0: a length byte
    follows the command), 0xFF for a poll the machine does not know."""
    t = _LENGTHS
    for i in range(0, len(t), 2):
        if t[i] == c:
            return t[i + 1]
    return _NONE


def crc16(data, start=0, end=-1, seed=0):
    """CRC-16/KERMIT (x^16+x^12+x^5+1, reflected, starting from `seed`), four
    bits at a time: no 512-byte table on the heap. Sent least significant
    byte first."""
    crc = seed
    if end < 0:
        end = len(data)
    for i in range(start, end):
        c = data[i]
        q = (crc ^ c) & 15
        crc = (crc >> 4) ^ (q * 0x1081)
        q = (crc ^ (c >> 4)) & 15
        crc = (crc >> 4) ^ (q * 0x1081)
    return crc


def put_bcd(buf, pos, value, n):
    """Packed BCD in n bytes, most significant byte first; keeps the low 2*n
    digits."""
    i = pos + n - 1
    while i >= pos:
        lo = value % 10
        value //= 10
        buf[i] = ((value % 10) << 4) | lo
        value //= 10
        i -= 1
    return pos + n


def get_bcd(buf, pos, n):
    """Value of n bytes of packed BCD, or -1 if a nibble is not a decimal digit."""
    v = 0
    for i in range(pos, pos + n):
        hi = buf[i] >> 4
        lo = buf[i] & 15
        if hi > 9 or lo > 9:
            return -1
        v = v * 100 + hi * 10 + lo
    return v


def crc_ok(buf, n):
    return n >= 4 and crc16(buf, 0, n) == 0


class Framer:
    """Collects one host message at a time. feed(x, w) takes a byte x and
    its ninth bit w, and returns 1 (general poll), 2 (long poll) or 3
    (broadcast, type G) when a complete
    message for us is in `buf[:n]`, else 0. A byte with the wakeup bit
    always starts a new message (an unfinished one is dropped); messages for
    another address are skipped to the next wakeup byte and counted in
    `skip`; unknown commands are skipped likewise. `id` is this machine's
    address (0: SAS off)."""

    def __init__(self, a):
        self.id = a
        self.buf = bytearray(_MAX_FRAME)
        self.n = 0
        self.total = 0       # total bytes expected; 0 = not collecting
        self.kind = 0
        self.skip = 0        # polls seen for other addresses (implied ACK)

    def feed(self, x, w):
        f = self.buf
        if w:
            self.total = 0
            self.n = 0
            a = self.id
            if a == 0:
                self.skip += 1
                return 0       # address 0: the machine ignores the host (2.1)
            if x == (0x80 | a):
                f[0] = x
                self.n = 1
                return _GENERAL
            if x == a or x == 0:
                f[0] = x
                self.n = 1
                self.total = -1   # command byte next
                self.kind = _LONG if x else _BROADCAST
            else:
                self.skip += 1
            return 0
        if self.total == 0:
            return 0             # not ours, or already complete: wait for a wakeup
        f[self.n] = x
        self.n += 1
        if self.total == -1:
            ln = length(x)
            if ln == _NONE:
                self.total = 0
                return 0
            if ln == _VAR:
                self.total = -2
                return 0
            self.total = ln
        elif self.total == -2:
            total = 3 + x + 2
            if total > _MAX_FRAME:
                self.total = 0
                return 0
            self.total = total
        if self.n >= self.total > 0:
            self.total = 0
            return self.kind
        return 0
