"""The cabinet's money and game state, folded from journal records.

`apply(payload)` is the only way state changes, live and during recovery, so
a record replayed after a power cut settles exactly as it did the first time.
Pure: no clocks (times come in records), no I/O.
"""
import gc
from micropython import const
from firmware.rules import reasons as R
from firmware.rules import profiles
from firmware.rules.table import Table, WIN, LOSE
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import snapshot
from firmware.store import ticket_in
from firmware.store import aft
from firmware.store import validations
from firmware.store.meters import Meters, BILL_DENOMS, BILLS_BASE, BET_BASE, WON_BASE, wrap
from firmware.store.recall import Recall, encode_game, NO_ACTION, VOIDED

BETTING = const(0)
CLOSED = const(1)       # bets closed; the dice are (re)shaken until a result

LK_NONE = const(0)
LK_HANDPAY = const(1)
LK_JACKPOT = const(2)
LK_MALFUNCTION = const(3)
LK_SHAKER = const(4)
LK_PRINTER = const(5)
LK_DEVICE = const(6)    # arg: hal.faults code of the device that does not answer
LK_DOUBT = const(7)     # power-up with a ticket pending: printed or not?
LOCK_NAMES = ("", "HANDPAY", "JACKPOT", "MALFUNCTION", "SHAKER FAULT", "PRINTER FAULT",
              "DEVICE FAULT", "TICKET IN DOUBT")

BAD_RECORD = const(-1)
MONEY_ON_TABLE = const(-2)
BAD_SETTING = const(-3)
HOST_OFF = const(1)     # play disabled by the SAS host
BILLS_OFF = const(2)    # bill acceptor disabled by the SAS host
LOGIC_DOOR = const(4)   # logic area door open
CASHBOX_DOOR = const(8) # cash box door open
NEED_PIN = const(16)    # after a RAM clear: play locked until a PIN is set
BILL_DOUBT = const(32)  # the validator faulted holding the note in escrow
TO_CREDIT = const(64)   # SAS A8: the jackpot lockup's reset puts the win on the credit meter
SET_PIN = "SET NEW PIN"
DISABLED = "DISABLED"
AFT_LOCKED = "PLEASE WAIT"  # the SAS host holds play for a transfer (AFT lock, 74)
_CONFIG_HISTORY = const(32)     # settings changes kept (time, index, old, new)


