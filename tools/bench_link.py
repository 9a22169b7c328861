"""tools/bench link: what the table link adds to a round, with 8 stations
at 115,200 baud, and the bus load. The dome's and the stations' real link
logic and journals (firmware/link, the stations' stores on mock flash) run
through tests_host/link_sim.py's bus model in simulated time: frames take
11 bits a byte on the wire, a station answers 2 ms (its link task's
period) after a frame, plus 1.2 ms when it committed a record first (three
page programs at the typical 0.4 ms, hal/mock/hostile.py).

  close:  end of the betting window -> the shake starts (every station's
          close committed and confirmed, ROUND journalled)
  result: RESULT journalled -> the last station in the round has it
          committed (its screen draws it on its next display pass, as a
          stand-alone cabinet's does)
Budgets (issue 21): close + result <= 100 ms a round, bus load < 30 %.
Prints the figures and fails when a budget is missed.

  tools/bench link [--rounds N] [--seed N] [--loss PERMILLE]
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools", "cpython_shims"), os.path.join(ROOT, "tests_host")]

import link_sim as S  # noqa: E402
from firmware.link import dome as D  # noqa: E402
from firmware.link import rounds as RD  # noqa: E402
from firmware.store import records as T  # noqa: E402
from firmware.store import seat_records as SR  # noqa: E402

BUDGET_MS = 100
LOAD_BUDGET = 30.0


def main(argv):
    ap = argparse.ArgumentParser(prog="tools/bench link")
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loss", type=int, default=0, help="frame loss per mille (figures then show retries)")
    a = ap.parse_args(argv)
    tb = S.Table(a.seed, seats=8, loss=a.loss, window_ms=10000, result_ms=4000, shake_ms=3000,
                 cocked=0, stuck=0, latency_us=2000)
    marks = {}
    w = tb.witness
    dome_record, seat_record = w.dome_record, w.seat_record

    def on_dome(payload):
        dome_record(payload)
        f = RD.unpack(payload)
        if f[0] == RD.ROUND:
            marks.setdefault(f[2], {})["shake"] = tb.t
        elif f[0] == RD.RESULT:
            marks.setdefault(f[2], {})["result"] = tb.t

    def on_seat(s, payload):
        seat_record(s, payload)
        rec = T.unpack(payload)
        if rec[0] == SR.TROLL:
            m = marks.setdefault(rec[2][0], {})
            m["last"] = max(m.get("last", 0), tb.t)
    w.dome_record = on_dome
    w.seat_record = on_seat
    phase = [tb.dome.dome.phase]
    orig_step = tb.step

    def step():
        orig_step()
        ph = tb.dome.dome.phase
        if ph != phase[0]:
            if ph == D.CLOSING:
                marks.setdefault(tb.dome.dome.closing, {})["close"] = tb.t
            phase[0] = ph
    tb.step = step
    busy0 = t0 = 0
    tb.run_rounds(3)                     # everybody on line and betting
    busy0, t0 = tb.bus.busy_us, tb.t
    first = len(w.results) + 1
    tb.run_rounds(a.rounds)
    load = 100.0 * (tb.bus.busy_us - busy0) / (tb.t - t0)
    closes, results, totals = [], [], []
    for n, m in sorted(marks.items()):
        if n < first or not all(k in m for k in ("close", "shake", "result", "last")):
            continue
        c = (m["shake"] - m["close"]) / 1000.0
        r = (m["last"] - m["result"]) / 1000.0
        closes.append(c)
        results.append(r)
        totals.append(c + r)
    if not totals:
        print("bench link: no complete rounds measured")
        return 1

    def stats(v):
        v = sorted(v)
        return "mean %.1f ms, median %.1f, p95 %.1f, max %.1f" % (
            sum(v) / len(v), v[len(v) // 2], v[int(len(v) * 0.95)], v[-1])
    print("link: 8 stations, 115,200 baud 8N2, %d rounds measured (seed %d, loss %d per mille)"
          % (len(totals), a.seed, a.loss))
    print("  end of betting -> shake:        %s" % stats(closes))
    print("  result -> last station has it:  %s" % stats(results))
    print("  added per round:                %s (budget %d ms)" % (stats(totals), BUDGET_MS))
    print("  bus load: %.1f %% (budget %.0f %%), %d frames, %d collisions" % (
        load, LOAD_BUDGET, tb.bus.frames, tb.bus.collisions))
    worst = sorted(totals)[int(len(totals) * 0.95)]
    ok = worst <= BUDGET_MS and load < LOAD_BUDGET
    print("bench link: %s (p95 added %.1f ms, load %.1f %%)" % ("OK" if ok else "FAILED", worst, load))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
