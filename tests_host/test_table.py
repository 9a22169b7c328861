"""A table of real controllers (tests_host/table_rig.py): the dome
controller and stations, each the cabinet's Controller with the station's
game cycle, on mock boards joined by the table link. The roles, the
station's screens and keys, the attendant's void from the audit menu,
and each station's own SAS port."""
import table_rig as TR
from firmware.link import dome as D
from firmware.link import messages as M
from firmware.store import ledger as L
from hal import role as RL


def _betting(rig, *seats):
    rig.until(lambda: all(rig.station(a).game.seat.bets_open() == "" for a in seats))


def _funded(rig, seats, dollars=20):
    for a in seats:
        rig.bill(a, dollars)
    rig.step(3000)
    _betting(rig, *seats)
    for a in seats:
        rig.press(a, "BET_UP")
        assert rig.station(a).store.ledger.table.on_table() > 0


def test_roles_from_the_configuration():
    assert RL.parse("") == ("cabinet", 0, {})
    assert RL.parse("station 3\n") == ("station", 3, {})
    assert RL.parse("dome window_s=10 shooter_idle_s=90") == \
        ("dome", 0, {"window_ms": 10000, "shooter_idle_ms": 90000})
    for bad in ("station", "station 9", "station x", "dome window_s=0", "dome speed=3", "shaker"):
        try:
            RL.parse(bad)
            raise AssertionError(bad)
        except ValueError:
            pass


def test_a_table_plays_rounds_with_the_same_dice_at_every_station():
    rig = TR.Rig(3)
    _funded(rig, (1, 2, 3))
    rig.until(lambda: rig.rounds().count >= 3, 120000)
    rig.until(lambda: all(c.store.ledger.phase == L.BETTING for c in rig.ctls))
    r = rig.rounds()
    for c in rig.ctls:
        led = c.store.ledger
        assert led.balance_check() == 0 and len(led.recall) >= 3
        for i in range(len(led.recall)):
            g = led.recall.get(i)
            e = r.find(g["game"])
            assert e is not None and tuple(g["dice"]) == (e[3], e[4])
    assert rig.dome_board.dome.rolls >= 3        # the dome's shaker rolled them
    assert all(b.dome.rolls == 0 for b in rig.boards)   # the stations' never ran


def test_roll_works_only_at_the_shooters_station_and_every_station_shows_who():
    rig = TR.Rig(2, config={"window_ms": 30000})
    _funded(rig, (1, 2))
    rig.until(lambda: all(c.game.seat.shooter == 1 for c in rig.ctls))
    assert "YOU SHOOT" in rig.screen(1)
    assert "SEAT 1 SHOOTS" in rig.screen(2)
    rig.press(2, "ROLL")
    assert "NOT THE SHOOTER" in rig.screen(2)
    assert rig.phase() == TR.BETTING
    rig.press(1, "ROLL")
    rig.until(lambda: rig.phase() == TR.SHAKING, 1000)      # not the 30 s window


def test_a_station_that_sat_out_says_so_and_keeps_its_bets():
    rig = TR.Rig(2)
    _funded(rig, (1, 2))
    rig.boards[1].door.set(1)                                # station 2's own door
    rig.until(lambda: rig.rounds().count >= 1 and rig.phase() == TR.BETTING)
    assert rig.rounds().entry(0)[2] == 0b01                 # only station 1 was in it
    c2 = rig.station(2)
    # one BET_UP: the stake shown first, the table profile's $5 line minimum
    assert c2.store.ledger.table.on_table() == 500 and not len(c2.store.ledger.recall)
    rig.boards[1].door.set(0)
    rig.until(lambda: c2.game.seat.sat_out == rig.rounds().entry(0)[0])


def test_the_dome_door_stops_the_whole_table():
    rig = TR.Rig(2)
    _funded(rig, (1, 2))
    rig.until(lambda: rig.phase() == TR.SHAKING)
    rig.dome_board.door.set(1)
    rig.until(lambda: all(len(c.store.ledger.recall) == 1 for c in rig.ctls))
    for c in rig.ctls:
        assert c.store.ledger.recall.get(0)["voided"] and c.store.ledger.table.credits == 2000
    rig.until(lambda: all(c.game.seat.why == M.DOOR for c in rig.ctls))
    rig.until(lambda: "DOME DOOR" in rig.screen(1), 8000)    # after the void's message


