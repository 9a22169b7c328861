"""The store: the ledger kept in step with the flash journal.

Every change is a record: the ledger applies it first (a refusal writes
nothing), then the journal commits it, and only then may the caller act on
it (show a result, pay, accept the next bet). Recovery replays the same
records through the same ledger, so nothing is settled twice or lost.

Two ways to stop. A journal that fails its own checks (no good copy, rolled
back, records that do not replay, no room for the state) is CRITICAL: play
stays locked until a RAM clear. Any other exception (no memory, the flash
device not answering, a bug) is a passing fault: the store stops committing
(`restart_reason`) and the cabinet restarts; the journal decides at the clean
boot after it.
"""
from micropython import const
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import journal as J
from firmware.store import snapshot
from firmware.store.ledger import Ledger, LK_DOUBT
from firmware.store.generation import Generation

OK = J.OK
REPAIRED = J.REPAIRED
EMPTY = J.EMPTY
CRITICAL = J.CRITICAL
RESTART = const(4)      # Store.boot: a passing fault, the cabinet must restart


# The designed maximum of Ledger.encode(): recall 100 games x (42-byte head +
# 24 bets x 11) = 30,600; event ring 256 x 9 = 2,304; configuration history
# 32 x (up to 2 x 80 characters + 15) = 5,600; configuration ~600; table,
# meters and the rest < 2,000. About 41 KB; 48 KiB leaves room. The journal
# keeps this much free so a snapshot always fits: one that does not fit and
# is cut leaves no good copy.
MAX_SNAPSHOT = 48 * 1024
# A region under 256 KiB (the 128 KiB boards of many tests) cannot reserve
# that and still hold records between snapshots; it keeps the old 24 KiB
# reserve, enough for every state short of a full layout with full recall.
SMALL_SNAPSHOT = 24 * 1024
# The most records a snapshot is followed by before the next one falls due
# (Journal.max_entries): a boot replays them all, and on the chip each costs
# a few milliseconds (parse, decode, the ledger's fold), so this bounds the
# boot with a full journal (docs/BENCHMARKS.md, chip budgets). The ring alone
# would let ~3,000 pile up.
MAX_REPLAY = const(1000)
# Logical journal sectors a new cabinet's first boot writes (its snapshot of
# an empty ledger and first records fill the first one).
FIRST_BOOT_SECTORS = 2


def new_journal(dev):
    """The journal the store keeps on block device dev: its snapshot reserve
    and its longest replay (host tools build the same)."""
    big = dev.ioctl(4, 0) >= 64
    return J.Journal(dev, max_snapshot=MAX_SNAPSHOT if big else SMALL_SNAPSHOT,
                     max_entries=MAX_REPLAY)


