"""Mock table link (board contract `link`, hal/rs485.py): the half-duplex
port over an in-memory bus (tests; the DE line is a list of its changes,
so a test sees the driver on only around each write) or over the pipe to
the bus model of the multi-seat simulator (tools/sim --seats)."""
from hal.rs485 import HalfDuplex


class Line:
    """A node's side of the wire: deliver() puts what reaches it where
    read() takes it; write() hands a frame to `send`."""

    def __init__(self, send):
        self.rx = bytearray()
        self.send = send

    def read(self, buf):
        n = min(len(buf), len(self.rx))
        buf[:n] = self.rx[:n]
        self.rx[:n] = b""
        return n

    def write(self, data):
        self.send(self, bytes(data))
        return len(data)

    def deliver(self, data):
        self.rx += data


class LoopBus:
    """Every node's writes reach every other node's read (as on the wire;
    no node hears itself, its receiver is off while DE is on)."""

    def __init__(self):
        self.nodes = []

    def port(self):
        p = Line(self._send)
        self.nodes.append(p)
        return p

    def _send(self, sender, data):
        for node in self.nodes:
            if node is not sender:
                node.deliver(data)


def loop_link(bus):
    """A HalfDuplex port on `bus` whose DE changes are in `.de_log`."""
    log = []
    link = HalfDuplex(bus.port(), log.append, lambda: True)
    link.de_log = log
    return link


def pipe_link():
    """The multi-seat simulator's port (hal/mock/tablenode.py): what the
    node writes waits in `line.outbox` (a frame a write) until the
    simulator collects it; what reaches it comes by line.deliver()."""
    outbox = []
    line = Line(lambda sender, data: outbox.append(data))
    line.outbox = outbox
    link = HalfDuplex(line, lambda v: None, lambda: True)
    link.line = line
    return link
