"""The ledger's snapshot loader: boot only, so the store imports it for the
load and forgets it after, and its code is not on the heap during play.

The snapshot comes as the journal's chunks (Journal.chunks(): memoryviews
valid until the next one) in the layout of Ledger.pieces(), and is read a
part at a time, the recall a game at a time: never one block the size of
the state (issue 10: after the replay of a full journal the rp2 heap had
160 KB free and no 16 KB in one piece). Part of the ledger: it fills the
ledger's fields from the formats ledger.py writes.
"""
import struct
from micropython import const
from firmware.rules import reasons as R
from firmware.rules.table import Table
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.store.rare_records import parse   # (the replay loads it too)

_BAD = const(-1)


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
    L.OLD_FORMAT: a previous release's snapshot, not read; -1: malformed
    (that ledger must not be used then)."""
    try:
        return _load(led, _Reader(chunks))
    except Exception:
        return _BAD


def _load(led, rd):
    ver = rd.read(1)[0]
    if ver != L.SNAP_VERSION:
        return L.OLD_FORMAT if ver == L.OLD_FORMAT else _BAD
    sizes = struct.unpack("<7I", rd.read(28))
    misc, cfg, hist, table, meters = [rd.read(n) for n in sizes[:5]]
    config = C.defaults()
    for line in cfg.decode().split("\n"):
        key, _, text = line.partition("=")
        ok, value = parse(key, text)
        if ok:
            config[key] = value
    led.config = config
    led.table = Table(led._profile())
    if not led.table.load(table) or not led.recall.load(rd, sizes[5]) \
            or not led.events.load(rd.read(sizes[6])) or not rd.done():
        return _BAD
    led.meters.load(meters)
    base = struct.calcsize(L._MISC)
    (led.phase, led.lock, door, tilt, audit, led.cocked_run, led.stuck_run,
     led.rerolls, led.lock_arg, led.credits_at_close, led.game_no) = \
        struct.unpack_from(L._MISC, misc, 0)
    flight = base + struct.calcsize(L._FLIGHT)
    if len(misc) >= flight:
        p0, p1, led.ticket, led.ticket_no = struct.unpack_from(L._FLIGHT, misc, base)
        led.pulses = [p0, p1]
    sas = flight + struct.calcsize(L._MISC_SAS)
    if len(misc) >= sas:
        led.host, led.sas_ack, led.val_id, led.val_seq = \
            struct.unpack_from(L._MISC_SAS, misc, flight)
    esc = sas + struct.calcsize(L._MISC_ESC)
    if len(misc) >= esc:
        led.escrow = struct.unpack_from(L._MISC_ESC, misc, sas)[0]
    if len(misc) == esc + struct.calcsize(L._MISC_TKT):
        led.ticket_last = struct.unpack_from(L._MISC_TKT, misc, esc)[0]
    elif len(misc) not in (base, flight, sas, esc):
        return _BAD
    led.door_open, led.tilt, led.audit = bool(door), bool(tilt), bool(audit)
    led.conf_history = []
    for line in hist.decode().split("\n"):
        if line:
            t, i, old, new = line.split(" ", 3)
            led.conf_history.append((int(t), int(i), old, new))
    return R.OK
