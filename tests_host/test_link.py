"""The table link (firmware/link, LINK.md): frames, the dome's round journal,
and the dome's and stations' pure logic through a bus model that drops,
duplicates, corrupts and delays frames and cuts power anywhere
(tests_host/link_sim.py). Each invariant of LINK.md has its test here; the
fault sweep checks invariants 1-3 after every round."""
import os
import time
import link_sim as S
from hal.mock.norflash import NorFlash, PowerCut
from firmware.link import frame as F
from firmware.link import messages as M
from firmware.link import rounds as RD
from firmware.link import dome as D
from firmware.link.seat import Seat
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.sas.wire import crc16
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import ledger as L
from firmware.store import seat_records as SR

FULL = os.getenv("FULL") == "1"
MP_SKIP = ("test_bench_link_prints_its_figures_and_fails_a_missed_budget",)  # a CPython tool


# ---- frames ------------------------------------------------------------------
def _frames(data):
    got = []
    fr = F.Framer(lambda f: got.append((f.addr, f.kind, f.rnd, bytes(f.payload()))))
    for x in data:
        fr.feed(x)
    return got, fr


def test_frame_round_trip_with_the_sas_crc():
    buf = bytearray(F.MAX_FRAME)
    n = F.encode(buf, 3, M.CLOSE, 9, 0x01020304, b"\x11\x22\x33\x44")
    assert n == F.OVERHEAD + 4 and buf[0] == F.SYNC and buf[3] == 9
    assert buf[4:8] == b"\x04\x03\x02\x01"
    c = crc16(buf, 1, n - 2)        # the SAS code's CRC-16/Kermit, low byte first
    assert buf[n - 2] == c & 0xFF and buf[n - 1] == c >> 8
    got, fr = _frames(buf[:n])
    assert got == [(3, M.CLOSE, 0x01020304, b"\x11\x22\x33\x44")] and fr.bad == 0


def test_framer_finds_frames_after_noise_torn_frames_and_false_syncs():
    buf = bytearray(F.MAX_FRAME)
    frames = []
    for i in range(5):
        n = F.encode(buf, i + 1, M.POLL, i, 100 + i, bytes(range(i * 3)))
        frames.append(bytes(buf[:n]))
    torn = bytearray(frames[1])
    torn[7] ^= 0x40                 # a bit flipped inside: fails its CRC
    stream = b"\x00\xa5\xff\x13" + frames[0] + bytes(torn) + b"\xa5" + frames[2] + \
        frames[3][:5] + frames[4]   # a frame cut short, then a whole one
    got, fr = _frames(stream)
    assert [g[0] for g in got] == [1, 3, 5]
    assert fr.bad >= 2 and fr.good == 3


def test_framer_refuses_an_oversized_length_and_resyncs():
    buf = bytearray(F.MAX_FRAME)
    n = F.encode(buf, 2, M.STATUS, 1, 7, b"\x05")
    stream = b"\xa5\x01\x01\x00\x00\x00\x00\x00\xf0" + bytes(buf[:n])
    got, _ = _frames(stream)
    assert got == [(2, M.STATUS, 7, b"\x05")]


# ---- the round journal ------------------------------------------------------------
def _records(rounds):
    out = [RD.pack(RD.SHOOTER, 1, 1, 0)]
    for n in range(1, rounds + 1):
        out.append(RD.pack(RD.ROUND, n, n, 0b101, 1))
        if n % 7 == 0:
            out.append(RD.pack(RD.REROLL, n, n, M.COCKED))
        if n % 11 == 0:
            out.append(RD.pack(RD.VOID, n, n, M.DOOR))
        else:
            out.append(RD.pack(RD.RESULT, n, n, 1 + n % 6, 1 + n * 5 % 6, 1 + n % 3))
    return out


