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
        self._rx = bytearray()  # host -> machine: byte, ninth bit, byte, ninth bit...
        self._tx = bytearray()

    def read(self, buf, wake):
        # in place: the firmware reads the line every few ms and the bench
        # measures the heap with this line in it (no list or bytes per read)
        rx = self._rx
        n = min(len(buf), len(rx) // 2)
        if not n:
            return 0
        for i in range(n):
            buf[i] = rx[2 * i]
            wake[i] = rx[2 * i + 1]
        rx[:2 * n] = b""
        return n

    def write(self, data):
        self._tx += data
        return len(data)

    def host_send(self, data, wake_first=True):
        """Bytes from the host; the first carries the wakeup bit."""
        rx = self._rx
        for i in range(len(data)):
            rx.append(data[i])
            rx.append(1 if wake_first and i == 0 else 0)

    def host_read(self):
        out = bytes(self._tx)
        self._tx[:] = b""
        return out


def open_port(spec):
    """"loop" -> LoopSas, a socket spec -> hal.mock.serial.SocketSas."""
    if spec == "loop":
        return LoopSas()
    from hal.mock.serial import SocketSas
    return SocketSas(spec)
