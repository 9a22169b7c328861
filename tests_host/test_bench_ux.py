"""tools/bench_ux.py runs here on every `tools/test`, so it cannot rot again
(issue 8 made the chips cents and the bench crashed, 'amount 5 not
reachable', unseen): every row is played on the cabinet, its count must be
the "presses" figure of docs/BENCHMARKS.md's table, and the 14-bet row stays under 30 and
equals the press count of tests_host/ux/fourteen_bets.txt. CPython only."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_ux  # noqa: E402


def _documented_rows():
    """{title: presses} from docs/BENCHMARKS.md's press table."""
    rows = {}
    with open(os.path.join(ROOT, "docs", "BENCHMARKS.md")) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 3 and cells[1] in ("table", "etg", "casino", "house") \
                    and cells[2].isdigit():
                rows[cells[0]] = int(cells[2])
    return rows


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


def test_bench_ux_rows_match_the_docs():
    bench_ux.setup_path([])
    documented = _documented_rows()
    assert len(documented) >= len(bench_ux.ROWS)
    for title, profile, bets, setup in bench_ux.ROWS:
        got = bench_ux.run_row(profile, bets, setup)
        assert title in documented, title
        assert got == documented[title], (title, got, documented[title])
        if title.startswith("14 one-credit"):
            assert got < 30
            assert got == _script_presses("fourteen_bets.txt")


def test_bench_ux_amounts_are_dollars_at_any_unit():
    # 5 dollars is five $1 chips or one $5 chip, in cents or in whole dollars
    for chips in ((100, 500, 2500, 10000), (1, 5, 25, 100)):
        assert bench_ux.find_amount(chips, 0, 5 * chips[0]) == ["CHIP", "ADD"]
        assert bench_ux.find_amount(chips, 0, 6 * chips[0]) == ["ADD", "CHIP", "ADD"]
