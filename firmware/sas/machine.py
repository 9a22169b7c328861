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
from micropython import const
import array
from firmware.sas import wire
from firmware.sas import meters
from firmware.sas import commands
from firmware.sas import validation
from firmware.sas import info
from firmware.sas import redeem
from firmware.sas import ticket_data
from firmware.sas import aft
from firmware.sas import handpays
from firmware.store import events as E
from firmware.store import records as T
from firmware.store import ledger as L
from firmware import timefmt
from firmware import version

_QCAP = const(32)          # exception FIFO (the spec asks for at least 20)
_RX = const(64)
_ACK_EVERY_MS = const(1000)
_LINK_DOWN_MS = const(5000)  # no poll for this long: the loop is broken, chirp
_CHIRP_MS = const(200)
_NACK_MAX = const(3)
_ROM_CHUNKS = const(4)
_SENT_NONE = const(0)
_SENT_QUEUE = const(1)
_SENT_ROM = const(2)
_SENT_OVERFLOW = const(3)
_SENT_PRIORITY = const(4)
_COUNTRY_US = const(0x37)   # Table C-5 bill acceptor country code
# Table C-6 bill denomination codes: the dollar values in code order (00-09,
# then 10 = $500; their exceptions: BILL_CODES)
_BILL_DOLLARS = const((1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500))
# the longest answer: address, command, a length byte, 255 bytes, CRC
_REPLY = const(260)

# General-poll exception codes (SAS 6.02 Appendix A) and which cabinet event
# raises which, as data.
# what wire.Framer.feed() returns for a complete message
_GENERAL = const(1)
_BROADCAST = const(3)

_NO_EXCEPTION = const(0x00)
_GAME_START = const(0x7E)
_GAME_END = const(0x7F)
_OVERFLOW = const(0x70)
_BILL_OTHER = const(0x4F)   # bill accepted: a note with no code of its own
_EVENT = const(0xFF)        # real-time event reporting: the event's "command" (12.5)
_WAGER_MAX = const(9999)    # 7E's credits wagered: 2 BCD bytes

# 51 handpay pending, 52 handpay was reset: with the handpay queue on, sent
# as priority exceptions (firmware/sas/handpays.py), not queued
_HANDPAY_CODES = b"\x51\x52"

# bill accepted, by note in SAS bill denomination code order (Table C-6:
# $1 2 5 10 20 25 50 100 200 250 500; _BILL_DOLLARS)
BILL_CODES = b"\x47\x4d\x48\x49\x4a\x4f\x4b\x4c\x50\x4f\x4e"

# cabinet event (firmware/store/events.py, by code) -> SAS exceptions, two
# bytes an event in the order they are reported (00: none)
BY_EVENT = (
    b"\x00\x00"   # 0
    b"\x18\x17"   # 1 POWER_UP: power was lost, is applied
    b"\x11\x00"   # 2 DOOR_OPEN
    b"\x12\x00"   # 3 DOOR_CLOSE
    b"\x84\x00"   # 4 AUDIT_ON: operator menu entered
    b"\x85\x00"   # 5 AUDIT_OFF: exited
    b"\x20\x00"   # 6 TILT: general tilt
    b"\x00\x00"   # 7 TILT_CLEAR
    b"\x00\x00"   # 8 COCKED
    b"\x00\x00"   # 9 STUCK
    b"\x20\x00"   # 10 MALFUNCTION: general tilt
    b"\x32\x00"   # 11 CRITICAL: RAM error, no data recovered
    b"\x3a\x00"   # 12 RAM_CLEAR: memory error reset
    b"\x3c\x00"   # 13 CONFIG: operator changed options
    b"\x3d\x00"   # 14 CASHOUT: cash out ticket printed
    b"\x51\x00"   # 15 HANDPAY: handpay pending
    b"\x52\x00"   # 16 HANDPAY_RESET
    b"\x51\x00"   # 17 JACKPOT: handpay pending
    b"\x00\x00"   # 18 FAULT_CLEAR
    b"\x00\x00"   # 19 PIN_FAIL
    b"\x00\x00"   # 20 PIN_LOCKOUT
    b"\x00\x00"   # 21 BILL_IN: by note (BILL_CODES)
    b"\x60\x00"   # 22 PRINTER_FAULT
    b"\x20\x00"   # 23 SHAKER_FAULT: general tilt
    b"\x00\x00"   # 24 VOID
    b"\x00\x00"   # 25 COIN_IN
    b"\x31\x00"   # 26 REPAIRED: RAM error, data recovered
    b"\x00\x00"   # 27 AGG_MIN
    b"\x00\x00"   # 28 DEVICE_FAULT
    b"\x00\x00"   # 29 TICKET_DOUBT
    b"\x00\x00"   # 30 PIN_OK
    b"\x00\x00"   # 31 HOST_OFF
    b"\x00\x00"   # 32 HOST_ON
    b"\x15\x00"   # 33 LOGIC_OPEN: card cage opened
    b"\x16\x00"   # 34 LOGIC_CLOSE
    b"\x19\x00"   # 35 CASHBOX_OPEN
    b"\x1a\x00"   # 36 CASHBOX_CLOSE
    b"\x00\x00"   # 37 CLOCK_SET
    b"\x00\x00"   # 38 CLOCK_UNSET
    b"\x00\x00"   # 39 BILL_RETURNED
    b"\x00\x00"   # 40 FLASH_WORN
    b"\x00\x00"   # 41 FAULT_RESTART
    b"\x00\x00"   # 42 ACTION_FAULT
    b"\x00\x00"   # 43 BILL_DOUBT, 44 PULSES_DROPPED: reported as device faults
    b"\x00\x00"
    b"\x67\x00"   # 45 TICKET_INSERTED: ticket has been inserted
    b"\x68\x00"   # 46 TICKET_IN_DONE: ticket transfer complete
    b"\x00\x00"   # 47 SAFE_BOOT
    b"\x69\x00"   # 48 AFT_DONE: AFT transfer complete
)

