"""A strict SAS 6.02 frame decoder written from the protocol's tables, for
the tests: nothing here comes from firmware/sas (its own CRC, BCD, field
layouts and code tables), so an answer the firmware builds wrongly fails
here even when the firmware's encoder and parser agree with each other.

Sources, by table: long-poll layouts as the SAS 6.02 long-poll sections
give them (7.x meters and machine information, 8.x AFT 72/73/74, 12.x
real-time events, 15.x validation 4C/4D/50/70/71/7B/7C/7D), Table C-7
(meter codes and their minimum sizes), Table C-4 (denomination codes),
Tables 15.12c/15.12d (ticket transfer codes, redemption status), Table
15.13c (validation types), Tables 7.14c-f (A0 features), Table 8.3e (AFT
transfer status), Appendix A (exception codes).

decode(poll, answer) -> dict of named fields, or raises Bad saying why.
"""


import os
import sys

# the host side's bit-by-bit CRC-16/KERMIT (the SAS bench host's), not firmware/sas's
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tools"))
from bench_sas_host import kermit as crc  # noqa: E402


class Bad(AssertionError):
    pass


def with_crc(body):
    c = crc(bytes(body))
    return bytes(body) + bytes((c & 0xFF, c >> 8))


def bcd(value, n):
    s = "%0*d" % (2 * n, value)
    if len(s) > 2 * n:
        raise ValueError("%d does not fit %d BCD bytes" % (value, n))
    return bytes(int(s[i:i + 2], 16) for i in range(0, 2 * n, 2))


def unbcd(data):
    s = "".join("%02x" % b for b in data)
    if not s.isdigit():
        raise Bad("not BCD: %s" % bytes(data).hex())
    return int(s) if s else 0


# Appendix A: the exception codes a gaming machine reports on a general poll
EXCEPTIONS = {
    0x00: "no activity", 0x11: "slot door opened", 0x12: "slot door closed",
    0x13: "drop door opened", 0x14: "drop door closed", 0x15: "card cage opened",
    0x16: "card cage closed", 0x17: "AC power applied", 0x18: "AC power lost",
    0x19: "cash box door opened", 0x1A: "cash box door closed", 0x1B: "cash box removed",
    0x1C: "cash box installed", 0x20: "general tilt", 0x27: "cash box full",
    0x28: "bill jam", 0x29: "bill acceptor hardware failure", 0x31: "RAM error, recovered",
    0x32: "RAM error, not recovered", 0x3A: "memory error reset",
    0x3B: "low backup battery", 0x3C: "operator changed options",
    0x3D: "cash out ticket printed", 0x3E: "handpay validated",
    0x3F: "validation ID not configured", 0x47: "$1 bill", 0x48: "$5 bill",
    0x49: "$10 bill", 0x4A: "$20 bill", 0x4B: "$50 bill", 0x4C: "$100 bill",
    0x4D: "$2 bill", 0x4E: "$500 bill", 0x4F: "bill accepted", 0x50: "$200 bill",
    0x51: "handpay pending", 0x52: "handpay reset", 0x57: "system validation request",
    0x60: "printer communication error", 0x61: "printer paper out",
    0x66: "cash out button pressed", 0x67: "ticket inserted", 0x68: "ticket transfer complete",
    0x69: "AFT transfer complete", 0x6A: "AFT request for host cashout",
    0x6F: "game locked", 0x70: "exception buffer overflow", 0x74: "printer paper low",
    0x75: "printer power off", 0x76: "printer power on",
    0x7E: "game started", 0x7F: "game ended", 0x84: "operator menu entered",
    0x85: "operator menu exited",
}

# real-time event data (12.x): exception -> fields after the code
RTE_DATA = {
    0x4F: (("country", "bin", 1), ("denomination", "bin", 1), ("count", "bcd", 4)),
    0x7E: (("wagered", "bcd", 2), ("coin_in", "bcd", 4), ("wager_type", "bin", 1),
           ("progressive_group", "bin", 1)),
    0x7F: (("win", "bcd", 4),),
}

