"""HAL tests that run on CPython (pytest) and on the MicroPython unix port:
  .venv/bin/micropython -X heapsize=192K tests_host/mp_runner.py test_hal_mock
Plain functions with asserts only.
"""
import hal
from hal import buttons as B
from hal.debounce import Debouncer, Switch
from hal.dice_decode import FACE_OF_CODE, Settler, decode, decode_pair, encode_pair
from hal.printer import FAULT, OK, PAPER_LOW, PAPER_OUT, EscPosPrinter, status_from_replies
from hal.pulses import BILL, COIN
from hal.counters import IrqCounter
from hal.shaker import Shaker, ramp_duty


def board(**kw):
    kw.setdefault("seed", 7)
    kw.setdefault("fake_clock", True)
    kw.setdefault("flash", False)  # 256 KiB NOR model: too big for a 192K heap per test
    return hal.detect(**kw)


# --- debounce / buttons -------------------------------------------------------

def test_debounce_bouncing_press_reported_once():
    d = Debouncer(1, 50)
    t = 0
    seen = 0
    # contact bounce: 1,0,1,0... every 4 ms for 40 ms, then held for 200 ms
    for i in range(10):
        seen += bin(d.update((i + 1) & 1, t)).count("1")
        t += 4
    assert seen == 0 and d.state == 0
    for _ in range(50):
        seen += bin(d.update(1, t)).count("1")
        t += 4
    assert seen == 1 and d.state == 1
    # release with bounce, then press again: a second press
    for i in range(10):
        seen += bin(d.update(i & 1, t)).count("1")
        t += 4
    for _ in range(20):
        d.update(0, t)
        t += 4
    assert d.state == 0 and seen == 1
    for _ in range(20):
        seen += bin(d.update(1, t)).count("1")
        t += 4
    assert seen == 2


def test_debounce_short_glitch_ignored():
    d = Debouncer(3, 50)
    assert d.update(0b010, 0) == 0
    assert d.update(0b000, 30) == 0  # back before 50 ms
    assert d.update(0b000, 200) == 0
    assert d.state == 0


def test_debounce_across_tick_wrap():
    from hal.ticks import TICKS_PERIOD, ticks_add

    d = Debouncer(1, 50)
    t = TICKS_PERIOD - 20
    assert d.update(1, t) == 0
    assert d.update(1, ticks_add(t, 60)) == 1  # 60 ms later, after the wrap
    assert ticks_add(t, 60) == 40
    assert ticks_add(0, -1) == TICKS_PERIOD - 1  # the period matches the port's ticks


def test_buttons_press_seen_once_with_codes():
    b = board()
    c = b.clock
    b.press(B.ROLL)
    b.press(B.CHIP)
    got = []
    for _ in range(20):
        got.extend(b.buttons.poll(c.ticks_ms()))
        c.advance(20)
    assert sorted(got) == sorted([B.ROLL, B.CHIP])
    b.press(B.ROLL)  # same button again: a second press
    for _ in range(20):
        got.extend(b.buttons.poll(c.ticks_ms()))
        c.advance(20)
    assert got.count(B.ROLL) == 2


def test_buttons_short_press_seen_when_sampled_between_polls():
    # A 120 ms press whose polls fall 5 ms and 130 ms after it starts: the
    # debouncer never sees it held for 50 ms at a poll. One sample between
    # them (the main loop takes one after each task while busy()) keeps it.
    raw = [0]
    bank = B.Buttons(lambda: raw[0])
    raw[0] = 1 << B.BET_UP
    assert bank.poll(5) == ()
    assert bank.busy()
    bank.sample(60)
    raw[0] = 0
    assert bank.poll(130) == (B.BET_UP,)
    assert bank.poll(200) == ()     # reported once
    unsampled = B.Buttons(lambda: raw[0])
    raw[0] = 1 << B.BET_UP
    assert unsampled.poll(5) == ()
    raw[0] = 0
    assert unsampled.poll(130) == ()   # what a pass longer than the press loses


