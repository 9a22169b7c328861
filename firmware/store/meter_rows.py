"""The audit side's view of the meters (firmware/store/meters.py): each
meter's key, label and group (meter(), METERS[i]), which ones count money
(is_money()), and INDEX[key]. meters.py loads this module when one of them
is first asked for (its module __getattr__), so play, which meters by key
and number only, does not hold it.
"""
from firmware.rules import wagers as W
from firmware.store import meters as M

_GROUPS = {"m": "money", "p": "play", "c": "count"}


def _row(text, i):
    r = text[i * M.ROW:(i + 1) * M.ROW]
    return (r[:M.KEY].rstrip(), r[M.KEY:M.ROW - 1].rstrip(), _GROUPS[r[M.ROW - 1]])


def meter(i):
    """(key, label, group) of meter i. Bill and per-wager entries are made on
    demand: kept as a table they would hold ~100 strings on the heap."""
    if i < M.BILLS_BASE:
        return _row(M._BASE, i)
    if i >= M.LATER_BASE:
        return _row(M._LATER, i - M.LATER_BASE)
    if i < M.BET_BASE:
        d = M.BILL_DENOMS[i - M.BILLS_BASE]
        return ("bills_%d" % d, "Bills $%d" % d, "bills")
    if i < M.WON_BASE:
        n = W.NAMES[i - M.BET_BASE]
        return ("bet_" + n, "Bet " + n[:11], "wager")
    n = W.NAMES[i - M.WON_BASE]
    return ("won_" + n, "Won " + n[:11], "wager")


def is_money(i):
    """True for a meter that counts cents (shown as dollars.cents): the money
    and play groups but the rounding meters, and the per-wager meters."""
    key, label, group = meter(i)
    return group in ("money", "play", "wager") and not key.startswith("round_")


class _Table:
    """METERS[i] and INDEX[key] / INDEX.get(key) over meter() and index()."""

    def __len__(self):
        return M.COUNT

    def __getitem__(self, i):
        if isinstance(i, str):
            n = M.index(i)
            if n is None:
                raise KeyError(i)
            return n
        if not 0 <= i < M.COUNT:
            raise IndexError(i)
        return meter(i)

    def get(self, key, default=None):
        i = M.index(key)
        return default if i is None else i


METERS = _Table()
INDEX = METERS
