"""Mock board for the host (MicroPython unix port and CPython).

A simulated dome with seeded, configurable irregularities, scriptable inputs,
a fake or real clock; see `Board` and hal/REFERENCE.md.
"""
from micropython import const

from hal.buttons import Buttons
from hal.debounce import Switch
from hal.dice_decode import encode_pair
from hal.prstatus import OK, PAPER_LOW
from hal.pulses import Money
from hal.shaker import Shaker
from hal.mock.xorshift import Rng as _Xorshift
from hal.buzzer import Buzzer
from hal.lamps import Lamps
from hal.dice_decode import Dice
from hal.mock.clock import FakeClock
from hal.mock.display import MockDisplay
from hal.mock.loopserial import LoopSerial
from hal.marker import Marker
from hal.restarts import in_ram

_MOVE_MIN_PERMILLE = const(300)  # below this duty the dice do not move


class Rng(_Xorshift):
    """The dome's dice generator."""

    def face(self):
        return 1 + self.below(6)

    def chance(self, p):
        """True with a chance of p per mille."""
        return self.below(1000) < p


class Dome:
    """Two dice in a dome. They move only while the shaker runs at a duty of at
    least _MOVE_MIN_PERMILLE (and the motor works and this shake is not a
    'stuck' one); the outcome is drawn when the shaker stops, then the dice
    settle for `settle_ms`."""

    def __init__(self, clock, rng, cocked_permille, flicker_permille, stuck_permille,
                 settle_ms, faces):
        self.clock = clock
        self.rng = rng
        self.cocked_permille = cocked_permille
        self.flicker_permille = flicker_permille
        self.stuck_permille = stuck_permille
        self.settle_ms = settle_ms
        self.motor_fail = False
        self.forced = []  # (d1, d2) outcomes for the next rolls (scripts, tests)
        self.faces = faces or (rng.face(), rng.face())
        self.cocked = (False, False)
        self.flicker = False  # this roll flickers while settling
        self.stuck = False  # this shake does not move the dice
        self.moving = False
        self.moved = False
        self.duty = 0
        self._settle_t0 = clock.ticks_ms()
        self.rolls = 0  # outcomes drawn
        self.raw_reads = 0

    def set_duty(self, d):
        if d and not self.duty:  # motor starts
            self.stuck = self.rng.chance(self.stuck_permille)
            self.moved = False
        self.duty = d
        self.moving = d >= _MOVE_MIN_PERMILLE and not self.motor_fail and not self.stuck
        if self.moving:
            self.moved = True
        if not d and self.moved:  # motor stopped after the dice moved: new outcome
            self.moved = False
            r = self.rng
            self.faces = (r.face(), r.face())
            if self.forced:
                self.faces = self.forced.pop(0)
            self.cocked = (r.chance(self.cocked_permille), r.chance(self.cocked_permille))
            self.flicker = r.chance(self.flicker_permille)
            self._settle_t0 = self.clock.ticks_ms()
            self.rolls += 1

    def motion(self):
        return self.moving

    def settling(self):
        return self.clock.ticks_diff(self.clock.ticks_ms(), self._settle_t0) < self.settle_ms

    def read_raw(self):
        """6-bit sensor mask, as the board's hall sensors would give it."""
        self.raw_reads += 1
        r = self.rng
        if self.moving:  # tumbling: in the air (0) or passing over a seat
            return encode_pair(r.below(7), r.below(7))
        d1, d2 = self.faces
        if self.cocked[0]:
            d1 = 0
        if self.cocked[1]:
            d2 = 0
        if self.flicker and self.settling() and r.below(2):
            # a sensor sees a wrong pattern: any 3-bit code, valid or not
            return r.below(64)
        return encode_pair(d1, d2)


class MockButtons:
    """Debounced like the hardware. press(code) is a clean tap: held until the
    debouncer has accepted it, then released (so it is reported exactly once);
    hold/release for long presses; set_raw(mask) drives the raw lines directly."""

    def __init__(self, board):
        self._board = board
        self._queue = []
        self._taps = 0
        self._held = 0
        self._raw_override = None
        self._bank = Buttons(self._raw)

    def _raw(self):
        if self._raw_override is not None:
            return self._raw_override
        return self._held | self._taps

    def press(self, code):
        self._queue.append(code)

    def hold(self, code):
        self._held |= 1 << code

    def release(self, code):
        self._held &= ~(1 << code)

    def set_raw(self, mask):
        self._raw_override = mask

    def poll(self, now_ms):
        kb = self._board.keyboard
        if kb is not None:
            kb.pump()
        state = self._bank.held()
        q = self._queue
        i = 0
        while i < len(q):
            b = 1 << q[i]
            if not (state | self._taps) & b:
                self._taps |= b
                q.pop(i)
            else:
                i += 1
        got = self._bank.poll(now_ms)
        self._taps &= ~self._bank.held()
        return got

    def held(self):
        return self._bank.held()

    def busy(self):
        return self._bank.busy()

    def sample(self, now_ms):
        self._bank.sample(now_ms)

    def due(self, now_ms):
        return self._bank.due(now_ms)