# Table C-4: denomination code -> cents
DENOMINATIONS = {0x01: 1, 0x02: 5, 0x03: 10, 0x04: 25, 0x05: 50, 0x06: 100, 0x07: 500,
                 0x08: 1000, 0x09: 2000, 0x0A: 10000}

# Table C-7 meters whose minimum size is 5 BCD bytes (the cent meters)
_FIVE = set([0x0D, 0x0E, 0x0F, 0x10] + list(range(0x80, 0x94, 2)) + list(range(0xA0, 0xBE, 2)))


def meter_size(code):
    """Table C-7's minimum size of a meter in long poll 2F."""
    return 5 if code in _FIVE else 4


# Table 15.13c validation types
VALIDATION_TYPES = (0x00, 0x01, 0x02, 0x03, 0x04, 0x10, 0x20, 0x40, 0x60, 0x80, 0x81, 0x82)
# Table 15.12d redemption (machine) status
REDEMPTION_STATUS = (0x00, 0x01, 0x02, 0x20, 0x40, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86,
                     0x87, 0x88, 0x89, 0x8A, 0x8B, 0xC0, 0xFF)
# Table 8.3e AFT transfer status
AFT_STATUS = (0x00, 0x01, 0x40, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
              0x8A, 0x8B, 0x8C, 0x8D, 0x8E, 0x8F, 0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x9F,
              0xC0, 0xC1, 0xFF)

# fixed-length answers: command -> fields after address and command
_M4 = ("bcd", 4)
FIXED = {
    0x0F: (("cancelled",) + _M4, ("coin_in",) + _M4, ("coin_out",) + _M4, ("drop",) + _M4,
           ("jackpot",) + _M4, ("games",) + _M4),
    0x10: (("cancelled",) + _M4,), 0x11: (("coin_in",) + _M4,), 0x12: (("coin_out",) + _M4,),
    0x13: (("drop",) + _M4,), 0x14: (("jackpot",) + _M4,), 0x15: (("games",) + _M4,),
    0x16: (("won",) + _M4,), 0x17: (("lost",) + _M4,), 0x1A: (("credits",) + _M4,),
    0x18: (("since_power", "bcd", 2), ("since_door", "bcd", 2)),
    0x19: (("coin_in",) + _M4, ("coin_out",) + _M4, ("drop",) + _M4, ("jackpot",) + _M4,
           ("games",) + _M4),
    0x1B: (("group", "bin", 1), ("level", "bin", 1), ("amount", "bcd", 5),
           ("partial", "bcd", 2), ("reset_id", "bin", 1), ("unused", "zero", 10)),
    0x1C: (("coin_in",) + _M4, ("coin_out",) + _M4, ("drop",) + _M4, ("jackpot",) + _M4,
           ("games",) + _M4, ("won",) + _M4, ("door_opens",) + _M4, ("power_resets",) + _M4),
    0x1E: (("bills_1",) + _M4, ("bills_5",) + _M4, ("bills_10",) + _M4, ("bills_20",) + _M4,
           ("bills_50",) + _M4, ("bills_100",) + _M4),
    0x1F: (("game_id", "ascii", 2), ("additional_id", "ascii", 3), ("denomination", "bin", 1),
           ("max_bet", "bin", 1), ("progressive_group", "bin", 1), ("options", "bin", 2),
           ("paytable", "ascii", 6), ("base_percent", "ascii", 4)),
    0x20: (("bill_dollars",) + _M4,),
    0x48: (("country", "bin", 1), ("denomination", "bin", 1), ("count",) + _M4),
    0x4C: (("validation_id", "bin", 3), ("sequence", "bin", 3)),
    0x4D: (("type", "bin", 1), ("index", "bin", 1), ("date", "bcd", 4), ("time", "bcd", 3),
           ("validation", "bcd", 8), ("amount", "bcd", 5), ("ticket_number", "bin", 2),
           ("system_id", "bcd", 1), ("expiration", "bcd", 4), ("pool", "bin", 2)),
    0x50: (("type", "bin", 1), ("count",) + _M4, ("amount", "bcd", 5)),
    0x51: (("games", "bcd", 2),),
    0x53: (("game", "bcd", 2), ("game_id", "ascii", 2), ("additional_id", "ascii", 3),
           ("denomination", "bin", 1), ("max_bet", "bin", 1), ("progressive_group", "bin", 1),
           ("options", "bin", 2), ("paytable", "ascii", 6), ("base_percent", "ascii", 4)),
    0x55: (("game", "bcd", 2),),
    0x57: (("status", "bin", 1), ("amount", "bcd", 5)),
    0x58: (("status", "bin", 1),),
    0x7C: (("flag", "bin", 1),),
    0x7D: (("flag", "bin", 1),),
    0x7E: (("date", "bcd", 4), ("time", "bcd", 3)),
    0x94: (("ack", "bin", 1),),
    0xA0: (("game", "bcd", 2), ("features1", "bin", 1), ("features2", "bin", 1),
           ("features3", "bin", 1), ("features4", "bin", 1), ("reserved", "zero", 2)),
    0xA8: (("ack", "bin", 1),),
}

