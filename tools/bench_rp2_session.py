"""Runs ON the emulated Pico (tools/bench firmware --rp2 sends it over the raw REPL).

The cabinet's real rp2 board (display on I2C, UARTs, PWM, WDT, the journal on
rp2.Flash) with a fake clock and scripted player inputs, so a session of
ROLLS rolls costs only the firmware's work, like tools/bench_firmware.py on
the unix port: 10 ms passes of Controller.step(), bills, a pass line bet and
ROLL by (scripted) buttons, dice that land on new faces when the shaker stops.
The dice/buttons/money sources and the shaker's motion sensor are replaced;
everything else is the board as hal.detect() builds it. Prints `BENCH key
value` lines; a `BENCH begin NAME` line starts a timed region, so the node
side can say how much of its time the chip-time model added (the figures
that follow are real-chip estimates, tests_emu/chiptime.mjs). The SAS port
is the board's own (PIO, hal/rp2/sas_pio.py): a SAS host polls it over the
wire while the session runs (tests_emu/sashost.mjs). Free heap is printed
after a collection at each roll of the guard's two windows (from roll CHECK,
and the last ones). The first TIMED rolls use the default shake time; the rest of
the session runs with shake_ms and settle_ms at their minimum (1 s, 0.2 s) and
50 ms passes, to keep the emulator's wall time down (the heap does not depend
on them: the same code runs, only less often).
"""
import gc
import sys
import time

# The .mpy build keeps its cabinet code on the filesystem: import along the
# port's own path, and forget the hal modules _boot.py took from the image.
sys.path[:] = ["", ".frozen", "/lib"]
for _m in [m for m in sys.modules if m == "hal" or m.startswith("hal.")]:
    del sys.modules[_m]
gc.collect()
print("BENCH free_boot", gc.mem_free())

import hal  # noqa: E402
from hal import buttons as B  # noqa: E402
from hal.buttons import Buttons  # noqa: E402
from hal.dice_decode import Dice, encode_pair  # noqa: E402
from hal.pulses import Money  # noqa: E402
from hal.counters import PolledCounter  # noqa: E402
from hal.shaker import Shaker  # noqa: E402
from hal.ticks import ticks_add, ticks_diff  # noqa: E402
#@ cabinet station: the rest of the file is cut in parts by these marker lines; a chip is sent
#@ only the parts its role runs (the raw REPL keeps the sent text and its bytecode in RAM for the
#@ whole session, so a role's code would cost another's heap; tests_emu/session.mjs sessionCode)
from firmware.cabinet.controller import Controller  # noqa: E402
#@ cabinet
from firmware.cabinet import screens, render  # noqa: E402
#@ all

ROLLS = int("@ROLLS@")
TIMED = int("@TIMED@")
CHECK = int("@CHECK@")   # the first roll of the growth check's first window (at_roll)
SEED = int("@SEED@")


class FakeClock:
    ticks_diff = staticmethod(ticks_diff)
    ticks_add = staticmethod(ticks_add)

    def __init__(self):
        self.t = 0
        self.set_by_host = True

    def ticks_ms(self):
        return self.t

    def now(self):
        return 1764115200 + self.t // 1000


class Inputs:
    def __init__(self, board):
        self.board = board
        self.held = 0
        self.bills = 0
        self.faces = (3, 4)
        from array import array
        self.rng = array("I", (SEED or 12345,))

    def rand6(self):
        s = self.rng[0]
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.rng[0] = s
        return 1 + s % 6

    def shaken(self):
        """The shaker stopped: the dice lie on new faces (no motion sensor here, so a
        repeat of the previous faces would read as dice that did not move)."""
        f = (self.rand6(), self.rand6())
        while f == self.faces:
            f = (self.rand6(), self.rand6())
        self.faces = f

    def dice_raw(self):
        if self.board.shaker.running:
            return 0
        return encode_pair(self.faces[0], self.faces[1])


