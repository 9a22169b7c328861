"""The cabinet controller: board + store + game cycle + player UI + money.

`step(now_ms)` runs one pass of everything (tests and the headless simulator
call it with a fake clock); `run()` is the asyncio main loop
(firmware/cabinet/loop.py), four tasks with their own periods so none
starves another:

  inputs+game      20 ms   buttons, game cycle, watchdog; door/tilt/audit
                           switches every 50 ms
  money+serial+sas 20 ms   pulse bursts -> credits, inhibit line; read-out;
                           SAS (10 ms after the inputs: the two take turns)
  display          50 ms   redraw only when the text changed
  maintenance     200 ms   journal erase-ahead, only when idle and money inhibited

After every part, a press being debounced is sampled and a SAS poll is
answered (loop.py).

Every state change goes through the store first (committed to flash), then
the display shows it. The technician side (firmware/audit) is optional: it is
imported with a guard, so the cabinet runs without it; when it cannot be
loaded the basic audit (firmware/cabinet/fallback.py) takes its place, so
the technician is never locked out.
"""
import gc
from micropython import const
from hal.ticks import ticks_diff, ticks_add
from hal import buttons as B
from hal import lamps as LP
from hal import buzzer as BZ
from hal import prstatus as PR
from firmware.rules import reasons as R
from firmware.store import events as E
from firmware.store import records as T
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.store.store import Store
from firmware.cabinet.money import MoneyIn, BILL, COIN, GAP_MS
from firmware.cabinet.game import Game, BETTING
from firmware.cabinet.player import Player, message, pages
from firmware.cabinet import screens
from firmware.cabinet import render
from firmware.cabinet import devfault
from firmware.cabinet import escrow
from firmware.cabinet import ticket as TK
from firmware.cabinet.loop import run as _run
from firmware.sas.machine import start as start_sas
from firmware import version
from firmware import fmt

# (board switch, Ledger.host bit, open event, close event); the main door is
# the ledger's door_open
_DOORS = (("logic_door", L.LOGIC_DOOR, E.LOGIC_OPEN, E.LOGIC_CLOSE),
          ("cashbox_door", L.CASHBOX_DOOR, E.CASHBOX_OPEN, E.CASHBOX_CLOSE))
_IDLE_MS = const(3000)       # no input for this long: journal maintenance may run
HISTORY = const(12)
_REFRESH_MS = const(250)     # screen text re-check period (messages, result pages)
# the same on a player's screen with nothing timed on it: the game flags the
# countdown's seconds, so this only backs the flags up
_CALM_REFRESH_MS = const(1000)
MSG_MS = const(3000)
_DEFER_MAX = const(4)        # keys kept while a result must stay on screen
_RESTART_MS = const(2000)    # the RESTARTING screen stays up this long before the reset


_MENU = "firmware.audit.menu"
_READOUT = "firmware.audit.readout"
_BASIC = "firmware.cabinet.fallback"


def _optional(module):
    """(module or None, why not: the exception's name). The audit side is
    imported with a guard: a missing or broken module, or no memory for
    it, leaves the basic audit working. Tried once more after a collection."""
    why = ""
    for _ in range(2):
        try:
            return __import__(module, None, None, ("_",)), ""
        except Exception as exc:
            why = type(exc).__name__
            gc.collect()
    return None, why


