"""The table link's RS-485 port (hal/REFERENCE.md "Table link"): half
duplex, so the transceiver's driver (DE, with /RE tied to it) is on only
while a frame goes out; the rest of the time the node listens. Platform-free:
the board passes the line (read(buf) -> n, write(data)), the DE pin's
setter and a `sent()` that is true once the last stop bit has left.

Board contract `link`: read(buf) -> n (never blocks), write(data) -> n
(returns once the frame is on the wire and DE is off again: a link frame
is at most 35 bytes, 3.4 ms at 115,200 baud).
"""


class HalfDuplex:
    def __init__(self, line, de, sent):
        self._line = line
        self._de = de
        self._sent = sent
        de(0)                    # listening from power-up

    def read(self, buf):
        return self._line.read(buf)

    def write(self, data):
        self._de(1)
        try:
            self._line.write(data)
            while not self._sent():
                pass             # a frame's time at most (see above)
        finally:
            self._de(0)          # never left driving the bus
        return len(data)
