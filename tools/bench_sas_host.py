"""The casino management system's side of `tools/bench firmware --sas` and
`--sas-plain`, in CPython, outside the cabinet's heap: the frames the host
polls with (written before the session for tools/bench_sas_line.py, the
cabinet's port in the MicroPython session) and, after the session, the
check of every answer the cabinet gave and the answer-time report.

Checked for every answer (the bench fails on any wrong one): one answer per
poll that wants one and none to a poll for another address; a general poll
gets one byte, a known exception code, the same code again while the host
repeats the poll (implied NACK, at most three sends) and game start / game
end in turn; a long poll gets the cabinet's address and the command back,
its own length and a right CRC-16 (Kermit, computed here bit by bit); every
meter in a meter poll (0F-20, 2F, 6F) equals the cabinet's own meters at
that answer (the ledger's, logged beside it), through this file's own
mapping of SAS meters to ledger meters; the last bill (48), the version and
serial (54), the date (7E), the machine information (1F), the pending
cash-out status (57) and the validation record (4D) are well formed.
"""
import os
import struct
import sys

LANDED, ANSWER, OWN, END = 1, 2, 3, 4     # tools/bench_sas_line.py's records
BUDGET_US = 20000       # a gaming machine starts its answer within 20 ms
ADDRESS = 1

# long polls the host sends in turn (frames with their CRC where the poll
# carries data: 2F/6F game 0000 with meter codes, 4D look-ahead)
LONG_POLLS = (b"\x01\x1c", b"\x01\x0f", b"\x01\x19", b"\x01\x1e", b"\x01\x1a",
              b"\x01\x10", b"\x01\x1f", b"\x01\x48", b"\x01\x54", b"\x01\x7e",
              b"\x01\x1b", b"\x01\x18", b"\x01\x20", b"\x01\x57",
              b"\x01\x2f\x05\x00\x00\x00\x05\x0c\x9b\x5b",
              b"\x01\x6f\x06\x00\x00\x00\x00\x05\x00\x3b\x09",
              b"\x01\x4d\xff\xba\xa3")
FRAMES = (bytes((0x80 | ADDRESS,)), bytes((0x80 | (ADDRESS + 1),))) + LONG_POLLS

# SAS 6.02 exception codes the cabinet may report (firmware/sas/SAS.md)
EXCEPTIONS = set(b"\x00\x11\x12\x15\x16\x17\x18\x19\x1a\x20\x31\x32\x3a\x3c\x3d"
                 b"\x47\x48\x49\x4a\x4b\x4c\x4d\x4e\x4f\x50\x51\x52\x60\x70\x7e\x7f\x84\x85")

