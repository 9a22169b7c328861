"""A table in one process: the dome's and N stations' pure link logic
(firmware/link) over their own mock flash, joined by a bus model that
drops, duplicates, corrupts and delays frames, garbles colliding ones, and
cuts the power of either side at any instant (between two steps, or inside
a flash operation through the NOR model). Used by tests_host/test_link.py
and `tools/bench link`.

Witnesses: every record a journal append returned is noted (the hook sees
it committed), and a node's boot notes what its replayed state says was
committed (an append torn after its commit byte). The invariants of
firmware/link/LINK.md are checked against them as the rounds go.
"""
from hal.mock.norflash import NorFlash, PowerCut
from hal.mock.xorshift import Rng
from firmware.link import dome as D
from firmware.link import messages as M
from firmware.link import rounds as RD
from firmware.link.seat import Seat
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import ledger as L
from firmware.store import seat_records as SR
from firmware.store.store import Store

BAUD = 115200
BITS = 11                     # start, 8 data, 2 stop (LINK.md)
DOME_FLASH = 64 * 1024
SEAT_FLASH = 128 * 1024
# the time a station's flash commit takes (three page programs at the
# typical 0.4 ms, hal/mock/hostile.py) before it can answer
COMMIT_US = 1200
RESTART_MS = 2000             # the shells' RESTARTING screen (firmware/cabinet/controller.py, firmware/table/dome.py)


class Violation(BaseException):
    """Raised from inside the journal hooks: like a power cut it must pass
    the firmware's `except Exception` (which would lock the node instead)."""


class Bus:
    """Half-duplex RS-485: a frame takes len * BITS / baud on the wire; two
    that overlap garble each other. Faults per frame and receiver (per
    mille): lost, delivered twice, a byte corrupted, delivered late."""

    def __init__(self, rng, loss=0, dup=0, corrupt=0, delay=0, baud=BAUD):
        self.rng = rng
        self.loss, self.dup, self.corrupt, self.delay = loss, dup, corrupt, delay
        self.byte_us = BITS * 1000000 // baud
        self.air = []             # [start, end, sender, data, collided]
        self.pending = []         # (time, receiver, data)
        self.busy_us = 0          # time the wire carried a frame
        self.frames = 0
        self.collisions = 0

    def send(self, t, sender, data, receivers):
        end = t + len(data) * self.byte_us
        mine = [t, end, sender, bytes(data), False]
        for f in self.air:
            if f[1] > t and f[0] < end:
                f[4] = mine[4] = True
                self.collisions += 1
        self.air.append(mine)
        self.busy_us += end - t
        self.frames += 1
        for r in receivers:
            self._deliver(mine, r)
        return end

    def _deliver(self, f, r):
        rng = self.rng
        if rng.below(1000) < self.loss:
            return
        copies = 2 if rng.below(1000) < self.dup else 1
        for c in range(copies):
            at = f[1] + c * (len(f[3]) * self.byte_us)
            if rng.below(1000) < self.delay:
                at += 1000 + rng.below(20000)
            self.pending.append((at, r, f))

    def due(self, t):
        """Frames to hand over by time t: (receiver, bytes)."""
        out = []
        keep = []
        for p in self.pending:
            if p[0] <= t:
                out.append(p)
            else:
                keep.append(p)
        self.pending = keep
        out.sort(key=lambda p: p[0])
        self.air = [f for f in self.air if f[1] > t - 50000]
        res = []
        for at, r, f in out:
            data = bytearray(f[3])
            if f[4]:              # collided: what a receiver gets is noise
                for i in range(len(data)):
                    data[i] ^= self.rng.below(256)
            elif self.rng.below(1000) < self.corrupt:
                data[self.rng.below(len(data))] ^= 1 << self.rng.below(8)
            res.append((r, bytes(data)))
        return res


