"""Issue 11's bugs as headless player scripts (tests_host/ux/*.txt), each run
through `tools/sim --headless` on the MicroPython unix port: every one failed
on the station before the fix (docs/CABINET.md: The player station). CPython only
(subprocesses)."""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIM = os.path.join(ROOT, "tools", "sim")
UX = os.path.join(ROOT, "tests_host", "ux")


def _sim(tmp_path, script, *args):
    flash = os.path.join(str(tmp_path), "f.bin")
    r = subprocess.run([SIM, "--headless", script, "--flash", flash, "--seed", "1"] + list(args),
                       capture_output=True, text=True, timeout=300)
    return r


def test_every_ux_script_passes(tmp_path):
    names = sorted(n for n in os.listdir(UX) if n.endswith(".txt"))
    assert len(names) >= 10
    bad = []
    for n in names:
        d = tmp_path / n[:-4]
        d.mkdir()
        r = _sim(d, os.path.join(UX, n))
        if r.returncode != 0 or "EXPECT FAILED" in r.stdout:
            bad.append((n, r.stdout[-1500:] + r.stderr[-1500:]))
    assert not bad, bad


def test_fourteen_bets_under_30_presses():
    with open(os.path.join(UX, "fourteen_bets.txt")) as f:
        lines = [l.split() for l in f if l.startswith("press ")]
    before_mybets = []
    for w in lines:
        if w[1] == "MYBETS":
            break
        before_mybets.append(int(w[2]) if len(w) > 2 else 1)
    assert sum(before_mybets) < 30
    assert sum(1 for w in lines if w[1] == "BET_UP") == 14


def test_profile_refused_is_said(tmp_path):
    flash = os.path.join(str(tmp_path), "f.bin")
    script = os.path.join(str(tmp_path), "s.txt")
    with open(script, "w") as f:
        f.write("bill 20\n")
    r = subprocess.run([SIM, "--headless", script, "--flash", flash], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout
    with open(script, "w") as f:
        f.write("expect NO PROFILE etg\nexpect MONEY ON STATION\n")
    r = subprocess.run([SIM, "--headless", script, "--flash", flash, "--profile", "etg"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout
    assert "--profile etg not applied" in r.stdout and "still playing table" in r.stdout
