"""Technician audit menu on the player buttons and the 128x64 display.

Menu(store, board, identity, root=".")
    identity: dict with station, version, name, serial, profile.
    root: where the release files live for the software digest.

Contract with the cabinet controller
  * Open a Menu only when the audit key turns on and no roll is in progress;
    play stays suspended while `active` is True.
  * Feed it: on_button(code, now_ms) for every code from board.buttons.poll();
    tick(now_ms) every main-loop pass (live diagnostics, shaker auto-stop,
    the digest in small steps: never more than ~4 KB of hashing per tick);
    render() (or lines()) to draw; render() only redraws when something changed.
  * MONEY: the menu inhibits the bill validator and coin acceptor when it opens
    and leaves them inhibited when it closes. The only exception is the
    money-input pulse test, where the technician may enable acceptance; the
    pulses are shown, never credited: the controller skips every pulse while
    the menu has acceptance open. Pulses that arrive while it is inhibited
    (a bill the validator took just before the key turned) are journalled
    and credited when the key turns off.
  * When the technician chooses Exit, or the key turns off (call close()),
    `active` becomes False: shaker stopped, lamps restored, money inhibited.
  * Nothing in the menu moves credits. The only store calls are:
    set_config (Configuration, PIN), reset and ticket (Attendant: reprint or
    handpay of a ticket in doubt), event (PIN_FAIL, PIN_OK, PIN_LOCKOUT) and
    ram_clear (RAM clear) - each journaled and logged.

Buttons (the same everywhere)
  NEXT / PREV       next / previous item, page, game or event
  BET_UP / BET_DOWN scroll inside an item (recall bets), jump a group or
                    ten events, or change the value being edited
  ROLL              enter / OK / save / start
  CLEAR             back / cancel (the button test needs CLEAR twice)
"""
from hal import buttons as B
from firmware.store import meters as M
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.rules import profiles as P
from firmware.audit import text as T
from firmware import fmt
from firmware.audit import report as RP
from firmware.audit import pin as PIN
from firmware.audit.digest import for_board, DONE
from firmware.cabinet import attend as AT

ROWS = 8
COLS = T.WIDTH
METERS_PER_PAGE = 3
DIGEST_CHUNKS = 8          # 8 x 512 bytes per tick
SEQUENCE = AT.SEQUENCE  # RAM clear arming sequence
SHAKE_MAX_MS = 10000
LAMP_STEP_MS = 1000


class Screen:
    title = ""

    def __init__(self, menu):
        self.m = menu

    def button(self, code):
        if code == B.CLEAR:
            self.m.pop()

    def tick(self, now_ms):
        return False

    def leave(self):
        pass

    def body(self):
        return [self.title]


class Message(Screen):
    """Lines until ROLL or CLEAR."""

    def __init__(self, menu, lines, then=None):
        Screen.__init__(self, menu)
        self.text = lines
        self.then = then

    def button(self, code):
        if code in (B.ROLL, B.CLEAR):
            self.m.pop()
            if self.then is not None:
                self.then()

    def body(self):
        out = list(self.text[:ROWS - 1])
        while len(out) < ROWS - 1:
            out.append("")
        return out + ["ROLL=OK"]


class ListScreen(Screen):
    """Title + a scrolling list of (label, action)."""

    def __init__(self, menu, title, items, can_back=True):
        Screen.__init__(self, menu)
        self.title = title
        self.items = items
        self.cursor = 0
        self.can_back = can_back

    def button(self, code):
        n = len(self.items)
        if code == B.NEXT:
            self.cursor = (self.cursor + 1) % n
        elif code == B.PREV:
            self.cursor = (self.cursor - 1) % n
        elif code == B.ROLL:
            self.items[self.cursor][1]()
        elif code == B.CLEAR and self.can_back:
            self.m.pop()

    def body(self):
        rows = ROWS - 1
        top = min(max(0, self.cursor - rows + 1), max(0, len(self.items) - rows))
        out = [self.title]
        for i in range(top, min(len(self.items), top + rows)):
            out.append((">" if i == self.cursor else " ") + self.items[i][0])
        return out


# ---- meters ------------------------------------------------------------
class MetersScreen(Screen):
    """Page 1: identity; then each group's meters, METERS_PER_PAGE a page (a
    page never mixes groups). BET_UP/BET_DOWN jump to the next/previous group."""

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.page = 0
        pages = [[]]    # page 0: the identity, no meters
        i = 0
        while i < M.COUNT:
            group = M.METERS[i][2]
            page = []
            while i < M.COUNT and M.METERS[i][2] == group and len(page) < METERS_PER_PAGE:
                page.append(i)
                i += 1
            pages.append(page)
        self.page_list = pages
        self.pages = len(pages)

    def _group_of(self, page):
        p = self.page_list[page]
        return M.METERS[p[0]][2] if p else ""

    def _start(self, page):
        g = self._group_of(page)
        while page > 1 and self._group_of(page - 1) == g:
            page -= 1
        return page

    def button(self, code):
        n = self.pages
        if code == B.NEXT:
            self.page = (self.page + 1) % n
        elif code == B.PREV:
            self.page = (self.page - 1) % n
        elif code == B.BET_UP:
            g = self._group_of(self.page)
            p = self.page + 1
            while p < n and self._group_of(p) == g:
                p += 1
            self.page = p % n
        elif code == B.BET_DOWN:
            s = self._start(self.page)
            if s == self.page:
                s = self._start((self.page - 1) % n)
            self.page = s
        else:
            Screen.button(self, code)

    def body(self):
        head = "METERS %d/%d" % (self.page + 1, self.pages)
        led = self.m.store.ledger
        if self.page == 0:
            ident = dict(RP.identity_items(self.m.store, self.m.identity))
            return [head, ident["station"], ident["name"], "Ver " + ident["version"],
                    "SN " + ident["serial"], "Prof " + ident["profile"],
                    T.pair("Credits", fmt(led.table.credits)) or fmt(led.table.credits),
                    "NEXT=meters"]
        out = [head]
        for i in self.page_list[self.page]:
            out.append(M.METERS[i][1])
            v = led.meters.get(i)
            out.append(T.right(fmt(v) if M.is_money(i) else v))
        while len(out) < ROWS - 1:
            out.append("")
        out.append("[%s]" % self._group_of(self.page))
        return out


