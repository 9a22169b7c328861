"""Meter read-out: protocol replies, hypothesis fuzz (read-only, bounded,
never raises), and tools/meters against a Readout served in-process over the
mock board's SocketSerial.

Fuzz size: FUZZ_EXAMPLES=N, or FULL=1 for 100,000 (default 2,000).
"""
import io
import json
import os
import subprocess
import threading
import time

from hypothesis import given, settings, HealthCheck, strategies as st

from firmware.store import meters as M
from firmware.store import events as E
from firmware.store import records as TR
from firmware.audit import readout as RO
from firmware.audit.readout import Readout
from firmware.audit.digest import compute
from hal.mock.serial import SocketSerial
from test_audit_support import make, IDENT

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or (100000 if os.environ.get("FULL") else 2000))


def _replies(data):
    """Splits reply bytes into blocks of lines (each ends at a '.' line)."""
    text = data.decode("ascii")
    assert text == "" or text.endswith(".\n")
    blocks, cur = [], []
    for line in text.split("\n")[:-1]:
        if line == ".":
            blocks.append(cur)
            cur = []
        else:
            cur.append(line[1:] if line.startswith("..") else line)
    assert cur == []
    return blocks


def _setup(games=5):
    s, b = make(games)
    return s, b, Readout(s, IDENT, root=ROOT, clock=b.clock)


def test_commands():
    s, b, r = _setup()
    blocks = _replies(r.feed(b"HELP\nid\nSTATUS\nMETERS\nMETER total_in\nCONFIG\nHISTORY\n"
                             b"RECALL\nRECALL 0\nEVENTS 2\n"))
    heads = [blk[0] for blk in blocks]
    assert heads[0].startswith("OK HELP")
    assert heads[1] == "OK ID" and "station=CRAPS-01" in blocks[1] and "serial=SN0042" in blocks[1]
    assert "credits=%d" % s.ledger.table.credits in blocks[2]
    assert heads[3] == "OK METERS %d" % M.COUNT and len(blocks[3]) == M.COUNT + 1
    assert blocks[4] == ["OK METER", "total_in %d money Total in" % s.ledger.meters.get("total_in")]
    assert "pin=(set)" in blocks[5]
    assert heads[7] == "OK RECALL 5"
    g = s.ledger.recall.get(0)
    assert "game=%d" % g["game"] in blocks[8] and any(l.startswith("bet=field") for l in blocks[8])
    assert heads[9] == "OK EVENTS %d of %d" % (min(2, s.ledger.events.count), s.ledger.events.count)


class _Port:
    """A serial port that takes whatever is written, one request line in."""

    def __init__(self, request):
        self.rx = request
        self.out = b""

    def read(self, buf):
        n = len(self.rx)
        buf[:n] = self.rx
        self.rx = b""
        return n

    def write(self, data):
        self.out += bytes(data)
        return len(data)


def test_meters_on_a_port_built_a_few_lines_a_pass():
    # 111 meter lines at once kept a SAS poll waiting ~100 ms on an RP2040:
    # on a port the reply is built a few lines a main-loop pass, the same text
    s, b, r = _setup()
    whole = Readout(s, IDENT, root=ROOT, clock=b.clock).feed(b"METERS\n")
    port = _Port(b"METERS\n")
    passes = 0
    while not port.out.endswith(b"\n.\n"):
        r.service(port)
        passes += 1
        assert passes < 100
    assert port.out == whole
    assert passes >= (M.COUNT + 1) // RO._LINES_A_PASS
    port.rx = b"STATUS\n"      # the next request is answered after it
    r.service(port)
    assert _replies(port.out)[-1][0].startswith("OK STATUS")


