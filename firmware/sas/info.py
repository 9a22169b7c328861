"""The long polls a floor integrator sends first, to learn what the machine
is: 1F gaming machine information, 53 game N configuration, 54 SAS version
and serial number, A0 enabled features, 51/55/56 the games (a single-game
machine: game 0001, and game 0000 is the machine). Each handler takes the
Sas, the frame and its length and returns the length of the answer it
built in sas.reply (0: no answer)."""
from micropython import const
from firmware.sas import wire

_SAS_VERSION = const(b"602")
# Table C-4 denomination code of the accounting denomination, $0.01: the
# meters are in cents (firmware/sas/meters.py)
_DENOM_CENT = const(0x01)
GAME = const(1)          # the one game's number; 0000 is the machine

# A0 feature codes (Tables 7.14c-f): 1, validation extensions 7B/7C/7D
# (bit 4), validation style 10 (secure enhanced, bits 5-6) and ticket
# redemption (bit 7); 2, meter model 01 (won credits metered when won),
# tickets counted in the drop and cancelled credits (bit 2), extended
# meters 6F/AF (bit 3), AFT (bit 6); 3 and 4: none
FEATURES = const(b"\xd0\x4d\x00\x00")


def game_of(f, at):
    """The game a poll names in BCD at f[at:at + 2], or -1 when it is not
    this machine (0000) or its one game."""
    g = wire.get_bcd(f, at, 2)
    return g if g in (0, GAME) else -1


def machine(sas, f, n):
    """1F gaming machine ID and information (7.10); 53 the same for game N
    (the machine or its one game)."""
    cmd = f[1]
    o = sas.reply
    k = sas.head(cmd)
    if cmd == 0x53:
        g = game_of(f, 2)
        if g < 0:
            return 0                           # no such game: ignored
        k = wire.put_bcd(o, k, g, 2)
    cfg = sas.ctl.store.ledger.config
    o[k:k + 2] = b"BC"                         # game ID "BC" (BubbleCraps)
    o[k + 2:k + 5] = sas.sas_id                # additional ID: the firmware version
    k += 5
    o[k] = _DENOM_CENT
    # max_bet is in dollars like every limit; SAS wants credits (cents), FF over 255
    o[k + 1] = min(255, cfg["max_bet"] * 100) if cfg["max_bet"] else 255
    o[k + 2] = 0                               # progressive group: none
    o[k + 3] = 0
    o[k + 4] = 0                               # game options
    k += 5
    name = cfg["profile"][:6].upper().encode()
    for i in range(6):                         # paytable ID: the rule profile, blank-padded
        o[k + i] = name[i] if i < len(name) else 0x20
    k += 6
    o[k:k + 4] = b"0000"                       # base %: not one figure for craps
    return sas.tail(k + 4)


def version(sas, f, n):
    """54 SAS version and gaming machine serial number."""
    serial = sas.serial
    o = sas.reply
    k = sas.head(0x54)
    o[k] = 3 + len(serial)
    o[k + 1:k + 4] = _SAS_VERSION
    k += 4
    o[k:k + len(serial)] = serial
    return sas.tail(k + len(serial))


def features(sas, f, n):
    """A0 enabled features of the machine or its game."""
    g = game_of(f, 2)
    if g < 0:
        return 0
    o = sas.reply
    k = wire.put_bcd(o, sas.head(0xA0), g, 2)
    o[k:k + 4] = FEATURES
    o[k + 4] = o[k + 5] = 0                    # reserved
    return sas.tail(k + 6)


def games(sas, f, n):
    """51 number of games implemented (1), 55 selected game (0001), 56
    enabled games (one: 0001)."""
    cmd = f[1]
    o = sas.reply
    k = sas.head(cmd)
    if cmd == 0x56:
        o[k] = 3                               # the bytes that follow
        o[k + 1] = 1
        k += 2
    return sas.tail(wire.put_bcd(o, k, GAME, 2))