# ---- recall --------------------------------------------------------------
class RecallScreen(Screen):
    PER = ROWS - 2

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.i = 0
        self.off = 0
        self._cache = None

    def _content(self):
        if self._cache is not None and self._cache[0] == self.i:
            return self._cache[1]
        g = self.m.store.ledger.recall.get(self.i)
        out = []
        if g is not None:
            d1, d2 = g["dice"]
            per = self.PER
            # each section starts on a new screen: summary, dice, bets
            sec = ["Game #%d" % g["game"], T.date(g["time"]), T.clock(g["time"]),
                   "Point %s>%s" % (T.point(g["point_before"]), T.point(g["point_after"]))]
            for label, key in (("Cr begin", "credits_before"), ("Cr end", "credits_after")):
                line = T.pair(label, fmt(g[key]))
                sec.extend([line] if line else [label, T.right(fmt(g[key]))])
            sec2 = ["GAME VOIDED"] if g["voided"] else []
            sec2.append(T.dice_text(d1, d2))
            if d1 and d2:
                sec2.extend(T.pips(d1, d2))
            sec2.append(T.pair("Re-rolls", g["rerolls"]) or "Re-rolls %d" % g["rerolls"])
            sec2.append("Voided: %s" % ("YES" if g["voided"] else "no"))
            sec3 = [T.pair("Bets", len(g["bets"]) + g["more"])]
            for b in g["bets"]:
                sec3.extend(T.bet_lines(b))
            if g["more"]:
                sec3.append("+%d more bets" % g["more"])
                sec3.extend(T.bet_lines((0, 0, 0, g["more_amount"], g["more_paid"]))[1:])
            for part in (sec, sec2, sec3):
                out.extend(part)
                while len(out) % per:
                    out.append("")
        self._cache = (self.i, out)
        return out

    def button(self, code):
        n = len(self.m.store.ledger.recall)
        c = self._content()
        if code == B.NEXT and n:      # older
            self.i = (self.i + 1) % n
            self.off = 0
        elif code == B.PREV and n:    # newer
            self.i = (self.i - 1) % n
            self.off = 0
        elif code == B.BET_DOWN:
            if self.off + self.PER < len(c):
                self.off += self.PER
        elif code == B.BET_UP:
            self.off = max(0, self.off - self.PER)
        else:
            Screen.button(self, code)

    def body(self):
        n = len(self.m.store.ledger.recall)
        if not n:
            return ["RECALL", "No games yet", "", "", "", "", "", "RECALL"]
        c = self._content()
        pages = max(1, (len(c) + self.PER - 1) // self.PER)
        out = ["RECALL %d/%d" % (self.i + 1, n)]
        out.extend(c[self.off:self.off + self.PER])
        while len(out) < ROWS - 1:
            out.append("")
        out.append("RECALL pg %d/%d" % (self.off // self.PER + 1, pages))
        return out


# ---- events ----------------------------------------------------------------
class EventsScreen(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.i = 0

    def button(self, code):
        n = self.m.store.ledger.events.count
        step = {B.NEXT: 1, B.PREV: -1, B.BET_DOWN: 10, B.BET_UP: -10}.get(code)
        if step is None:
            Screen.button(self, code)
        elif n:
            self.i = min(max(0, self.i + step), n - 1) if abs(step) > 1 else (self.i + step) % n

    def body(self):
        ev = self.m.store.ledger.events
        if not ev.count:
            return ["EVENTS", "No events"]
        self.i = min(self.i, ev.count - 1)
        number, t, code, arg = ev.get(self.i)
        out = ["EVENTS %d/%d" % (self.i + 1, ev.count), "#%d" % number, T.date(t), T.clock(t)]
        out.extend(T.wrap(E.name(code))[:2])
        detail = RP.event_detail(code, arg)
        if detail:
            out.append(detail)
        while len(out) < ROWS - 1:
            out.append("")
        out.append("NEXT older")
        return out


# ---- bills and the clock -------------------------------------------------------
class BillsScreen(Screen):
    """The last 10 bills accepted, newest first (from the event log), a
    page of six at a time: NEXT / PREV turn the page."""

    PAGE = ROWS - 2

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.top = 0

    def button(self, code):
        if code in (B.NEXT, B.PREV):
            n = len(RP.last_bills(self.m.store.ledger))
            pages = max(1, (n + self.PAGE - 1) // self.PAGE)
            page = (self.top // self.PAGE + (1 if code == B.NEXT else -1)) % pages
            self.top = page * self.PAGE
        else:
            Screen.button(self, code)

    def body(self):
        bills = RP.last_bills(self.m.store.ledger)
        out = ["LAST BILLS %d" % len(bills)]
        if not bills:
            return out + ["No bills"]
        self.top = min(self.top, (len(bills) - 1) // self.PAGE * self.PAGE)
        shown = bills[self.top:self.top + self.PAGE]
        for t, amount in shown:
            y, mo, d, hh, mi, ss = T.civil(t)
            # a bill is whole dollars (amounts are cents)
            out.append("%02d-%02d %02d:%02d %4d" % (mo, d, hh, mi, amount // 100))
        while len(out) < ROWS - 1:
            out.append("")
        out.append("%d-%d NEXT more" % (self.top + 1, self.top + len(shown))
                   if len(bills) > self.PAGE else "")
        return out


class ClockScreen(Screen):
    """Sets the real-time clock: NEXT/PREV pick year, month, day, hour,
    minute; BET UP/DOWN change it; ROLL sets it (logged: the event's time is
    the old clock, its detail the new one)."""

    _NAMES = ("year", "month", "day", "hour", "minute")
    _LIMITS = ((2020, 2099), (1, 12), (1, 31), (0, 23), (0, 59))

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.v = list(T.civil(menu.now())[:5])
        self.f = 0

    def button(self, code):
        if code in (B.NEXT, B.PREV):
            self.f = (self.f + (1 if code == B.NEXT else -1)) % 5
        elif code in (B.BET_UP, B.BET_DOWN):
            lo, hi = self._LIMITS[self.f]
            v = self.v[self.f] + (1 if code == B.BET_UP else -1)
            self.v[self.f] = lo if v > hi else hi if v < lo else v
        elif code == B.ROLL:
            self.set()
        else:
            Screen.button(self, code)

    def set(self):
        from firmware import timefmt
        y, mo, d, hh, mi = self.v
        t = timefmt.unix(y, mo, d, hh, mi, 0)
        m = self.m
        if timefmt.civil(t)[:3] != (y, mo, d):
            m.push(Message(m, ["NOT SET", "no such date"]))
            return
        old = m.now()
        m.board.clock.set_time(t)
        m.store.event(old, E.CLOCK_SET, t)
        m.pop()
        m.push(Message(m, ["CLOCK SET", T.date(t), T.clock(t), "was", T.date(old), T.clock(old),
                           "(logged)"]))

    def body(self):
        valid = getattr(self.m.board.clock, "valid", True)
        now = T.civil(self.m.now())[:5]
        return ["SET CLOCK", "now" + ("" if valid else " NOT SET"), _short(now),
                "new", _short(self.v), "> " + self._NAMES[self.f], "UP/DN NEXT ROLL"]


def _short(v):
    """(year, month, day, hour, minute) as YY-MM-DD HH:MM (14 columns)."""
    return "%02d-%02d-%02d %02d:%02d" % (v[0] % 100, v[1], v[2], v[3], v[4])


# ---- PIN -------------------------------------------------------------------
class PinEntry(Screen):
    """Digits with BET_UP/BET_DOWN, NEXT adds a digit, PREV erases one, ROLL
    submits. done(pin) decides what follows (this screen is already popped)."""

    def __init__(self, menu, prompt, done):
        Screen.__init__(self, menu)
        self.prompt = prompt
        self.done = done
        self.pad = PIN.Pad()

    def button(self, code):
        pin = self.pad.press(code)
        if pin is None:
            return
        self.pad = PIN.Pad()
        self.m.pop()
        if pin:
            self.done(pin)

    def body(self):
        return ["ENTER PIN", self.prompt, "", "PIN " + self.pad.shown(), self.pad.note,
                "UP/DN NEXT PREV", "ROLL=OK", "CLEAR=cancel"]


class Stretch(Screen):
    """Runs a PIN Check (firmware/audit/pin.py) one slice a main-loop pass
    (~0.5 s on an RP2040 in all: the loop and the watchdog keep running),
    then pops itself and hands the finished check to then(check)."""
    busy = True

    def __init__(self, menu, check, then, what):
        Screen.__init__(self, menu)
        self.check = check
        self.then = then
        self.what = what

    def button(self, code):
        pass  # nothing to do but wait

    def tick(self, now_ms):
        c = self.check
        if c.step(PIN.SLICE) is None:
            return False
        self.m.pop()
        self.then(c)
        return True

    def body(self):
        return [self.what, "", "please wait"]


def pin_gate(menu, purpose, open_target, critical_open=False):
    """Runs open_target() once the PIN is accepted in this menu session. With
    no PIN set (a new cabinet, a RAM clear) the key holder sets one first; a
    correct PIN of an older release's 4-5 digits only leads to that too.
    A critical journal that yields no PIN cannot take one either: only a
    `critical_open` item (the RAM clear, guarded by the key and its arming
    sequence) opens then."""
    if menu.pin_ok:
        open_target()
        return
    if not PIN.is_set(menu.store):
        if not menu.store.critical:
            change_pin(menu, "SET NEW PIN", open_target)
        elif critical_open:
            open_target()
        else:
            menu.push(Message(menu, ["NO PIN SET", "Journal error:", "RAM clear first"]))
        return
    guard = menu.guard
    left = guard.locked_for(menu.now())
    if left:
        menu.push(Message(menu, ["PIN LOCKED", "Too many wrong", "PINs. Try in",
                                 "%d min %02d s" % (left // 60, left % 60)]))
        return

    def done(pin):
        if not PIN.enterable(pin):
            menu.push(Message(menu, ["NOT A PIN", "A PIN has", "%d-%d digits" % (PIN.MIN_LEN, PIN.MAX_LEN)]))
            return
        check = guard.start(menu.now(), pin)
        if check is not None:
            menu.push(Stretch(menu, check, lambda c: checked(c, pin), "CHECKING PIN"))

    def migrated(c):
        guard.save(menu.now(), c)
        open_target()

    def checked(c, pin):
        now = menu.now()
        if guard.done(now, c):
            if PIN.short(pin):  # an older release's PIN: a new one before anything
                change_pin(menu, "PIN TOO SHORT", open_target)
                return
            menu.pin_ok = True
            if guard.migrate():  # first firmware's record: store it stretched
                menu.push(Stretch(menu, guard.new_record(now, pin), migrated, "SECURING PIN"))
            else:
                open_target()
            return
        left = guard.locked_for(now)
        if left:
            menu.push(Message(menu, ["WRONG PIN", "PIN LOCKED", "for %d min" % ((left + 59) // 60),
                                     "(logged)"]))
        else:
            menu.push(Message(menu, ["WRONG PIN", "%d tries left" % guard.tries_left(now),
                                     "(logged)"]))
    menu.push(PinEntry(menu, "for " + purpose, done))


# ---- configuration -------------------------------------------------------
def _save(menu, key, text):
    """set_config and a screen saying what happened."""
    led = menu.store.ledger
    old = RP.config_value(key, led.config.get(key))
    code = menu.store.set_config(menu.now(), key, text)
    if code == 0:
        new = RP.config_value(key, led.config.get(key))
        menu.push(Message(menu, ["SAVED", key, ("old " + old)[:T.WIDTH], ("new " + new)[:T.WIDTH],
                                 "(logged)"]))
    elif code == L.MONEY_ON_TABLE:
        menu.push(Message(menu, ["REFUSED", key, "Money on the", "station: cash",
                                 "out/settle bets", "first"]))
    elif code == L.BAD_SETTING:
        menu.push(Message(menu, ["REFUSED", key] + T.wrap("must be " + (led.last_error or "valid"))[:4]))
    else:
        menu.push(Message(menu, ["REFUSED", key, "store code %d" % code,
                                 "locked" if menu.store.critical else ""]))


class NumberEdit(Screen):
    def __init__(self, menu, index):
        Screen.__init__(self, menu)
        self.key, default, self.low, self.high, money = C.CONFIG[index]
        self.width = len(str(self.high))
        v = str(menu.store.ledger.config[self.key])
        v = "0" * (self.width - len(v)) + v
        self.digits = [int(c) for c in v[-self.width:]]
        self.cur = self.width - 1

    def button(self, code):
        if code == B.NEXT:
            self.cur = min(self.cur + 1, self.width - 1)
        elif code == B.PREV:
            self.cur = max(self.cur - 1, 0)
        elif code == B.BET_UP:
            self.digits[self.cur] = (self.digits[self.cur] + 1) % 10
        elif code == B.BET_DOWN:
            self.digits[self.cur] = (self.digits[self.cur] - 1) % 10
        elif code == B.ROLL:
            self.m.pop()
            _save(self.m, self.key, str(int("".join(str(d) for d in self.digits))))
        else:
            Screen.button(self, code)

    def body(self):
        val = "".join(str(d) for d in self.digits)
        pad = COLS - self.width
        return ["SET", self.key,
                T.pair("Now", self.m.store.ledger.config[self.key]),
                " " * pad + val, " " * (pad + self.cur) + "^",
                T.pair("Min", self.low), T.pair("Max", self.high), "ROLL=OK CLEAR=no"]


class ChoiceEdit(Screen):
    def __init__(self, menu, key, choices):
        Screen.__init__(self, menu)
        self.key = key
        self.choices = choices
        cur = menu.store.ledger.config[key]
        self.i = choices.index(cur) if cur in choices else 0

    def button(self, code):
        if code in (B.BET_UP, B.NEXT):
            self.i = (self.i + 1) % len(self.choices)
        elif code in (B.BET_DOWN, B.PREV):
            self.i = (self.i - 1) % len(self.choices)
        elif code == B.ROLL:
            self.m.pop()
            _save(self.m, self.key, self.choices[self.i])
        else:
            Screen.button(self, code)

    def body(self):
        return ["SET", self.key, "Now " + str(self.m.store.ledger.config[self.key]),
                "New " + self.choices[self.i], "", "UP/DN choose", "", "ROLL=OK CLEAR=no"]


class TextEdit(Screen):
    CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."

    def __init__(self, menu, index):
        Screen.__init__(self, menu)
        self.key, default, low, self.high, money = C.CONFIG[index]
        v = str(menu.store.ledger.config[self.key])[:self.high]
        self.chars = [c if c in self.CHARS else "-" for c in v]
        self.chars += [" "] * (self.high - len(self.chars))
        self.cur = 0

    def button(self, code):
        cs = self.CHARS
        if code == B.NEXT:
            self.cur = min(self.cur + 1, self.high - 1)
        elif code == B.PREV:
            self.cur = max(self.cur - 1, 0)
        elif code in (B.BET_UP, B.BET_DOWN):
            step = 1 if code == B.BET_UP else -1
            self.chars[self.cur] = cs[(cs.index(self.chars[self.cur]) + step) % len(cs)]
        elif code == B.ROLL:
            self.m.pop()
            _save(self.m, self.key, "".join(self.chars).rstrip(" "))
        else:
            Screen.button(self, code)

    def body(self):
        # a text longer than the screen scrolls with the cursor
        at = max(0, self.cur - T.WIDTH + 1)
        return ["SET", self.key, str(self.m.store.ledger.config[self.key])[:T.WIDTH],
                "".join(self.chars[at:at + T.WIDTH]), " " * (self.cur - at) + "^",
                "UP/DN char", "NEXT/PREV move", "ROLL=OK CLEAR=no"]


class HistoryScreen(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.i = 0

    def button(self, code):
        n = len(self.m.store.ledger.conf_history)
        if code == B.NEXT and n:
            self.i = (self.i + 1) % n
        elif code == B.PREV and n:
            self.i = (self.i - 1) % n
        else:
            Screen.button(self, code)

    def body(self):
        h = self.m.store.ledger.conf_history
        if not h:
            return ["CONFIG HISTORY", "No changes"]
        self.i = min(self.i, len(h) - 1)
        t, index, old, new = h[-1 - self.i]
        key = C.CONFIG[index][0] if 0 <= index < len(C.CONFIG) else "#%d" % index
        if key in RP.SECRET:
            old = new = "(hidden)"
        out = ["HISTORY %d/%d" % (self.i + 1, len(h)), T.date(t), T.clock(t), key]
        out.extend(T.wrap("old " + old)[:1])
        out.extend(T.wrap("new " + new)[:1])
        while len(out) < ROWS - 1:
            out.append("")
        out.append("NEXT older")
        return out


class ConfigScreen(Screen):
    """Every setting (2 lines each), then Change PIN handling for "pin" and
    the change history."""
    PER = 3

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.cur = 0

    def button(self, code):
        n = len(C.CONFIG) + 1
        if code == B.NEXT:
            self.cur = (self.cur + 1) % n
        elif code == B.PREV:
            self.cur = (self.cur - 1) % n
        elif code == B.ROLL:
            self.edit()
        else:
            Screen.button(self, code)

    def edit(self):
        m = self.m
        if self.cur == len(C.CONFIG):
            m.push(HistoryScreen(m))
            return
        key, default, low, high, money = C.CONFIG[self.cur]
        if key == PIN.KEY:
            change_pin(m)
        elif key == "profile":
            m.push(ChoiceEdit(m, key, list(P.NAMES)))
        elif isinstance(default, str):
            m.push(TextEdit(m, self.cur))
        else:
            m.push(NumberEdit(m, self.cur))

    def body(self):
        cfg = self.m.store.ledger.config
        top = (self.cur // self.PER) * self.PER
        out = ["CONFIG %d/%d" % (self.cur + 1, len(C.CONFIG) + 1)]
        for i in range(top, min(top + self.PER, len(C.CONFIG) + 1)):
            mark = ">" if i == self.cur else " "
            if i == len(C.CONFIG):
                out.extend([mark + "History", ""])
                continue
            key = C.CONFIG[i][0]
            out.append(mark + ("PIN (change)" if key == PIN.KEY else key))
            value = "****" if key == PIN.KEY else RP.config_value(key, cfg[key], cfg)
            out.append(T.right(value[:T.WIDTH]))      # a line of ticket text: its start
        while len(out) < ROWS - 1:
            out.append("")
        out.append("ROLL=edit")
        return out


def change_pin(menu, why="", then=None):
    """A new PIN, entered twice. With `then` (no PIN yet, or a short one)
    the session counts as authorised once it is saved and then() runs."""
    def first(pin):
        if not PIN.valid_pin(pin):
            menu.push(Message(menu, ["PIN NOT CHANGED", "Use %d-%d digits" % (PIN.MIN_LEN, PIN.MAX_LEN)]))
            return

        def second(again):
            if again != pin:
                menu.push(Message(menu, ["PIN NOT CHANGED", "The two entries", "differ"]))
                return
            menu.push(Stretch(menu, menu.guard.new_record(menu.now(), pin), saved, "SAVING PIN"))

        def saved(c):
            code = menu.guard.save(menu.now(), c)
            if code != 0:
                menu.push(Message(menu, ["PIN NOT CHANGED", "store code %d" % code]))
                return
            if then is not None:
                menu.pin_ok = True
                then()
            menu.push(Message(menu, ["PIN CHANGED", "(logged as a", "config change)"]))
        menu.push(PinEntry(menu, "new PIN again", second))
    menu.push(PinEntry(menu, "new PIN", first))
    if why:
        menu.push(Message(menu, [why, "Set a PIN of", "%d-%d digits" % (PIN.MIN_LEN, PIN.MAX_LEN),
                                 "before anything", "else"]))


# ---- attendant -------------------------------------------------------------
class AttendantScreen(Screen):
    """The attendant's actions (firmware/cabinet/attend.py, shared with the
    basic audit): a lockup, ROLL twice resets it; a ticket in doubt (a power
    cut or a printer fault between commit and confirmation), ROLL twice
    reprints it with the same validation number, BET_UP twice pays it by hand."""

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.desk = AT.Desk(menu.store, menu.board)

    def button(self, code):
        out = self.desk.press(code)
        if out:
            self.m.push(Message(self.m, out))
        elif out is None:
            Screen.button(self, code)

    def body(self):
        return ["ATTENDANT"] + self.desk.lines() + ["CLEAR=back"]


# ---- diagnostics -----------------------------------------------------------
class ShakerTest(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.duty = 600
        self.ms = 3000
        self.field = 0
        self.t0 = None
        self.last = 0

    def button(self, code):
        sh = self.m.board.shaker
        if code in (B.NEXT, B.PREV):
            self.field ^= 1
        elif code in (B.BET_UP, B.BET_DOWN):
            s = 1 if code == B.BET_UP else -1
            if self.field == 0:
                self.duty = min(1000, max(100, self.duty + 50 * s))
            else:
                self.ms = min(SHAKE_MAX_MS, max(500, self.ms + 500 * s))
        elif code == B.ROLL:
            if self.t0 is None:
                sh.start(self.duty, 200)
                self.t0 = self.m.now_ms
            else:
                self.stop()
        else:
            Screen.button(self, code)

    def stop(self):
        self.m.board.shaker.stop()
        self.t0 = None

    def leave(self):
        self.stop()

    def tick(self, now_ms):
        if self.t0 is None:
            return False
        sh = self.m.board.shaker
        sh.tick(now_ms)
        clock = self.m.board.clock
        if clock.ticks_diff(now_ms, self.t0) >= self.ms:
            self.stop()
        return True

    def body(self):
        sh = self.m.board.shaker
        left = 0
        if self.t0 is not None:
            left = max(0, self.ms - self.m.board.clock.ticks_diff(self.m.now_ms, self.t0))
        mot = sh.motion()
        return ["SHAKER TEST", ("> " if self.field == 0 else "  ") + "Duty %d" % self.duty,
                ("> " if self.field == 1 else "  ") + "Time %d ms" % self.ms,
                "Now duty %d" % sh.duty, "Left %d ms" % left,
                "Motion %s" % ("-" if mot is None else ("yes" if mot else "no")),
                "RUNNING" if self.t0 is not None else "stopped",
                "ROLL=start/stop"]


class DiceTest(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.val = (0, 0)
        self.reads = 0

    def tick(self, now_ms):
        v = self.m.board.dice.read()
        self.reads += 1
        changed = v != self.val
        self.val = v
        return changed

    def body(self):
        d1, d2 = self.val
        out = ["DICE SENSORS", "D1 %s  D2 %s" % (d1 or "?", d2 or "?")]
        out.extend(T.pips(d1, d2))
        out += ["0/? = unreadable", "reads %d" % self.reads, "CLEAR=back"]
        return out


class ButtonTest(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.last = None
        self.count = 0
        self.armed_exit = False

    def button(self, code):
        self.last = code
        self.count += 1
        if code == B.CLEAR:
            if self.armed_exit:
                self.m.pop()
            self.armed_exit = True
        else:
            self.armed_exit = False

    def body(self):
        name = B.names.get(self.last, "-") if self.last is not None else "-"
        held = self.m.board.buttons.held()
        return ["BUTTON TEST", "Last:", "  " + name, "Code %s" % ("-" if self.last is None else self.last),
                "Presses %d" % self.count, "Held %03x" % held,
                "CLEAR again=exit" if self.armed_exit else "", "CLEAR x2 = back"]


class LampTest(Screen):
    STEPS = (1, 2, 4, 8, 15, 0)
    NAMES = ("RED", "AMBER", "GREEN", "WHITE", "ALL", "OFF")

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.i = 0
        self.auto = True
        self.t = None
        self.m.board.lamps.set(self.STEPS[0])

    def _show(self):
        self.m.board.lamps.set(self.STEPS[self.i])

    def button(self, code):
        if code in (B.NEXT, B.PREV):
            self.i = (self.i + (1 if code == B.NEXT else -1)) % len(self.STEPS)
            self._show()
        elif code == B.ROLL:
            self.auto = not self.auto
        else:
            Screen.button(self, code)

    def tick(self, now_ms):
        if self.t is None:
            self.t = now_ms
        if self.auto and self.m.board.clock.ticks_diff(now_ms, self.t) >= LAMP_STEP_MS:
            self.t = now_ms
            self.i = (self.i + 1) % len(self.STEPS)
            self._show()
            return True
        return False

    def leave(self):
        self.m.restore_lamps()

    def body(self):
        return ["LAMP TEST", "Lit: " + self.NAMES[self.i], "Auto %s" % ("on" if self.auto else "off"),
                "", "NEXT/PREV step", "ROLL=auto on/off", "", "CLEAR=back"]


class DisplayTest(Screen):
    NAMES = ("checker", "checker inv", "all on", "all off", "border")

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.i = 0

    def button(self, code):
        if code in (B.NEXT, B.PREV, B.ROLL):
            self.i = (self.i + (-1 if code == B.PREV else 1)) % len(self.NAMES)
        else:
            Screen.button(self, code)

    def draw(self, d):
        w, h = d.width, d.height
        if self.i < 2:
            d.fill(0)
            for y in range(0, h, 8):
                for x in range(0, w, 8):
                    if ((x + y) // 8 + self.i) % 2:
                        d.fill_rect(x, y, 8, 8, 1)
        elif self.i == 2:
            d.fill(1)
        elif self.i == 3:
            d.fill(0)
        else:
            d.fill(0)
            d.rect(0, 0, w, h, 1)

    def body(self):
        return ["DISPLAY TEST", "Pattern:", self.NAMES[self.i], "", "NEXT=pattern", "", "", "CLEAR=back"]


class SwitchTest(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.vals = None

    def _read(self):
        b = self.m.board
        return (b.door.value(), b.audit_key.value(), b.tilt.value(), _switch(b, "logic_door"),
                _switch(b, "cashbox_door"))

    def tick(self, now_ms):
        v = self._read()
        changed = v != self.vals
        self.vals = v
        return changed

    def body(self):
        vals = self.vals
        if vals is None:
            vals = self.vals = self._read()
        door, key, tilt, logic, cashbox = vals
        return ["SWITCHES", "Door  " + ("OPEN" if door else "closed"),
                "Audit key " + ("ON" if key else "off"), "Tilt  " + ("TILTED" if tilt else "ok"),
                "Logic " + _door_text(logic), "Cash box " + _door_text(cashbox), "",
                "CLEAR=back"]


def _switch(board, name):
    """A door switch the board may not have: None then."""
    sw = getattr(board, name, None)
    return None if sw is None else sw.value()


def _door_text(v):
    return "none" if v is None else "OPEN" if v else "closed"


class MoneyTest(Screen):
    """Pulse deltas since the page opened. NOT credited (see Menu contract)."""

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.base = menu.board.money.counts()
        self.now = self.base

    def button(self, code):
        money = self.m.board.money
        if code == B.ROLL:
            money.inhibit(not money.inhibited)
        elif code == B.NEXT:
            self.base = money.counts()
        else:
            Screen.button(self, code)

    def leave(self):
        self.m.board.money.inhibit(True)

    def tick(self, now_ms):
        c = self.m.board.money.counts()
        changed = c != self.now
        self.now = c
        return changed

    def body(self):
        money = self.m.board.money
        return ["MONEY PULSES", "NOT CREDITED",
                T.pair("Bill pulses", self.now[0] - self.base[0]),
                T.pair("Coin pulses", self.now[1] - self.base[1]),
                "Accept " + ("OFF" if money.inhibited else "ON"),
                "ROLL=accept", "NEXT=zero", "CLEAR=back"]


# ---- RAM clear ---------------------------------------------------------------
class RamClear(Screen):
    """Arm with CHIP, ODDS, REBET (in order, within 10 s), then ROLL to
    confirm. Meters are printed before and after when the printer is ready."""

    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.arm = AT.Arming()
        self.erased = -1       # sectors erased so far, once confirmed (critical store)

    def blocked(self):
        st = self.m.store
        return not st.critical and st.ledger.money_on_table()

    def button(self, code):
        m = self.m
        if self.erased >= 0:
            return  # erasing: the clear finishes first
        if code == B.CLEAR:
            m.pop()
            return
        if self.blocked():
            return
        if self.arm.press(code, m.now_ms):
            self.erased = 0  # tick() goes on from the next loop pass

    def tick(self, now_ms):
        if self.erased < 0:
            return self.arm.tick(now_ms)
        # a critical journal is erased a sector a loop pass (watchdog)
        if AT.clear_step(self.m.store):
            self.erased += 1
        else:
            self.erased = -1
            self.do_clear()
        return True

    def do_clear(self):
        m = self.m
        now = m.now()
        printer = m.board.printer
        before = printer.print_ticket(RP.ticket_lines(m.store, m.identity, "RAM CLEAR - BEFORE", now))
        m.store.ram_clear(now)
        after = printer.print_ticket(RP.ticket_lines(m.store, m.identity, "RAM CLEAR - AFTER", now))
        m.pop()
        m.push(Message(m, ["RAM CLEARED", "Meters 0, config", "and PIN cleared",
                           "PLAY LOCKED:", "set a new PIN",
                           "Tickets: %s" % ("printed" if before and after else "NO PRINT"),
                           "Logged RAM clear"]))

    def body(self):
        if self.erased >= 0:
            return ["RAM CLEAR", "ERASING", "sector %d" % self.erased, "please wait"]
        if self.blocked():
            return ["RAM CLEAR", "REFUSED:", "credits or bets", "on the station.", "Cash out or",
                    "settle first.", "", "CLEAR=back"]
        if self.arm.armed():
            return ["RAM CLEAR", "ARMED", "ERASES ALL", "meters, credits", "recall, config",
                    "ROLL = CLEAR NOW", "other = disarm", "CLEAR=cancel"]
        names = [B.names[c] for c in SEQUENCE]
        return ["RAM CLEAR", "ERASES ALL DATA", "To arm press:", " ".join(names[:2]),
                names[2], "done %d/%d" % (self.arm.step, len(SEQUENCE)), "", "CLEAR=cancel"]


# ---- software verification ---------------------------------------------------
class VerifyScreen(Screen):
    def __init__(self, menu):
        Screen.__init__(self, menu)
        self.d = for_board(menu.root)

    def button(self, code):
        if code == B.ROLL and self.d.finished():
            self.d = for_board(self.m.root)
        else:
            Screen.button(self, code)

    def tick(self, now_ms):
        if self.d.finished():
            return False
        self.d.step(DIGEST_CHUNKS)
        return True

    def body(self):
        d = self.d
        if d.state == DONE:
            h = d.hexdigest
            if d.extras:  # not installed by the release: the technician must see it
                return ["SHA-256 VERIFY", h[0:16], h[16:32], h[32:48], h[48:64],
                        "EXTRA FILES %d" % len(d.extras), d.extras[0][-16:], "ROLL=recompute"]
            return ["SHA-256 VERIFY", h[0:16], h[16:32], h[32:48], h[48:64],
                    "%d files" % len(d.files), "%d bytes" % d.total, "ROLL=recompute"]
        if d.finished():
            return ["SHA-256 VERIFY", "FAILED"] + T.wrap(d.error)[:4] + ["", "ROLL=retry"]
        return ["SHA-256 VERIFY", "computing...", "%d%%" % d.percent(),
                "file %d/%d" % (d.index, len(d.files)), "", "", "", "CLEAR=back"]


# ---- the menu ------------------------------------------------------------------
class Menu:
    def __init__(self, store, board, identity, root="."):
        self.store = store
        self.board = board
        self.identity = identity
        self.root = root
        self.active = True
        self.pin_ok = False
        self.guard = PIN.PinGuard(store, board.clock)
        self.now_ms = board.clock.ticks_ms()
        self.overflow = 0  # lines cut to fit (should stay 0)
        self._lamps = board.lamps.state
        self._dirty = True
        board.money.inhibit(True)
        self.stack = []
        self.push(self._main())

    def _main(self):
        def open_(cls):
            return lambda: self.push(cls(self))

        def diag():
            self.push(ListScreen(self, "DIAGNOSTICS", [
                ("Shaker", open_(ShakerTest)), ("Dice sensors", open_(DiceTest)),
                ("Buttons", open_(ButtonTest)), ("Lamps", open_(LampTest)),
                ("Display", open_(DisplayTest)), ("Switches", open_(SwitchTest)),
                ("Money pulses", open_(MoneyTest))]))

        return ListScreen(self, "AUDIT MENU", [
            ("Meters", open_(MetersScreen)),
            ("Game recall", open_(RecallScreen)),
            ("Event log", open_(EventsScreen)),
            ("Config (PIN)", lambda: pin_gate(self, "Config", open_(ConfigScreen))),
            ("Attendant", open_(AttendantScreen)),
            ("Diagnostics", diag),
            ("RAM clear (PIN)", lambda: pin_gate(self, "RAM clear", open_(RamClear), True)),
            ("Verify software", open_(VerifyScreen)),
            ("Last bills", open_(BillsScreen)),
            ("Clock (PIN)", lambda: pin_gate(self, "Clock", open_(ClockScreen))),
            ("Exit", self.close),
        ], can_back=False)

    # stack ------------------------------------------------------------------
    def push(self, screen):
        self.stack.append(screen)
        self._dirty = True

    def pop(self):
        if len(self.stack) > 1:
            self.stack.pop().leave()
        self._dirty = True

    def top(self):
        return self.stack[-1]

    def now(self):
        return self.board.clock.now()

    def restore_lamps(self):
        self.board.lamps.set(self._lamps)

    # controller interface --------------------------------------------------
    def on_button(self, code, now_ms):
        if not self.active:
            return
        self.now_ms = now_ms
        self.last_button = code
        self.top().button(code)
        self._dirty = True

    def tick(self, now_ms):
        if not self.active:
            return
        self.now_ms = now_ms
        if self.top().tick(now_ms):
            self._dirty = True

    def close(self):
        """Exit: stops the tests, restores the lamps, money stays inhibited."""
        while len(self.stack) > 1:
            self.stack.pop().leave()
        self.board.shaker.stop()
        self.restore_lamps()
        self.board.money.inhibit(True)
        self.active = False
        self._dirty = True

    def lines(self):
        if not self.active:
            return ["AUDIT CLOSED"] + [""] * (ROWS - 1)
        out = []
        for line in self.top().body()[:ROWS]:
            line = "" if line is None else str(line)
            if len(line) > COLS:
                self.overflow += 1
                line = line[:COLS]
            out.append(line)
        while len(out) < ROWS:
            out.append("")
        return out

    def render(self, display=None, force=False):
        """Draws the current screen if it changed; True if drawn."""
        if not (self._dirty or force):
            return False
        d = display or self.board.display
        top = self.top()
        draw = getattr(top, "draw", None)
        if self.active and draw is not None:
            draw(d)
        else:
            d.fill(0)
            y = 0
            for line in self.lines():
                d.text(line, 0, y, 1)
                y += 8
        d.show()
        self._dirty = False
        return True