# long polls whose answer is the address alone (an ACK) or address | 80 (NACK)
ACK_ONLY = (0x01, 0x02, 0x06, 0x07, 0x0E, 0x7F)


def _fields(spec, data, at, out):
    for name, kind, n in spec:
        part = data[at:at + n]
        if len(part) != n:
            raise Bad("%s: %d bytes, %d wanted" % (name, len(part), n))
        if kind == "bcd":
            out[name] = unbcd(part)
        elif kind == "bin":
            out[name] = int.from_bytes(part, "little")
        elif kind == "ascii":
            if not all(32 <= c < 127 for c in part):
                raise Bad("%s: not ASCII %s" % (name, part.hex()))
            out[name] = part.decode()
        elif kind == "zero":
            if any(part):
                raise Bad("%s: must be zero, %s" % (name, part.hex()))
        at += n
    return at


def _check_date(out, key="date"):
    d = out[key]
    mo, day, y = d // 1000000, d // 10000 % 100, d % 10000
    if d and not (1 <= mo <= 12 and 1 <= day <= 31 and 2000 <= y <= 2099):
        raise Bad("%s %08d is not MMDDYYYY" % (key, d))


def decode(poll, answer):
    """The answer to `poll` (both bytes as on the line, CRCs included),
    field by field; raises Bad at the first thing the tables do not allow."""
    poll = bytes(poll)
    a = bytes(answer)
    if len(poll) == 1:                       # a general poll
        return _general(poll[0] & 0x7F, a)
    addr, cmd = poll[0], poll[1]
    if len(a) >= 5 and a[0] == addr and a[1] == 0xFF:
        # real-time event reporting: an event pending goes before the long
        # poll's answer (12.3); the host sends the long poll again (12.4)
        return _general(addr, a)
    if cmd in ACK_ONLY:
        if a == bytes((addr,)):
            return {"ack": True}
        if a == bytes((addr | 0x80,)):
            return {"ack": False}
        raise Bad("long poll %02X: answer %s is neither ACK nor NACK" % (cmd, a.hex()))
    if len(a) == 1 and a[0] == addr | 0x80:
        return {"ack": False}                # a NACK: bad data in the poll
    if len(a) < 4 or a[0] != addr or a[1] != cmd:
        raise Bad("long poll %02X: answer %s" % (cmd, a.hex()))
    if crc(a) != 0:
        raise Bad("long poll %02X: bad CRC %s" % (cmd, a.hex()))
    body = a[2:-2]
    out = {"cmd": cmd}
    if cmd in FIXED:
        end = _fields(FIXED[cmd], body, 0, out)
        if end != len(body):
            raise Bad("long poll %02X: %d bytes, the table has %d" % (cmd, len(body), end))
        _extra(cmd, poll, out)
        return out
    special = _SPECIAL.get(cmd)
    if special is None:
        raise Bad("long poll %02X: no table for it here" % cmd)
    special(poll, body, out)
    return out