class Controller:
    def __init__(self, board, store=None, profile=None, audit=True, seat=0):
        """seat: a player station's address at a table (its rounds come
        from the dome: firmware/table/station.py); 0 the stand-alone cabinet."""
        self.board = board
        self.clock = board.clock
        now = self.clock.ticks_ms()
        if store is None:
            store = Store(board.flash, board.watchdog.feed, getattr(board, "provision", None),
                          getattr(board, "urandom", None), getattr(board, "generation", None))
        self.store = store
        board.money.inhibit(True)  # until the state is known
        if seat:  # a station's records (a table's rounds) replay with the rest
            import firmware.store.seat_records  # noqa: F401
        self.boot_status = self.store.boot(self.now_s())
        if self.store.critical:
            print("CRITICAL", self.store.reason)  # the console log; the screen locks
        self.fault_reason = ""    # an exception out of the main loop: restart
        self._restart_at = None   # ticks_ms of the reset, once restarting
        # the recall's pages while the heap is whole
        self.store.ledger.recall.reserve()
        self.sas = start_sas(self) if getattr(board, "sas", None) is not None else None
        if not getattr(self.clock, "valid", True) and not self.store.critical:
            # times below are not real; a stopped oscillator: the battery ran out
            self.store.event(self.now_s(), E.CLOCK_UNSET, 1 if getattr(self.clock, "lost", False) else 0)
        self.profile_refused = ""  # why a requested profile was not taken
        if profile and not self.store.critical and \
                self.store.ledger.config["profile"] != profile:
            code = self.store.set_config(self.now_s(), "profile", profile)
            if code != R.OK:
                self.profile_refused = "NO PROFILE %s\n%s" % (
                    profile[:6], "MONEY ON STATION" if code == L.MONEY_ON_TABLE
                    else "UNKNOWN PROFILE")
        self.money = MoneyIn(board.money, now)
        if seat:
            from firmware.table.station import TableGame
            self.game = TableGame(self.store, board, now, seat)
        else:
            self.game = Game(self.store, board, now)
        self.player = Player()
        self.player.fix_selection(self.store.ledger.table, self.store.ledger.table.p)
        self.history = []
        self._load_history()
        self.audit_mode = False
        self.menu = None
        self.audit = audit
        self.readout = None        # made when the first read-out byte arrives
        self._rx = bytearray(64)
        self._msg = ""
        self._msg_until = now
        self._deferred = []        # keys pressed while a result must stay up
        self._msg_over_result = False  # the cashout's message covers a result
        self._last_input = now
        self._refresh_at = now     # when the screen text is built again at the latest
        self._rolls_seen = self.game.rolls
        self._erasing = False
        self.erases = 0
        self.lines = None          # text on the display now
        self.dice = None
        self.redraws = 0
        self.dirty = True
        self.credits_in = 0        # credited this power cycle (tests)
        self.ticket_in_ms = None   # when the ticket in escrow was offered to the host
        self.faults = []           # hal.faults codes of devices that do not answer
        self.escrow_ms = None      # ticks when the note in escrow was first seen pending
        self.inputs_dead = self.display_dead = self.no_journal = False
        self.menu_module = _MENU
        self.readout_module = _READOUT
        self.audit_error = ""      # why the full menu or read-out could not be loaded
        # the basic audit, loaded at boot so that the key always opens something
        self._basic = _optional(_BASIC)[0] if audit else None
        self._poll_faults(now)
        try:
            st = board.printer.status()
        except OSError:
            st = PR.FAULT
        if st == PR.FAULT:
            devfault.printer(self, now)
        self.printer_seen = self.printer_read = PR.OK   # the idle watch (devfault.watch_printer)
        self.printer_ms = now
        devfault.printer_status(self, st)
        self._update_inhibit()
        if self.profile_refused:
            self.say(self.profile_refused, now, 10000)

    # ---- small helpers ---------------------------------------------------
    def now_s(self):
        return self.clock.now()

    def identity(self):
        return version.identity(self.board, self.store.ledger.config)

    # ---- passing faults: log, then a clean restart --------------------------
    def restarting(self):
        """Why the cabinet is restarting ('' when it is not): the store
        stopped on a passing fault, or an exception left the main loop."""
        return self.store.restart_reason or self.fault_reason

    def fault(self, exc, now_ms):
        """An exception out of the main loop that is not a bad journal:
        logged on the console and, where the journal is healthy, as an event;
        then the cabinet restarts (tick_inputs)."""
        try:
            import sys
            sys.print_exception(exc)
        except Exception:
            print("FAULT", repr(exc))   # CPython has no print_exception
        if self.fault_reason:
            return
        self.fault_reason = "%s %s" % (type(exc).__name__, exc)
        store = self.store
        if not store.critical and not store.restart_reason:
            kind = (E.FAULT_MEMORY if isinstance(exc, MemoryError) else
                    E.FAULT_DEVICE if isinstance(exc, OSError) else E.FAULT_OTHER)
            try:
                store.event(self.now_s(), E.FAULT_RESTART, kind)
            except Exception:
                pass  # the restart matters more than its record
        self.dirty = True

    def _restart(self, now_ms):
        """The RESTARTING screen for a moment, then the board's reset. Money
        stays inhibited: nothing more can be committed."""
        self.board.watchdog.feed()
        if self._restart_at is None:
            print("RESTART", self.restarting())   # the console log
            self._restart_at = ticks_add(now_ms, _RESTART_MS)
            self.board.money.inhibit(True)
            self.dirty = True
        elif ticks_diff(now_ms, self._restart_at) >= 0:
            self._restart_at = ticks_add(now_ms, _RESTART_MS)   # a board never returns
            self.board.reset()

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
            if g is not None and not g["voided"]:
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
        self.tick_maintenance(now_ms, True, True)
        if draw:
            self.tick_display(now_ms)

    def tick_inputs(self, now_ms, switches=True):
        """Switches (when `switches`: the main loop reads them less often
        than the buttons), buttons, the game cycle; feeds the watchdog."""
        if self.restarting():
            self._restart(now_ms)
            return
        b = self.board
        b.watchdog.feed()
        if not self.inputs_dead:  # a dead chain reads garbage
            if switches:
                self._switches(now_ms)
            self.game.cover_result(self._covers_result(now_ms), now_ms)
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
        if self.game.cue:
            self._sound(self.game.cue, now_ms)
            self.game.cue = 0
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
            # never mid-roll, never over a result, never with a bill half
            # counted (a faulted device's money waits for the technician)
            if not self.game.rolling() and not self.money_in_flight() \
                    and not self.game.result_locked(now_ms):
                self._enter_audit(now_ms)
        elif not key and self.audit_mode:
            self._leave_audit(now_ms)
        elif not key and store.ledger.audit and not store.critical:
            store.event(now, E.AUDIT_OFF)  # stale after a power cut
            self.dirty = True

    def _covers_result(self, now_ms):
        """Something other than the result is on the screen: the result
        waits under it (Game.cover_result)."""
        led = self.store.ledger
        if self._msg_over_result and not (self._msg and ticks_diff(self._msg_until, now_ms) > 0):
            self._msg_over_result = False
        return bool(self.audit_mode or self.store.critical or led.lock or led.door_open
                    or led.tilt or self._msg_over_result)

    def _enter_audit(self, now_ms):
        store = self.store
        if not store.ledger.audit and not store.critical:
            store.event(self.now_s(), E.AUDIT_ON)
        self.audit_mode = True
        self.board.money.inhibit(True)
        self.player.close_pages()
        self.menu = None
        if self.audit:
            self._open_menu(now_ms)
        self.dirty = True

    def _leave_audit(self, now_ms):
        store = self.store
        self.audit_mode = False
        self.menu = None
        if store.ledger.audit and not store.critical:
            store.event(self.now_s(), E.AUDIT_OFF)
        # the menu may have cleared a lock or RAM: rebuild what RAM derives
        self._load_history()
        led = store.ledger
        self.player.fix_selection(led.table, led.table.p)
        if self.game.state != BETTING or led.phase == L.CLOSED:
            self.game.resume(now_ms)
        self.dirty = True

    # ---- the audit side: the menu and the read-out, else the basic audit ----
    def _open_menu(self, now_ms):
        """The audit menu, or the basic audit saying why the menu did not load."""
        mod, why = _optional(self.menu_module)
        menu = getattr(mod, "Menu", None)
        if menu is None:
            self._basic_menu(why)
            return
        try:
            self.menu = menu(self.store, self.board, self.identity())
        except Exception as exc:
            self._menu_failed(exc, now_ms)

    def _basic_menu(self, why):
        """The technician is never locked out: when the audit menu cannot be
        loaded (or fails), the basic audit opens instead, saying why."""
        self.audit_error = why
        print("AUDIT MENU NOT LOADED:", why)
        cls = getattr(self._basic_audit(), "Fallback", None)
        self.menu = cls(self.store, self.board, why) if cls is not None else None

    def _basic_audit(self):
        if self._basic is None:
            self._basic = _optional(_BASIC)[0]
        return self._basic

    def _menu_failed(self, exc, now_ms):
        try:
            import sys
            sys.print_exception(exc)
        except Exception:
            pass
        was_basic = self.menu is not None and type(self.menu).__name__ == "Fallback"
        self.menu = None
        if not was_basic:
            self._basic_menu(type(exc).__name__)

    def _open_readout(self):
        """The read-out, else the basic one (METERS and STATUS), now in
        self.readout; None when neither can be loaded."""
        mod, why = _optional(self.readout_module)
        readout = getattr(mod, "Readout", None)
        if readout is not None:
            self.readout = readout(self.store, self.identity())
            return self.readout
        self.audit_error = why
        readout = getattr(self._basic_audit(), "MiniReadout", None)
        if readout is None:
            return None
        self.readout = readout(self.store)
        return self.readout

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
            # cashout during the roll waits for it too
            if len(self._deferred) < _DEFER_MAX:
                self._deferred.append(code)
            return
        g.pressed_ms = now_ms
        over = code == B.CASHOUT and g.showing_result(now_ms)
        if not over:
            g.end_result()
        try:
            text = self.player.on_button(code, self, now_ms)
        except MemoryError:
            raise  # a passing fault: the main loop restarts on a fresh heap
        except Exception:  # noqa: BLE001 - a bug would crash the restarted cabinet again
            text = self._refused(code)
        if text:  # more than two lines: a full-screen report, up longer
            self.say(text, now_ms, MSG_MS if text.count("\n") < 2 else 3 * MSG_MS)
            if over:  # the cashout's answer first, then the result again
                self._msg_over_result = True
                g.cover_result(True, now_ms)
        else:
            self._msg = ""

    def _refused(self, code):
        """A press whose handling raised a program error: what it committed
        stands (each record is whole), the rest is refused, logged and
        metered (E.ACTION_FAULT; the store does the same for a record the
        engine raised on, MemoryError too). The pages close so the next
        press starts afresh."""
        gc.collect()
        self.player.close_pages()
        store = self.store
        if not store.critical:
            store.event(self.now_s(), E.ACTION_FAULT, 0x100 | code)
        return message(R.NOT_AVAILABLE)

    def cashout_waiting(self):
        """A CASHOUT pressed during the roll, kept until the result was seen."""
        return B.CASHOUT in self._deferred

    def _sound(self, sound, now_ms):
        bz = getattr(self.board, "buzzer", None)
        if bz is not None:
            bz.cue(sound, now_ms)

    def _on_result(self):
        led = self.store.ledger
        d1, d2 = self.game.last_faces or (0, 0)
        last = led.recall.roll(0)
        if screens.net_of(led.last_game) > 0:
            self._sound(BZ.WIN, self.clock.ticks_ms())
        elif last and last[2] and d1 + d2 == 7:  # a point was on: the shooter's last roll
            self._sound(BZ.SEVEN_OUT, self.clock.ticks_ms())
        self.history.insert(0, d1 + d2)
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
        if v is not None:  # bills through a validator with escrow
            escrow.tick(self, v, now_ms)
        money = self.money
        devfault.lines(self, money, now_ms)
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

    def money_in_flight(self):
        """A pulse burst being counted, a note on its way to the cash box or
        a ticket in while the host decides: it settles by itself within
        seconds (a note in doubt does not)."""
        led = self.store.ledger
        return self.money.busy() or (led.escrow > 0 and not led.host & L.BILL_DOUBT) \
            or bool(led.tin_step)

    def want_inhibit(self):
        store = self.store
        led = store.ledger
        return (store.critical or bool(self.restarting()) or self._erasing or self.audit_mode
                or bool(led.suspended())
                or led.table.credits >= led.config["credit_limit"] * 100 or bool(led.host & L.BILLS_OFF))

    def _update_inhibit(self):
        if self.audit_mode:
            return  # the menu keeps money inhibited (its pulse test may open it)
        want = self.want_inhibit()
        if want != self.board.money.inhibited:
            self.board.money.inhibit(want)

    def cashout(self, now_ms):
        """CASHOUT: ticket when the printer is ready and the amount is under the
        handpay limit, else a handpay (locks for the attendant). The ticket is
        committed pending before it is printed and printed only when the
        printer confirms (firmware/cabinet/ticket.py); if the print fails the
        cabinet locks PRINTER FAULT, after a power cut TICKET IN DOUBT, and the
        attendant reprints it (same validation number) or pays it by hand."""
        store = self.store
        led = store.ledger
        why = led.suspended()
        # a host shutdown (SAS 01) leaves cash out possible (SAS 6.02 7.4.1)
        if (why and why != L.DISABLED) or self.game.rolling() or led.phase != L.BETTING:
            return message(R.LOCKED)
        now = self.now_s()
        if led.table.bets:  # the bets come down first, then the credits go
            text = pages().take_down_all(self, now, why == L.DISABLED)
            if text:
                return text
        amount = led.table.credits
        if amount <= 0:
            return message(R.NO_CREDITS)
        pr = self.board.printer
        try:
            st = pr.status()
        except OSError:
            st = PR.FAULT
            devfault.printer(self, now_ms)
        if (st != PR.OK and st != PR.PAPER_LOW) or amount > led.config["handpay_limit"] * 100 \
                or not led.config["ticket_out"]:
            code = store.cashout(now, T.BY_HANDPAY)
            if code != R.OK:
                return message(code)
            return "HANDPAY " + fmt(amount) + "\nCALL ATTENDANT"
        code = store.ticket(now, T.TK_PENDING, TK.number(led))
        if code != R.OK:
            return message(code)
        if not TK.print_pending(store, pr, now, False, getattr(self.clock, "valid", True),
                                self.serve):
            store.lock(now, L.LK_PRINTER, amount)
            return "PRINTER FAULT\nCALL ATTENDANT"
        return "TICKET PRINTED\n$" + fmt(amount)

    # ---- devices that do not answer -------------------------------------------
    def _poll_faults(self, now_ms):
        faults = getattr(self.board, "faults", None)
        found = faults() if faults is not None else ()
        if found or self.faults:
            devfault.poll(self, found, now_ms)

    # ---- serial read-out ----------------------------------------------------------
    def tick_serial(self):
        """The read-out is loaded when the first byte arrives; from then on
        it reads and writes the port itself, one reply at a time."""
        ser = self.board.serial
        if ser is None:
            return
        readout = self.readout
        if readout is None:
            n = ser.read(self._rx)
            if not n:
                return
            if not self.audit:
                return  # no read-out on this cabinet: bytes are dropped
            readout = self._open_readout()
            if readout is None:
                return
            readout.received(self._rx, n)
            # loading it (a few modules) is this part's work: with the first
            # lines built in the same part a SAS poll waited 29.5 ms on the chip
            return
        try:
            readout.service(ser)
        except Exception:  # no memory for a reply, a bug: open it again at the next byte
            self.readout = None

    # ---- journal maintenance ----------------------------------------------------------
    def idle(self, now_ms):
        g = self.game
        return (g.state == BETTING and not g.rolling() and not self.audit_mode
                and ticks_diff(now_ms, self._last_input) >= _IDLE_MS
                and not self.board.buttons.busy()
                and not self.money_in_flight() and self.money.quiet_for(now_ms) >= GAP_MS
                and not (0 <= g.remaining_ms < 1000))

    def tick_maintenance(self, now_ms, erase, watch):
        """The devices watched (`watch`), then a sector erased ahead when one
        is due, the cabinet is idle and `erase` (the main loop leaves the
        erase to the gaps a SAS host's polling leaves). True if it erased."""
        if self.restarting():
            return False
        if watch:
            self._poll_faults(now_ms)
            devfault.watch_printer(self, now_ms)
        store = self.store
        if not erase or not store.erase_pending() or not self.idle(now_ms):
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
                or ticks_diff(now_ms, self._refresh_at) >= 0):
            return False
        led = self.store.ledger
        # a player's screen with nothing on it that ends or turns with time
        # alone (a message, a result, a roll, a stopped cabinet's screen)
        calm = (g.state == BETTING and not self.audit_mode
                and not self.store.critical and not led.lock and not led.door_open
                and not led.tilt and not self.restarting() and not g.showing_result(now_ms)
                and not self.message(now_ms))
        self._refresh_at = ticks_add(now_ms, _CALM_REFRESH_MS if calm else _REFRESH_MS)
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
        self.serve()            # after screens.build: a few ms on an RP2040
        render.draw(d, lines, dice, inv, self.serve)
        try:
            self._show(d, now_ms)
        except OSError:
            devfault.display(self, now_ms)
            return False
        self.redraws += 1
        return True

    def _show(self, d, now_ms):
        """A whole frame is ~25 ms on the display's 400 kHz I2C bus, longer
        than a SAS host waits for an answer (20 ms) and than the buttons'
        sample period: it goes in parts, served between."""
        parts = getattr(d, "parts", 0)
        if not parts:
            d.show()
            return
        for i in range(parts):
            d.show(i)
            self.serve()

    def serve(self):
        """Between the pieces of a long part of the loop (a screen drawn or
        sent, a ticket printed): the buttons sampled when due, SAS polls
        answered. A release seen a whole redraw late left too little of a
        quick double tap's gap for its debounce: the second press was lost."""
        self.sample_buttons(self.clock.ticks_ms())
        if self.sas is not None:
            self.sas.serve()

    def sample_buttons(self, now_ms):
        b = self.board.buttons
        if b.due(now_ms) and not self.inputs_dead:
            b.sample(now_ms)

    def _lamps(self, now_ms):
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
        elif self.faults and devfault.white(self, now_ms):
            bits |= LP.WHITE
        if bits != self.board.lamps.state:
            self.board.lamps.set(bits)

    # ---- asyncio main loop --------------------------------------------------------
    def run(self, stop=None):
        """The main loop's coroutine (firmware/cabinet/loop.py): runs until
        `stop()` returns True (never on a board)."""
        return _run(self, stop)
