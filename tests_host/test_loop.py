"""The main loop (firmware/cabinet/loop.py) under asyncio on the mock board's
fake clock: its sleeps move the clock, a SAS host polls on the in-memory
line at its own cadence."""
from hal import buttons as B
from test_e2e_session import erase_due, make, run_loop

ADDRESS = 1


def _run(monkeypatch, b, d, ms, host=None):
    """The real loop for `ms` of the fake clock; host(now) runs before each
    task step. Returns the clock's times of the sector erases."""
    clock = b.clock
    store = d.ctl.store
    erased = []
    real = store.erase_step

    def erase_step():
        erased.append(clock.ticks_ms())
        real()
    monkeypatch.setattr(store, "erase_step", erase_step)

    end = clock.ticks_ms() + ms

    def stop():
        now = clock.ticks_ms()
        if host is not None:
            host(now)
        return now >= end
    run_loop(d, stop)
    return erased


class Host:
    """Polls like tests_emu/sashost.mjs: every 50 ms a tick; a general poll
    on every other one (to this machine and to another address in turn), a
    long poll on every tenth other one. `ours`: the times of the polls that
    want this machine's answer, sent or to come."""

    def __init__(self, port, start, ms):
        self.port = port
        self.start = start
        self.k = 0
        self.ours = [start + 50 * (k + 1) for k in range(ms // 50 + 20)
                     if k % 4 == 0 or k % 10 == 1]

    def __call__(self, now):
        while self.start + 50 * (self.k + 1) <= now:
            k = self.k
            self.k += 1
            if k % 2 == 0:
                self.port.host_send(bytes([0x80 | (ADDRESS if k % 4 == 0 else ADDRESS + 1)]))
            elif k % 10 == 1:
                self.port.host_send(bytes([ADDRESS, 0x1C]))   # meters: type R


def test_erase_only_where_the_host_leaves_room(monkeypatch):
    # a sector erase stops an RP2040 for ~65-95 ms: with a host polling, one
    # runs right after an answer and only where the host's cycle leaves more
    # than that before its next poll for this machine
    b, d = erase_due(17, sas="loop")
    now = b.clock.ticks_ms()
    host = Host(b.sas, now, 8000)
    erased = _run(monkeypatch, b, d, 8000, host)
    assert erased, "the journal's erase ahead never ran"
    for t in erased:
        after = min(p for p in host.ours if p > t)
        assert after - t >= 100, (t - now, after - now)
    assert len(b.sas.host_read()) > 0


def test_erase_without_a_host(monkeypatch):
    # no host on the line: the idle cabinet erases from the main pass
    b, d = erase_due(17, sas="loop")
    assert _run(monkeypatch, b, d, 6000)


def _presses(monkeypatch, d):
    """The button codes the controller is handed, in order."""
    pressed = []
    real = d.ctl._button

    def button(code, now_ms):
        pressed.append(code)
        real(code, now_ms)
    monkeypatch.setattr(d.ctl, "_button", button)
    return pressed


def test_a_short_press_is_seen_between_passes(monkeypatch):
    # passes run every 60 ms, the buttons are sampled every 20 ms: a 90 ms
    # press (debounced over 50 ms) is never lost whatever its phase
    for phase in range(0, 60, 7):
        b, d = make(seed=5)
        d.bill(5)
        clock = b.clock
        t0 = clock.ticks_ms() + 100 + phase
        pressed = _presses(monkeypatch, d)

        def host(now):
            b.buttons.set_raw(1 << B.HELP if t0 <= now < t0 + 90 else 0)
        _run(monkeypatch, b, d, 400, host)
        assert pressed == [B.HELP], phase


def test_a_quick_double_tap_is_two_presses_while_the_screen_redraws(monkeypatch):
    # on the chip a redraw is ~40 ms (the text drawn, the frame sent over
    # I2C in parts): with the buttons sampled only between the loop's parts a
    # tap's release was seen that late, the 80 ms gap before the next tap
    # left less than the 50 ms debounce, and the second tap was lost
    for phase in range(0, 60, 7):
        b, d = make(seed=5)
        d.bill(5)
        clock = b.clock
        show = b.display.show

        def slow_show(part=-1):
            # the frame on a 400 kHz bus and its drawing: 40 ms, a quarter a part
            clock.advance(40 if part < 0 else 10)
            show(part)
        monkeypatch.setattr(b.display, "show", slow_show)
        t0 = clock.ticks_ms() + 100 + phase
        pressed = _presses(monkeypatch, d)

        def lines():    # the raw lines when read, also inside a redraw
            now = clock.ticks_ms()
            return 1 << B.BET_UP if t0 <= now < t0 + 120 or t0 + 200 <= now < t0 + 320 else 0
        monkeypatch.setattr(b.buttons._bank, "_read", lines)
        _run(monkeypatch, b, d, 600)
        assert pressed == [B.BET_UP, B.BET_UP], (phase, pressed)
