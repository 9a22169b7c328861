"""The gaming-machine side of SAS 6.02: answers the host's general and long
polls on the cabinet's SAS port.

The exception queue is fed from the journal's event log (doors, power, bills,
tickets, handpays, RAM errors, tilts...), so those exceptions survive a power
cut: the newest event the host acknowledged is itself journalled (record
SAS_ACK) and after a restart everything newer is reported again, in order.
Game start/end come from watching the ledger and are volatile (a game cut by
power is replayed or voided by the journal anyway). Implied ACK/NACK per
SAS 6.02 section 3: a repeated general poll (nothing else in between) is a
NACK and gets the same exception again, at most three times.

Only this module and firmware/sas/* know SAS; the controller calls tick().
"""
import array
from micropython import const
from firmware.sas import wire as Wr
from firmware.sas import exceptions as X
from firmware.sas import meters as M
from firmware.sas import validation as V
from firmware.store import events as E
from firmware.store import records as T
from firmware.store import ledger as L
from firmware import timefmt

_QCAP = const(32)          # exception FIFO (the spec asks for at least 20)
_RX = const(64)
_ACK_EVERY_MS = const(1000)
_NACK_MAX = const(3)
_ROM_CHUNKS = const(4)
SAS_VERSION = b"602"
_SENT_NONE = const(0)
_SENT_QUEUE = const(1)
_SENT_ROM = const(2)
_SENT_OVERFLOW = const(3)
COUNTRY_US = const(0x37)   # Table C-5 bill acceptor country code
# Table C-6 bill denomination codes: the dollar values in code order (00-09,
# then 10 = $500); tuples, not dicts: less heap
_BILL_DOLLARS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)
# Table C-4 denomination codes: cents per credit in code order (01-0A)
_DENOM_CENTS = (1, 5, 10, 25, 50, 100, 500, 1000, 2000, 10000)


def _code(table, value):
    """Position of value in table (-1: none)."""
    for i in range(len(table)):
        if table[i] == value:
            return i
    return -1


class _Crc:
    """hashlib-like CRC-16 for the ROM signature (same walk as the digest)."""

    def __init__(self, seed):
        self.crc = seed

    def update(self, data):
        self.crc = Wr.crc16(data, 0, len(data), self.crc)

    def digest(self):
        return bytes((self.crc & 0xFF, self.crc >> 8))


def start(ctl):
    """The SAS side for the controller, or None when the memory is critical
    (the address reverts to 0). Made with address 0 (SAS off, 2.1) too: it
    then answers nothing, and a new address takes effect at once."""
    if ctl.store.critical:
        return None
    return Sas(ctl)


def set_time(ctl, t):
    """Sets the wall clock (SAS 7F); logged with the old time as the record's
    time and the new one as its argument."""
    old = ctl.now_s()
    fn = getattr(ctl.clock, "set_time", None)
    if fn is not None:
        fn(t)
    if not ctl.store.critical:
        ctl.store.commit(T.pack(T.EVENT, old, E.CLOCK_SET, t & 0xFFFFFFFF))
    ctl.dirty = True