class Witness:
    """What each journal is known to hold, and the invariant checks."""

    def __init__(self):
        self.closed = {}          # (seat, round) -> table id
        self.outcome = {}         # (seat, round) -> ("roll", d1, d2) | ("void", why) | ("out",)
        self.rounds = {}          # round -> roster (dome ROUND records)
        self.results = {}         # round -> (d1, d2) or ("void", why)
        self.tid = None
        self.checked = 0

    def dome_record(self, payload):
        f = RD.unpack(payload)
        t = f[0]
        if t == RD.TABLE:
            self.tid = f[2]
        elif t == RD.ROUND:
            n, roster = f[2], f[3]
            for s in range(1, 9):
                if roster & (1 << (s - 1)) and self.closed.get((s, n)) != self.tid:
                    raise Violation("I1: round %d shaken with seat %d in, which had not "
                                    "committed its close" % (n, s))
            self.rounds[n] = roster
        elif t == RD.RESULT:
            self.results[f[2]] = (f[3], f[4])
        elif t == RD.VOID:
            self.results[f[2]] = ("void", f[3])

    def dome_booted(self, rounds):
        """A dome record committed by an append the cut kept from returning
        is in the state its boot replayed: noted from there."""
        self.tid = rounds.tid
        for back in range(rounds.count - 1, -1, -1):
            n, time, roster, d1, d2, why = rounds.entry(back)[:6]
            self.dome_finished(n, roster, d1, d2, why)
        if rounds.open:
            self.dome_open(rounds.round, rounds.roster)

    def dome_finished(self, n, roster, d1, d2, why, seen=True):
        """A finished round the dome's journal holds; `seen`: it finished while
        this witness watched (else its closes were never seen: no check)."""
        if n not in self.rounds:
            if seen:
                self.dome_record(RD.pack(RD.ROUND, 0, n, roster, 0))
            else:
                self.rounds[n] = roster
        if n not in self.results:
            self.results[n] = ("void", why) if why else (d1, d2)

    def dome_open(self, n, roster):
        if n not in self.rounds:
            self.dome_record(RD.pack(RD.ROUND, 0, n, roster, 0))

    def seat_record(self, s, payload):
        rec = T.unpack(payload)
        t, f = rec[0], rec[2]
        if t == SR.TCLOSE:
            self.closed[(s, f[0])] = f[1]
            return
        if t not in (SR.TROLL, SR.TVOID, SR.TOUT):
            return
        n = f[0]
        if (s, n) in self.outcome:
            raise Violation("I2: seat %d settled round %d twice" % (s, n))
        if t == SR.TROLL:
            out = ("roll", f[1], f[2])
            if self.results.get(n) != (f[1], f[2]):
                raise Violation("I2: seat %d settled round %d with %d+%d, the dome journalled %r"
                                % (s, n, f[1], f[2], self.results.get(n)))
        elif t == SR.TVOID:
            out = ("void", f[1])
            if f[1] != M.ATTENDANT and self.results.get(n) != ("void", f[1]):
                raise Violation("I3: seat %d voided round %d, the dome has %r"
                                % (s, n, self.results.get(n)))
        else:
            out = ("out",)
            if self.rounds.get(n, 0) & (1 << (s - 1)):
                raise Violation("I1: seat %d sat out round %d it was counted in" % (s, n))
        if t != SR.TOUT and not self.rounds.get(n, 0) & (1 << (s - 1)):
            raise Violation("seat %d settled round %d it was not counted in" % (s, n))
        self.outcome[(s, n)] = out

    def seat_booted(self, s, led):
        if led.phase == L.CLOSED:
            self.closed.setdefault((s, led.round), led.tid)

    def check_seat(self, s, store):
        """The station's state against the dome's journal (check_recall),
        and not locked."""
        if store.critical:
            raise Violation("seat %d CRITICAL: %s" % (s, store.reason))
        led = store.ledger
        rec = led.recall
        games = []
        for i in range(len(rec)):
            g = rec.get(i)
            games.append((g["game"], g["dice"][0], g["dice"][1], g["voided"]))
        self.check_recall(s, games, led.balance_check())

    def check_recall(self, s, games, balance):
        """Every game in a station's recall, (round, d1, d2, voided), has the
        dome's dice for that round (or its void), and its balance check is 0."""
        if balance:
            raise Violation("seat %d: balance check %d" % (s, balance))
        for n, d1, d2, voided in games:
            want = self.results.get(n)
            if want is None:
                raise Violation("seat %d recall shows round %d the dome never finished" % (s, n))
            if voided:
                if want[0] != "void" and self.outcome.get((s, n), ("void", M.ATTENDANT)) != \
                        ("void", M.ATTENDANT):
                    raise Violation("I3: seat %d recall: round %d void, dome %r" % (s, n, want))
            elif (d1, d2) != want:
                raise Violation("I2: seat %d recall: round %d %d+%d, dome %r" % (s, n, d1, d2, want))
            if not self.rounds.get(n, 0) & (1 << (s - 1)):
                raise Violation("seat %d recall holds round %d it was not in" % (s, n))
        self.checked += 1


