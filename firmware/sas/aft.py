"""AFT in-house transfers (SAS 6.02 section 8): 74 game lock and status,
72 transfer funds to and from the credit meter, and its interrogation by
transaction history position. Refusals and choices: firmware/sas/SAS.md
*AFT*. The transfer itself is one journal record (firmware/store/aft.py).

The lock is RAM only (a power cut ends it): while locked the ledger holds
play (Ledger.aft_lock: no bet, no roll, no cash out) so the credits stay what the host
saw; it ends when its timeout runs out, when the host cancels it or when a
transfer completes (8.2).
"""
from micropython import const
from firmware.rules import reasons as R
from firmware.store import records as T
from firmware.store import ledger as L
from firmware.store import aft as A
from firmware.sas import wire
from firmware import timefmt

_LOCKED = const(0x00)
_PENDING = const(0x40)
_UNLOCKED = const(0xFF)
_LOCK_REQUEST = const(0x00)
_LOCK_CANCEL = const(0x80)
_GAME_LOCKED = const(0x6F)          # exception: game locked (8.2)
_LOCK_AGAIN_MS = const(5000)        # ... reported again this often while locked
# 74 available transfers and transfer conditions (Table 8.2b): to the machine, from it
_TO_MACHINE = const(0x01)
_FROM_MACHINE = const(0x02)
# 74 AFT status: partial transfers to the host allowed, in-house transfers,
# any AFT enabled (Table 8.2b)
_AFT_STATUS = const(0x92)
# 72 transfer codes (Table 8.3a)
_FULL_ONLY = const(0x00)
_PARTIAL_OK = const(0x01)
_CANCEL = const(0x80)
_ASK_NO_ACK = const(0xFE)
_ASK = const(0xFF)
# 72 transfer flags (Table 8.3d)
_ONLY_IF_LOCKED = const(0x40)
_RECEIPT = const(0x80)
# transfer status (Table 8.3e)
_NOT_UNIQUE = const(0x81)
_NOT_VALID = const(0x82)
_BAD_AMOUNT = const(0x83)
_OVER_LIMIT = const(0x84)
_UNABLE = const(0x87)
_NO_RECEIPT = const(0x90)
_ASSET = const(0x93)
_NOT_LOCKED = const(0x94)
_BAD_ID = const(0x95)
_NO_INFO = const(0xFF)
_RECEIPT_NONE = const(0xFF)
_ID_AT = const(46)                  # 72: where the transaction ID's length byte is
_MIN_FRAME = const(_ID_AT + 1 + 1 + 2)   # ... with a 1-character ID and the CRC