def _extra(cmd, poll, out):
    """Checks a fixed layout's values against the tables."""
    if cmd in (0x1F, 0x53):
        if out["denomination"] not in DENOMINATIONS:
            raise Bad("denomination code %02X not in Table C-4" % out["denomination"])
    if cmd == 0x1B and out["level"] not in (0x00, 0x40, 0x80) and not 1 <= out["level"] <= 32:
        raise Bad("1B level %02X" % out["level"])
    if cmd == 0x4D and out["date"]:              # all zeros: no validation record
        if out["type"] not in VALIDATION_TYPES:
            raise Bad("4D validation type %02X" % out["type"])
        _check_date(out)
    if cmd == 0x50 and out["type"] != poll[2]:
        raise Bad("50 answers type %02X to %02X" % (out["type"], poll[2]))
    if cmd == 0x7E:
        _check_date(out)


def _general(addr, a):
    if len(a) == 1:
        if a[0] not in EXCEPTIONS:
            raise Bad("general poll: %02X is not an exception code" % a[0])
        return {"exception": a[0]}
    # real-time event reporting: address, FF, code, data, CRC
    if len(a) < 5 or a[0] != addr or a[1] != 0xFF or crc(a) != 0:
        raise Bad("general poll: answer %s" % a.hex())
    code = a[2]
    if code not in EXCEPTIONS:
        raise Bad("RTE: %02X is not an exception code" % code)
    out = {"exception": code, "rte": True}
    end = _fields(RTE_DATA.get(code, ()), a[3:-2], 0, out)
    if end != len(a) - 5:
        raise Bad("RTE %02X: %d data bytes, the table has %d" % (code, len(a) - 5, end))
    return out


def _length(body):
    if not body or body[0] != len(body) - 1:
        raise Bad("length byte %s for %d bytes" % (body[:1].hex(), len(body) - 1))
    return body[1:]


def _selected(poll, body, out):
    """2F: game, then code (1) and value (Table C-7 size); 6F/AF: code (2),
    size (1), value."""
    wide = poll[1] != 0x2F
    data = _length(body)
    out["game"] = unbcd(data[:2])
    meters = {}
    asked = poll[5:-2]
    step = 2 if wide else 1
    codes = [asked[i] | (asked[i + 1] << 8 if wide else 0) for i in range(0, len(asked), step)]
    i = 2
    while i < len(data):
        if wide:
            code = data[i] | (data[i + 1] << 8)
            n = data[i + 2]
            i += 3
        else:
            code = data[i]
            n = meter_size(code)
            i += 1
        if code not in codes:
            raise Bad("meter %02X answered, not asked" % code)
        if code in meters:
            raise Bad("meter %02X twice" % code)
        if i + n > len(data):
            raise Bad("meter %02X cut short" % code)
        meters[code] = unbcd(data[i:i + n])
        i += n
    out["meters"] = meters


def _version(poll, body, out):
    n = body[0]
    if n != len(body) - 1 or n < 3:
        raise Bad("54 length %d for %d bytes" % (n, len(body) - 1))
    out["version"] = body[1:4].decode()
    out["serial"] = body[4:].decode("ascii")


def _games(poll, body, out):
    data = _length(body)
    n = data[0]
    if len(data) != 1 + 2 * n:
        raise Bad("56: %d games in %d bytes" % (n, len(data)))
    out["games"] = [unbcd(data[1 + 2 * i:3 + 2 * i]) for i in range(n)]


def _validation_data(poll, body, out):
    """70: status 00 (ticket in escrow, amount, parsing code, 9 BCD) or FF."""
    data = _length(body)
    out["status"] = data[0]
    if data[0] == 0xFF:
        if len(data) != 1:
            raise Bad("70 FF with data")
        return
    if data[0] != 0x00 or len(data) != 16:
        raise Bad("70: %s" % data.hex())
    out["amount"] = unbcd(data[1:6])
    if data[6] != 0x00:
        raise Bad("70 parsing code %02X" % data[6])
    out["validation"] = "%018d" % unbcd(data[7:16])


