"""A passing fault (no memory, a device, a bug) is never a bad journal: the
cabinet logs it, restarts cleanly and loses nothing; only a journal that
fails its checks on a clean boot is CRITICAL. The exception is injected at
each commit point (snapshot, append, erase ahead, RAM clear), at each boot
point (mount, the snapshot's chunks, the replay, the boot's own commits)
and at the imports the main loop makes on use (a page, the help texts); the
clean boot after it rebuilds exactly what was committed before.
Plain asserts: runs on CPython and on the MicroPython unix port.
"""
import gc
import sys
import session
from hal import buttons as B
from hal.mock.norflash import NorFlash
from firmware.store import events as E
from firmware.store import records as T
from firmware.store.store import Store, RESTART, CRITICAL
from test_e2e_session import make, events_of, run_loop

FLASH = 256 * 1024


def _played(seed=71):
    """A cabinet with money and a few games on it."""
    b, d = make(seed=seed)
    d.bill(20)
    for _ in range(3):
        d.press("BET_UP")
        assert d.roll()
    return b, d


def _fail(exc):
    def raising(*args, **kw):
        # a new exception each time, as a fault is (MicroPython adds each
        # raise of one instance to its traceback)
        raise type(exc)(*exc.args)
    return raising


def _restarted(b, d, before):
    """The cabinet shows RESTARTING, resets the board after a moment, and the
    clean boot on the same flash has exactly the state `before`."""
    st = d.ctl.store
    assert not st.critical, st.reason
    assert d.ctl.restarting()
    d.run(200)
    assert d.on_screen("RESTARTING"), d.screen_text()
    assert not d.on_screen("RAM CLEAR")
    assert b.money.inhibited
    d.run(2500)
    assert b.resets == 1
    b2, d2 = _restarted_clean(b)
    assert session.view(d2.ctl.store.ledger) == before
    return b2, d2


def test_no_memory_for_a_snapshot_restarts_and_loses_nothing():
    b, d = _played()
    st = d.ctl.store
    before = session.view(st.ledger)
    j = st.journal
    j.max_entries = j.seq - 1 - j.base_seq      # a snapshot falls due at the next commit
    j.erase_pending = lambda: False             # ... at once, its sectors erased already
    j.write_snapshot = _fail(MemoryError("memory allocation failed, allocating 2036 bytes"))
    d.press("BET_UP")                           # the bet's commit needs the snapshot first
    assert "MemoryError" in st.restart_reason
    _restarted(b, d, before)


def test_a_failed_append_restarts_and_the_record_is_not_kept():
    for exc in (MemoryError(), OSError(5), RuntimeError("bus")):
        b, d = _played()
        st = d.ctl.store
        before = session.view(st.ledger)
        st.journal.append = _fail(exc)
        d.press("BET_UP")      # applied in RAM, refused by the flash: never acted on
        assert type(exc).__name__ in st.restart_reason
        _restarted(b, d, before)


def test_a_failed_erase_ahead_restarts():
    b, d = _played()
    ctl = d.ctl
    st = ctl.store
    before = session.view(st.ledger)
    st.journal.erase_pending = lambda: True
    st.journal.erase_step = _fail(OSError(110))
    ctl.idle = lambda now_ms: True
    ctl.tick_maintenance(b.clock.ticks_ms(), True, True)
    assert "erase" in st.restart_reason and not st.critical
    _restarted(b, d, before)


def test_a_fault_in_the_ram_clear_restarts_and_the_clean_boot_decides():
    b, d = _played()
    st = d.ctl.store
    before = session.view(st.ledger)
    st.journal.format = _fail(MemoryError())
    assert st.ram_clear(b.clock.now()) != 0
    _restarted(b, d, before)     # the format never began: everything is still there


def _store_with_games():
    f = NorFlash(FLASH)
    s = Store(f)
    assert s.boot(1) != CRITICAL
    assert s.credit(2, T.SRC_BILL, 2000) == 0
    for t in range(3, 40, 3):
        assert s.bet(t, 0, 100) == 0 and s.close(t) == 0 and s.roll(t + 1, 2, 3) == 0
    return f, session.view(s.ledger)


def test_a_fault_at_each_boot_point_restarts_and_the_clean_boot_is_whole():
    used = _store_with_games()
    for point in ("mount", "chunks", "replay", "append", "write_snapshot"):
        # a boot writes a snapshot only on a journal without one: a new cabinet's
        f, before = used if point != "write_snapshot" else (NorFlash(FLASH), None)
        for exc in (MemoryError(), OSError(5), KeyError(3)):
            f.power_on()
            s = Store(f)
            setattr(s.journal, point, _fail(exc))
            status = s.boot(50)
            assert status == RESTART and not s.critical, (point, exc, status, s.reason)
            assert type(exc).__name__ in s.restart_reason
            assert s.credit(51, T.SRC_BILL, 500) != 0      # nothing is committed now
            f.power_on()
            clean = Store(f)
            assert clean.boot(52) != CRITICAL, (point, clean.reason)
            if before is not None:
                assert session.view(clean.ledger) == before, point
            s = clean = None
            gc.collect()
            f = NorFlash(FLASH) if before is None else f


