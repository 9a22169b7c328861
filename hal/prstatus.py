"""Printer status codes: what `board.printer.status()` returns on every
board (ESC/POS driver, mock). A module of their own so that play, which only
compares codes, does not load the ESC/POS driver on a host."""
from micropython import const

OK = const(0)
PAPER_OUT = const(1)
FAULT = const(2)
PAPER_LOW = const(3)  # printing still possible; report to the attendant
STATUS_NAMES = ("OK", "PAPER_OUT", "FAULT", "PAPER_LOW")