class DomeNode:
    def __init__(self, table):
        self.table = table
        self.flash = NorFlash(DOME_FLASH, seed=table.rng.below(1 << 30) + 1)
        self.up = False
        self.boots = 0

    def boot(self, now_ms):
        tb = self.table
        self.flash.power_on()
        log = RD.RoundLog(self.flash)
        tb.hook(log.journal, lambda p: tb.witness.dome_record(p))
        log.boot(lambda: tb.rng.below(1 << 31) + 1)
        tb.witness.dome_booted(log.rounds)
        self.log = log
        self.dome = D.Dome(log, now_ms, tb.dome_config)
        self.shaking = None       # (shake_no, settle time ms)
        self.up = True
        self.boots += 1

    def step(self, now_ms):
        tb = self.table
        d = self.dome
        d.suspend(tb.dome_why)
        if d.phase == D.SHAKING:
            if self.shaking is None or self.shaking[0] != d.shake_no:
                self.shaking = (d.shake_no, now_ms + tb.shake_ms)
            elif now_ms >= self.shaking[1]:
                r = tb.rng
                faces = (r.below(6) + 1, r.below(6) + 1)
                if r.below(1000) < tb.cocked:
                    faces = (0, faces[1])
                moved = not (r.below(1000) < tb.stuck)
                if tb.forced:
                    faces, moved = tb.forced.pop(0), True
                self.shaking = None
                d.outcome(now_ms, now_ms // 1000, faces, moved)
        else:
            self.shaking = None
        n = d.tick(now_ms, now_ms // 1000)
        if n:
            tb.send("dome", d.out[:n])

    def feed(self, data):
        fr = self.dome.framer
        for x in data:
            fr.feed(x)


class SeatNode:
    def __init__(self, table, addr):
        self.table = table
        self.addr = addr
        self.flash = NorFlash(SEAT_FLASH, seed=table.rng.below(1 << 30) + 1)
        self.up = False
        self.boots = 0
        self.answer_at = None
        self.door = False

    def boot(self, now_ms):
        tb = self.table
        self.flash.power_on()
        st = Store(self.flash)
        st.boot(now_ms // 1000)
        tb.hook(st.journal, lambda p: tb.witness.seat_record(self.addr, p))
        self.store = st
        self.seat = Seat(self.addr, st, now_ms)
        self.seat.now_s = now_ms // 1000
        tb.witness.seat_booted(self.addr, st.ledger)
        if st.critical:
            raise Violation("seat %d boots CRITICAL: %s" % (self.addr, st.reason))
        self.up = True
        self.boots += 1
        self.answer_at = None

    def feed(self, now_ms, data):
        s = self.seat
        s.step(now_ms, now_ms // 1000)
        before = s.store.journal.seq
        s.feed(data)
        n = s.answer(now_ms)
        if n:
            # an answer after a commit leaves later by the flash time
            late = self.table.latency_us + (COMMIT_US if s.store.journal.seq != before else 0)
            self.answer_at = (self.table.t + late, bytes(s.out[:n]))

    def play(self, now_ms):
        """The player: money in, bets while the table takes them, ROLL when
        shooting, the door now and then, leaving when broke."""
        tb = self.table
        r = tb.rng
        st = self.store
        s = self.seat
        led = st.ledger
        now = now_ms // 1000
        s.step(now_ms, now)
        if r.below(1000) < (100 if self.door else tb.door_rate):
            self.door = not self.door
            st.event(now, 2 if self.door else 3)    # events.DOOR_OPEN / DOOR_CLOSE
        if self.door:
            return
        if led.table.credits < 500 and r.below(4) == 0:
            st.credit(now, T.SRC_BILL, 2000)
        if s.bets_open() == "" and r.below(3) == 0:
            kind = (W.PASS, W.FIELD, W.ANY7, W.PLACE)[r.below(4)]
            num = (4, 5, 6, 8, 9, 10)[r.below(6)] if kind == W.PLACE else 0
            code = st.bet(now, kind, 500 if kind != W.FIELD else 100, num)
            if code not in (R.OK,) and code in (R.LOCKED,):
                pass
        if s.is_shooter() and r.below(5) == 0:
            s.shoot(now_ms)


class Table:
    def __init__(self, seed, seats=8, loss=0, dup=0, corrupt=0, delay=0, cuts=0,
                 window_ms=300, result_ms=200, shake_ms=80, cocked=30, stuck=10,
                 door_rate=0, dome_door_rate=0, players=True, latency_us=100):
        self.rng = Rng(seed, 0x5EED)
        self.t = 0                # microseconds
        self.witness = Witness()
        self.bus = Bus(self.rng, loss, dup, corrupt, delay)
        self.dome_config = {"window_ms": window_ms, "result_ms": result_ms,
                            "shooter_idle_ms": 20 * window_ms}
        self.shake_ms = shake_ms
        self.forced = []          # faces for the next shakes (scenario tests)
        self.cocked = cocked
        self.stuck = stuck
        self.door_rate = door_rate
        self.dome_door_rate = dome_door_rate
        self.cuts = cuts          # per 100,000 per 50 ms: a power cut somewhere
        self.players = players
        self.latency_us = latency_us  # a station's loop: a frame in to its answer out
        self.dome_why = 0
        self.dome = DomeNode(self)
        self.seats = [SeatNode(self, a) for a in range(1, seats + 1)]
        self.down = {}            # node -> ms it comes back
        self.restarts = {}        # node -> ms its shell resets it (a passing fault)
        self.power_cuts = 0
        self.flash_cuts = 0
        self.dome.boot(0)
        for s in self.seats:
            s.boot(0)
        self._rounds_seen = 0

    def hook(self, journal, note):
        append = journal.append

        def noted(payload):
            seq = append(payload)
            note(bytes(payload))
            return seq
        journal.append = noted

    def send(self, sender, data):
        if sender == "dome":
            rx = [s for s in self.seats]
        else:
            rx = [self.dome]
        self.bus.send(self.t, sender, data, rx)

    def now_ms(self):
        return self.t // 1000

    def _cut(self, node):
        """Power off a node: between steps, or inside its next flash
        operations (torn program or erase, hal/mock/norflash.py)."""
        r = self.rng
        if r.below(2):
            node.flash.cut_after(1 + r.below(12))
            self.flash_cuts += 1
        else:
            self._off(node)

    def _off(self, node):
        node.up = False
        node.flash.dead = True
        self.down[node] = self.now_ms() + 20 + self.rng.below(1500)
        self.power_cuts += 1

    def _run(self, node, fn, *args):
        try:
            fn(*args)
        except PowerCut:
            self._off(node)

    def step(self):
        """One millisecond of the table."""
        self.t += 1000
        ms = self.now_ms()
        for node, when in list(self.down.items()):
            if ms >= when:
                del self.down[node]
                self._run(node, node.boot, ms)
        for r, data in self.bus.due(self.t):
            if r.up:
                if r is self.dome:
                    self._run(r, r.feed, data)
                else:
                    self._run(r, r.feed, ms, data)
        for s in self.seats:
            if s.up and s.answer_at and s.answer_at[0] <= self.t:
                data = s.answer_at[1]
                s.answer_at = None
                self.send(s.addr, data)
        if self.dome.up:
            self._run(self.dome, self.dome.step, ms)
            if self.dome.log.critical:
                raise Violation("dome CRITICAL: %s" % self.dome.log.reason)
        # a passing fault (no memory, a device) stops a node; its shell shows
        # RESTARTING for RESTART_MS, then resets it
        for node in [self.dome] + self.seats:
            if node.up and (node.log.restart_reason if node is self.dome else node.store.restart_reason):
                due = self.restarts.setdefault(node, ms + RESTART_MS)
                if ms >= due:
                    del self.restarts[node]
                    self._off(node)

    def until(self, cond, limit_ms=30000):
        """Steps until cond() holds (no players, no faults unless set)."""
        end = self.now_ms() + limit_ms
        while not cond():
            if self.now_ms() > end:
                raise Violation("timed out waiting")
            self.step()

    def run_rounds(self, rounds, max_ms=None):
        """Plays until the dome has finished `rounds` more rounds; checks
        the stations after each."""
        target = len(self.witness.results) + rounds
        limit = self.now_ms() + (max_ms or rounds * 60000)
        last_play = -1
        while len(self.witness.results) < target:
            if self.now_ms() > limit:
                raise Violation("stalled: %d of %d rounds in %d ms (dome phase %s)" % (
                    len(self.witness.results) - target + rounds, rounds, self.now_ms(),
                    self.dome.dome.phase if self.dome.up else "down"))
            self.step()
            ms = self.now_ms()
            if ms // 50 != last_play:
                last_play = ms // 50
                for s in self.seats:
                    if s.up and self.players:
                        self._run(s, s.play, ms)
                r = self.rng
                if self.dome_door_rate and r.below(10000) < self.dome_door_rate:
                    self.dome_why = 0 if self.dome_why else M.DOOR
                if self.cuts and r.below(100000) < self.cuts:
                    nodes = [n for n in [self.dome] + self.seats if n.up]
                    if nodes:
                        self._cut(nodes[r.below(len(nodes))])
            n = len(self.witness.results)
            if n != self._rounds_seen:
                self._rounds_seen = n
                for s in self.seats:
                    if s.up:
                        self.witness.check_seat(s.addr, s.store)
        return len(self.witness.results)

    def settle(self, calm_ms=3000, limit_ms=60000):
        """No more faults or players: run until every station has settled
        every round it was in (and a calm spell after), then the end checks."""
        self.bus.loss = self.bus.dup = self.bus.corrupt = self.bus.delay = 0
        self.cuts = 0
        self.dome_why = 0
        start = self.now_ms()
        while True:
            self.step()
            ms = self.now_ms()
            quiet = not self.down and self.dome.dome.phase == D.BETTING and \
                all(s.store.ledger.phase == L.BETTING for s in self.seats)
            if quiet and ms - start >= calm_ms:
                break
            if ms - start > limit_ms:
                raise Violation("the table did not settle in %d ms" % limit_ms)
        w = self.witness
        for s in self.seats:
            w.check_seat(s.addr, s.store)
        for n, roster in w.rounds.items():
            if n not in w.results:
                continue
            for s in self.seats:
                if not roster & (1 << (s.addr - 1)) or (s.addr, n) in w.outcome:
                    continue
                # settled by a commit whose append never returned (its boot
                # found it), or gone from a full recall: the recall says
                rec = s.store.ledger.recall
                games = [rec.get(i)["game"] for i in range(len(rec))]
                if n not in games and (len(rec) < 100 or n > min(games)):
                    raise Violation("seat %d was in round %d and never settled it" % (s.addr, n))