def test_round_journal_recalls_more_than_100_rounds_across_a_restart():
    flash = NorFlash(64 * 1024)
    log = RD.RoundLog(flash)
    log.boot(lambda: 0x1234)
    for p in _records(300):
        assert log.commit(p)
    log2 = RD.RoundLog(flash)
    assert log2.boot(lambda: 99) in (0, 1)
    r = log2.rounds
    assert r.tid == 0x1234 and r.round == 300 and not r.open
    assert r.count == RD.CAPACITY >= 100
    assert r.find(300 - RD.CAPACITY) is None and r.find(301) is None
    for n in (300 - RD.CAPACITY + 1, 250, 299, 300):
        e = r.find(n)
        if n % 11 == 0:
            assert (e[3], e[4], e[5]) == (0, 0, M.DOOR)
        else:
            assert (e[3], e[4]) == (1 + n % 6, 1 + n * 5 % 6)
        assert e[2] == 0b101
    assert r.encode() == log.rounds.encode()


def test_round_journal_refuses_records_out_of_turn():
    r = RD.Rounds()
    assert not r.apply(RD.pack(RD.RESULT, 0, 1, 2, 3, 0))      # no round open
    assert r.apply(RD.pack(RD.ROUND, 0, 5, 1, 0))
    assert not r.apply(RD.pack(RD.ROUND, 0, 6, 1, 0))           # one open at a time
    assert not r.apply(RD.pack(RD.RESULT, 0, 4, 2, 3, 0))       # another round's
    assert not r.apply(RD.pack(RD.RESULT, 0, 5, 7, 3, 0))       # no such die
    assert r.apply(RD.pack(RD.RESULT, 0, 5, 2, 3, 0))
    assert not r.apply(RD.pack(RD.ROUND, 0, 5, 1, 0))           # numbers only rise


def test_round_journal_cut_at_every_flash_operation_keeps_before_or_after():
    records = _records(140)
    ref = RD.RoundLog(NorFlash(64 * 1024))
    ref.boot(lambda: 7)
    states = [ref.rounds.encode()]
    ops = [ref.journal.dev.ops]
    for p in records:
        ref.commit(p)
        states.append(ref.rounds.encode())
        ops.append(ref.journal.dev.ops)
    step = 1 if FULL else 7
    tried = 0
    for cut in range(1, ops[-1] - ops[0] + 1, step):
        flash = NorFlash(64 * 1024)
        log = RD.RoundLog(flash)
        log.boot(lambda: 7)
        flash.cut_after(cut)
        done = 0
        try:
            for p in records:
                log.commit(p)
                done += 1
        except PowerCut:
            pass
        assert done < len(records)
        flash.power_on()
        again = RD.RoundLog(flash)
        assert again.boot(lambda: 8) != 3, (cut, again.reason)
        got = again.rounds.encode()
        assert got in (states[done], states[done + 1]), (cut, done)
        tried += 1
    assert tried > 100


# ---- the table: each invariant ---------------------------------------------------------
def _table(seats=3, **kw):
    kw.setdefault("players", False)
    kw.setdefault("cocked", 0)
    kw.setdefault("stuck", 0)
    return S.Table(11, seats=seats, **kw)


def _fund_and_bet(tb, seats, amount=500, kind=W.PASS):
    for a in seats:
        st = tb.seats[a - 1].store
        st.credit(0, T.SRC_BILL, 10000)
    tb.until(lambda: all(tb.seats[a - 1].seat.bets_open() == "" for a in seats))
    for a in seats:
        assert tb.seats[a - 1].store.bet(0, kind, amount) == R.OK


def _dome(tb):
    return tb.dome.dome


def _rounds(tb):
    return tb.dome.log.rounds


def test_invariant1_closed_before_shaken():
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    n = _rounds(tb).round
    assert _rounds(tb).roster == 0b111
    for node in tb.seats:           # each one's bets committed as round n's first
        led = node.store.ledger
        assert led.phase == L.CLOSED and led.round == n and (node.addr, n) in tb.witness.closed
    tb.until(lambda: all(s.store.ledger.phase == L.BETTING for s in tb.seats))
    assert all(len(s.store.ledger.recall) == 1 for s in tb.seats)


