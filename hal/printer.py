"""ESC/POS ticket printer on a UART (platform-free; the board passes the UART).

Status uses the real-time status requests DLE EOT n, answered even while the
printer is busy: n=2 (offline cause: cover open bit 2, error bit 6) and n=4
(roll paper sensor: near end bits 2-3, paper end bits 5-6). status() waits
for the replies (up to 200 ms when there are none); poll() asks the same
without waiting, one step a call, for the idle watch.
"""
from micropython import const

from hal.ticks import ticks_diff

from hal.prstatus import OK, PAPER_OUT, FAULT, PAPER_LOW, STATUS_NAMES  # noqa: F401

_REPLY_MS = const(100)
# bytes a write while a SAS host waits: ~8 ms of the 19,200 baud line once
# the UART's buffer is full (a ticket is ~0.2 s of the line)
_CHUNK = const(16)
_INIT = b"\x1b@"
_CUT = b"\n\n\n\x1dVB\x00"  # feed, partial cut
_Q_OFFLINE = b"\x10\x04\x02"
_Q_PAPER = b"\x10\x04\x04"


def status_from_replies(offline, paper):
    """Map the DLE EOT 2 / DLE EOT 4 reply bytes (None = no reply) to a status."""
    if offline is None or paper is None:
        return FAULT
    # a valid status byte has bit 4 set and bits 0 and 7 clear
    if (offline & 0x93) != 0x12 or (paper & 0x93) != 0x12:
        return FAULT
    if paper & 0x60:
        return PAPER_OUT
    if offline & 0x44:  # error or cover open
        return FAULT
    if paper & 0x0C:
        return PAPER_LOW
    return OK


class EscPosPrinter:
    def __init__(self, uart, ticks_ms):
        self._uart = uart
        self._ticks = ticks_ms
        self._b = bytearray(1)
        self._step = 0       # poll(): 0 ask DLE EOT 2, 1 read it and ask DLE EOT 4, 2 read it
        self._offline = None

    def _drain(self):
        u = self._uart
        while u.any():  # drop stale bytes
            u.readinto(self._b, 1)

    def _reply(self):
        u = self._uart
        if u.any() and u.readinto(self._b, 1):
            return self._b[0]
        return None

    def _ask(self, query, serve):
        u = self._uart
        self._step = 0       # a poll under way lost its reply to this drain
        self._drain()
        u.write(query)
        t0 = self._ticks()
        while ticks_diff(self._ticks(), t0) < _REPLY_MS:
            b = self._reply()
            if b is not None:
                return b
            if serve is not None:
                serve()
        return None

    def poll(self):
        """One step of a status request that never waits: None while it is
        under way, the status (as status()) every third call. The caller
        leaves the printer time to answer between calls (a reply is ~1 ms)."""
        step = self._step
        if step == 0:
            self._drain()
            self._uart.write(_Q_OFFLINE)
            self._step = 1
            return None
        if step == 1:
            self._offline = self._reply()
            self._drain()
            self._uart.write(_Q_PAPER)
            self._step = 2
            return None
        self._step = 0
        return status_from_replies(self._offline, self._reply())

    def status(self):
        """OK, PAPER_LOW, PAPER_OUT or FAULT (FAULT also when it does not answer)."""
        return status_from_replies(self._ask(_Q_OFFLINE, None), self._ask(_Q_PAPER, None))

    def print_ticket(self, lines, barcode=None, serve=None):
        """Print `lines` (str, ASCII), the ITF `barcode` (digits) under them
        if given, and cut. True if the printer was ready before and still
        without fault after; False means "not printed/unknown". serve()
        runs between parts (a SAS host is answered within 20 ms)."""
        st = self.status()      # nothing queued before it: the replies come at once
        if st != OK and st != PAPER_LOW:
            return False
        u = self._uart

        def write(data):
            # with serve, in chunks with serve() after each (a write waits
            # while the UART's buffer is full)
            if serve is None:
                u.write(data)
                return
            mv = memoryview(data)
            for i in range(0, len(data), _CHUNK):
                u.write(mv[i:i + _CHUNK])
                serve()
        u.write(_INIT)
        for line in lines:
            write(line.encode())
            u.write(b"\n")
        if barcode:
            from hal.itf import barcode_bytes
            write(barcode_bytes(barcode))
        u.write(_CUT)
        # the requests go behind the ticket's last bytes: SAS served meanwhile
        st = status_from_replies(self._ask(_Q_OFFLINE, serve), self._ask(_Q_PAPER, serve))
        return st == OK or st == PAPER_LOW
