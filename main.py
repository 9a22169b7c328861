"""Cabinet entry point. On a board: detect the HAL, run the controller forever.

On a host (`micropython main.py`, the simulator) the mock board is used and
options come from environment variables (tools/sim sets them):
  SIM_SEED, SIM_PROFILE, SIM_COCKED, SIM_FLICKER, SIM_STUCK (per mille),
  SIM_MOTOR_FAIL (1), SIM_FLASH (file, persistent NOR flash),
  SIM_HEADLESS (script file: fake clock, every screen printed as text),
  SIM_SERIAL (tcp:HOST:PORT or unix:PATH for the technician read-out),
  SIM_SAS (unix:PATH or tcp:HOST:PORT: the SAS port, see tools/sas_bridge.py),
  SIM_MONEY_LOG (file: every pulse delivered and ticket printed, hal.mock.moneylog.MoneyLog),
  SIM_BILLS (escrow: an ID-003 style validator, the default; pulse: a pulse validator),
  SIM_SIZE (small: fits 80x24, the default; large: 132x52, hal/mock/termview.py),
  SIM_SOUND (auto, the default: a WAV player when found, else the terminal
  bell; wav; bell; off: the sound line only; hal/mock/sound.py),
  SIM_ROLE (a table's node: "dome [key=value ...]" or "station N", hal/role.py;
  on a board the file table.cfg says it): the node of tools/sim --seats, driven over
  stdin/stdout (hal/mock/tablenode.py), SIM_START_MS (its clock's start).
"""
try:
    import sys
    if sys.path == [".frozen"]:
        # a release image (hal/bootpath.py): Ctrl-C never reaches the REPL
        # (pyexec gave it back for this file; firmware/cabinet/repl_gate.py)
        import micropython
        micropython.kbd_intr(-1)
except KeyboardInterrupt:  # one that came before the line above: no REPL either
    import machine
    machine.reset()


def _env(name, default=None):
    try:
        import os
        v = os.getenv(name)
    except Exception:
        v = None
    return default if v is None or v == "" else v


def _int(name, default):
    try:
        return int(_env(name, default))
    except ValueError:
        return default


def _role(text=None):
    """(role, station address, dome settings) from table.cfg (a board) or
    the text given (the simulator); None, said on the console, when the text
    does not parse: the board does not start (a station must not run as a
    stand-alone cabinet with its own dome by mistake)."""
    from hal import role
    try:
        return role.read() if text is None else role.parse(text)
    except ValueError as e:
        print("table.cfg: %s: not started" % e)
        return None


def controller(board, role, profile=None, store=None):
    """The role's controller: the dome's, or the cabinet's (a station's game
    cycle follows the dome)."""
    if role[0] == "dome":
        from firmware.table.dome import DomeController
        return DomeController(board, role[2])
    from firmware.cabinet.controller import Controller
    return Controller(board, store, profile, seat=role[1])


def _sleep_ms(ms):
    import time
    time.sleep_ms(ms)


def _halt():
    """Neither the cabinet nor the REPL (a release image refused both)."""
    while True:
        _sleep_ms(1000)


def board_main(release):
    """Returns True only to leave the board at the REPL: safe boot (on a
    release image only with the logic door open and the act in the journal,
    firmware/cabinet/repl_gate.py)."""
    import hal
    from hal import safeboot
    role = _role()
    # arms nothing: the watchdog starts at its first feed
    board = hal.detect(role=role[0] if role else "cabinet")
    why = safeboot.requested(board)
    if why:
        board.starts.set(0)  # the technician's act: the cabinet gets its tries back
        if release:
            from firmware.cabinet import repl_gate
            if not repl_gate.open_repl(board, why, _sleep_ms):
                _halt()
        print("SAFE BOOT (%s): cabinet not started, REPL free" % why)
        return True
    if role is None:
        if release:
            _halt()
        return True
    # counted starts; after crashlock.LIMIT failed ones in a row, the lock
    from firmware.cabinet import crashlock
    crashlock.run(board, lambda: controller(board, role))
    return False


def _sim_options():
    opts = {
        "cocked_permille": _int("SIM_COCKED", 0),
        "flicker_permille": _int("SIM_FLICKER", 0),
        "stuck_permille": _int("SIM_STUCK", 0),
        "motor_fail": _int("SIM_MOTOR_FAIL", 0) == 1,
        "flash_path": _env("SIM_FLASH", "sim-flash.bin"),
        "escrow": _env("SIM_BILLS", "escrow") != "pulse",
    }
    seed = _env("SIM_SEED")
    if seed is not None:
        opts["seed"] = int(seed)
    serial = _env("SIM_SERIAL")
    if serial:
        opts["serial"] = serial
    sas = _env("SIM_SAS")
    if sas:
        opts["sas"] = sas
    log = _env("SIM_MONEY_LOG")
    if log:
        opts["money_log"] = log
    return opts