def test_invariant1_a_station_that_cannot_confirm_sits_out_with_its_bets():
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    t = tb.seats[1].store.ledger.table
    before = (t.credits, [list(b) for b in t.bets])
    tb.seats[1].flash.cut_after(1)      # its close commit is torn: no confirmation
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    n = _rounds(tb).round
    assert _rounds(tb).roster == 0b101
    tb.until(lambda: _dome(tb).phase == D.BETTING and tb.seats[1].up
             and tb.seats[1].store.ledger.phase == L.BETTING)
    led = tb.seats[1].store.ledger
    assert (led.table.credits, led.table.bets) == before and led.balance_check() == 0
    assert len(led.recall) == 0 and led.round != n or tb.witness.outcome.get((2, n)) == ("out",)
    assert tb.witness.outcome.get((1, n))[0] == "roll"


def test_invariant1_a_station_whose_answer_is_lost_is_told_it_sat_out():
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    # seat 3 commits its close but the dome never hears it: bus loss for its frames only
    orig = tb.send

    def lossy(sender, data):
        if sender != 3:
            orig(sender, data)
    tb.send = lossy
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    n = _rounds(tb).round
    assert tb.seats[2].store.ledger.phase == L.CLOSED and tb.seats[2].store.ledger.round == n
    assert _rounds(tb).roster == 0b011
    tb.send = orig
    tb.until(lambda: tb.seats[2].store.ledger.phase == L.BETTING)
    assert tb.witness.outcome[(3, n)] == ("out",)
    assert tb.seats[2].seat.sat_out == n and tb.seats[2].store.ledger.table.bets


def test_invariant2_same_dice_exactly_once_through_duplicates_and_restarts():
    tb = _table(3, dup=1000)            # every frame arrives twice
    _fund_and_bet(tb, (1, 2, 3), kind=W.FIELD, amount=100)
    tb.forced = [(2, 5)]
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    n = _rounds(tb).round
    tb._off(tb.seats[0])                 # seat 1 is off when the result goes out
    tb.down[tb.seats[0]] = tb.now_ms() + 6000
    tb.until(lambda: tb.seats[0].up and tb.seats[0].store.ledger.phase == L.BETTING)
    for node in tb.seats:
        rec = node.store.ledger.recall
        assert len(rec) == 1 and rec.get(0)["game"] == n and rec.get(0)["dice"] == (2, 5)
    assert tb.seats[0].boots == 2       # it asked after its restart (STATUS: round n open)


def _three_bet_and_shaking():
    """Three stations with $5 on the pass line, the dome shaking their round:
    (the table, each station's credits after its bet, the round)."""
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    credits = [s.store.ledger.table.credits for s in tb.seats]
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    return tb, credits, _rounds(tb).round


def test_invariant3_dome_door_mid_shake_voids_the_round_everywhere():
    tb, credits, n = _three_bet_and_shaking()
    tb.dome_why = M.DOOR
    tb.until(lambda: all(s.store.ledger.phase == L.BETTING for s in tb.seats))
    assert _rounds(tb).find(n)[5] == M.DOOR
    for i, node in enumerate(tb.seats):
        led = node.store.ledger
        assert led.recall.get(0)["voided"] and led.recall.get(0)["game"] == n
        assert led.table.credits == credits[i] + 500 and not led.table.bets
        assert led.meters.get("voided") == 1
    tb.until(lambda: tb.seats[0].seat.bets_open() == "DOME DOOR")  # the whole table waits
    assert all(s.seat.bets_open() == "DOME DOOR" for s in tb.seats)
    tb.dome_why = 0
    tb.until(lambda: tb.seats[0].seat.bets_open() == "")