# a device fault (event DEVICE_FAULT, arg a hal.faults code) -> its SAS
# exception: printer communication error, bill acceptor hardware failure,
# bill jam, cash box full, cash box removed, coin in tilt (00: none)
BY_FAULT = b"\x00\x00\x60\x00\x00\x29\x28\x27\x1b\x29\x21"
# the device answers again (event DEVICE_OK, by hal.faults code): printer
# power on (the only "printer back" code), cash box installed
_BY_BACK = const(b"\x00\x00\x76\x00\x00\x00\x00\x00\x1c")
# the printer's paper (event PRINTER_PAPER, by hal.prstatus code): OK has
# no code, paper out, -, paper low
_BY_PAPER = const(b"\x00\x61\x00\x74")
# the clock not set at power-up (event CLOCK_UNSET, arg 1: the DS3231's
# oscillator-stop flag): low backup battery detected
_BY_CLOCK = const(b"\x00\x3b")
# events whose exception depends on their arg, and the table by arg of each
# (DEVICE_FAULT 28, DEVICE_OK 52, PRINTER_PAPER 53, CLOCK_UNSET 38)
_ARG_EVENTS = const(b"\x1c\x34\x35\x26")
_BY_ARG = (BY_FAULT, _BY_BACK, _BY_PAPER, _BY_CLOCK)

# long poll -> its handler in _HANDLERS (below the class): command, handler
# pairs, searched at each long poll (no 256-byte table on the heap)
_BY_CMD = const(
    b"\x01\x01\x02\x01\x06\x01\x07\x01"
    b"\x0f\x02\x10\x02\x11\x02\x12\x02\x13\x02\x14\x02\x15\x02\x16\x02\x17\x02"
    b"\x18\x02\x19\x02\x1a\x02\x1c\x02\x1e\x02\x20\x02"
    b"\x1f\x03\x53\x03\x21\x04\x4c\x04\x7f\x04\x94\x04\x48\x05\x54\x06\x7e\x07"
    b"\x1b\x08\x2f\x09\x6f\x09\xaf\x09\x4d\x0a\x57\x0b\x58\x0b\xa0\x0c"
    b"\x51\x0d\x55\x0d\x56\x0d\x70\x0e\x71\x0f\x50\x10"
    b"\x7b\x11\x7c\x11\x7d\x11\x72\x12\x74\x12\xa8\x13\x0e\x14")

# long polls that move money or change what a ticket says (AFT 72/74, ticket
# in 70/71, handpay reset 94, validation ID 4C, ticket data 7B/7D): held,
# unanswered, while a cashout ticket is pending; the host polls them again
_HELD_WHILE_TICKET = const(b"\x4c\x70\x71\x72\x74\x7b\x7d\x94")

