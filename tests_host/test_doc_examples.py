"""The docs' examples are what the cabinet and its tools print today.

Every fenced block marked `console` in README.md, docs/ and the design docs
beside the code (firmware/, hal/) is run as
written, from the top folder of the clone: a line starting `$ ` is a command
(bash, pipefail), the lines after it up to the next command are its expected
output. In the expected output a line `...` stands for any number of lines
and `...` inside a line for any text; trailing spaces are ignored. A command
ending in `&` runs in the background until the block ends. A block without
the mark is illustration (a board, a laptop's serial port) and is not run.
CPython only (it starts the tools, which run the MicroPython port themselves).
"""
import glob
import os
import re
import signal
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(
    os.path.relpath(p, ROOT) for folder in ("docs", "firmware", "hal")
    for p in glob.glob(os.path.join(ROOT, folder, "**", "*.md"), recursive=True))
# docs a technician or a new developer copies commands from: they must hold examples
MUST_HAVE_EXAMPLES = ("docs/INSTALL.md", "docs/TOOLS.md", "firmware/audit/AUDIT.md")
COMMAND_TIMEOUT_S = 300
FENCE = re.compile(r"^( *)```(\S*)\s*$")


def console_blocks(path):
    """[(line number of the fence, [(command, [expected lines])])] of one file."""
    blocks = []
    with open(os.path.join(ROOT, path)) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, info, start = len(m.group(1)), m.group(2), i + 1
        i += 1
        body = []
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        i += 1
        if info == "console":
            blocks.append((start, parse_block(body)))
    return blocks


def parse_block(body):
    steps = []
    for line in body:
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise ValueError("console block output before any `$ ` command: %r" % line)
    return steps


def expected_regex(expected):
    parts = []
    for line in expected:
        line = line.rstrip()
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*".join(re.escape(p) for p in line.split("...")) + r"\n")
    return re.compile("".join(parts))


def matches(expected, output):
    """True if `output` (text) is what the `expected` lines document."""
    text = "".join(l.rstrip() + "\n" for l in output.splitlines())
    return expected_regex(expected).fullmatch(text) is not None


def run_block(steps):
    background = []
    try:
        for command, expected in steps:
            if command.rstrip().endswith("&"):
                background.append(subprocess.Popen(
                    ["bash", "-o", "pipefail", "-c", command.rstrip()[:-1]], cwd=ROOT,
                    stdout=subprocess.DEVNULL, start_new_session=True))
                continue
            r = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=ROOT,
                               capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S)
            assert r.returncode == 0, "$ %s\nexit %d\n%s%s" % (command, r.returncode, r.stdout,
                                                                r.stderr)
            assert matches(expected, r.stdout), (
                "$ %s\n--- documented:\n%s\n--- printed today:\n%s" % (
                    command, "\n".join(expected), r.stdout))
    finally:
        for p in background:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            p.wait()


CASES = [(path, line, steps) for path in DOCS for line, steps in console_blocks(path)]


@pytest.mark.parametrize("path,line,steps", CASES,
                         ids=["%s:%d" % (path, line) for path, line, _ in CASES])
def test_doc_example(path, line, steps):
    os.makedirs(os.path.join(ROOT, "build", "docs"), exist_ok=True)
    run_block(steps)


def test_docs_hold_examples():
    found = {path for path, _, _ in CASES}
    for path in MUST_HAVE_EXAMPLES:
        assert path in found, "%s has no `console` example block" % path


def test_matcher_can_fail():
    assert matches(["a", "...", "c"], "a\nb\nb\nc\n")
    assert matches(["a", "...", "c"], "a\nc\n")
    assert matches(["version ..."], "version 0.2.0\n")
    assert matches(["x   "], "x\n")
    assert not matches(["a", "c"], "a\nb\nc\n")
    assert not matches(["credits 19"], "credits 1900\n")
    assert not matches(["a"], "a\nmore\n")
    assert not matches([], "something\n")


def test_blocks_are_read_as_written():
    steps = parse_block(["$ echo hi", "hi", "$ true"])
    assert steps == [("echo hi", ["hi"]), ("true", [])]
    with pytest.raises(ValueError):
        parse_block(["output first"])
    with pytest.raises(AssertionError):
        run_block([("echo 1900", ["19"])])
    with pytest.raises(AssertionError):
        run_block([("false | cat", [])])