def _loop_sees(sample_when, task_ms=14, tasks=5):
    """Two 120 ms presses 80 ms apart through a main loop model: tick_inputs
    polls once a round of `tasks` tasks of `task_ms` each; after every task
    the loop samples when sample_when(bank, now) says so."""
    level = lambda t: 1 << B.BET_UP if 3 <= t < 123 or 203 <= t < 323 else 0
    raw = [0]
    bank = B.Buttons(lambda: raw[0])
    got = []
    t = 0
    while t < 600:
        raw[0] = level(t)
        got += bank.poll(t)
        for _ in range(tasks):
            t += task_ms
            raw[0] = level(t)
            if sample_when(bank, t):
                bank.sample(t)
    return got


def test_buttons_first_seen_one_task_after_a_press_or_release():
    # A round of tasks (here 70 ms) longer than a press leaves 50 ms: sampled
    # only while busy(), a press (or the release between two) is first seen
    # at the next poll, too late; due() samples after any task once the
    # newest sample is SAMPLE_MS old.
    assert _loop_sees(lambda bank, t: bank.due(t)) == [B.BET_UP, B.BET_UP]
    assert _loop_sees(lambda bank, t: bank.busy()) != [B.BET_UP, B.BET_UP]
    bank = B.Buttons(lambda: 0)
    bank.sample(100)
    assert not bank.due(100 + B.SAMPLE_MS - 1) and bank.due(100 + B.SAMPLE_MS)


def test_buttons_raw_bounce_through_board():
    b = board()
    c = b.clock
    got = []
    for i in range(8):
        b.buttons.set_raw((1 << B.HELP) if i & 1 else 0)
        got.extend(b.buttons.poll(c.ticks_ms()))
        c.advance(5)
    assert got == []
    b.buttons.set_raw(1 << B.HELP)
    for _ in range(10):
        got.extend(b.buttons.poll(c.ticks_ms()))
        c.advance(10)
    assert got == [B.HELP]


def test_button_names_complete():
    # (12 -> 20 buttons: the six group keys, NUMBER and MYBETS were added)
    codes = (B.NEXT, B.PREV, B.CHIP, B.BET_UP, B.BET_DOWN, B.ONOFF, B.ODDS, B.REBET,
             B.CLEAR, B.ROLL, B.CASHOUT, B.HELP, B.LINE, B.COME, B.PLACE, B.HARD,
             B.PROPS, B.BONUS, B.NUMBER, B.MYBETS)
    assert len(set(codes)) == B.COUNT == 20
    for code in codes:
        assert 0 <= code < B.COUNT
        assert B.names[code]
    assert B.names[B.ROLL] == "ROLL"


def test_switch_debounced():
    t = [0]
    level = [0]
    sw = Switch(lambda: level[0], lambda: t[0])
    assert sw.value() == 0
    level[0] = 1
    assert sw.value() == 0
    t[0] = 20
    level[0] = 0
    assert sw.value() == 0
    level[0] = 1
    t[0] = 30
    assert sw.value() == 0
    t[0] = 90
    assert sw.value() == 1


# --- dice decoding ------------------------------------------------------------

def test_decode_every_code():
    # code (A=1, B=2, C=4 under the bottom face) -> upper face; 0 and 7 invalid
    expected = {0: 0, 1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, 7: 0}
    for code in range(8):
        assert decode(code) == expected[code], code
        assert FACE_OF_CODE[code] == expected[code]
    faces = sorted(decode(c) for c in range(8) if decode(c))
    assert faces == [1, 2, 3, 4, 5, 6]


def test_opposite_faces_complementary_codes():
    for c in range(1, 7):
        assert decode(c) + decode(7 - c) == 7


def test_decode_pair_all_64_and_roundtrip():
    for raw in range(64):
        d1, d2 = decode_pair(raw)
        assert d1 == decode(raw & 7) and d2 == decode(raw >> 3)
    for d1 in range(7):
        for d2 in range(7):
            assert decode_pair(encode_pair(d1, d2)) == (d1, d2)


