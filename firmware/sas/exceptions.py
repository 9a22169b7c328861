"""SAS general-poll exception codes (SAS 6.02 Appendix A) and which cabinet
event raises which. Data only."""
from micropython import const
from firmware.store import events as E

NONE = const(0x00)
GAME_START = const(0x7E)
GAME_END = const(0x7F)
OVERFLOW = const(0x70)
ROM_DONE = const(0x21)   # not an exception: the pending ROM signature answer

# bill accepted, by note value in dollars (47-4E, 50; 4F = any other note)
BILL_CODES = {1: 0x47, 5: 0x48, 10: 0x49, 20: 0x4A, 50: 0x4B, 100: 0x4C, 2: 0x4D,
              500: 0x4E, 200: 0x50}
BILL_OTHER = const(0x4F)

# cabinet event -> SAS exception(s), in the order they are reported
BY_EVENT = {
    E.DOOR_OPEN: b"\x11", E.DOOR_CLOSE: b"\x12",
    E.LOGIC_OPEN: b"\x15", E.LOGIC_CLOSE: b"\x16",        # card cage
    E.CASHBOX_OPEN: b"\x19", E.CASHBOX_CLOSE: b"\x1a",
    E.POWER_UP: b"\x18\x17",                              # power was lost, is applied
    E.TILT: b"\x20", E.MALFUNCTION: b"\x20", E.SHAKER_FAULT: b"\x20",
    E.REPAIRED: b"\x31",                                  # RAM error, data recovered
    E.CRITICAL: b"\x32",                                  # RAM error, no data recovered
    E.RAM_CLEAR: b"\x3a",                                 # memory error reset
    E.CONFIG: b"\x3c",                                    # operator changed options
    E.CASHOUT: b"\x3d",                                   # cash out ticket printed
    E.HANDPAY: b"\x51", E.JACKPOT: b"\x51",               # handpay pending
    E.HANDPAY_RESET: b"\x52",
    E.PRINTER_FAULT: b"\x60",
    E.AUDIT_ON: b"\x84", E.AUDIT_OFF: b"\x85",            # operator menu entered/exited
}
