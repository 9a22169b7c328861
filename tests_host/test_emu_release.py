"""The release checks on the real MicroPython v1.28.0 rp2 port, emulated
(rp2040js through ../shared/rp2-emu's reference harness run.mjs and its
stock RPI_PICO UF2; CPython/pytest only):

- Verify's image digest read from the emulated flash (hal/rp2/image.py through
  uctypes) equals `tools/digest FILE.uf2` on the host;
- a hashlib.py on the filesystem shadows the built-in under the port's own
  sys.path, not under the cabinet's ('.frozen' only), and Verify reports it;
- a real boot (boot.py -> main.py) with the SAFE_BOOT flag builds the rp2
  board (no display on I2C: a named fault, no traceback), starts no
  controller and leaves the REPL prompt.

Skipped with one line when the shared material or node is missing. npm
installs the harness's pinned packages (package-lock.json) once into
$XDG_CACHE_HOME/bubblecraps/emu-ref (default ~/.cache).
"""
import hashlib
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                     "bubblecraps", "emu-ref")
NEEDED = ("run.mjs", "package.json", "package-lock.json", "bootrom_b1.bin",
          "micropython-v1.28.0-RPI_PICO.uf2", "mkfs.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import sharedpath  # noqa: E402


def _harness():
    shared = sharedpath.rp2_emu(*NEEDED)
    if shared is None:
        pytest.skip("%s: emulated release checks skipped" % sharedpath.missing_note())
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node/npm not installed: emulated release checks skipped")
    os.makedirs(CACHE, exist_ok=True)
    for n in NEEDED:
        src, dst = os.path.join(shared, n), os.path.join(CACHE, n)
        if not os.path.isfile(dst) or os.path.getmtime(dst) < os.path.getmtime(src):
            shutil.copyfile(src, dst)
    lock = open(os.path.join(CACHE, "package-lock.json"), "rb").read()
    stamp = os.path.join(CACHE, "node_modules", ".lock-sha256")
    want = hashlib.sha256(lock).hexdigest()
    if not os.path.isfile(stamp) or open(stamp).read() != want:
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=CACHE, check=True,
                       capture_output=True, timeout=600)
        with open(stamp, "w") as f:
            f.write(want)
    return CACHE


def _node(cache, args, timeout=300):
    r = subprocess.run(["node", "run.mjs"] + args, cwd=cache, capture_output=True, text=True,
                       timeout=timeout)
    return r.returncode, r.stdout, r.stderr


PUT = ("hal/__init__.py", "hal/bootpath.py", "hal/image.py", "hal/rp2/__init__.py", "hal/rp2/image.py",
       "firmware/__init__.py", "firmware/release.py", "firmware/audit/__init__.py",
       "firmware/audit/digest.py", "main.py", "boot.py")

SCRIPT = """
import sys
import hashlib as h0
print("SHADOWED", hasattr(h0, "SHADOW"))
del sys.modules["hashlib"]
from hal import bootpath
saved = list(sys.path)
bootpath.frozen_only(sys.path)
import hashlib
print("FROZEN_ONLY", hasattr(hashlib, "SHADOW"), hasattr(hashlib, "sha256"), sys.path)
# The stock image has our modules on the filesystem, not frozen: put the path
# back for them, holding on to the built-in hashlib (a built-in is not kept in
# sys.modules by itself, so the next import would search the path again).
sys.modules["hashlib"] = hashlib
sys.path.extend(saved)
from firmware.audit.digest import for_board
d = for_board(".")
print("DIGEST", d.run(), len(d.files))
print("EXTRAS", " ".join(d.extras))
"""


def test_emulated_verify_equals_tools_digest_and_reports_shadowing_file():
    cache = _harness()
    shadow = os.path.join(cache, "hashlib.py")
    with open(shadow, "w") as f:
        f.write("SHADOW = 1\n")
    args = ["--firmware", "micropython-v1.28.0-RPI_PICO.uf2", "--timeout", "240"]
    for rel in PUT:
        args += ["--put", "%s:/%s" % (os.path.join(ROOT, rel), rel)]
    args += ["--put", shadow + ":/hashlib.py", "-c", SCRIPT]
    rc, out, err = _node(cache, args)
    assert rc == 0, out + err
    assert "SHADOWED True" in out  # the hazard, under the port's own sys.path
    assert "FROZEN_ONLY False True ['.frozen']" in out, out
    verify = out.split("DIGEST ")[1].split()[0]
    uf2 = os.path.join(cache, "micropython-v1.28.0-RPI_PICO.uf2")
    # the stock image carries no release list (our modules are files here)
    tool = subprocess.run([os.path.join(ROOT, "tools", "digest"), uf2, "--fs", ROOT, "--files-from", ROOT],
                          capture_output=True, text=True, check=True).stdout
    assert "SHA-256 " + verify in tool, (verify, tool)
    extras = out.split("EXTRAS ")[1].split("\n")[0].split()
    assert "hashlib.py" in extras and "firmware/audit/digest.py" in extras
    assert "main.py" not in extras


def test_emulated_safe_boot_flag_leaves_the_repl_free(tmp_path):
    cache = _harness()
    fs = tmp_path / "fs"
    for rel in ["main.py", "boot.py"] + [
            os.path.relpath(os.path.join(d, n), ROOT)
            for top in ("hal",) for d, dirs, files in os.walk(os.path.join(ROOT, top))
            for n in files if n.endswith(".py") and "/mock" not in d and "/esp32" not in d]:
        dst = fs / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, rel), dst)
    (fs / "SAFE_BOOT").write_text("")
    img = tmp_path / "fs.img"
    subprocess.run([sys.executable, os.path.join(cache, "mkfs.py"), str(fs), str(img)], check=True)
    rc, out, err = _node(cache, ["--firmware", "micropython-v1.28.0-RPI_PICO.uf2", "--fs-image",
                                 str(img), "--main", "--sim-ms", "30000", "--timeout", "240"])
    text = out + err
    assert "SAFE BOOT (flag): cabinet not started, REPL free" in text, text[-2000:]
    assert "Traceback" not in text and rc == 0, text[-2000:]
    assert text.rstrip().endswith(">>>"), text[-500:]
