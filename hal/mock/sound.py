"""The simulator's speaker (tools/sim --sound): the buzzer's sounds
(hal/buzzer.py) as the terminal bell, or played from a WAV file by the
first player found on PATH (aplay, paplay, afplay, play), in the background.
Host only."""
import os

from hal.buzzer import NAMES, PATTERNS

PLAYERS = ("aplay -q", "paplay", "afplay", "play -q")
_RATE = 8000


def wav(tones, rate=_RATE):
    """A pattern of (frequency Hz, ms) notes as a WAV file's bytes: 8-bit
    mono square waves, 0 Hz a rest."""
    data = bytearray()
    for freq, ms in tones:
        n = rate * ms // 1000
        if not freq:
            data += bytes([128]) * n
            continue
        half = max(1, rate // (2 * freq))
        for i in range(n):
            data.append(200 if (i // half) % 2 else 56)
    size = len(data)

    def le(v, k):
        return bytes([(v >> (8 * j)) & 255 for j in range(k)])
    return (b"RIFF" + le(36 + size, 4) + b"WAVEfmt " + le(16, 4) + le(1, 2) + le(1, 2) +
            le(rate, 4) + le(rate, 4) + le(1, 2) + le(8, 2) + b"data" + le(size, 4) + bytes(data))


def _found(cmd):
    return os.system("command -v %s >/dev/null 2>&1" % cmd.split()[0]) == 0


class Speaker:
    """mode: 'off' (the sound line only), 'bell', 'wav', or 'auto' (a WAV
    player when one is found, else the bell). play(sound) -> text for the
    terminal: the bell character, or '' (the WAV plays by itself)."""

    def __init__(self, mode="auto", folder=None):
        self.player = None
        if mode in ("wav", "auto"):
            for cmd in PLAYERS:
                if _found(cmd):
                    self.player = cmd
                    break
        if mode == "auto":
            mode = "wav" if self.player else "bell"
        self.mode = mode if mode != "wav" or self.player else "bell"
        # the WAV files: the temporary folder, else the simulator's own (its flash image's)
        self.folder = folder or os.getenv("TMPDIR") or "."

    def play(self, sound):
        if self.mode == "bell":
            return "\x07"
        if self.mode != "wav":
            return ""
        path = "%s/bubblecraps-%s.wav" % (self.folder, NAMES[sound].replace(" ", "-").lower())
        with open(path, "wb") as f:
            f.write(wav(PATTERNS[sound]))
        os.system("%s %s >/dev/null 2>&1 &" % (self.player, path))
        return ""
