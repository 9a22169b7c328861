"""JCM ID-003 bill validator, host side: the board contract `validator`
(hal/escrow.py) over a byte port with `read(buf) -> n` and `write(data)`.

Wire: 9600 baud, 8 data bits, even parity, 1 stop bit (hal/rp2/id003_port.py
on the RP2040). Frame: SYNC 0xFC, LNG (the whole frame), CMD, DATA...,
CRC-16/CCITT reflected (poly 0x8408, init 0: "Kermit") low byte first; the
status request is FC 05 11 27 56, an ACK FC 05 50 AA 05. The host polls;
the validator answers a status request with its status and a command with
ACK (0x50). Flow used here: ESCROW (0x13, denomination) -> the cabinet
journals it -> STACK-1 (0x41) -> STACKING -> VEND VALID (0x15) -> the
cabinet credits -> ACK (0x50) -> STACKED -> IDLING. At power-up the
validator says POWER UP (0x40), POWER UP WITH BILL IN ACCEPTOR (0x41: the
note never reached the cash box and is given back after RESET) or POWER
UP WITH BILL IN STACKER (0x42: it did); the host answers RESET (0x40).
A ticket (TITO) in escrow is ESCROW with data 0x6F and its barcode's
digits (ASCII) after it: TICKET, the digits in `barcode`, stacked or
returned like a note. Nothing here allocates after construction but a
ticket's digits (once a ticket).
"""
from micropython import const
from hal.escrow import BUSY, IDLE, ESCROW, STACKED, FAULT, TICKET, ABSENT
from hal import faults as F
from hal.ticks import ticks_add, ticks_diff

_SYNC = const(0xFC)
_REQ = const(0x11)       # status request
_RESET = const(0x40)
_STACK1 = const(0x41)
_RETURN = const(0x43)
_ACK = const(0x50)
_INHIBIT = const(0xC3)   # setting: data 1 = inhibit, 0 = accept
# statuses
_IDLING = const(0x11)
_ESCROW = const(0x13)
_VEND = const(0x15)
_DISABLED = const(0x1A)
_PU = const(0x40)
_PU_ACCEPTOR = const(0x41)
_PU_STACKER = const(0x42)
_ERRORS = const(0x43)    # 0x43..0x4A: stacker full/open, jams, pause, cheated, failure, comms
_ERRORS_END = const(0x4A)
_BARCODE = const(0x6F)   # escrow data: a ticket, its barcode's digits follow
# each error status's hal.faults code, from 0x43 on (the rest: VALIDATOR)
_ERROR_FAULTS = (F.STACKER_FULL, F.STACKER_OPEN, F.BILL_JAM, F.BILL_JAM)
_REPLY_MS = const(200)   # no answer by then: ask again
# an idle validator is asked for its status this often (a command goes at
# once): each turn is a frame out, one back and two CRCs in Python
_POLL_MS = const(100)
_DEAD_MS = const(1000)   # no answer for this long: FAULT
# a validator initialises for several seconds after power (self test, stacker
# run) before its first answer; none by then: ABSENT (not fitted, or dead)
_START_MS = const(10000)
# Escrow denomination codes -> dollars, as JCM publishes them for US dollar
# software (check the validator's software sheet: tables differ by country).
USD = {0x61: 1, 0x62: 2, 0x63: 5, 0x64: 10, 0x65: 20, 0x66: 50, 0x67: 100}


def crc16(data, n):
    c = 0
    for i in range(n):
        c ^= data[i]
        for _ in range(8):
            c = (c >> 1) ^ 0x8408 if c & 1 else c >> 1
    return c


