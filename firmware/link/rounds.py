"""The dome's round journal: every round's number, who was in it, the dice,
re-shakes and voids, the shooter, kept across power cuts in the project's
journal (firmware/store/journal.py) over the dome's own flash region.

Like the station's store: a record is applied to the state first (a
refusal writes nothing), then committed, and only then acted on (the
shake, the result sent). A boot rebuilds the state from the newest
snapshot and the records after it. Pure: the block device and the times
come in. Records are `type u8 | time u32 | fields`, little-endian
(firmware/link/LINK.md, "The round journal").
"""
import struct
from micropython import const
from firmware.store import journal as J

TABLE = const(1)     # table id u32: a new table (first boot, RAM clear)
ROUND = const(2)     # round u32, roster u8, shooter u8: bets closed, who is in
REROLL = const(3)    # round u32, why u8: re-shake (cocked die, dice did not move)
RESULT = const(4)    # round u32, d1 u8, d2 u8, next shooter u8
VOID = const(5)      # round u32, why u8 (messages.VOID_*)
SHOOTER = const(6)   # shooter u8, why u8: the dice pass between rounds
LOCK = const(7)      # code u8: malfunction / shaker lockup (the table stops)
RESET = const(8)     # the attendant's reset of that lock

_FMT = {TABLE: "<BII", ROUND: "<BIIBB", REROLL: "<BIIB", RESULT: "<BIIBBB",
        VOID: "<BIIB", SHOOTER: "<BIBB", LOCK: "<BIB", RESET: "<BI"}

CAPACITY = const(128)   # rounds kept for recall and for stations catching up
# one finished round: round, time, roster, d1, d2, why, rerolls, shooter
# after it, flags (PASSED: the dice passed at this round), turn after it
_ENTRY = "<IIBBBBBBBH"
_ENTRY_SIZE = const(17)
PASSED = const(1)
_STATE = "<BIIBBBBBBHHBBB"   # version, tid, round, open, roster, rerolls,
#   cocked run, stuck run, shooter, turn, shooter's rolls, point, lock, count
_VERSION = const(1)
MAX_SNAPSHOT = const(4096)
_SEAT_MAX = const(8)


def pack(t, time, *fields):
    return struct.pack(_FMT[t], t, time, *fields)


def unpack(payload):
    fmt = _FMT.get(payload[0]) if payload else None
    if fmt is None or len(payload) != struct.calcsize(fmt):
        return None
    return struct.unpack(fmt, payload)


def next_shooter(cur, occupied):
    """The next occupied seat after `cur` (the dice pass clockwise: rising
    addresses, then round again), `cur` itself if it is the only one, 0 if
    none is occupied. occupied: bit s set for seat s."""
    for i in range(1, _SEAT_MAX + 1):
        s = (cur + i - 1) % _SEAT_MAX + 1
        if occupied & (1 << (s - 1)):
            return s
    return 0


class Rounds:
    """The state the records fold into (see LINK.md): the newest round and
    whether it is open (closed for bets, no outcome yet), the shooter, the
    table's point (for the seven-out), the lock, and the last CAPACITY
    finished rounds."""

    def __init__(self):
        self.tid = 0
        self.round = 0          # newest round started (0: none yet)
        self.open = False       # that round has no outcome yet
        self.roster = 0         # its stations (bit s = seat s)
        self.rerolls = 0
        self.cocked_run = 0
        self.stuck_run = 0
        self.shooter = 0
        self.turn = 0           # shooters so far: changes each time the dice pass
        self.rolls = 0          # rolls of this shooter
        self.point = 0
        self.lock = 0
        self.ring = bytearray(CAPACITY * _ENTRY_SIZE)
        self.count = 0          # finished rounds in the ring (<= CAPACITY)
        self.start = 0          # slot of the oldest

    # ---- queries ---------------------------------------------------------
    def find(self, rnd):
        """The finished round `rnd` as (round, time, roster, d1, d2, why,
        rerolls, shooter, flags, turn), or None when the ring does not hold
        it (not finished, never run, older than CAPACITY rounds)."""
        if not self.count:
            return None
        newest = self.entry(0)
        back = newest[0] - rnd
        if back < 0 or back >= self.count:
            return None
        e = self.entry(back)
        return e if e[0] == rnd else None

    def entry(self, back):
        """The finished round `back` rounds before the newest (0 = newest)."""
        slot = (self.start + self.count - 1 - back) % CAPACITY
        return struct.unpack_from(_ENTRY, self.ring, slot * _ENTRY_SIZE)

    def _finish(self, time, d1, d2, why, shooter, flags):
        if self.count == CAPACITY:
            self.start = (self.start + 1) % CAPACITY
        else:
            self.count += 1
        slot = (self.start + self.count - 1) % CAPACITY
        struct.pack_into(_ENTRY, self.ring, slot * _ENTRY_SIZE, self.round, time, self.roster,
                         d1, d2, why, self.rerolls, shooter, flags, self.turn)
        self.open = False
        self.rerolls = 0
        self.cocked_run = 0
        self.stuck_run = 0

    # ---- the reducer -----------------------------------------------------
    def apply(self, payload):
        """Folds one record in; False (nothing changed) when it does not
        fit the state: such a record is never committed."""
        f = unpack(payload)
        if f is None:
            return False
        t, time = f[0], f[1]
        if t == TABLE:
            self.__init__()
            self.tid = f[2]
            return True
        if t == ROUND:
            if self.open or f[2] <= self.round:
                return False
            self.round, self.roster = f[2], f[3]
            self.open = True
            return True
        if t == SHOOTER:
            if self.open or f[2] > _SEAT_MAX:
                return False
            self._pass(f[2])
            return True
        if t == LOCK:
            self.lock = f[2]
            return True
        if t == RESET:
            if not self.lock:
                return False
            self.lock = 0
            return True
        if not self.open or f[2] != self.round:
            return False
        if t == REROLL:
            self.rerolls += 1
            if f[3] == 1:
                self.cocked_run += 1
            else:
                self.stuck_run += 1
            return True
        if t == VOID:
            self._finish(time, 0, 0, f[3], self.shooter, 0)
            return True
        d1, d2, nxt = f[3], f[4], f[5]   # RESULT
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6) or nxt > _SEAT_MAX:
            return False
        total = d1 + d2
        p = self.point
        if p == 0:
            if total in (4, 5, 6, 8, 9, 10):
                self.point = total
        elif total == p or total == 7:
            self.point = 0
        self.rolls += 1
        passed = nxt != self.shooter
        if passed:
            self._pass(nxt)
        self._finish(time, d1, d2, 0, nxt, PASSED if passed else 0)
        return True

    def _pass(self, s):
        self.shooter = s
        self.turn = (self.turn + 1) & 0xFFFF
        self.rolls = 0

    # ---- snapshot ----------------------------------------------------------
    def encode(self):
        head = struct.pack(_STATE, _VERSION, self.tid, self.round, self.open, self.roster,
                           self.rerolls, self.cocked_run, self.stuck_run, self.shooter,
                           self.turn, self.rolls, self.point, self.lock, self.count)
        out = bytearray(head)
        for back in range(self.count - 1, -1, -1):
            slot = (self.start + self.count - 1 - back) % CAPACITY
            out += self.ring[slot * _ENTRY_SIZE:(slot + 1) * _ENTRY_SIZE]
        return bytes(out)

    def load(self, data):
        size = struct.calcsize(_STATE)
        if len(data) < size or data[0] != _VERSION:
            return False
        v = struct.unpack_from(_STATE, data, 0)
        count = v[13]
        if count > CAPACITY or len(data) != size + count * _ENTRY_SIZE:
            return False
        (_, self.tid, self.round, is_open, self.roster, self.rerolls, self.cocked_run,
         self.stuck_run, self.shooter, self.turn, self.rolls, self.point, self.lock, _) = v
        self.open = bool(is_open)
        self.ring[:count * _ENTRY_SIZE] = data[size:]
        self.count = count
        self.start = 0
        return True


