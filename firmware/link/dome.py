"""The dome controller's round clock and the link's master, pure logic.

One round N (firmware/link/LINK.md has the diagram):
  BETTING   the window runs while a station on line has bets (paused while
            the table is suspended); it ends at zero or when the shooter
            presses ROLL
  CLOSING   CLOSE N broadcast, then asked of each station on line until it
            confirms (closed N with its bets committed, or nothing to bet)
            or the close window ends: who did not confirm sits out
  SHAKING   ROUND N journalled with its roster, then the shaker runs; the
            shell reports the settled faces (outcome()); a re-shake or a
            void is journalled like the result
  RESULTS   RESULT N journalled, broadcast, then asked of every station in
            it until each has it; after the result's time BETTING N+1
The dome's door or tilt suspends the table; in CLOSING or SHAKING it voids
the round. A station asking for an older round (it restarted) gets it from
the round journal.

The shell passes the time in (tick), the switches (suspend), the faces
(outcome), feeds received bytes to `framer`, sends `out[:n]` when tick()
returns n, and runs the shaker while `phase == SHAKING` (a new shake each
time `shake_no` changes).
"""
from micropython import const
from firmware.link import frame as F
from firmware.link import messages as M
from firmware.link import rounds as RD

BETTING = M.BETTING
CLOSING = M.CLOSING
SHAKING = M.SHAKING
RESULTS = M.RESULTS

SEATS = const(8)
# link timing (ms) at 115,200 baud: LINK.md "Timeouts and retries"
POLL_MS = const(200)      # a station on line is polled this often
PROBE_MS = const(1000)    # an address off line is tried this often
BYTE_US = const(96)       # a byte on the wire: 11 bits at 115,200 baud
REPLY_MS = const(15)      # an answer starts within this or the poll is a miss
COMMIT_MS = const(12)     # after the broadcast CLOSE: the stations commit meanwhile
CLOSE_MS = const(600)     # the close window: who has not confirmed sits out
OFFLINE_MISSES = const(3)  # misses in a row that take a station off line
RESULT_MS = const(4000)   # a result is on view this long before the next window

DEFAULTS = {"window_ms": 15000, "shooter_idle_ms": 120000, "cocked_lockup": 3,
            "stuck_lockup": 3, "result_ms": RESULT_MS, "close_ms": CLOSE_MS,
            "poll_ms": POLL_MS}


