"""Software and board identity shown on the audit screens, in the meter
read-out and to the SAS host (long poll 54): small, so the SAS side reads
the serial number without the audit side's modules."""
NAME = "BubbleCraps"
VERSION = "0.1.0"


def serial(board):
    """The board's serial number: its unique ID where the port has one."""
    bid = getattr(board, "board_id", None)
    if bid:
        return str(bid)
    try:
        import machine
        import binascii
        return binascii.hexlify(machine.unique_id()).decode()
    except Exception:
        return "%s-%08x" % (getattr(board, "platform", "board"), getattr(board, "seed", 0) or 0)
