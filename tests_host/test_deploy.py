"""tools/deploy: the order of a deploy (--dry-run) and the stale-file sweep it
runs on the board (run here on the MicroPython unix port). CPython/pytest."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import deploy_main as D  # noqa: E402
from firmware import release  # noqa: E402


def _dry(*args):
    r = subprocess.run([os.path.join(ROOT, "tools", "deploy"), "--dry-run"] + list(args),
                       capture_output=True, text=True, check=True)
    return [l for l in r.stdout.splitlines() if not l.startswith("#")]


def _index(lines, text):
    return next(i for i, l in enumerate(lines) if text in l)


def test_rp2_deploy_order_flag_first_image_files_sweep_flag_last(tmp_path):
    uf2 = tmp_path / "cabinet.uf2"
    uf2.write_bytes(b"\0" * 512)
    lines = _dry("--board", "rp2", "--port", "/dev/ttyACM0", "--image", str(uf2))
    assert 'exec \'open("SAFE_BOOT", "w").close()\'' in lines[0]
    assert lines[1].endswith("connect /dev/ttyACM0 reset")
    flash = _index(lines, "picotool load -x " + str(uf2))
    assert _index(lines, "bootloader") < flash < _index(lines, "fs cp boot.py main.py :")
    assert _index(lines, "fs cp") < _index(lines, "_rm(") < _index(lines, 'os.remove("SAFE_BOOT")')
    assert lines[flash + 2].startswith("until it answers")  # the new image booted
    assert 'open("SAFE_BOOT", "w")' in lines[flash + 3]  # again after the image: it may format the FS
    assert lines[-1].endswith("reset") and "SAFE_BOOT" in lines[-2]
    assert '"SAFE_BOOT" in os.listdir() and' in lines[-2]  # a freshly formatted FS has no flag
    assert not any("erase" in l or "nuke" in l for l in lines)  # the journal is never touched
    drive = _dry("--image", str(uf2), "--drive", "/media/RPI-RP2")
    assert any(l == "cp %s /media/RPI-RP2/firmware.uf2" % uf2 for l in drive)


def test_esp32_deploy_writes_the_partition_table_with_the_app():
    lines = _dry("--board", "esp32", "--port", "/dev/ttyUSB0")
    flash = lines[_index(lines, "esptool")]
    assert "--chip esp32" in flash and "write-flash" in flash
    assert "0x8000 build/esp32/partition_table/partition-table.bin" in flash
    assert "0x10000 build/esp32/micropython.bin" in flash
    assert "journal" not in flash  # flashed as part of the table, its data never written


def test_safe_boot_rescue_is_flag_and_reset_only():
    lines = _dry("--safe-boot", "--port", "/dev/ttyACM0")
    assert len(lines) == 4 and "SAFE_BOOT" in lines[0] and lines[1].endswith("reset")
    assert lines[3] == "until it answers (up to 60 s): .venv/bin/mpremote connect /dev/ttyACM0 exec pass"


FAKE_MPREMOTE = """#!/bin/sh
# a board that needs 3 tries after a reset before its REPL answers (a full journal checked)
echo "$3" >> "$LOG"
case "$3" in reset) echo 3 > "$BOOTING"; exit 0;; esac
n=$(cat "$BOOTING")
if [ "$n" -gt 0 ]; then echo $((n - 1)) > "$BOOTING"; exit 1; fi
"""


def test_deploy_waits_for_a_board_slow_back_from_its_reset(tmp_path, monkeypatch):
    """A board still booting after a reset (safe boot checks the whole
    journal first) fails mpremote's first tries: deploy retries instead of
    stopping on a fixed sleep."""
    fake = tmp_path / "mpremote"
    fake.write_text(FAKE_MPREMOTE)
    fake.chmod(0o755)
    (tmp_path / "booting").write_text("0")
    monkeypatch.setenv("LOG", str(tmp_path / "log"))
    monkeypatch.setenv("BOOTING", str(tmp_path / "booting"))
    monkeypatch.setattr(D, "VENV_BIN", str(tmp_path))
    monkeypatch.setattr(D.time, "sleep", lambda s: None)
    assert D.main(["--no-image", "--port", "socket://127.0.0.1:9"]) == 0
    calls = (tmp_path / "log").read_text().splitlines()
    # flag, reset, 3 tries and the answer, the files, the sweep, the flag removed, reset
    assert calls == ["exec", "reset"] + ["exec"] * 4 + ["fs", "exec", "exec", "reset"]


def test_stale_sweep_on_the_unix_port_keeps_only_the_release(tmp_path):
    files = ("main.py", "boot.py", "SAFE_BOOT", "hashlib.py", "firmware/cabinet/game.mpy",
             "hal/rp2/board.mpy", "lib/pkg/mod.py", "notes.txt")
    for rel in files:
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"x")
    script = D.stale_script(release.FS_FILES + (D.FLAG,))
    out = subprocess.run([os.path.join(ROOT, ".venv", "bin", "micropython"), "-c", script],
                         cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    left = sorted(os.path.relpath(os.path.join(d, n), tmp_path)
                  for d, _, names in os.walk(tmp_path) for n in names)
    assert left == ["SAFE_BOOT", "boot.py", "main.py"]
    assert sorted(os.listdir(tmp_path)) == ["SAFE_BOOT", "boot.py", "main.py"]  # empty dirs gone
    assert "removed hashlib.py" in out and "removed lib/pkg/mod.py" in out


def test_esp32_manifest_resolves_with_the_ports_own_manifest_tool(tmp_path):
    """hal/esp32/manifest.py read by v1.28.0's tools/manifestfile.py (what
    the ESP-IDF build runs), when the source tarball is there."""
    import tarfile
    import pytest
    import port_signatures as PS
    src = PS.default_source()
    if src is None or not os.path.isfile(src):
        pytest.skip("MicroPython v1.28.0 source tarball not present")
    want = ("micropython/tools/manifestfile.py", "micropython/ports/esp32/modules/",
            "micropython/extmod/asyncio/")
    with tarfile.open(src, "r:*") as tar:
        tar.extractall(tmp_path, members=[m for m in tar if m.name.startswith(want)])
    mp = tmp_path / "micropython"
    r = subprocess.run([sys.executable, str(mp / "tools" / "manifestfile.py"), "--freeze", "--port",
                        str(mp / "ports" / "esp32"), "--lib", str(tmp_path),
                        os.path.join(ROOT, "hal", "esp32", "manifest.py")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    frozen = dict(l.split("target_path='")[1].split("'")[0:1] + [l.split("full_path='")[1].split("'")[0]]
                  for l in r.stdout.splitlines() if "target_path=" in l)
    assert frozen["_boot.py"] == os.path.join(ROOT, "hal", "esp32", "_boot.py")
    assert frozen["machine.py"].endswith("ports/esp32/modules/machine.py")  # machine.Counter
    assert "hal/esp32/board.py" in frozen and "firmware/cabinet/controller.py" in frozen
    assert "hal/bootpath.py" in frozen and "firmware/release.py" in frozen
    assert "asyncio/core.py" in frozen


def test_every_board_side_snippet_of_a_deploy_runs_on_the_unix_port(tmp_path):
    """The code deploy sends over the raw REPL (flag, sweep, flag removal), in order."""
    (tmp_path / "old.mpy").write_bytes(b"x")
    mp = os.path.join(ROOT, ".venv", "bin", "micropython")
    codes = [s[s.index("exec") + 1] for s in D.plan("rp2", "auto", "img.uf2", None, True, False)
             if s[0] != "sleep" and "exec" in s]
    assert len(codes) == 4  # flag, flag again after the image, sweep, flag removal
    for code in codes[:2]:
        subprocess.run([mp, "-c", code], cwd=tmp_path, check=True)
        assert (tmp_path / D.FLAG).exists()
    for name in release.FS_FILES + release.STATE_FILES:
        (tmp_path / name).write_bytes(b"# release\n")
    subprocess.run([mp, "-c", codes[2]], cwd=tmp_path, check=True)
    keep = release.FS_FILES + release.STATE_FILES  # the provisioned mark stays
    assert sorted(os.listdir(tmp_path)) == sorted(keep + (D.FLAG,))
    for _ in range(2):  # also when a format already took the flag
        subprocess.run([mp, "-c", codes[3]], cwd=tmp_path, check=True)
    assert sorted(os.listdir(tmp_path)) == sorted(keep)


def test_deploy_sets_the_boards_role_at_a_table_and_keeps_it(tmp_path):
    """--table writes table.cfg (hal/role.py) after the sweep, which keeps
    it (a state file); "" removes it: the stand-alone cabinet again."""
    from hal import role
    mp = os.path.join(ROOT, ".venv", "bin", "micropython")
    steps = D.plan("rp2", "auto", "img.uf2", None, True, False, "station 3")
    codes = [s[s.index("exec") + 1] for s in steps if s[0] != "sleep" and "exec" in s]
    assert len(codes) == 5 and "table.cfg" in codes[3]
    subprocess.run([mp, "-c", codes[3]], cwd=tmp_path, check=True)
    assert role.read(str(tmp_path / "table.cfg")) == ("station", 3, {})
    subprocess.run([mp, "-c", codes[2]], cwd=tmp_path, check=True)    # the sweep keeps it
    assert (tmp_path / "table.cfg").exists()
    subprocess.run([mp, "-c", D.table_script("")], cwd=tmp_path, check=True)
    assert not (tmp_path / "table.cfg").exists()
    assert D.main(["--table", "station 9", "--dry-run"]) == 2        # refused, nothing run
