"""The mock board's devices, made once by Board.__init__ (hal/mock/board.py)
and let go after: a session holds the devices, not the code that made them.
"""
from hal.lamps import Buzzer, Lamps
from hal.dice_decode import Dice
from hal.mock.clock import FakeClock
from hal.mock.display import MockDisplay
from hal.mock.loopserial import LoopSerial
from hal.marker import Marker
from hal.mock import board as B


def board(b, seed, fake_clock, cocked_permille, flicker_permille, stuck_permille, motor_fail,
          settle_ms, faces, motion_sensor, pulse_ms, flash, flash_size, wdt_ms, more):
    if seed is None:
        import random

        seed = random.getrandbits(30)
    b.seed = seed
    if fake_clock:
        b.clock = FakeClock()
    else:
        from hal.mock.realclock import RealClock
        b.clock = RealClock()
    b._secret = B._Xorshift(seed ^ 0x5EC2E7)  # urandom(): seeded, so tests repeat
    b.dome = B.Dome(b.clock, B.Rng(seed), cocked_permille, flicker_permille,
                     stuck_permille, settle_ms, faces)
    b.dome.motor_fail = motor_fail
    b.shaker = B.MockShaker(b.dome, b.clock, motion_sensor)
    b.dice = Dice(b.dome.read_raw)
    b.keyboard = None
    b.buttons = B.MockButtons(b)
    b.door = B.MockSwitch(b.clock, 0)  # 1 = open
    b.audit_key = B.MockSwitch(b.clock, 0)  # 1 = turned
    b.tilt = B.MockSwitch(b.clock, 0)  # 1 = tilted
    b.lamps = Lamps(())
    b.money = B.MockMoney(b.clock, pulse_ms)
    b.printer = B.MockPrinter()
    b.watchdog = B.MockWatchdog(b.clock, wdt_ms)
    b.display = MockDisplay()
    b.tones = []  # the buzzer frequencies set lately, 0 = off (tests)
    b.buzzer = Buzzer(b._tone)
    b.serial = LoopSerial()
    b.sas = None
    b.logic_door = B.MockSwitch(b.clock, 0)    # 1 = open
    b.cashbox_door = B.MockSwitch(b.clock, 0)  # 1 = open
    # the SAS port without the rarer options' module: a SAS session
    # would intern its names for nothing
    sas = more.pop("sas", None)
    if flash or more:  # flash and the rarer options: their own module (hal/mock/extras.py)
        from hal.mock.extras import attach
        attach(b, flash, flash_size, **more)
    else:
        b.provision = Marker(None)
        b.flash = None
    if sas:
        from hal.mock.sasport import open_port
        b.sas = open_port(sas)
