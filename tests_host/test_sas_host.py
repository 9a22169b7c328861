"""The cabinet against a real SAS host library (sas-comm-py, pinned in
requirements.txt), over the same pty line `tools/sim --sas pty` gives a
technician: tools/sas_bridge.py on a pty pair, the real controller on the
mock board (fake clock, stepped in a thread) behind it.

sas-comm-py sends type R/S long polls and reads the answers; what it cannot
send (general polls, polls for another address, broadcasts, frames with a bad
CRC, the ROM signature exchange) is built here from scratch: this file has its
own CRC and BCD, independent of firmware/sas.
"""
import os
import subprocess
import sys
import tempfile
import threading
import time

import pytest

serial = pytest.importorskip("serial")
sas_comm_py = pytest.importorskip("sas_comm_py")

from hal.mock.board import Board  # noqa: E402
from firmware.cabinet.drive import Driver  # noqa: E402
from firmware.store import ledger as L  # noqa: E402
from firmware.store import events as E  # noqa: E402
from firmware import timefmt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ADDR = 1

# the bench's host-side CRC: bit by bit, independent of firmware/sas
sys.path.insert(0, os.path.join(ROOT, "tools"))
from bench_sas_host import kermit  # noqa: E402
from test_sas_floor import cash_out_to_a_handpay  # noqa: E402


def with_crc(body):
    c = kermit(bytes(body))
    return bytes(body) + bytes((c & 0xFF, c >> 8))


def bcd(value, n):
    s = "%0*d" % (2 * n, value)
    return bytes(int(s[i:i + 2], 16) for i in range(0, 2 * n, 2))


def unbcd(data):
    return int("".join("%02x" % b for b in data))


class Host(sas_comm_py.SlotMachine):
    """sas-comm-py's SlotMachine. Its constructor calls get_serial_number(),
    which 0.1.0 does not define: it is long poll 54 here, through the
    library's own write()."""

    def get_serial_number(self):
        # the start-up synchronisation: the machine answers nothing before
        # it has seen a poll to another address
        self.port.write(bytes((0x80, 0x80 | (ADDR + 1))))
        time.sleep(0.1)
        r = self.write_type_R(0x54, following_length=True)
        # data: length byte, "602", the serial number (the library keeps the length)
        return bytes(int(x, 16) for x in r.data[4:]).decode() if r else ""

    def meter(self, cmd, length=4):
        r = self.write_type_R(cmd, length_to_read=length)
        assert r, "no answer to long poll %02x" % cmd
        return [int(x, 16) for x in r.data]

    def send_s(self, cmd, data=()):
        r = self.write(cmd, optional_data=list(data), poll_type="S",
                       response_type="ack_nack")
        return r.ack_nack


class Cabinet:
    """The controller stepped by a thread, its fake clock at about real time
    (10 ms a step) so that the host's pauses between polls stay well under
    the 5 s after which a machine chirps; `with cab:` holds it still for
    the test's own steps. Those stand for time a real host spends polling:
    when the test lets go the line counts as polled, and what the cabinet
    chirped meanwhile (its address alone) is dropped before the host's next
    poll."""

    def __init__(self, tmp):
        self.sock = os.path.join(tmp, "sas.sock")
        self.board = Board(seed=7, fake_clock=True, flash_size=131072,
                           sas="unix:" + self.sock)
        self.drv = Driver(self.board, draw=False)
        self.ctl = self.drv.ctl
        self.lock = threading.RLock()
        self.host_port = None              # the host's end of the line (the fixture's)
        self.stop = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop:
            with self.lock:
                self.drv.step()
            time.sleep(0.01)

    def __enter__(self):
        self.lock.acquire()
        return self.drv

    def __exit__(self, *a):
        self.ctl.sas.polled = True
        self.lock.release()
        if self.host_port is not None:
            time.sleep(0.05)                # the chirps on their way through the bridge
            self.host_port.reset_input_buffer()

    def close(self):
        self.stop = True
        self.thread.join()
        self.board.close()


@pytest.fixture(scope="module")
def line():
    tmp = tempfile.mkdtemp()
    cab = Cabinet(tmp)
    bridge = subprocess.Popen([sys.executable, os.path.join(ROOT, "tools", "sas_bridge.py"),
                               "unix:" + cab.sock, "pty"], stdout=subprocess.PIPE, text=True)
    first = bridge.stdout.readline()
    assert first.startswith("SAS pty: "), first
    path = first.split(": ", 1)[1].strip()
    host = Host(path, address=ADDR)
    cab.host_port = host.port
    try:
        yield cab, host
    finally:
        host.port.close()
        bridge.kill()
        bridge.wait()
        cab.close()