def test_a_reply_that_fails_while_it_goes_out_ends_with_the_error():
    # the lines already sent stay sent: the reply closes with an ERR line and
    # its '.', and the next request is answered
    s, b, r = _setup()
    line = r._meter_line

    def failing(i):
        if i == 20:
            raise ValueError("planted")
        return line(i)
    r._meter_line = failing
    port = _Port(b"METERS\n")
    for _ in range(100):
        r.service(port)
    text = port.out.decode()
    assert text.startswith("OK METERS ") and text.endswith("\nERR 4 failed: ValueError\n.\n"), text[-80:]
    assert text.count("\n") == 1 + 20 + 2
    port.rx = b"STATUS\n"
    r.service(port)
    assert _replies(port.out)[-1][0].startswith("OK STATUS")


def test_errors_and_partial_lines():
    s, b, r = _setup()
    assert r.feed(b"MET") == b""
    assert r.feed(b"ER total") == b""
    assert _replies(r.feed(b"_in\r\n"))[0][0] == "OK METER"
    out = _replies(r.feed(b"NOPE\n\xff\x00\nMETER nosuch\nRECALL 99\nRECALL x\nEVENTS 0\n"
                          b"EVENTS 51\nID extra\n\n\n"))
    assert [blk[0].split()[1] for blk in out] == ["1", "3", "6", "6", "4", "4", "4", "4"]
    long = b"A" * 5000
    assert r.feed(long) == b""
    assert _replies(r.feed(b"\nID\n"))[0][0].startswith("ERR 2")
    assert len(r._buf) == RO.MAX_LINE
    # exactly MAX_LINE is fine
    line = b"METER " + b"x" * (RO.MAX_LINE - 6)
    assert _replies(r.feed(line + b"\n"))[0][0].startswith("ERR 6")
    assert _replies(r.feed(line + b"y\n"))[0][0].startswith("ERR 2")


def test_digest_same_as_menu_and_host():
    s, b, r = _setup(0)
    for _ in range(1000):
        blk = _replies(r.feed(b"DIGEST\n"))[0]
        if blk[0].startswith("OK"):
            break
        assert blk[0].startswith("ERR 5 busy")
    assert blk[0] == "OK DIGEST " + compute(ROOT)


def test_events_paging():
    s, b, r = _setup(0)
    for i in range(120):
        s.event(b.clock.now(), E.DOOR_OPEN if i % 2 else E.DOOR_CLOSE)
    got = []
    start = 0
    while True:
        blk = _replies(r.feed(b"EVENTS 50 %d\n" % start))[0]
        got += blk[1:]
        if len(blk) - 1 < 50:
            break
        start += 50
    assert len(got) == s.ledger.events.count
    assert [int(l.split()[0]) for l in got] == sorted((int(l.split()[0]) for l in got), reverse=True)


# ---- fuzz --------------------------------------------------------------------
_FUZZ = {}


def _fuzz_target():
    if not _FUZZ:
        s, b, r = _setup(4)
        s.cashout(b.clock.now(), TR.BY_HANDPAY)  # a lock and a handpay in the log
        _FUZZ.update(s=s, r=r, before=s.ledger.encode(), credits=s.ledger.table.credits)
    return _FUZZ


WORDS = [c.encode() for c in ("HELP", "ID", "STATUS", "METERS", "METER", "CONFIG", "HISTORY",
                              "RECALL", "EVENTS", "DIGEST", "total_in", "pin", "-1", "0", "99",
                              "50 0", "1 1000000", "SET", "CLEAR", "RESET", "RAM", "credit")]
_line = st.one_of(
    st.binary(max_size=300),
    st.lists(st.sampled_from(WORDS), max_size=5).map(lambda ws: b" ".join(ws)),
    st.text(max_size=80).map(lambda t: t.encode("utf-8")),
    st.integers(min_value=0, max_value=600).map(lambda n: b"E" * n),
    st.sampled_from(WORDS).flatmap(lambda w: st.binary(max_size=8).map(lambda x: w + b" " + x)),
)


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.lists(_line, max_size=8), st.lists(st.integers(min_value=0, max_value=400), max_size=6),
       st.booleans())
