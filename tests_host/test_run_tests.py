"""tools/test cannot pass when a stage did not run: the real runner
(tools/run_tests.py) against fixture suites (BUBBLECRAPS_TESTS_HOST), and its
emulator stage's skip line when the toolchain is missing. CPython only."""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_firmware  # noqa: E402
import run_tests  # noqa: E402

PASSING = "def test_alpha():\n    assert 1 + 1 == 2\n"


def suites(tmp_path, tests=PASSING, conftest="", mp_suites="1M mp_one\n",
           mp_module="def test_mp():\n    assert 2 * 2 == 4\n", name="suites"):
    d = tmp_path / name
    d.mkdir()
    (d / "test_fixture.py").write_text(tests)
    (d / "conftest.py").write_text(conftest)
    (d / "mp_suites.txt").write_text(mp_suites)
    (d / "mp_one.py").write_text(mp_module)
    with open(os.path.join(ROOT, "tests_host", "mp_runner.py")) as f:
        (d / "mp_runner.py").write_text(f.read())
    return d


def runner(folder, *args, timeout=300):
    env = dict(os.environ, BUBBLECRAPS_TESTS_HOST=str(folder))
    env.pop("FULL", None)
    return subprocess.run([os.path.join(ROOT, ".venv", "bin", "python"),
                           os.path.join(ROOT, "tools", "run_tests.py")] + list(args),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)


def test_passing_stages_pass(tmp_path):
    r = runner(suites(tmp_path), "pytest", "micropython")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "total: 2 passed, 0 failed" in r.stdout
    assert "== pytest: 1 passed, 0 failed" in r.stdout and "== micropython: 1 passed" in r.stdout


def test_the_side_lane_runs_beside_pytest_with_its_lines_prefixed(tmp_path):
    r = runner(suites(tmp_path), "pytest", "micropython")
    side = [l for l in r.stdout.splitlines() if l.startswith("[micropython] ")]
    assert any("micropython: 1 passed" in l for l in side), r.stdout
    assert not any(l.startswith("[pytest]") for l in r.stdout.splitlines()), r.stdout


def test_broken_conftest_fails(tmp_path):
    r = runner(suites(tmp_path, conftest="import no_such_module_anywhere\n"), "pytest")
    assert r.returncode == 1, r.stdout
    assert "FAILED (pytest exit 4; no tests ran)" in r.stdout
    assert "total: 0 passed, 1 failed" in r.stdout


def test_k_that_matches_nothing_fails(tmp_path):
    r = runner(suites(tmp_path), "pytest", "-k", "nomatch")
    assert r.returncode == 1, r.stdout
    assert "FAILED (pytest exit 5; no tests ran)" in r.stdout


def test_k_reaches_pytest(tmp_path):
    folder = suites(tmp_path, tests=PASSING + "def test_beta():\n    assert False\n")
    r = runner(folder, "pytest", "-k", "alpha")
    assert r.returncode == 0, r.stdout
    assert "total: 1 passed, 0 failed" in r.stdout


def test_unknown_options_fail(tmp_path):
    folder = suites(tmp_path)
    r = runner(folder, "--no-such-option")
    assert r.returncode == 2 and "unknown option or stage '--no-such-option'" in r.stderr
    r = runner(folder, "pytset")
    assert r.returncode == 2 and "stages: pytest, micropython" in r.stderr
    r = runner(folder, "pytest", "--", "--no-such-pytest-option")
    assert r.returncode == 1 and "FAILED (pytest exit 4" in r.stdout
    r = runner(folder, "micropython", "-k", "x")
    assert r.returncode == 2 and "pytest's" in r.stderr


def test_a_stage_that_runs_no_tests_fails(tmp_path):
    r = runner(suites(tmp_path, tests="X = 1\n"), "pytest")
    assert r.returncode == 1 and "no tests ran" in r.stdout
    r = runner(suites(tmp_path, mp_module="X = 1\n", name="mp"), "micropython")
    assert r.returncode == 1 and "== micropython: 0 passed, 0 failed" in r.stdout
    assert "FAILED (mp_one exit 1; no tests ran)" in r.stdout


def test_failing_tests_fail(tmp_path):
    r = runner(suites(tmp_path, mp_module="def test_mp():\n    assert 2 * 2 == 5\n"),
               "pytest", "micropython")
    assert r.returncode == 1
    assert "total: 1 passed, 1 failed" in r.stdout


def test_output_streams_while_the_stage_runs(tmp_path):
    # the suite prints a line, then waits for a file this test writes only
    # once it has read that line from the runner: a runner that held the
    # output until the stage ended would never show it (timeout, fail)
    go = tmp_path / "go"
    module = ("import os, time\n"
              "def test_waits():\n"
              "    print('WAITING-FOR-GO')\n"
              "    for _ in range(600):\n"
              "        try:\n"
              "            os.stat(%r)\n"
              "            return\n"
              "        except OSError:\n"
              "            time.sleep(0.1)\n"
              "    assert False, 'no go'\n" % str(go))
    folder = suites(tmp_path, mp_module=module)
    env = dict(os.environ, BUBBLECRAPS_TESTS_HOST=str(folder))
    p = subprocess.Popen([os.path.join(ROOT, ".venv", "bin", "python"),
                          os.path.join(ROOT, "tools", "run_tests.py"), "micropython"],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    seen = False
    deadline = time.time() + 120
    for line in p.stdout:
        if "WAITING-FOR-GO" in line:
            seen = True
            go.write_text("go")
        if time.time() > deadline:
            break
    rc = p.wait(timeout=120)
    assert seen and rc == 0


def test_emulator_stage_says_what_to_install_without_root(monkeypatch):
    monkeypatch.setattr(build_firmware, "missing_packages", lambda: ["gcc-arm-none-eabi", "cmake"])
    monkeypatch.setattr(build_firmware, "can_install", lambda: False)
    line = run_tests.emulator_missing(build_firmware)
    if "rp2-emu" in line or "node and npm" in line:
        return  # no shared material or node here: that line comes first, as it should
    assert line.startswith("emulator: SKIPPED - the rp2 image needs gcc-arm-none-eabi, cmake; install: ")
    monkeypatch.setattr(build_firmware, "can_install", lambda: True)
    assert run_tests.emulator_missing(build_firmware) is None  # root: installs, saying so first


def test_toolchain_check_names_every_missing_package(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing on it
    assert build_firmware.missing_packages() == [p for p, _ in build_firmware.TOOLCHAIN]
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert not build_firmware.can_install()
    try:
        build_firmware.ensure_toolchain()
        assert False, "ensure_toolchain went on without the toolchain"
    except SystemExit as e:
        assert "needs gcc-arm-none-eabi" in str(e)
