"""The tools as a user calls them: from another folder, with relative paths,
on the MicroPython port; and no tool or test holds one machine's absolute path.
CPython only (they start the ports themselves)."""
import io
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import par  # noqa: E402


def _tool(name, *args, cwd, timeout=120, **kw):
    return subprocess.run([os.path.join(ROOT, "tools", name)] + list(args), cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, **kw)


def test_scenario_file_relative_to_the_callers_folder(tmp_path):
    shutil.copy(os.path.join(ROOT, "tools", "scenarios", "demo.jsonl"), tmp_path / "mine.jsonl")
    here = _tool("scenario", "mine.jsonl", cwd=tmp_path)
    assert here.returncode == 0, here.stderr
    whole = _tool("scenario", os.path.join(ROOT, "tools", "scenarios", "demo.jsonl"), cwd=ROOT)
    assert here.stdout == whole.stdout and here.stdout.count("\n") == 12
    missing = _tool("scenario", "nothere.jsonl", cwd=tmp_path)
    assert missing.returncode == 2 and "cannot read nothere.jsonl" in missing.stderr


def test_sim_serial_on_a_unix_socket_under_micropython(tmp_path):
    # the read-out on "unix:PATH" (relative to the caller), MicroPython port (tools/sim's default)
    (tmp_path / "serve.txt").write_text("key\nwait 3600000\n")
    sim = subprocess.Popen([os.path.join(ROOT, "tools", "sim"), "--headless", "serve.txt",
                            "--flash", "f.bin", "--serial", "unix:ro.sock"], cwd=tmp_path,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        got = _tool("meters", "--unix", "ro.sock", "--raw", "ID", cwd=tmp_path, timeout=60)
    finally:
        sim.terminate()
        err = sim.communicate(timeout=30)[1]
    assert "EINVAL" not in err, err
    assert got.returncode == 0, got.stderr + err
    assert "OK ID" in got.stdout and "station=CRAPS-01" in got.stdout


def test_par_stakes_rows_fit_a_terminal_and_keep_every_stake():
    for name in ("table", "casino"):
        rows = par.stakes_sheet(name, 100)
        out = io.StringIO()
        par.print_stakes(name, rows, out)
        lines = out.getvalue().splitlines()
        assert max(len(l) for l in lines) <= par.STAKES_WIDTH
        # the runs printed under each wager give back every stake and its edge
        i = 3
        for base, edges in rows:
            assert lines[i].startswith(par.wager_title(base)), (lines[i], base)
            i += 1
            printed = []
            while i < len(lines) and lines[i].startswith("    "):
                words = lines[i].split()
                printed += [(words[k], words[k + 1]) for k in range(0, len(words), 2)]
                i += 1
            k = 0
            for first_last, text in printed:
                first, _, last = first_last.partition("-")
                last = last or first
                assert par._dollars(edges[k][0]) == first
                while k < len(edges) and par._dollars(edges[k][0]) != last:
                    assert "%.3f" % float(edges[k][1] * 100) == text
                    k += 1
                assert "%.3f" % float(edges[k][1] * 100) == text
                k += 1
            assert k == len(edges)


MACHINE_PATH = re.compile(r"""["'](/work|/root|/home|/tmp)(/|["'])""")


def test_no_machine_path_in_code():
    # every tool and test finds the clone and shared/ by rule (tools/sharedpath.py), never
    # by one machine's absolute path
    found = []
    for base, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "build",
                                                                           "__pycache__")]
        for name in files:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, ROOT)
            script = rel.startswith(("tools" + os.sep, ".ci")) and "." not in name
            if not (name.endswith((".py", ".mjs", ".sh")) or script):
                continue
            with open(path, errors="replace") as f:
                for n, line in enumerate(f, 1):
                    if MACHINE_PATH.search(line):
                        found.append("%s:%d: %s" % (rel, n, line.strip()))
    assert not found, "\n".join(found)
    assert MACHINE_PATH.search('for base in ("/%s/shared/rp2-emu",)'.replace("%s", "work"))


def test_meters_times_silence_not_a_long_reply():
    # a reply that keeps arriving (a slow line, a busy machine's emulator) is read to
    # its end; a cabinet that goes silent fails after the timeout
    import meters_main as MM

    class Line(MM.Link):
        def __init__(self, chunks):
            MM.Link.__init__(self)
            self.chunks = list(chunks)

        def send(self, data):
            pass

        def recv(self):
            time.sleep(0.05)
            return self.chunks.pop(0) if self.chunks else b""

    slow = Line([b"OK METERS\n"] + [b"games %d count Games\n" % i for i in range(10)] + [b".\n"])
    status, lines = slow.exchange("METERS", timeout=0.2)   # 0.6 s in all, never 0.2 s silent
    assert status == "OK METERS" and len(lines) == 10
    silent = Line([b"OK METERS\n"])
    try:
        silent.exchange("METERS", timeout=0.2)
        assert False, "a silent cabinet must fail"
    except MM.ProtocolError as e:
        assert "nothing received" in str(e)