# SAS meter code -> sum of ledger meters (a leading '-' subtracts) and unit:
# c credits of the accounting denomination ($0.01: cents, as the ledger
# counts), n a count, d whole dollars
SAS_METERS = {
    0x00: ("wagered vig", "c"), 0x01: ("won returned -jackpot", "c"),
    0x02: ("jackpot", "c"), 0x03: ("handpay_cc", "c"),
    0x04: ("total_out -jackpot", "c"), 0x05: ("games", "n"), 0x06: ("games_won", "n"),
    0x07: ("games_lost", "n"), 0x08: ("coins_in", "c"), 0x0A: ("coins_in", "c"),
    0x0B: ("bills_in", "c"), 0x0C: ("credits", "c"), 0x16: ("tickets_out", "c"),
    0x22: ("won returned", "c"), 0x23: ("handpay_cc jackpot", "c"),
    0x24: ("total_in", "c"), 0x25: ("games_power", "n"), 0x26: ("games_door", "n"),
    0x2C: ("tickets_out", "c"), 0x2D: ("door_opens", "n"), 0x2E: ("power_ups", "n"),
    0x2F: ("bills_1", "n"), 0x30: ("bills_5", "n"), 0x31: ("bills_10", "n"),
    0x32: ("bills_20", "n"), 0x33: ("bills_50", "n"), 0x34: ("bills_100", "n"),
    0x35: ("bills_in", "d"),
}
# meter polls: command -> (SAS meter code, BCD bytes)... (SAS 6.02 7.1, 7.2)
METER_POLLS = {
    0x10: ((0x04, 4),), 0x11: ((0x00, 4),), 0x12: ((0x01, 4),), 0x13: ((0x24, 4),),
    0x14: ((0x02, 4),), 0x15: ((0x05, 4),), 0x16: ((0x06, 4),), 0x17: ((0x07, 4),),
    0x1A: ((0x0C, 4),),
    0x0F: ((0x04, 4), (0x00, 4), (0x01, 4), (0x24, 4), (0x02, 4), (0x05, 4)),
    0x19: ((0x00, 4), (0x01, 4), (0x24, 4), (0x02, 4), (0x05, 4)),
    0x1C: ((0x00, 4), (0x01, 4), (0x24, 4), (0x02, 4), (0x05, 4), (0x06, 4), (0x2D, 4),
           (0x2E, 4)),
    0x18: ((0x25, 2), (0x26, 2)),
    0x1E: ((0x2F, 4), (0x30, 4), (0x31, 4), (0x32, 4), (0x33, 4), (0x34, 4)),
    0x20: ((0x35, 4),),
}
FIXED_LENGTH = {0x1F: 24, 0x48: 10, 0x7E: 11, 0x1B: 24, 0x57: 10, 0x4D: 35}
BILL_DOLLARS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)   # Table C-6 codes 00-0A
DENOM_CENTS = (1, 5, 10, 25, 50, 100, 500, 1000, 2000, 10000)   # Table C-4 codes 01-0A


def write_frames(path):
    """The frames file tools/bench_sas_line.py reads: 16-byte slots, a length then the frame."""
    with open(path, "wb") as f:
        for fr in FRAMES:
            f.write(bytes((len(fr),)) + fr + bytes(15 - len(fr)))


def kermit(data):
    """CRC-16/KERMIT bit by bit (poly 0x1021 reflected = 0x8408, init 0)."""
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def unbcd(data):
    s = "".join("%02x" % b for b in data)
    return int(s) if s.isdigit() else -1


