"""The game cycle: betting timer -> bets closed -> shaking -> settling -> result.

State lives in two places: the ledger (phase BETTING/CLOSED, committed to
flash) and this object (RAM: timer, shake progress). After a power cut the
RAM part is rebuilt from the ledger: phase CLOSED means the bets were closed
and no result was committed, so the dice are shaken again with the same bets.

Irregularities (rule document 002): a cocked/unreadable die -> REROLL record
and an automatic re-shake; `cocked_lockup` consecutive ones -> the roll is
voided (this period's bets go back) and the cabinet locks (MALFUNCTION). Dice
that did not move -> REROLL(STUCK), re-shake; `stuck_lockup` in a row -> void
and lock SHAKER. "Did not move" is the motion sensor's verdict when the board
has one; without a sensor it is "same faces as the previous game" (the only
evidence then; with a sensor a repeat of the previous faces is a normal roll,
so the outcome stays fair).

The timer runs only while bets are on the table: with no bets the cabinet
waits in betting (attract when there are no credits either) instead of
rolling an empty table. It pauses while play is suspended, while the last
result is on screen, and while the player pressed a button in the last
_PRESS_HOLD_MS, the last only as long as the whole betting period stays
within `bet_timer_max_s` (configuration): a player still choosing is not
rushed, a player leaning on a button cannot stop the game.

A result stays on screen at least _RESULT_MIN_MS: no key, page or audit
key takes it away before (`result_locked`). Whatever covers it later (a
door, a tilt, the audit key, a lock, the cashout's message: `cover_result`)
puts it back on screen for its whole time once cleared: a result is never
seen for less than it was meant to be.
"""
from micropython import const
from hal.ticks import ticks_diff, ticks_add
from hal.dice_decode import Settler
from hal import buzzer as BZ
from firmware.rules import reasons as R
from firmware.store import events as E
from firmware.store import ledger as L

BETTING = const(0)
SHAKING = const(1)
SETTLING = const(2)
HELD = const(3)      # bets closed, roll held: door open / tilt mid-roll
HALTED = const(4)    # critical memory error
STATE_NAMES = ("BETTING", "SHAKING", "SETTLING", "HELD", "HALTED")

_SHAKE_DUTY = const(800)     # per mille
_RAMP_MS = const(500)        # soft start
_JITTER_PERMILLE = const(150)  # shake time randomised by up to +15 %
_SETTLE_TIMEOUT_MS = const(5000)  # after settle_ms: no stable reading -> unreadable
_RESULT_MS = const(4000)     # result screen (scrolls if longer)
_RESULT_MIN_MS = const(3000)  # nothing hides a result before this
RESULT_ROWS = const(2)       # rows per result page (the credits, then each
RESULT_PAGE_MS = const(2000)  # settled bet), 2 s a page: screens.result_screen
_PRESS_HOLD_MS = const(3000)  # a press this recent holds the bet timer
_LAST_CALL_S = const(5)      # the countdown's last seconds: the last-call sound


def result_pages(settled):
    """Pages of the result screen for `settled` bets: the credits' row, then
    a row each, RESULT_ROWS a page."""
    return (settled + RESULT_ROWS) // RESULT_ROWS


# One roll in the dome, shared with a table's dome controller
# (firmware/table/dome.py): functions of `g`, the object that rolls (its
# board, _rand(n), and the roll's shake_ms, _t0, moved, settler).
def shake_start(g, now_ms, base_ms):
    """The shaker ramps up for base_ms plus up to 15 %."""
    g.shake_ms = base_ms + base_ms * g._rand(_JITTER_PERMILLE + 1) // 1000
    g._t0 = now_ms
    sh = g.board.shaker
    g.moved = False if sh.motion() is not None else None
    sh.start(_SHAKE_DUTY, _RAMP_MS)


def shake_tick(g, now_ms, settle_ms):
    """A pass while shaking; True once the shake is over (settling begins)."""
    sh = g.board.shaker
    sh.tick(now_ms)
    if g.moved is False and sh.motion():
        g.moved = True
    if ticks_diff(now_ms, g._t0) < g.shake_ms:
        return False
    sh.stop()
    g.settler.stable_ms = settle_ms
    g.settler.reset()
    g._t0 = now_ms
    return True


def settle_tick(g, now_ms):
    """A pass while settling: the stable faces, (0, 0) when none came in
    time (unreadable), None while the dice still settle."""
    got = g.settler.update(g.board.dice.read(), now_ms)
    if got is None and ticks_diff(now_ms, g._t0) >= g.settler.stable_ms + _SETTLE_TIMEOUT_MS:
        got = (0, 0)
    return got