class Id003:
    def __init__(self, port, ticks_ms, denominations=USD):
        self._port = port
        self._ticks = ticks_ms
        self._denoms = denominations
        self._rx = bytearray(32)
        self._n = 0
        self._tx = bytearray(6)
        self._one = bytearray(1)
        self._status = -1      # newest status byte (-1: none yet)
        self._data = 0         # its data byte (the escrow denomination)
        self._cents = 0        # the note seen in escrow (VEND VALID names none)
        self.barcode = b""     # the ticket seen in escrow (b"": a note)
        self._cmd = 0          # command to send at the next turn (0: status request)
        self._cmd_data = -1
        self._inhibit = -1     # last inhibit setting sent
        self._want_inhibit = 1
        self._sent = None      # ticks of the request awaiting an answer
        self._asked = ticks_add(ticks_ms(), -_POLL_MS)  # ticks of the last request sent
        self._heard = ticks_ms()   # power-up until the first answer
        self._answered = False

    # ---- the board contract (hal/escrow.py) -------------------------------
    def poll(self, now_ms=None):
        self._receive()
        now = self._ticks()
        sent = self._sent
        if sent is None:
            if self._cmd or self._status not in (_IDLING, _DISABLED) \
                    or self._want_inhibit != self._inhibit or ticks_diff(now, self._asked) >= _POLL_MS:
                self._send(now)
        elif ticks_diff(now, sent) >= _REPLY_MS:
            self._send(now)
        if not self._answered:
            return (ABSENT if ticks_diff(now, self._heard) >= _START_MS else BUSY), 0
        if ticks_diff(now, self._heard) >= _DEAD_MS:
            return FAULT, F.VALIDATOR
        return self._state()

    def stack(self):
        if self._status == _ESCROW:
            self._cmd = _STACK1

    def ret(self):
        if self._status == _ESCROW:
            self._cmd = _RETURN

    def ack(self):
        if self._status == _VEND:
            self._cmd = _ACK
        elif self._status == _PU_STACKER:
            self._cmd = _RESET

    def inhibit(self, flag):
        self._want_inhibit = 1 if flag else 0

    # ---- the wire ---------------------------------------------------------
    def _state(self):
        s = self._status
        if s == _ESCROW:
            return (TICKET, 0) if self.barcode else (ESCROW, self._cents)
        if s == _VEND:
            return STACKED, self._cents
        if s == _PU_STACKER:
            return STACKED, 0
        if s in (_IDLING, _DISABLED, _PU, _PU_ACCEPTOR):
            return IDLE, 0
        if _ERRORS <= s <= _ERRORS_END:
            i = s - _ERRORS
            return FAULT, _ERROR_FAULTS[i] if i < len(_ERROR_FAULTS) else F.VALIDATOR
        return BUSY, 0

    def _send(self, now):
        cmd, data = self._cmd, -1
        if not cmd:
            if self._status in (_PU, _PU_ACCEPTOR):
                cmd = _RESET      # the validator waits for it (and gives a note back)
            elif self._want_inhibit != self._inhibit and self._status in (_IDLING, _DISABLED):
                cmd, data = _INHIBIT, self._want_inhibit
                self._inhibit = data
            else:
                cmd = _REQ
        self._cmd = 0
        t = self._tx
        n = 5 if data < 0 else 6
        t[0], t[1], t[2] = _SYNC, n, cmd
        if data >= 0:
            t[3] = data
        c = crc16(t, n - 2)
        t[n - 2], t[n - 1] = c & 0xFF, c >> 8
        self._port.write(memoryview(t)[:n])
        self._sent = self._asked = now

    def _receive(self):
        one = self._one
        rx = self._rx
        while self._port.read(one):
            b = one[0]
            if self._n == 0 and b != _SYNC:
                continue          # hunting for a frame start
            if self._n >= len(rx):
                self._n = 0
                continue
            rx[self._n] = b
            self._n += 1
            if self._n >= 2 and (rx[1] < 5 or rx[1] > len(rx)):
                self._n = 0       # not a length: resynchronise
            elif self._n >= 5 and self._n == rx[1]:
                self._frame(self._n)
                self._n = 0

    def _frame(self, n):
        rx = self._rx
        if crc16(rx, n - 2) != rx[n - 2] | rx[n - 1] << 8:
            return                # garbage never reaches the money: ask again
        self._heard = self._ticks()
        self._answered = True
        self._sent = None         # answered: the next turn may go at once
        s = rx[2]
        if s == _ACK:
            self._status = -1     # a command taken: BUSY until the next status says more
            return
        if s == _ESCROW:
            code = rx[3] if n > 5 else 0
            self._cents = self._denoms.get(code, 0) * 100
            self.barcode = bytes(rx[4:n - 2]) if code == _BARCODE else b""
        elif s in (_PU, _PU_ACCEPTOR, _PU_STACKER):
            self._inhibit = -1    # a validator that restarted lost its settings
        self._status = s
