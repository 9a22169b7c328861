"""The cabinet's signals: the tower light (stack light, one output per
colour) and the win buzzer (a PWM pin: a tune of (frequency Hz, ms) notes,
played by tick() from the main loop, never blocking; 0 Hz = silent)."""
from micropython import const
from hal.ticks import ticks_add, ticks_diff

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


WIN_TUNE = ((1047, 90), (1319, 90), (1568, 90), (2093, 240))  # C6 E6 G6 C7


class Buzzer:
    def __init__(self, set_tone):
        self._set = set_tone  # callable(freq_hz): 0 = off
        self._tune = ()
        self._i = 0
        self._until = 0
        self.playing = False

    def play(self, tune, now_ms):
        self._tune = tune
        self._i = -1
        self._until = now_ms
        self.playing = True
        self.tick(now_ms)

    def tick(self, now_ms):
        if not self.playing or ticks_diff(now_ms, self._until) < 0:
            return
        self._i += 1
        if self._i >= len(self._tune):
            self._set(0)
            self.playing = False
            return
        freq, ms = self._tune[self._i]
        self._set(freq)
        self._until = ticks_add(now_ms, ms)