def test_fuzz_read_only_bounded(lines, cuts, crlf):
    f = _fuzz_target()
    r = f["r"]
    stream = b"".join(l + (b"\r\n" if crlf else b"\n") for l in lines)
    complete = stream.count(b"\n")
    pieces, pos = [], 0
    for c in sorted(cuts):  # the same bytes split across several feeds
        if c > len(stream):
            break
        pieces.append(stream[pos:c])
        pos = c
    pieces.append(stream[pos:])
    out = b"".join(r.feed(p) for p in pieces)
    assert len(out) <= (complete + 1) * RO.MAX_REPLY
    blocks = _replies(out)
    assert len(blocks) <= complete
    for blk in blocks:
        assert blk and (blk[0].startswith("OK ") or blk[0] == "OK ID" or blk[0].startswith("ERR "))
        assert len(blk) <= RO.EVENTS_MAX + M.COUNT + 2
    assert r._n <= RO.MAX_LINE and len(r._buf) == RO.MAX_LINE
    assert f["s"].ledger.encode() == f["before"]
    assert f["s"].ledger.table.credits == f["credits"]


def test_fuzz_left_the_ledger_alone():
    f = _fuzz_target()
    assert f["s"].ledger.encode() == f["before"]


# ---- tools/meters against an in-process simulator port -------------------------
class _Server:
    def __init__(self, readout, spec):
        self.serial = SocketSerial(spec)
        self.readout = readout
        self.stop = False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        while not self.stop:
            self.readout.service(self.serial)
            time.sleep(0.0005)

    def close(self):
        self.stop = True
        self.t.join()
        self.serial.close()


def _meters(argv):
    import sys
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import meters_main
    out = io.StringIO()
    rc = meters_main.main(argv, out=out)
    return rc, out.getvalue()


def test_tools_meters_tcp_json_csv_table():
    s, b, r = _setup(6)
    srv = _Server(r, "tcp:127.0.0.1:0")
    try:
        addr = "127.0.0.1:%d" % srv.serial.address[1]
        rc, out = _meters(["--tcp", addr, "--json", "--recall", "3", "--events", "70", "--digest"])
        assert rc == 0
        rep = json.loads(out)
        assert rep["identity"]["station"] == "CRAPS-01" and rep["identity"]["version"] == "0.1.0"
        assert rep["timestamp"].endswith("Z")
        vals = {m["key"]: m["value"] for m in rep["meters"]}
        assert len(vals) == M.COUNT
        assert all(vals[k] == s.ledger.meters.get(k) for k, _, _ in M.METERS)
        assert [g["game"] for g in rep["recall"]] == [s.ledger.recall.get(i)["game"] for i in range(3)]
        assert rep["recall"][0]["bets"][0]["result"] in ("win", "lose", "push", "returned", "no_action")
        assert len(rep["events"]) == s.ledger.events.count
        assert rep["digest"] == compute(ROOT)
        rc, out = _meters(["--tcp", addr, "--csv"])
        rows = out.strip().split("\n")
        assert rc == 0 and len(rows) == M.COUNT + 2 and rows[0].startswith("station,serial")
        assert rows[1].endswith(",credits,Credits,status,%d" % s.ledger.table.credits)
        assert "CRAPS-01,SN0042,0.1.0," in rows[1]
        rc, out = _meters(["--tcp", addr, "--recall", "2", "--events", "5"])
        assert rc == 0 and "Total in" in out and "RECALL game #" in out and "EVENTS" in out
        assert "credits    %d" % s.ledger.table.credits in out
        rc, out = _meters(["--tcp", addr, "--raw", "BOGUS"])
        assert rc == 1 and out.startswith("ERR 1")
    finally:
        srv.close()


def test_tools_meters_unix_socket_script():
    import tempfile
    s, b, r = _setup(2)
    path = os.path.join(tempfile.mkdtemp(), "cab.sock")
    srv = _Server(r, "unix:" + path)
    try:
        p = subprocess.run([os.path.join(ROOT, "tools", "meters"), "--unix", path],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        assert "station" in p.stdout and "CRAPS-01" in p.stdout and "Games played" in p.stdout
    finally:
        srv.close()