class Aft:
    def __init__(self, sas):
        self.sas = sas
        self.lock = _UNLOCKED
        self.want = 0                # the lock's transfer conditions
        self.until = 0               # when it runs out (ms)
        self.told = 0                # when 6F was last queued (ms)
        # the newest refused request (status, type, flags, ID), newer than the
        # history's newest transfer; RAM only: nothing moved
        self.refused = None

    # ---- the machine's side -------------------------------------------------
    def _ledger(self):
        return self.sas.ctl.store.ledger

    def unable(self, kind):
        """True when the machine can take no transfer of this type now (8.4):
        a door, a tilt, the audit menu, a lockup, a roll in progress, other
        money in flight; disabled by the host only stops transfers in."""
        st = self.sas.ctl.store
        led = st.ledger
        return st.critical or bool(led.lock) or bool(led.host & L.NEED_PIN) \
            or led.doors_open() or led.tilt or led.audit or led.phase != L.BETTING \
            or bool(led.ticket) or bool(led.escrow) or bool(led.tin_step) \
            or led.pulses[0] > 0 or led.pulses[1] > 0 \
            or (kind == T.AFT_IN and bool(led.host & L.HOST_OFF))

    def room(self):
        """Cents the credit meter can still take under the credit limit."""
        led = self._ledger()
        return max(0, led.config["credit_limit"] * 100 - led.table.credits)

    def available(self):
        bits = 0
        if not self.unable(T.AFT_IN) and self.room():
            bits |= _TO_MACHINE
        if not self.unable(T.AFT_OUT) and self._ledger().table.credits:
            bits |= _FROM_MACHINE
        return bits

    def _hold(self, state):
        self.lock = state
        self._ledger().aft_lock = state != _UNLOCKED

    def tick(self, now_ms):
        """Runs out the lock, and grants a pending one once the machine can
        do what the host asked for."""
        if self.lock == _UNLOCKED:
            return
        diff = self.sas.ctl.clock.ticks_diff
        if diff(self.until, now_ms) <= 0:
            self._hold(_UNLOCKED)
            return
        if self.lock == _PENDING and self._ledger().phase == L.BETTING \
                and self.available() & self.want == self.want:
            self._hold(_LOCKED)
            self.told = now_ms
            self.sas.push(_GAME_LOCKED)
        elif self.lock == _LOCKED and diff(now_ms, self.told) >= _LOCK_AGAIN_MS:
            self.told = now_ms
            self.sas.push(_GAME_LOCKED)

    # ---- 74 ---------------------------------------------------------------
    def lock_status(self, f, n):
        """74 AFT game lock and status request (8.2, Tables 8.2a/8.2b)."""
        sas = self.sas
        code = f[2]
        if code == _LOCK_REQUEST:
            ms = wire.get_bcd(f, 4, 2)
            if ms <= 0:
                return sas.status(0x80)          # no timeout, or not BCD: NACK
            now = sas.ctl.clock.ticks_ms()
            self.want = f[3] & (_TO_MACHINE | _FROM_MACHINE)
            self.until = now + 10 * ms
            if self.lock == _UNLOCKED:
                self._hold(_PENDING)
                self.tick(now)
        elif code == _LOCK_CANCEL:
            self._hold(_UNLOCKED)
        led = self._ledger()
        o = sas.reply
        k = sas.head(0x74)
        o[k] = 0x23
        k = _asset(o, k + 1, led)
        o[k] = self.lock
        o[k + 1] = self.available()
        o[k + 2] = 0                             # host cashout: not offered
        o[k + 3] = _AFT_STATUS
        o[k + 4] = A.HISTORY                     # the history's highest position
        k = wire.put_bcd(o, k + 5, led.table.credits, 5)
        k = wire.put_bcd(o, k, 0, 5)             # restricted: none on this machine
        k = wire.put_bcd(o, k, 0, 5)             # nonrestricted: none
        k = wire.put_bcd(o, k, self.room(), 5)   # what the credit meter can take
        k = wire.put_bcd(o, k, 0, 4)             # restricted expiration
        o[k] = o[k + 1] = 0                      # restricted pool ID
        return sas.tail(k + 2)

    # ---- 72 ---------------------------------------------------------------
    def transfer(self, f, n):
        """72 AFT transfer funds (8.3): a transfer to or from the credit
        meter, done at once, or an interrogation (FE, FF) of the current
        transfer (index 00) or of the history (01-7F by position, 81-FF
        back from the newest)."""
        sas = self.sas
        if f[2] + 5 != n:
            return sas.status(0x80)              # the length byte disagrees: NACK
        code = f[3] if n > 5 else -1
        if code == _ASK or code == _ASK_NO_ACK or code == _CANCEL:
            # nothing is ever pending here, so there is nothing to cancel
            return self._report(f[4] if code != _CANCEL and n > 6 else 0)
        if code not in (_FULL_ONLY, _PARTIAL_OK):
            return self._answer(0, 0xC1, 0, 0, 0, 0, b"")   # unsupported transfer code
        if n < _MIN_FRAME:
            return sas.status(0x80)
        idn = f[_ID_AT]
        tid = bytes(f[_ID_AT + 1:_ID_AT + 1 + idn])
        kind, flags = f[5], f[21]
        cents = wire.get_bcd(f, 6, 5)
        led = self._ledger()
        back = led.aft.find(tid)
        if back == 0:
            self.refused = None
            return self._report(0)           # a repeat of the newest: its result
        why = 0
        if back > 0:
            why = _NOT_UNIQUE
        elif not 1 <= idn <= A.ID_MAX or _ID_AT + 1 + idn > n - 2 \
                or not all(32 <= c < 127 for c in tid):
            why = _BAD_ID
        elif kind not in (T.AFT_IN, T.AFT_OUT) or f[4] != 0 \
                or wire.get_bcd(f, 11, 5) != 0 or wire.get_bcd(f, 16, 5) != 0:
            why = _NOT_VALID                 # another type, restricted or promotional money
        elif cents <= 0:
            why = _BAD_AMOUNT
        elif _asset_of(f, 22) != led.config["asset_number"] or not led.config["asset_number"]:
            why = _ASSET
        elif flags & _ONLY_IF_LOCKED and self.lock != _LOCKED:
            why = _NOT_LOCKED
        elif flags & _RECEIPT:
            why = _NO_RECEIPT                # no transaction receipts on this printer
        elif self.unable(kind):
            why = _UNABLE
        else:
            most = self.room() if kind == T.AFT_IN else led.table.credits
            if cents > most and (code != _PARTIAL_OK or not most):
                why = _OVER_LIMIT if kind == T.AFT_IN else _BAD_AMOUNT
        if why:
            self.refused = (why, kind, cents, flags, tid)
            return self._report(0)
        status = T.AFT_FULL
        if cents > most:
            cents, status = most, T.AFT_PARTIAL
        st = sas.ctl.store
        if st.commit(T.pack(T.AFT, sas.ctl.now_s(), kind, status, cents) + tid) != R.OK:
            self.refused = (_UNABLE, kind, cents, flags, tid)
        else:
            self.refused = None
            self._hold(_UNLOCKED)                # a transfer ends the lock (8.2)
        return self._report(0)

    def _report(self, index):
        """The 72 answer for the current transfer (index 0) or a history entry."""
        led = self._ledger()
        if index == 0 and self.refused is not None:
            why, kind, cents, flags, tid = self.refused
            return self._answer(0, why, kind, cents, flags, 0, tid)
        e = None
        if index == 0 or index > 0x80:
            e = led.aft.get(0 if index == 0 else 0xFF - index)
        elif index <= A.HISTORY:
            e = led.aft.at(index)
        if e is None:
            return self._answer(index, _NO_INFO, 0, 0, 0, 0, b"")
        position, t, kind, status, cents, cum, tid = e
        return self._answer(position if index else 0, status, kind, cents, 0, t, tid, cum)

    def _answer(self, index, status, kind, cents, flags, t, tid, cum=-1):
        """72's answer (Table 8.3b); the short form (position, status) when
        there is no transfer to tell about."""
        sas = self.sas
        o = sas.reply
        k = sas.head(0x72)
        o[k + 1] = index
        o[k + 2] = status
        if not tid:
            o[k] = 2
            return sas.tail(k + 3)
        o[k + 3] = _RECEIPT_NONE
        o[k + 4] = kind
        i = wire.put_bcd(o, k + 5, cents, 5)
        i = wire.put_bcd(o, i, 0, 10)            # restricted, nonrestricted
        o[i] = flags
        i = _asset(o, i + 1, self._ledger())
        o[i] = len(tid)
        o[i + 1:i + 1 + len(tid)] = tid
        i += 1 + len(tid)
        if t:
            y, mo, d, hh, mi, ss = timefmt.civil(t)
            i = wire.put_bcd(o, i, mo * 1000000 + d * 10000 + y, 4)
            i = wire.put_bcd(o, i, hh * 10000 + mi * 100 + ss, 3)
        else:
            i = wire.put_bcd(o, i, 0, 7)         # not done: no date
        i = wire.put_bcd(o, i, 0, 6)             # expiration, pool ID
        if cum >= 0:
            o[i] = 5                             # the type's cumulative meter, cents
            i = wire.put_bcd(o, i + 1, cum, 5)
        else:
            o[i] = 0
            i += 1
        o[i] = o[i + 1] = 0                      # restricted, nonrestricted meters: none
        o[k] = i + 2 - (k + 1)
        return sas.tail(i + 2)


def _asset(o, k, led):
    a = led.config["asset_number"]
    for i in range(4):
        o[k + i] = (a >> (8 * i)) & 0xFF
    return k + 4


def _asset_of(f, at):
    return f[at] | (f[at + 1] << 8) | (f[at + 2] << 16) | (f[at + 3] << 24)


def answer(sas, f, n):
    """72 and 74 (the long-poll handler in firmware/sas/machine.py)."""
    if f[1] == 0x74:
        return sas.aft.lock_status(f, n)
    return sas.aft.transfer(f, n)
