"""The table link on an ESP32 dome (hal/REFERENCE.md "Table link"): UART2
(the printer's, free at a dome), 115,200 baud 8N2, DI <- GPIO17, RO ->
GPIO16, DE on GPIO33 (the SAS TX pin of a cabinet: no SAS at a dome). An ESP32
station is not offered: its three UARTs serve the console, SAS and the
printer."""
from machine import UART, Pin
from micropython import const
from hal.common import UartSerial
from hal.rs485 import HalfDuplex

BAUD = const(115200)
TX = const(17)
RX = const(16)
DE = const(33)


def dome_link():
    u = UART(2, BAUD, bits=8, parity=None, stop=2, tx=TX, rx=RX, rxbuf=256,
             timeout=0, timeout_char=0)
    de = Pin(DE, Pin.OUT, value=0)
    return HalfDuplex(UartSerial(u), de.value, u.txdone)