class Ledger:
    def __init__(self):
        self.events = E.EventLog()
        self.meters = Meters()
        self.recall = Recall()
        self.config = C.defaults()
        self.table = Table(self._profile())
        self.conf_history = []   # (time, index, old text, new text), newest last
        self.phase = BETTING
        self.lock = LK_NONE
        self.lock_arg = 0
        self.door_open = False
        self.tilt = False
        self.audit = False
        self.rerolls = 0        # re-shakes of the current game
        self.cocked_run = 0     # consecutive cocked/unreadable results
        self.stuck_run = 0      # consecutive shakes where the dice did not move
        self.game_no = 0
        self.credits_at_close = 0
        self.last_game = None   # settled tuples of the newest roll, for the display
        self.last_error = ""
        self.pulses = [0, 0]    # journalled pulses of a burst not yet credited, per SRC_*
        self.ticket = 0         # credits of a ticket pending (committed, not confirmed)
        self.ticket_no = 0      # its validation number (a reprint uses the same)
        self.escrow = 0         # cents of a bill accepted from escrow, not yet known stacked
        self.host = 0           # HOST_OFF | BILLS_OFF
        self.sas_ack = 0        # newest event number the SAS host acknowledged
        self.val_id = 0         # SAS validation ID (0 = not configured: the station's)
        self.val_seq = 0        # validation sequence number of the newest ticket
        self.ticket_last = 0    # validation number of the newest printed ticket (SAS 4D)
        # ticket in (firmware/store/ticket_in.py): the step of the one in
        # escrow (0: none), then its number, cents and status (TS_*), kept
        # after it is done
        self.tin_step = 0
        self.tin_number = 0
        self.tin_amount = 0
        self.tin_status = 0
        self.round = 0          # at a table: newest round closed (open while phase CLOSED)
        self.tid = 0            # the table id of that round
        self.turn = 0           # the dome's shooter turn this layout follows
        self.held = ""          # at a table: why the dome holds play (from its POLL; RAM only)
        self.aft = aft.AftLog()  # AFT transfers done (firmware/store/aft.py)
        self.validations = validations.ValidationLog()  # tickets printed (SAS 4D)
        self.aft_lock = False   # the SAS host holds play for a transfer (74; RAM only)

    def _profile(self):
        return profiles.configured(self.config)

    # ---- what the controller asks --------------------------------------
    def suspended(self):
        """Why play is suspended ('' when it is not)."""
        if self.lock:
            return LOCK_NAMES[self.lock]
        if self.host & NEED_PIN:
            return SET_PIN
        if self.doors_open():
            return "DOOR OPEN"
        if self.tilt:
            return "TILT"
        if self.audit:
            return "AUDIT"
        if self.host & HOST_OFF:
            return DISABLED
        if self.aft_lock:
            return AFT_LOCKED
        return self.held

    def to_credit_ok(self):
        """A jackpot lockup whose win may go to the credit meter (SAS 14.1):
        it would stay within the credit limit."""
        return self.lock == LK_JACKPOT and \
            self.table.credits + self.lock_arg <= self.config["credit_limit"] * 100

    def doors_open(self):
        """Any door open (main, logic area, cash box): play is suspended."""
        return self.door_open or bool(self.host & (LOGIC_DOOR | CASHBOX_DOOR))

    def money_on_table(self):
        return self.table.credits > 0 or bool(self.table.bets) or self.ticket > 0 \
            or self.pulses[0] > 0 or self.pulses[1] > 0 or self.escrow > 0 \
            or self.tin_step == T.TI_AUTH

    def balance_check(self):
        """Credits in hand minus what the meters say they must be: 0 or a bug.
        Modulo the meters' width: once one of them rolled over the sum only
        holds that way (credits stay below ROLLOVER)."""
        m = self.meters
        expect = (m.get("total_in") - m.get("total_out") + m.get("jp_to_credit") + m.get("won")
                  + m.get("returned") - m.get("wagered") - m.get("vig"))
        return wrap(self.table.credits - expect)

    # ---- the reducer ---------------------------------------------------
    def apply(self, payload, undo=True):
        """undo=False (the replay): an action is folded without the copy of
        the table and meters that undoes one that raises (on the chip that
        copy costs more than most actions). The journal holds only actions
        that applied when committed; an exception now goes to the boot, as
        from any other record: a passing fault, the cabinet restarts."""
        rec = T.unpack(payload)
        if rec is None:
            return BAD_RECORD
        rtype, time, fields, tail = rec
        fn = _APPLY[rtype]
        if undo and rtype in _ACTIONS:
            return self._action(fn, time, fields, tail)
        return fn(self, time, fields, tail)

    def _action(self, fn, time, fields, tail):
        """A player's action. An exception in it (an engine bug, no memory)
        is a refusal, R.NOT_AVAILABLE, with the table and the meters as
        they were: no player action may crash or reset the cabinet."""
        table = self.table.encode()
        meters = self.meters.v[:]  # (a slice is one copy; list() iterates)
        try:
            return fn(self, time, fields, tail)
        except Exception:  # noqa: BLE001 - whatever it is, the action is refused
            meters, self.meters.v = None, meters
            gc.collect()     # what the action left, before the table is rebuilt
            self.table.load(table)
            return R.NOT_AVAILABLE

    def _credit(self, time, f, tail):
        source, amount = f
        if amount <= 0 or source not in (T.SRC_BILL, T.SRC_COIN):
            return R.BAD_AMOUNT
        code = self.table.credit(amount)
        if code != R.OK:
            return code  # over the meters' width: metering it would break the balance
        self.pulses[source] = 0   # the burst these pulses were part of is now credit
        m = self.meters
        m.add("total_in", amount)
        if source == T.SRC_BILL:
            m.add("bills_in", amount)
            m.add("cashbox", amount)
            for i in range(len(BILL_DENOMS)):
                if BILL_DENOMS[i] * 100 == amount:
                    m.add(BILLS_BASE + i)
            self.events.log(time, E.BILL_IN, amount)
        else:
            m.add("coins_in", amount)
            self.events.log(time, E.COIN_IN, amount)
        return R.OK

    def _playable(self, remove=False):
        why = self.suspended()
        # taking a bet down gives the player's money back, it is not play:
        # allowed while the SAS host has play disabled, so a cash out stays
        # possible (firmware/sas/SAS.md, 01)
        if why and not (remove and why == DISABLED):
            return R.LOCKED
        if self.phase != BETTING:
            return R.BETS_CLOSED
        return R.OK

    def _bet(self, time, f, tail):
        code = self._playable()
        if code:
            return code
        kind, number, amount = f
        code = self.table.place(kind, amount, number)
        if code == R.OK:
            self.meters.add("wagered", amount)
            self.meters.add(BET_BASE + kind, amount)
            self.meters.add("vig", self.table.last_vig)
        return code

    def _returning(self, op):
        """Runs a table operation that gives bets back; meters the return."""
        before = self.table.credits
        code = op()
        if code == R.OK:
            self.meter_back(before)
        return code

    def meter_back(self, before):
        """Meters bets given back since the credits were `before`: their
        stakes as returned, the vig they prepaid as vig given back (the
        table's last_vig, <= 0), so "vig" is the commission kept."""
        vig = self.table.last_vig
        self.meters.add("returned", self.table.credits - before + vig)
        self.meters.add("vig", vig)

    def _remove(self, time, f, tail):
        code = self._playable(True)
        if code:
            return code
        kind, number, amount = f
        return self._returning(lambda: self.table.remove(kind, number, amount))

    def _working(self, time, f, tail):
        code = self._playable()
        return code or self.table.set_working(f[0], f[1], bool(f[2]))

    def _clear(self, time, f, tail):
        code = self._playable()
        if code:
            return code
        return self._returning(self._return_fresh)

    def _return_fresh(self):
        self.table.return_fresh()
        return R.OK

    def _close(self, time, f, tail):
        code = self._playable()
        if code:
            return code

        def close():
            if self.table.close_betting():
                self.events.log(time, E.AGG_MIN)
            return R.OK
        self._returning(close)
        self.phase = CLOSED
        self.credits_at_close = self.table.credits
        return R.OK

    def _roll(self, time, f, tail):
        if self.phase != CLOSED:
            return R.BETS_CLOSED
        d1, d2, rerolls = f
        t = self.table
        before = t.point
        code = t.roll(d1, d2)
        if code:
            return code
        m = self.meters
        won = lost = False
        gain = 0
        bets = []
        for kind, number, amount, res, paid, vig, diff, up in t.settled:
            bets.append((kind, number, res, amount, paid))
            if res == WIN:
                won = True
                gain += paid if up else paid - amount
                m.add("won", paid + vig)
                m.add(WON_BASE + kind, paid + vig)
                m.add("vig", vig)
                m.add("round_kept" if diff > 0 else "round_given", abs(diff))
            elif res == LOSE:
                lost = True
            else:
                m.add("returned", paid)
        for b in t.idle:
            bets.append((b[0], b[1], NO_ACTION, b[2], 0))
        for key in ("games", "games_power", "games_door"):
            m.add(key)
        if won:
            m.add("games_won")
        elif lost:
            m.add("games_lost")
        self.game_no += 1
        self.recall.add(encode_game(self.game_no, time, d1, d2, before, t.point,
                                    rerolls, 0, self.credits_at_close, t.credits, bets))
        self.last_game = list(t.settled)
        self._end_game()
        limit = self.config["jackpot_limit"] * 100  # dollars, like every limit
        if limit and gain > limit:
            t.credits -= gain
            m.add("jackpot", gain)
            m.add("total_out", gain)
            m.add("handpays")
            self._set_lock(time, LK_JACKPOT, gain, E.JACKPOT)
        return R.OK

    def _end_game(self):
        self.phase = BETTING
        self.rerolls = 0
        self.cocked_run = 0
        self.stuck_run = 0

    def _pulses(self, time, f, tail):
        source, count = f
        if source not in (T.SRC_BILL, T.SRC_COIN):
            return R.BAD_AMOUNT
        self.pulses[source] = count
        return R.OK

    def _escrow(self, time, f, tail):
        """ID-003 style escrow: PENDING before the stack order (one bill at a
        time), then STACKED (the credit) or RETURNED, each naming its amount;
        DOUBT between them when the validator faulted holding the note."""
        step, cents = f
        if step == T.ES_PENDING:
            if self.escrow or cents <= 0:
                return R.BAD_AMOUNT
            self.escrow = cents
            return R.OK
        if cents != self.escrow or not cents or step > T.ES_DOUBT:
            return R.BAD_AMOUNT
        if step == T.ES_DOUBT:
            if self.host & BILL_DOUBT:
                return R.BAD_AMOUNT
            self.host |= BILL_DOUBT
            self.meters.add("bills_doubt")
            self.events.log(time, E.BILL_DOUBT, cents)
            return R.OK
        self.escrow = 0
        self.host &= ~BILL_DOUBT
        if step == T.ES_STACKED:
            return self._credit(time, (T.SRC_BILL, cents), tail)
        self.events.log(time, E.BILL_RETURNED, cents)
        return R.OK

    def _ticket(self, time, f, tail):
        step, number = f
        if step == T.TK_PENDING:
            if self.ticket:
                return R.LOCKED
            amount = self.table.credits
            code = self._cashout(time, (T.BY_TICKET,), tail, True)
            if code == R.OK:
                self.ticket = amount
                self.ticket_no = number
                self.val_seq = (self.val_seq + 1) & 0xFFFFFF  # SAS validation sequence
            return code
        if step != T.TK_PRINTED and step != T.TK_HANDPAID:
            return BAD_RECORD
        if not self.ticket or number != self.ticket_no:
            return R.NO_BET  # not the ticket in doubt
        amount = self.ticket
        printed = step == T.TK_PRINTED
        if printed:
            # a later 4C may change the ID and sequence: the number printed is kept
            self.validations.add(number, time, amount, self.val_seq & 0xFFFF, self.config["ticket_expiry"])
            self.ticket_last = number
        self._paid(printed, amount)
        self.events.log(time, E.CASHOUT if printed else E.HANDPAY, amount)
        self.ticket = self.ticket_no = 0
        if self.lock in (LK_PRINTER, LK_DOUBT):
            self.events.log(time, E.FAULT_CLEAR, self.lock)
            self.lock = LK_NONE
            self.lock_arg = 0
        return R.OK

    def _cashout(self, time, f, tail, pending=False):
        if self.lock or self.phase != BETTING or self.ticket:
            return R.LOCKED
        amount = self.table.credits
        if amount <= 0:
            return R.NO_CREDITS
        self.table.cashout()
        m = self.meters
        m.add("total_out", amount)
        if pending:
            return R.OK  # tickets_out and the event wait for the printer
        self._paid(f[0] == T.BY_TICKET, amount)
        if f[0] == T.BY_TICKET:
            self.ticket_last = 0    # a ticket with no number (the newest is this one)
            self.validations.add(0, time, amount, self.val_seq & 0xFFFF, self.config["ticket_expiry"])
            self.events.log(time, E.CASHOUT, amount)
        else:
            self._set_lock(time, LK_HANDPAY, amount, E.HANDPAY)
        return R.OK

    def _paid(self, by_ticket, amount):
        """Meters credits that left the station as a by_ticket or by hand."""
        m = self.meters
        if by_ticket:
            m.add("tickets_out", amount)
            m.add("tickets")
        else:
            m.add("handpay_cc", amount)
            m.add("handpays")

    def _set_lock(self, time, code, arg, event):
        self.lock = code
        self.lock_arg = arg
        self.events.log(time, event, arg)

    def _sas_ack(self, time, f, tail):
        n = f[0]
        if n < self.sas_ack or n > self.events.total:
            return BAD_RECORD
        self.sas_ack = n
        return R.OK

    # ---- the records play seldom writes ---------------------------------
    def _void(self, time, f, tail):
        if self.phase != CLOSED:
            return R.BETS_CLOSED
        before = self.table.credits
        returned = self.table.return_fresh()
        self.meter_back(before)
        self.meters.add("voided")
        self.game_no += 1
        bets = [(k, n, res, a, p) for k, n, a, res, p, v, d, u in returned]
        self.recall.add(encode_game(self.game_no, time, 0, 0, self.table.point,
                                    self.table.point, self.rerolls, VOIDED,
                                    self.credits_at_close, self.table.credits, bets))
        self.events.log(time, E.VOID, f[0])
        self.last_game = list(returned)
        self._end_game()
        return R.OK

    def _reroll(self, time, f, tail):
        if self.phase != CLOSED:
            return R.BETS_CLOSED
        why = f[0]
        self.rerolls += 1
        if why == E.COCKED:
            self.cocked_run += 1
            self.meters.add("cocked")
        else:
            self.stuck_run += 1
            self.meters.add("stuck")
        self.events.log(time, why, self.rerolls)
        return R.OK

    def _reset(self, time, f, tail):
        if not self.lock:
            return R.NO_BET
        if self.ticket or self.host & BILL_DOUBT:
            return R.LOCKED  # a ticket or a note in doubt is settled first (attend.py)
        was = self.lock
        if was == LK_JACKPOT and self.host & TO_CREDIT and self.to_credit_ok():
            # reset to the credit meter (SAS 14): the jackpot stays metered
            # as one, and the machine, not the attendant, pays it
            self.table.credits += self.lock_arg
            self.meters.add("jp_to_credit", self.lock_arg)
        self.host &= ~TO_CREDIT
        self.lock = LK_NONE
        self.lock_arg = 0
        self.cocked_run = 0
        self.stuck_run = 0
        self.events.log(time, E.HANDPAY_RESET if was in (LK_HANDPAY, LK_JACKPOT) else E.FAULT_CLEAR, was)
        return R.OK

    def _lock(self, time, f, tail):
        code, arg = f
        if not 0 < code < len(LOCK_NAMES):
            return BAD_RECORD
        event = {LK_MALFUNCTION: E.MALFUNCTION, LK_SHAKER: E.SHAKER_FAULT,
                 LK_PRINTER: E.PRINTER_FAULT, LK_DEVICE: E.DEVICE_FAULT,
                 LK_DOUBT: E.TICKET_DOUBT}.get(code, E.MALFUNCTION)
        if code == LK_DOUBT:
            self.meters.add("tickets_doubt")
        elif event in _FAULT_EVENTS:
            self.meters.add("dev_faults")
        self._set_lock(time, code, arg, event)
        return R.OK

    def _event(self, time, f, tail):
        code, arg = f
        m = self.meters
        if code == E.DOOR_OPEN:
            self.door_open = True
            m.add("door_opens")
        elif code == E.DOOR_CLOSE:
            self.door_open = False
            m.set("games_door", 0)
        elif code == E.TILT:
            self.tilt = True
            m.add("tilts")
        elif code == E.TILT_CLEAR:
            self.tilt = False
        elif code == E.AUDIT_ON:
            self.audit = True
        elif code == E.AUDIT_OFF:
            self.audit = False
        elif code == E.CASHBOX_OPEN:
            m.add("cashbox_opens")
            m.set("cashbox", 0)   # the stacker is emptied: a drop
            self.host |= CASHBOX_DOOR
        elif code == E.RAM_CLEAR:
            self.host |= NEED_PIN   # no PIN: the technician sets one first
        elif code == E.LOGIC_OPEN:
            m.add("logic_opens")
            self.host |= LOGIC_DOOR
        elif code == E.HOST_OFF:
            self.host |= arg & (HOST_OFF | BILLS_OFF)
        elif code == E.HOST_ON:
            self.host &= ~arg
        elif code == E.LOGIC_CLOSE:
            self.host &= ~LOGIC_DOOR
        elif code == E.CASHBOX_CLOSE:
            self.host &= ~CASHBOX_DOOR
        elif code == E.ACTION_FAULT:
            m.add("action_faults")
        elif code in _FAULT_EVENTS:     # a fault under another lock
            m.add("dev_faults")
        elif code == E.RESET_METHOD:    # SAS A8: arg 1 = to the credit meter
            if arg > 1 or (arg and not self.to_credit_ok()):
                return R.LOCKED
            self.host = self.host | TO_CREDIT if arg else self.host & ~TO_CREDIT
        elif code == E.PULSES_DROPPED:  # arg: pulses << 1 | source
            self.pulses[arg & 1] = 0
        elif not 0 < code < E.COUNT:
            return BAD_RECORD
        self.events.log(time, code, arg)
        return R.OK

    def _config(self, time, f, tail):
        index = f[0]
        if index >= len(C.CONFIG):
            return BAD_RECORD
        key, default, low, high, money = C.CONFIG[index]
        try:
            text = tail.decode()
        except Exception:
            return BAD_SETTING
        ok, value = C.parse(key, text)
        if not ok or (key == "profile" and value not in profiles.NAMES):
            self.last_error = value if not ok else "unknown profile"
            return BAD_SETTING
        if money and self.money_on_table():
            return MONEY_ON_TABLE
        old = str(self.config[key])
        self.config[key] = value
        if key == "pin":
            self.host &= ~NEED_PIN
        if key in ("profile", "odds_mult", "min_bet", "max_bet"):
            state = self.table.encode()
            self.table = Table(self._profile())
            self.table.load(state)
        self.conf_history.append((time, index, old, text))
        if len(self.conf_history) > _CONFIG_HISTORY:
            self.conf_history.pop(0)
        self.events.log(time, E.CONFIG, index)
        return R.OK

    def _valid_id(self, time, f, tail):
        vid, seq = f
        if not (0 <= vid < 1 << 24 and 0 <= seq < 1 << 24):
            return BAD_RECORD
        self.val_id = vid
        self.val_seq = seq
        return R.OK

    def _power(self, time, f, tail):
        self.meters.add("power_ups")
        self.meters.set("games_power", 0)
        self.events.log(time, E.POWER_UP)
        return R.OK

    # ---- snapshot ------------------------------------------------------
    def pieces(self):
        """The snapshot as a list of pieces, in order (firmware/store/snapshot.py)."""
        return snapshot.pieces(self)

    def encode(self):
        """The snapshot in one block (tests and host tools compare states;
        the port's join takes no memoryview, the recall's pieces are)."""
        return b"".join([bytes(p) for p in self.pieces()])


# the player's actions (CLOSE too: the ROLL button closes the bets)
_ACTIONS = (T.BET, T.REMOVE, T.WORKING, T.CLEAR, T.CLOSE)
_FAULT_EVENTS = (E.DEVICE_FAULT, E.PRINTER_FAULT)   # what the dev_faults meter counts

_APPLY = {
    T.CREDIT: Ledger._credit, T.BET: Ledger._bet, T.REMOVE: Ledger._remove,
    T.WORKING: Ledger._working, T.CLEAR: Ledger._clear, T.CLOSE: Ledger._close,
    T.ROLL: Ledger._roll, T.CASHOUT: Ledger._cashout, T.TICKET: Ledger._ticket,
    T.PULSES: Ledger._pulses, T.SAS_ACK: Ledger._sas_ack, T.ESCROW: Ledger._escrow,
    T.VOID: Ledger._void, T.REROLL: Ledger._reroll, T.RESET: Ledger._reset,
    T.LOCK: Ledger._lock, T.EVENT: Ledger._event, T.CONFIG: Ledger._config,
    T.VALID_ID: Ledger._valid_id, T.POWER: Ledger._power, T.TICKET_IN: ticket_in.apply,
    T.AFT: aft.apply,
}

