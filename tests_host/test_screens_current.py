"""The player station's pictures in the docs (docs/screens/*.png, their text
in screens.txt; README.md and docs/CABINET.md show them) are what the
firmware draws today: tools/screens run into a temporary folder must write
the same bytes. After a change to a screen: run tools/screens and commit
the pictures. CPython only (tools/screens.py)."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs", "screens")


def test_docs_screens_are_current(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "screens.py"), str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-1500:]
    made = sorted(os.listdir(str(tmp_path)))
    assert "screens.txt" in made and len([n for n in made if n.endswith("-1x.png")]) >= 6
    assert made == sorted(os.listdir(DOCS)), (made, sorted(os.listdir(DOCS)))
    stale = []
    for name in made:
        with open(os.path.join(str(tmp_path), name), "rb") as a, \
                open(os.path.join(DOCS, name), "rb") as b:
            if a.read() != b.read():
                stale.append(name)
    assert not stale, "run tools/screens and commit docs/screens: %s differ" % stale
