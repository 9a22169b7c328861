"""Technician PIN: a salted, stretched verifier, attempt limit and lockout.

The PIN is never stored in clear. The record (configuration setting "pin",
journaled like every setting, so power-safe) is

    "<salt: 16 hex digits = 64 bits>$<iterations>$<64 hex digits>"

where the digest is x_n with x_0 = SHA-256(b"BC-PIN2\\0" + salt + b"\\0" + pin)
and x_{i+1} = SHA-256(x_i). ITERATIONS is sized so one check takes about
0.5 s on an RP2040 at 125 MHz (`tools/bench pin` fails under 50 ms), so a
flash dump costs an attacker 4,800 SHA-256 per guess instead of one
(docs/SECURITY.md has what that is worth). The check runs in
slices (SLICE iterations per main-loop pass, ~10 ms on an RP2040) so the
asyncio loop and the 5 s watchdog are never starved: see Check.

There is no default PIN: a new cabinet and a RAM clear leave the record
empty (NOT_SET), no entry matches it, and the audit menu asks the holder of
the key to set one (6-8 digits) before any PIN item opens. A PIN of 4-5
digits from an older release still verifies, but only to lead straight to
setting a new one (short()).

Records of the first firmware ("<8 hex salt>$<64 hex>", one SHA-256, 32-bit
salt) still verify; the first correct entry against one re-stores the PIN
in the new form (a logged configuration change): it is migrated on use,
since no stored hash can be strengthened without the PIN itself.

Lockout: MAX_TRIES wrong PINs in a row -> PIN_LOCKOUT event, no PIN accepted
for LOCK_S seconds. PIN_FAIL (arg = failures in a row), PIN_OK (a correct
entry: the count starts again) and PIN_LOCKOUT (arg = minutes) are journaled
events, and the guard derives its state from the event log, so a power cycle
neither forgets a lockout nor brings back failures a correct PIN cleared.
"""
import hashlib
from micropython import const
from hal import buttons as B
from firmware.store import events as E

NOT_SET = ""        # the record of a cabinet without a PIN (new, RAM cleared)
KEY = "pin"
MIN_LEN = const(6)
OLD_MIN_LEN = const(4)  # older releases took 4-5 digits: accepted only to set a new PIN
MAX_LEN = const(8)
MAX_TRIES = const(3)
LOCK_S = const(900)  # 15 minutes
ITERATIONS = const(4800)
SLICE = const(100)   # iterations per main-loop pass
_MAX_ITERATIONS = const(1000000)


def _hex(data):
    return "".join("%02x" % b for b in data)


def _start(salt, pin, tag):
    h = hashlib.sha256(tag)
    h.update(salt.encode())
    h.update(b"\x00")
    h.update(pin.encode())
    return h.digest()


def make_record(pin, salt, iterations=ITERATIONS):
    """The record at once (tests, tools, the default): never on the loop."""
    c = Check("%s$%d$" % (salt, iterations), pin)
    c.finish()
    return c.record()


def _digits(pin, low):
    return low <= len(pin) <= MAX_LEN and all("0" <= c <= "9" for c in pin)


def valid_pin(pin):
    """A PIN that may be set: MIN_LEN to MAX_LEN digits."""
    return _digits(pin, MIN_LEN)


def enterable(pin):
    """A PIN worth checking: a valid one, or a shorter one of an older release."""
    return _digits(pin, OLD_MIN_LEN)


def short(pin):
    """A correct PIN too short to keep: it only opens the PIN change."""
    return len(pin) < MIN_LEN


def legacy(record):
    """True for a record of the first firmware (one SHA-256, 32-bit salt)."""
    return record.count("$") == 1


def new_salt(seed=0):
    try:
        import os
        raw = os.urandom(8)
    except Exception:  # no urandom: mix the ticks and a caller seed
        import time
        t = getattr(time, "ticks_us", None)
        v = (t() if t else int(time.time() * 1000000)) ^ (seed * 2654435761)
        v = (v * 0x9E3779B97F4A7C15 + seed) & 0xFFFFFFFFFFFFFFFF
        raw = bytes((v >> s) & 0xFF for s in range(0, 64, 8))
    return _hex(raw)


