"""SAS handpays: the handpay queue (SAS 6.02 7.8.1), long poll 1B handpay
information (7.8) and A8 enable jackpot handpay reset method (14).

The queue is the journal's event log: every handpay and jackpot lockup is
an event, and so are the two steps the host takes with it (events
HANDPAY_READ, the host read it with 1B, and HANDPAY_CLOSED, it
acknowledged the 52 that follows the reset; their argument is the
handpay's event number). So a pending handpay survives a power cut at any
instant, and after one it is reported again as the same entry, never as a
new one. The queue is what the event log holds (256 events, firmware/store/
events.py): far more than the 5 entries the spec asks for.

51 (handpay pending) and 52 (handpay was reset) are priority exceptions,
sent before the exception queue (2.2.1): 51 for the oldest entry the host
has not read, again 15 s after each acknowledgement until 1B reads it; 52
once it is read and reset; after 52 is acknowledged the next entry's 51.
Config `handpay_queue` 0 is legacy reporting (7.8.2): 51 and 52 go
through the exception queue and 1B reports the current lockup only.
"""
from micropython import const
import array
from firmware.sas import wire
from firmware.store import events as E
from firmware.store import ledger as L

_CAP = const(8)              # entries tracked; a ninth drops the oldest (70)
_REISSUE_MS = const(15000)   # 51 again after this long unread (7.8.1)
PENDING = const(0x51)
RESET = const(0x52)
# 1B level (7.8): a cancelled-credit handpay, a non-progressive top award
_LEVEL_CC = const(0x80)
_LEVEL_WIN = const(0x40)
_LOCKS = (L.LK_HANDPAY, L.LK_JACKPOT)


class Handpays:
    def __init__(self, sas):
        self.sas = sas
        self.numbers = array.array("i", [0] * _CAP)   # event numbers, oldest first
        self.first = 0
        self.size = 0
        self.read = 0        # newest handpay the host read with 1B
        self.due = True      # 51 is to be sent for the oldest entry
        self.since = 0       # when the host acknowledged the last 51 (ms)
        ev = sas.ctl.store.ledger.events
        self.seen = ev.total - ev.count
        self.update()

    def on(self):
        return self.sas.ctl.store.ledger.config["handpay_queue"] == 1

    def head(self):
        return self.numbers[self.first] if self.size else 0

    def update(self):
        """Follows the event log: new handpays queued, reads and closes."""
        ev = self.sas.ctl.store.ledger.events
        while self.seen < ev.total:
            self.seen += 1
            i = ev.total - self.seen
            if i >= ev.count:
                continue
            number, t, code, arg = ev.get(i)
            if code == E.HANDPAY or code == E.JACKPOT:
                if self.size == _CAP:
                    self._pop()
                    self.sas.full = True
                self.numbers[(self.first + self.size) % _CAP] = number
                self.size += 1
            elif code == E.HANDPAY_READ:
                self.read = max(self.read, arg)
            elif code == E.HANDPAY_CLOSED:
                while self.size and self.head() <= arg:
                    self._pop()

    def _pop(self):
        self.first = (self.first + 1) % _CAP
        self.size -= 1
        self.due = True

    def entry(self, number):
        """(code, amount) of handpay event `number`, or None if the log
        no longer holds it."""
        ev = self.sas.ctl.store.ledger.events
        i = ev.total - number
        if not 0 <= i < ev.count:
            return None
        n, t, code, arg = ev.get(i)
        return code, arg

    def locked(self, number):
        """True while handpay `number` is the lockup waiting for its reset."""
        led = self.sas.ctl.store.ledger
        if led.lock not in _LOCKS or number != self.newest():
            return False
        return True

    def newest(self):
        return self.numbers[(self.first + self.size - 1) % _CAP] if self.size else 0

    # ---- the priority exceptions ---------------------------------------------
    def exception(self, now_ms):
        """The priority exception due now (0: none)."""
        if not self.on() or not self.size:
            return 0
        n = self.head()
        if n > self.read:
            if not self.due and self.sas.ctl.clock.ticks_diff(now_ms, self.since) >= _REISSUE_MS:
                self.due = True
            return PENDING if self.due else 0
        return 0 if self.locked(n) else RESET

    def acked(self, code, now_ms):
        """The host acknowledged priority exception `code`."""
        if code == PENDING:
            self.due = False
            self.since = now_ms
        elif code == RESET and self.size:
            self._journal(E.HANDPAY_CLOSED, self.head())

    def _journal(self, code, number):
        ctl = self.sas.ctl
        if not ctl.store.critical:
            ctl.store.event(ctl.now_s(), code, number)
        self.update()

    # ---- long polls ----------------------------------------------------------
    def read_info(self, f, n):
        """1B handpay information: the oldest entry of the queue (read by the
        host from now on), or in legacy reporting the current lockup; all
        zeros when there is none."""
        sas = self.sas
        led = sas.ctl.store.ledger
        code = amount = 0
        credit = False
        if self.on():
            self.update()
            number = self.head()
            e = self.entry(number) if number else None
            if e is not None:
                code, amount = e
                credit = self.locked(number)
                if number > self.read:
                    self._journal(E.HANDPAY_READ, number)
        elif led.lock in _LOCKS:
            code = E.JACKPOT if led.lock == L.LK_JACKPOT else E.HANDPAY
            amount = led.lock_arg
            credit = True
        o = sas.reply
        k = sas.head(0x1B)
        o[k] = 0                                 # progressive group
        o[k + 1] = (_LEVEL_WIN if code == E.JACKPOT else _LEVEL_CC) if amount else 0
        k = wire.put_bcd(o, k + 2, amount, 5)
        k = wire.put_bcd(o, k, 0, 2)             # partial pay
        # reset ID (14.1): 01 when this lockup may be reset to the credit meter
        o[k] = 1 if credit and led.to_credit_ok() else 0
        for i in range(10):
            o[k + 1 + i] = 0
        return sas.tail(k + 11)

    def set_reset_method(self, f, n):
        """A8 enable jackpot handpay reset method (14.2): 00 standard
        handpay, 01 reset to the credit meter. Answer 00 enabled, 01 unable,
        02 not in a handpay. Journalled: the attendant's reset (or 94) after
        a power cut still does what the host chose."""
        sas = self.sas
        ctl = sas.ctl
        led = ctl.store.ledger
        method = f[2]
        if led.lock not in _LOCKS:
            ack = 2
        elif method > 1 or (method and not led.to_credit_ok()) or ctl.store.critical:
            ack = 1
        elif bool(led.host & L.TO_CREDIT) == bool(method):
            ack = 0                              # already so: no flash written
        else:
            ack = 1 if ctl.store.event(ctl.now_s(), E.RESET_METHOD, method) else 0
        o = sas.reply
        k = sas.head(0xA8)
        o[k] = ack
        return sas.tail(k + 1)


def info(sas, f, n):
    """Long poll 1B (Sas's handler table, firmware/sas/machine.py)."""
    return sas.handpays.read_info(f, n)


def reset_method(sas, f, n):
    """Long poll A8 (Sas's handler table)."""
    return sas.handpays.set_reset_method(f, n)
