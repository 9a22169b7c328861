"""Money pulse counting: the `money` board part over two pulse counters
(hal.counters on a board, simulated channels in the mock). Cumulative counts
never reset; the firmware keeps the last count it credited and credits the
difference.
"""
from micropython import const

BILL = const(0)
COIN = const(1)


class Money:
    """counts() -> (bill, coin) cumulative pulses; inhibit(flag) drives INH.

    `bill` and `coin` need `count()` and `last_ms()` (None before any pulse);
    `write(flag)` drives the validator's inhibit output.
    """

    def __init__(self, bill, coin, set_inhibit):
        self._bill = bill
        self._coin = coin
        self._set_inhibit = set_inhibit
        self.inhibited = True
        set_inhibit(True)

    def counts(self):
        return self._bill.count(), self._coin.count()

    def last_pulse_ms(self, channel):
        return (self._coin if channel == COIN else self._bill).last_ms()

    def inhibit(self, flag):
        self.inhibited = bool(flag)
        self._set_inhibit(self.inhibited)
