"""The ledger's snapshot codec: pieces() writes a Ledger's state, load() reads
it back into a new one. The layout is defined here and nowhere else.

Neither side ever needs the state in one block: pieces() hands the journal a
list of pieces that it copies a chunk at a time, and load() reads the
journal's chunks (Journal.chunks(): memoryviews valid until the next one) a
part at a time, the recall a game at a time. After the replay of a full
journal a fragmented heap may have room but no block the size of the state.
"""
import struct
from micropython import const
from firmware.rules import reasons as R
from firmware.rules.table import Table
from firmware.store import config as C

VERSION = const(2)
OLD_FORMAT = const(1)   # the release that counted whole dollars: refused
_BAD = const(-1)
_MISC = "<BBBBBBBIQQI"
# The later parts of misc, each appended by a later release (a snapshot
# without one loads with its fields at 0): bill and coin pulses, pending
# ticket amount and its validation number ...
_FLIGHT = "<IIQQ"
# ... host flags, SAS acknowledged event, validation ID and sequence ...
_MISC_SAS = "<BIII"
# ... the bill pending in escrow (cents) ...
_MISC_ESC = "<I"
# ... the validation number of the newest printed ticket (SAS 4D works it out
# from the ID and sequence when it is 0) ...
_MISC_TKT = "<Q"
# ... the ticket in: its number, cents, step and status (firmware/store/ticket_in.py)
_MISC_TIN = "<QIBB"
# ... at a table's station: its newest closed round, its table id, the
# shooter turn it follows (firmware/store/seat_records.py)
_MISC_SEAT = "<IIH"
# ... the AFT transfer history (firmware/store/aft.py), then the SAS 4D
# validation records (firmware/store/validations.py), each its count and the
# entries used (firmware/store/ring.py)


def pieces(led):
    """Ledger `led` as a list of pieces whose concatenation is the snapshot."""
    cfg = "\n".join("%s=%s" % (c[0], led.config[c[0]]) for c in C.CONFIG).encode()
    hist = "\n".join("%d %d %s %s" % h for h in led.conf_history).encode()
    misc = struct.pack(_MISC, led.phase, led.lock, led.door_open, led.tilt,
                       led.audit, led.cocked_run, led.stuck_run, led.rerolls,
                       led.lock_arg, led.credits_at_close, led.game_no) + \
        struct.pack(_FLIGHT, led.pulses[0], led.pulses[1], led.ticket, led.ticket_no)
    misc += struct.pack(_MISC_SAS, led.host, led.sas_ack, led.val_id, led.val_seq)
    misc += struct.pack(_MISC_ESC, led.escrow) + struct.pack(_MISC_TKT, led.ticket_last)
    misc += struct.pack(_MISC_TIN, led.tin_number, led.tin_amount, led.tin_step, led.tin_status)
    misc += struct.pack(_MISC_SEAT, led.round, led.tid, led.turn)
    for p in led.aft.pieces() + led.validations.pieces():
        misc += p
    out = [None, misc, cfg, hist, led.table.encode(), led.meters.encode()]
    sizes = [len(p) for p in out[1:]]
    for more in (led.recall.pieces(), led.events.pieces()):
        n = 0
        for p in more:
            n += len(p)
        sizes.append(n)
        out.extend(more)
    out[0] = struct.pack("<B7I", VERSION, *sizes)
    return out


class _Reader:
    """Each read copies out what it needs from the chunks, so nothing the
    size of the whole snapshot is ever allocated."""

    def __init__(self, chunks):
        self._it = iter(chunks)
        self._cur = b""
        self._pos = 0

    def read(self, n):
        out = bytearray(n)
        f = 0
        while f < n:
            if self._pos == len(self._cur):
                self._cur = next(self._it)  # none left: malformed
                self._pos = 0
            k = min(n - f, len(self._cur) - self._pos)
            out[f:f + k] = self._cur[self._pos:self._pos + k]
            f += k
            self._pos += k
        return out

    def done(self):
        """True if nothing is left unread (this also runs the journal's
        chunk iterator to its end, where it checks the CRC)."""
        left = len(self._cur) - self._pos
        for p in self._it:
            left += len(p)
        return left == 0


def load(led, chunks):
    """Restores `led`, a new Ledger, from a snapshot's chunks. R.OK;
    OLD_FORMAT: a previous release's snapshot, not read; -1: malformed
    (that ledger must not be used then)."""
    try:
        return _load(led, _Reader(chunks))
    except Exception:
        return _BAD


def _load(led, rd):
    ver = rd.read(1)[0]
    if ver != VERSION:
        return OLD_FORMAT if ver == OLD_FORMAT else _BAD
    sizes = struct.unpack("<7I", rd.read(28))
    misc, cfg, hist, table, meters = [rd.read(n) for n in sizes[:5]]
    config = C.defaults()
    for line in cfg.decode().split("\n"):
        key, _, text = line.partition("=")
        ok, value = C.parse(key, text)
        if ok:
            config[key] = value
    led.config = config
    led.table = Table(led._profile())
    if not led.table.load(table) or not led.recall.load(rd, sizes[5]) \
            or not led.events.load(rd.read(sizes[6])) or not rd.done():
        return _BAD
    led.meters.load(meters)
    base = struct.calcsize(_MISC)
    (led.phase, led.lock, door, tilt, audit, led.cocked_run, led.stuck_run,
     led.rerolls, led.lock_arg, led.credits_at_close, led.game_no) = \
        struct.unpack_from(_MISC, misc, 0)
    flight = base + struct.calcsize(_FLIGHT)
    if len(misc) >= flight:
        p0, p1, led.ticket, led.ticket_no = struct.unpack_from(_FLIGHT, misc, base)
        led.pulses = [p0, p1]
    sas = flight + struct.calcsize(_MISC_SAS)
    if len(misc) >= sas:
        led.host, led.sas_ack, led.val_id, led.val_seq = \
            struct.unpack_from(_MISC_SAS, misc, flight)
    esc = sas + struct.calcsize(_MISC_ESC)
    if len(misc) >= esc:
        led.escrow = struct.unpack_from(_MISC_ESC, misc, sas)[0]
    tkt = esc + struct.calcsize(_MISC_TKT)
    if len(misc) >= tkt:
        led.ticket_last = struct.unpack_from(_MISC_TKT, misc, esc)[0]
    tin = tkt + struct.calcsize(_MISC_TIN)
    if len(misc) >= tin:
        led.tin_number, led.tin_amount, led.tin_step, led.tin_status = \
            struct.unpack_from(_MISC_TIN, misc, tkt)
    seat = tin + struct.calcsize(_MISC_SEAT)
    if len(misc) >= seat:
        led.round, led.tid, led.turn = struct.unpack_from(_MISC_SEAT, misc, tin)
    if len(misc) > seat:
        at = led.aft.load(misc, seat)
        if at < 0 or (at < len(misc) and led.validations.load(misc, at) != len(misc)):
            return _BAD
    elif len(misc) not in (base, flight, sas, esc, tkt, tin, seat):
        return _BAD
    led.door_open, led.tilt, led.audit = bool(door), bool(tilt), bool(audit)
    led.conf_history = []
    for line in hist.decode().split("\n"):
        if line:
            t, i, old, new = line.split(" ", 3)
            led.conf_history.append((int(t), int(i), old, new))
    return R.OK