class Check:
    """Reads the session's SAS log and checks every answer."""

    def __init__(self, root):
        sys.path[:0] = [root, os.path.join(root, "tools", "cpython_shims")]
        from firmware.store import meters as FM
        from firmware import version
        self.sas_id = version.sas_id().encode()     # long poll 1F's additional ID
        self.count = FM.COUNT
        self.index = {}
        for spec, unit in SAS_METERS.values():
            for key in spec.split():
                key = key.lstrip("-")
                if key != "credits":
                    self.index[key] = FM.index(key)
        self.bill = {}      # dollars -> bill meter (none for the notes it has no meter for)
        for d in BILL_DOLLARS:
            i = FM.index("bills_%d" % d)
            if i is not None:
                self.bill[d] = i
        self.wrong = []
        self.checked = self.meter_polls = 0
        self.times = ([], [], [])       # general, long, own work: (us, bus, code, read)
        self.dropped = 0
        self.polls = self.skipped = -1

    def fail(self, seq, what):
        if len(self.wrong) < 20:
            self.wrong.append("poll #%d: %s" % (seq, what))
        else:
            self.wrong.append(None)

    def sas_meter(self, code, m):
        spec, unit = SAS_METERS[code]
        v = 0
        for key in spec.split():
            sign = -1 if key[0] == "-" else 1
            key = key.lstrip("-")
            x = m[-2] if key == "credits" else m[self.index[key]]
            v += sign * x
        return v // 100 if unit == "d" else v

    def long_answer(self, seq, frame, a, m):
        cmd = frame[1]
        if len(a) < 4 or a[0] != ADDRESS or a[1] != cmd:
            return self.fail(seq, "poll %02X: answer %s" % (cmd, a.hex()))
        if kermit(a[:-2]) != a[-2] | (a[-1] << 8):
            return self.fail(seq, "poll %02X: bad CRC in %s" % (cmd, a.hex()))
        body = a[2:-2]
        if cmd in METER_POLLS:
            self.meter_polls += 1
            want = b"".join(bytes.fromhex("%0*d" % (2 * n, self.sas_meter(code, m)))
                            for code, n in METER_POLLS[cmd])
            if body != want:
                return self.fail(seq, "poll %02X: meters %s, the cabinet's %s" % (
                    cmd, body.hex(), want.hex()))
        elif cmd in (0x2F, 0x6F):
            self.meter_polls += 1
            wide = cmd == 0x6F
            want = b"\x00\x00"
            codes = frame[5:-2]
            step = 2 if wide else 1
            for i in range(0, len(codes), step):
                code = codes[i] | (codes[i + 1] << 8 if wide else 0)
                size = 5 if wide else 4
                want += (bytes((code & 0xFF, code >> 8, size)) if wide else bytes((code,)))
                want += bytes.fromhex("%0*d" % (2 * size, self.sas_meter(code, m)))
            if body != bytes((len(want),)) + want:
                return self.fail(seq, "poll %02X: %s, the cabinet's meters %s" % (
                    cmd, body.hex(), want.hex()))
        elif len(a) != FIXED_LENGTH.get(cmd, len(a)):
            return self.fail(seq, "poll %02X: %d bytes" % (cmd, len(a)))
        elif cmd == 0x48:
            if body[0]:
                dollars = BILL_DOLLARS[body[1]] if body[1] < 10 else 500 if body[1] == 0x10 else 0
                i = self.bill.get(dollars)
                if body[0] != 0x37 or unbcd(body[2:6]) != (m[i] if i is not None else 0):
                    return self.fail(seq, "poll 48: %s" % body.hex())
            elif body != bytes(6):      # no bill in the event log (it may have scrolled out)
                return self.fail(seq, "poll 48: %s" % body.hex())
        elif cmd == 0x54:
            n = body[0]
            if n != len(body) - 1 or body[1:4] != b"602" or not body[4:].isascii():
                return self.fail(seq, "poll 54: %s" % body.hex())
        elif cmd == 0x7E:
            date, tm = unbcd(body[0:4]), unbcd(body[4:7])
            if not (1 <= date // 1000000 <= 12 and 1 <= date // 10000 % 100 <= 31
                    and 2000 <= date % 10000 <= 2099 and 0 <= tm < 240000):
                return self.fail(seq, "poll 7E: %s" % body.hex())
        elif cmd == 0x1F:
            if body[0:5] != b"BC" + self.sas_id or not 1 <= body[5] <= len(DENOM_CENTS) \
                    or DENOM_CENTS[body[5] - 1] != 1 or body[16:20] != b"0000":
                return self.fail(seq, "poll 1F: %s" % body.hex())
        elif cmd == 0x57:
            if body != b"\x80" + bytes(5):
                return self.fail(seq, "poll 57: %s" % body.hex())
        elif cmd in (0x1B, 0x4D):
            fields = ((2, 7), (7, 9)) if cmd == 0x1B else ((2, 6), (6, 9), (9, 17), (17, 22))
            if any(unbcd(body[i:j]) < 0 for i, j in fields):
                return self.fail(seq, "poll %02X: %s" % (cmd, body.hex()))
        self.checked += 1

    def read(self, path):
        landed = {}         # sequence -> frame slot
        answered = {}
        last = None         # (sequence, code, sends) of the last general poll's answer
        games = []
        with open(path, "rb") as f:
            while True:
                h = f.read(64)
                if len(h) < 64:
                    break
                kind, seq, slot, passes, us, bus, disturbed, n = struct.unpack("<8q", h)
                if kind == END:
                    self.polls, self.skipped = seq, slot
                    continue
                if kind == LANDED:
                    landed[seq] = slot
                    if last is not None and slot != 0:
                        last = None     # any other poll: an implied ACK
                    continue
                a = f.read(n)
                m = None
                if n > 1:       # the meters, in whole records of 8
                    k = (self.count + 2 + 7) // 8 * 8
                    m = struct.unpack("<%dq" % k, f.read(8 * k))[:self.count + 2]
                if seq in answered or seq not in landed or landed[seq] != slot or slot == 1:
                    self.fail(seq, "answer %s to poll %s" % (a.hex(), FRAMES[slot].hex()))
                    continue
                answered[seq] = True
                if disturbed:
                    self.dropped += 1
                elif kind == OWN or slot:
                    self.times[2 if kind == OWN else 1].append((us, bus, FRAMES[slot][1], seq))
                else:
                    self.times[0].append((us, bus, 0x81, seq))
                if slot:
                    self.long_answer(seq, FRAMES[slot], a, m)
                    continue
                code = a[0] if n == 1 else -1
                if code not in EXCEPTIONS:
                    self.fail(seq, "general poll answer %s" % a.hex())
                    continue
                if last is not None and last[1] and last[2] < 3:
                    # the host repeated the poll: a NACK, the same exception again
                    if code != last[1]:
                        self.fail(seq, "general poll NACKed: %02X, then %02X" % (last[1], code))
                    last = (seq, code, last[2] + 1)
                    self.checked += 1
                    continue
                last = (seq, code, 1)
                if code in (0x7E, 0x7F):
                    if games and games[-1] == code:
                        self.fail(seq, "game %s twice" % ("start" if code == 0x7E else "end"))
                    games.append(code)
                elif code == 0x70:
                    games.append(0)     # exceptions lost: no order to check across
                self.checked += 1
        for seq, slot in landed.items():
            if slot != 1 and seq not in answered:
                self.fail(seq, "no answer to %s" % FRAMES[slot].hex())
        self.games = games.count(0x7F)
        return self


