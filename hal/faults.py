"""Devices a board can report as not answering (`board.faults`).

The controller locks play with the device's name on the lock screen, a lamp
pattern on the tower light and an event (arg = the code) instead of letting
an OSError from a dead bus end the program.
"""
from micropython import const

DISPLAY = const(1)   # SSD1306 does not acknowledge on I2C
PRINTER = const(2)   # no status reply on the printer UART
INPUTS = const(3)    # 74HC165 chain: the tie-off bits do not read back
JOURNAL = const(4)   # no journal flash region (ESP32: partition missing)

NAMES = ("", "DISPLAY", "PRINTER", "INPUTS", "JOURNAL")


def name(code):
    return NAMES[code] if 0 < code < len(NAMES) else "DEVICE %d" % code