def test_invariant3_cocked_lockup_voids_and_locks_the_table_until_reset():
    tb = _table(2)
    _fund_and_bet(tb, (1, 2))
    tb.forced = [(0, 3), (0, 3), (0, 3)]
    tb.until(lambda: _rounds(tb).lock)
    n = _rounds(tb).round
    assert _rounds(tb).find(n)[5] == M.COCKED and _rounds(tb).find(n)[6] == 3
    tb.until(lambda: all(s.store.ledger.phase == L.BETTING for s in tb.seats))
    assert all(s.store.ledger.recall.get(0)["voided"] for s in tb.seats)
    tb.until(lambda: tb.seats[0].seat.bets_open() == "DOME LOCKED")
    _dome(tb).reset(1)
    tb.until(lambda: tb.seats[0].seat.bets_open() == "")


def test_invariant4_a_replaced_dome_costs_no_station_a_cent():
    tb, credits, n = _three_bet_and_shaking()
    old_tid = _rounds(tb).tid
    tb.dome.flash = NorFlash(S.DOME_FLASH, seed=5)      # a new dome: blank journal
    tb._off(tb.dome)
    tb.until(lambda: tb.dome.up and all(s.seat.foreign() for s in tb.seats))
    assert _rounds(tb).tid != old_tid
    for node in tb.seats:
        assert node.seat.bets_open() == "IN ROUND %d" % n
        assert node.store.ledger.table.credits == credits[node.addr - 1]
    # the table goes on without waiting for them: they say they cannot join
    tb.until(lambda: _dome(tb).cur() > n)
    node = tb.seats[1]
    assert node.seat.attendant_void(9)
    led = node.store.ledger
    assert led.table.credits == credits[1] + 500 and led.balance_check() == 0
    assert led.meters.get("voided") == 1 and led.recall.get(0)["voided"]
    assert led.events.get(0)[1:] == (9, E.VOID, M.ATTENDANT)      # logged, and metered above
    assert not node.seat.attendant_void(9)           # once
    tb.until(lambda: node.seat.bets_open() == "")


def test_a_dome_cut_while_closing_its_first_round_closes_that_round_again():
    """Its journal has no round yet when the stations have committed their
    close: round 1 is theirs and the dome's to finish, not a round to number
    past (that left every station waiting for an attendant's void)."""
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    tb.until(lambda: all(s.store.ledger.phase == L.CLOSED for s in tb.seats))
    assert _dome(tb).phase == D.CLOSING and _rounds(tb).round == 0
    tb._off(tb.dome)
    tb.until(lambda: tb.dome.up)
    tb.until(lambda: _rounds(tb).round >= 1 and not _rounds(tb).open, 10000)
    assert _rounds(tb).round == 1 and _rounds(tb).roster == 0b111
    tb.until(lambda: all(s.store.ledger.phase == L.BETTING for s in tb.seats), 10000)
    for node in tb.seats:
        assert not node.seat.foreign() and node.store.ledger.recall.get(0)["game"] == 1


def test_a_station_whose_close_failed_to_commit_answers_nothing_and_sits_out():
    """A commit that raised in the journal's append (a passing fault: here a
    MemoryError) leaves its RAM ahead of its flash: the station answers
    nothing until it restarts, so the dome never counts it in (invariant 1)."""
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    st = tb.seats[1].store
    append = st.journal.append      # the witness's hook: it notes what was written

    def failing(payload):
        if payload[0] == SR.TCLOSE:
            raise MemoryError("planted")
        return append(payload)
    st.journal.append = failing
    tb.until(lambda: _dome(tb).phase == D.SHAKING)  # the witness checks the roster
    assert _rounds(tb).roster == 0b101 and st.restart_reason