def _line(what, t):
    us = sorted(x[0] for x in t)
    worst = max(t)
    return ("SAS %s answer time (poll landing just after the SAS read -> first byte out), %d polls:"
            " min %d us, median %d us, max %d us" % (what, len(us), us[0], us[len(us) // 2], us[-1]),
            worst)


def report(root, log, timed):
    """Checks the session's SAS log and prints the SAS figures; returns 1
    when an answer was wrong or missing."""
    c = Check(root).read(log)
    if timed:
        worst = None
        for k, what in ((1, "long poll"), (0, "general poll")):
            if c.times[k]:
                text, w = _line(what, c.times[k])
                print(text)
                worst = w if worst is None or w > worst else worst
        if worst is not None:
            print("SAS worst answer: %d us to poll %02X (I2C display time included: %d us);"
                  " budget: every answer starts within %d us (SAS 6.02 2.3)%s" % (
                      worst[0], worst[2], worst[1], BUDGET_US,
                      "" if worst[0] <= BUDGET_US else ": OVER BUDGET"))
        own = sorted(x[0] for x in c.times[2])
        if own:
            print("SAS long poll 0F/1C own work (a SAS tick with the poll on the line, to the"
                  " answer's first byte: parse, meters, BCD, CRC): min %d us, median %d us, max %d us;"
                  " spec: start the answer within 20 ms" % (own[0], own[len(own) // 2], own[-1]))
        print("(%d measurements left out: the host OS ran other processes meanwhile,"
              " /proc/self/schedstat)" % c.dropped)
    print("SAS host%s: %d polls answered, %d not sent (the previous one unanswered); answers"
          " checked by the host: %d (%d meter polls equal to the cabinet's meters, %d games"
          " ended), %d wrong" % ("" if timed else " (untimed)", c.polls, c.skipped, c.checked,
                                 c.meter_polls, c.games, len(c.wrong)))
    for w in c.wrong:
        if w is not None:
            print("  SAS answer wrong: " + w)
    late = timed and any(x[0] > BUDGET_US for t in c.times[:2] for x in t)
    return 1 if c.wrong or c.polls < 0 or not c.checked or late else 0