class Dome:
    def __init__(self, log, now_ms, config=None):
        self.log = log                  # rounds.RoundLog
        cfg = dict(DEFAULTS)
        if config:
            cfg.update(config)
        self.cfg = cfg
        self.framer = F.Framer(self._frame)
        self.out = bytearray(F.MAX_FRAME)
        # what each station said last (index = address; 0 unused)
        self.flags = bytearray(SEATS + 1)
        self.srnd = [0] * (SEATS + 1)
        self.misses = bytearray(SEATS + 1)
        self.due = [now_ms] * (SEATS + 1)
        self.online = 0                 # bit s: station s answers
        self.seen_round = 0             # newest round a station settled or holds for another table
        self.waiting = 0                # address whose answer is awaited
        self.seq = 0                    # of the newest frame sent
        self.told = None                # the table as the last broadcast POLL told it
        self.sent_ms = now_ms
        self.quiet_ms = now_ms
        self.sent_kind = 0
        self.sent_rnd = 0
        self.cursor = 0                 # round-robin position of the asking
        self.why = 0                    # the shell's switches: 0, M.DOOR, M.TILT
        self.phase = BETTING
        self.remaining = -1             # window left, ms (-1: not running)
        self._last = now_ms
        self.t0 = now_ms                # start of the close / of the result's time
        self.bcast = False              # this phase's broadcast went out
        self.confirmed = 0
        self.inmask = 0
        self.acked = 0
        self.shake_no = 0               # the shell shakes again when this changes
        self.prev_faces = None
        self.shot_ms = now_ms           # the shooter's newest ROLL (or taking the dice)
        self.turn_seen = log.rounds.turn
        self.closing = 0                # the round being closed
        self.hold = 0                   # how long this result stays on view
        self.frame_n = 0
        self.frames = 0                 # frames sent (bench)
        self.bytes_out = 0
        r = log.rounds
        if r.open:
            self.phase = SHAKING        # cut mid-roll: the same round, the same roster
            self.shake_no = 1

    # ---- the shell's inputs ---------------------------------------------
    def suspend(self, why):
        self.why = why

    def suspended(self):
        """Why the table is suspended now (messages.WHY_*), 0 if it is not."""
        if self.why:
            return self.why
        log = self.log
        if log.stopped() or log.rounds.lock:
            return M.LOCKED
        return 0

    def cur(self):
        """The round bets go into now (BETTING, CLOSING), or in play."""
        r = self.log.rounds
        if r.open or self.phase == RESULTS:
            return r.round
        if self.phase == CLOSING:
            return self.closing
        return self._next_round()

    def _next_round(self):
        r = self.log.rounds
        # a new table numbers on from the stations' rounds: each station's
        # recall then keeps rising numbers across a dome replaced
        return (r.round if r.round else self.seen_round) + 1

    def outcome(self, now_ms, now_s, faces, moved):
        """The settled faces of this shake ((0, x): unreadable) and whether
        the motion sensor saw the dice move (None: no sensor)."""
        if self.phase != SHAKING:
            return
        r = self.log.rounds
        cfg = self.cfg
        stuck = moved is False or (moved is None and faces == self.prev_faces)
        if stuck or faces[0] == 0 or faces[1] == 0:
            why = M.STUCK if stuck else M.COCKED
            if not self.log.commit(RD.pack(RD.REROLL, now_s, r.round, why)):
                return
            run = r.stuck_run if stuck else r.cocked_run
            if run >= cfg["stuck_lockup" if stuck else "cocked_lockup"]:
                self._void(now_ms, now_s, why)
                self.log.commit(RD.pack(RD.LOCK, now_s, why))
            else:
                self.shake_no += 1
            return
        nxt = r.shooter
        t = faces[0] + faces[1]
        if r.point and t == 7:          # seven-out: the dice pass
            nxt = RD.next_shooter(r.shooter, self._occupied())
        if self.log.commit(RD.pack(RD.RESULT, now_s, r.round, faces[0], faces[1], nxt)):
            self.prev_faces = faces
            self._results(now_ms, self.cfg["result_ms"])

    def reset(self, now_s):
        """The attendant's reset of a lockup at the dome."""
        if self.log.rounds.lock:
            self.log.commit(RD.pack(RD.RESET, now_s))

    # ---- one pass ----------------------------------------------------------
    def tick(self, now_ms, now_s):
        """Advances the round and the link; returns the length of a frame
        to send now in `out`, or 0."""
        if self.waiting:
            if now_ms - self.sent_ms < REPLY_MS:
                self._clock(now_ms, now_s)
                return 0
            self._miss(self.waiting)
        self._clock(now_ms, now_s)
        if now_ms - self.quiet_ms < 0:
            return 0                    # our last broadcast is still on the wire
        return self._next_frame(now_ms)

    def _clock(self, now_ms, now_s):
        dt = now_ms - self._last
        self._last = now_ms
        why = self.suspended()
        ph = self.phase
        if ph == BETTING:
            self._betting(now_ms, now_s, dt, why)
        elif ph == CLOSING:
            if why:
                self._commit_round(now_s)
                self._void(now_ms, now_s, why)
            elif (self.confirmed & self.online) == self.online or \
                    now_ms - self.t0 >= self.cfg["close_ms"]:
                if not self._commit_round(now_s):
                    return                  # not in the journal: nothing is shaken
                if not self.inmask:
                    self._void(now_ms, now_s, M.EMPTY, 0)
                else:
                    self.phase = SHAKING
                    self.shake_no += 1
        elif ph == SHAKING:
            if why and why != M.LOCKED:
                self._void(now_ms, now_s, why)
        elif now_ms - self.t0 >= self.hold:
            self.phase = BETTING
            self.remaining = -1

    def _betting(self, now_ms, now_s, dt, why):
        r = self.log.rounds
        if why:
            return                      # the window waits with the table
        self._keep_shooter(now_ms, now_s)
        waiting = False
        online = self.online
        for s in range(1, SEATS + 1):
            f = self.flags[s]
            if online & (1 << (s - 1)) and (f & M.PENDING or f & M.BETS and not f & M.OUT) \
                    and not f & M.FOREIGN:
                waiting = True
                break
        if not waiting:
            self.remaining = -1
            return
        if self.remaining < 0:
            self.remaining = self.cfg["window_ms"]
            return
        self.remaining -= dt
        s = r.shooter
        if s and self.flags[s] & M.SHOOT and online & (1 << (s - 1)):
            self.remaining = 0          # the shooter shoots
            self.shot_ms = now_ms
        if self.remaining <= 0:
            self.remaining = -1
            self.phase = CLOSING
            self.t0 = now_ms
            self.bcast = False
            self.confirmed = 0
            self.inmask = 0
            self.closing = self._next_round()

    def _keep_shooter(self, now_ms, now_s):
        """Between rounds: the dice go to the next occupied station when the
        shooter's seat is empty or gone, or after the idle time with no shot."""
        r = self.log.rounds
        if r.turn != self.turn_seen:    # new shooter: the idle time starts now
            self.turn_seen = r.turn
            self.shot_ms = now_ms
        occ = self._occupied()
        s = r.shooter
        idle = self.cfg["shooter_idle_ms"]
        gone = not (occ & (1 << (s - 1))) if s else bool(occ)
        timeout = s and idle and now_ms - self.shot_ms >= idle
        if not (gone or timeout):
            return
        nxt = RD.next_shooter(s, occ & ~(1 << (s - 1)) if timeout else occ) if occ else 0
        if timeout and not nxt:
            nxt = s                     # nobody else to take them
        if nxt != s and self.log.commit(RD.pack(RD.SHOOTER, now_s, nxt, 1 if timeout else 0)):
            self.shot_ms = now_ms
        elif timeout:
            self.shot_ms = now_ms

    def _occupied(self):
        occ = 0
        for s in range(1, SEATS + 1):
            f = self.flags[s]
            if self.online & (1 << (s - 1)) and f & M.OCCUPIED and not f & (M.OUT | M.LEAVE | M.FOREIGN):
                occ |= 1 << (s - 1)
        return occ

    def _commit_round(self, now_s):
        """True once the round being closed is in the journal."""
        r = self.log.rounds
        return r.open or self.log.commit(RD.pack(RD.ROUND, now_s, self.closing, self.inmask, r.shooter))

    def _void(self, now_ms, now_s, why, hold=None):
        r = self.log.rounds
        if r.open and self.log.commit(RD.pack(RD.VOID, now_s, r.round, why)):
            self._results(now_ms, self.cfg["result_ms"] if hold is None else hold)

    def _results(self, now_ms, hold):
        self.phase = RESULTS
        self.t0 = now_ms
        self.bcast = False
        self.acked = 0
        self.hold = hold
        if not hold:
            self.phase = BETTING
            self.remaining = -1

    # ---- frames out ---------------------------------------------------------
    def _next_frame(self, now_ms):
        r = self.log.rounds
        ph = self.phase
        if ph == CLOSING:
            if not self.bcast:
                self.bcast = True
                return self._send(now_ms, F.BROADCAST, M.CLOSE, self.closing,
                                  _pack_tid(r.tid), False)
            if now_ms - self.t0 >= COMMIT_MS:
                s = self._next_seat(self.online & ~self.confirmed)
                if s:
                    if self._catch_up(now_ms, s):
                        return self.frame_n
                    return self._send(now_ms, s, M.CLOSE, self.closing, _pack_tid(r.tid), True)
        elif ph == RESULTS and r.count:
            e = r.entry(0)
            if not self.bcast:
                self.bcast = True
                return self._send(now_ms, F.BROADCAST, M.RESULT, e[0], M.result(r.tid, e), False)
            s = self._next_seat(r.roster & self.online & ~self.acked)
            if s:
                return self._send(now_ms, s, M.RESULT, e[0], M.result(r.tid, e), True)
        # the table changed (phase, suspension, shooter): every station hears it at once
        key = (self.phase, self.suspended(), self.cur(), r.turn, r.shooter)
        if key != self.told:
            self.told = key
            return self._send(now_ms, F.BROADCAST, M.POLL, self.cur(), self._poll_body(), False)
        # status polls; a station with an older round open gets its result
        best = 0
        for s in range(1, SEATS + 1):
            if now_ms - self.due[s] >= 0 and (not best or self.due[s] - self.due[best] < 0):
                best = s
        if not best:
            return 0
        s = best
        self.due[s] = now_ms + (self.cfg["poll_ms"] if self.online & (1 << (s - 1)) else PROBE_MS)
        if self.online & (1 << (s - 1)) and self._catch_up(now_ms, s):
            return self.frame_n
        return self._send(now_ms, s, M.POLL, self.cur(), self._poll_body(), True)

    def _poll_body(self):
        r = self.log.rounds
        secs = 255 if self.remaining < 0 else min(254, (self.remaining + 999) // 1000)
        d1 = d2 = 0
        if r.count:
            e = r.entry(0)
            d1, d2 = e[3], e[4]
        return M.poll(r.tid, self.phase, secs, r.shooter, 1 if r.rolls == 0 else 0,
                      self.suspended(), r.turn, d1, d2, r.point)

    def _catch_up(self, now_ms, s):
        """Station s has an older round open (it missed the result or
        restarted): its result, or UNKNOWN when the journal has none."""
        f = self.flags[s]
        if not f & M.PENDING or f & M.FOREIGN:
            return False
        r = self.log.rounds
        p = self.srnd[s]
        if (r.open and p == r.round) or (not r.open and p == self._next_round()):
            return False                # in play, or to be closed (again)
        e = r.find(p)
        if e is None:
            self.frame_n = self._send(now_ms, s, M.UNKNOWN, p, _pack_tid(r.tid), True)
        else:
            self.frame_n = self._send(now_ms, s, M.RESULT, p, M.result(r.tid, e), True)
        return True

    def _next_seat(self, mask):
        if not mask:
            return 0
        for i in range(1, SEATS + 1):
            s = (self.cursor + i - 1) % SEATS + 1
            if mask & (1 << (s - 1)):
                self.cursor = s
                return s
        return 0

    def _send(self, now_ms, addr, kind, rnd, payload, answered):
        self.seq = (self.seq + 1) & 0xFF
        n = F.encode(self.out, addr, kind, self.seq, rnd, payload)
        self.waiting = addr if answered else 0
        self.sent_ms = now_ms
        # on the wire for n byte times; the next frame waits a millisecond more
        self.quiet_ms = now_ms + (n * BYTE_US + 999) // 1000 + 1
        self.sent_kind = kind
        self.sent_rnd = rnd
        self.frames += 1
        self.bytes_out += n
        return n

    # ---- frames in --------------------------------------------------------------
    def _miss(self, s):
        self.waiting = 0
        if self.misses[s] < 255:
            self.misses[s] += 1
        f = self.flags[s]
        # a station with nothing at stake is off line at once: it may leave
        if self.misses[s] >= OFFLINE_MISSES or not f & (M.OCCUPIED | M.PENDING):
            self.online &= ~(1 << (s - 1))

    def _frame(self, fr):
        if fr.kind != M.STATUS or not 1 <= fr.addr <= SEATS:
            return
        body = fr.payload()
        if len(body) != 1:
            return
        s = fr.addr
        f = body[0]
        rnd = fr.rnd
        answer = s == self.waiting and fr.seq == self.seq
        if answer:
            self.waiting = 0
        self.flags[s] = f
        self.srnd[s] = rnd
        self.misses[s] = 0
        if f & M.LEAVE:
            self.online &= ~(1 << (s - 1))
            return
        self.online |= 1 << (s - 1)
        # an open round of this table (not FOREIGN) is one this dome closed and
        # perhaps was cut before journalling: the round to close again, not one to number past
        top = rnd - 1 if f & M.PENDING and not f & M.FOREIGN else rnd
        if top > self.seen_round:
            self.seen_round = top
        r = self.log.rounds
        bit = 1 << (s - 1)
        if self.phase == CLOSING and not r.open:
            if f & M.PENDING and rnd == self.closing:
                self.confirmed |= bit
                self.inmask |= bit
            elif answer and self.sent_kind == M.CLOSE and self.sent_rnd == self.closing and \
                    (not f & M.BETS or f & (M.OUT | M.FOREIGN)):
                self.confirmed |= bit      # nothing to put in the round
        elif self.phase == RESULTS and r.count:
            if not (f & M.PENDING and rnd <= r.entry(0)[0]):
                self.acked |= bit


def _pack_tid(tid):
    return bytes((tid & 0xFF, (tid >> 8) & 0xFF, (tid >> 16) & 0xFF, tid >> 24))
