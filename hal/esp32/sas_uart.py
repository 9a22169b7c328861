"""SAS line on the ESP32: UART1 at 19,200 baud with the parity trick (SAS
6.02 1.2.1 note: "the parity bit can be used in place of the wakeup bit").

Sending: the machine's bytes all have the ninth bit clear, so each byte goes
out with the parity (even or odd) that makes its parity bit 0. Receiving:
MicroPython's ESP32 UART does not report a parity error per byte, so the
wakeup byte cannot be seen in the data; the start of a host message is found
from the line's idle time instead. A SAS host sends each message in one burst
(bytes 0.57 ms apart at 19,200 baud, 8 data bits + parity) and waits for the
answer before the next (2.3.1), so a byte after the line was quiet for at
least _GAP_US starts a message. The quiet time is timed, not guessed from an
empty read (the controller reads far more often than once a byte): the line
was quiet from the read that took the last byte until the latest read that
found nothing, so a wakeup is only ever marked after a real gap. Our own
answer also ends a message: the host sends nothing until it has it. The
technician read-out uses the USB console on this board (the three UARTs
serve the console, the printer and SAS).
"""
from machine import UART
from micropython import const
from hal.parity import odd_ones
from hal.ticks import ticks_diff

_BAUD = const(19200)
_GAP_US = const(2000)   # about 3.5 byte times


class UartSas:
    """Board contract `sas`: read(buf, wake) -> n, write(data) -> n."""

    def __init__(self, uart_id, tx, rx, ticks_us=None):
        self._u = UART(uart_id, _BAUD, bits=8, parity=0, stop=1, tx=tx, rx=rx,
                       rxbuf=512, timeout=0, timeout_char=0)
        if ticks_us is None:
            from time import ticks_us
        self._us = ticks_us
        self._parity = 0
        self._idle = True
        self._last = ticks_us()    # when the read that took the newest byte began
        self._one = bytearray(1)

    def read(self, buf, wake):
        u = self._u
        now = self._us()           # before any(): a byte it counts came before now
        n = min(u.any(), len(buf))
        if n <= 0:
            # nothing came by `now`: quiet at least since the last byte taken
            if ticks_diff(now, self._last) >= _GAP_US:
                self._idle = True
            return 0
        n = u.readinto(buf, n) or 0
        for i in range(n):
            wake[i] = 0
        if n:
            if self._idle:
                wake[0] = 1
                self._idle = False
            self._last = now
        return n

    def write(self, data):
        u = self._u
        for b in data:
            # even parity sends bit = (number of ones) & 1, odd the opposite:
            # pick the one that makes the ninth bit 0 (0 = even, 1 = odd)
            want = odd_ones(b)
            if want != self._parity:
                u.flush()
                u.init(parity=want)
                self._parity = want
            self._one[0] = b
            u.write(self._one)
        self._idle = True          # the host waits for this answer: what comes next is new
        return len(data)
