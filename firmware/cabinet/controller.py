"""The cabinet controller: board + store + game cycle + player UI + money.

`step(now_ms)` runs one pass of everything (tests and the headless simulator
call it with a fake clock); `run()` is the asyncio main loop, where each part
is its own task with its own period so none starves another:

  inputs+game  10 ms   buttons, door/tilt/audit switches, game cycle, watchdog
  money        20 ms   pulse bursts -> credits, inhibit line
  serial       20 ms   technician read-out bytes
  sas           5 ms   SAS host polls (only with a SAS port and an address)
  display      50 ms   redraw only when the text changed
  maintenance 200 ms   journal erase-ahead, only when idle and money inhibited

Every state change goes through the store first (committed to flash), then
the display shows it. The technician side (firmware/audit) is optional: it is
imported with a guard, so the cabinet runs without it; when it cannot be
loaded the basic audit (firmware/cabinet/fallback.py) takes its place, so
the technician is never locked out.
"""
import gc
from micropython import const


def _load(names):
    """Imports modules one at a time, collecting after each. Loading a module
    leaves garbage (its top-level code, dicts outgrown while it defines its
    names); left to pile up until the heap is full, it ends up in holes
    between the code of all later modules."""
    for name in names:
        __import__(name)
        gc.collect()


# leaves first; the player side (money, game, player, screens, render) only
# once the store has booted: _play_side()
_load(("hal.ticks", "hal.prstatus", "firmware.rules.wagers", "firmware.rules.reasons",
       "firmware.rules.pays", "firmware.rules.table", "firmware.store.records",
       "firmware.store.events", "firmware.store.config", "firmware.store.meters",
       "firmware.store.recall", "firmware.store.ledger", "firmware.store.journal",
       "firmware.store.store", "hal.buttons"))
from hal.ticks import ticks_diff, ticks_add  # noqa: E402 (bound from the modules loaded above)
from hal import buttons as B
from firmware.rules import reasons as R
from firmware.store import events as E
from firmware.store import records as T
from firmware.store import config as C
from firmware.store import ledger as L

MoneyIn = BILL = COIN = GAP_MS = Game = BETTING = Player = message = screens = render = None


def _play_side():
    """The player side's modules (~30 KB on the unix port), imported by the
    first Controller once its store has booted: the boot's peak (the
    journal's 8 KB of sector buffers while the ledger builds its profile
    from the ~11 KB rule documents) then does not come on top of them, and
    the 1,000-roll benchmark boots in 192K (README *Heap budget*)."""
    global MoneyIn, BILL, COIN, GAP_MS, Game, BETTING, Player, message, screens, render
    if render is not None:
        return
    _load(("firmware.cabinet.money", "firmware.cabinet.game", "firmware.cabinet.paytext",
           "firmware.cabinet.player", "firmware.cabinet.screens", "firmware.cabinet.render"))
    from firmware.cabinet.money import MoneyIn, BILL, COIN, GAP_MS
    from firmware.cabinet.game import Game, BETTING
    from firmware.cabinet.player import Player, message
    from firmware.cabinet import screens
    from firmware.cabinet import render


from firmware import forget
from firmware import fmt

# (board switch, Ledger.host bit, open event, close event); the main door is
# the ledger's door_open
_DOORS = (("logic_door", L.LOGIC_DOOR, E.LOGIC_OPEN, E.LOGIC_CLOSE),
          ("cashbox_door", L.CASHBOX_DOOR, E.CASHBOX_OPEN, E.CASHBOX_CLOSE))
_IDLE_MS = const(3000)       # no input for this long: journal maintenance may run
HISTORY = const(12)
_REFRESH_MS = const(250)     # screen text re-check period (countdown, messages)
MSG_MS = const(3000)
_DEFER_MAX = const(4)        # keys kept while a result must stay on screen


_BASIC_ROOM = const(65536)   # heap free after boot to load the basic audit at boot


def _import(module):
    """A module of the optional audit side, imported on first use (the menu
    alone is ~45 KB of heap: play should not carry it); (module or None, why
    not: the exception's name). A failed import is tried once more after a
    collection (garbage may be all that fills the heap)."""
    why = ""
    for _ in range(2):
        try:
            return __import__(module, None, None, ("_",)), ""
        except Exception as exc:  # missing, broken, no memory: the cabinet still runs
            why = type(exc).__name__
            forget(module)
            gc.collect()
    return None, why


def _room():
    """True when the heap has room to keep the basic audit loaded from boot
    (on a board, where it is frozen, it costs little; the unix-port 192K
    benchmark has no room and loads it only when needed)."""
    free = getattr(gc, "mem_free", None)
    return free is None or free() >= _BASIC_ROOM