def record_of(store):
    return store.ledger.config.get(KEY, NOT_SET)


def is_set(store):
    """False on a new cabinet and after a RAM clear: no PIN can be entered."""
    return record_of(store) != NOT_SET


def _same(a, b):
    if len(a) != len(b):
        return False
    diff = 0
    for i in range(len(a)):  # no early exit
        diff |= ord(a[i]) ^ ord(b[i])
    return diff == 0


class Check:
    """One PIN check, stretched over main-loop passes: step(n) runs up to n
    iterations; None while unfinished, then True/False. A malformed record
    never matches."""

    def __init__(self, record, pin):
        parts = record.split("$")
        self.result = None
        self.left = 0
        if len(parts) == 2:        # legacy: salt$sha256
            salt, self.want = parts
            self.x = _start(salt, pin, b"BC-PIN\x00")
            return
        if len(parts) != 3 or not parts[1].isdigit() \
                or not 0 < int(parts[1]) <= _MAX_ITERATIONS:
            self.want = ""
            self.x = b""
            self.result = False
            return
        salt, n, self.want = parts
        self.salt = salt
        self.n = self.left = int(n)
        self.x = _start(salt, pin, b"BC-PIN2\x00")

    def step(self, n=SLICE):
        if self.result is not None:
            return self.result
        sha = hashlib.sha256
        x = self.x
        k = n if n < self.left else self.left
        for _ in range(k):
            x = sha(x).digest()
        self.x = x
        self.left -= k
        if self.left:
            return None
        self.result = _same(_hex(x), self.want)
        return self.result

    def finish(self):
        """All remaining iterations at once (tests, tools)."""
        while self.step(ITERATIONS) is None:
            pass
        return self.result

    def record(self):
        """The stretched record of this salt, count and PIN (once finished)."""
        return "%s$%d$%s" % (self.salt, self.n, _hex(self.x))


class Pad:
    """PIN digits on the player buttons: BET UP/DOWN change the last digit,
    NEXT adds one, PREV erases one. press(code) -> the PIN on ROLL, "" on
    CLEAR (cancelled), None otherwise. A digit past MAX_LEN is refused and
    `note` says so until the next key."""

    def __init__(self):
        self.digits = [0]
        self.note = ""

    def press(self, code):
        d = self.digits
        self.note = ""
        if code == B.BET_UP:
            d[-1] = (d[-1] + 1) % 10
        elif code == B.BET_DOWN:
            d[-1] = (d[-1] - 1) % 10
        elif code == B.NEXT:
            if len(d) < MAX_LEN:
                d.append(0)
            else:
                self.note = "MAX %d DIGITS" % MAX_LEN
        elif code == B.PREV and len(d) > 1:
            d.pop()
        elif code == B.ROLL:
            return "".join(str(x) for x in d)
        elif code == B.CLEAR:
            return ""
        return None

    def shown(self):
        """The digits as entered: all but the last hidden."""
        return "*" * (len(self.digits) - 1) + str(self.digits[-1])


def check(record, pin):
    """The whole check at once (tools, tests): never on the cabinet's loop."""
    return Check(record, pin).finish()


# Per power-up memory (covers a store that can no longer journal):
# id(store) -> [event number at the last good PIN, fails, lockout end (monotonic
# s, 0 = none), newest lockout event number handled, monotonic s, last ticks]
_MEM = {}


