"""Win buzzer on a PWM pin: a tune of (frequency Hz, ms) notes, played by
tick() from the main loop (never blocks; 0 Hz = silent)."""
from hal.ticks import ticks_add, ticks_diff

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
