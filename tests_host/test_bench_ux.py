"""tools/bench_ux.py runs here on every `tools/test`, so its figures cannot
rot: every row (issue 22: each single bet in every profile, the typical bets)
is searched and played on the cabinet again, must meet its budget and must
be in the table (`tools/bench ux --markdown`) of docs/BENCHMARKS.md and of
the README; the table profile's typical bets are the press count of
tests_host/ux/fourteen_bets.txt. CPython only."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_ux  # noqa: E402


def _lines(*path):
    with open(os.path.join(ROOT, *path)) as f:
        return set(line.rstrip("\n") for line in f)


def _script_presses(name):
    """Presses a ux script makes before it opens MY BETS to check them."""
    n = 0
    with open(os.path.join(ROOT, "tests_host", "ux", name)) as f:
        for line in f:
            w = line.split()
            if w[:1] != ["press"]:
                continue
            if w[1] == "MYBETS":
                break
            n += int(w[2]) if len(w) > 2 else 1
    return n


def test_bench_ux_rows_meet_budgets_and_match_the_docs():
    profiles = ("table", "etg", "casino", "house")
    rows = bench_ux.rows(profiles)
    assert len(rows) >= 4 * 15
    for n, profile, title, budget, _ in rows:
        assert n <= budget, (n, profile, title, budget)
    # docs/BENCHMARKS.md and the README hold the bench's table (--markdown):
    # every row, every cell
    table = bench_ux.markdown(rows, profiles).split("\n")
    assert len(table) == 2 + len(bench_ux.SINGLES) + 1
    for doc in (("docs", "BENCHMARKS.md"), ("README.md",)):
        lines = _lines(*doc)
        for line in table:
            assert line in lines, (doc, line)
    typical = [r for r in rows if r[1] == "table" and r[3] == bench_ux.TYPICAL_BUDGET]
    assert typical[0][0] == _script_presses("fourteen_bets.txt")


def test_search_finds_the_fewest_presses():
    # from a fresh etg screen: $6 place 6 is NUMBER, the 6 key, +; $1 hop
    # 3-4 is NUMBER, the third and fourth keys (die faces), +
    from hal import buttons as B
    from firmware.rules import wagers as W
    for kind, number, cents, path in ((W.PLACE, 6, 600, [B.NUMBER, B.PLACE, B.BET_UP]),
                                      (W.HOP, 34, 100, [B.NUMBER, B.PLACE, B.HARD,
                                                        B.BET_UP])):
        cab = bench_ux.Cabinet("etg")
        p, t = bench_ux._copy(cab.ctl.player, cab.table)
        got = bench_ux.search(p, t, cab.ctl.store.ledger.recall, {(kind, number): cents})
        assert len(got) == len(path), [B.names[c] for c in got]
        cab.press(path)
        assert cab.bets() == {(kind, number): cents}