class MockSwitch:
    """value() debounced like the hardware; set(level)/toggle() drive it."""

    def __init__(self, clock, level=0):
        self.level = level
        self._sw = Switch(self._read, clock.ticks_ms)

    def _read(self):
        return self.level

    def set(self, level):
        self.level = 1 if level else 0

    def toggle(self):
        self.level ^= 1

    def value(self):
        return self._sw.value()


class PulseChannel:
    """Pulse train played out over time by the clock (50 ms on / 50 ms off by default).
    on_pulse: None, or called at each pulse delivered (the money log)."""

    def __init__(self, clock):
        self._clock = clock
        self._due = []
        self._count = 0
        self._last = None
        self.on_pulse = None

    def schedule(self, pulses, period_ms):
        c = self._clock
        t = c.ticks_ms()
        if self._due:
            t = c.ticks_add(self._due[-1], period_ms)
        for _ in range(pulses):
            self._due.append(t)
            t = c.ticks_add(t, period_ms)

    def _drain(self):
        c = self._clock
        now = c.ticks_ms()
        due = self._due
        while due and c.ticks_diff(now, due[0]) >= 0:
            self._last = due.pop(0)
            self._count += 1
            if self.on_pulse is not None:
                self.on_pulse()

    def count(self):
        self._drain()
        return self._count

    def last_ms(self):
        self._drain()
        return self._last

    def pending(self):
        return len(self._due)


class MockMoney(Money):
    """Money plus insert_bill/insert_coin. While inhibited, inserts are refused
    (the validator and the acceptor share the inhibit line)."""

    def __init__(self, clock, pulse_ms):
        self.pulse_ms = pulse_ms
        self.bill = PulseChannel(clock)
        self.coin = PulseChannel(clock)
        self.refused = 0
        Money.__init__(self, self.bill, self.coin, self._inh)

    def _inh(self, flag):
        pass

    def _insert(self, ch, pulses):
        if self.inhibited:
            self.refused += 1
            return False
        ch.schedule(pulses, self.pulse_ms)
        return True

    def insert_bill(self, pulses):
        return self._insert(self.bill, pulses)

    def insert_coin(self, pulses):
        return self._insert(self.coin, pulses)


class MockPrinter:
    """print_ticket(lines, barcode) -> True if status() is OK or PAPER_LOW;
    `tickets` keeps the lines printed, `barcodes` each ticket's ITF digits
    (None: no barcode); set status with `status_value`; `polls` counts the
    idle watch's status requests (poll(): one exchange a call here)."""

    def __init__(self):
        self.status_value = OK
        self.tickets = []
        self.barcodes = []
        self.polls = 0
        self.while_printing = None  # a test's host traffic, put on the line mid-print

    def status(self):
        return self.status_value

    def poll(self):
        self.polls += 1
        return self.status_value

    def print_ticket(self, lines, barcode=None, serve=None):
        if self.status_value != OK and self.status_value != PAPER_LOW:
            return False
        if barcode is not None:
            from hal.itf import itf_bars
            itf_bars(barcode)  # what the printer would refuse, the mock refuses
        if serve is not None:  # as the real driver: the SAS line served between chunks
            if self.while_printing is not None:
                self.while_printing()
            for _ in lines:
                serve()
        self.tickets.append(list(lines))
        self.barcodes.append(barcode)
        return True



class MockWatchdog:
    def __init__(self, clock, timeout_ms):
        self._clock = clock
        self.timeout_ms = timeout_ms
        self.feeds = 0
        self._last = None
        self.longest_ms = 0  # longest time between two feeds so far

    def feed(self):
        self.feeds += 1
        now = self._clock.ticks_ms()
        if self._last is not None:
            gap = self._clock.ticks_diff(now, self._last)
            if gap > self.longest_ms:
                self.longest_ms = gap
        self._last = now

    def starved(self):
        """True if armed (fed once) and not fed within timeout_ms."""
        if self._last is None:
            return False
        c = self._clock
        return c.ticks_diff(c.ticks_ms(), self._last) > self.timeout_ms


class MockShaker(Shaker):
    def __init__(self, dome, clock, motion_sensor):
        self._dome = dome
        Shaker.__init__(self, dome.set_duty, clock.ticks_ms, dome.motion if motion_sensor else None)

    def fail(self, flag=True):
        """Motor failure: runs electrically, nothing moves."""
        self._dome.motor_fail = bool(flag)