def test_no_memory_in_the_middle_of_the_replay_restarts():
    f, before = _store_with_games()
    s = Store(f)
    led = s.ledger
    real = led.apply
    n = [0]

    def apply(payload, undo=True):
        n[0] += 1
        if n[0] == 5:
            raise MemoryError("memory allocation failed")
        return real(payload, undo)
    led.apply = apply
    assert s.boot(50) == RESTART and not s.critical
    f.power_on()
    clean = Store(f)
    assert clean.boot(51) != CRITICAL and session.view(clean.ledger) == before


def test_no_memory_inside_an_action_of_the_replay_restarts():
    """A bet folded in the replay that runs out of memory is a passing fault:
    the boot restarts. It is not a record that does not replay (CRITICAL, a
    screen asking for a RAM clear)."""
    from firmware.rules.table import Table
    f, before = _store_with_games()
    place = Table.place
    n = [0]

    def short_of_memory(*a):
        n[0] += 1
        if n[0] == 2:
            raise MemoryError("memory allocation failed")
        return place(*a)
    Table.place = short_of_memory
    try:
        s = Store(f)
        assert s.boot(50) == RESTART and not s.critical, s.reason
    finally:
        Table.place = place
    assert n[0] == 2
    f.power_on()
    clean = Store(f)
    assert clean.boot(51) != CRITICAL and session.view(clean.ledger) == before


def test_only_the_journal_itself_is_critical():
    from firmware.store import journal as J
    f, before = _store_with_games()
    for exc in (J.JournalCorrupt("entry lost after mount"), J.JournalFull("no room")):
        f.power_on()
        s = Store(f)
        s.journal.mount = _fail(exc)
        assert s.boot(50) == CRITICAL and s.critical and not s.restart_reason


def _loop_until(d, stop_when, limit_ms=20000):
    """The real main loop on the fake clock until stop_when() or `limit_ms`."""
    clock = d.board.clock
    end = clock.ticks_ms() + limit_ms
    run_loop(d, lambda: stop_when() or clock.ticks_ms() >= end)


def _no_import(name, exc):
    """Makes importing module `name` raise `exc` (what no memory for its
    code does); returns the function that undoes it."""
    from restart_imports import watch
    sys.modules.pop(name, None)
    parent = sys.modules.get(name.rpartition(".")[0])
    if parent is not None and name.rpartition(".")[2] in parent.__dict__:
        del parent.__dict__[name.rpartition(".")[2]]

    def fail(statement):
        if name in (statement, statement.replace(" import ", ".")):
            raise exc
    return watch(fail)


def test_no_memory_for_a_page_in_the_main_loop_logs_and_restarts():
    """MY BETS imports its page code on use: no memory for it is logged as
    an event, the cabinet restarts, and nothing is lost."""
    for page, key in (("firmware.cabinet.pages", "MYBETS"), ("firmware.cabinet.helptext", "HELP")):
        b, d = _played()
        st = d.ctl.store
        d.ctl.player._help = None
        before = session.view(st.ledger)
        undo = _no_import(page, MemoryError("memory allocation failed"))
        try:
            b.press(getattr(B, key))
            _loop_until(d, lambda: b.resets > 0)
        finally:
            undo()
        assert b.resets == 1, (page, d.ctl.restarting())
        assert "MemoryError" in d.ctl.fault_reason and not st.critical
        assert E.FAULT_RESTART in events_of(st.ledger)
        ev = [st.ledger.events.get(i) for i in range(st.ledger.events.count)]
        assert [e for e in ev if e[2] == E.FAULT_RESTART][0][3] == E.FAULT_MEMORY
        b2, d2 = _restarted_clean(b)
        assert session.view(d2.ctl.store.ledger) == before
        assert E.FAULT_RESTART in events_of(d2.ctl.store.ledger)    # in the journal


def _restarted_clean(b):
    b2, d2 = make(seed=b.seed, flash=b.flash)
    st = d2.ctl.store
    assert not st.critical and not d2.ctl.restarting(), st.reason
    assert st.ledger.balance_check() == 0
    return b2, d2


def test_a_fault_in_the_main_loop_with_a_stopped_store_restarts_without_an_event():
    b, d = _played()
    st = d.ctl.store
    before = session.view(st.ledger)
    st.journal.append = _fail(OSError(5))
    d.ctl.tick_display = _fail(RuntimeError("redraw"))   # and then the loop fails too
    b.press(B.BET_UP)
    _loop_until(d, lambda: b.resets > 0)
    assert b.resets == 1 and not st.critical
    b2, d2 = _restarted_clean(b)
    assert session.view(d2.ctl.store.ledger) == before


def test_the_lock_screens_say_power_cycle_before_ram_clear():
    from firmware.cabinet.stopped import critical_screen, restart_screen
    text = critical_screen()
    assert "MEMORY ERROR" in text[0]
    power = [i for i in range(len(text)) if "POWER CYCLE" in text[i]]
    clear = [i for i in range(len(text)) if "RAM CLEAR" in text[i]]
    assert power and clear and power[0] < clear[0], text
    assert all(len(line) <= 16 for line in text)
    text = restart_screen("snapshot: MemoryError memory allocation failed")
    assert "RESTARTING" in text[0] and "MemoryError" in text[2]
    assert not any("RAM CLEAR" in line for line in text)
    assert all(len(line) <= 16 for line in text)
