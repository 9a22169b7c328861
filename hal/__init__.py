"""Hardware abstraction for the bubble-craps cabinet.

`hal.detect(**options)` returns the board object for `sys.platform`: 'rp2' ->
hal.rp2.board.Board, 'esp32' -> hal.esp32.board.Board, anything else ->
hal.mock.board.Board (so `micropython main.py` on a host runs the mock).
Options are passed to the board's constructor.

Board attributes (duck-typed; mock and hardware behave alike). All times are
`ticks_ms` values (wrap at 2**30, compare with clock.ticks_diff). Nothing here
uses floats. Methods never block longer than noted.

shaker
    start(duty, ms) -> None: ramp linearly from the current duty to duty
        (per mille, clamped 0..1000) over ms milliseconds; the ramp advances
        only in tick(). running becomes True.
    tick(now_ms) -> int: advance the ramp, returns the applied duty (per mille).
        Call every main-loop pass while running.
    stop() -> None: duty 0 at once, running False.
    running: bool; duty: int (applied per mille); target: int.
    motion() -> True/False from the motion sensor, None if the board has none.
dice
    read() -> (d1, d2): one sample; each 1..6, or 0 = unreadable (cocked, moving,
        missing, invalid sensor code). Decoding: hal.dice_decode. The caller
        requires a stable reading over a settle window (hal.dice_decode.Settler).
buttons
    poll(now_ms) -> tuple of button codes (hal.buttons: NEXT, PREV, CHIP, BET_UP,
        BET_DOWN, ONOFF, ODDS, REBET, CLEAR, ROLL, CASHOUT, HELP) newly pressed,
        debounced (50 ms polling debouncer): each press reported once.
    held() -> int mask of held buttons (bit = code). Names: hal.buttons.names.
    busy() -> int mask of keys whose change the debouncer has not accepted yet
        (the controller starts no flash erase then: a short press would be missed).
    sample(now_ms) -> None: one more debouncer sample between polls (the main
        loop takes one after each task while busy()); the next poll reports it.
display
    framebuf.FrameBuffer subclass, 128x64 MONO_VLSB (SSD1306), width, height;
    show() -> None sends the frame (about 25 ms over 400 kHz I2C); show(part)
    sends part 0..parts-1 of it (parts = 4: two pages, ~6 ms each), so the
    controller can answer SAS in between. The mock adds
    to_text(mode='braille'|'blocks'|'ascii') -> str and `frames` (counted
    when the last part is sent).
buzzer
    cue(sound, now_ms) -> None: plays one of the station's sounds
        (hal.buzzer.LAST_CALL, NO_MORE_BETS, WIN, SEVEN_OUT: patterns as
        data); play(tune, now_ms) -> None: any tune ((freq_hz, ms), ...);
        tick(now_ms) advances it (main loop); playing: bool; last, cues: the
        sound cued last, how many were. hal/buzzer.py. Mock: every frequency
        set goes to board.tones.
lamps
    set(mask) -> None with hal.lamps.RED | AMBER | GREEN | WHITE; state: int.
door, audit_key, tilt
    value() -> 0/1, debounced on each call (1 = door open / key turned / tilted).
    A cut door wire reads open.
logic_door, cashbox_door
    the same for the logic area (card cage) door and the cash box door; a board
    without them leaves the attribute out.
money
    counts() -> (bill_pulses, coin_pulses): cumulative since power-up, never reset,
        counted in hardware or an IRQ so none are lost while the loop is busy.
    last_pulse_ms(channel) -> ticks_ms of the channel's last pulse or None
        (channel hal.pulses.BILL = 0, COIN = 1; on rp2 PIO channels: the time the
        count was first seen to change).
    inhibit(flag) -> None: True = validator/acceptor refuse money (power-up state);
        inhibited: bool.
printer
    print_ticket(lines, barcode=None, serve=None) -> bool: prints ASCII lines, then
        `barcode` (even number of digits) as Interleaved 2 of 5, and cuts; True if it
        was ready and still without fault afterwards (blocks for the UART transfer;
        `serve()`, if given, runs between its parts: the SAS polls answered).
    status() -> hal.printer.OK / PAPER_LOW / PAPER_OUT / FAULT (no answer = FAULT;
        up to ~200 ms on hardware).
    poll() -> None or a status as status(): the same request one step a call,
        never waiting (ESC/POS: a status every third call); for the idle watch.
watchdog
    feed() -> None. Hardware: the first feed() arms the WDT (cannot be stopped).
clock
    ticks_ms() -> int; ticks_diff(a, b) -> int; ticks_add(t, d) -> int;
    now() -> int seconds since 1970-01-01 UTC (valid once set; set_by_host).
    set_time(t) -> None sets the wall clock (SAS 7F).
flash
    block device for the journal region (4096-byte blocks): readblocks(n, buf,
    offset=0), writeblocks(n, buf, offset=None), ioctl(op, arg) per the extended
    block-device protocol (with an offset writeblocks only programs; erase with
    ioctl(6, n)). rp2: rp2.Flash sub-range, esp32: esp32.Partition("journal"),
    mock: hal.mock.norflash.NorFlash. None if the board has no journal region.
generation (optional)
    block device of the same protocol for the generation log
    (firmware/store/generation.py), apart from the journal region and the
    filesystem: rp2: the 32 KiB below the journal; mock: 8 KiB of its own
    NorFlash. Absent (esp32) or None: the rollback check has the anchor's
    sector granularity only.
serial
    technician byte stream: read(buf) -> int bytes put in buf (0 if none, never
    blocks); write(data) -> int bytes written.
sas
    SAS line (19,200 baud, wakeup mode) or None: read(buf, wake) -> n puts the
    received bytes in buf and their ninth (wakeup) bit, 1/0, in wake; never
    blocks; write(data) -> int sends bytes with the ninth bit clear.
platform
    'rp2', 'esp32' or 'mock'.
starts
    get() -> int, set(n): failed starts in a row, kept through a reset and
    cleared by a power cycle (hal/restarts.py; firmware/cabinet/crashlock.py).
reset() -> None: restarts the board (machine.reset(): never returns on a board;
    the mock counts it in `resets` and returns).
faults() -> list of hal.faults codes of devices that do not answer (display,
    input chain, journal region); the printer is judged by its status().
    Hardware boards only (the mock's devices always answer; tests replace it).

`hal.image.read()` (not a board attribute: Verify needs no board) is the
running firmware image.
"""
import sys


def detect(**options):
    p = sys.platform
    if p == "rp2":
        from hal.rp2.board import Board
    elif p == "esp32":
        from hal.esp32.board import Board
    else:
        from hal.mock.board import Board
    return Board(**options)