def test_a_passing_fault_in_the_dome_journal_restarts_it_and_the_round_goes_on():
    """No memory while the dome journals its round is not a corrupt journal:
    no CRITICAL, no RAM clear (which would cost every station an attendant's
    void), but the table held until the dome restarts; then the same table
    closes the same round and every station settles it."""
    tb = _table(3)
    tid = _rounds(tb).tid
    _fund_and_bet(tb, (1, 2, 3))
    log = tb.dome.log
    append = log.journal.append
    failed = []

    def failing(payload):
        if payload[0] == RD.ROUND and not failed:
            failed.append(1)
            raise MemoryError("planted")
        return append(payload)
    log.journal.append = failing
    tb.until(lambda: failed)
    assert log.restart_reason and not log.critical
    assert _dome(tb).suspended() == M.LOCKED and not log.commit(RD.pack(RD.SHOOTER, 1, 2, 0))
    tb.until(lambda: not tb.dome.up)    # its shell restarts it
    tb.until(lambda: tb.dome.up and _rounds(tb).round == 1 and not _rounds(tb).open, 10000)
    assert _rounds(tb).tid == tid and _rounds(tb).roster == 0b111
    tb.until(lambda: all(s.store.ledger.phase == L.BETTING for s in tb.seats), 10000)
    assert all(s.store.ledger.recall.get(0)["game"] == 1 for s in tb.seats)


def test_invariant5_one_shooter_the_dice_pass_at_seven_out_and_on_idle():
    tb = _table(3)
    for node in tb.seats:
        assert node.store.set_config(0, "profile", "house") == R.OK   # 004: Sharp Shooter
    _fund_and_bet(tb, (1, 2, 3))
    tb.until(lambda: all(s.seat.shooter == 1 for s in tb.seats))
    assert tb.seats[0].seat.is_shooter() and not tb.seats[1].seat.is_shooter()
    assert not tb.seats[1].seat.shoot(tb.now_ms())     # ROLL only at the shooter's station
    for node in tb.seats:                               # a new shooter: Sharp Shooter is open
        assert node.store.bet(0, W.SHARP_SHOOTER, 100) == R.OK
    t0 = tb.now_ms()
    assert tb.seats[0].seat.shoot(tb.now_ms())
    tb.forced = [(2, 2), (3, 4)]                        # point 4, then the seven-out
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    assert tb.now_ms() - t0 < 1000                      # the shooter ended the window
    tb.until(lambda: _rounds(tb).round >= 2 and not _rounds(tb).open and
             all(s.store.ledger.phase == L.BETTING and s.store.ledger.round >= 2 or
                 s.store.ledger.recall and s.store.ledger.recall.get(0)["game"] >= 2
                 for s in tb.seats), 60000)
    assert _rounds(tb).shooter == 2 and _rounds(tb).turn == 2
    tb.until(lambda: all(s.seat.shooter == 2 for s in tb.seats))
    for node in tb.seats:
        led = node.store.ledger
        assert led.turn == 2 and led.table.new_shooter and led.balance_check() == 0
        assert not led.table.find(W.SHARP_SHOOTER)      # decided at the seven-out
    # Sharp Shooter for the new shooter, then the dice pass on the idle time
    for node in tb.seats:
        assert node.store.bet(0, W.SHARP_SHOOTER, 100) == R.OK
    _dome(tb).cfg["shooter_idle_ms"] = 500
    tb.until(lambda: _rounds(tb).shooter == 3, 20000)
    tb.until(lambda: all(s.store.ledger.turn == 3 for s in tb.seats))
    for node in tb.seats:
        led = node.store.ledger
        assert not led.table.find(W.SHARP_SHOOTER) and led.balance_check() == 0


def test_invariant6_a_station_door_suspends_only_itself():
    tb = _table(3)
    _fund_and_bet(tb, (1, 2, 3))
    tb.seats[1].store.event(0, E.DOOR_OPEN)
    t = tb.seats[1].store.ledger.table
    bets = (t.credits, [list(b) for b in t.bets])
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    n = _rounds(tb).round
    assert _rounds(tb).roster == 0b101
    tb.until(lambda: _dome(tb).phase == D.BETTING)
    tb.until(lambda: tb.seats[1].seat.sat_out == n)
    t = tb.seats[1].store.ledger.table
    assert (t.credits, t.bets) == bets
    tb.seats[1].store.event(0, E.DOOR_CLOSE)
    tb.until(lambda: _rounds(tb).round > n and _rounds(tb).open)
    assert _rounds(tb).roster & 0b010


