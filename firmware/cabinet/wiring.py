"""How the controller starts (Controller.__init__): the store boots (its
journal mounted and replayed), the player side loads, the board's devices
are wired and checked, SAS starts where the board has a port. Run once and
let go: play does not hold this code.
"""
from hal.prstatus import FAULT
from firmware.rules import reasons as R
from firmware.store import events as E
from firmware.store import ledger as L
from firmware.store.store import Store
from firmware.cabinet import controller as CT


def init(ctl, board, store, profile, audit):
    ctl.board = board
    ctl.clock = board.clock
    now = ctl.clock.ticks_ms()
    if store is None:
        store = Store(board.flash, board.watchdog.feed, getattr(board, "provision", None),
                      getattr(board, "urandom", None))
    ctl.store = store
    board.money.inhibit(True)  # until the state is known
    ctl.boot_status = ctl.store.boot(ctl.now_s())
    if ctl.store.critical:
        print("CRITICAL", ctl.store.reason)  # the console log; the screen locks
    # the recall's pages while the heap is whole, before the player side
    ctl.store.ledger.recall.reserve()
    # SAS only with a SAS port (without one its code never loads), before
    # the player side too: its modules then fill the boot's holes
    ctl.sas = None
    if getattr(board, "sas", None) is not None:
        from firmware.sas.machine import start
        ctl.sas = start(ctl)
    CT._play_side()    # after the boot: its peak is not on top of them
    if not getattr(ctl.clock, "valid", True) and not ctl.store.critical:
        ctl.store.event(ctl.now_s(), E.CLOCK_UNSET)  # times below are not real
    ctl.profile_refused = ""  # why a requested profile was not taken
    if profile and not ctl.store.critical and \
            ctl.store.ledger.config["profile"] != profile:
        code = ctl.store.set_config(ctl.now_s(), "profile", profile)
        if code != R.OK:
            ctl.profile_refused = "NO PROFILE %s\n%s" % (
                profile[:6], "MONEY ON STATION" if code == L.MONEY_ON_TABLE
                else "UNKNOWN PROFILE")
    ctl.money = CT.MoneyIn(board.money, now)
    ctl.game = CT.Game(ctl.store, board, now)
    ctl.player = CT.Player()
    ctl.player.fix_selection(ctl.store.ledger.table, ctl.store.ledger.table.p)
    ctl.history = []
    ctl._load_history()
    ctl.audit_mode = False
    ctl.menu = None
    ctl.audit = audit
    ctl.readout = None        # made when the first read-out byte arrives
    ctl._rx = bytearray(64)
    ctl._msg = ""
    ctl._msg_until = now
    ctl._deferred = []        # keys pressed while a result must stay up
    ctl._last_input = now
    ctl._last_refresh = now
    ctl._rolls_seen = ctl.game.rolls
    ctl._erasing = False
    ctl.erases = 0
    ctl.lines = None          # text on the display now
    ctl.dice = None
    ctl.redraws = 0
    ctl.dirty = True
    ctl.credits_in = 0        # credited this power cycle (tests)
    ctl.faults = []           # hal.faults codes of devices that do not answer
    ctl.inputs_dead = ctl.display_dead = ctl.no_journal = False
    ctl.menu_module = "firmware.audit.menu"
    ctl.readout_module = "firmware.audit.readout"
    ctl.audit_error = ""      # why the full menu or read-out could not be loaded
    ctl._basic = None         # the basic audit module, kept from boot where it fits
    ctl._poll_faults(now)
    try:
        dead = board.printer.status() == FAULT
    except OSError:
        dead = True
    if dead:
        CT._devfault().printer(ctl, now)
    # the room is measured once SAS is in: measured before, SAS's code
    # and names took what was counted free (a --sas session at 248K
    # kept the basic audit and then ran out)
    if audit and CT._room():
        svc = CT._service()
        if svc is not None:
            svc.basic_import(ctl)
        # and the ledger's rare records (a door, the audit key, a reset):
        # kept loaded, a fragmented heap then never keeps them from the
        # technician (firmware/store/ledger.py _rare)
        import firmware.store.rare_records  # noqa: F401
    ctl._update_inhibit()
    if ctl.profile_refused:
        ctl.say(ctl.profile_refused, now, 10000)