class Store:
    def __init__(self, dev, pause=None, provision=None, urandom=None, generation=None):
        self.dev = dev
        self.provision = provision  # hal.marker.Marker or None
        # the generation log's device (generation.py): the board's raw area
        # outside the journal and the filesystem, or None (the anchor alone)
        self.generation = None if generation is None else Generation(generation, pause)
        self.urandom = urandom      # n -> n random bytes (the board's; None: os.urandom)
        # no device (an ESP32 without its "journal" partition): boot() reports
        # CRITICAL and nothing can ever be committed or cleared
        self.journal = None
        if dev is not None:
            self.journal = new_journal(dev)
            self.journal.pause = pause
        self.ledger = Ledger()
        self._pristine = True   # nothing applied to self.ledger yet
        self.critical = False
        self.old_format = False  # the flash holds a previous release's dollars
        self.status = None
        self.reason = ""        # why the store is critical (screen, read-out)
        self.restart_reason = ""  # a passing fault stopped the store: restart
        self._anchored = -1     # journal sector the anchor names (-1: not set)

    def boot(self, now):
        """Mounts the journal and rebuilds the state; logs the power-up.

        Returns OK, REPAIRED, EMPTY (no snapshot yet: one is taken now),
        CRITICAL (no good copy: play stays locked until a RAM clear) or
        RESTART (a passing fault on the way: nothing was decided).
        """
        if not self._pristine:
            # A fresh ledger to rebuild into. The one __init__ made is still
            # untouched on the first boot: building another would only churn
            # the heap just before the journal needs its 8 KB of buffers.
            self.ledger = Ledger()
        self._pristine = False
        j = self.journal
        if j is None:
            self.critical = True
            self.status = CRITICAL
            self.reason = "no journal device"
            return CRITICAL
        self.critical = False
        self.reason = ""
        self.restart_reason = ""
        self._anchored = -1
        try:
            status = self._start(j, now)
        except Exception as e:  # noqa: BLE001 - never crash: the journal's or a passing fault
            self.fail("boot", e)
            status = CRITICAL if self.critical else RESTART
        if self.restart_reason and not self.critical:
            j.release()
            self.status = RESTART
            return RESTART
        if status == CRITICAL or self.critical:
            j.release()
            self.critical = True
            self.status = CRITICAL
            if not self.reason:
                self.reason = "journal: no good copy"
            return CRITICAL
        return status

    def _start(self, j, now):
        if self.generation is not None:
            # first: a RAM clear of a journal found critical numbers on
            # from it too
            self.generation.load()
        status = j.mount()
        prov = self.provision
        if status == EMPTY and j.seq == 1 and prov is not None and prov.get():
            # Blank (or only a torn first snapshot) on a cabinet that booted
            # before: the region was wiped or rolled back, not a new cabinet.
            self.reason = "journal: region blank on a provisioned cabinet"
            return CRITICAL
        if status == EMPTY and j.seq == 1 \
                and not j.erased(0 if prov is None else FIRST_BOOT_SECTORS):
            # Not one valid entry, yet not erased flash either: the journal
            # was destroyed (or never ours). Only a RAM clear may start over.
            # Not so with a mark that is not set and only the sectors a
            # first boot writes touched: that boot was cut (its first
            # erases or snapshot), the cabinet is new still, and the
            # snapshot below erases every sector it writes.
            self.reason = "journal: region not blank, no entry"
            return CRITICAL
        if status == CRITICAL:
            return CRITICAL
        if j.seq - 1 < self._floor():
            # The newest entry is older than one committed before (the
            # generation log names the newest record, the anchor the sector
            # it went to): a rolled-back or partly wiped region. Never
            # present that as the current state.
            self.reason = "journal: older than its anchor (rolled back)"
            return CRITICAL
        if not self._rebuild(j):
            self.reason = "journal: records do not replay"
            return CRITICAL
        # the replay is over: its read buffers go before the first snapshot
        j.release()
        if status == EMPTY:
            # No snapshot yet (blank region, or only records since a RAM
            # clear): take one now so later boots start from it.
            j.write_snapshot(self.ledger.pieces())
        self.status = status
        self.commit(T.pack(T.POWER, now))
        if not self.ledger.val_id:
            # provisioning (or a journal from before it): the cabinet's own
            # random validation ID, so no two cabinets share ticket numbers.
            # Not a secret: one printed ticket gives it back exactly
            # (docs/SECURITY.md); the ticket system pays a number once.
            self._validation_id(now, 0, self.ledger.val_seq)
        if status == REPAIRED:
            self.commit(T.pack(T.EVENT, now, E.REPAIRED, 0))
        self._settle_flight(now)
        return status

    def _floor(self):
        """The oldest newest seq the journal may hold: the generation log's
        value, or the provisioned mark's anchor (0: neither)."""
        prov = self.provision
        floor = prov.anchor() if prov is not None else 0
        gen = self.generation
        return gen.value if gen is not None and gen.value > floor else floor

    def view(self):
        """Rebuilds the state from the journal without committing anything
        (no power-up record): the crash lock's read-out. Build the store on
        a device that refuses writes (firmware/store/readonly.py): a journal
        whose mount would repair, clear a torn entry or reclaim a sector is
        then not read (False, `reason` says why; the next normal boot does
        that work). Nothing can be committed afterwards."""
        j = self.journal
        self._pristine = False
        self.restart_reason = "read-only view"  # commit() refuses from now on
        if j is None:
            self.reason = "no journal device"
            return False
        try:
            status = j.mount()
            ok = status != CRITICAL and self._rebuild(j)
            if not ok:
                self.reason = "journal: does not read back (%d)" % status
        except Exception as e:  # noqa: BLE001 - a write refused, or the journal's checks
            self.reason = "journal: %s %s" % (type(e).__name__, e)
            ok = False
        j.release()
        return ok

    def _settle_flight(self, now):
        """What the cut left half done. Pulses the validator delivered are
        money it has stacked: credited now (the burst ended with the power).
        A ticket committed but not confirmed printed may or may not be in
        the player's hand: only the attendant can tell (reprint or handpay)."""
        led = self.ledger
        for src in (T.SRC_BILL, T.SRC_COIN):
            if led.pulses[src]:
                self.credit(now, src, led.pulses[src] * C.pulse_cents(led.config, src))
        if led.ticket and led.lock != LK_DOUBT:
            self.lock(now, LK_DOUBT, led.ticket)

    def _rebuild(self, j):
        if j.base_type == J.T_SNAPE:
            code = snapshot.load(self.ledger, j.chunks())
            if code == snapshot.OLD_FORMAT:
                # Refused, not migrated: that release settled in whole dollars
                # (rounded pays, bets taken down), so its records cannot be
                # replayed into cents and give the same credits. The technician
                # reads the old meters with the old release, then RAM-clears.
                self.old_format = True
            if code != R.OK or not j.snap_ok:
                return False
        bad = [0]
        led = self.ledger

        def replay(payload):
            if led.apply(payload, False) != R.OK:
                bad[0] += 1
        j.replay(replay)
        return bad[0] == 0 and led.balance_check() == 0

    def commit(self, payload):
        """Applies and journals one record; returns the ledger's code."""
        j = self.journal
        if self.critical or self.restart_reason or j is None:
            return R.LOCKED
        self._pristine = False
        try:
            j.make_room(self.ledger.pieces)
        except Exception as e:  # noqa: BLE001
            return self.fail("snapshot", e)
        code = self.ledger.apply(payload)
        if code != R.OK:
            if code == R.NOT_AVAILABLE:
                # the action raised and was undone: logged and metered
                rec = T.unpack(payload)     # whole: the ledger applied it
                self.event(rec[1] if rec else 0, E.ACTION_FAULT, payload[0])
            return code
        try:
            j.append(payload)
        except Exception as e:  # noqa: BLE001
            # RAM is now ahead of flash: never act on it. A restart recovers
            # from the journal; until then nothing more is committed.
            return self.fail("append", e)
        if self.provision is not None and j.head != self._anchored:
            # The journal moved to another sector (or this is the first
            # commit of a boot): the anchor follows, after the commit, so it
            # never names more than the flash holds.
            self._anchored = j.head
            try:
                self.provision.set(j.first[j.head])
            except OSError:
                pass  # the anchor lags: only the rollback check is weaker
        if self.generation is not None:
            # after the commit, like the anchor: a cut between the two
            # leaves the log one record behind, never ahead
            try:
                self.generation.advance(j.seq - 1)
            except OSError:
                pass
        if j.worn_log:
            # a sector this write (or the mount) found worn: in the event
            # log, at the time of the record that found it
            self.event(T.time_of(payload), E.FLASH_WORN, j.worn_log.pop())
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
        index = C.index(key)
        if index is None:
            return -3
        return self.commit(T.pack_config(now, index, text))

    def _validation_id(self, now, vid, seq, avoid=0):
        """Commits the ticket validation ID `vid` and sequence; vid 0 draws a
        random non-zero 24-bit ID other than `avoid`."""
        rand = self.urandom
        if rand is None:
            from os import urandom as rand
        while not vid or vid == avoid:
            b = rand(3)
            vid = b[0] | (b[1] << 8) | (b[2] << 16)
        return self.commit(T.pack(T.VALID_ID, now, vid, seq))

    # ---- maintenance ---------------------------------------------------
    def erase_pending(self):
        j = self.journal
        gen = self.generation
        return (not self.critical and not self.restart_reason and j is not None
                and (j.erase_pending() or (gen is not None and gen.erase_pending())))

    def erase_step(self):
        """Erases one sector ahead. Call only while money inputs are inhibited:
        on rp2 an erase stops interrupts for tens of milliseconds (400 ms at
        the datasheet maximum)."""
        j = self.journal
        gen = self.generation
        if gen is not None and gen.erase_pending():
            gen.erase_step()
        elif j is not None:
            j.erase_step()

    def fail(self, name, e):
        """Stops the store after exception `e` in `name`: CRITICAL when the
        journal itself refused (its checks, no room), else a passing fault
        that a restart clears. Returns R.LOCKED."""
        why = "%s: %s %s" % (name, type(e).__name__, e)
        print("STORE STOPPED", why)     # the console log
        if J.refused(e):
            self.critical = True
            self.reason = why
        elif not self.restart_reason:
            self.restart_reason = why
        return R.LOCKED

    def ram_clear(self, now):
        """Everything to defaults; the RAM clear is the first event after it."""
        j = self.journal
        if j is None or self.restart_reason:
            return R.LOCKED
        was_critical = self.critical
        old = self.ledger
        try:
            # A critical journal (unreadable, rolled back, refused) is erased
            # whole: its sequence numbers go on from the anchor, which only
            # ever rises.
            j.format(was_critical, self._floor() + 1)
        except Exception as e:  # noqa: BLE001
            return self.fail("RAM clear", e)
        self.ledger = Ledger()
        self.critical = False
        self.old_format = False
        self.status = EMPTY
        self._anchored = -1
        self.commit(T.pack(T.EVENT, now, E.RAM_CLEAR, 1 if was_critical else 0))
        if was_critical:
            # The corrupt journal could not take this event when the error
            # was found; the new one records why the RAM clear was needed.
            self.commit(T.pack(T.EVENT, now, E.CRITICAL, 0))
        # A RAM clear must not print a number that a ticket from before it
        # already carries: from a readable journal the ID and sequence go on;
        # a critical one may have lost tickets (unreadable, or rolled back to
        # an older sequence), so the sequence starts again under a new random
        # ID, and a different ID never gives the same number (SAS.md).
        if was_critical:
            self._validation_id(now, 0, 0, old.val_id)
        else:
            self._validation_id(now, old.val_id, old.val_seq)
        try:
            j.write_snapshot(self.ledger.pieces())
        except Exception as e:  # noqa: BLE001
            return self.fail("RAM clear", e)
        return R.OK