def _redeem(poll, body, out):
    """71: machine status, then (but for C0 and FF) amount, parsing code, 9 BCD."""
    data = _length(body)
    st = data[0]
    if st not in REDEMPTION_STATUS:
        raise Bad("71 status %02X not in Table 15.12d" % st)
    out["status"] = st
    if st in (0xC0, 0xFF):
        if len(data) != 1:
            raise Bad("71 %02X with data" % st)
        return
    if len(data) != 16 or data[6] != 0x00:
        raise Bad("71: %s" % data.hex())
    out["amount"] = unbcd(data[1:6])
    out["validation"] = "%018d" % unbcd(data[7:16])


def _ext_validation(poll, body, out):
    data = _length(body)
    if len(data) != 10:
        raise Bad("7B: %d bytes" % len(data))
    out["asset"] = int.from_bytes(data[0:4], "little")
    out["status_bits"] = int.from_bytes(data[4:6], "little")
    out["cashable_days"] = unbcd(data[6:8])
    out["restricted_days"] = unbcd(data[8:10])


def _aft_transfer(poll, body, out):
    data = _length(body)
    out["index"] = data[0]
    st = out["status"] = data[1]
    if st not in AFT_STATUS:
        raise Bad("72 status %02X not in Table 8.3e" % st)
    if len(data) == 2:
        return
    out["receipt"] = data[2]
    if len(data) == 3:
        return
    out["type"] = data[3]
    out["cashable"] = unbcd(data[4:9])
    out["restricted"] = unbcd(data[9:14])
    out["nonrestricted"] = unbcd(data[14:19])
    out["flags"] = data[19]
    out["asset"] = int.from_bytes(data[20:24], "little")
    n = data[24]
    if not 1 <= n <= 20:
        raise Bad("72 transaction ID length %d" % n)
    out["transaction"] = data[25:25 + n].decode("ascii")
    i = 25 + n
    out["date"] = unbcd(data[i:i + 4])
    out["time"] = unbcd(data[i + 4:i + 7])
    out["expiration"] = unbcd(data[i + 7:i + 11])
    out["pool"] = int.from_bytes(data[i + 11:i + 13], "little")
    i += 13
    cum = []
    for _ in range(3):
        n = data[i]
        if n > 9:
            raise Bad("72 cumulative meter of %d bytes" % n)
        cum.append(unbcd(data[i + 1:i + 1 + n]) if n else None)
        i += 1 + n
    out["cumulative"] = cum
    if i != len(data):
        raise Bad("72: %d bytes left over" % (len(data) - i))
    _check_date(out)


def _aft_register(poll, body, out):
    data = _length(body)
    if len(data) != 29:
        raise Bad("73: %d bytes" % len(data))
    out["status"] = data[0]
    if data[0] not in (0x00, 0x01, 0x40, 0x80):
        raise Bad("73 registration status %02X" % data[0])
    out["asset"] = int.from_bytes(data[1:5], "little")
    out["key"] = data[5:25]
    out["pos"] = int.from_bytes(data[25:29], "little")


def _aft_lock(poll, body, out):
    data = _length(body)
    if len(data) != 0x23:
        raise Bad("74: %d bytes" % len(data))
    out["asset"] = int.from_bytes(data[0:4], "little")
    out["lock"] = data[4]
    if data[4] not in (0x00, 0x40, 0xFF):
        raise Bad("74 lock status %02X" % data[4])
    out["available"] = data[5]
    out["host_cashout"] = data[6]
    out["aft_status"] = data[7]
    out["max_index"] = data[8]
    out["cashable"] = unbcd(data[9:14])
    out["restricted"] = unbcd(data[14:19])
    out["nonrestricted"] = unbcd(data[19:24])
    out["limit"] = unbcd(data[24:29])
    out["restricted_expiration"] = unbcd(data[29:33])
    out["pool"] = int.from_bytes(data[33:35], "little")


_SPECIAL = {0x2F: _selected, 0x6F: _selected, 0xAF: _selected, 0x54: _version,
            0x56: _games, 0x70: _validation_data, 0x71: _redeem, 0x7B: _ext_validation,
            0x72: _aft_transfer, 0x73: _aft_register, 0x74: _aft_lock}
