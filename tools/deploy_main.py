"""Install a release on a board: the firmware image, then exactly the files the
release puts on the filesystem (firmware/release.py FS_FILES), everything
else on the filesystem deleted. Host side (CPython), driven by tools/deploy.

  tools/deploy [--board rp2|esp32] [--port PORT] [--image FILE] [--drive DIR]
               [--no-image] [--table "dome"|"station N"|""] [--dry-run]
  tools/deploy --safe-boot [--port PORT] [--dry-run]    (rescue: flag + reset only)

Sequence (every step printed; --dry-run prints without running):
 1. safe boot: on a release cabinet the REPL is shut until the technician
    opens the logic door and powers up holding CASHOUT + HELP (logged in
    the journal: docs/INSTALL.md, step 2); a new board's REPL is free.
    Over it write the flag file SAFE_BOOT, then hard-reset: the board
    comes back without the cabinet (main.py sees the flag before anything
    arms the watchdog; the door still open, that start is logged too and
    the REPL stays free for the rest). After each reset deploy waits until
    the board's REPL answers (up to READY_S: safe boot checks the whole
    journal before it logs the act, seconds on a full one).
 2. the image (then the flag again: the first boot of a new flash layout
    formats the filesystem): rp2: `mpremote bootloader`, then the UF2 copied to the
    RPI-RP2 drive (--drive DIR) or `picotool load -x` (apt-get install
    picotool); esp32: esptool writes bootloader, partition table (with the
    "journal" partition) and app from the ESP-IDF build folder. The rp2
    journal region (top 256 KiB of the storage area) and the esp32 "journal"
    partition are never written.
 3. the release's filesystem files, copied with mpremote.
 4. stale files: every other file on the board's filesystem is deleted,
    except the board's own (STATE_FILES: the journal's provisioned mark, its
    role at a table). --table writes that role into table.cfg (hal/role.py:
    "dome", "station N"; "" removes it: the stand-alone cabinet).
 5. the flag is deleted last and the board reset: the cabinet starts.
A deploy cut anywhere before 5 leaves the flag: the board stays in safe boot.

Defaults: --image build/rp2/cabinet-rp2-frozen.uf2 (rp2) or the folder
build/esp32 (esp32; tools/build-firmware writes both), --port auto.
"""
import ast
import json
import os
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_BIN = os.path.join(ROOT, ".venv", "bin")
FLAG = "SAFE_BOOT"
ESPTOOL = "esptool==5.6.0"
DEFAULT_IMAGE = {"rp2": "build/rp2/cabinet-rp2-frozen.uf2", "esp32": "build/esp32"}
# ESP-IDF build outputs and where they go (the 4 MiB layout: hal/esp32/partitions-4MiB.csv)
READY_S = 60
ESP32_PARTS = (("0x1000", "bootloader/bootloader.bin"),
               ("0x8000", "partition_table/partition-table.bin"),
               ("0x10000", "micropython.bin"))


def fs_files():
    """FS_FILES of the clone's firmware/release.py (read as data)."""
    from digest_host import release_fs_files
    return release_fs_files(ROOT)


def state_files():
    """STATE_FILES of firmware/release.py (read as data)."""
    with open(os.path.join(ROOT, "firmware", "release.py")) as f:
        for node in ast.parse(f.read()).body:
            if isinstance(node, ast.Assign) and node.targets[0].id == "STATE_FILES":
                return tuple(ast.literal_eval(node.value))
    raise SystemExit("firmware/release.py has no STATE_FILES")


def stale_script(keep):
    """MicroPython code run on the board: deletes every file not in `keep`
    (paths relative to '/'), then the directories left empty."""
    return ('import os\n'
            'def _rm(p, keep):\n'
            '    for e in list(os.ilistdir(p or ".")):\n'
            '        q = p + e[0]\n'
            '        if e[1] == 0x4000:\n'
            '            _rm(q + "/", keep)\n'
            '            try:\n'
            '                os.rmdir(q)\n'
            '            except OSError:\n'
            '                pass\n'
            '        elif q not in keep:\n'
            '            os.remove(q)\n'
            '            print("removed", q)\n'
            '_rm("", %s)\n' % json.dumps(sorted(keep)))


def table_script(text):
    """The board-side code that sets its role at a table (hal/role.py)."""
    if not text:
        return 'import os; "table.cfg" in os.listdir() and os.remove("table.cfg")'
    return 'f = open("table.cfg", "w"); f.write(%s); f.close()' % json.dumps(text + "\n")


