"""Cabinet meters as SAS meters: one table, one unit conversion.

SAS reports meters in credits of the accounting denomination (SAS 6.02
section 16) and a few amounts in cents or dollars. `credits()` is the one
place that turns a ledger amount into SAS credits: when the ledger's unit
changes, that line changes.

Mapping (the cabinet's balance `credits = total_in - total_out + won +
returned - wagered - vig` becomes SAS's `credits = drop - cancelled + coin
out - coin in`, every SAS meter only ever going up):
  coin in   = wagered + vig (the commission is played money)
  coin out  = won + returned - jackpot (stake included; a jackpot handpay is
              paid by the attendant, so it is in jackpot, not coin out)
  cancelled = total_out - jackpot (tickets + handpaid cancelled credits)
  drop      = total_in (bills and coins into the cash box)
"""


from micropython import const
from firmware.store.meters import BILL_DENOMS, BILLS_BASE, index

# Meter numbers, looked up once: by name, every read searches the packed
# meter table (long poll 1C took ~10 ms on an RP2040 that way; a poll must
# be answered within 20 ms).
_IX = tuple(index(k) for k in ("wagered", "vig", "won", "returned", "jackpot",
                               "total_out", "total_in", "handpay_cc"))
_WAGERED = const(0)
_VIG = const(1)
_WON = const(2)
_RETURNED = const(3)
_JACKPOT = const(4)
_TOTAL_OUT = const(5)
_TOTAL_IN = const(6)
_HANDPAY_CC = const(7)


def credits(led, amount):
    """Ledger amount -> SAS accounting credits (the ledger counts cents;
    `credit_cents` is the accounting denomination)."""
    return amount // led.config["credit_cents"]


def cents(led, amount):
    return amount


def _m(led, k):
    return led.meters.get(_IX[k])


def coin_in(led):
    return credits(led, _m(led, _WAGERED) + _m(led, _VIG))


def coin_out(led):
    return credits(led, _m(led, _WON) + _m(led, _RETURNED) - _m(led, _JACKPOT))


def cancelled(led):
    return credits(led, _m(led, _TOTAL_OUT) - _m(led, _JACKPOT))


def drop(led):
    return credits(led, _m(led, _TOTAL_IN))


def jackpot(led):
    return credits(led, _m(led, _JACKPOT))


def _count(key):
    i = index(key)
    return lambda led: led.meters.get(i)


def _amount(key):
    i = index(key)
    return lambda led: credits(led, led.meters.get(i))


# SAS 6.02 Table C-7 meter code -> value (long polls 2F, 6F, AF)
BY_CODE = {
    0x00: coin_in,
    0x01: coin_out,
    0x02: jackpot,
    0x03: _amount("handpay_cc"),                  # hand paid cancelled credits
    0x04: cancelled,
    0x05: _count("games"),
    0x06: _count("games_won"),
    0x07: _count("games_lost"),
    0x08: _amount("coins_in"),                    # credits from coin acceptor
    0x0A: _amount("coins_in"),                    # credits from coins to drop
    0x0B: _amount("bills_in"),                    # credits from bills accepted
    0x0C: lambda led: credits(led, led.table.credits),
    0x16: _amount("tickets_out"),                 # total ticket out
    0x22: lambda led: coin_out(led) + jackpot(led),   # total won
    0x23: lambda led: credits(led, _m(led, _HANDPAY_CC) + _m(led, _JACKPOT)),
    0x24: drop,
    0x25: _count("games_power"),
    0x26: _count("games_door"),
    0x2C: _amount("tickets_out"),                 # cashable ticket out
}

# single-meter long polls 10-17 and the multi-meter ones (SAS 6.02 7.1, 7.2)
SINGLE = {0x10: cancelled, 0x11: coin_in, 0x12: coin_out, 0x13: drop, 0x14: jackpot,
          0x15: _count("games"), 0x16: _count("games_won"), 0x17: _count("games_lost"),
          0x1A: BY_CODE[0x0C]}
MULTI = {
    0x0F: (cancelled, coin_in, coin_out, drop, jackpot, _count("games")),
    0x19: (coin_in, coin_out, drop, jackpot, _count("games")),
    0x1C: (coin_in, coin_out, drop, jackpot, _count("games"), _count("games_won"),
           _count("door_opens"), _count("power_ups")),
}
BILL_DOLLARS_1E = (1, 5, 10, 20, 50, 100)   # long poll 1E: number of bills of each


def bills_of(led, dollars):
    """Number of bills of a dollar value accepted (0 if the cabinet has no
    meter for it)."""
    for i in range(len(BILL_DENOMS)):
        if BILL_DENOMS[i] == dollars:     # the bill meters are by dollar value
            return led.meters.get(BILLS_BASE + i)
    return 0