def test_settler():
    s = Settler(100)
    assert s.update((3, 4), 0) is None
    assert s.update((3, 4), 60) is None
    assert s.update((2, 4), 80) is None  # flicker restarts the window
    assert s.update((2, 4), 150) is None
    assert s.update((2, 4), 180) == (2, 4)


# --- shaker ramp --------------------------------------------------------------

def test_ramp_duty_function():
    assert ramp_duty(0, 800, 0, 400) == 0
    assert ramp_duty(0, 800, 100, 400) == 200
    assert ramp_duty(0, 800, 200, 400) == 400
    assert ramp_duty(0, 800, 400, 400) == 800
    assert ramp_duty(0, 800, 9999, 400) == 800
    assert ramp_duty(0, 800, 5, 0) == 800
    assert ramp_duty(800, 200, 200, 400) == 500


def test_shaker_ramps_with_tick():
    t = [1000]
    applied = []
    s = Shaker(applied.append, lambda: t[0])
    s.start(600, 300)
    assert s.running and s.duty == 0
    last = 0
    for _ in range(40):
        t[0] += 10
        d = s.tick(t[0])
        assert d >= last and d <= 600
        last = d
        if t[0] - 1000 == 150:
            assert d == 300
    assert s.duty == 600 and applied[-1] == 600
    s.start(2000, 0)  # clamped
    assert s.duty == 1000
    s.stop()
    assert not s.running and s.duty == 0 and applied[-1] == 0
    assert s.motion() is None


# --- mock dome ----------------------------------------------------------------

