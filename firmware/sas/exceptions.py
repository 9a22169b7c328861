"""SAS general-poll exception codes (SAS 6.02 Appendix A) and which cabinet
event raises which. Data only: bytes, not dicts (heap; README *Heap budget*)."""
from micropython import const

NONE = const(0x00)
GAME_START = const(0x7E)
GAME_END = const(0x7F)
OVERFLOW = const(0x70)
BILL_OTHER = const(0x4F)   # bill accepted: a note with no code of its own

# bill accepted, by note in SAS bill denomination code order (Table C-6:
# $1 2 5 10 20 25 50 100 200 250 500; machine.py _BILL_DOLLARS)
BILL_CODES = b"\x47\x4d\x48\x49\x4a\x4f\x4b\x4c\x50\x4f\x4e"

# cabinet event (firmware/store/events.py, by code) -> SAS exceptions, two
# bytes an event in the order they are reported (00: none)
BY_EVENT = (
    b"\x00\x00"   # 0
    b"\x18\x17"   # 1 POWER_UP: power was lost, is applied
    b"\x11\x00"   # 2 DOOR_OPEN
    b"\x12\x00"   # 3 DOOR_CLOSE
    b"\x84\x00"   # 4 AUDIT_ON: operator menu entered
    b"\x85\x00"   # 5 AUDIT_OFF: exited
    b"\x20\x00"   # 6 TILT: general tilt
    b"\x00\x00"   # 7 TILT_CLEAR
    b"\x00\x00"   # 8 COCKED
    b"\x00\x00"   # 9 STUCK
    b"\x20\x00"   # 10 MALFUNCTION: general tilt
    b"\x32\x00"   # 11 CRITICAL: RAM error, no data recovered
    b"\x3a\x00"   # 12 RAM_CLEAR: memory error reset
    b"\x3c\x00"   # 13 CONFIG: operator changed options
    b"\x3d\x00"   # 14 CASHOUT: cash out ticket printed
    b"\x51\x00"   # 15 HANDPAY: handpay pending
    b"\x52\x00"   # 16 HANDPAY_RESET
    b"\x51\x00"   # 17 JACKPOT: handpay pending
    b"\x00\x00"   # 18 FAULT_CLEAR
    b"\x00\x00"   # 19 PIN_FAIL
    b"\x00\x00"   # 20 PIN_LOCKOUT
    b"\x00\x00"   # 21 BILL_IN: by note (BILL_CODES)
    b"\x60\x00"   # 22 PRINTER_FAULT
    b"\x20\x00"   # 23 SHAKER_FAULT: general tilt
    b"\x00\x00"   # 24 VOID
    b"\x00\x00"   # 25 COIN_IN
    b"\x31\x00"   # 26 REPAIRED: RAM error, data recovered
    b"\x00\x00"   # 27 AGG_MIN
    b"\x00\x00"   # 28 DEVICE_FAULT
    b"\x00\x00"   # 29 TICKET_DOUBT
    b"\x00\x00"   # 30 PIN_OK
    b"\x00\x00"   # 31 HOST_OFF
    b"\x00\x00"   # 32 HOST_ON
    b"\x15\x00"   # 33 LOGIC_OPEN: card cage opened
    b"\x16\x00"   # 34 LOGIC_CLOSE
    b"\x19\x00"   # 35 CASHBOX_OPEN
    b"\x1a\x00"   # 36 CASHBOX_CLOSE
)
