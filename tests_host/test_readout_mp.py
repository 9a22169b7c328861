"""Read-out fuzz with a seeded generator: plain functions, runs under pytest
and on the MicroPython unix port (tests_host/mp_runner.py test_readout_mp).

Random and malformed lines (binary, over-long, non-ASCII, command words with
junk), split at random points across feeds: no exception, the ledger
byte-identical afterwards, replies bounded and well formed.
"""
from firmware.audit import readout as RO
from firmware.audit.readout import Readout
from firmware.store import meters as M
from firmware.store import records as TR
from test_audit_support import make, IDENT
from hal.mock.xorshift import Rng as _Xorshift

CASES = 300
WORDS = (b"HELP", b"ID", b"STATUS", b"METERS", b"METER", b"CONFIG", b"HISTORY", b"RECALL",
         b"EVENTS", b"total_in", b"0", b"1", b"50", b"99", b"-3", b"x", b"SET", b"RESET",
         b"\xc3\xa9", b"\xff", b"\x00", b"\r", b"recall", b"events 50 1")


def Rng(seed):
    return _Xorshift(seed or 1)


def _line(rng):
    k = rng.below(5)
    if k == 0:
        return bytes(rng.below(256) for _ in range(rng.below(200)))
    if k == 1:
        return b"A" * rng.below(400)
    if k == 2:
        return "é€😀 METERS".encode()[:rng.below(20)]
    return b" ".join(WORDS[rng.below(len(WORDS))] for _ in range(rng.below(4) + 1))


def _check_reply(out, complete):
    assert len(out) <= (complete + 1) * RO.MAX_REPLY
    text = out.decode()
    if not text:
        return 0
    assert text.endswith("\n.\n") or text == ".\n"
    blocks = 0
    first = True
    for line in text.split("\n")[:-1]:
        if first:
            assert line.startswith("OK ") or line.startswith("ERR ") or line == "OK ID", line
            first = False
        if line == ".":
            blocks += 1
            first = True
    assert blocks <= complete
    return blocks


def _fuzz(seed, cases):
    s, b = make(3)
    s.cashout(b.clock.now(), TR.BY_HANDPAY)
    r = Readout(s, IDENT)
    before = s.ledger.encode()
    rng = Rng(seed)
    replies = 0
    for _ in range(cases):
        stream = b"".join(_line(rng) + (b"\n" if rng.below(8) else b"\r\n")
                          for _ in range(rng.below(5) + 1))
        if rng.below(4) == 0:
            stream = stream[:-1]  # a partial line left for the next case
        out = bytearray()
        pos = 0
        while pos < len(stream):
            step = 1 + rng.below(64)
            out += r.feed(stream[pos:pos + step])
            pos += step
        replies += _check_reply(bytes(out), stream.count(b"\n") + 1)
        assert len(r._buf) == RO.MAX_LINE and r._n <= RO.MAX_LINE
    assert s.ledger.encode() == before
    assert replies > cases // 2
    return replies


def test_seeded_fuzz_a():
    _fuzz(12345, CASES)


def test_seeded_fuzz_b():
    _fuzz(987654321, CASES)


def test_meters_reply_matches_ledger():
    s, b = make(2)
    r = Readout(s, IDENT)
    lines = r.feed(b"METERS\n").decode().split("\n")
    assert lines[0] == "OK METERS %d" % M.COUNT
    for i in range(M.COUNT):
        key, value, group, label = lines[1 + i].split(" ", 3)
        assert (key, label, group) == M.METERS[i] and int(value) == s.ledger.meters.get(i)
