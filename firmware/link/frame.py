"""Link frames on the RS-485 bus, pure logic over bytes.

    sync 0xA5 | address u8 | type u8 | seq u8 | round u32 | length u8 | payload | crc u16

Little-endian; the CRC is the SAS one (CRC-16/Kermit, firmware/sas/wire.py)
over address..payload, sent low byte first. Address 0 is every station (the
dome's broadcasts, never answered); 1-8 a station. A station's answer
carries its own address and a type with ANSWER set, so a station never
takes another's answer for a command, and the command's seq: the dome
counts seq up with every frame it sends, so a station knows a duplicate
of the command it has just answered (it answers once: a second answer
would collide with the dome's next frame) and the dome knows an answer to
the command it waits for from a late one. Framing is by the sync byte and the
length: a frame whose CRC fails is dropped and the receiver looks for the
next sync byte inside it (the bus is half duplex and quiet between frames,
so a torn frame costs that frame only).
"""
from micropython import const
from firmware.sas.wire import crc16

SYNC = const(0xA5)
BROADCAST = const(0)
ANSWER = const(0x80)          # type bit: a station's answer
HEAD = const(9)               # sync, address, type, seq, round, length
OVERHEAD = const(11)          # HEAD + crc
MAX_PAYLOAD = const(24)
MAX_FRAME = const(35)         # OVERHEAD + MAX_PAYLOAD


def encode(buf, addr, kind, seq, rnd, payload):
    """Writes one frame into buf (at least MAX_FRAME bytes); returns its
    length."""
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise ValueError("payload too long")
    buf[0] = SYNC
    buf[1] = addr
    buf[2] = kind
    buf[3] = seq
    buf[4] = rnd & 0xFF
    buf[5] = (rnd >> 8) & 0xFF
    buf[6] = (rnd >> 16) & 0xFF
    buf[7] = (rnd >> 24) & 0xFF
    buf[8] = n
    buf[HEAD:HEAD + n] = payload
    c = crc16(buf, 1, HEAD + n)
    buf[HEAD + n] = c & 0xFF
    buf[HEAD + n + 1] = c >> 8
    return HEAD + n + 2


class Framer:
    """Collects frames from the byte stream: feed(x) takes one byte and
    calls handler(self) for each frame with a good CRC, when addr, kind,
    seq, rnd and payload() describe it (valid during the call). Noise between
    frames and frames that fail their CRC are counted (noise, bad)."""

    def __init__(self, handler):
        self.handler = handler
        self.buf = bytearray(MAX_FRAME)
        self.n = 0
        self.addr = 0
        self.kind = 0
        self.seq = 0
        self.rnd = 0
        self.noise = 0
        self.bad = 0
        self.good = 0

    def payload(self):
        return memoryview(self.buf)[HEAD:HEAD + self.buf[8]]

    def feed(self, x):
        b = self.buf
        n = self.n
        if n == 0 and x != SYNC:
            self.noise += 1
            return
        b[n] = x
        n += 1
        self.n = n
        if n == HEAD and b[8] > MAX_PAYLOAD:
            self._resync()
            return
        if n < HEAD or n < OVERHEAD + b[8]:
            return
        end = HEAD + b[8]
        if crc16(b, 1, end) != b[end] | (b[end + 1] << 8):
            self.bad += 1
            self._resync()
            return
        self.n = 0
        self.addr = b[1]
        self.kind = b[2]
        self.seq = b[3]
        self.rnd = b[4] | (b[5] << 8) | (b[6] << 16) | (b[7] << 24)
        self.good += 1
        self.handler(self)

    def _resync(self):
        """A false start (a sync byte in noise, a torn frame): the bytes
        after it may hold the next frame, so they are fed again from the
        next sync byte (frames with errors only: the copy is rare)."""
        rest = bytes(self.buf[1:self.n])
        self.n = 0
        i = rest.find(bytes((SYNC,)))
        if i >= 0:
            for x in rest[i:]:
                self.feed(x)
