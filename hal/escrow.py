"""The bill validator's escrow contract (board.validator), shared by the
ID-003 driver (hal/id003.py) and the mock (hal/mock/validator.py).

poll(now_ms) -> (state, cents):
  BUSY     reading, stacking, returning, initialising: wait
  IDLE     holds no bill (also: powered up with a bill in the acceptor, which
           it gives back: a bill that never reached the cash box)
  ESCROW   a bill of `cents` waits for stack() or ret()
  STACKED  the bill is in the cash box (vend valid, or powered up with a bill
           in the stacker: cents 0 then, the cabinet's journal knows it);
           reported until ack()
  ABSENT   has not answered since power-up, past its start-up time: not
           fitted, or dead from power-up (the cabinet's setting says which
           it expects)
  FAULT    stopped answering, jammed, cash box full or removed: `cents` is
           then the fault's hal.faults code (VALIDATOR, BILL_JAM,
           STACKER_FULL, STACKER_OPEN); a note it held stays where it was
           until the fault is cleared, and the validator then reports it
           STACKED, in ESCROW again, or not at all (IDLE: nobody knows)
  TICKET   a ticket (TITO) waits in escrow: its barcode's digits are in
           `barcode` (ASCII bytes) until stack() or ret(); STACKED after a
           ticket says cents 0 (the cabinet's journal knows the ticket)
stack(), ret(), ack(): commands; inhibit(flag): refuse new bills.
"""
from micropython import const

BUSY = const(0)
IDLE = const(1)
ESCROW = const(2)
STACKED = const(3)
FAULT = const(4)
TICKET = const(5)
ABSENT = const(6)