class PinGuard:
    """Lockout timing runs on a monotonic counter (the board's ticks), not the
    wall clock: a clock that is set, or starts at 2021 after a power cut,
    cannot stretch or shorten a lockout. Failures in a row and lockouts are
    found in the event log, so a power cycle forgets neither: a lockout
    logged before the cut runs its full time again from the power-up (its
    elapsed part is not known without a wall clock)."""

    def __init__(self, store, clock):
        self.store = store
        self.clock = clock      # ticks_ms / ticks_diff / ticks_add (hal clock)
        key = id(store)
        if key not in _MEM:
            _MEM[key] = [0, 0, 0, 0, 1, None]
        self.mem = _MEM[key]

    def mono(self):
        """Whole seconds on a monotonic counter (the board's ticks, wrap-safe)."""
        m = self.mem
        c = self.clock
        now = c.ticks_ms()
        if m[5] is None:
            m[5] = now
        else:
            s = c.ticks_diff(now, m[5]) // 1000
            if s > 0:
                m[4] += s
                m[5] = c.ticks_add(m[5], s * 1000)
        return m[4]

    def _scan(self):
        """Failures in a row since the last good PIN or lockout, and the
        number of the newest lockout event, from the event log."""
        ev = self.store.ledger.events
        mark = self.mem[0]
        if mark > ev.total:  # the log restarted (RAM clear)
            mark = self.mem[0] = 0
        fails = 0
        for i in range(ev.count):
            number, t, code, arg = ev.get(i)
            if number <= mark or code == E.PIN_OK:
                break
            if code == E.PIN_LOCKOUT:
                return fails, number
            if code == E.PIN_FAIL:
                fails += 1
        return fails, 0

    def state(self, now=0):
        """(failures counted, lockout end in monotonic seconds or 0)."""
        fails, lockout = self._scan()
        m = self.mem
        t = self.mono()
        if lockout > m[3]:
            # a lockout from the log this power cycle has not timed yet
            m[3] = lockout
            m[2] = max(m[2], t + LOCK_S)
        if m[2] and m[2] > t:
            return MAX_TRIES, m[2]
        if m[2]:  # served: failures before it no longer count
            m[2] = 0
            m[0] = max(m[0], m[3])
            fails = self._scan()[0]
        return max(fails, m[1]), 0

    def locked_for(self, now=0):
        """Seconds left in a lockout (0 = PIN entry allowed)."""
        until = self.state()[1]
        t = self.mono()
        return until - t if until > t else 0

    def tries_left(self, now=0):
        return MAX_TRIES - self.state()[0]

    def start(self, now, pin):
        """A Check of `pin` against the stored record, or None while locked
        out. Step it from the main loop, then call done(now, check)."""
        if self.locked_for(now):
            return None
        return Check(record_of(self.store), pin)

    def done(self, now, check):
        """Books a finished Check: a correct PIN is journaled (PIN_OK clears
        the failure count for good); a wrong one is logged, the MAX_TRIES-th
        locks. After a correct one against a legacy record the caller
        re-stores it stretched (migrate(): new_record, then save)."""
        if check.result:
            store = self.store
            store.event(now, E.PIN_OK)
            self.mem[0] = store.ledger.events.total
            self.mem[1] = 0
            self.mem[2] = 0
            return True
        fails = self.state()[0] + 1
        self.mem[1] = fails
        self.store.event(now, E.PIN_FAIL, fails)
        if fails >= MAX_TRIES:
            self.mem[1] = 0
            self.mem[2] = self.mono() + LOCK_S
            self.store.event(now, E.PIN_LOCKOUT, LOCK_S // 60)
            self.mem[3] = self.store.ledger.events.total
        return False

    def verify(self, now, pin):
        """start + the whole check + done at once (tests, tools)."""
        c = self.start(now, pin)
        if c is None:
            return False
        c.finish()
        return self.done(now, c)

    def migrate(self):
        """True while the stored record is of the first firmware's form."""
        return legacy(record_of(self.store))

    def new_record(self, now, pin):
        """A Check that stretches `pin` with a fresh 64-bit salt; step it
        from the main loop like a check, then save(now, check). None if the
        PIN is not MIN_LEN to MAX_LEN digits."""
        if not valid_pin(pin):
            return None
        return Check("%s$%d$" % (new_salt(now), ITERATIONS), pin)

    def save(self, now, check):
        """Stores the record of a finished new_record(); the store's code."""
        return self.store.set_config(now, KEY, check.record())

    def change(self, now, pin):
        """new_record + save at once (tests, tools); the store's code."""
        c = self.new_record(now, pin)
        if c is None:
            return -3
        c.finish()
        return self.save(now, c)
