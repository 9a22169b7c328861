"""The station's buzzer (a piezo on a PWM pin) and its sounds as data.

A sound is a pattern of (frequency Hz, ms) notes, 0 Hz a rest, played by
tick() from the main loop, never blocking. The game cues them by number
(`cue`): the last call before the bets close, no more bets, a win, a seven
out. `last` and `cues` say what was cued (the simulator shows and plays it).
"""
from micropython import const
from hal.ticks import ticks_add, ticks_diff

LAST_CALL = const(1)     # the bet timer at 5 s
NO_MORE_BETS = const(2)  # the bets close
WIN = const(3)           # a roll that nets the player a win
SEVEN_OUT = const(4)     # the shooter sevens out and nothing was won
NAMES = ("", "LAST CALL", "NO MORE BETS", "WIN", "SEVEN OUT")
PATTERNS = (
    (),
    ((1760, 90), (0, 90), (1760, 90), (0, 90), (1760, 90)),   # three short A6
    ((1319, 150), (880, 350)),                                # E6 down to A5
    ((1047, 90), (1319, 90), (1568, 90), (2093, 240)),        # C6 E6 G6 C7
    ((784, 200), (659, 200), (523, 450)),                     # G5 E5 C5
)


class Buzzer:
    def __init__(self, set_tone):
        self._set = set_tone  # callable(freq_hz): 0 = off
        self._tune = ()
        self._i = 0
        self._until = 0
        self.playing = False
        self.last = 0       # the sound cued last (NAMES), 0: none yet
        self.cues = 0       # how many were cued

    def cue(self, sound, now_ms):
        """Play one of the station's sounds (LAST_CALL ... SEVEN_OUT)."""
        self.last = sound
        self.cues += 1
        self.play(PATTERNS[sound], now_ms)

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