#@ cabinet
board = hal.detect()
#@ station dome: a table's part (hal/role.py); node plays the other end of its link
#@ (tests_emu/linkpeer.mjs)
board = hal.detect(role="@ROLE@")
#@ all
clk = FakeClock()
inp = Inputs(board)
board.clock = clk
board.buttons = Buttons(lambda: inp.held)
#@ cabinet dome: a station has no shaker: the dome's dice come over the link
board.dice = Dice(inp.dice_raw)
board.shaker = Shaker(board.shaker._set, clk.ticks_ms, None)
#@ cabinet station: a dome has no money devices
board.money = Money(PolledCounter(lambda: inp.bills, clk.ticks_ms),
                    PolledCounter(lambda: 0, clk.ticks_ms), board.money._set_inhibit)
#@ cabinet
ctl = Controller(board)
#@ station
ctl = Controller(board, seat=1)
#@ dome: its rounds are its own, its round clock at its quickest (its memory does not depend on
#@ the times); its ROLLS are finished rounds
from firmware.table.dome import DomeController  # noqa: E402
ctl = DomeController(board, {"window_ms": 100, "result_ms": 100, "shake_ms": 1000, "settle_ms": 200})
#@ all
gc.collect()
print("BENCH free_controller", gc.mem_free())
print("BENCH boot_status", ctl.boot_status)
#@ cabinet station
g = ctl.game
#@ all
passes = 0


STEP = [10]  # ms per pass: 10 like the asyncio loop; 50 after the timed rolls


