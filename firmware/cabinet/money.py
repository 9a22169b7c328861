"""Money in: cumulative pulse counts -> bursts -> credits.

board.money.counts() gives cumulative pulse counts since power-up (counted in
hardware or an IRQ). A bill (or a coin) is a burst of pulses; it is complete
when no new pulse came for GAP_MS. Each pulse is counted exactly once: `seen`
holds the counts already taken into a burst, a burst is cleared only after
the store has committed its credit. Across a power cut the hardware counters
restart at 0 and `seen` is rebuilt from them at start-up, so nothing counted
before the cut is counted again (a burst still in progress at the cut is
lost with the validator's power: the validator had not finished either).
"""
from micropython import const
from hal.ticks import ticks_diff

GAP_MS = const(500)  # silence that ends a burst (pulse period is ~100 ms)
# a burst still going after this is a line that never stops, not money: a
# validator stacking notes back to back (400 pulses at 100 ms) takes 40 s
LINE_MS = const(60000)
BILL = const(0)
COIN = const(1)


class MoneyIn:
    def __init__(self, money, now_ms):
        self.money = money
        c = money.counts()
        self.seen = [c[0], c[1]]
        self.pending = [0, 0]
        self.last = [now_ms, now_ms]
        self.first = [now_ms, now_ms]   # when each pending burst began

    def busy(self, now_ms=None):
        """True while a burst is in progress (not yet credited)."""
        return bool(self.pending[0] or self.pending[1])

    def quiet_for(self, now_ms):
        """ms since the newest pulse seen (large if none pending)."""
        a = ticks_diff(now_ms, self.last[0])
        b = ticks_diff(now_ms, self.last[1])
        return a if a < b else b

    def poll(self, now_ms):
        """Takes new pulses; returns the channel (BILL/COIN) of a burst that
        has ended and waits for `done(channel)`, or -1. No allocation."""
        bill, coin = self.money.counts()
        self._take(BILL, bill, now_ms)
        self._take(COIN, coin, now_ms)
        for ch in (BILL, COIN):
            if self.pending[ch] and ticks_diff(now_ms, self.last[ch]) >= GAP_MS:
                return ch
        return -1

    def _take(self, ch, count, now_ms):
        d = count - self.seen[ch]
        if d > 0:
            self.seen[ch] = count
            if not self.pending[ch]:
                self.first[ch] = now_ms
            self.pending[ch] += d
            self.last[ch] = now_ms
        elif d < 0:  # counter restarted (should not happen within a power cycle)
            self.seen[ch] = count

    def skip(self):
        """Takes the current counts as seen without crediting them: pulses
        made by the technician's money-input test in the audit menu. A burst
        already pending stays pending."""
        c = self.money.counts()
        self.seen[0], self.seen[1] = c[0], c[1]

    def endless(self, now_ms):
        """The channel whose burst has run longer than any note or coin, or -1."""
        for ch in (BILL, COIN):
            if self.pending[ch] and ticks_diff(now_ms, self.first[ch]) >= LINE_MS:
                return ch
        return -1

    def drop(self, ch, now_ms):
        """Takes the pulses on `ch` as seen and credits none (a line that
        never stops); `last` keeps moving while they come."""
        count = self.money.counts()[ch]
        if count != self.seen[ch]:
            self.seen[ch] = count
            self.last[ch] = now_ms
        self.pending[ch] = 0

    def done(self, ch):
        """The burst on `ch` was credited: forget it."""
        self.pending[ch] = 0
