"""Keyboard for the mock board: non-blocking terminal input (termios + select).

Works on the MicroPython unix port and CPython. Arrow keys arrive as ESC [ A..D.
"""
import sys

import select

from hal import buttons as B
from hal.printer import FAULT, OK, PAPER_OUT

# key -> ("b", button code) | ("bill", pulses) | ("coin", pulses) | ("sw", name) | ("x", name)
KEYMAP = {
    "n": ("b", B.NEXT), "RIGHT": ("b", B.NEXT),
    "p": ("b", B.PREV), "LEFT": ("b", B.PREV),
    "c": ("b", B.CHIP),
    "+": ("b", B.BET_UP), "=": ("b", B.BET_UP), "UP": ("b", B.BET_UP),
    "-": ("b", B.BET_DOWN), "DOWN": ("b", B.BET_DOWN),
    "o": ("b", B.ONOFF),
    "d": ("b", B.ODDS),
    "r": ("b", B.REBET),
    "x": ("b", B.CLEAR),
    " ": ("b", B.ROLL),
    "q": ("b", B.CASHOUT),
    "h": ("b", B.HELP),
    "l": ("b", B.LINE), "e": ("b", B.COME), "a": ("b", B.PLACE),
    "w": ("b", B.HARD), "f": ("b", B.PROPS), "b": ("b", B.BONUS),
    "u": ("b", B.NUMBER), "y": ("b", B.MYBETS),
    "1": ("bill", 1), "5": ("bill", 5), "0": ("bill", 10), "2": ("bill", 20),
    "m": ("coin", 1),
    "k": ("sw", "audit_key"),
    "D": ("sw", "door"),
    "L": ("sw", "logic_door"),
    "S": ("sw", "cashbox_door"),
    "t": ("sw", "tilt"),
    "P": ("x", "paper"),
    "F": ("x", "fault"),
    "M": ("x", "motor"),
}
_ARROWS = {"A": "UP", "B": "DOWN", "C": "RIGHT", "D": "LEFT"}
_ICANON = 0x2  # Linux termios lflag bits (MicroPython's termios has no names)
_ECHO = 0x8

try:
    from os import read as _os_read

    def _read1():
        return _os_read(0, 1)

except ImportError:  # MicroPython unix

    def _read1():
        return sys.stdin.buffer.read(1)


# the player's keys, then the cabinet's (money, switches, devices); SIDE_KEYS
# is the second in short, for the column beside the simulator's picture
PLAYER_KEYS = ("keys: groups l LINE(4) e COME(5) a PLACE(6) w HARD(8) f PROPS(9) b BONUS(10), "
               "u NUMBER then a group key (its box number; a second key: a hop), "
               "n/p or arrows NEXT/PREV, + add the STAKE shown, - take one off (no bet: "
               "smaller stake), c CHIP bigger stake (u then c: smaller), d ODDS, o ONOFF, "
               "y MYBETS, r REBET, x CLEAR, space ROLL, q CASHOUT, h HELP")
CABINET_KEYS = ("1/5/0/2 bill $1/$5/$10/$20, m coin, "
                "k key, D door, L logic door, S cash box door, t tilt, P paper out, "
                "F printer fault, M motor failure")
SIDE_KEYS = ("1 5 0 2 bills", "m coin  k key", "D L S doors", "t tilt M motor",
             "P paper F fault")


def help_text():
    return PLAYER_KEYS + ", " + CABINET_KEYS


def draw_display(disp):
    """Redraw the mock display at the top-left of the terminal."""
    sys.stdout.write("\x1b[H" + disp.to_text("braille").replace("\n", "\r\n") + "\r\n")


class Keyboard:
    def __init__(self, board, fd=0):
        self.board = board
        self.fd = fd
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._saved = None
        self.unknown = 0
        try:
            import termios

            self._termios = termios
            self._saved = termios.tcgetattr(fd)
            attr = list(termios.tcgetattr(fd))
            attr[3] &= ~(_ICANON | _ECHO)
            termios.tcsetattr(fd, termios.TCSANOW, attr)
        except Exception:  # no termios, or stdin is not a terminal (termios.error on CPython)
            self._saved = None  # keys are still read from the pipe

    def close(self):
        if self._saved is not None:
            self._termios.tcsetattr(self.fd, self._termios.TCSANOW, self._saved)
            self._saved = None

    def _ready(self, ms):
        return bool(self._poll.poll(ms))

    def _next_key(self):
        ch = _read1()
        if not ch:
            return None
        ch = chr(ch[0])
        if ch == "\x1b" and self._ready(20):
            if chr(_read1()[0]) == "[" and self._ready(20):
                return _ARROWS.get(chr(_read1()[0]))
            return None
        return ch

    def pump(self):
        """Apply every key waiting on stdin. Returns how many were read."""
        n = 0
        while self._ready(0):
            key = self._next_key()
            n += 1
            if key is None:
                if n > 64:
                    break
                continue
            self.apply(key)
        return n

    def apply(self, key):
        ok = apply_key(self.board, key)
        if not ok:
            self.unknown += 1
        return ok


def apply_key(b, key):
    """Do what `key` (a KEYMAP key) does on board `b`. False if unmapped."""
    act = KEYMAP.get(key)
    if act is None:
        return False
    kind, arg = act
    if kind == "b":
        b.buttons.press(arg)
    elif kind == "bill":
        b.insert_bill(arg)  # through the escrow validator when the board has one
    elif kind == "coin":
        b.money.insert_coin(arg)
    elif kind == "sw":
        getattr(b, arg).toggle()
    elif arg == "paper":
        p = b.printer
        p.status_value = OK if p.status_value == PAPER_OUT else PAPER_OUT
    elif arg == "fault":
        p = b.printer
        p.status_value = OK if p.status_value == FAULT else FAULT
    elif arg == "motor":
        b.dome.motor_fail = not b.dome.motor_fail
    return True