class Sas:
    def __init__(self, ctl, root="."):
        self.ctl = ctl
        self.port = ctl.board.sas
        self.root = root
        led = ctl.store.ledger
        self.framer = Wr.Framer(led.config["sas_address"])
        self.rx = bytearray(_RX)
        self.wake = bytearray(_RX)
        self.out = bytearray(48)
        self.q = bytearray(_QCAP)           # exception codes, FIFO ring
        self.qn = array.array("I", [0] * _QCAP)   # their event numbers (0 = volatile)
        self.head = 0
        self.size = 0
        self.fed = led.sas_ack              # newest event number queued
        self.acked = led.sas_ack
        self._saved_ms = 0
        self.sent = _SENT_NONE              # what the last general poll got, until acknowledged
        self.sends = 0
        self.overflow = False
        self._other = 0
        self._last = 0                      # kind of the previous message for us
        # a game in progress at power-up (it is replayed or voided) is
        # reported as started again, so its 7F never comes without a 7E
        self._phase = -1
        self._game_no = led.game_no
        self.rom = None                     # Digest computing a ROM signature
        self.rom_sig = -1                   # finished signature waiting for a general poll
        self.unread_ticket = False
        self.polls = 0
        self.refused = 0                    # frames for us dropped (bad CRC or data)

    # ---- the queue -------------------------------------------------------
    def push(self, code, number=0):
        if self.size == _QCAP:
            # overrun: the oldest is lost, 70 goes out first at the next poll (2.2.1)
            if self.sent == _SENT_QUEUE:
                self.sent = _SENT_NONE
            self._pop()
            self.overflow = True
        i = (self.head + self.size) % _QCAP
        self.q[i] = code
        self.qn[i] = number
        self.size += 1

    def _pop(self):
        n = self.qn[self.head]
        if n:
            self.acked = n
        self.head = (self.head + 1) % _QCAP
        self.size -= 1

    def pending(self):
        """Codes still queued, oldest first (tests, read-out)."""
        return bytes(self.q[(self.head + i) % _QCAP] for i in range(self.size))

    def _feed_events(self):
        ev = self.ctl.store.ledger.events
        total = ev.total
        if total - self.fed > E.CAPACITY:   # the log itself lost some
            self.overflow = True
            self.fed = total - E.CAPACITY
        while self.fed < total:
            self.fed += 1
            number, t, code, arg = ev.get(total - self.fed)
            if code == E.CASHOUT:
                self.unread_ticket = True
            if code == E.BILL_IN:
                dollars = M.cents(self.ctl.store.ledger, arg) // 100
                self.push(X.BILL_CODES.get(dollars, X.BILL_OTHER), number)
                continue
            codes = X.BY_EVENT.get(code)
            if codes:
                for c in codes:
                    self.push(c, number)
            elif number > self.acked and self.size == 0:
                self.acked = number     # nothing to report: counts as acknowledged

    def _watch_game(self):
        led = self.ctl.store.ledger
        if led.phase != self._phase:
            self._phase = led.phase
            if led.phase == L.CLOSED:
                self.push(X.GAME_START)
        if led.game_no != self._game_no:
            self._game_no = led.game_no
            self.push(X.GAME_END)

    # ---- one pass ----------------------------------------------------------
    def tick(self, now_ms):
        try:
            self._tick(now_ms)
        except Exception as exc:    # a protocol bug must never stop the cabinet
            self.errors += 1
            self.error = repr(exc)[:60]

    errors = 0
    error = ""

    def serve(self):
        """Only answers what the line holds (the main loop calls it after
        each of its other parts, so a poll waits for one part at most)."""
        try:
            self._serve()
        except Exception as exc:
            self.errors += 1
            self.error = repr(exc)[:60]

    def _tick(self, now_ms):
        # the configured address, live: a change in the menu applies at the
        # next tick (0 = SAS off: every poll ignored)
        self.framer.address = self.ctl.store.ledger.config["sas_address"]
        self._feed_events()
        self._watch_game()
        if self.rom is not None and self.rom.step(_ROM_CHUNKS):
            if self.rom.hexdigest:   # 4 hex digits: the CRC, low byte first
                d = self.rom.hexdigest
                self.rom_sig = int(d[0:2], 16) | (int(d[2:4], 16) << 8)
            self.rom = None
        self._serve()
        self._save_ack(now_ms)

    def _serve(self):
        n = self.port.read(self.rx, self.wake)
        fr = self.framer
        for i in range(n):
            kind = fr.feed(self.rx[i], self.wake[i])
            if fr.other != self._other:
                # a poll to another machine: implied ACK of our last answer (3.1)
                self._other = fr.other
                self._ack()
                self._last = 0
            if kind:
                self.handle(kind)

    def _save_ack(self, now_ms):
        store = self.ctl.store
        led = store.ledger
        if self.acked <= led.sas_ack or store.critical:
            return
        if self.ctl.clock.ticks_diff(now_ms, self._saved_ms) < _ACK_EVERY_MS:
            return
        self._saved_ms = now_ms
        store.commit(T.pack(T.SAS_ACK, self.ctl.now_s(), min(self.acked, led.events.total)))

    def handle(self, kind):
        """A complete message for this machine is in framer.frame."""
        fr = self.framer
        self.polls += 1
        if kind == Wr.GENERAL:
            nack = self._last == Wr.GENERAL and self.sent != _SENT_NONE \
                and self.sends < _NACK_MAX
            self._last = kind
            self._general(nack)
            return
        # any other poll is an implied ACK of a general-poll answer
        self._ack()
        self._last = kind
        cmd = fr.frame[1]
        ln = Wr.LENGTH[cmd]
        if ln != Wr.R and not Wr.crc_ok(fr.frame, fr.n):
            self.refused += 1           # a bad CRC is ignored: the host polls again
            return
        fn = _POLLS.get(cmd)
        if fn is None:
            return
        n = fn(self, fr.frame, fr.n)
        if kind == Wr.BROADCAST or n == 0:
            return                          # type G gets no answer
        self.port.write(memoryview(self.out)[:n])

    def _ack(self):
        sent = self.sent
        self.sent = _SENT_NONE
        self.sends = 0
        if sent == _SENT_ROM:
            self.rom_sig = -1
        elif sent == _SENT_OVERFLOW:
            self.overflow = False
        elif sent == _SENT_QUEUE and self.size:
            self._pop()

    def _general(self, nack):
        if not nack:
            self._ack()
        o = self.out
        self.sends += 1
        if self.rom_sig >= 0:
            # the ROM signature answers the first general poll after it is ready (6.1)
            o[0] = self.framer.address
            o[1] = 0x21
            o[2] = self.rom_sig & 0xFF
            o[3] = self.rom_sig >> 8
            self.sent = _SENT_ROM
            self.port.write(memoryview(o)[:self._crc(4)])
            return
        if self.overflow:
            o[0] = X.OVERFLOW
            self.sent = _SENT_OVERFLOW
        elif self.size:
            o[0] = self.q[self.head]
            self.sent = _SENT_QUEUE
        else:
            o[0] = X.NONE
            self.sent = _SENT_NONE
        self.port.write(memoryview(o)[:1])

    # ---- response helpers ----------------------------------------------------
    def _crc(self, n):
        c = Wr.crc16(self.out, 0, n)
        self.out[n] = c & 0xFF
        self.out[n + 1] = c >> 8
        return n + 2

    def _head(self, cmd):
        self.out[0] = self.framer.address
        self.out[1] = cmd
        return 2

    def _ack_byte(self, ok=True):
        self.out[0] = self.framer.address | (0 if ok else 0x80)
        return 1

    def _event(self, code, arg=0):
        st = self.ctl.store
        if st.critical:
            return False
        return st.event(self.ctl.now_s(), code, arg) == 0

    # ---- long polls -----------------------------------------------------------
    def p_enable(self, f, n):
        """01 shutdown / 02 startup (7.4.1): a game in progress completes, then
        no new bets; cash out stays possible."""
        led = self.ctl.store.ledger
        return self._host_flag(L.HOST_OFF, f[1] == 0x01)

    def p_bills(self, f, n):
        """06 enable / 07 disable the bill acceptor."""
        return self._host_flag(L.BILLS_OFF, f[1] == 0x07)

    def _host_flag(self, bit, off):
        if bool(self.ctl.store.ledger.host & bit) != off:
            if not self._event(E.HOST_OFF if off else E.HOST_ON, bit):
                return self._ack_byte(False)
        return self._ack_byte()

    def p_single(self, f, n):
        k = self._head(f[1])
        k = Wr.put_bcd(self.out, k, M.SINGLE[f[1]](self.ctl.store.ledger), 4)
        return self._crc(k)

    def p_multi(self, f, n):
        led = self.ctl.store.ledger
        k = self._head(f[1])
        for fn in M.MULTI[f[1]]:
            k = Wr.put_bcd(self.out, k, fn(led), 4)
        return self._crc(k)

    def p_games_18(self, f, n):
        m = self.ctl.store.ledger.meters
        k = self._head(0x18)
        k = Wr.put_bcd(self.out, k, m.get("games_power"), 2)
        k = Wr.put_bcd(self.out, k, m.get("games_door"), 2)
        return self._crc(k)

    def p_bills_1e(self, f, n):
        led = self.ctl.store.ledger
        k = self._head(0x1E)
        for d in M.BILL_DOLLARS_1E:
            k = Wr.put_bcd(self.out, k, M.bills_of(led, d), 4)
        return self._crc(k)

    def p_bill_dollars(self, f, n):
        led = self.ctl.store.ledger
        k = self._head(0x20)
        k = Wr.put_bcd(self.out, k, M.cents(led, led.meters.get("bills_in")) // 100, 4)
        return self._crc(k)

    def p_info(self, f, n):
        """1F gaming machine ID and information (7.10)."""
        led = self.ctl.store.ledger
        cfg = led.config
        o = self.out
        k = self._head(0x1F)
        o[k:k + 5] = b"BC000"                  # game ID "BC" (BubbleCraps), additional ID
        k += 5
        o[k] = _code(_DENOM_CENTS, cfg["credit_cents"]) + 1   # 0: not in the table
        # max_bet is in dollars like every limit; SAS wants credits
        o[k + 1] = min(255, M.credits(led, cfg["max_bet"] * 100) if cfg["max_bet"] else 255)
        o[k + 2] = 0                           # progressive group: none
        o[k + 3] = 0
        o[k + 4] = 0                           # game options
        k += 5
        name = (cfg["profile"] + "      ")[:6].upper().encode()
        o[k:k + 6] = name                      # paytable ID: the rule profile
        k += 6
        o[k:k + 4] = b"0000"                   # base %: not reported (varies by wager)
        return self._crc(k + 4)

    def p_rom(self, f, n):
        """21 ROM signature: CRC-16 seeded by the host over the same program
        image and files, in the same byte stream, as Verify's digest
        (firmware/audit/digest.for_board); computed a few blocks per pass
        while polls are answered, sent on the first general poll after (6.1)."""
        from firmware.audit.digest import for_board
        self.rom = for_board(self.root, _Crc(f[2] | (f[3] << 8)))
        self.rom_sig = -1
        return 0

    def p_last_bill(self, f, n):
        """48 last accepted bill: country, denomination code, bills of that type."""
        led = self.ctl.store.ledger
        k = self._head(0x48)
        dollars = self._last_bill_dollars(led)
        o = self.out
        if dollars:
            o[k] = COUNTRY_US
            c = _code(_BILL_DOLLARS, dollars)
            o[k + 1] = 0x10 if c == 10 else max(c, 0)
            k = Wr.put_bcd(o, k + 2, M.bills_of(led, dollars), 4)
        else:
            for i in range(6):
                o[k + i] = 0
            k += 6
        return self._crc(k)

    def _last_bill_dollars(self, led):
        ev = led.events
        for i in range(ev.count):
            number, t, code, arg = ev.get(i)
            if code == E.BILL_IN:
                return M.cents(led, arg) // 100
        return 0

    def p_version(self, f, n):
        """54 SAS version and gaming machine serial number."""
        serial = self.ctl.identity()["serial"][:40].encode()
        o = self.out
        k = self._head(0x54)
        o[k] = 3 + len(serial)
        o[k + 1:k + 4] = SAS_VERSION
        k += 4
        o[k:k + len(serial)] = serial
        return self._crc(k + len(serial))

    def p_date(self, f, n):
        """7E current date and time: MMDDYYYY HHMMSS, BCD."""
        y, mo, d, hh, mi, ss = timefmt.civil(self.ctl.now_s())
        o = self.out
        k = self._head(0x7E)
        k = Wr.put_bcd(o, k, mo * 1000000 + d * 10000 + y, 4)
        k = Wr.put_bcd(o, k, hh * 10000 + mi * 100 + ss, 3)
        return self._crc(k)

    def p_set_date(self, f, n):
        """7F receive date and time (also as a type G broadcast)."""
        date = Wr.get_bcd(f, 2, 4)
        tm = Wr.get_bcd(f, 6, 3)
        mo, d, y = date // 1000000, date // 10000 % 100, date % 10000
        hh, mi, ss = tm // 10000, tm // 100 % 100, tm % 100
        if date < 0 or tm < 0 or not (1 <= mo <= 12 and 1 <= d <= 31 and 2000 <= y <= 2099
                                      and hh < 24 and mi < 60 and ss < 60):
            self.refused += 1
            return self._ack_byte(False)
        t = timefmt.unix(y, mo, d, hh, mi, ss)
        if timefmt.civil(t)[:3] != (y, mo, d):  # 31 February and the like
            self.refused += 1
            return self._ack_byte(False)
        set_time(self.ctl, t)
        return self._ack_byte()

    def p_handpay(self, f, n):
        """1B handpay information (7.8, legacy reporting: the current lockup)."""
        led = self.ctl.store.ledger
        o = self.out
        k = self._head(0x1B)
        amount = led.lock_arg if led.lock in (L.LK_HANDPAY, L.LK_JACKPOT) else 0
        o[k] = 0                                 # progressive group
        o[k + 1] = 0x40 if amount and led.lock == L.LK_HANDPAY else 0  # level: 40 = cancelled credits
        k = Wr.put_bcd(o, k + 2, M.cents(led, amount), 5)
        k = Wr.put_bcd(o, k, 0, 2)               # partial pay
        o[k] = 0                                 # reset ID: standard handpay
        for i in range(10):
            o[k + 1 + i] = 0
        return self._crc(k + 11)

    def p_handpay_reset(self, f, n):
        """94 remote handpay reset: 00 reset, 01 unable, 02 not in a handpay."""
        led = self.ctl.store.ledger
        k = self._head(0x94)
        if led.lock not in (L.LK_HANDPAY, L.LK_JACKPOT):
            code = 2
        elif self.ctl.store.reset(self.ctl.now_s()) == 0:
            code = 0
        else:
            code = 1
        self.out[k] = code
        return self._crc(k + 1)

    def p_selected(self, f, n):
        """2F (1-byte meter codes, 4 BCD each) and 6F/AF (2-byte codes, sized)."""
        led = self.ctl.store.ledger
        cmd = f[1]
        o = self.out
        game = Wr.get_bcd(f, 3, 2)
        if game != 0:
            return 0                             # single game: only game 0000 exists
        wide = cmd != 0x2F
        step = 2 if wide else 1
        k = 3
        o[0], o[1] = self.framer.address, cmd
        o[3] = o[4] = 0
        k = 5
        i = 5
        end = n - 2
        while i + step <= end:
            code = f[i] | (f[i + 1] << 8 if wide else 0)
            i += step
            fn = M.BY_CODE.get(code)
            if fn is None:
                continue                         # not metered: left out
            size = 5 if wide else 4
            if k + step + (1 if wide else 0) + size + 2 > len(o):
                break
            o[k] = code & 0xFF
            k += 1
            if wide:
                o[k] = code >> 8
                o[k + 1] = size
                k += 2
            k = Wr.put_bcd(o, k, fn(led), size)
        o[2] = k - 3
        return self._crc(k)

    def p_set_validation(self, f, n):
        """4C set secure-enhanced validation ID and sequence (15.6); an ID of
        zero only reads them back."""
        store = self.ctl.store
        led = store.ledger
        vid = f[2] | (f[3] << 8) | (f[4] << 16)
        seq = f[5] | (f[6] << 8) | (f[7] << 16)
        if vid and (vid != led.val_id or seq > led.val_seq) and not store.critical:
            store.commit(T.pack(T.VALID_ID, self.ctl.now_s(), vid, seq))
        o = self.out
        k = self._head(0x4C)
        vid, seq = self.validation(led)
        for i in range(3):
            o[k + i] = (vid >> (8 * i)) & 0xFF
            o[k + 3 + i] = (seq >> (8 * i)) & 0xFF
        return self._crc(k + 6)

    def validation(self, led):
        return V.of_ledger(led)[:2]

    def p_validation_info(self, f, n):
        """4D send enhanced validation information: the newest cash out ticket
        (function 00 reads it once, FF looks ahead; buffer index 1 = newest)."""
        led = self.ctl.store.ledger
        fn = f[2]
        o = self.out
        k = self._head(0x4D)
        t = V.newest_ticket(led)
        if t is None or (fn == 0 and not self.unread_ticket) or fn not in (0, 1, 0xFF):
            for i in range(31):
                o[k + i] = 0
            return self._crc(k + 31)
        if fn == 0:
            self.unread_ticket = False
        number, when, amount = t
        y, mo, d, hh, mi, ss = timefmt.civil(when)
        o[k] = 0x00                                  # cashable ticket from a cash out
        o[k + 1] = 1
        k = Wr.put_bcd(o, k + 2, mo * 1000000 + d * 10000 + y, 4)
        k = Wr.put_bcd(o, k, hh * 10000 + mi * 100 + ss, 3)
        k = Wr.put_bcd(o, k, int(number[2:]), 8)
        k = Wr.put_bcd(o, k, M.cents(led, amount), 5)
        seq = led.val_seq
        o[k] = seq & 0xFF
        o[k + 1] = (seq >> 8) & 0xFF
        k = Wr.put_bcd(o, k + 2, 0, 1)               # validation system ID (secure enhanced)
        k = Wr.put_bcd(o, k, 0, 4)                   # expiration: none
        o[k] = o[k + 1] = 0                          # pool ID
        return self._crc(k + 2)

    def p_pending_cashout(self, f, n):
        """57: this machine uses secure-enhanced validation, never system
        validation, so it is never waiting (80)."""
        k = self._head(0x57)
        self.out[k] = 0x80
        k = Wr.put_bcd(self.out, k + 1, 0, 5)
        return self._crc(k)

    def p_receive_validation(self, f, n):
        """58: not waiting for system validation -> status 80."""
        k = self._head(0x58)
        self.out[k] = 0x80
        return self._crc(k + 1)


_POLLS = {
    0x01: Sas.p_enable, 0x02: Sas.p_enable, 0x06: Sas.p_bills, 0x07: Sas.p_bills,
    0x0F: Sas.p_multi, 0x19: Sas.p_multi, 0x1C: Sas.p_multi,
    0x10: Sas.p_single, 0x11: Sas.p_single, 0x12: Sas.p_single, 0x13: Sas.p_single,
    0x14: Sas.p_single, 0x15: Sas.p_single, 0x16: Sas.p_single, 0x17: Sas.p_single,
    0x1A: Sas.p_single, 0x18: Sas.p_games_18, 0x1E: Sas.p_bills_1e,
    0x20: Sas.p_bill_dollars, 0x1F: Sas.p_info, 0x21: Sas.p_rom, 0x48: Sas.p_last_bill,
    0x54: Sas.p_version, 0x7E: Sas.p_date, 0x7F: Sas.p_set_date, 0x1B: Sas.p_handpay,
    0x94: Sas.p_handpay_reset, 0x2F: Sas.p_selected, 0x6F: Sas.p_selected,
    0xAF: Sas.p_selected, 0x4C: Sas.p_set_validation, 0x4D: Sas.p_validation_info,
    0x57: Sas.p_pending_cashout, 0x58: Sas.p_receive_validation,
}