def headless_main(path):
    import hal
    from firmware.cabinet.drive import Driver
    opts = _sim_options()
    opts["fake_clock"] = True
    board = hal.detect(**opts)
    drv = Driver(board, out=None, profile=_env("SIM_PROFILE"))
    _profile_note(drv.ctl)
    t0 = [0]

    def show(text):
        print("--- t=%d.%03ds %s" % (drv.t // 1000, drv.t % 1000, _status(drv.ctl)))
        print(text)

    drv.out = show
    src = sys.stdin if path == "-" else open(path)
    try:
        drv.script(src, print)
    finally:
        board.close()
    print("--- end: %s" % _status(drv.ctl))
    if drv.failures:
        print("%d expectation(s) failed" % drv.failures)
        sys.exit(1)


def _profile_note(ctl):
    """--profile not applied: say so in the terminal too (the screen does)."""
    if ctl.profile_refused:
        print("sim: %s: --profile %s not applied, still playing %s (cash out first)" % (
            ctl.profile_refused.replace("\n", ": "), _env("SIM_PROFILE"),
            ctl.store.ledger.config["profile"]))


def _status(ctl):
    from firmware import fmt
    from firmware.cabinet.game import STATE_NAMES
    led = ctl.store.ledger
    return "state=%s credits=$%s bet=$%s point=%d lock=%s%s" % (
        STATE_NAMES[ctl.game.state], fmt(led.table.credits), fmt(led.table.on_table()),
        led.table.point, led.suspended() or "-",
        " CRITICAL" if ctl.store.critical else "")


def interactive_main():
    import asyncio
    import hal
    from hal.mock.termview import frame, SIZES
    from firmware.cabinet.controller import Controller
    opts = _sim_options()
    opts["keyboard"] = True
    size = _env("SIM_SIZE", "small")
    if size not in SIZES:
        print("sim: --size %s: one of %s" % (size, " ".join(sorted(SIZES))))
        sys.exit(2)
    board = hal.detect(**opts)
    ctl = Controller(board, profile=_env("SIM_PROFILE"))
    _profile_note(ctl)
    note = ""
    if ctl.profile_refused:
        note = "--profile %s not applied: %s" % (
            _env("SIM_PROFILE"), ctl.profile_refused.replace("\n", ": "))
    out = sys.stdout
    from hal.buzzer import NAMES
    from hal.mock.sound import Speaker
    mode = _env("SIM_SOUND", "auto")
    if mode not in ("auto", "wav", "bell", "off"):
        print("sim: --sound %s: one of auto wav bell off" % mode)
        sys.exit(2)
    speaker = Speaker(mode)
    heard = [None, 0, "-"]  # the buzzer, its cues played so far, the sound line

    def draw(disp):
        bell = ""
        bz = board.buzzer
        if bz is not heard[0]:  # a new board after a restart
            heard[0], heard[1] = bz, bz.cues
        if bz.cues != heard[1]:
            heard[1] = bz.cues
            heard[2] = NAMES[bz.last]
            bell = speaker.play(bz.last)
        # from the top left, each line cleared to its end: no flicker, no
        # line of the last frame left over
        lines = frame(ctl, board, size, heard[2], note)
        out.write("\x1b[H" + "\x1b[K\r\n".join(lines) + "\x1b[K\x1b[J" + bell)

    out.write("\x1b[2J")
    board.display.on_show = draw
    try:
        while True:
            asyncio.run(ctl.run(lambda: board.resets > 0))
            # the cabinet asked for a restart: a new one on the same flash file
            board.close()
            print("sim: the cabinet restarted (%s)\r" % ctl.restarting())
            board = hal.detect(**opts)
            board.display.on_show = draw
            ctl = Controller(board, profile=_env("SIM_PROFILE"))
    except KeyboardInterrupt:
        pass
    finally:
        board.close()


def main():
    if sys.platform in ("rp2", "esp32"):
        # a release image never falls to the REPL by an error either
        release = sys.path == [".frozen"]
        try:
            if board_main(release) or not release:
                return
        except Exception as exc:
            if not release:
                raise
            sys.print_exception(exc)
        import machine
        machine.reset()
    role = _env("SIM_ROLE")
    script = _env("SIM_HEADLESS")
    if role:
        from hal.mock import tablenode
        opts = _sim_options()
        opts["start_ms"] = _int("SIM_START_MS", 0)
        role = _role(role)
        if role is None:
            sys.exit(2)
        tablenode.main(role, opts, controller, _env("SIM_PROFILE"))
    elif script:
        headless_main(script)
    else:
        interactive_main()


main()