def raw(host, frame, reply_len, wait_s=1.5):
    """Writes a frame with the wakeup marker (as sas-comm-py does) and reads
    up to reply_len bytes."""
    p = host.port
    p.reset_input_buffer()
    p.write(bytes((0x80,)) + bytes(frame))
    out = b""
    t0 = time.time()
    if not reply_len:
        time.sleep(wait_s)    # a SAS host waits out the 20 ms answer window (2.3.1)
    while len(out) < reply_len and time.time() - t0 < wait_s:
        out += p.read(reply_len - len(out))
    return out


def general(host):
    r = raw(host, [0x80 | ADDR], 1)
    assert len(r) == 1, "no answer to a general poll"
    return r[0]


def drain(host, limit=80):
    """All pending exceptions, each acknowledged by a poll to address 2."""
    got = []
    for _ in range(limit):
        code = general(host)
        raw(host, [0x80 | 2], 0, wait_s=0.05)   # another machine: implied ACK
        if code == 0:
            return got
        got.append(code)
    raise AssertionError("exceptions never ran out: %r" % got)


def sas_meters(host):
    m = host.meter(0x1C, 32)
    return [unbcd(bytes(m[i:i + 4])) for i in range(0, 32, 4)]


def test_sas_version_and_serial(line):
    cab, host = line
    assert host.serial_number == cab.ctl.identity()["serial"]
    r = host.write_type_R(0x54, following_length=True)
    assert int(r.data[0], 16) == len(r.data) - 1
    assert bytes(int(x, 16) for x in r.data[1:4]) == b"602"


def test_session_meters_and_exception_order(line):
    cab, host = line
    drain(host)                               # power-up and whatever came before
    with cab as d:
        led = d.ctl.store.ledger
        d.board.door.set(1)
        d.run(300)
        d.board.door.set(0)
        d.run(300)
        d.bill(20)
        d.bill(5)
        d.coin(1)
        d.press("BET_UP", 2)                  # pass line, 2 credits
        games = 0
        while True:                           # until the pass line is decided
            assert d.roll()
            games += 1
            if not led.table.on_table():
                break
        d.press("CASHOUT")
        d.run(500)
        assert led.meters.get("tickets") == 1
        # the last result comes back after the ticket's message: the next
        # test's keys would wait for it (the clock here runs at about real time)
        g = d.ctl.game
        assert d.until(lambda: not g.result_hidden and not g.result_locked(d.board.clock.ticks_ms()),
                       15000)
    got = drain(host)
    want = [0x11, 0x12, 0x4A, 0x48] + [0x7E, 0x7F] * games + [0x3D]
    assert got == want, ["%02x" % c for c in got]
    with cab as d:
        m = d.ctl.store.ledger.meters
        # the ledger counts cents; so does SAS (accounting denomination $0.01)
        credits = d.ctl.store.ledger.table.credits
        want = [m.get("wagered") + m.get("vig"),
                m.get("won") + m.get("returned") - m.get("jackpot"),
                m.get("total_in"), m.get("jackpot"), m.get("games"),
                m.get("games_won"), m.get("door_opens"), m.get("power_ups")]
        cancelled = m.get("total_out") - m.get("jackpot")
        bills = [m.get("bills_%d" % v) for v in (1, 5, 10, 20, 50, 100)]
        bills_value = m.get("bills_in") // 100
    assert sas_meters(host) == want
    assert unbcd(bytes(host.meter(0x10))) == cancelled
    assert unbcd(bytes(host.meter(0x1A))) == credits
    assert unbcd(bytes(host.meter(0x11))) == want[0]
    assert unbcd(bytes(host.meter(0x15))) == want[4]
    b = host.meter(0x1E, 24)
    assert [unbcd(bytes(b[i:i + 4])) for i in range(0, 24, 4)] == bills
    assert unbcd(bytes(host.meter(0x20))) == bills_value       # 20 is in dollars
    # SAS's own balance: credits = drop - cancelled + coin out - coin in
    assert credits == want[2] - cancelled + want[1] - want[0]
    # 48: the last bill was a $5 (country 37, denomination code 02, $5 bills accepted)
    last = host.meter(0x48, 6)
    assert last[:2] == [0x37, 0x02] and unbcd(bytes(last[2:])) == bills[1]
    # the ticket's 18-digit number is the secure-enhanced one (4D)
    r = raw(host, with_crc([ADDR, 0x4D, 0xFF]), 35)
    assert len(r) == 35 and kermit(r) == 0 and r[1] == 0x4D
    with cab as d:
        ticket = d.board.printer.tickets[-1]
        barcode = d.board.printer.barcodes[-1]
    # addr, 4D, type, index, date (4), time (3), validation number (8 BCD)
    number = "00" + "".join("%02x" % x for x in r[11:19])
    assert any(number in line_ for line_ in ticket), ticket
    assert barcode == number