class RoundLog:
    """Rounds kept in step with the journal: commit() applies a record and
    journals it; boot() rebuilds from flash. `critical` (with `reason`)
    when the journal failed its checks (no good copy, a snapshot or records
    that do not load, no room): the dome then starts no round until the
    technician clears it (RAM clear: a new table id; every station's open
    round becomes an attendant void). Any other exception (no memory, a
    flash device error) is a passing fault: `restart_reason`, and the shell
    restarts the dome; its journal is intact."""

    def __init__(self, dev, pause=None):
        self.journal = J.Journal(dev, max_snapshot=MAX_SNAPSHOT)
        self.journal.pause = pause
        self.rounds = Rounds()
        self.critical = False
        self.reason = ""
        self.restart_reason = ""

    def boot(self, new_tid):
        """Mounts and replays; a blank region becomes a new table with the
        id new_tid() gives. Returns the journal's status."""
        j = self.journal
        try:
            status = j.mount()
            if status == J.CRITICAL:
                return self._fail("round journal: no good copy")
            r = Rounds()
            if j.base_type == J.T_SNAPE and not r.load(j.snapshot()):
                return self._fail("round journal: snapshot does not load")
            bad = [0]

            def replay(payload):
                if not r.apply(payload):
                    bad[0] += 1
            j.replay(replay)
            j.release()
            if bad[0]:
                return self._fail("round journal: records do not replay")
            self.rounds = r
            if status == J.EMPTY:
                j.write_snapshot(r.encode())
            if not r.tid:
                self.commit(pack(TABLE, 0, new_tid()))
        except Exception as e:  # noqa: BLE001 - whatever it is: stopped, never a crash
            return self._fail("round journal", e)
        return J.CRITICAL if self.critical else status

    def stopped(self):
        """True when nothing may be committed or acted on."""
        return self.critical or bool(self.restart_reason)

    def _fail(self, why, e=None):
        """Stops the log: CRITICAL when the journal refused (its checks, `e`
        None, or its own errors), else a passing fault a restart clears."""
        if e is not None:
            why = "%s: %s %s" % (why, type(e).__name__, e)
        if e is None or J.refused(e):
            self.critical = True
            self.reason = why
        elif not self.restart_reason:
            self.restart_reason = why
        return J.CRITICAL

    def commit(self, payload):
        """Applies and journals one record: True once it is in flash."""
        if self.stopped():
            return False
        j = self.journal
        try:
            j.make_room(self.rounds.encode)
        except Exception as e:  # noqa: BLE001
            self._fail("snapshot", e)
            return False
        if not self.rounds.apply(payload):
            return False
        try:
            j.append(payload)
        except Exception as e:  # noqa: BLE001
            # RAM is ahead of flash: act on nothing until a restart
            self._fail("append", e)
            return False
        return True

    def ram_clear(self, now, tid):
        """A new table: the journal formatted, a new id (stations with a
        round of the old table open get it voided by their attendant)."""
        try:
            self.journal.format(self.critical)
        except Exception as e:  # noqa: BLE001
            return self._fail("RAM clear", e)
        self.rounds = Rounds()
        self.critical = False
        self.reason = ""
        self.commit(pack(TABLE, now, tid))
        return J.EMPTY
