"""The multi-seat simulator's terminal view (tools/sim --seats N without a
script): the dome and every station's screen side by side, paced to real
time. Keys go to the selected station (TAB or its number 1-8 selects it,
`*` the dome); the cabinet's key map (hal/mock/keys.py) applies: space is
ROLL, + BET_UP, 2 a $20 note... At the dome: D its door, t tilt, k the
attendant's reset key. Ctrl-C quits; every node's flash is kept in --flash.
"""
import os
import select
import sys
import termios
import time
import tty

from hal.mock.keys import KEYMAP
from hal import buttons as B

_SWITCH = {"audit_key": "key", "door": "door", "tilt": "tilt", "logic_door": "logic",
           "cashbox_door": "cashbox"}


def panels(tb, selected):
    """The screens as text panels (title, 8 lines of 16), dome first."""
    out = []
    for who in ["dome"] + tb.seats():
        n = tb.node(who)
        title = "DOME" if who == "dome" else "SEAT %d" % who
        if who == selected:
            title = "[" + title + "]"
        lines = tb.command(who, "screen") if n.up else ["(off)"]
        status = tb.command(who, "status")[0] if n.up else ""
        out.append((title, (lines + [""] * 8)[:8], status))
    return out


def render(tb, selected, width=4):
    ps = panels(tb, selected)
    rows = []
    for i in range(0, len(ps), width):
        group = ps[i:i + width]
        rows.append("  ".join("%-18s" % p[0] for p in group))
        for k in range(8):
            rows.append("  ".join("|%-16s|" % p[1][k][:16] for p in group))
        rows.append("")
    rows.append("time %d.%03d s  bus: %d frames, %d collisions, load %.1f %%" % (
        tb.ms // 1000, tb.ms % 1000, tb.frames, tb.collisions,
        100.0 * tb.busy_us / max(1, tb.ms * 1000)))
    for who in ["dome"] + tb.seats():
        rows.append("%-8s %s" % ("dome" if who == "dome" else "seat %d" % who,
                                 ps[(["dome"] + tb.seats()).index(who)][2]))
    rows.append("TAB/1-8 select a station, * the dome; keys as tools/sim (space ROLL, + BET, "
                "2 $20 ...); Ctrl-C quits")
    return "\n".join(rows)


def key(tb, selected, ch):
    """One key for the selected node; returns the new selection."""
    seats = tb.seats()
    if ch == "\t":
        order = ["dome"] + seats
        return order[(order.index(selected) + 1) % len(order)]
    if ch == "*":
        return "dome"
    if selected == "dome":
        if ch in ("D", "t", "k"):
            tb.command("dome", {"D": "door", "t": "tilt", "k": "key"}[ch])
        return selected
    if ch.isdigit() and int(ch) in seats and ch not in ("1", "5", "0", "2"):
        return int(ch)
    act = KEYMAP.get(ch)
    if act is None:
        return selected
    kind, arg = act
    if kind == "b":
        tb.command(selected, "press " + B.names[arg])
    elif kind in ("bill", "coin"):
        tb.command(selected, "%s %d" % (kind, arg))
    elif kind == "sw" and arg in _SWITCH:
        tb.command(selected, _SWITCH[arg])
    return selected


def interactive(tb):
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    selected = tb.seats()[0]
    try:
        tty.setcbreak(fd)
        t0 = time.time()
        shown = 0.0
        while True:
            # the table's time follows the wall clock
            behind = int((time.time() - t0) * 1000) - tb.ms
            if behind > 0:
                tb.step(min(behind, 50))
            if select.select([sys.stdin], [], [], 0)[0]:
                selected = key(tb, selected, os.read(fd, 1).decode(errors="replace"))
                shown = 0
            if time.time() - shown > 0.3:
                shown = time.time()
                sys.stdout.write("\x1b[H\x1b[2J" + render(tb, selected) + "\n")
                sys.stdout.flush()
    except KeyboardInterrupt:
        return 0
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