class Board:
    """Options (all keyword, all integers/flags):
      seed=None            dome RNG seed (None: random)
      fake_clock=False     True: FakeClock (tests call board.clock.advance(ms))
      cocked_permille=0    per die and roll: die stays cocked (reads 0) until reshaken
      flicker_permille=0   per roll: reads are garbage half the time while settling
      stuck_permille=0     per shake: dice do not move (same faces, motion() False)
      motor_fail=False     motor never moves the dice (motion() False)
      settle_ms=600        settle window after the shaker stops
      faces=None           initial (d1, d2)
      motion_sensor=True   False: shaker.motion() returns None
      pulse_ms=100         bill/coin pulse period (50 ms on, 50 ms off)
      flash=True           journal block device: hal.mock.norflash.NorFlash
      flash_size=262144    its size; flash_path=None to keep it in a file
      serial=None          None: LoopSerial; "tcp:127.0.0.1:PORT" or "unix:PATH"
      sas=None             SAS port: None (none), "loop" (hal.mock.sasport.LoopSas)
                           or a socket spec as for serial (SocketSas, tools/sas_bridge.py)
      keyboard=False       True: read keys from the terminal (hal.mock.keys)
      terminal=False       True: redraw the display in the terminal on show()
      wdt_ms=5000          watchdog timeout for MockWatchdog.starved()
      money_log=None       file: every pulse delivered and ticket printed (hal.mock.moneylog)
      escrow=False         True: bills go through an escrow validator (hal.mock.validator,
                           ID-003 style; its bill position kept beside flash_path);
                           insert_bill(n) is then a note of $n. False: a pulse validator
    """

    platform = "mock"

    def __init__(self, seed=None, fake_clock=False, cocked_permille=0, flicker_permille=0,
                 stuck_permille=0, motor_fail=False, settle_ms=600, faces=None,
                 motion_sensor=True, pulse_ms=100, flash=True, flash_size=262144,
                 wdt_ms=5000, **more):
        if seed is None:
            import random

            seed = random.getrandbits(30)
        self.seed = seed
        if fake_clock:
            self.clock = FakeClock()
        else:
            from hal.mock.realclock import RealClock
            self.clock = RealClock()
        self._secret = _Xorshift(seed ^ 0x5EC2E7)  # urandom(): seeded, so tests repeat
        self.dome = Dome(self.clock, Rng(seed), cocked_permille, flicker_permille,
                         stuck_permille, settle_ms, faces)
        self.dome.motor_fail = motor_fail
        self.shaker = MockShaker(self.dome, self.clock, motion_sensor)
        self.dice = Dice(self.dome.read_raw)
        self.keyboard = None
        self.buttons = MockButtons(self)
        self.door = MockSwitch(self.clock, 0)  # 1 = open
        self.audit_key = MockSwitch(self.clock, 0)  # 1 = turned
        self.tilt = MockSwitch(self.clock, 0)  # 1 = tilted
        self.lamps = Lamps(())
        self.money = MockMoney(self.clock, pulse_ms)
        self.printer = MockPrinter()
        self.watchdog = MockWatchdog(self.clock, wdt_ms)
        self.display = MockDisplay()
        self.tones = []  # the buzzer frequencies set lately, 0 = off (tests)
        self.resets = 0  # reset() calls: a board's would not return
        # failed starts (hal/restarts.py): pass the same list to the next board
        # to keep the count across a simulated reset
        self.starts = in_ram(more.pop("starts", None))
        self.buzzer = Buzzer(self._tone)
        self.serial = LoopSerial()
        self.sas = None
        self.logic_door = MockSwitch(self.clock, 0)    # 1 = open
        self.cashbox_door = MockSwitch(self.clock, 0)  # 1 = open
        sas = more.pop("sas", None)
        if flash or more:  # flash and the rarer options: their own module (hal/mock/extras.py)
            from hal.mock.extras import attach
            attach(self, flash, flash_size, **more)
        else:
            self.provision = Marker(None)
            self.flash = None
        if sas:
            from hal.mock.sasport import open_port
            self.sas = open_port(sas)

    def reset(self):
        """machine.reset()'s stand-in: counted; the caller (main.py's
        simulator, a test) starts the cabinet again."""
        self.resets += 1

    def urandom(self, n):
        """os.urandom's stand-in (the store's validation ID): seeded."""
        return bytes([self._secret.below(256) for _ in range(n)])

    def _tone(self, freq):
        t = self.tones
        t.append(freq)
        if len(t) > 16:  # a long session must not grow the heap (nor reallocate
            del t[:8]    # a 512-byte list in a full one: a win tune is 5)

    # script helpers -----------------------------------------------------
    def press(self, code):
        self.buttons.press(code)

    def insert_bill(self, pulses):
        v = getattr(self, "validator", None)
        if v is not None:
            return v.insert(pulses)  # a note of $pulses
        return self.money.insert_bill(pulses)

    def insert_coin(self, pulses):
        return self.money.insert_coin(pulses)

    def insert_ticket(self, digits):
        """A ticket whose barcode reads `digits`: only an escrow validator reads one."""
        v = getattr(self, "validator", None)
        return v is not None and v.insert_ticket(digits)

    def close(self):
        if self.keyboard is not None:
            self.keyboard.close()
        for port in (self.serial, self.sas, getattr(self, "validator", None)):
            close = getattr(port, "close", None)
            if close is not None:
                close()

