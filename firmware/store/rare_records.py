"""The ledger's reducers for the records play seldom writes: a void or a
re-shake, a lock and its reset, an event (doors, tilt, audit key, host
enable), a setting, a power-up, the validation ID. Ledger.apply loads this
module when it meets one and lets it go again (the boot's replay keeps it
until the replay is over), so play does not hold their code (issue 12: the
whole firmware with SAS in a 192K heap). Pure like the ledger: every
function takes it, the record's time, its fields and its tail.
"""
from micropython import const
from firmware.rules import reasons as R
from firmware.rules.table import Table
from firmware.store import records as T
from firmware.store import events as E
from firmware.store import config as C
from firmware.store import ledger as L
from firmware.store.recall import encode_game, VOIDED

_CONFIG_HISTORY = const(32)     # settings changes kept (time, index, old, new)


def parse(key, text):
    """(ok, value) for a setting given as text; checks type and range."""
    i = C.INDEX.get(key)
    if i is None:
        return False, "unknown setting"
    name, default, low, high, money = C.CONFIG[i]
    if isinstance(default, str):
        if not 1 <= len(text) <= high or not all(32 < ord(ch) < 127 for ch in text):
            return False, "1-%d printable characters" % high
        return True, text
    try:
        value = int(text)
    except ValueError:
        return False, "a whole number"
    if not low <= value <= high:
        return False, "between %d and %d" % (low, high)
    return True, value


def void(led, time, f, data):
    if led.phase != L.CLOSED:
        return R.BETS_CLOSED
    before = led.table.credits
    returned = led.table.return_fresh()
    led.meters.add("returned", led.table.credits - before)
    led.meters.add("voided")
    led.game_no += 1
    bets = [(k, n, res, a, p) for k, n, a, res, p, v, d, u in returned]
    led.recall.add(encode_game(led.game_no, time, 0, 0, led.table.point,
                                led.table.point, led.rerolls, VOIDED,
                                led.credits_at_close, led.table.credits, bets))
    led.events.log(time, E.VOID, f[0])
    led.last_game = list(returned)
    led._end_game()
    return R.OK


def reroll(led, time, f, data):
    if led.phase != L.CLOSED:
        return R.BETS_CLOSED
    why = f[0]
    led.rerolls += 1
    if why == E.COCKED:
        led.cocked_run += 1
        led.meters.add("cocked")
    else:
        led.stuck_run += 1
        led.meters.add("stuck")
    led.events.log(time, why, led.rerolls)
    return R.OK


def reset(led, time, f, data):
    if not led.lock:
        return R.NO_BET
    if led.ticket:
        return R.LOCKED  # only a reprint or a handpay settles a ticket in doubt
    was = led.lock
    led.lock = L.LK_NONE
    led.lock_arg = 0
    led.cocked_run = 0
    led.stuck_run = 0
    led.events.log(time, E.HANDPAY_RESET if was in (L.LK_HANDPAY, L.LK_JACKPOT) else E.FAULT_CLEAR, was)
    return R.OK


def lock(led, time, f, data):
    code, arg = f
    if not 0 < code < len(L.LOCK_NAMES):
        return L.BAD_RECORD
    event = {L.LK_MALFUNCTION: E.MALFUNCTION, L.LK_SHAKER: E.SHAKER_FAULT,
             L.LK_PRINTER: E.PRINTER_FAULT, L.LK_DEVICE: E.DEVICE_FAULT,
             L.LK_DOUBT: E.TICKET_DOUBT}.get(code, E.MALFUNCTION)
    if code == L.LK_DOUBT:
        led.meters.add("tickets_doubt")
    led._set_lock(time, code, arg, event)
    return R.OK


def event(led, time, f, data):
    code, arg = f
    m = led.meters
    if code == E.DOOR_OPEN:
        led.door_open = True
        m.add("door_opens")
    elif code == E.DOOR_CLOSE:
        led.door_open = False
        m.set("games_door", 0)
    elif code == E.TILT:
        led.tilt = True
        m.add("tilts")
    elif code == E.TILT_CLEAR:
        led.tilt = False
    elif code == E.AUDIT_ON:
        led.audit = True
    elif code == E.AUDIT_OFF:
        led.audit = False
    elif code == E.CASHBOX_OPEN:
        m.add("cashbox_opens")
        m.set("cashbox", 0)   # the stacker is emptied: a drop
        led.host |= L.CASHBOX_DOOR
    elif code == E.RAM_CLEAR:
        led.host |= L.NEED_PIN   # the default PIN is known to everybody
    elif code == E.LOGIC_OPEN:
        m.add("logic_opens")
        led.host |= L.LOGIC_DOOR
    elif code == E.HOST_OFF:
        led.host |= arg & (L.HOST_OFF | L.BILLS_OFF)
    elif code == E.HOST_ON:
        led.host &= ~arg
    elif code == E.LOGIC_CLOSE:
        led.host &= ~L.LOGIC_DOOR
    elif code == E.CASHBOX_CLOSE:
        led.host &= ~L.CASHBOX_DOOR
    elif not 0 < code < E.COUNT:
        return L.BAD_RECORD
    led.events.log(time, code, arg)
    return R.OK


def config(led, time, f, data):
    index = f[0]
    if index >= len(C.CONFIG):
        return L.BAD_RECORD
    key, default, low, high, money = C.CONFIG[index]
    try:
        text = data.decode()
    except Exception:
        return L.BAD_SETTING
    ok, value = parse(key, text)
    if not ok or (key == "profile" and value not in L.profile_documents().PROFILES):
        led.last_error = value if not ok else "unknown profile"
        return L.BAD_SETTING
    if money and led.money_on_table():
        return L.MONEY_ON_TABLE
    old = str(led.config[key])
    led.config[key] = value
    if key == "pin":
        led.host &= ~L.NEED_PIN
    if key in ("profile", "odds_mult", "min_bet", "max_bet"):
        state = led.table.encode()
        led.table = Table(led._profile())
        led.table.load(state)
    led.conf_history.append((time, index, old, text))
    if len(led.conf_history) > _CONFIG_HISTORY:
        led.conf_history.pop(0)
    led.events.log(time, E.CONFIG, index)
    return R.OK


def valid_id(led, time, f, data):
    vid, seq = f
    if not (0 <= vid < 1 << 24 and 0 <= seq < 1 << 24):
        return L.BAD_RECORD
    led.val_id = vid
    led.val_seq = seq
    return R.OK


def power(led, time, f, data):
    led.meters.add("power_ups")
    led.meters.set("games_power", 0)
    led.events.log(time, E.POWER_UP)
    return R.OK


APPLY = {
    T.VOID: void, T.REROLL: reroll, T.RESET: reset, T.LOCK: lock, T.EVENT: event,
    T.CONFIG: config, T.VALID_ID: valid_id, T.POWER: power,
}
