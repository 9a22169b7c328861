"""The table link on the RP2040 (hal/REFERENCE.md "Table link"): 115,200
baud, 8 data bits, 2 stop bits, DE on GP28 (/RE tied to DE).

The dome has UART1 free (no printer there): DI <- GP4 (TX), RO -> GP5 (RX).
A station's UARTs serve the technician port and the printer, so its link
runs on PIO0 SM2/SM3 with the SAS line's 9-bit programs (hal/rp2/sas_pio.py)
on the shaker's and motion sensor's pins, which a station does not use:
DI <- GP15, RO -> GP14. The ninth bit goes out as 1 (the first stop bit)
and comes in as 1 from any 8N2 sender; a 0 there is a framing error and the
byte is dropped (the frame fails its CRC and the dome asks again).
"""
import time
from machine import UART, Pin
from micropython import const
from hal.common import UartSerial
from hal.rs485 import HalfDuplex

BAUD = const(115200)
DE = const(28)
DOME_TX = const(4)
DOME_RX = const(5)
STATION_TX = const(15)
STATION_RX = const(14)
_WORD_US = const(96)     # one 11-bit word at 115,200 baud


def dome_link():
    u = UART(1, BAUD, bits=8, parity=None, stop=2, tx=Pin(DOME_TX), rx=Pin(DOME_RX),
             rxbuf=256, timeout=0, timeout_char=0)
    de = Pin(DE, Pin.OUT, value=0)
    return HalfDuplex(UartSerial(u), de.value, u.txdone)


class _PioLine:
    """8N2 over the 9-bit PIO UART: bytes with a ninth bit of 0 are
    framing errors and are dropped."""

    def __init__(self):
        from hal.rp2.sas_pio import PioSas
        self._line = PioSas(0, STATION_TX, STATION_RX, 2, BAUD, hard=True)
        self._wake = bytearray(0)

    def read(self, buf):
        if len(self._wake) < len(buf):
            self._wake = bytearray(len(buf))
        wake = self._wake
        n = self._line.read(buf, wake)
        k = 0
        for i in range(n):
            if wake[i]:
                buf[k] = buf[i]
                k += 1
        return k

    def write(self, data):
        for b in data:
            self._line.put(b | 0x100)
        return len(data)

    def sent(self):
        if not self._line.tx_empty():
            return False
        time.sleep_us(_WORD_US)  # the last word leaves the shift register
        return True


def station_link():
    line = _PioLine()
    de = Pin(DE, Pin.OUT, value=0)
    return HalfDuplex(line, de.value, line.sent)
