"""The store: the ledger kept in step with the flash journal.

Every change is a record: the ledger applies it first (a refusal writes
nothing), then the journal commits it, and only then may the caller act on
it (show a result, pay, accept the next bet). Recovery replays the same
records through the same ledger, so nothing is settled twice or lost.
"""
from firmware import forget
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import journal as J
from firmware.store.ledger import Ledger

OK = J.OK
REPAIRED = J.REPAIRED
EMPTY = J.EMPTY
CRITICAL = J.CRITICAL


# The designed maximum of Ledger.encode(): recall 100 games x (42-byte head +
# 24 bets x 11) = 30,600; event ring 256 x 9 = 2,304; configuration history
# 32 x (up to 2 x 80 characters + 15) = 5,600; configuration ~600; table,
# meters and the rest < 2,000. About 41 KB; 48 KiB leaves room. The journal
# keeps this much free so a snapshot always fits (issue 9: a 39.8 KB state
# outgrew the old 24 KiB and a cut snapshot then bricked the cabinet).
MAX_SNAPSHOT = 48 * 1024
# A region under 256 KiB (the 128 KiB boards of many tests) cannot reserve
# that and still hold records between snapshots; it keeps the old 24 KiB
# reserve, enough for every state short of a full layout with full recall.
SMALL_SNAPSHOT = 24 * 1024


