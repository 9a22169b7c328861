"""The README is the product's front page: short, no history, and what it
says about the two commands and the simulator's keys is what they do.
CPython only (reads the clone's files)."""
import os
import re

from hal.mock.keys import KEYMAP

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_LINES = 300
# keys the table gives another way: `=` is `+` unshifted, the arrows are named in words
ALIASES = {"=", "UP", "DOWN", "LEFT", "RIGHT"}
# table cells that are not KEYMAP keys: the terminal's own, and the arrows' words
NOT_KEYS = {"Ctrl-C", "(arrows)", "/"}


def readme():
    with open(os.path.join(ROOT, "README.md")) as f:
        return f.read()


def section(text, title):
    """The lines of the section `## title` or `### title` up to the next heading."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if l.lstrip("#").strip() == title and l.startswith("#"))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return lines[start + 1:end]


def table_keys(lines):
    """Every key of the simulator's key table (the table whose header starts
    'key'; other tables, e.g. the screen pictures, are not keys): the odd
    columns of each row."""
    keys = set()
    in_keys = False
    for line in lines:
        if not line.strip().startswith("|"):
            in_keys = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "key":
            in_keys = True
            continue
        if not in_keys or len(cells) < 2 or set(cells[0]) <= set("-"):
            continue
        for cell in cells[0::2]:
            keys.update(" " if w == "space" else w for w in cell.split() if w not in NOT_KEYS)
    return keys


def test_readme_is_short_and_holds_no_history():
    text = readme()
    assert len(text.split("\n")) <= MAX_LINES
    assert not re.findall(r"\b[0-9a-f]{7,40}\b", text), "commit ids belong to git"


def test_the_two_commands_are_the_tools_and_ci_runs_the_test_command():
    block = section(readme(), "The two commands")
    commands = [l.split()[0] for l in block if l.startswith("tools/")]
    assert commands == ["tools/sim", "tools/test"]
    for cmd in commands:
        assert os.access(os.path.join(ROOT, cmd), os.X_OK), cmd
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        ci = [l for l in f.read().split("\n") if l.strip() and not l.startswith("#")]
    assert ci[-1].endswith("exec tools/test"), ci


def test_the_simulators_key_table_is_its_keymap():
    documented = table_keys(section(readme(), "The simulator"))
    assert documented, "no key table"
    assert documented - set(KEYMAP) == set(), "documented keys that do nothing"
    assert set(KEYMAP) - ALIASES - documented == set(), "keys the README does not list"


def test_the_key_table_reader_can_fail():
    rows = ["| key | does | key | does |", "|---|---|---|---|",
            "| l e | groups | 1 5 | bills |", "| space | roll | Ctrl-C | quit |",
            "| n / p (arrows) | next | q | cash out |"]
    assert table_keys(rows) == {"l", "e", "1", "5", " ", "n", "p", "q"}
    assert table_keys(rows[:2]) == set()
    pictures = ["| ![a](a.png) | ![b](b.png) |", "|---|---|", ""]
    assert table_keys(pictures + rows) == table_keys(rows)
