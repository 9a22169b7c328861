"""The mock board's options that a plain session does not use, wired here so
that their names and code stay off the heap of a board without them (the
1,000-roll unix-port benchmark runs in a small heap, its journal on a file):
the NOR flash in RAM or in a file, the technician port on a socket, the
terminal and keyboard of tools/sim, the money log and the escrow validator
(the SAS port is wired by the board itself). The options are documented on
hal.mock.board.Board."""
from hal.marker import Marker

GENERATION_SIZE = 8192


def attach(b, flash, flash_size, flash_path=None, serial=None, keyboard=False,
           terminal=False, money_log=None, escrow=False, link=None, role=None):
    # role: the mock has every device whatever the role (a board's differ)
    b.flash = None
    b.generation = None
    if flash:
        from hal.mock.norflash import NorFlash

        b.flash = NorFlash(flash_size, path=flash_path)
        # the generation log's own area (two sectors: the least the ring needs)
        b.generation = NorFlash(GENERATION_SIZE, path=flash_path + ".generation" if flash_path else None)
    b.provision = Marker(flash_path + ".provisioned" if flash_path else None)
    if money_log:
        _log_money(b, money_log)
    if escrow:  # else no attribute at all: board.validator is optional
        from hal.mock.validator import MockValidator

        b.validator = MockValidator(b.clock, b.money,
                                    flash_path + ".validator" if flash_path else None)
    if serial:
        from hal.mock.serial import SocketSerial

        b.serial = SocketSerial(serial)
    if link is not None:  # a table's node (role dome or station)
        from hal.mock import rs485
        b.link = rs485.pipe_link() if link == "pipe" else rs485.loop_link(link)
    if terminal:
        from hal.mock.keys import draw_display

        b.display.on_show = draw_display
    if keyboard:
        from hal.mock.keys import Keyboard

        b.keyboard = Keyboard(b)


def _log_money(b, path):
    """Every pulse delivered (B, C), every new reading of the counters after
    pulses (P) and every ticket printed (T + its validation line) goes to the
    money log (hal.mock.moneylog)."""
    from hal.mock.moneylog import MoneyLog

    log = MoneyLog(path)
    money = b.money
    printer = b.printer
    counts = money.counts
    print_ticket = printer.print_ticket

    def pulse(name):
        def delivered():
            log.line(name)
            log.owed = True
        return delivered

    def read_counts():
        if log.owed:
            log.line("P")
            log.owed = False
        return counts()

    def print_logged(lines, barcode=None, serve=None):
        if not print_ticket(lines, barcode, serve):
            return False
        for line in lines:
            if line.startswith("VALIDATION"):
                log.line("T " + line)
        return True

    money.bill.on_pulse = pulse("B")
    money.coin.on_pulse = pulse("C")
    money.counts = read_counts
    printer.print_ticket = print_logged