def shake(b, ms=1000, duty=800, ramp=200):
    c = b.clock
    b.shaker.start(duty, ramp)
    moved = False
    for _ in range(ms // 20):
        b.shaker.tick(c.ticks_ms())
        if b.shaker.motion():
            moved = True
        c.advance(20)
    b.shaker.stop()
    return moved


def settled_read(b, max_ms=3000):
    s = Settler(300)
    c = b.clock
    for _ in range(max_ms // 20):
        r = s.update(b.dice.read(), c.ticks_ms())
        if r is not None:
            return r
        c.advance(20)
    return None


def test_dice_change_only_while_shaker_runs():
    b = board(faces=(2, 5))
    for _ in range(30):
        assert b.dice.read() == (2, 5)
        b.clock.advance(100)
    assert shake(b)
    outcomes = set()
    for _ in range(30):
        shake(b)
        r = settled_read(b)
        assert r == b.dome.faces
        assert 1 <= r[0] <= 6 and 1 <= r[1] <= 6
        outcomes.add(r)
    assert len(outcomes) > 5


def test_low_duty_does_not_move_dice():
    b = board(faces=(1, 1))
    assert not shake(b, duty=200)
    assert settled_read(b) == (1, 1)


def test_dome_readings_while_running_are_not_stable():
    b = board()
    b.shaker.start(800, 0)
    seen = set()
    for _ in range(50):
        b.shaker.tick(b.clock.ticks_ms())
        seen.add(b.dice.read())
        b.clock.advance(10)
    assert len(seen) > 5
    b.shaker.stop()


def test_cocked_rate():
    b = board(cocked_permille=1000)
    shake(b)
    assert settled_read(b) == (0, 0)
    b = board(cocked_permille=500, seed=3)
    zeros = 0
    for _ in range(40):
        shake(b)
        zeros += settled_read(b).count(0)
    assert 20 < zeros < 60  # about 40 of 80 dice


def test_flicker_then_stable():
    b = board(flicker_permille=1000, settle_ms=600)
    shake(b)
    c = b.clock
    during = set()
    for _ in range(25):  # 500 ms of the 600 ms window
        during.add(b.dice.read())
        c.advance(20)
    assert len(during) > 2
    c.advance(200)
    after = set()
    for _ in range(20):
        after.add(b.dice.read())
        c.advance(20)
    assert after == {b.dome.faces}


def test_no_flicker_reads_stable_at_once():
    b = board(flicker_permille=0)
    shake(b)
    r = b.dice.read()
    for _ in range(10):
        assert b.dice.read() == r


def test_stuck_dice_same_faces_no_motion():
    b = board(stuck_permille=1000, faces=(4, 3))
    assert not shake(b)
    assert settled_read(b) == (4, 3)
    assert b.dome.rolls == 0


def test_motor_failure():
    b = board(motor_fail=True, faces=(6, 6))
    for _ in range(3):
        assert not shake(b)
        assert settled_read(b) == (6, 6)
    b.shaker.fail(False)
    assert shake(b)


def test_no_motion_sensor_option():
    b = board(motion_sensor=False)
    b.shaker.start(800, 0)
    assert b.shaker.motion() is None
    b.shaker.stop()


def test_seed_repeats_outcomes():
    def run(seed):
        b = board(seed=seed)
        out = []
        for _ in range(5):
            shake(b)
            out.append(settled_read(b))
        return out

    assert run(11) == run(11)
    assert run(11) != run(12)


# --- money ----------------------------------------------------------------------

def test_money_counts_pulses_over_time():
    b = board(pulse_ms=100)
    m = b.money
    c = b.clock
    assert m.counts() == (0, 0) and m.inhibited
    assert not b.insert_bill(5)  # inhibited: refused
    assert m.counts() == (0, 0)
    m.inhibit(False)
    t0 = c.ticks_ms()
    assert b.insert_bill(5)
    assert b.insert_coin(1)
    c.advance(250)
    assert m.counts() == (3, 1)
    c.advance(1000)
    assert m.counts() == (5, 1)
    assert m.last_pulse_ms(BILL) == c.ticks_add(t0, 400)
    assert m.last_pulse_ms(COIN) == t0
    b.insert_bill(10)
    c.advance(5000)
    assert m.counts() == (15, 1)


def test_money_no_pulse_lost_when_polled_late():
    b = board()
    b.money.inhibit(False)
    for _ in range(7):
        b.insert_bill(1)
    b.clock.advance(60000)  # main loop busy for a minute
    assert b.money.counts() == (7, 0)


def test_irq_counter_handler_does_not_allocate():
    t = [123]
    ctr = IrqCounter(lambda: t[0])
    assert ctr.count() == 0 and ctr.last_ms() is None
    h = ctr.handler
    try:
        import micropython

        lock = getattr(micropython, "heap_lock", None)
        unlock = getattr(micropython, "heap_unlock", None)
    except ImportError:
        lock = unlock = None
    if lock is not None:
        lock()
    try:
        for _ in range(100):
            h(None)
    finally:
        if unlock is not None:
            unlock()
    assert ctr.count() == 100 and ctr.last_ms() == 123


# --- printer, display, misc ---------------------------------------------------

def test_mock_printer_status():
    b = board()
    p = b.printer
    assert p.status() == OK
    assert p.print_ticket(["CASH OUT", "$12.00"])
    assert p.tickets == [["CASH OUT", "$12.00"]]
    p.status_value = PAPER_OUT
    assert not p.print_ticket(["x"])
    p.status_value = FAULT
    assert p.status() == FAULT and not p.print_ticket(["x"])
    assert len(p.tickets) == 1


class FakeUart:
    def __init__(self, replies):
        self.replies = replies  # query bytes -> reply byte or None
        self.rx = bytearray()
        self.written = bytearray()

    def any(self):
        return len(self.rx)

    def readinto(self, buf, n):
        buf[0] = self.rx[0]
        self.rx = self.rx[1:]
        return 1

    def write(self, data):
        self.written += data
        r = self.replies.get(bytes(data))
        if r is not None:
            self.rx.append(r)
        return len(data)


_READY = {b"\x10\x04\x02": 0x12, b"\x10\x04\x04": 0x12}   # both status replies: OK


def _ticks():
    """A clock that moves 1 ms each time it is read."""
    t = [0]

    def ticks():
        t[0] += 1
        return t[0]
    return ticks


def test_escpos_status_and_ticket():
    ticks = _ticks()
    u = FakeUart(_READY)
    p = EscPosPrinter(u, ticks)
    assert p.status() == OK
    assert p.print_ticket(["HELLO"])
    assert b"HELLO\n" in u.written and b"\x1dVB" in u.written
    assert EscPosPrinter(FakeUart({b"\x10\x04\x02": 0x12, b"\x10\x04\x04": 0x72}), ticks).status() == PAPER_OUT
    assert EscPosPrinter(FakeUart({}), ticks).status() == FAULT
    assert not EscPosPrinter(FakeUart({}), ticks).print_ticket(["x"])
    assert status_from_replies(0x12, 0x1E) == PAPER_LOW
    assert status_from_replies(0x52, 0x12) == FAULT  # error bit
    assert status_from_replies(0x16, 0x12) == FAULT  # cover open
    assert status_from_replies(0xFF, 0x12) == FAULT  # not a status byte



def test_escpos_ticket_serves_sas_while_it_prints():
    # a ticket is ~0.2 s of the 19,200 baud line: written in chunks with the
    # SAS polls answered between them, the same bytes as written whole
    ticks = _ticks()
    lines = ["CASH OUT TICKET", "$12.00", "VALIDATION 00-1234-5678-9012-3456"]
    whole = FakeUart(_READY)
    assert EscPosPrinter(whole, ticks).print_ticket(lines, "%018d" % 123)
    served = []
    u = FakeUart(_READY)
    assert EscPosPrinter(u, ticks).print_ticket(lines, "%018d" % 123, lambda: served.append(1))
    assert u.written == whole.written
    assert len(served) >= len(whole.written) // 16

def test_escpos_poll_asks_one_step_a_call_and_never_waits():
    """The idle watch's request: DLE EOT 2 then 4, one write a call, the
    reply read at the next call; no ticks read (no wait), a printer that
    does not answer is FAULT like status()."""
    def no_ticks():
        raise AssertionError("poll() must not wait")

    u = FakeUart({b"\x10\x04\x02": 0x12, b"\x10\x04\x04": 0x1E})
    p = EscPosPrinter(u, no_ticks)
    assert p.poll() is None and bytes(u.written) == b"\x10\x04\x02"
    assert p.poll() is None and bytes(u.written) == b"\x10\x04\x02\x10\x04\x04"
    assert p.poll() == PAPER_LOW and len(u.written) == 6
    assert p.poll() is None                        # the next request starts over
    u.replies = {}
    assert p.poll() is None and p.poll() == FAULT
    # a status() between two steps takes the reply: the poll starts again
    t = [0]

    def ticks():
        t[0] += 1
        return t[0]
    u2 = FakeUart({b"\x10\x04\x02": 0x12, b"\x10\x04\x04": 0x12})
    p2 = EscPosPrinter(u2, ticks)
    assert p2.poll() is None and p2.status() == OK
    assert p2.poll() is None and p2.poll() is None and p2.poll() == OK


def test_display_buffer_and_text_render():
    b = board()
    d = b.display
    assert (d.width, d.height) == (128, 64)
    d.fill(0)
    d.pixel(0, 0, 1)
    d.pixel(127, 63, 1)
    d.show()
    assert d.frames == 1
    txt = d.to_text()
    rows = txt.split("\n")
    assert len(rows) == 16 and len(rows[0]) == 64
    assert rows[0][0] == chr(0x2801) and rows[15][63] == chr(0x2880)
    assert d.to_text("ascii").split("\n")[63][127] == "#"
    blocks = d.to_text("blocks").split("\n")
    assert len(blocks) == 32 and blocks[0][0] == "\u2580"


FB_CASES = (("Hello, dice!", 0, 0), ("7 OUT", 3, 5), ("$1234.56", -4, 58), ("~\x7f\x01", 100, -3),
            ("caf\u00e9", 90, 30))


def draw_cases(fb):
    fb.fill(0)
    for s, x, y in FB_CASES:
        fb.text(s, x, y, 1)
    fb.rect(10, 20, 30, 15, 1)
    fb.fill_rect(60, 40, 20, 30, 1)
    fb.hline(-5, 50, 200, 1)
    fb.vline(126, -10, 100, 1)
    fb.text("X", 61, 41, 0)
    fb.pixel(5, 60, 1)
    fb.line(0, 63, 127, 10, 1)


def test_fbuf_stand_in_matches_framebuf_here():
    try:
        import framebuf
    except ImportError:
        return  # CPython: test_hal_fbuf.py compares against the unix port instead
    from hal.mock import fbuf

    a = bytearray(1024)
    b = bytearray(1024)
    draw_cases(framebuf.FrameBuffer(a, 128, 64, framebuf.MONO_VLSB))
    draw_cases(fbuf.FrameBuffer(b, 128, 64, fbuf.MONO_VLSB))
    assert a == b


def test_detect_picks_mock_on_host():
    b = hal.detect(fake_clock=True, seed=1, flash_size=16384)
    assert b.platform == "mock"
    for name in ("shaker", "dice", "buttons", "display", "lamps", "door", "audit_key", "tilt",
                 "money", "printer", "watchdog", "clock", "flash", "serial"):
        assert hasattr(b, name), name


def test_switches_and_lamps():
    b = board()
    c = b.clock
    assert b.door.value() == 0
    b.door.set(1)
    assert b.door.value() == 0  # not yet debounced
    c.advance(60)
    assert b.door.value() == 1
    b.audit_key.toggle()
    b.audit_key.value()
    c.advance(60)
    assert b.audit_key.value() == 1 and b.tilt.value() == 0
    from hal import lamps

    b.lamps.set(lamps.RED | lamps.GREEN)
    assert b.lamps.state == 5


def test_watchdog_and_clock():
    b = board()
    c = b.clock
    assert not b.watchdog.starved()
    b.watchdog.feed()
    c.advance(4000)
    assert not b.watchdog.starved()
    c.advance(2000)
    assert b.watchdog.starved()
    s0 = c.now()
    c.advance(2500)
    assert c.now() == s0 + 2 or c.now() == s0 + 3
    assert c.ticks_diff(c.ticks_add(5, -10), 5) == -10


def test_loop_serial():
    b = board()
    s = b.serial
    buf = bytearray(4)
    assert s.read(buf) == 0
    s.host_write(b"abcdef")
    assert s.read(buf) == 4 and buf == bytearray(b"abcd")
    assert s.read(buf) == 2 and buf[:2] == bytearray(b"ef")
    assert s.write(b"OK") == 2 and s.host_read() == b"OK"


def test_mock_flash_is_block_device():
    b = board(flash=True, flash_size=16384)
    f = b.flash
    assert f.ioctl(4, 0) == 4 and f.ioctl(5, 0) == 4096
    buf = bytearray(256)
    f.readblocks(1, buf, 0)
    assert buf == bytearray(b"\xff" * 256)


def test_keyboard_map_actions():
    from hal.mock.keys import KEYMAP, apply_key

    b = board()
    b.money.inhibit(False)
    done = [apply_key(b, k) for k in (" ", "q", "5", "m", "D", "P", "M", "?")]
    assert done == [True] * 7 + [False]
    assert b.buttons._queue == [B.ROLL, B.CASHOUT]
    b.clock.advance(1000)
    assert b.money.counts() == (5, 1)
    assert b.door.level == 1 and b.printer.status() == PAPER_OUT and b.dome.motor_fail
    assert KEYMAP["RIGHT"] == ("b", B.NEXT) and KEYMAP["x"] == ("b", B.CLEAR)
