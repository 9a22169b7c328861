"""The link's message table: each type, who sends it, its payload.

The frame (firmware/link/frame.py) carries address, type and round number;
these are the payloads, little-endian. The dome sends commands; a station
answers every command addressed to it (never a broadcast) with STATUS.
LINK.md has the table with what each side journals before it answers.
"""
import struct
from micropython import const

POLL = const(1)      # dome: the table now (round = the round bets go into / in play)
CLOSE = const(2)     # dome: no more bets for round N; commit yours, then answer
RESULT = const(3)    # dome: round N's outcome (dice or void), who was in it
UNKNOWN = const(4)   # dome: no record of round N (another table, or too old)
STATUS = const(0x81)  # station: round = its newest closed round, and its flags

# POLL: table id, phase, seconds left, shooter, new shooter, why suspended,
# shooter turn, newest dice (0, 0: void or none), the point
POLL_FMT = "<IBBBBBHBBB"
CLOSE_FMT = "<I"
# RESULT: table id, d1, d2 (0, 0 for a void), void why, roster, shooter
# after it, turn after it, new shooter (the dice passed), re-shakes
RESULT_FMT = "<IBBBBBHBB"
UNKNOWN_FMT = "<I"
STATUS_FMT = "<B"

# phases in POLL
BETTING = const(0)
CLOSING = const(1)
SHAKING = const(2)
RESULTS = const(3)
PHASE_NAMES = ("BETTING", "CLOSING", "SHAKING", "RESULT")

# why the table is suspended (POLL) or a round void (RESULT); 0 = neither
COCKED = const(1)     # cocked-die lockup (re-shakes used up): malfunction
STUCK = const(2)      # the dice did not move (shaker lockup)
DOOR = const(3)       # the dome's door
TILT = const(4)
EMPTY = const(5)      # nobody confirmed with bets: nothing shaken
ATTENDANT = const(6)  # the station's attendant voided a round the dome does not know
LOCKED = const(7)     # the dome is locked (lockup, critical journal): POLL only
WHY_NAMES = ("", "COCKED DIE", "DICE STUCK", "DOME DOOR", "DOME TILT", "NO BETS",
             "ATTENDANT", "DOME LOCKED")

# STATUS flags
PENDING = const(1)    # closed for the round in the frame's round field, no outcome yet
BETS = const(2)       # bets on its layout
CREDITS = const(4)    # credits in hand (the seat is occupied)
OUT = const(8)        # sits out: its door, audit key, a lock
SHOOT = const(16)     # ROLL pressed at this station (only the shooter's counts)
FOREIGN = const(32)   # its open round is of another table id: the attendant voids it
LEAVE = const(64)     # no money, no bets: leaves the link

OCCUPIED = const(6)   # BETS | CREDITS


def poll(tid, phase, secs, shooter, fresh, why, turn, d1, d2, point):
    return struct.pack(POLL_FMT, tid, phase, secs, shooter, fresh, why, turn, d1, d2, point)


def result(tid, entry, seat_fresh=False):
    """RESULT payload from a round-journal entry (rounds.Rounds.find)."""
    rnd, time, roster, d1, d2, why, rerolls, shooter, flags, turn = entry
    return struct.pack(RESULT_FMT, tid, d1, d2, why, roster, shooter, turn, flags & 1, rerolls)


def unpack(fmt, data):
    """The payload's fields, or None when its length is not the format's."""
    if len(data) != struct.calcsize(fmt):
        return None
    return struct.unpack(fmt, data)
