"""How the store starts: from the journal at power-up (Store.boot: mount,
rebuild from the snapshot and the replay, settle what a cut left half done)
or from nothing (Store.ram_clear). Loaded for that and let go: play does not
hold this code (issue 12: the whole firmware with SAS in a 192K heap).
"""
from firmware import forget
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import journal as J
from firmware.store.ledger import Ledger, LK_DOUBT, OLD_FORMAT

EMPTY = J.EMPTY
REPAIRED = J.REPAIRED
CRITICAL = J.CRITICAL


def boot(store, now):
    status = store.journal.mount()
    prov = store.provision
    if status == EMPTY and store.journal.seq == 1 and prov is not None and prov.get():
        # Blank (or only a torn first snapshot) on a cabinet that booted
        # before: the region was wiped or rolled back, not a new cabinet.
        store.reason = "journal: region blank on a provisioned cabinet"
        return CRITICAL
    if status == EMPTY and store.journal.seq == 1 and not _blank(store):
        # Not one valid entry, yet not erased flash either: the journal
        # was destroyed (or never ours). Only a RAM clear may start over.
        store.reason = "journal: region not blank, no entry"
        return CRITICAL
    if status == CRITICAL:
        return CRITICAL
    if prov is not None and store.journal.seq - 1 < prov.anchor():
        # The newest entry is older than one committed before (the anchor
        # names the sector the newest commit went to): a rolled-back or
        # partly wiped region. Never present that as the current state.
        store.reason = "journal: older than its anchor (rolled back)"
        return CRITICAL
    if not _rebuild(store):
        store.reason = "journal: records do not replay"
        return CRITICAL
    # Replay is over: free the read buffers before the first snapshot
    # is encoded, so it can use their 8 KB (and the start-up's code).
    store.journal.release()
    forget("firmware.store.jmount")
    if status == EMPTY:
        # No snapshot yet (blank region, or only records since a RAM
        # clear): take one now so later boots start from it.
        store.journal.write_snapshot(store.ledger.pieces())
    store.status = status
    store.commit(T.pack(T.POWER, now))
    if not store.ledger.val_id:
        # provisioning (or a journal from before the secret): the
        # cabinet's own random validation ID, so nobody can work out its
        # ticket numbers from the station name
        store._validation_id(now, 0, store.ledger.val_seq)
    if status == REPAIRED:
        store.commit(T.pack(T.EVENT, now, E.REPAIRED, 0))
    _settle_flight(store, now)
    return status


def _settle_flight(store, now):
    """What the cut left half done. Pulses the validator delivered are
    money it has stacked: credited now (the burst ended with the power).
    A ticket committed but not confirmed printed may or may not be in
    the player's hand: only the attendant can tell (reprint or handpay)."""
    led = store.ledger
    for src in (T.SRC_BILL, T.SRC_COIN):
        if led.pulses[src]:
            store.credit(now, src, led.pulses[src] * C.pulse_cents(led.config, src))
    if led.ticket and led.lock != LK_DOUBT:
        store.lock(now, LK_DOUBT, led.ticket)


def _blank(store):
    from firmware.store.jmount import _FF  # held by the journal since mount()
    buf = bytearray(256)  # a page at a time: no 4 KB block needed at boot
    for n in range(store.dev.ioctl(4, 0)):
        for off in range(0, 4096, 256):
            store.dev.readblocks(n, buf, off)
            if buf != _FF:
                return False
    return True


def _rebuild(store):
    if store.journal.base_type == J.T_SNAPE:
        # the loader is boot-only code: off the heap again once it ran
        from firmware.store import snapload
        code = snapload.load(store.ledger, store.journal.chunks())
        forget("firmware.store.snapload")
        if code == OLD_FORMAT:
            # Refused, not migrated: that release settled in whole dollars
            # (rounded pays, bets taken down), so its records cannot be
            # replayed into cents and give the same credits. The technician
            # reads the old meters with the old release, then RAM-clears.
            store.old_format = True
        if code != R.OK or not store.journal.snap_ok:
            return False
    bad = [0]
    led = store.ledger

    def replay(payload):
        if led.apply(payload) != R.OK:
            bad[0] += 1
    led.replaying = True
    try:
        store.journal.replay(replay)
    finally:
        led.replaying = False
        forget("firmware.store.rare_records")
    return bad[0] == 0 and led.balance_check() == 0


def ram_clear(store, now):
    """Store.ram_clear: everything to defaults; the RAM clear is the first
    event after it."""
    if store.journal is None:
        return R.LOCKED
    was_critical = store.critical
    old = store.ledger
    prov = store.provision
    try:
        # A critical journal (unreadable, rolled back, refused) is erased
        # whole: its sequence numbers go on from the anchor, which only
        # ever rises.
        store.journal.format(was_critical, prov.anchor() + 1 if prov is not None else 1)
    except Exception as e:  # noqa: BLE001
        return store.fail("RAM clear", e)
    store.ledger = Ledger()
    store.critical = False
    store.old_format = False
    store.status = EMPTY
    store._anchored = -1
    store.commit(T.pack(T.EVENT, now, E.RAM_CLEAR, 1 if was_critical else 0))
    if was_critical:
        # The corrupt journal could not take this event when the error
        # was found; the new one records why the RAM clear was needed.
        store.commit(T.pack(T.EVENT, now, E.CRITICAL, 0))
    # A RAM clear must not print a number that a ticket from before it
    # already carries: from a readable journal the ID and sequence go on;
    # a critical one may have lost tickets (unreadable, or rolled back to
    # an older sequence), so the sequence starts again under a new random
    # ID, and a different ID never gives the same number (SAS.md).
    if was_critical:
        store._validation_id(now, 0, 0, old.val_id)
    else:
        store._validation_id(now, old.val_id, old.val_seq)
    try:
        store.journal.write_snapshot(store.ledger.pieces())
    except Exception as e:  # noqa: BLE001
        return store.fail("RAM clear", e)
    return R.OK
