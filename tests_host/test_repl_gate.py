"""The USB REPL on a release image (firmware/cabinet/repl_gate.py): opened
only by safe boot with the logic door open, the act committed to the journal
first; without the door, or with a journal that cannot take the record, it
stays shut and nothing is written. Plain asserts: pytest and MicroPython."""
from firmware.cabinet import repl_gate as G
from firmware.cabinet.controller import Controller
from firmware.store import events as E
from firmware.store.store import Store
from hal.mock.board import Board


def _events(board):
    s = Store(board.flash)
    s.boot(0)
    ev = s.ledger.events
    return [ev.get(i)[2:] for i in range(ev.count)]


def test_the_repl_opens_only_once_the_logic_door_is_open_and_the_act_is_logged():
    b = Board(seed=3, fake_clock=True)
    Controller(b)                       # a cabinet that has run
    door = b.logic_door
    door.set(0)                          # closed
    waits = []

    def sleep_ms(ms):
        waits.append(ms)
        b.clock.advance(ms)
        if len(waits) == 5:
            door.set(1)                  # the technician opens it
    assert G.open_repl(b, "buttons", sleep_ms)
    assert len(waits) >= 5, "waited for the door"
    logged = [e for e in _events(b) if e[0] == E.SAFE_BOOT]
    assert logged == [(E.SAFE_BOOT, G.WHY["buttons"])], logged


def test_no_door_no_repl_and_nothing_written():
    b = Board(seed=3, fake_clock=True)
    Controller(b)
    del b.logic_door                     # a board without the switch
    before = b.flash.programs
    assert not G.open_repl(b, "flag", lambda ms: None)
    assert b.flash.programs == before
    assert not any(e[0] == E.SAFE_BOOT for e in _events(b))


def test_a_journal_that_cannot_take_the_record_keeps_the_repl_shut():
    b = Board(seed=3, fake_clock=True)
    b.logic_door.set(1)
    b.flash = None                       # no journal region (an ESP32 without its partition)
    assert not G.open_repl(b, "buttons", b.clock.advance)