def plan(board, port, image, drive, with_image, safe_only, table=None):
    """The commands, in order; each a list of argv, ("sleep", s), or
    ("ready", argv, s): argv retried until it succeeds, up to s seconds."""
    mp = [os.path.join(VENV_BIN, "mpremote"), "connect", port]
    set_flag = mp + ["exec", 'open("%s", "w").close()' % FLAG]
    ready = ("ready", mp + ["exec", "pass"], READY_S)
    steps = [set_flag, mp + ["reset"], ("sleep", 3), ready]
    if safe_only:
        return steps
    if with_image:
        if board == "rp2":
            steps += [mp + ["bootloader"], ("sleep", 3)]
            if drive:
                steps.append(["cp", image, os.path.join(drive, "firmware.uf2")])
            else:
                steps.append(["picotool", "load", "-x", image])
        else:
            esptool = [os.path.join(VENV_BIN, "esptool"), "--chip", "esp32", "--port",
                       port if port != "auto" else "/dev/ttyUSB0", "--baud", "460800",
                       "write-flash", "-z"]
            for addr, rel in ESP32_PARTS:
                esptool += [addr, os.path.join(image, rel)]
            steps.append(esptool)
        # the first boot of a new layout formats the filesystem: flag again
        steps += [("sleep", 5), ready, set_flag]
    keep = fs_files()
    steps.append(mp + ["fs", "cp"] + [os.path.join(ROOT, f) for f in keep] + [":"])
    # the cabinet's own files (the provisioned mark) are not stale: deleting the
    # mark would let a wiped journal pass for a new cabinet
    steps.append(mp + ["exec", stale_script(keep + state_files() + (FLAG,))])
    if table is not None:
        steps.append(mp + ["exec", table_script(table)])
    steps.append(mp + ["exec", 'import os; "{0}" in os.listdir() and os.remove("{0}")'.format(FLAG)])
    steps.append(mp + ["reset"])
    return steps


def show(step):
    if step[0] == "sleep":
        return "sleep %d" % step[1]
    if step[0] == "ready":
        return "until it answers (up to %d s): %s" % (step[2], show(step[1]))
    return " ".join(shlex.quote(os.path.relpath(a, ROOT) if a.startswith(ROOT) else a)
                    for a in step)


def ready(argv, seconds):
    """Runs argv until it succeeds (the board's REPL answers) or `seconds`
    passed: a board back from a reset is not at its REPL at once (its USB
    port comes back first, then safe boot logs the act)."""
    end = time.monotonic() + seconds
    while subprocess.run(argv, capture_output=True).returncode:
        if time.monotonic() >= end:
            return False
        time.sleep(1)
    return True


def _value(argv, name, default=None):
    for i, a in enumerate(argv):
        if a == name and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return default


def main(argv):
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        return 0
    board = _value(argv, "--board", "rp2")
    if board not in DEFAULT_IMAGE:
        print("--board must be rp2 or esp32", file=sys.stderr)
        return 2
    port = _value(argv, "--port", "auto")
    given = _value(argv, "--image")  # from the caller's folder; the default is the clone's
    image = os.path.abspath(given) if given else os.path.join(ROOT, DEFAULT_IMAGE[board])
    drive = _value(argv, "--drive")
    dry = "--dry-run" in argv or "-n" in argv
    with_image = "--no-image" not in argv
    safe_only = "--safe-boot" in argv
    table = _value(argv, "--table")
    if table is not None:
        sys.path[:0] = [ROOT]
        from hal import role
        try:
            role.parse(table)
        except ValueError as e:
            print("--table: %s" % e, file=sys.stderr)
            return 2
    if with_image and not safe_only and not os.path.exists(image):
        msg = "image not found: %s (tools/build-firmware %s, or --image FILE)" % (image, board)
        if not dry:
            print(msg, file=sys.stderr)
            return 2
        print("# " + msg)
    if board == "esp32" and with_image and not safe_only and not dry:
        subprocess.run([os.path.join(VENV_BIN, "pip"), "install", "-q", ESPTOOL], check=True)
    for step in plan(board, port, image, drive, with_image, safe_only, table):
        print(show(step), flush=True)
        if dry:
            continue
        if step[0] == "sleep":
            time.sleep(step[1])
        elif step[0] == "ready":
            if not ready(step[1], step[2]):
                print("no answer from the board in %d s: is the logic door open? (the board keeps %s: "
                      "safe boot)" % (step[2], FLAG), file=sys.stderr)
                return 1
        elif subprocess.run(step).returncode:
            print("deploy stopped at: %s (the board keeps %s: safe boot)" % (show(step), FLAG),
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