def test_invariant6_a_station_with_nothing_may_leave_without_stopping_the_table():
    tb = _table(3)
    _fund_and_bet(tb, (1, 2))
    tb.seats[2].seat.leave = True
    tb.until(lambda: not _dome(tb).online & 0b100)
    tb._off(tb.seats[2])
    tb.down[tb.seats[2]] = 10 ** 9                      # gone for good
    t0 = tb.now_ms()
    tb.until(lambda: _dome(tb).phase == D.CLOSING)
    c0 = tb.now_ms()
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    assert tb.now_ms() - c0 < 100                       # nobody waited for it
    assert tb.now_ms() - t0 < 1500


def test_a_station_with_money_cannot_leave():
    tb = _table(2)
    _fund_and_bet(tb, (1, 2))
    tb.seats[1].seat.leave = True
    tb.step()
    tb.until(lambda: _dome(tb).phase == D.SHAKING)
    assert _dome(tb).online & 0b10 and _rounds(tb).roster == 0b11


# ---- faults -------------------------------------------------------------------------------
def _sweep(seed, rounds):
    print("link fault sweep: SEED=%d, %d rounds, 8 stations" % (seed, rounds))
    t0 = time.time()
    tb = S.Table(seed, seats=8, loss=50, dup=50, corrupt=50, delay=20, cuts=3000,
                 door_rate=3, dome_door_rate=3)
    tb.run_rounds(rounds)
    cuts = tb.power_cuts + tb.flash_cuts
    tb.settle()
    print("  %d rounds, %d power cuts (%d inside a flash operation), %d collisions, "
          "bus load %.1f%%, %.0f s" % (len(tb.witness.results), cuts, tb.flash_cuts,
                                        tb.bus.collisions, 100.0 * tb.bus.busy_us / tb.t,
                                        time.time() - t0))
    return tb, cuts


def test_fault_sweep_invariants_after_every_round():
    seed = int(os.getenv("SEED") or int.from_bytes(os.urandom(3), "little"))
    rounds = int(os.getenv("LINK_ROUNDS") or (10000 if FULL else 60))
    tb, cuts = _sweep(seed, rounds)
    # every station that was up was checked after every round
    assert cuts >= (300 if rounds >= 10000 else 3) and tb.witness.checked >= 6 * rounds
    for node in tb.seats:
        assert node.store.ledger.balance_check() == 0


def test_the_checks_catch_a_dome_that_does_not_wait():
    """The witness is not blind: a dome that counts every station on line
    in as the window ends, before any has committed, breaks invariant 1."""
    tb = _table(3)
    orig = D.Dome._betting

    def eager(self, now_ms, now_s, dt, why):
        orig(self, now_ms, now_s, dt, why)
        if self.phase == D.CLOSING:
            self.inmask = self.confirmed = self.online
    D.Dome._betting = eager
    try:
        _fund_and_bet(tb, (1, 2, 3))
        raised = None
        try:
            tb.until(lambda: _dome(tb).phase == D.SHAKING)
        except S.Violation as e:
            raised = e
    finally:
        D.Dome._betting = orig
    assert raised is not None and "I1" in str(raised)


def test_the_checks_catch_wrong_dice_and_a_lost_void():
    for fault in ("dice", "void"):
        tb = _table(2)
        orig = Seat._result

        def bad(self, n, v):
            v = list(v)
            if fault == "dice":
                v[1] = v[1] % 6 + 1
            else:
                v[3] = 0
                v[1] = v[2] = 1
            orig(self, n, tuple(v))
        Seat._result = bad
        try:
            _fund_and_bet(tb, (1, 2))
            if fault == "void":
                tb.until(lambda: _dome(tb).phase == D.SHAKING)
                tb.dome_why = M.DOOR
            raised = None
            try:
                tb.until(lambda: _rounds(tb).count and
                         all(s.store.ledger.phase == L.BETTING for s in tb.seats))
            except S.Violation as e:
                raised = e
        finally:
            Seat._result = orig
        assert raised is not None and "I2" in str(raised), fault