def run(ms):
    global passes
    sh = board.shaker
    step = STEP[0]
    for _ in range(ms // step):
        clk.t += step
        was = sh.running
        ctl.step(clk.t)
        passes += 1
        if was and not sh.running:
            inp.shaken()


# The free heap depends on what the last roll left (its result, the bets it settled), so the
# growth check compares like with like: the median free over WINDOW rolls from CHECK against
# the median over the last WINDOW rolls (a lasting loss moves every reading after it; a rare
# state moves a window's least, not its median). Each reading is printed, never kept here: an
# array of them would be counted in the free heap it measures, and more in a longer run.
WINDOW = max(1, min(100, (ROLLS - CHECK) // 2))
print("BENCH heap_window", WINDOW)


def at_roll(n):
    """The heap at the rolls the guard reads, progress every 100."""
    if CHECK <= n < CHECK + WINDOW or n > ROLLS - WINDOW:
        gc.collect()
        print("BENCH free_roll_%d" % n, gc.mem_free())
    if n % 100 == 0:
        print("BENCH progress", n)


#@ cabinet station
def press(code):
    inp.held = 1 << code
    run(100)
    inp.held = 0
    run(100)


def stake(led):
    """Bills when the credits are short, then the pass line bet if none is up."""
    if led.table.credits < 20:
        inp.bills += 20
        run(2600)
    if not led.table.bets:
        press(B.BET_UP)


#@ cabinet
print("BENCH begin cycle")
t_start = time.ticks_us()
fast = False
while g.rolls < ROLLS:
    if g.rolls == TIMED and not fast:
        if TIMED:
            t_cycle = time.ticks_diff(time.ticks_us(), t_start)
            print("BENCH cycle_us", t_cycle // TIMED)
            print("BENCH pass_us", t_cycle // passes)
        ctl.store.set_config(clk.now(), "shake_ms", "1000")
        ctl.store.set_config(clk.now(), "settle_ms", "200")
        STEP[0] = 50
        fast = True
    led = ctl.store.ledger
    if led.lock:
        ctl.store.reset(clk.now())
        led = ctl.store.ledger
    stake(led)
    press(B.ROLL)
    before = g.rolls
    while g.rolls == before:
        run(100)
        if led.lock:
            break
    if g.rolls != before:
        at_roll(g.rolls)

now = clk.t
lines, dice, inv = screens.build(ctl, now)
k = 20


def timed(name, fn):
    """`BENCH name_us` per call of fn, over k calls, in its own timed region."""
    print("BENCH begin", name)
    t0 = time.ticks_us()
    for _ in range(k):
        fn()
    print("BENCH %s_us" % name, time.ticks_diff(time.ticks_us(), t0) // k)


def draw_show():
    render.draw(board.display, lines, (3, 4), inv)
    board.display.show()


timed("screen_build", lambda: screens.build(ctl, now))
timed("screen_draw_only", lambda: render.draw(board.display, lines, (3, 4), inv))
timed("screen_draw_show", draw_show)


class Line:
    """The SAS port with a whole poll already received: what serve() then
    costs is the time to the answer's first byte (build, meters, CRC)."""

    def __init__(self):
        self.frame = b""
        self.out = 0

    def read(self, buf, wake):
        n = len(self.frame)
        for i in range(n):
            buf[i] = self.frame[i]
            wake[i] = 1 if i == 0 else 0
        self.frame = b""
        return n

    def write(self, data):
        self.out += len(data)
        return len(data)


sas = ctl.sas
if sas is not None:
    line, port = Line(), sas.port
    sas.port = line
    for name, frames, size in (("general", (b"\x81", b"\x82"), 1), ("1c", (b"\x01\x1c",), 36),
                               ("0f", (b"\x01\x0f",), 28), ("1e", (b"\x01\x1e",), 28)):
        worst = total = n = 0
        print("BENCH begin sas_" + name)
        for i in range(k):
            line.frame = frames[i % len(frames)]
            out = line.out
            t0 = time.ticks_us()
            sas.serve()
            dt = time.ticks_diff(time.ticks_us(), t0)
            if line.out != out:
                assert line.out - out == size, (name, line.out - out)
                total += dt
                n += 1
                worst = max(worst, dt)
        print("BENCH sas_%s_us" % name, "%d %d" % (total // max(n, 1), worst))
    print("BENCH begin sas_idle")
    t0 = time.ticks_us()
    for i in range(k):
        sas.tick(clk.t)
    print("BENCH sas_idle_tick_us", time.ticks_diff(time.ticks_us(), t0) // k)
    sas.port = port
#@ station dome


def wait(busy, ms=20000):
    """Runs while busy() is true, ms at most."""
    while busy() and ms > 0:
        run(100)
        ms -= 100


STEP[0] = 50
print("BENCH begin cycle")
#@ station: its rounds come from node as its dome; a ROLL outside the dome's betting window is not
#@ taken, so it waits for the next one, and shoots again when a round closed without its bet
while g.rolls < ROLLS:
    if ctl.store.ledger.lock:
        ctl.store.reset(clk.now())
    if ctl.store.ledger.table.credits < 20:
        inp.bills += 20
        run(2600)
    wait(g.bets_closed)
    if not ctl.store.ledger.table.bets:
        press(B.BET_UP)
    press(B.ROLL)
    before = g.rolls
    wait(lambda: g.rolls == before)
    if g.rolls != before:
        at_roll(g.rolls)
led = ctl.store.ledger
print("BENCH passes", passes)
#@ cabinet station
print("BENCH balance_check", led.balance_check())
print("BENCH games", led.meters.get("games"))
st = ctl.store.journal.stats()
print("BENCH journal", " ".join("%s=%s" % kv for kv in sorted(st.items())))
print("BENCH done", g.rolls)
#@ dome


def finished():
    """Rounds the dome has finished (a result or a void)."""
    r = ctl.log.rounds
    return r.round - (1 if r.open else 0)


while finished() < ROLLS:
    before = finished()
    wait(lambda: finished() == before, 60000)
    if finished() == before:
        print("BENCH stalled round %d: %s" % (before, ctl.lines()))
        break
    at_roll(finished())
r = ctl.log.rounds
print("BENCH dome_rounds", r.round, "point", r.point, "shooter", r.shooter, "seats", "%02x" % ctl.dome.online)
st = ctl.log.journal.stats()
print("BENCH journal", " ".join("%s=%s" % kv for kv in sorted(st.items())))
print("BENCH passes", passes)
print("BENCH done", finished())
