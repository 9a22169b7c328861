"""tools/sim in a terminal (issue 22): the whole picture fits 80x24 (--size
small, the default) or 132x52 (--size large) with the credits always in
view, money in dollars, and nothing but text and the cursor's escape
sequences reaches the terminal (the display's scale marks were written raw).
CPython only (subprocesses)."""
import os
import re
import signal
import subprocess
import time

from hal.mock.board import Board
from hal.mock import termview as TV
from firmware.cabinet.drive import Driver
from firmware import fmt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ESC = re.compile("\x1b\\[[0-9;]*[A-Za-z]")


def _plain_text(line):
    return all(ord(c) >= 32 and ord(c) != 127 for c in line)


def _session():
    b = Board(seed=5, fake_clock=True, flash_size=131072)
    d = Driver(b, draw=True, profile="table")
    d.bill(20)
    d.press("BET_UP")
    b.dome.forced.append((3, 4))
    d.roll()
    return b, d


def test_every_layout_fits_its_terminal_with_the_credits_in_view():
    b, d = _session()
    note = "--profile etg not applied: NO PROFILE etg: MONEY ON STATION"
    for ticket in (False, True):
        if ticket:
            d.press("BET_DOWN")
            d.press("CASHOUT")
            d.run(1000)
            assert b.printer.tickets
        credits = "$" + fmt(d.ctl.store.ledger.table.credits)
        for size, (_, width, height) in TV.SIZES.items():
            for n in ("", note):
                lines = TV.frame(d.ctl, b, size, "WIN", n)
                assert len(lines) <= height, (size, len(lines))
                assert all(len(l) <= width and _plain_text(l) for l in lines), (size, lines)
                top = "\n".join(lines[:2] if size == "small" else lines[32:34])
                assert credits in top, (size, credits, top)
                assert "sound: WIN" in lines
                assert not n or "MONEY ON STATION" in "\n".join(lines)
        big = TV.frame(d.ctl, b, "large", "-")
        assert any(l.startswith("|" + d.screen_text().split("\n")[0][1:]) for l in big)


def _frames(stdout):
    frames = []
    for f in stdout.split("\x1b[H")[1:]:
        frames.append(_ESC.sub("", f).split("\r\n"))
    return frames


def test_the_simulator_in_an_80x24_terminal(tmp_path):
    """The real tools/sim with keys from a pipe: a $20 bill, a $1 bet, a roll."""
    flash = os.path.join(str(tmp_path), "f.bin")
    p = subprocess.Popen([os.path.join(ROOT, "tools", "sim"), "--flash", flash, "--seed", "3",
                          "--sound", "bell"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=str(tmp_path))
    try:
        for key, pause in ((b"2", 4), (b"+", 2), (b" ", 10)):
            p.stdin.write(key)
            p.stdin.flush()
            time.sleep(pause)
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
    text = out.decode("utf-8")
    bells = text.count("\x07")     # the sounds, as the terminal bell
    frames = _frames(text.replace("\x07", ""))
    assert len(frames) > 3, (text[-800:], err[-800:])
    for f in frames:
        assert len(f) <= 24 and all(len(l) <= 80 and _plain_text(l) for l in f), f
        assert f[0].endswith(" CREDITS") and re.search(r" \$\d+\.\d\d$", f[1]), f[:2]
    assert any(f[1].endswith(" $20.00") for f in frames)
    # the bet, in dollars, and the credits less it
    bets = [f for f in frames if re.search(r" \$[1-9]\d*\.\d\d$", f[3])]
    assert bets, frames[-1]
    bet = float(bets[-1][3].rsplit("$", 1)[1])
    assert abs(float(bets[-1][1].rsplit("$", 1)[1]) + bet - 20) < 0.001, bets[-1][:4]
    # the sounds: named under the picture, and rung (space closed the bets)
    assert any(f[16] == "sound: NO MORE BETS" for f in frames)
    assert bells >= 1


def test_sounds_as_wav_and_bell():
    import io
    import wave
    from hal import buzzer as BZ
    from hal.mock.sound import Speaker, wav
    for sound in range(1, len(BZ.PATTERNS)):
        w = wave.open(io.BytesIO(wav(BZ.PATTERNS[sound])))
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 1, 8000)
        assert w.getnframes() == sum(8 * ms for f, ms in BZ.PATTERNS[sound])
    assert Speaker("bell").play(BZ.WIN) == "\x07" and Speaker("off").play(BZ.WIN) == ""


def test_headless_status_line_in_dollars(tmp_path):
    script = os.path.join(str(tmp_path), "s.txt")
    with open(script, "w") as f:
        f.write("bill 20\npress BET_UP\n")
    r = subprocess.run([os.path.join(ROOT, "tools", "sim"), "--headless", script, "--flash",
                        os.path.join(str(tmp_path), "f.bin")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout[-800:]
    m = re.search(r"credits=\$(\d+)\.(\d\d) bet=\$(\d+)\.(\d\d) ", r.stdout.splitlines()[-1])
    assert m, r.stdout[-300:]
    credits, bet = int(m.group(1) + m.group(2)), int(m.group(3) + m.group(4))
    assert bet > 0 and credits + bet == 2000, r.stdout[-300:]
