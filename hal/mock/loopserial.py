"""Mock technician serial as an in-memory pipe (tests, headless runs).

Apart from the socket one (hal.mock.serial) so a board without a socket
spec does not load the socket code.
"""


class LoopSerial:
    """Firmware side read/write; the test is the host: host_write/host_read."""

    def __init__(self):
        self._rx = bytearray()  # host -> firmware
        self._tx = bytearray()  # firmware -> host

    def read(self, buf):
        n = min(len(buf), len(self._rx))
        if n:
            buf[:n] = self._rx[:n]
            self._rx = self._rx[n:]
        return n

    def write(self, data):
        self._tx += data
        return len(data)

    def host_write(self, data):
        self._rx += data

    def host_read(self):
        out = bytes(self._tx)
        self._tx = bytearray()
        return out
