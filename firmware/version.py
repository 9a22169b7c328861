"""The firmware's name and release version, and the board's serial number:
shown on the audit menu's identity page, in the read-out's ID and on
tickets, and to the SAS host (long poll 1F's additional ID, long poll 54's
serial number). VERSION changes with every release (docs/CHANGELOG.md)."""
NAME = "BubbleCraps"
VERSION = "0.2.0"


def sas_id():
    """VERSION as long poll 1F's 3-character additional ID: its digits,
    "0.2.0" -> "020"."""
    return ("".join(VERSION.split(".")) + "000")[:3]


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


def identity(board, config):
    """The read-out's ID and the audit menu's identity page."""
    return {"station": config["station"], "version": VERSION, "name": NAME,
            "serial": serial(board), "profile": config["profile"]}
