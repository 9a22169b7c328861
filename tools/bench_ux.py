"""Presses a player needs for typical bets, on the real cabinet (CPython).

    .venv/bin/python tools/bench_ux.py [--root DIR] [--markdown]

For each row a fresh cabinet (mock board, fake clock) starts on the betting
screen with the power-up selection and chip 1. For every bet of the row the
fewest presses are found by breadth-first search over the real Player's key
handling (the navigation keys the firmware has: NEXT/PREV, and the group keys
and NUMBER where they exist), then the fewest CHIP / BET_UP (or ODDS)
presses for the amount; the presses are then made on the cabinet and the
bet is checked on the table, so a count is never claimed for a bet that was
not placed. `--root` runs the same rows against another checkout (to compare
with an older firmware). docs/BENCHMARKS.md holds the current counts.
"""
import os
import sys

ROWS = (
    # (title, profile, [(wager name, number, amount)], setup)
    ("pass line $5 + odds $5", "etg", [("pass", 0, 5), ("pass_odds", 4, 5)], "point4"),
    ("$6 place 6 and 8", "etg", [("place", 6, 6), ("place", 8, 6)], ""),
    ("$22 inside (5, 6, 8, 9)", "etg",
     [("place", 5, 5), ("place", 6, 6), ("place", 8, 6), ("place", 9, 5)], ""),
    ("hard 8 $1", "etg", [("hard", 8, 1)], ""),
    ("field $1", "etg", [("field", 0, 1)], ""),
    ("C&E $2", "etg", [("c_e", 0, 2)], ""),
    ("hop 2-4 $1", "etg", [("hop", 24, 1)], ""),
    ("Lucky Roller (all) $1", "etg", [("lucky_all", 0, 1)], ""),
    ("14 one-credit bets: pass, don't pass, place 4, field, any 7, any craps, "
     "2, 3, 11, 12, hard 4, 6, 8, 10", "table",
     [("pass", 0, 1), ("dont_pass", 0, 1), ("place", 4, 1), ("field", 0, 1),
      ("any7", 0, 1), ("any_craps", 0, 1), ("two", 0, 1), ("three", 0, 1),
      ("eleven", 0, 1), ("twelve", 0, 1), ("hard", 4, 1), ("hard", 6, 1),
      ("hard", 8, 1), ("hard", 10, 1)], ""),
)
MAX_NAV = 60


def setup_path(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--root" in argv:
        root = os.path.abspath(argv[argv.index("--root") + 1])
    sys.path[:0] = [root, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                       "cpython_shims")]


def nav_keys(B):
    keys = [B.NEXT, B.PREV]
    for name in ("NUMBER",):
        if hasattr(B, name):
            keys.append(getattr(B, name))
    return keys + list(getattr(B, "GROUP_KEYS", ()))


def state_of(p):
    return (p.sel, getattr(p, "armed_until", None) is not None, getattr(p, "die", 0))


def find_nav(PL, ctl, player, target, keys, now_ms):
    """Fewest navigation presses from the player's state to `target`."""
    start = PL.Player()
    start.__dict__.update(player.__dict__)
    if start.sel == target:
        return []
    seen = {state_of(start)}
    frontier = [(start, [])]
    for _ in range(MAX_NAV):
        nxt = []
        for p, path in frontier:
            for code in keys:
                q = PL.Player()
                q.__dict__.update(p.__dict__)
                q.on_button(code, ctl, now_ms)
                st = state_of(q)
                if st in seen:
                    continue
                seen.add(st)
                if q.sel == target:
                    return path + [code]
                nxt.append((q, path + [code]))
        frontier = nxt
    raise RuntimeError("not reachable: %r" % (target,))


def find_amount(chips, chip_i, amount):
    """Fewest CHIP / ADD presses to add exactly `amount` (in the chips' unit)
    from chip index chip_i."""
    frontier = [(chip_i, 0, [])]
    seen = {(chip_i, 0)}
    while frontier:
        nxt = []
        for ci, placed, path in frontier:
            for key in ("CHIP", "ADD"):
                if key == "CHIP":
                    st = ((ci + 1) % len(chips), placed)
                else:
                    st = (ci, placed + chips[ci])
                if st[1] > amount or st in seen:
                    continue
                seen.add(st)
                if st[1] == amount:
                    return path + [key]
                nxt.append((st[0], st[1], path + [key]))
        frontier = nxt
    raise RuntimeError("amount %d not reachable" % amount)


def run_row(profile, bets, setup):
    from hal import buttons as B
    from hal.mock.board import Board
    from firmware.cabinet.drive import Driver
    from firmware.cabinet import player as PL
    from firmware.rules import wagers as W
    b = Board(seed=7, fake_clock=True, flash_size=131072)
    d = Driver(b, draw=True, profile=profile)
    d.bill(100)
    ctl = d.ctl
    led = ctl.store.ledger
    keys = nav_keys(B)
    # ROWS are dollars; the firmware counts in its smallest chip's unit (the
    # $1 chip: 100 cents since issue 8, 1 in the dollar firmware of --root)
    unit = PL.CHIPS[0]
    presses = 0
    for name, number, dollars in bets:
        amount = dollars * unit
        kind = W.kind_of(name)
        if kind == W.PASS_ODDS and setup == "point4":
            face = b.dome.rng.face
            b.dome.rng.face = lambda: 2  # a 2-2: the point is 4
            d.roll()
            b.dome.rng.face = face
            assert led.table.point == 4
        odds = kind in W.ODDS_BASE
        target = (W.ODDS_BASE[kind], 0) if odds else (kind, number)
        path = find_nav(PL, ctl, ctl.player, target, keys, b.clock.ticks_ms())
        for code in path:
            d.press(code)
        assert ctl.player.sel == target, (ctl.player.sel, target)
        had = led.table.find(kind, number)
        had = had[2] if had else 0
        add = B.ODDS if odds else B.BET_UP
        steps = find_amount(PL.CHIPS, ctl.player.chip_i, amount)
        for s in steps:
            d.press(B.CHIP if s == "CHIP" else add)
        got = led.table.find(kind, number)
        assert got is not None and got[2] == had + amount, (name, number, got, ctl.lines)
        presses += len(path) + len(steps)
    return presses


def main(argv):
    setup_path(argv)
    out = []
    for title, profile, bets, setup in ROWS:
        out.append((title, profile, run_row(profile, bets, setup)))
    if "--markdown" in argv:
        for title, profile, n in out:
            print("| %s | %s | %d |" % (title, profile, n))
    else:
        for title, profile, n in out:
            print("%4d presses  %-7s %s" % (n, profile, title))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