class Store:
    def __init__(self, dev, pause=None, provision=None, urandom=None):
        self.dev = dev
        self.provision = provision  # hal.marker.Marker or None
        self.urandom = urandom      # n -> n random bytes (the board's; None: os.urandom)
        # no device (an ESP32 without its "journal" partition): boot() reports
        # CRITICAL and nothing can ever be committed or cleared
        self.journal = None
        if dev is not None:
            big = dev.ioctl(4, 0) >= 64
            self.journal = J.Journal(dev, max_snapshot=MAX_SNAPSHOT if big else SMALL_SNAPSHOT)
            self.journal.pause = pause
            # the mount's two 4 KB sector buffers before the ledger builds
            # its profile: that imports and drops the rule documents (~10 KB)
            # and leaves small holes where a 4 KB block would not fit (a
            # small heap's boot then failed there: README *Heap budget*);
            # mount() takes these, release() frees them after the replay
            self.journal._pair()
        self.ledger = Ledger()
        self._pristine = True   # nothing applied to self.ledger yet
        self.critical = False
        self.old_format = False  # the flash holds a previous release's dollars
        self.status = None
        self.reason = ""        # why the store is critical (screen, read-out)
        self._anchored = -1     # journal sector the anchor names (-1: not set)

    def boot(self, now):
        """Mounts the journal and rebuilds the state; logs the power-up.

        Returns OK, REPAIRED, EMPTY (no snapshot yet: one is taken now) or
        CRITICAL (no good copy: play stays locked until a RAM clear).
        """
        if not self._pristine:
            # A fresh ledger to rebuild into. The one __init__ made is still
            # untouched on the first boot: building another would only churn
            # the heap just before the journal needs its 8 KB of buffers.
            self.ledger = Ledger()
        self._pristine = False
        if self.journal is None:
            self.critical = True
            self.status = CRITICAL
            self.reason = "no journal device"
            return CRITICAL
        self.critical = False
        self.reason = ""
        self._anchored = -1
        try:
            from firmware.store import startup   # boot-only code: let go below
            status = startup.boot(self, now)
        except Exception as e:  # noqa: BLE001 - whatever it is, lock; never crash
            status = CRITICAL
            self.reason = "boot: %s %s" % (type(e).__name__, e)
        forget("firmware.store.startup")
        if status == CRITICAL or self.critical:
            self.journal.release()
            forget("firmware.store.jmount")
            self.critical = True
            self.status = CRITICAL
            if not self.reason:
                self.reason = "journal: no good copy"
            return CRITICAL
        return status

    def commit(self, payload):
        """Applies and journals one record; returns the ledger's code."""
        if self.critical:
            return R.LOCKED
        self._pristine = False
        try:
            # Snapshot before the record, from the state the journal holds:
            # after a power cut tore a snapshot, the first record of the next
            # boot finds the journal asking for one (issue 9, defect 1).
            j = self.journal
            if j.should_snapshot():
                if j.erase_pending() and not j.must_snapshot():
                    # Split (issue 9): one sector pair erased per commit (800 ms
                    # at the datasheet maximum), the snapshot once the sectors
                    # it needs are erased: no commit does a snapshot's 26
                    # erases (10 s) in one loop pass.
                    j.erase_step()
                else:
                    j.write_snapshot(self.ledger.pieces())
        except Exception as e:  # noqa: BLE001
            return self.fail("snapshot", e)
        code = self.ledger.apply(payload)
        if code != R.OK:
            return code
        try:
            self.journal.append(payload)
        except Exception as e:  # noqa: BLE001
            # RAM is now ahead of flash: never act on it. A restart recovers
            # from the journal; until then the cabinet is locked.
            return self.fail("append", e)
        j = self.journal
        if self.provision is not None and j.head != self._anchored:
            # The journal moved to another sector (or this is the first
            # commit of a boot): the anchor follows, after the commit, so it
            # never names more than the flash holds.
            self._anchored = j.head
            try:
                self.provision.set(j.first[j.head])
            except OSError:
                pass  # the anchor lags: only the rollback check is weaker
        if j.worn_log:
            # a sector this write (or the mount) found worn: in the event
            # log, at the time of the record that found it
            self.event(T.unpack(payload)[1], E.FLASH_WORN, j.worn_log.pop())
        return R.OK

    # ---- the controller's vocabulary -----------------------------------
    def credit(self, now, src, amount):
        return self.commit(T.pack(T.CREDIT, now, src, amount))

    def bet(self, now, kind, amount, number=0):
        if not (0 <= kind < 256 and 0 <= number < 256 and 0 < amount < 1 << 32):
            return R.BAD_AMOUNT
        return self.commit(T.pack(T.BET, now, kind, number, amount))

    def remove(self, now, kind, number=0, amount=0):
        if not (0 <= kind < 256 and 0 <= number < 256 and 0 <= amount < 1 << 32):
            return R.BAD_AMOUNT
        return self.commit(T.pack(T.REMOVE, now, kind, number, amount))

    def working(self, now, kind, number, on):
        if not (0 <= kind < 256 and 0 <= number < 256):
            return R.BAD_AMOUNT
        return self.commit(T.pack(T.WORKING, now, kind, number, 1 if on else 0))

    def clear(self, now):
        return self.commit(T.pack(T.CLEAR, now))

    def close(self, now):
        return self.commit(T.pack(T.CLOSE, now))

    def roll(self, now, d1, d2):
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
            return R.BAD_DICE
        return self.commit(T.pack(T.ROLL, now, d1, d2, min(self.ledger.rerolls, 255)))

    def void(self, now, why):
        return self.commit(T.pack(T.VOID, now, why))

    def reroll(self, now, why):
        return self.commit(T.pack(T.REROLL, now, why))

    def cashout(self, now, method):
        return self.commit(T.pack(T.CASHOUT, now, method))

    def ticket(self, now, step, number):
        """Two-phase ticket: TK_PENDING (credits out, before printing), then
        TK_PRINTED once the printer confirms, or TK_HANDPAID by the attendant."""
        if not 0 <= number < 1 << 64:
            return R.BAD_AMOUNT
        return self.commit(T.pack(T.TICKET, now, step, number))

    def pulses(self, now, src, count):
        """Pulses of a burst so far, journalled as they arrive (not credit yet)."""
        return self.commit(T.pack(T.PULSES, now, src, count & 0xFFFFFFFF))

    def reset(self, now):
        return self.commit(T.pack(T.RESET, now))

    def event(self, now, code, arg=0):
        return self.commit(T.pack(T.EVENT, now, code, arg & 0xFFFFFFFF))

    def lock(self, now, code, arg=0):
        return self.commit(T.pack(T.LOCK, now, code, arg & 0xFFFFFFFF))

    def set_config(self, now, key, text):
        index = C.INDEX.get(key)
        if index is None:
            return -3
        return self.commit(T.pack_config(now, index, text))

    def _validation_id(self, now, val, seq, skip=0):
        """Commits the ticket validation ID `val` and sequence; val 0 draws a
        random non-zero 24-bit ID other than `skip`."""
        rand = self.urandom
        if rand is None:
            from os import urandom as rand
        while not val or val == skip:
            b = rand(3)
            val = b[0] | (b[1] << 8) | (b[2] << 16)
        return self.commit(T.pack(T.VALID_ID, now, val, seq))

    # ---- maintenance ---------------------------------------------------
    def erase_pending(self):
        return not self.critical and self.journal.erase_pending()

    def erase_step(self):
        """Erases one sector ahead. Call only while money inputs are inhibited:
        on rp2 an erase stops interrupts for tens of milliseconds (400 ms at
        the datasheet maximum)."""
        self.journal.erase_step()

    def fail(self, name, e):
        self.critical = True
        self.reason = "%s: %s %s" % (name, type(e).__name__, e)
        return R.LOCKED

    def ram_clear(self, now):
        """Everything to defaults; the RAM clear is the first event after it."""
        from firmware.store import startup   # start over: code play does not hold
        forget("firmware.store.startup")
        return startup.ram_clear(self, now)