def test_handpay_exceptions_and_remote_reset(line):
    cab, host = line
    drain(host)
    with cab as d:
        cash_out_to_a_handpay(d)
    # handpay pending first, a priority exception (2.2.1, 7.8.1); then options
    # changed and the $5 bill from the queue
    assert drain(host) == [0x51, 0x3C, 0x48]
    info = host.meter(0x1B, 20)
    assert unbcd(bytes(info[2:7])) == 500                      # $5 in cents
    r = raw(host, with_crc([ADDR, 0x94]), 5)
    assert kermit(r) == 0 and r[2] == 0x00
    assert drain(host) == [0x52]
    with cab as d:
        assert d.ctl.store.ledger.lock == L.LK_NONE
    r = raw(host, with_crc([ADDR, 0x94]), 5)
    assert r[2] == 0x02                                        # not in a handpay


def test_host_disable_stops_play_within_one_game(line):
    cab, host = line
    with cab as d:
        d.bill(10)
        d.press("BET_UP", 1)
        d.press("ROLL")
        assert d.until(lambda: d.ctl.game.rolling(), 5000)
    assert host.send_s(0x01) == bytes((ADDR,))                    # shutdown mid-roll
    with cab as d:
        g = d.ctl.game
        rolls = g.rolls
        assert d.until(lambda: g.rolls != rolls or not g.rolling(), 60000)
        assert g.rolls == rolls + 1                            # the game in progress ends
        led = d.ctl.store.ledger
        assert led.suspended() == L.DISABLED
        bets = led.table.on_table()
        credits = led.table.credits
        d.press("BET_UP", 2)
        d.press("ROLL")
        d.run(20000)
        assert led.table.credits == credits and led.table.on_table() == bets
        assert g.rolls == rolls + 1                             # nothing more was played
    assert host.send_s(0x02) == bytes((ADDR,))
    with cab as d:
        led = d.ctl.store.ledger
        assert led.suspended() == ""
        while led.table.on_table():           # play resumes; finish the pass line
            assert d.roll()
    drain(host)


def test_set_date_time_changes_the_clock(line):
    cab, host = line
    with cab as d:
        t0 = d.board.clock.ticks_ms()
    data = list(bcd(3152030, 4)) + list(bcd(134500, 3))      # 03/15/2030 13:45:00
    assert host.send_s(0x7F, data) == bytes((ADDR,))
    with cab as d:
        now = d.ctl.now_s()
        ev = d.ctl.store.ledger.events.get(0)
        # the cabinet's (fake) time since the poll went out, however long
        # the host took on a loaded machine
        ran_s = d.board.clock.ticks_diff(d.board.clock.ticks_ms(), t0) // 1000 + 1
    want = timefmt.unix(2030, 3, 15, 13, 45, 0)
    assert 0 <= now - want <= ran_s
    assert ev[2] == E.CLOCK_SET and ev[3] == want              # the new time
    r = host.meter(0x7E, 7)
    assert unbcd(bytes(r[:4])) == 3152030 and unbcd(bytes(r[4:6])) == 1345
    drain(host)