def _service():
    """firmware/cabinet/service.py (audit mode, read-out, cashout, identity),
    loaded for the moment it is used and let go: play passes through it only
    at a cashout. None when it cannot be loaded (no memory even for that):
    the caller then goes on without what it would have done."""
    mod = _import("firmware.cabinet.service")[0]
    forget("firmware.cabinet.service")
    return mod


def _devfault():
    """firmware.cabinet.devfault, loaded the first time a device is dead."""
    return __import__("firmware.cabinet.devfault", None, None, ("note",))


class Controller:
    def __init__(self, board, store=None, profile=None, audit=True):
        # boots the store and wires the board (firmware/cabinet/wiring.py):
        # run once, so its code is let go after
        from firmware.cabinet import wiring
        forget("firmware.cabinet.wiring")
        wiring.init(self, board, store, profile, audit)

    # ---- small helpers ---------------------------------------------------
    def now_s(self):
        return self.clock.now()

    def identity(self):
        from firmware.cabinet.service import identity
        forget("firmware.cabinet.service")
        return identity(self)

    def say(self, text, now_ms, ms=MSG_MS):
        self._msg = text
        self._msg_until = ticks_add(now_ms, ms)
        self.dirty = True

    def message(self, now_ms):
        """The message to show now: the player's newest, else the game's."""
        if self._msg and ticks_diff(self._msg_until, now_ms) > 0:
            return self._msg
        return self.game.message(now_ms)

    def _load_history(self):
        rec = self.store.ledger.recall
        h = []
        i = 0
        while len(h) < HISTORY and i < len(rec):
            g = rec.get(i)
            if not g["voided"]:
                h.append(g["dice"][0] + g["dice"][1])
            i += 1
        self.history = h

    # ---- one pass ----------------------------------------------------------
    def step(self, now_ms=None, draw=True):
        if now_ms is None:
            now_ms = self.clock.ticks_ms()
        self.tick_inputs(now_ms)
        self.tick_money(now_ms)
        self.tick_serial()
        if self.sas:
            self.sas.tick(now_ms)
        self.tick_maintenance(now_ms)
        if draw:
            self.tick_display(now_ms)

    def tick_inputs(self, now_ms):
        """Switches, buttons, the game cycle; feeds the watchdog."""
        b = self.board
        b.watchdog.feed()
        if not self.inputs_dead:  # a dead chain reads garbage
            self._switches(now_ms)
            if self._deferred and not self.game.rolling() and \
                    not self.game.result_locked(now_ms):
                codes = self._deferred
                self._deferred = []
                for code in codes:
                    self._button(code, now_ms)
            for code in b.buttons.poll(now_ms):
                self._button(code, now_ms)
        if self.audit_mode and self.menu is not None:
            try:
                self.menu.tick(now_ms)
            except Exception as exc:
                self._menu_failed(exc, now_ms)
        self.game.step(now_ms, self.now_s(), self.audit_mode or b.audit_key.value() == 1)
        if self.game.rolling():
            # bets closed: nothing may stand between the player and the roll
            self.player.close_pages()
            self._msg = ""
        bz = getattr(b, "buzzer", None)
        if bz is not None and bz.playing:
            bz.tick(now_ms)
        if self.game.rolls != self._rolls_seen:
            self._rolls_seen = self.game.rolls
            self._on_result()
        self._update_inhibit()

    def _switches(self, now_ms):
        b = self.board
        store = self.store
        led = store.ledger
        now = self.now_s()
        door = b.door.value() == 1
        if door != led.door_open and not store.critical:
            store.event(now, E.DOOR_OPEN if door else E.DOOR_CLOSE)
            self.dirty = True
            if not door:
                self.say("DOOR CLOSED", now_ms)
        for name, bit, opened, closed in _DOORS:
            sw = getattr(b, name, None)
            if sw is None:
                continue
            is_open = sw.value() == 1
            if is_open != bool(led.host & bit) and not store.critical:
                store.event(now, opened if is_open else closed)
                self.dirty = True
        tilt = b.tilt.value() == 1
        if tilt != led.tilt and not store.critical:
            store.event(now, E.TILT if tilt else E.TILT_CLEAR)
            self.dirty = True
        key = b.audit_key.value() == 1
        if key and not self.audit_mode:
            # never mid-roll, never over a result, never with a bill half counted
            if not self.game.rolling() and not self.money.busy() and not led.escrow \
                    and not self.game.result_locked(now_ms):
                self._enter_audit(now_ms)
        elif not key and self.audit_mode:
            self._leave_audit(now_ms)
        elif not key and store.ledger.audit and not store.critical:
            store.event(now, E.AUDIT_OFF)  # stale after a power cut
            self.dirty = True

    def _enter_audit(self, now_ms):
        store = self.store
        if not store.ledger.audit and not store.critical:
            store.event(self.now_s(), E.AUDIT_ON)
        self.audit_mode = True
        self.board.money.inhibit(True)
        self.player.close_pages()
        self.menu = None
        if self.audit:
            svc = _service()
            if svc is not None:
                svc.open_menu(self, now_ms)
        self.dirty = True

    def _leave_audit(self, now_ms):
        store = self.store
        self.audit_mode = False
        self.menu = None
        forget("firmware.audit.menu")
        if store.ledger.audit and not store.critical:
            store.event(self.now_s(), E.AUDIT_OFF)
        # the menu may have cleared a lock or RAM: rebuild what RAM derives
        self._load_history()
        led = store.ledger
        self.player.fix_selection(led.table, led.table.p)
        if self.game.state != BETTING or led.phase == L.CLOSED:
            self.game.resume(now_ms)
        self.dirty = True

    def _menu_failed(self, exc, now_ms):
        svc = _service()
        if svc is not None:
            svc.menu_failed(self, exc, now_ms)  # the basic audit takes its place
        else:
            self.menu = None

    def _button(self, code, now_ms):
        self._last_input = now_ms
        self.dirty = True
        if self.audit_mode:
            if self.menu is not None:
                try:
                    self.menu.on_button(code, now_ms)
                except Exception as exc:
                    self._menu_failed(exc, now_ms)
            return
        if self.store.critical:
            return
        g = self.game
        if g.result_locked(now_ms) or (code == B.CASHOUT and g.rolling()):
            # the result is read first; the keys act once its time is up. A
            # cashout during the roll waits for it too (README: Cashout)
            if len(self._deferred) < _DEFER_MAX:
                self._deferred.append(code)
            return
        g.pressed_ms = now_ms
        g.end_result()
        text = self.player.on_button(code, self, now_ms)
        if text:  # more than two lines: a full-screen report, up longer
            self.say(text, now_ms, MSG_MS if text.count("\n") < 2 else 3 * MSG_MS)
        else:
            self._msg = ""

    def cashout_waiting(self):
        """A CASHOUT pressed during the roll, kept until the result was seen."""
        return B.CASHOUT in self._deferred

    def _on_result(self):
        led = self.store.ledger
        bz = getattr(self.board, "buzzer", None)
        if bz is not None and screens.net_of(led.last_game) > 0:  # a win plays a tune
            from hal.lamps import WIN_TUNE
            bz.play(WIN_TUNE, self.clock.ticks_ms())
        faces = self.game.last_faces
        self.history.insert(0, faces[0] + faces[1])
        if len(self.history) > HISTORY:
            self.history.pop()
        self.player.fix_selection(led.table, led.table.p)
        self.dirty = True

    # ---- money -------------------------------------------------------------
    def tick_money(self, now_ms):
        """Every pulse is journalled as it arrives (a PULSES record with the
        burst's count so far), so a power cut before the burst ends loses
        none: the next power-up credits them. In the audit menu pulses are
        still journalled (a bill the validator took just before the key
        turned) and credited when the key turns off; only while the menu's
        pulse test has acceptance open are they the technician's test."""
        v = getattr(self.board, "validator", None)
        if v is not None:  # bills through escrow: that code only on such a board
            from firmware.cabinet.escrow import tick
            tick(self, v, now_ms)
        money = self.money
        if self.audit_mode and not self.board.money.inhibited:
            money.skip()
            return
        ch = money.poll(now_ms)
        store = self.store
        led = store.ledger
        for src in (BILL, COIN):
            n = money.pending[src]
            if n and n != led.pulses[src]:
                store.pulses(self.now_s(), src, n)
        if ch < 0 or self.audit_mode:
            return
        src = T.SRC_BILL if ch == BILL else T.SRC_COIN
        amount = self.money.pending[ch] * C.pulse_cents(led.config, src)
        code = self.store.credit(self.now_s(), src, amount)
        if code == R.OK:
            self.money.done(ch)
            self.credits_in += amount
            self.say("CREDIT +" + fmt(amount), now_ms)
        self._update_inhibit()

    def want_inhibit(self):
        store = self.store
        led = store.ledger
        return (store.critical or self._erasing or self.audit_mode or bool(led.suspended())
                or led.table.credits >= led.config["credit_limit"] * 100 or bool(led.host & L.BILLS_OFF))

    def _update_inhibit(self):
        if self.audit_mode:
            return  # the menu keeps money inhibited (its pulse test may open it)
        want = self.want_inhibit()
        if want != self.board.money.inhibited:
            self.board.money.inhibit(want)

    def cashout(self, now_ms):
        """CASHOUT (firmware/cabinet/service.py): the text to show."""
        svc = _service()
        return svc.cashout(self, now_ms) if svc is not None else message(R.LOCKED)  # player.message

    # ---- devices that do not answer -------------------------------------------
    def _poll_faults(self, now_ms):
        faults = getattr(self.board, "faults", None)
        found = faults() if faults is not None else ()
        if found or self.faults:
            _devfault().poll(self, found, now_ms)

    # ---- serial read-out ----------------------------------------------------------
    def tick_serial(self):
        """The read-out is loaded when the first byte arrives; from then on
        it reads and writes the port itself, one reply at a time."""
        ser = self.board.serial
        if ser is None:
            return
        if self.readout is None:
            n = ser.read(self._rx)
            if not n:
                return
            if not self.audit:
                return  # no read-out on this cabinet: bytes are dropped
            svc = _service()
            if svc is None or not svc.open_readout(self):
                return
            self.readout.received(self._rx, n)
        try:
            self.readout.service(ser)
        except Exception:  # no memory for a reply, a bug: load it again at the next byte
            self.readout = None
            forget(self.readout_module)

    # ---- journal maintenance ----------------------------------------------------------
    def idle(self, now_ms):
        g = self.game
        return (g.state == BETTING and not g.rolling() and not self.audit_mode
                and ticks_diff(now_ms, self._last_input) >= _IDLE_MS
                and not self.board.buttons.busy()
                and not self.money.busy() and self.money.quiet_for(now_ms) >= GAP_MS
                and not self.store.ledger.escrow
                and not (0 <= g.remaining_ms < 1000))

    def tick_maintenance(self, now_ms):
        self._poll_faults(now_ms)
        store = self.store
        if not store.erase_pending() or not self.idle(now_ms):
            return False
        money = self.board.money
        self._erasing = True
        money.inhibit(True)
        try:
            store.erase_step()
            self.erases += 1
        except Exception as e:  # noqa: BLE001 - flash failed under us: locked until restart
            store.fail("erase", e)
        finally:
            self._erasing = False
            self._update_inhibit()
        return True

    # ---- display ----------------------------------------------------------------
    def tick_display(self, now_ms, force=False):
        if self.faults and not self.audit_mode:
            self._lamps(now_ms)  # the fault code blinks
        g = self.game
        if not (force or self.dirty or g.changed or self.player.changed
                or ticks_diff(now_ms, self._last_refresh) >= _REFRESH_MS):
            return False
        self._last_refresh = now_ms
        self.dirty = g.changed = self.player.changed = False
        lines, dice, inv = screens.build(self, now_ms)
        if not force and lines == self.lines and dice == self.dice:
            return False
        self.lines = lines
        self.dice = dice
        self._lamps(now_ms)
        if self.display_dead:
            return False  # each try would wait for the I2C timeout
        d = self.board.display
        serve = self.sas.serve if self.sas else None
        if serve is not None:
            serve()             # after screens.build: a few ms on an RP2040
        render.draw(d, lines, dice, inv, serve)
        try:
            self._show(d, now_ms)
        except OSError:
            _devfault().display(self, now_ms)
            return False
        self.redraws += 1
        return True

    def _show(self, d, now_ms):
        """A whole frame is ~23 ms on the display's 400 kHz I2C bus, longer
        than a SAS host waits for an answer (20 ms): with SAS on, the frame
        goes in parts and SAS is served between them."""
        sas = self.sas
        parts = getattr(d, "parts", 0)
        if sas is None or not parts:
            d.show()
            return
        for i in range(parts):
            d.show(i)
            sas.serve()

    def _lamps(self, now_ms):
        from hal import lamps as LP
        led = self.store.ledger
        bits = 0
        if self.store.critical or led.lock or led.tilt or self.faults:
            bits |= LP.RED
        if led.door_open or self.audit_mode:
            bits |= LP.AMBER
        if not bits:
            bits = LP.GREEN
        if led.lock in (L.LK_HANDPAY, L.LK_JACKPOT, L.LK_PRINTER, L.LK_DOUBT):
            bits |= LP.WHITE
        elif self.faults and _devfault().white(self, now_ms):
            bits |= LP.WHITE
        if bits != self.board.lamps.state:
            self.board.lamps.set(bits)

    # ---- asyncio main loop --------------------------------------------------------
    def run(self, stop=None):
        """The main loop's coroutine: runs until `stop()` returns True (never
        on a board). firmware/cabinet/loop.py: a session that steps the
        controller itself (tests, the benchmark) never loads it."""
        from firmware.cabinet.loop import run
        return run(self, stop)
