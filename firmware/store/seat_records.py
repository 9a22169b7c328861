"""A player station's records at a table (firmware/link/LINK.md): a round's
bets are closed under the table's round number and settled by the dice the
dome journalled for that number, exactly once; a round the station was not
counted in leaves its bets for the next. Imported by a station before its
store boots (a stand-alone cabinet never loads it): importing it adds the
record types to firmware/store/records.py and their reducers to the
ledger's. Payloads as the other records: type u8 | time u32 | fields.
"""
from micropython import const
from firmware.rules import reasons as R
from firmware.rules import wagers as W
from firmware.rules import pays as P
from firmware.store import records as T
from firmware.store import ledger as L
from firmware.store.meters import WON_BASE

# after records.py's own types (the newest: TICKET_IN = 21)
TCLOSE = const(22)    # round, table id: this station's bets are in that round
TROLL = const(23)     # round, d1, d2, re-shakes, shooter turn, new shooter: its result
TVOID = const(24)     # round, why (firmware/link/messages.py): its bets come back
TOUT = const(25)      # round: the dome did not count this station in; the bets stay
TSHOOTER = const(26)  # shooter turn, new shooter: the dice passed between rounds


def close(led, time, f, data):
    n, tid = f
    if led.phase != L.BETTING or (tid == led.tid and n <= led.round):
        return R.BETS_CLOSED      # open already, or an old round's close again
    code = led.apply(T.pack(T.CLOSE, time))
    if code == R.OK:
        led.round = n
        led.tid = tid
    return code


def _open(led, n):
    return led.phase == L.CLOSED and n == led.round


def roll(led, time, f, data):
    n, d1, d2, rerolls, turn, fresh = f
    if not _open(led, n):
        return R.BETS_CLOSED      # settled already, or never in it
    before = led.game_no
    led.game_no = n - 1           # a station's game number is the table's round
    code = led.apply(T.pack(T.ROLL, time, d1, d2, rerolls))
    if code != R.OK:
        led.game_no = before
        return code
    _follow(led, turn, fresh)
    return R.OK


def void(led, time, f, data):
    n, why = f
    if not _open(led, n):
        return R.BETS_CLOSED
    before = led.game_no
    led.game_no = n - 1
    code = led.apply(T.pack(T.VOID, time, why))
    if code != R.OK:
        led.game_no = before
    return code


def out(led, time, f, data):
    if not _open(led, f[0]):
        return R.BETS_CLOSED
    led.phase = L.BETTING         # sat out: the same bets wait for the next round
    return R.OK


def shooter(led, time, f, data):
    if led.phase != L.BETTING:
        return R.BETS_CLOSED
    _follow(led, f[0], f[1])
    return R.OK


def _follow(led, turn, fresh):
    """The dome's shooter: a new turn ends the last shooter's Sharp Shooter
    bets this layout still holds; Sharp Shooter may be bet while the
    shooter has not rolled."""
    t = led.table
    if turn != led.turn:
        m = led.meters
        for k, a, paid in end_turn(t):
            if paid:
                m.add("won", paid)
                m.add(WON_BASE + k, paid)
        led.turn = turn
    t.new_shooter = bool(fresh)


def end_turn(table):
    """The shooter's turn ended with no seven-out this layout saw (the dice
    passed on the idle time, or this station sat out the seven-out): its
    Sharp Shooter bets are decided by the points that shooter made (004's
    return table), as at a seven-out. (kind, amount, paid) of each."""
    out = []
    for bet in list(table.bets):          # [kind, number, amount, flags, points made, fresh]
        if bet[0] != W.SHARP_SHOOTER:
            continue
        a = bet[2]
        paid = 0
        for made, pays in P.SHARP_PAYS:
            if bet[4] >= made:
                paid = a * pays + a
                break
        table.credits += paid
        table.staked -= a
        table.bets.remove(bet)
        out.append((bet[0], a, paid))
    return out


_FORMATS = {TCLOSE: "<BIII", TROLL: "<BIIBBBHB", TVOID: "<BIIB", TOUT: "<BII",
            TSHOOTER: "<BIHB"}
for _t in _FORMATS:
    if T._FMT.get(_t, _FORMATS[_t]) != _FORMATS[_t]:
        raise ImportError("record type %d is taken in records.py" % _t)
T._FMT.update(_FORMATS)
L._APPLY.update({TCLOSE: close, TROLL: roll, TVOID: void, TOUT: out, TSHOOTER: shooter})