# long poll 50: validation type (Table 15.13c) -> the C-7 meter codes of its
# count and cents; a type the cabinet never issues or takes answers zeros
_VALIDATION_METERS = const(b"\x00\x87\x86\x80\x81\x80")


def start(ctl):
    """The SAS side for the controller, or None when the memory is critical
    (the address reverts to 0). Made with address 0 (SAS off, 2.1) too: it
    then answers nothing, and a new address takes effect at once."""
    if ctl.store.critical:
        return None
    return Sas(ctl)


class Sas:
    def __init__(self, ctl):
        self.ctl = ctl
        self.port = ctl.board.sas
        led = ctl.store.ledger
        self.framer = wire.Framer(led.config["sas_address"])
        self._rx = bytearray(_RX)
        self.flags = bytearray(_RX)        # the ninth (wakeup) bit of each byte read
        self.reply = bytearray(_REPLY)     # the answer being built
        self._queue = bytearray(_QCAP)     # exception codes, FIFO ring
        self.numbers = array.array("i", [0] * _QCAP)   # their event numbers (0 = volatile)
        self.first = 0                     # the oldest entry
        self.size = 0
        self.seen = led.sas_ack            # newest event number queued
        self.acked = led.sas_ack           # newest event number acknowledged
        self._since = 0                    # when that was last journalled (ms)
        self._tag = _SENT_NONE             # what the last general poll got, until acknowledged
        self.repeat = 0                    # times it was sent
        self.full = False                  # the queue overflowed: 70 goes first
        self._others_seen = 0              # polls to other addresses seen
        # start-up synchronisation: nothing is answered until a poll to
        # another address shows where the host's messages begin
        self.synced = False
        self.polled = False                # a wakeup byte came since the last tick
        self.heard = self.chirped = ctl.clock.ticks_ms()
        self.last_kind = 0                 # kind of the previous message for us
        # a game in progress at power-up (it is replayed or voided) is
        # reported as started again, so its 7F never comes without a 7E
        self.phase = -1
        self.game_no = led.game_no
        self.rom_check = None              # the ROM signature being computed (commands.py)
        self.rom_signature = -1            # finished, waiting for a general poll (-1: none)
        self.ticket_unread = False         # a ticket printed that 4D 00 has not read
        self.count = 0                     # polls answered
        self.refused = 0                   # frames for us dropped (bad CRC or data)
        self.serial = version.serial(ctl.board)[:40].encode()   # long poll 54
        self.sas_id = version.sas_id().encode()                 # long poll 1F
        self.aft = aft.Aft(self)                                # long polls 72, 74
        self.handpays = handpays.Handpays(self)                  # 51/52, 1B, A8
        self.priority = 0                  # the priority exception sent, until acknowledged
        # real-time event reporting (0E, section 12): RAM only, off at power-up
        self.rte = False
        # 7E / 7F event data: wager, coin in, win, total won at the game's start
        self.game = array.array("i", (0, 0, 0, 0))

    # ---- the queue -------------------------------------------------------
    def push(self, code, number=0):
        if self.size == _QCAP:
            # overrun: the oldest is lost, 70 goes out first at the next poll (2.2.1)
            if self._tag == _SENT_QUEUE:
                self._tag = _SENT_NONE
            self.pop()
            self.full = True
        i = (self.first + self.size) % _QCAP
        self._queue[i] = code
        self.numbers[i] = number
        self.size += 1

    def pop(self):
        n = self.numbers[self.first]
        if n:
            self.acked = n
        self.first = (self.first + 1) % _QCAP
        self.size -= 1

    def pending(self):
        """Codes still queued, oldest first (tests, read-out)."""
        return bytes(self._queue[(self.first + i) % _QCAP] for i in range(self.size))

    def feed(self):
        """Queues what the event log and the ledger show since the last tick."""
        led = self.ctl.store.ledger
        ev = led.events
        total = ev.total
        if total - self.seen > E.CAPACITY:  # the log itself lost some
            self.full = True
            self.seen = total - E.CAPACITY
        while self.seen < total:
            self.seen += 1
            number, t, code, arg = ev.get(total - self.seen)
            if code == E.CASHOUT:
                self.ticket_unread = True
            if code == E.BILL_IN:
                c = arg // 100
                c = _BILL_DOLLARS.index(c) if c in _BILL_DOLLARS else -1
                self.push(BILL_CODES[c] if c >= 0 else _BILL_OTHER, number)
                continue
            j = len(_ARG_EVENTS) - 1
            while j >= 0 and _ARG_EVENTS[j] != code:
                j -= 1
            if j >= 0:
                tab = _BY_ARG[j]
                if 0 <= arg < len(tab) and tab[arg]:
                    self.push(tab[arg], number)
                elif number > self.acked and self.size == 0:
                    self.acked = number
                continue
            i = 2 * code
            c = BY_EVENT[i] if i < len(BY_EVENT) else 0
            if c in _HANDPAY_CODES and self.handpays.on():
                c = 0       # priority exceptions of the handpay queue
            if c:
                self.push(c, number)
                if BY_EVENT[i + 1]:
                    self.push(BY_EVENT[i + 1], number)
            elif number > self.acked and self.size == 0:
                self.acked = number      # nothing to report: counts as acknowledged
        if led.phase != self.phase:
            self.phase = led.phase
            if led.phase == L.CLOSED:
                # the real-time event's data (12.5.3): the wager at risk, coin in after it
                g = self.game
                g[0] = min(led.table.on_table(), _WAGER_MAX)
                g[1] = meters.meter(led, 0x00)
                g[3] = meters.meter(led, 0x22)
                self.push(_GAME_START)
        if led.game_no != self.game_no:
            self.game_no = led.game_no
            self.game[2] = meters.meter(led, 0x22) - self.game[3]   # 12.5.4
            self.push(_GAME_END)

    # ---- one pass ----------------------------------------------------------
    def tick(self, now_ms):
        try:
            # the configured address, live: a change in the menu applies at the
            # next tick (0 = SAS off: every poll ignored)
            self.framer.id = self.ctl.store.ledger.config["sas_address"]
            self.feed()
            self.handpays.update()
            if self.rom_check is not None:
                sig = self.rom_check.step(_ROM_CHUNKS)
                if sig is not None:     # done: the CRC, or -1 if the program could not be read
                    self.rom_signature = sig
                    self.rom_check = None
            self.aft.tick(now_ms)
            self.serve()
            self.link(now_ms)
            self.commit(now_ms)
        except Exception as exc:    # a protocol bug must never stop the cabinet
            self.errors += 1
            self.error = repr(exc)[:60]

    errors = 0
    error = ""

    def serve(self):
        """Only answers what the line holds (the main loop calls it after
        each of its other parts, so a poll waits for one part at most)."""
        try:
            n = self.port.read(self._rx, self.flags)
            flags = self.flags
            newest = n - 1      # where the newest message in this read starts
            while newest >= 0 and not flags[newest]:
                newest -= 1
            fr = self.framer
            for i in range(n):
                if flags[i]:
                    self.polled = True
                kind = fr.feed(self._rx[i], flags[i])
                if fr.skip != self._others_seen:
                    # a poll to another machine: implied ACK of our last answer (3.1)
                    self._others_seen = fr.skip
                    self.synced = True
                    self.done()
                    self.last_kind = 0
                if kind:
                    # a message with another after it waited past the host's
                    # timeout (the line was not read meanwhile): the host has
                    # moved on, and a late answer would run into the next one's
                    self.answer(kind, i < newest)
        except Exception as exc:
            self.errors += 1
            self.error = repr(exc)[:60]

    def link(self, now_ms):
        """Loop break: after 5 s without a poll on the line the machine
        chirps, its address alone every 200 ms, until the host polls again."""
        diff = self.ctl.clock.ticks_diff
        if self.polled:
            self.polled = False
            self.heard = now_ms
        elif self.framer.id and diff(now_ms, self.heard) >= _LINK_DOWN_MS \
                and diff(now_ms, self.chirped) >= _CHIRP_MS:
            self.chirped = now_ms
            self.port.write(memoryview(self.reply)[:self.status()])

    def commit(self, now_ms):
        """Journals the newest acknowledged event, at most once a second."""
        store = self.ctl.store
        led = store.ledger
        if self.acked <= led.sas_ack or store.critical:
            return
        if self.ctl.clock.ticks_diff(now_ms, self._since) < _ACK_EVERY_MS:
            return
        self._since = now_ms
        store.commit(T.pack(T.SAS_ACK, self.ctl.now_s(), min(self.acked, led.events.total)))

    def answer(self, kind, stale=False):
        """A complete message for this machine is in framer.buf. A stale one
        gets no answer; a stale long poll still acknowledges (the host sent
        it after it had our last general poll's answer)."""
        if not self.synced:
            return
        fr = self.framer
        if kind == _GENERAL:
            if stale:
                return          # the host got nothing: it polls again
            self.count += 1
            nack = self.last_kind == _GENERAL and self._tag != _SENT_NONE \
                and self.repeat < _NACK_MAX
            self.last_kind = kind
            if not nack:
                self.done()
            self.repeat += 1
            o = self.reply
            if self.rom_signature >= 0:
                # the ROM signature answers the first general poll after it is ready (6.1)
                self.head(0x21)
                o[2] = self.rom_signature & 0xFF
                o[3] = self.rom_signature >> 8
                self._tag = _SENT_ROM
                self.port.write(memoryview(o)[:self.tail(4)])
                return
            code = self.pick()
            if self.rte:
                if self._tag != _SENT_NONE:     # nothing to report: no answer (12.6)
                    self.port.write(memoryview(o)[:self.event(code)])
                return
            o[0] = code
            self.port.write(memoryview(o)[:1])
            return
        # any other poll is an implied ACK of a general-poll answer (or of
        # an event sent for a long poll)
        self.done()
        self.last_kind = kind
        if stale:
            return
        self.count += 1
        f = fr.buf
        cmd = f[1]
        if self.rte and kind != _BROADCAST:
            # an event pending goes before the long poll's answer; the host
            # sends the long poll again (12.3, 12.4)
            code = self.pick()
            if self._tag != _SENT_NONE:
                self.port.write(memoryview(self.reply)[:self.event(code)])
                return
        if wire.length(cmd) != wire.R and not wire.crc_ok(f, fr.n):
            self.refused += 1           # a bad CRC is ignored: the host polls again
            return
        if cmd in _HELD_WHILE_TICKET and self.ctl.store.ledger.ticket:
            return                          # credits out, the ticket not yet confirmed printed
        i = 0
        while i < len(_BY_CMD) and _BY_CMD[i] != cmd:
            i += 2
        if i == len(_BY_CMD):
            return
        n = _HANDLERS[_BY_CMD[i + 1] - 1](self, f, fr.n)
        if kind == _BROADCAST or n == 0:
            return                          # type G gets no answer
        self.port.write(memoryview(self.reply)[:n])

    def pick(self):
        """The exception to report next (00: none); _tag says which it is."""
        first = self.handpays.exception(self.ctl.clock.ticks_ms())
        if first:
            self.priority = first
            self._tag = _SENT_PRIORITY
            return first
        if self.full:
            self._tag = _SENT_OVERFLOW
            return _OVERFLOW
        if self.size:
            self._tag = _SENT_QUEUE
            return self._queue[self.first]
        self._tag = _SENT_NONE
        return _NO_EXCEPTION

    def event(self, code):
        """Exception `code` as a real-time event (12.5): address, FF, the
        code and its data, CRC; every bill as 4F with country, denomination
        code and that note's count (12.5.1), 7E with the wager and coin in
        (12.5.3), 7F with the game's win (12.5.4), all in cents; returns
        its length."""
        o = self.reply
        k = self.head(_EVENT)
        if code in BILL_CODES and self._tag == _SENT_QUEUE:
            led = self.ctl.store.ledger
            ev = led.events
            arg = ev.get(ev.total - self.numbers[self.first])[3]
            o[k] = _BILL_OTHER
            k = self.bill_data(led, arg // 100, k + 1)
        elif code == _GAME_START:
            o[k] = code
            k = wire.put_bcd(o, k + 1, self.game[0], 2)
            k = wire.put_bcd(o, k, self.game[1], 4)
            o[k] = o[k + 1] = 0             # wager type, progressive group
            k += 2
        elif code == _GAME_END:
            o[k] = code
            k = wire.put_bcd(o, k + 1, self.game[2], 4)
        else:
            o[k] = code
            k += 1
        return self.tail(k)

    def rte_switch(self, f, n):
        """0E enable (01) / disable (00) real-time event reporting (12.1);
        anything else is NACKed."""
        if f[2] > 1:
            return self.status(0x80)
        self.rte = f[2] == 1
        return self.status()

    def done(self):
        """The host acknowledged the last general poll's answer."""
        sent = self._tag
        self._tag = _SENT_NONE
        self.repeat = 0
        if sent == _SENT_ROM:
            self.rom_signature = -1
        elif sent == _SENT_OVERFLOW:
            self.full = False
        elif sent == _SENT_PRIORITY:
            self.handpays.acked(self.priority, self.ctl.clock.ticks_ms())
        elif sent == _SENT_QUEUE and self.size:
            self.pop()

    # ---- response helpers ----------------------------------------------------
    def tail(self, n):
        """Appends the CRC to the answer's n bytes; returns its length."""
        c = wire.crc16(self.reply, 0, n)
        self.reply[n] = c & 0xFF
        self.reply[n + 1] = c >> 8
        return n + 2

    def head(self, c):
        """The answer's address and command c; returns its length so far."""
        self.reply[0] = self.framer.id
        self.reply[1] = c
        return 2

    def status(self, x=0):
        """The one-byte answer: the address, | 0x80 (x) to refuse."""
        self.reply[0] = self.framer.id | x
        return 1

    # ---- long polls: handler(frame, length) -> length of the answer in buf ---
    def enable(self, f, n):
        """01 shutdown / 02 startup (7.4.1): a game in progress completes, then
        no new bets; cash out stays possible. 07 disable / 06 enable the bill
        acceptor."""
        cmd = f[1]
        bit = L.HOST_OFF if cmd < 0x06 else L.BILLS_OFF
        off = cmd == 0x01 or cmd == 0x07
        st = self.ctl.store
        if bool(st.ledger.host & bit) != off:
            code = E.HOST_OFF if off else E.HOST_ON
            if st.critical or st.event(self.ctl.now_s(), code, bit) != 0:
                return self.status(0x80)
        return self.status()

    def meters(self, f, n):
        """Meter polls 0F-20 (7.1, 7.2): their meters (firmware/sas/meters.py), BCD."""
        return self.tail(meters.put(self.ctl.store.ledger, f[1], self.reply, self.head(f[1])))

    def more(self, f, n):
        """21 ROM signature, 4C set validation ID, 7F set date and time, 94
        remote handpay reset (firmware/sas/commands.py)."""
        return commands.answer(self, f, n)

    def bill(self, f, n):
        """48 last accepted bill: country, denomination code, bills of that type."""
        led = self.ctl.store.ledger
        k = self.head(0x48)
        dollars = 0
        ev = led.events
        for i in range(ev.count):       # the newest bill in the event log
            number, t, code, arg = ev.get(i)
            if code == E.BILL_IN:
                dollars = arg // 100
                break
        if dollars:
            return self.tail(self.bill_data(led, dollars, k))
        o = self.reply
        for i in range(6):
            o[k + i] = 0
        return self.tail(k + 6)

    def bill_data(self, led, dollars, k):
        """Country, denomination code (C-5, C-6) and the count of that note
        (4 BCD) at k (48 and the bill event); returns the end."""
        o = self.reply
        o[k] = _COUNTRY_US
        c = _BILL_DOLLARS.index(dollars) if dollars in _BILL_DOLLARS else 0
        o[k + 1] = 0x10 if c == 10 else c
        return wire.put_bcd(o, k + 2, meters.bills(led, dollars), 4)

    def clock(self, f, n):
        """7E current date and time: MMDDYYYY HHMMSS, BCD."""
        y, mo, d, hh, mi, ss = timefmt.civil(self.ctl.now_s())
        o = self.reply
        k = self.head(0x7E)
        k = wire.put_bcd(o, k, mo * 1000000 + d * 10000 + y, 4)
        k = wire.put_bcd(o, k, hh * 10000 + mi * 100 + ss, 3)
        return self.tail(k)

    def select(self, f, n):
        """2F (1-byte meter codes, each at Table C-7's size) and 6F/AF (2-byte
        codes, each with its size): every meter asked for that the cabinet
        keeps, as many as the length byte can count (255); the others are
        left out."""
        led = self.ctl.store.ledger
        cmd = f[1]
        o = self.reply
        if info.game_of(f, 3) < 0:
            return 0                             # the machine (0000) or its one game only
        wide = cmd != 0x2F
        step = 2 if wide else 1
        k = wire.put_bcd(o, self.head(cmd) + 1, info.game_of(f, 3), 2)
        for i in range(5, n - 2 - step + 1, step):
            code = f[i] | (f[i + 1] << 8 if wide else 0)
            v = meters.value(led, code)
            if v is None:
                continue                         # not metered: left out
            size = 5 if wide else meters.size(code)
            end = k + step + (1 if wide else 0) + size
            if end - 3 > 255:
                break
            o[k] = code & 0xFF
            k += 1
            if wide:
                o[k] = code >> 8
                o[k + 1] = size
                k += 2
            k = wire.put_bcd(o, k, v, size)
        o[2] = k - 3
        return self.tail(k)

    def ticket(self, f, n):
        """4D send enhanced validation information (15.10): function 00 the
        newest cash out ticket, once; FF looks at it again; 01-1F the
        validation records, 01 the newest (firmware/store/validations.py).
        No such record: all zeros."""
        led = self.ctl.store.ledger
        fn = f[2]
        o = self.reply
        k = self.head(0x4D)
        r = None
        if (fn == 0 and not self.ticket_unread) or 0x1F < fn < 0xFF:
            pass               # nothing unread, or not a buffer index
        elif led.validations.total:
            r = led.validations.get(fn - 1 if 1 <= fn <= 0x1F else 0)
        elif fn in (0, 1, 0xFF) and (led.val_seq or led.ticket_last):
            # a journal from before the records were kept: its newest ticket
            t = validation.ticket(led)
            if t is not None:
                r = (int(t[0]), t[1], t[2], led.val_seq, led.config["ticket_expiry"])
        if r is None:
            for i in range(31):
                o[k + i] = 0
            return self.tail(k + 31)
        if fn == 0:
            self.ticket_unread = False
        number, when, amount, seq, expiry = r
        if not number:     # printed before the number was kept
            number = int(validation.number(led.val_id, led.val_seq))
        y, mo, d, hh, mi, ss = timefmt.civil(when)
        o[k] = 0x00                                  # cashable ticket from a cash out
        o[k + 1] = fn if 1 <= fn <= 0x1F else 1
        k = wire.put_bcd(o, k + 2, mo * 1000000 + d * 10000 + y, 4)
        k = wire.put_bcd(o, k, hh * 10000 + mi * 100 + ss, 3)
        k = wire.put_bcd(o, k, number, 8)
        k = wire.put_bcd(o, k, amount, 5)
        o[k] = seq & 0xFF
        o[k + 1] = seq >> 8
        k = wire.put_bcd(o, k + 2, 0, 1)             # validation system ID (secure enhanced)
        # expiration: the days printed on the ticket (0000DDDD, 9999 never)
        k = wire.put_bcd(o, k, expiry, 4)
        o[k] = o[k + 1] = 0                          # pool ID
        return self.tail(k + 2)

    def validation_meters(self, f, n):
        """50 send validation meters (15.9): count and cents of one
        validation type: 00 tickets printed at a cash out, 80 cashable
        tickets redeemed; every other type is one the cabinet never
        issues (no handpay receipts, no promotional tickets): zeros."""
        led = self.ctl.store.ledger
        kind = f[2]
        o = self.reply
        k = self.head(0x50)
        o[k] = kind
        count = cents = 0
        t = _VALIDATION_METERS
        for i in range(0, len(t), 3):
            if t[i] == kind:
                count = meters.meter(led, t[i + 1])
                cents = meters.meter(led, t[i + 2])
        k = wire.put_bcd(o, k + 1, count, 4)
        return self.tail(wire.put_bcd(o, k, cents, 5))

    def waiting(self, f, n):
        """57 send pending cash out information / 58 receive validation
        number: this machine uses secure-enhanced validation, never system
        validation, so it is never waiting (status 80; 57: no amount)."""
        o = self.reply
        k = self.head(f[1])
        o[k] = 0x80
        k += 1
        if f[1] == 0x57:
            k = wire.put_bcd(o, k, 0, 5)
        return self.tail(k)


# the long-poll handlers in the order of their numbers in _BY_CMD (from 1)
_HANDLERS = (Sas.enable, Sas.meters, info.machine, Sas.more, Sas.bill, info.version,
             Sas.clock, handpays.info, Sas.select, Sas.ticket, Sas.waiting, info.features,
             info.games, redeem.validation_data, redeem.redeem, Sas.validation_meters,
             ticket_data.answer, aft.answer, handpays.reset_method, Sas.rte_switch)
