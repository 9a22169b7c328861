"""Event log: a fixed ring of (time, code, arg); the newest are never lost.

The ring is one pre-allocated bytearray so logging never allocates.
"""
import struct
from micropython import const

CAPACITY = const(256)
_SLOT = const(9)
_FMT = "<IBI"

POWER_UP = const(1)
DOOR_OPEN = const(2)
DOOR_CLOSE = const(3)
AUDIT_ON = const(4)
AUDIT_OFF = const(5)
TILT = const(6)
TILT_CLEAR = const(7)
COCKED = const(8)
STUCK = const(9)
MALFUNCTION = const(10)
CRITICAL = const(11)
RAM_CLEAR = const(12)
CONFIG = const(13)
CASHOUT = const(14)
HANDPAY = const(15)
HANDPAY_RESET = const(16)
JACKPOT = const(17)
FAULT_CLEAR = const(18)
PIN_FAIL = const(19)
PIN_LOCKOUT = const(20)
BILL_IN = const(21)
PRINTER_FAULT = const(22)
SHAKER_FAULT = const(23)
VOID = const(24)
COIN_IN = const(25)
REPAIRED = const(26)
AGG_MIN = const(27)
DEVICE_FAULT = const(28)  # arg: hal.faults code (display, printer, inputs)
TICKET_DOUBT = const(29)
PIN_OK = const(30)
HOST_OFF = const(31)       # SAS host: arg 1 = play disabled (01), 2 = bills off (07)
HOST_ON = const(32)        # SAS host: arg 1 = play enabled (02), 2 = bills on (06)
LOGIC_OPEN = const(33)     # logic area (card cage) door
LOGIC_CLOSE = const(34)
CASHBOX_OPEN = const(35)   # cash box (stacker) door
CASHBOX_CLOSE = const(36)
CLOCK_SET = const(37)      # the record's time is the old clock, arg the new one
CLOCK_UNSET = const(38)    # at power-up: the real-time clock was never set (or lost its time;
                           # arg 1: its oscillator-stop flag, the backup battery ran out)
BILL_RETURNED = const(39)  # a bill in escrow went back to the player (arg: cents)
FLASH_WORN = const(40)     # arg: physical journal sector whose program did not read back
FAULT_RESTART = const(41)  # a passing fault restarted the cabinet; arg: FAULT_* kind
# a player action raised and was refused, nothing changed; arg: its record
# type (records.py), or 0x100 + the button (hal.buttons) outside the store
ACTION_FAULT = const(42)
BILL_DOUBT = const(43)     # the validator faulted holding a note in escrow (arg: cents)
PULSES_DROPPED = const(44) # a pulse line that never stopped: its burst not credited
                           # (arg: pulses << 1 | records.SRC_*)
TICKET_INSERTED = const(45)  # a ticket waits in escrow for the host (arg: 0)
TICKET_IN_DONE = const(46)   # it was credited (arg: cents) or given back (arg: 0)
SAFE_BOOT = const(47)        # the REPL opened by safe boot, logic door open (arg: 1 flag, 2 buttons)
AFT_DONE = const(48)         # an AFT transfer to or from the credit meter (arg: cents)
# the SAS handpay queue (firmware/sas/handpays.py); arg: the handpay's event number
HANDPAY_READ = const(49)     # the host read it (long poll 1B)
HANDPAY_CLOSED = const(50)   # the host acknowledged its reset (exception 52)
RESET_METHOD = const(51)     # SAS A8: the jackpot's reset (arg 1: to the credit meter, 0: by hand)
DEVICE_OK = const(52)        # a device of DEVICE_FAULT answers again, without that fault (arg: its code)
PRINTER_PAPER = const(53)    # the printer's paper sensor changed (arg: hal.prstatus OK, PAPER_LOW, PAPER_OUT)


COUNT = const(54)  # codes 0..PRINTER_PAPER; len(NAMES)

# FAULT_RESTART's arg: what kind of exception it was
FAULT_OTHER = const(0)
FAULT_MEMORY = const(1)    # MemoryError
FAULT_DEVICE = const(2)    # OSError

# the text of each code, for the audit menu and the read-out
NAMES = (
    "none", "power up", "door open", "door closed", "audit key on", "audit key off",
    "tilt", "tilt cleared", "cocked dice", "dice did not move", "malfunction",
    "critical memory", "RAM clear", "config change", "cashout ticket", "handpay",
    "handpay reset", "jackpot", "fault cleared", "PIN failed", "PIN lockout",
    "bill in", "printer fault", "shaker fault", "game voided", "coin in",
    "memory repaired", "aggregate min", "device fault", "ticket in doubt", "PIN accepted",
    "disabled by host", "enabled by host",
    "logic door open", "logic door closed", "cash box open", "cash box closed",
    "clock set", "clock NOT SET", "bill returned", "flash sector worn", "fault restart",
    "action refused", "bill in doubt", "pulses dropped",
    "ticket inserted", "ticket in done", "safe boot, REPL open", "AFT transfer",
    "handpay read by host", "handpay closed", "jackpot reset method",
    "device back", "printer paper",
)


def name(code):
    """Text of an event code."""
    if not 0 <= code < COUNT:
        return "event %d" % code
    return NAMES[code]


class EventLog:
    def __init__(self):
        self.buf = bytearray(CAPACITY * _SLOT)
        self.head = 0    # next slot to write
        self.count = 0
        self.total = 0   # events ever logged, for read-out numbering

    def log(self, time, code, arg=0):
        struct.pack_into(_FMT, self.buf, self.head * _SLOT, time, code, arg & 0xFFFFFFFF)
        self.head = (self.head + 1) % CAPACITY
        if self.count < CAPACITY:
            self.count += 1
        self.total += 1

    def get(self, i):
        """i-th newest event (0 = newest) as (number, time, code, arg)."""
        slot = (self.head - 1 - i) % CAPACITY
        t, c, a = struct.unpack_from(_FMT, self.buf, slot * _SLOT)
        return self.total - i, t, c, a

    def pieces(self):
        # the ring itself, not a 2.3 KB copy of it
        return [struct.pack("<HHI", self.head, self.count, self.total), self.buf]

    def load(self, data):
        if len(data) != 8 + len(self.buf):
            return False
        self.head, self.count, self.total = struct.unpack_from("<HHI", data, 0)
        self.buf[:] = data[8:]
        return self.head < CAPACITY and self.count <= CAPACITY
