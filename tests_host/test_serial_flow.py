"""The technician port under pressure (issue 9, defect 8): a port that takes
256 bytes per write gets every reply whole, and a flood of METERS requests
neither grows memory nor sends more than the port takes. Through the real
controller; plain asserts: runs on CPython and on the MicroPython unix port.
"""
import gc
from hal.mock.loopserial import LoopSerial
from firmware.audit import readout as RO
from test_e2e_session import make

CHUNK = 256


class SlowPort(LoopSerial):
    """Takes at most CHUNK bytes per write, like a UART with a small FIFO."""

    def __init__(self):
        LoopSerial.__init__(self)
        self.writes = 0
        self.biggest = 0

    def write(self, data):
        n = min(CHUNK, len(data))
        if n:
            self._tx += bytes(data[:n])
            self.writes += 1
        self.biggest = max(self.biggest, n)
        return n


def _cabinet():
    b, d = make(seed=51)
    port = SlowPort()
    b.serial = port
    d.bill(20)
    return b, d, port


def _replies(text):
    """Reply blocks: each ends with a line holding a single '.'."""
    blocks = text.split("\n.\n")
    assert blocks[-1] == "", "a reply was cut off: %r" % text[-80:]
    return blocks[:-1]


def test_meters_reply_arrives_whole_through_a_256_byte_port():
    b, d, port = _cabinet()
    port.host_write(b"METERS\nSTATUS\n")
    out = b""
    for _ in range(200):
        d.step()
        out += port.host_read()
    blocks = _replies(out.decode())
    assert len(blocks) == 2
    meters = blocks[0].split("\n")
    assert meters[0] == "OK METERS %d" % len(meters[1:]) and len(meters) > 90
    assert any(l.startswith("total_in 2000 ") for l in meters)      # cents
    assert blocks[1].startswith("OK STATUS") and "credits=2000" in blocks[1]
    assert port.biggest == CHUNK and port.writes > 10


def test_meters_flood_is_bounded():
    b, d, port = _cabinet()
    ctl = d.ctl
    flood = b"METERS\n" * 2000        # 14 KB of requests, ~5 MB of replies if all answered
    port.host_write(flood)
    got = 0
    replies = 0
    answered = 0          # bytes of the whole replies
    tail = b""
    free = []
    for i in range(400):
        before = len(port._tx)
        ctl.tick_serial()
        sent = len(port._tx) - before
        assert sent <= CHUNK, "a pass sent %d bytes" % sent
        assert ctl.readout.backlog() <= RO.MAX_REPLY
        chunk = port.host_read()
        got += len(chunk)
        tail += chunk
        while b"\n.\n" in tail:
            head, _, tail = tail.partition(b"\n.\n")
            assert head.startswith(b"OK METERS ") and head.count(b"\n") > 90
            replies += 1
            answered += len(head) + 3
        if 100 <= i < 140 or 360 <= i:
            # the most free in each window of a few replies: the reply in
            # flight and this test's partial one vary by a reply's length
            gc.collect()
            free.append(gc.mem_free() if hasattr(gc, "mem_free") else 0)
    # whole replies, counted in bytes (a reply grows with the meters). A
    # METERS reply goes out as it is built, RO._LINES_A_PASS lines a pass
    # (a SAS poll waits for no more), a little under this port's CHUNK: 345
    # of the 400 passes' worth (built whole at once it was 366, and a SAS
    # poll waited ~100 ms on an RP2040; built whole a few lines a pass, 172)
    assert replies >= 2 and answered >= 340 * CHUNK
    assert got >= 390 * CHUNK // 2     # the port stays busy
    assert len(port._rx) > len(flood) // 2, "unanswered requests wait in the port"
    free = [max(free[:40]), max(free[40:])]
    assert free[1] >= free[0] - 1024, "memory grew under the flood: %r" % free
    assert d.ctl.store.ledger.table.credits == 2000