def test_no_memory_in_the_dome_journal_restarts_the_dome_not_a_ram_clear():
    """A passing fault at the dome (RoundLog.restart_reason) shows RESTARTING
    and resets the board after a moment: no CRITICAL screen, the shaker off."""
    rig = TR.Rig(2)
    _funded(rig, (1, 2))
    log = rig.dome.log

    def no_memory(payload):
        raise MemoryError("planted")
    log.journal.append = no_memory
    rig.until(lambda: log.restart_reason)
    rig.step(50)
    lines = rig.dome.lines()
    assert not log.critical and lines[0].strip() == "RESTARTING" and "MemoryError" in lines[2]
    assert rig.dome_board.resets == 0 and not rig.dome_board.shaker.running
    rig.step(2000)
    assert rig.dome_board.resets == 1
    assert rig.phase() == D.CLOSING            # no shake of a round not in the journal


def test_the_attendant_voids_a_round_the_replaced_dome_does_not_know():
    from hal import buttons as B
    from hal.mock.norflash import NorFlash
    from firmware.table.dome import DomeController
    rig = TR.Rig(1)
    _funded(rig, (1,))
    rig.until(lambda: rig.phase() == TR.SHAKING)
    n = rig.rounds().round
    rig.dome_board.flash = NorFlash(256 * 1024)              # a new dome controller
    rig.dome = DomeController(rig.dome_board, TR.FAST)
    c = rig.station(1)
    rig.until(lambda: c.game.seat.foreign())
    assert "ROUND %d UNKNOWN" % n in c.game.message(rig.ms) or c.game.bets_closed()
    b = rig.boards[0]
    b.audit_key.set(1)
    rig.step(200)
    assert c.audit_mode
    for code in (B.NEXT, B.NEXT, B.NEXT, B.NEXT, B.ROLL):      # Attendant
        b.press(code)
        rig.step(100)
    assert "dome has no" in "\n".join(c.menu.lines())
    b.press(B.ROLL)
    rig.step(100)
    b.press(B.ROLL)
    rig.step(100)
    led = c.store.ledger
    assert led.phase == L.BETTING and led.table.credits == 2000 and led.balance_check() == 0
    assert led.meters.get("voided") == 1 and led.recall.get(0)["voided"]
    b.audit_key.set(0)
    rig.step(200)
    _betting(rig, 1)


def test_each_station_answers_its_own_sas_address_with_its_own_meters():
    rig = TR.Rig(2, sas="loop")
    for a in (1, 2):
        c = rig.station(a)
        assert c.store.set_config(c.now_s(), "sas_address", str(a)) == 0
    rig.bill(1, 20)
    rig.bill(2, 50)                      # 50 pulses at 100 ms a pulse
    rig.until(lambda: rig.station(2).store.ledger.table.credits == 5000)

    def poll(a, addr, cmd):
        port = rig.boards[a - 1].sas
        port.host_read()
        port.host_send(bytes((addr, cmd)))
        rig.step(40)
        return port.host_read()
    for a in (1, 2):
        poll(a, 0x80, 0)                 # the host's sync: nothing is answered before one
    for a, dollars in ((1, 20), (2, 50)):
        reply = poll(a, a, 0x1A)
        assert reply[:2] == bytes((a, 0x1A))
        assert reply[2:6] == bytes.fromhex("%08d" % (dollars * 100))  # its own credits (cents)
        assert poll(a, 3 - a, 0x1A) == b""                   # not the other's address
        # its own bill meters (1E: bills of $1, 5, 10, 20, 50, 100 accepted)
        reply = poll(a, a, 0x1E)
        assert reply[:2] == bytes((a, 0x1E)) and len(reply) == 28
        counts = [int(reply[2 + 4 * i:6 + 4 * i].hex()) for i in range(6)]
        assert counts == ([0, 0, 0, 1, 0, 0] if dollars == 20 else [0, 0, 0, 0, 1, 0])


def test_a_station_restarts_with_its_rounds_in_the_journal():
    """Its records replay at the boot: the station's reducers are there
    before the store boots (they once came with the game cycle, after it,
    and the first restart locked the station CRITICAL)."""
    import sys
    from firmware.store import ledger as LG
    from firmware.cabinet.controller import Controller
    rig = TR.Rig(1)
    _funded(rig, (1,))
    rig.until(lambda: rig.rounds().count >= 1 and rig.station(1).store.ledger.phase == L.BETTING)
    from firmware.store import seat_records as S
    for rtype in S._FORMATS:
        LG._APPLY.pop(rtype, None)
    for mod in ("firmware.store.seat_records", "firmware.table.station"):
        sys.modules.pop(mod, None)      # as in a new process
    again = Controller(rig.boards[0], seat=1)
    assert not again.store.critical, again.store.reason
    assert again.store.ledger.round == rig.rounds().round and len(again.store.ledger.recall) == 1
