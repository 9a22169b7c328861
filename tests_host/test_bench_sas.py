"""`tools/bench firmware --sas` fails when an answer starts later than
20 ms (issue 23: the bench printed the times and never checked the
limit). The host's report (tools/bench_sas_host.py) over a log written
here the way tools/bench_sas_line.py writes it: a general poll landed,
its one-byte answer after `us` microseconds."""
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import bench_sas_host as H  # noqa: E402


def _log(path, times_us):
    with open(path, "wb") as f:
        for seq, us in enumerate(times_us, 1):
            f.write(struct.pack("<8q", H.LANDED, seq, 0, seq, 0, 0, 0, 0))
            f.write(struct.pack("<8q", H.ANSWER, seq, 0, seq, us, 0, 0, 1) + b"\x00")
        f.write(struct.pack("<8q", H.END, len(times_us), 0, 0, 0, 0, 0, 0))


def test_an_answer_later_than_20_ms_fails_the_bench(tmp_path, capsys):
    log = str(tmp_path / "sas.log")
    _log(log, [900, 19999, 20000])
    assert H.report(ROOT, log, True) == 0
    out = capsys.readouterr().out
    assert "max 20000 us" in out and "within 20000 us" in out and "OVER" not in out
    _log(log, [900, 20001, 1200])
    assert H.report(ROOT, log, True) == 1
    out = capsys.readouterr().out
    assert "SAS worst answer: 20001 us" in out and "OVER BUDGET" in out
    assert H.report(ROOT, log, False) == 0           # --sas-plain: not timed
