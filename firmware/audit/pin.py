"""Technician PIN: salted SHA-256 record, attempt limit and lockout.

The PIN is never stored in clear. The record is the text
    "<salt: 8 hex digits>$<64 hex digits of SHA-256(b"BC-PIN\\0" + salt + b"\\0" + pin)>"
kept as the configuration setting "pin" (journaled like every setting, so
power-safe; a RAM clear restores the default PIN, DEFAULT_PIN).

Lockout: MAX_TRIES wrong PINs in a row -> PIN_LOCKOUT event, no PIN accepted
for LOCK_S seconds. Both PIN_FAIL (arg = failures in a row) and PIN_LOCKOUT
(arg = minutes) are journaled events, and the guard derives its state from the
event log, so a power cycle neither forgets a lockout nor resets the count.
"""
import hashlib
from micropython import const
from firmware.store import events as E

DEFAULT_PIN = "1234"
DEFAULT_SALT = "5eed2026"
KEY = "pin"
MIN_LEN = const(4)
MAX_LEN = const(8)
MAX_TRIES = const(3)
LOCK_S = const(900)  # 15 minutes


def _hex(data):
    return "".join("%02x" % b for b in data)


def digest(salt, pin):
    h = hashlib.sha256(b"BC-PIN\x00")
    h.update(salt.encode())
    h.update(b"\x00")
    h.update(pin.encode())
    return _hex(h.digest())


def make_record(pin, salt):
    return salt + "$" + digest(salt, pin)


DEFAULT_RECORD = "5eed2026$6ee669c94951a33a8c5743f00af5ad47653d178a551819aefb52fdfc3b49705b"


def valid_pin(pin):
    return MIN_LEN <= len(pin) <= MAX_LEN and all("0" <= c <= "9" for c in pin)


def new_salt(seed=0):
    try:
        import os
        raw = os.urandom(4)
    except Exception:  # no urandom: mix the ticks and a caller seed
        import time
        t = getattr(time, "ticks_us", None)
        v = (t() if t else int(time.time() * 1000000)) ^ (seed * 2654435761)
        raw = bytes((v >> s) & 0xFF for s in (0, 8, 16, 24))
    return _hex(raw)


def record_of(store):
    return store.ledger.config.get(KEY, DEFAULT_RECORD)


def check(record, pin):
    salt, _, want = record.partition("$")
    got = digest(salt, pin)
    if len(got) != len(want):
        return False
    diff = 0
    for i in range(len(got)):  # no early exit
        diff |= ord(got[i]) ^ ord(want[i])
    return diff == 0


# Per power-up memory (also covers a store that can no longer journal):
# id(store) -> [event number at the last good PIN, fails, locked until]
_MEM = {}


class PinGuard:
    def __init__(self, store):
        self.store = store
        key = id(store)
        if key not in _MEM:
            _MEM[key] = [0, 0, 0]
        self.mem = _MEM[key]

    def _scan(self, now):
        """(failures in a row, locked until) from the event log."""
        ev = self.store.ledger.events
        mark = self.mem[0]
        if mark > ev.total:  # the log restarted (RAM clear)
            mark = self.mem[0] = 0
        fails = 0
        until = 0
        for i in range(ev.count):
            number, t, code, arg = ev.get(i)
            if number <= mark:
                break
            if code == E.PIN_LOCKOUT:
                if t + LOCK_S > now:
                    until = t + LOCK_S
                break
            if code == E.PIN_FAIL and t + LOCK_S > now:
                fails += 1
        return fails, until

    def state(self, now):
        fails, until = self._scan(now)
        m = self.mem
        if m[2] and m[2] > now:
            until = max(until, m[2])
        return max(fails, m[1]) if not until else MAX_TRIES, until

    def locked_for(self, now):
        """Seconds left in a lockout (0 = PIN entry allowed)."""
        until = self.state(now)[1]
        return until - now if until > now else 0

    def tries_left(self, now):
        return MAX_TRIES - self.state(now)[0]

    def verify(self, now, pin):
        """True if accepted. A wrong PIN is logged; the MAX_TRIES-th locks."""
        if self.locked_for(now):
            return False
        if check(record_of(self.store), pin):
            self.mem[0] = self.store.ledger.events.total
            self.mem[1] = 0
            self.mem[2] = 0
            return True
        fails = self.state(now)[0] + 1
        self.mem[1] = fails
        self.store.event(now, E.PIN_FAIL, fails)
        if fails >= MAX_TRIES:
            self.mem[2] = now + LOCK_S
            self.mem[1] = 0
            self.store.event(now, E.PIN_LOCKOUT, LOCK_S // 60)
        return False

    def change(self, now, pin):
        """Stores a new PIN (fresh salt); the store's code (0 = OK)."""
        if not valid_pin(pin):
            return -3
        return self.store.set_config(now, KEY, make_record(pin, new_salt(now)))
