"""Devices a board can report as not answering (`board.faults`), and the
money devices' faults the controller finds itself (a validator's FAULT, a
pulse line that never stops).

The controller locks play with the device's name on the lock screen, a lamp
pattern on the tower light and an event (arg = the code) instead of letting
an OSError from a dead bus end the program.
"""
from micropython import const

DISPLAY = const(1)   # SSD1306 does not acknowledge on I2C
PRINTER = const(2)   # no status reply on the printer UART
INPUTS = const(3)    # 74HC165 chain: the tie-off bits do not read back
JOURNAL = const(4)   # no journal flash region (ESP32: partition missing)
VALIDATOR = const(5)     # bill validator: no answer, failure, or a note stuck in it
BILL_JAM = const(6)      # bill validator: a note jammed in the acceptor or stacker
STACKER_FULL = const(7)  # bill validator: the cash box is full
STACKER_OPEN = const(8)  # bill validator: the cash box is out
BILL_LINE = const(9)     # the bill validator's pulse line never stops
COIN_LINE = const(10)    # the coin acceptor's pulse line never stops

# the lock screen's two lines for each code
NAMES = ("", "DISPLAY", "PRINTER", "INPUTS", "JOURNAL", "BILL VALIDATOR", "BILL JAM",
         "STACKER FULL", "STACKER REMOVED", "BILL LINE", "COIN LINE")
_DETAIL = ("", "NOT ANSWERING", "NOT ANSWERING", "NOT ANSWERING", "NOT ANSWERING",
           "NOT ANSWERING", "CLEAR THE JAM", "EMPTY CASH BOX", "PUT CASH BOX IN",
           "PULSES NONSTOP", "PULSES NONSTOP")
VALIDATOR_FAULTS = (VALIDATOR, BILL_JAM, STACKER_FULL, STACKER_OPEN)
LINES = (BILL_LINE, COIN_LINE)   # by money channel (firmware/cabinet/money.py)


def name(code):
    return NAMES[code] if 0 < code < len(NAMES) else "DEVICE %d" % code


def detail(code):
    return _DETAIL[code] if 0 < code < len(_DETAIL) else "NOT ANSWERING"
