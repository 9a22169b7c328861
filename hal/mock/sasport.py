"""Mock SAS port: the firmware side of a 9-bit wakeup-mode line.

Board contract (hal/__init__.py, `sas`): read(buf, wake) -> n puts received
bytes in buf and 1/0 in wake (the ninth bit of each); write(data) sends bytes
with the ninth bit clear.

LoopSas is an in-memory line for tests (host_send / host_read). SocketSas
(hal.mock.serial) listens on a socket ("unix:PATH" or "tcp:HOST:PORT") where
each received byte comes as a pair (ninth bit 0/1, byte) and replies go back
as plain bytes; tools/sas_bridge.py turns a pty or TCP host line into it.
"""
class LoopSas:
    def __init__(self):
        self._rx = []          # (byte, wake) host -> machine
        self._tx = bytearray()

    def read(self, buf, wake):
        n = min(len(buf), len(self._rx))
        for i in range(n):
            buf[i], wake[i] = self._rx[i]
        self._rx = self._rx[n:]
        return n

    def write(self, data):
        self._tx += data
        return len(data)

    def host_send(self, data, wake_first=True):
        """Bytes from the host; the first carries the wakeup bit."""
        for i in range(len(data)):
            self._rx.append((data[i], 1 if wake_first and i == 0 else 0))

    def host_read(self):
        out = bytes(self._tx)
        self._tx = bytearray()
        return out


def open_port(spec):
    """"loop" -> LoopSas, a socket spec -> hal.mock.serial.SocketSas."""
    if spec == "loop":
        return LoopSas()
    from hal.mock.serial import SocketSas
    return SocketSas(spec)
