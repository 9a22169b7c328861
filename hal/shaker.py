"""Shaker motor control with a soft-start ramp, polled by `tick(now_ms)`.

Platform-free: the board passes `set_duty(permille)` (drives the PWM) and the
clock's `ticks_ms`; optional `motion()` comes from a motion sensor counter.
"""
from micropython import const

from hal.ticks import ticks_diff

_MAX_PERMILLE = const(1000)


def ramp_duty(start, target, elapsed_ms, ramp_ms):
    """Duty (per mille) `elapsed_ms` into a linear ramp start -> target of `ramp_ms`."""
    if ramp_ms <= 0 or elapsed_ms >= ramp_ms:
        return target
    if elapsed_ms <= 0:
        return start
    return start + (target - start) * elapsed_ms // ramp_ms


class Shaker:
    def __init__(self, set_duty, ticks_ms, motion=None):
        self._set = set_duty
        self._ticks = ticks_ms
        self._motion = motion
        self.duty = 0  # per mille currently applied
        self.target = 0
        self.running = False
        self._from = 0
        self._t0 = 0
        self._ramp = 0
        set_duty(0)

    def start(self, duty, ms):
        """Ramp from the current duty to `duty` (per mille) over `ms` ms."""
        if duty < 0:
            duty = 0
        elif duty > _MAX_PERMILLE:
            duty = _MAX_PERMILLE
        self._from = self.duty
        self.target = duty
        self._ramp = ms
        self._t0 = self._ticks()
        self.running = True
        self.tick(self._t0)

    def tick(self, now_ms):
        """Advance the ramp; call every main-loop pass. Returns the duty."""
        if self.running and self.duty != self.target:
            d = ramp_duty(self._from, self.target, ticks_diff(now_ms, self._t0), self._ramp)
            if d != self.duty:
                self.duty = d
                self._set(d)
        return self.duty

    def stop(self):
        """Motor off at once (no ramp down)."""
        self.running = False
        self.target = 0
        self.duty = 0
        self._set(0)

    def motion(self):
        """True/False from the motion sensor, None if the board has none."""
        if self._motion is None:
            return None
        return self._motion()