def test_malformed_or_foreign_frames_change_nothing(line):
    cab, host = line
    drain(host)
    with cab as d:
        # the host's acknowledgements are journaled at most once a second
        # (sas/machine.py commit): the state compared is the one after them
        assert d.until(lambda: d.ctl.sas.acked <= d.ctl.store.ledger.sas_ack, 5000)
        before = (d.ctl.now_s(), d.ctl.store.ledger.encode())
    good = [ADDR, 0x7F] + list(bcd(1012031, 4)) + list(bcd(101010, 3))
    bad_crc = bytearray(with_crc(good))
    bad_crc[-1] ^= 0x55
    assert raw(host, bad_crc, 1, wait_s=0.5) == b""            # bad CRC: ignored
    foreign = with_crc([5] + good[1:])
    assert raw(host, foreign, 1, wait_s=0.5) == b""            # address 5: not ours
    assert raw(host, with_crc([ADDR, 0x01])[:-1], 1, wait_s=0.5) == b""  # cut short
    assert raw(host, [ADDR, 0x7F, 0x99] + [0x00] * 8, 1, wait_s=0.5) == b""  # garbage
    bad_date = with_crc([ADDR, 0x7F] + list(bcd(13452030, 4)) + list(bcd(250000, 3)))
    assert raw(host, bad_date, 1) == bytes((0x80 | ADDR,))     # month 13: NACK
    assert raw(host, [ADDR, 0x66], 1, wait_s=0.5) == b""       # unsupported: ignored
    with cab as d:
        after = (d.ctl.now_s(), d.ctl.store.ledger.encode())
    # the fake clock moved on, but did not jump to 2031
    assert 0 <= after[0] - before[0] < 3600 and after[1] == before[1]
    assert drain(host) == []


def test_polls_written_back_to_back_are_each_seen(line):
    # A poll nobody answers (another address), then ours, reach the bridge in
    # one read when it is slow to run (a loaded machine): the marker of the
    # second is still a marker, so ours is answered.
    cab, host = line
    drain(host)
    p = host.port
    p.reset_input_buffer()
    p.write(bytes((0x80, 0x80 | 2, 0x80, 0x80 | ADDR)))
    assert p.read(1) == b"\x00"
    p.write(bytes((0x80, 0x80 | 2, 0x80, ADDR, 0x1A)))  # then a type R long poll
    r = p.read(10)
    assert r[:2] == bytes((ADDR, 0x1A)) and kermit(r) == 0


def test_rom_signature_covers_the_digest_files(line):
    cab, host = line
    drain(host)
    seed = 0x1234
    raw(host, with_crc([ADDR, 0x21, seed & 0xFF, seed >> 8]), 0, wait_s=0.05)
    sig = None
    for _ in range(400):
        r = raw(host, [0x80 | ADDR], 6, wait_s=0.05)
        if len(r) >= 6 and r[1] == 0x21:
            assert kermit(r[:6]) == 0
            sig = r[2] | (r[3] << 8)
            break
    assert sig is not None, "no ROM signature"
    # the same byte stream as tools/digest: path, size, bytes; sorted paths
    files = []
    for top in ("firmware", "hal"):
        for base, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [x for x in dirs if x != "__pycache__" and not x.startswith(".")]
            for n in names:
                if n.endswith(".py") or n.endswith(".mpy"):
                    files.append(os.path.relpath(os.path.join(base, n), ROOT))
    files += [f for f in ("boot.py", "main.py") if os.path.exists(os.path.join(ROOT, f))]
    crc = seed
    for rel in sorted(files):
        data = open(os.path.join(ROOT, rel), "rb").read()
        for b in ("%s\n%d\n" % (rel, len(data))).encode() + data:
            crc ^= b
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    assert sig == crc


def test_selected_meters_2f_and_6f(line):
    cab, host = line
    r = host.write_type_M(0x2F, optional_data=[0x00, 0x05, 0x0C, 0x99], add_length_binary=True)
    assert r
    d = [int(x, 16) for x in r.data]
    with cab as dv:
        led = dv.ctl.store.ledger
        # SAS credits of $0.01: cents, as the ledger counts
        want = {0x00: led.meters.get("wagered") + led.meters.get("vig"),
                0x05: led.meters.get("games"), 0x0C: led.table.credits}
    got = {}
    i = 2                                     # after the game number
    while i < len(d):
        got[d[i]] = unbcd(bytes(d[i + 1:i + 5]))
        i += 5
    assert got == want                        # 99 is no meter: left out
    r = raw(host, with_crc([ADDR, 0x6F, 6, 0, 0, 0x05, 0x00, 0x24, 0x00]), 64, wait_s=0.5)
    assert kermit(r) == 0 and r[1] == 0x6F and r[2] == len(r) - 5
    assert r[5:8] == bytes((0x05, 0x00, 5)) and unbcd(r[8:13]) == want[0x05]
