"""Pictures of the player station: the firmware's own frame buffer -> PNG.

    tools/screens [OUT_DIR]        (default docs/screens; README.md and
                                   docs/CABINET.md show them)

Drives the real controller on the mock board (fake clock, CPython) to each
main screen and writes what the 128x64 display holds in the colours of a
white-on-black OLED: NAME-1x.png pixel for pixel (the panel's own scale:
what a player's eye gets), NAME.png scaled 4x with the gaps between pixels
(to read). tests_host/test_screens_current.py checks the committed ones are
what the firmware draws. Pure Python PNG writer (zlib).
"""
import os
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools", "cpython_shims")]

SCALE = 4
ON = (235, 245, 255)
OFF = (8, 10, 16)
GRID = (24, 26, 34)   # the gap between pixels, as on the panel


def png(path, width, height, rgb_rows):
    """Writes an 8-bit RGB PNG; rgb_rows: one bytes object per row."""
    raw = b"".join(b"\x00" + r for r in rgb_rows)

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def snapshot(display, path, scale=SCALE):
    w, h = display.width, display.height
    rows = []
    for y in range(h):
        for sy in range(scale):
            row = bytearray()
            for x in range(w):
                c = ON if display.get(x, y) else OFF
                for sx in range(scale):
                    edge = scale > 1 and (sx == scale - 1 or sy == scale - 1)
                    row += bytes(GRID if edge and c is OFF else c)
            rows.append(bytes(row))
    png(path, w * scale, h * scale, rows)


def main(argv):
    from hal.mock.board import Board
    from firmware.cabinet.drive import Driver
    out = os.path.abspath(argv[0]) if argv else os.path.join(ROOT, "docs", "screens")
    os.makedirs(out, exist_ok=True)
    b = Board(seed=11, fake_clock=True, flash_size=131072)
    d = Driver(b, draw=True, profile="table")
    ctl = d.ctl
    shots = []

    def shot(name):
        ctl.tick_display(b.clock.ticks_ms(), True)
        snapshot(b.display, os.path.join(out, name + ".png"))
        snapshot(b.display, os.path.join(out, name + "-1x.png"), 1)
        shots.append((name, d.screen_text()))

    d.bill(100)
    # some history for the statistics board
    for faces in ((3, 4), (5, 5), (6, 2), (4, 4), (1, 2), (6, 6), (2, 5), (3, 3),
                  (5, 4), (2, 2), (6, 1), (4, 5), (3, 5), (1, 1), (6, 4), (2, 6),
                  (5, 3), (4, 3), (2, 3), (6, 5), (1, 4), (3, 6)):
        b.dome.forced.append(faces)
        if not ctl.store.ledger.table.bets:
            d.press("BET_UP")
        d.roll()
    led = ctl.store.ledger
    for _ in range(40):                # play the pass bet out
        if not led.table.bets:
            break
        d.wait_result()
    d.bill(100)
    d.press("BET_UP")                  # pass line $5
    d.press("NUMBER")
    d.press("PLACE")                   # place 6
    d.press("BET_UP")                  # $6 on the 6 (the stake pays whole)
    d.press("HARD")                    # hard 6 (the number carries over)
    d.press("HARD")                    # hard 8
    d.press("BET_UP")                  # $1
    d.press("PROPS")
    d.press("BET_UP")                  # field $5
    d.press("NUMBER")
    d.press("PLACE")                   # back on place 6
    d.run(200)
    shot("betting")
    d.press("MYBETS")
    shot("mybets")
    d.press("MYBETS")
    shot("statistics")
    d.press("MYBETS")
    d.press("HELP")
    shot("help")
    d.press("HELP")
    b.dome.forced.append((4, 4))
    d.press("ROLL")
    g = ctl.game
    rolls = g.rolls
    d.until(lambda: g.rolls != rolls, 60000)
    d.run(50)
    shot("result")
    d.run(4000)
    b.audit_key.toggle()
    d.run(500)
    shot("audit")
    with open(os.path.join(out, "screens.txt"), "w") as f:
        for name, text in shots:
            f.write("%s\n%s\n\n" % (name, text))
    for name, _ in shots:
        print(os.path.join(out, name + ".png"), os.path.join(out, name + "-1x.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