# ---- the half-duplex port --------------------------------------------------------------------
def test_half_duplex_port_drives_de_only_around_a_frame():
    from hal.mock.rs485 import LoopBus, loop_link
    bus = LoopBus()
    dome, seat = loop_link(bus), loop_link(bus)
    assert dome.de_log == [0] and seat.de_log == [0]       # listening from power-up
    buf = bytearray(F.MAX_FRAME)
    n = F.encode(buf, 1, M.POLL, 1, 5, b"")
    assert dome.write(buf[:n]) == n
    assert dome.de_log == [0, 1, 0]
    got = bytearray(64)
    assert seat.read(got) == n and got[:n] == buf[:n]
    assert dome.read(got) == 0                             # a node never hears itself

    class Broken:
        def write(self, data):
            raise OSError(5)
    from hal.rs485 import HalfDuplex
    log = []
    port = HalfDuplex(Broken(), log.append, lambda: True)
    try:
        port.write(b"x")
    except OSError:
        pass
    assert log == [0, 1, 0]                                # never left driving the bus


# ---- the station's records -------------------------------------------------------------------
def test_sharp_shooter_is_decided_by_the_points_made_when_the_turn_ends():
    from rules_helpers import mk
    for made, pays in ((0, 0), (2, 0), (3, 5), (4, 8), (10, 300)):   # 004's return table
        t = mk("house", 100)                 # $100
        assert t.place(W.SHARP_SHOOTER, 100) == R.OK
        t.bets[0][4] = made                  # points this shooter made so far
        assert SR.end_turn(t) == [(W.SHARP_SHOOTER, 100, 100 * pays + 100 if pays else 0)]
        assert not t.bets and t.staked == 0
        assert t.credits == 10000 - 100 + (100 * pays + 100 if pays else 0)


def test_station_snapshot_keeps_its_open_round_table_id_and_turn():
    from firmware.store.store import Store
    flash = NorFlash(128 * 1024)
    st = Store(flash)
    st.boot(1)
    assert st.credit(1, T.SRC_BILL, 2000) == R.OK and st.bet(1, W.PASS, 500) == R.OK
    assert st.commit(T.pack(SR.TSHOOTER, 1, 3, 1)) == R.OK
    assert st.commit(T.pack(SR.TCLOSE, 1, 41, 0xCAFE)) == R.OK
    assert st.commit(T.pack(SR.TCLOSE, 1, 42, 0xCAFE)) != R.OK    # one open round at a time
    st.journal.write_snapshot(st.ledger.pieces())
    again = Store(flash)
    assert again.boot(2) in (0, 1)
    led = again.ledger
    assert (led.phase, led.round, led.tid, led.turn) == (L.CLOSED, 41, 0xCAFE, 3)
    assert again.commit(T.pack(SR.TROLL, 2, 41, 3, 4, 0, 3, 0)) == R.OK
    assert again.commit(T.pack(SR.TROLL, 2, 41, 3, 4, 0, 3, 0)) != R.OK  # exactly once
    assert led.recall.get(0)["game"] == 41 and led.recall.get(0)["dice"] == (3, 4)
    assert led.balance_check() == 0


def test_bench_link_prints_its_figures_and_fails_a_missed_budget():
    import sys
    sys.path.insert(0, "tools")
    import bench_link as BL
    assert BL.main(["--rounds", "4"]) == 0          # 8 stations at 115,200 baud
    budget = BL.BUDGET_MS
    BL.BUDGET_MS = 5                                # the close alone takes longer
    try:
        assert BL.main(["--rounds", "4"]) == 1
    finally:
        BL.BUDGET_MS = budget
