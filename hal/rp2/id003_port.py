"""The bill validator's ID-003 line on the RP2040: 9600 baud 8E1 on two more
PIO state machines running the SAS 9-bit UART's programs (both hardware
UARTs are taken): the ninth bit is the even parity bit. Bytes whose parity
is wrong are dropped (the frame then fails its CRC and is asked again)."""
from micropython import const
from hal.parity import odd_ones
from hal.rp2.sas_pio import PioSas

_BAUD = const(9600)


class Id003Port:
    """read(buf) -> n, write(data) for hal.id003.Id003."""

    def __init__(self, pio, sm, tx_pin, rx_pin):
        self._line = PioSas(pio, tx_pin, rx_pin, sm, _BAUD)
        self._b = bytearray(1)
        self._w = bytearray(1)

    def read(self, buf):
        n = 0
        while n < len(buf) and self._line.read(self._b, self._w):
            b = self._b[0]
            if odd_ones(b) == self._w[0]:  # even parity: the ninth bit makes the ones even
                buf[n] = b
                n += 1
        return n

    def write(self, data):
        for b in data:
            self._line.put(b | odd_ones(b) << 8)
        return len(data)
