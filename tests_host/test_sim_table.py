"""The multi-seat simulator (tools/sim --seats, tools/sim_table.py): the
dome and the stations as separate MicroPython processes running main.py,
joined by the bus model. A headless script with its end lines, and the
fault sweep: 8 stations, 5 % frame loss, duplication and corruption each,
kill -9 of random processes mid-round, invariants 1-3 after every round
(the journals' records as they are committed, and every station's recall
against the dome's journal). CI runs a seeded sample (the seed varies and
is printed; SEED=n replays it); FULL=1 the issue's 10,000 rounds and 300
kills (hours)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import sim_table as ST  # noqa: E402

FULL = os.getenv("FULL") == "1"
MP_SKIP = ("test_headless_script_ends_with_a_line_per_node",
           "test_a_dome_out_of_memory_restarts_and_the_round_is_settled",
           "test_a_table_started_again_on_its_flash_plays_on",
           "test_fault_sweep_with_kill_9_of_random_processes")   # CPython drives the processes

def _bets_up(tb):
    """$20 in at stations 1 and 2, and each one's stake on the pass line."""
    for a in ("1", "2"):
        tb.command(a, "bill 20")
    tb.step(3000)
    for a in ("1", "2"):
        tb.command(a, "press BET_UP")
        tb.step(200)


def test_headless_script_ends_with_a_line_per_node():
    """docs/examples/table.txt (README, docs/TOOLS.md), with the picture."""
    folder = tempfile.mkdtemp()
    try:
        out = subprocess.run([os.path.join(ROOT, "tools", "sim"), "--seats", "3", "--flash",
                              os.path.join(folder, "flash"), "--headless",
                              os.path.join(ROOT, "docs", "examples", "table.txt"),
                              "--png", os.path.join(folder, "table.png")],
                             capture_output=True, text=True, timeout=900).stdout
        with open(os.path.join(folder, "table.png"), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    finally:
        shutil.rmtree(folder)
    ends = re.findall(r"^--- end seat (\d): state=(\w+) credits=(\d+) bet=(\d+) round=(\d+)",
                      out, re.M)
    dome = re.findall(r"^--- end dome: round=(\d+) dice=(\d)\+(\d) shooter=(\d)", out, re.M)
    assert [e[0] for e in ends] == ["1", "2", "3"] and len(dome) == 1, out
    assert dome[0] == ("2", "2", "2", "1"), out           # the script's dice; seat 1 shoots
    assert "EXPECT FAILED" not in out and "INVARIANT" not in out, out
    for e in ends:
        assert e[4] == "2"                                # every station was in round 2
    # seat 1: $20, $5 (the stake shown first) on the pass line won on 3+4 and
    # stays up on the point 4
    assert ends[0][2:4] == ("2000", "500"), out


def test_a_dome_out_of_memory_restarts_and_the_round_is_settled():
    """The dome's process runs out of memory as it journals the round it is
    closing: it resets itself (a passing fault, not a CRITICAL journal), comes
    back on the same flash and the same table, closes that round again, and
    every station settles it with the dome's dice."""
    folder = tempfile.mkdtemp()
    tb = ST.Table(2, folder, 5)
    try:
        w = tb.witness
        tid = w.tid
        _bets_up(tb)
        tb.command("dome", "nomem")
        assert ST.roll(tb)                  # invariants 1-3 and the recalls checked
        assert tb.restarts == 1 and w.tid == tid
        assert 1 in w.results and (1, 1) in w.outcome and (2, 1) in w.outcome
    finally:
        for n in tb.nodes.values():
            n.close()
        shutil.rmtree(folder)


def test_a_table_started_again_on_its_flash_plays_on():
    """Every process stopped, the table started again on the same flash folder
    (docs/TOOLS.md: the table resumes): the rounds it finished before are the
    witness's history, not rounds shaken unseen, and the next round is checked
    as any other (it failed with "I1: round 1 shaken with seat 1 in" at start)."""
    folder = tempfile.mkdtemp()
    try:
        tb = ST.Table(2, folder, 5)
        try:
            _bets_up(tb)
            assert ST.roll(tb)
            first = max(tb.witness.results)
        finally:
            tb.close()
        tb = ST.Table(2, folder, 6)
        try:
            assert first in tb.witness.results
            assert ST.roll(tb)                  # invariants 1-3 and the recalls checked
            tb.check()
            assert max(tb.witness.results) > first
        finally:
            tb.close()
    finally:
        shutil.rmtree(folder)


def test_fault_sweep_with_kill_9_of_random_processes():
    seed = int(os.getenv("SEED") or int.from_bytes(os.urandom(3), "little"))
    rounds, kills = (10000, 300) if FULL else (6, 2)
    print("table fault sweep: SEED=%d, %d rounds, %d kill -9, 8 stations, bus 50,50,50,20"
          % (seed, rounds, kills))
    folder = tempfile.mkdtemp()
    tb = ST.Table(8, folder, seed, (50, 50, 50, 20))
    try:
        done = ST.sweep(tb, rounds, kills)
        ST.roll(tb)                       # every station back and settled
        tb.check()
        print("  %d rounds, %d kill -9, %d frames, %d collisions" % (
            done, tb.kills, tb.frames, tb.collisions))
        assert done >= rounds and tb.kills == kills
        w = tb.witness
        assert len(w.outcome) >= 8 * rounds // 2      # the stations played
        for a in tb.seats():
            status = tb.command(a, "status")[0]
            assert "CRITICAL" not in status, status
    finally:
        tb.close()
        shutil.rmtree(folder)