class Game:
    def __init__(self, store, board, now_ms):
        self.store = store
        self.board = board
        self.state = BETTING
        self.remaining_ms = -1      # bet timer; -1 = not running
        self.period_ms = 0          # this betting period's length so far
        self.pressed_ms = None      # ticks of the player's last button press
        self._last_ms = now_ms
        self.roll_request = False
        self.shake_ms = 0
        self._t0 = now_ms
        self.moved = None           # motion seen during this shake (None: no sensor)
        self.settler = Settler(600)
        self.prev_faces = None      # faces of the previous game (stuck check)
        self.last_faces = None      # faces to draw
        self.result_until = None    # ticks until which the result shows
        self.result_at = now_ms
        self.result_ms = 0          # how long this result shows
        self.result_hidden = False  # covered before its time was up: shown again
        self.msg = ""               # irregularity / game message (2 lines, '\n')
        self.msg_until = now_ms
        self.changed = True         # screen must be redrawn
        self.rolls = 0              # results committed since start (bench)
        self.cue = 0                # a sound for the controller to play (hal.buzzer)
        # the jitter's xorshift32 state in a one-word array: an int attribute of 2**30 or
        # more is a heap object on rp2 (31-bit small ints), 32 B that came and went a roll
        from array import array  # here: a module-level name would grow the module's dict
        self._rng = array("I", ((now_ms * 2654435761 + 12345) & 0xFFFFFFFF or 1,))
        self.resume(now_ms)

    # ---- helpers --------------------------------------------------------
    def ledger(self):
        return self.store.ledger

    def _rand(self, n):
        s = self._rng[0]
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self._rng[0] = s
        return s % n

    def _refused(self, code, now_ms):
        from firmware.cabinet.player import message  # loaded with the controller
        self.say(message(code), now_ms)  # two lines, words whole

    def say(self, text, now_ms, ms=3000):
        self.msg = text
        self.msg_until = ticks_add(now_ms, ms)
        self.changed = True

    def message(self, now_ms):
        if self.msg and ticks_diff(self.msg_until, now_ms) > 0:
            return self.msg
        return ""

    def rolling(self):
        """True while a roll is in progress (bets closed, no result yet)."""
        return self.state in (SHAKING, SETTLING, HELD)

    def countdown_s(self):
        if self.remaining_ms < 0:
            return -1
        return (self.remaining_ms + 999) // 1000

    def resume(self, now_ms):
        """Rebuild the RAM state from the ledger (boot, RAM clear)."""
        led = self.store.ledger
        if self.store.critical:
            self._halt()
            return
        if self.prev_faces is None:
            g = led.recall.get(0)
            i = 0
            while g is not None and g["voided"] and i < 10:
                i += 1
                g = led.recall.get(i)
            if g is not None and not g["voided"]:
                self.prev_faces = g["dice"]
                self.last_faces = g["dice"]
        if led.phase == L.CLOSED:
            self.say("RESUMING ROLL\nsame bets", now_ms)
            self._start_shake(now_ms)
        else:
            self.state = BETTING
            self.remaining_ms = -1
        self.changed = True

    def _halt(self):
        self.board.shaker.stop()
        self.state = HALTED
        self.remaining_ms = -1
        self.changed = True

    # ---- the cycle -------------------------------------------------------
    def request_roll(self):
        """ROLL button: end the timer early (only with bets on the table)."""
        if self.state == BETTING and self.store.ledger.table.bets:
            self.roll_request = True
            return True
        return False

    def step(self, now_ms, now_s, hold):
        """One pass. `hold`: the controller wants no new roll to start (audit
        key waiting, erase maintenance...)."""
        if self.store.critical:
            if self.state != HALTED:
                self._halt()
            return
        st = self.state
        if st == BETTING:
            self._betting(now_ms, now_s, hold)
        elif st == SHAKING:
            self._shaking(now_ms, now_s)
        elif st == SETTLING:
            self._settling(now_ms, now_s)
        elif st == HELD:
            led = self.store.ledger
            if not (led.doors_open() or led.tilt):
                self.say("ROLL RESUMES\nsame bets", now_ms)
                self._start_shake(now_ms)
        elif st == HALTED:
            self.resume(now_ms)

    def _betting(self, now_ms, now_s, hold):
        led = self.store.ledger
        dt = ticks_diff(now_ms, self._last_ms)
        self._last_ms = now_ms
        if not led.table.bets:
            if self.remaining_ms >= 0:
                self.remaining_ms = -1
                self.changed = True
            self.roll_request = False
            return
        if led.suspended() or hold or self.showing_result(now_ms) or self.result_hidden:
            return  # timer paused
        if self.remaining_ms < 0:
            self.remaining_ms = led.config["bet_timer_s"] * 1000
            self.period_ms = 0
            self.changed = True
            return
        before = self.countdown_s()
        if dt > 0:
            self.period_ms += dt
            p = self.pressed_ms
            # a press this recent holds the timer, within the period's maximum
            if not (p is not None and ticks_diff(now_ms, p) < _PRESS_HOLD_MS
                    and self.period_ms + self.remaining_ms < led.config["bet_timer_max_s"] * 1000
                    and not self.roll_request):
                self.remaining_ms -= dt
        if self.remaining_ms < 0:
            self.remaining_ms = 0
        if self.countdown_s() != before:
            self.changed = True
            if self.countdown_s() == _LAST_CALL_S:
                self.cue = BZ.LAST_CALL
        if self.remaining_ms == 0 or self.roll_request:
            self.roll_request = False
            self._close(now_ms, now_s)

    def _close(self, now_ms, now_s):
        led = self.store.ledger
        code = self.store.close(now_s)
        if code != R.OK:
            self._refused(code, now_ms)
            self.remaining_ms = -1
            return
        self.remaining_ms = -1
        if led.table.settled:  # under the aggregate minimum: new bets came back
            self.say("BETS RETURNED\nunder total min", now_ms)
        else:
            self.say("NO MORE BETS", now_ms, 1500)
        self.cue = BZ.NO_MORE_BETS
        self._start_shake(now_ms)

    def _start_shake(self, now_ms):
        shake_start(self, now_ms, self.store.ledger.config["shake_ms"])
        self.state = SHAKING
        self.result_until = None
        self.result_hidden = False
        self.changed = True

    def _held(self, now_ms):
        led = self.store.ledger
        if led.doors_open() or led.tilt:
            self.board.shaker.stop()
            self.state = HELD
            self.say("ROLL HELD\n" + led.suspended(), now_ms, 60000)
            return True
        return False

    def _shaking(self, now_ms, now_s):
        if self._held(now_ms):
            return
        if shake_tick(self, now_ms, self.store.ledger.config["settle_ms"]):
            self.state = SETTLING
            self.changed = True

    def _settling(self, now_ms, now_s):
        if self._held(now_ms):
            return
        got = settle_tick(self, now_ms)
        if got is not None:
            self._outcome(got, now_ms, now_s)

    def _outcome(self, faces, now_ms, now_s):
        led = self.store.ledger
        cfg = led.config
        stuck = self.moved is False or (self.moved is None and faces == self.prev_faces)
        if stuck:
            self._irregular(E.STUCK, cfg["stuck_lockup"], L.LK_SHAKER,
                            "DICE DID NOT\nMOVE: RE-SHAKE", now_ms, now_s)
            return
        if faces[0] == 0 or faces[1] == 0:
            self._irregular(E.COCKED, cfg["cocked_lockup"], L.LK_MALFUNCTION,
                            "COCKED DIE\nRE-ROLLING", now_ms, now_s)
            return
        code = self.store.roll(now_s, faces[0], faces[1])
        if code != R.OK:
            self._refused(code, now_ms)
            if self.store.critical:
                self._halt()
            return
        # committed: only now the result may be shown
        self.prev_faces = faces
        self.last_faces = faces
        self.rolls += 1
        self.state = BETTING
        self.remaining_ms = -1
        self._last_ms = now_ms
        pages = result_pages(len(led.last_game or ()))
        self.result_ms = max(_RESULT_MS, pages * RESULT_PAGE_MS)
        self._show_result(now_ms)

    def _show_result(self, now_ms):
        self.result_at = now_ms
        self.result_until = ticks_add(now_ms, self.result_ms)
        self.result_hidden = False
        self.changed = True

    def _irregular(self, why, limit, lock, text, now_ms, now_s):
        led = self.store.ledger
        code = self.store.reroll(now_s, why)
        if code != R.OK:
            if self.store.critical:
                self._halt()
            return
        run = led.cocked_run if why == E.COCKED else led.stuck_run
        if run >= limit:
            self.store.void(now_s, why)
            self.store.lock(now_s, lock, why)
            self.board.shaker.stop()
            self.state = BETTING
            self.remaining_ms = -1
            self.result_until = None
            self.say("MALFUNCTION\nPLAYS+PAYS VOID", now_ms, 10000)
            if self.store.critical:
                self._halt()
            return
        self.say(text, now_ms, 4000)
        self._start_shake(now_ms)

    def showing_result(self, now_ms):
        return self.result_until is not None and ticks_diff(self.result_until, now_ms) > 0

    def result_locked(self, now_ms):
        """True during the result's minimum time on screen."""
        return self.showing_result(now_ms) and \
            ticks_diff(now_ms, self.result_at) < _RESULT_MIN_MS

    def cover_result(self, covered, now_ms):
        """`covered`: something else is on the screen (door, tilt, audit,
        lock, the cashout's message). A result it hides comes back, from its
        start, once nothing covers it."""
        if covered:
            if self.showing_result(now_ms):
                self.result_until = None
                self.result_hidden = True
                self.changed = True
        elif self.result_hidden:
            self._show_result(now_ms)

    def end_result(self):
        """The player moved on (a key after the result's minimum time)."""
        self.result_hidden = False
        if self.result_until is not None:
            self.result_until = None
            self.changed = True
