"""The cabinet's tower light (stack light, one output per colour). The
buzzer is hal/buzzer.py."""
from micropython import const

RED = const(1)  # tilt / critical error / handpay
AMBER = const(2)  # door open, attention
GREEN = const(4)  # in service, credits on
WHITE = const(8)  # candle: attendant call (optional fourth lamp)
names = {RED: "RED", AMBER: "AMBER", GREEN: "GREEN", WHITE: "WHITE"}


class Lamps:
    """set(mask) switches each lamp; `state` is the last value set.

    `outputs` is a sequence of callables taking 0/1, in bit order RED, AMBER,
    GREEN, WHITE (shorter sequences ignore the missing lamps).
    """

    def __init__(self, outputs):
        self._out = outputs
        self.state = 0
        self.set(0)

    def set(self, mask):
        self.state = mask
        for i in range(len(self._out)):
            self._out[i](1 if mask & (1 << i) else 0)
