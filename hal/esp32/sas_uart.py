"""SAS line on the ESP32: UART1 at 19,200 baud with the parity trick (SAS
6.02 1.2.1 note: "the parity bit can be used in place of the wakeup bit").

Sending: the machine's bytes all have the ninth bit clear, so each byte goes
out with the parity (even or odd) that makes its parity bit 0. Receiving:
MicroPython's ESP32 UART does not report a parity error per byte, so the
wakeup byte cannot be seen in the data; the start of a host message is found
from the line instead: the controller reads every 5 ms, and a read that
found nothing means the line was idle longer than the 5 ms a message may
pause between bytes (2.3.2), so the next byte starts a message (a SAS host
sends each message in one burst and waits for the answer, 2.3.1). The
technician read-out uses the USB console on this board (the three UARTs
serve the console, the printer and SAS).
"""
from machine import UART
from micropython import const
from hal.parity import odd_ones

_BAUD = const(19200)


class UartSas:
    """Board contract `sas`: read(buf, wake) -> n, write(data) -> n."""

    def __init__(self, uart_id, tx, rx):
        self._u = UART(uart_id, _BAUD, bits=8, parity=0, stop=1, tx=tx, rx=rx,
                       rxbuf=512, timeout=0, timeout_char=0)
        self._parity = 0
        self._idle = True
        self._one = bytearray(1)

    def read(self, buf, wake):
        u = self._u
        n = min(u.any(), len(buf))
        if n <= 0:
            self._idle = True
            return 0
        n = u.readinto(buf, n) or 0
        for i in range(n):
            wake[i] = 0
        if n and self._idle:
            wake[0] = 1
            self._idle = False
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
        return len(data)
