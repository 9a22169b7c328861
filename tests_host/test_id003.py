"""hal/id003.py, the ID-003 host driver, against a validator emulated at the
byte level (frames, CRC, statuses, timing), wired to the real controller on
the mock board: the escrow flow credits a note once it is stacked, a power-up
with a note in the stacker credits the note the journal holds pending, one
in the acceptor is given back, and line noise never moves money.
"""
import random

from hal.id003 import Id003, crc16
from hal import escrow as V
from hal.mock.board import Board
from firmware.cabinet.drive import Driver
from firmware.store import events as E

_IDLING, _ESCROW, _STACKING, _VEND, _STACKED, _RETURNING, _DISABLED = \
    0x11, 0x13, 0x14, 0x15, 0x16, 0x18, 0x1A
_PU, _PU_ACC, _PU_STK = 0x40, 0x41, 0x42


def frame(cmd, data=b""):
    f = bytearray([0xFC, 5 + len(data), cmd]) + bytearray(data)
    c = crc16(f, len(f))
    return bytes(f + bytearray([c & 0xFF, c >> 8]))


class Device:
    """The validator end of the line, with the board's clock."""

    def __init__(self, clock, status=_PU, noise=0.0, seed=1, code=0):
        self.clock = clock
        self.status = status
        self.code = code       # denomination code of the note inside
        self.barcode = b""     # with code 0x6F: a ticket's digits
        self.due = None        # (ticks, next status) of a move in progress
        self.inhibited = True
        self.out = bytearray()
        self.heard = []        # host commands, in order
        self.stacked = 0       # notes that reached the cash box
        self.returned = 0
        self.noise = noise
        self.rng = random.Random(seed)
        self.on_stack = None   # called when STACK-1 arrives (tests)

    def insert(self, code):
        if self.status != _IDLING or self.inhibited:
            return False
        self.code = code
        self._move(200, _ESCROW)
        return True

    def _move(self, ms, status):
        self.due = (self.clock.ticks_add(self.clock.ticks_ms(), ms), status)

    def _tick(self):
        if self.due and self.clock.ticks_diff(self.clock.ticks_ms(), self.due[0]) >= 0:
            self.status = self.due[1]
            self.due = None
            if self.status == _VEND:
                self.stacked += 1      # in the cash box now
            elif self.status == _IDLING and self.code:
                self.returned += 1
                self.code = 0

    # the host's port
    def read(self, buf):
        self._tick()
        n = min(len(buf), len(self.out))
        buf[:n] = self.out[:n]
        del self.out[:n]
        return n

    def write(self, data):
        data = bytes(data)
        assert crc16(data, len(data) - 2) == data[-2] | data[-1] << 8, data
        cmd = data[2]
        self.heard.append(cmd)
        self._tick()
        s = self.status
        if cmd == 0x11:
            reply = frame(s, bytes([self.code]) + self.barcode if s == _ESCROW else b"")
        else:
            reply = frame(0x50)
            if cmd == 0x40:                      # RESET
                if s == _PU_ACC:
                    self.status = _RETURNING
                    self._move(300, _IDLING)
                else:
                    self.code = 0
                    self.status = _IDLING
            elif cmd == 0x41 and s == _ESCROW:   # STACK-1
                if self.on_stack:
                    self.on_stack()
                self.status = _STACKING
                self._move(300, _VEND)
            elif cmd == 0x43 and s == _ESCROW:   # RETURN
                self.status = _RETURNING
                self._move(200, _IDLING)
            elif cmd == 0x50 and s == _VEND:     # ACK of VEND VALID
                self.code = 0
                self.status = _STACKED
                self._move(100, _IDLING)
            elif cmd == 0xC3:
                self.inhibited = bool(data[3])
        if self.noise and self.rng.random() < self.noise:
            junk = bytes(self.rng.randrange(256) for _ in range(self.rng.randrange(1, 8)))
            reply = junk + reply if self.rng.random() < 0.5 else reply[:-1] + bytes([reply[-1] ^ 1])
        self.out += reply


def _cabinet(status=_PU, flash=None, noise=0.0, seed=80, code=0, **opts):
    b = Board(seed=seed, fake_clock=True, flash=flash is None, **opts)
    if flash is not None:
        b.flash = flash
    dev = Device(b.clock, status, noise, seed, code)
    b.validator = Id003(dev, b.clock.ticks_ms)
    d = Driver(b, draw=False)
    return b, d, dev


def test_frames_are_the_published_bytes():
    assert frame(0x11) == bytes([0xFC, 0x05, 0x11, 0x27, 0x56])   # status request
    assert frame(0x50) == bytes([0xFC, 0x05, 0x50, 0xAA, 0x05])   # ACK
    sent = []

    class Port:
        def read(self, buf):
            return 0

        def write(self, data):
            sent.append(bytes(data))
    from hal.mock.clock import FakeClock
    c = FakeClock()
    v = Id003(Port(), c.ticks_ms)
    assert v.poll() == (V.BUSY, 0) and sent == [frame(0x11)]
    c.advance(9990)
    assert v.poll() == (V.BUSY, 0)   # still starting up, never a note
    c.advance(10)
    assert v.poll() == (V.ABSENT, 0)  # nobody answered since power-up


def test_escrow_flow_credits_after_the_stack_and_the_journal_first():
    b, d, dev = _cabinet()
    led = d.ctl.store.ledger
    d.run(500)
    assert dev.status == _IDLING and not dev.inhibited   # reset, then acceptance on
    at_stack = []
    dev.on_stack = lambda: at_stack.append((led.escrow, led.table.credits))
    assert dev.insert(0x65)                               # $20
    d.run(1500)
    assert at_stack == [(2000, 0)], at_stack              # journalled before STACK-1
    assert led.table.credits == 2000 and led.meters.get("bills_20") == 1 and led.escrow == 0
    assert dev.stacked == 1 and dev.status == _IDLING and 0x50 in dev.heard
    dev.code = 0x6F                                       # a code the table does not know
    dev.status = _ESCROW
    d.run(800)
    assert dev.returned == 1 and led.table.credits == 2000


def test_an_idle_validator_is_asked_every_100_ms_a_note_at_once():
    """Each turn costs two frames and two CRCs in Python: an idle validator
    is asked for its status every 100 ms (not at every 20 ms pass of the
    money task); a note in escrow is stacked at the next pass."""
    b, d, dev = _cabinet()
    d.run(500)
    assert dev.status == _IDLING
    n = len(dev.heard)
    d.run(1000)
    assert 9 <= len(dev.heard) - n <= 11, dev.heard[n:]
    assert set(dev.heard[n:]) == {0x11}
    assert dev.insert(0x65)
    d.run(300)                        # ESCROW after 200 ms, seen within 100 ms
    k = dev.heard.index(0x41)         # STACK-1 right after the status that showed it
    assert dev.heard[k - 1] == 0x11 and 0x41 not in dev.heard[:k]
    d.run(1500)
    assert d.ctl.store.ledger.table.credits == 2000


def _pending_note():
    """A note journalled pending, the power gone before anything else: the
    cabinet's flash."""
    b, d, dev = _cabinet()
    led = d.ctl.store.ledger
    d.run(500)
    cut = []

    def stop():
        cut.append(1)
        raise KeyboardInterrupt  # the cabinet stops at the stack order
    dev.on_stack = stop
    dev.insert(0x66)                                      # $50
    try:
        d.run(1500)
    except KeyboardInterrupt:
        pass
    assert cut and led.escrow == 5000 and led.table.credits == 0
    return b.flash


def _pending_then_power_up(status):
    b2, d2, dev2 = _cabinet(status, _pending_note(), seed=81, code=0x66)
    assert d2.ctl.store.ledger.escrow == 5000             # still pending after the boot
    d2.run(1500)
    return d2.ctl.store.ledger, dev2


def test_power_up_with_the_note_in_the_stacker_credits_it():
    led, dev = _pending_then_power_up(_PU_STK)
    assert led.table.credits == 5000 and led.meters.get("bills_50") == 1 and led.escrow == 0
    assert 0x40 in dev.heard and dev.status == _IDLING


def test_power_up_with_the_note_in_the_acceptor_returns_it():
    led, dev = _pending_then_power_up(_PU_ACC)
    assert led.table.credits == 0 and led.escrow == 0 and led.meters.get("total_in") == 0
    assert dev.returned == 1 and E.BILL_RETURNED in [led.events.get(i)[2] for i in range(5)]


def test_line_noise_never_moves_money():
    b, d, dev = _cabinet(noise=0.3, seed=90)
    led = d.ctl.store.ledger
    d.run(1000)
    notes = 0
    for code in (0x63, 0x64, 0x65, 0x61) * 3:
        d.run(300)
        notes += dev.insert(code)
        d.run(2500)
    d.run(3000)
    want = sum((5, 10, 20, 1)[i % 4] * 100 for i in range(12))
    assert notes == 12 and dev.stacked == 12, (notes, dev.stacked, dev.returned)
    assert led.table.credits == led.meters.get("bills_in") == want, (led.table.credits, want)
    assert led.escrow == 0 and led.balance_check() == 0


def test_a_ticket_in_escrow_is_read_redeemed_over_sas_and_stacked():
    """ESCROW with data 6F and the barcode's digits: the driver reports a
    ticket (hal/escrow.py TICKET) and stacks it only after the host's 71."""
    from sas_spec import with_crc, bcd
    from firmware.store import records as T
    b, d, dev = _cabinet(sas="loop")
    led = d.ctl.store.ledger
    sas = b.sas
    d.run(500)
    sas.host_send(b"\x80")                                # the host's sync
    d.run(20)
    at_stack = []
    dev.on_stack = lambda: at_stack.append((led.tin_step, led.table.credits))
    number = b"001122334455667788"
    dev.barcode = number
    assert dev.insert(0x6F)
    d.run(500)
    assert b.validator.poll() == (V.TICKET, 0) and b.validator.barcode == number
    assert led.tin_step == T.TI_PENDING and led.tin_number == int(number)
    body = [0x00] + list(bcd(1000, 5)) + [0x00] + list(bcd(int(number), 9))
    sas.host_read()
    sas.host_send(with_crc([1, 0x71, len(body)] + body))
    d.run(1500)
    assert at_stack == [(T.TI_AUTH, 0)], at_stack            # journalled before STACK-1
    assert led.table.credits == 1000 and dev.stacked == 1 and led.tin_step == 0
    dev.barcode = b""
    assert dev.insert(0x65)                                  # a note after it: a note
    d.run(1500)
    assert led.table.credits == 3000 and dev.stacked == 2


def test_each_error_status_names_its_fault():
    """Stacker full, stacker open, the jams, the rest, and silence: FAULT with
    the hal.faults code the lock screen and SAS name (issue 25, finding 1)."""
    from hal import faults as F
    want = {0x43: F.STACKER_FULL, 0x44: F.STACKER_OPEN, 0x45: F.BILL_JAM, 0x46: F.BILL_JAM,
            0x47: F.VALIDATOR, 0x48: F.VALIDATOR, 0x49: F.VALIDATOR, 0x4A: F.VALIDATOR}
    for status, code in want.items():
        b, d, dev = _cabinet(_IDLING)
        dev.status = status
        for _ in range(3):
            d.run(100)
        assert b.validator.poll() == (V.FAULT, code), hex(status)
    b, d, dev = _cabinet(_IDLING)
    d.run(300)
    dev.write = lambda data: None          # it stops answering
    d.run(1500)
    assert b.validator.poll() == (V.FAULT, F.VALIDATOR)


def test_a_jam_mid_stack_then_the_note_in_the_cash_box():
    """The byte-level validator jams in the stacker with the note, then
    powers up with it in the stacker: credited exactly once."""
    from hal import faults as F
    from firmware.store import ledger as L
    b, d, dev = _cabinet(_IDLING)
    d.run(500)
    led = d.ctl.store.ledger
    assert dev.insert(0x64)                # $10
    for _ in range(100):
        d.run(10)
        if dev.status == _STACKING:
            break
    dev.status, dev.due = 0x46, None       # jammed in the stacker
    d.run(1500)
    assert led.lock == L.LK_DEVICE and led.lock_arg == F.BILL_JAM and led.escrow == 1000
    assert led.host & L.BILL_DOUBT and led.table.credits == 0
    dev.status = _PU_STK                   # cleared by power: the note in the stacker
    d.run(1500)
    assert led.table.credits == 1000 and led.escrow == 0 and dev.heard[-1] in (0x11, 0x40)
    d.run(1500)
    assert led.table.credits == 1000 and led.meters.get("bills_in") == 1000


def _silent_cabinet(fitted, flash=None):
    """A cabinet whose ID-003 line stays silent from power-up, with the
    setting bill_escrow (an escrow validator fitted) at `fitted`."""
    b, d, dev = _cabinet(_IDLING, flash)
    dev.write = lambda data: None          # nothing on the line answers
    d.ctl.store.set_config(0, "bill_escrow", str(fitted))
    return b, d, dev


def test_a_fitted_validator_silent_since_power_up_locks_after_its_start_up():
    """bill_escrow 1 and no answer: no lock while a validator could still be
    initialising (before 10 s), then DEVICE FAULT BILL VALIDATOR."""
    from hal import faults as F
    from firmware.store import ledger as L
    b, d, dev = _silent_cabinet(1)
    led = d.ctl.store.ledger
    d.run(9000)
    assert not led.lock and not d.ctl.faults
    d.run(1500)
    assert led.lock == L.LK_DEVICE and led.lock_arg == F.VALIDATOR
    assert d.ctl.faults == [F.VALIDATOR] and led.meters.get("dev_faults") == 1
    d.ctl.store.set_config(0, "bill_escrow", "0")   # the technician: none is fitted
    d.run(500)
    assert not d.ctl.faults and led.lock == L.LK_DEVICE   # the lock is the attendant's


def test_no_validator_fitted_never_locks_and_pulse_bills_still_count():
    """bill_escrow 0 (the default) and nothing on the line: a cabinet with a
    pulse validator, or none, plays (the emulated Pico is one)."""
    b, d, dev = _silent_cabinet(0)
    led = d.ctl.store.ledger
    d.run(30000)
    assert not led.lock and not d.ctl.faults and led.escrow == 0
    b.money.insert_bill(5)                 # a pulse validator on the bill line
    d.run(3000)
    assert led.table.credits == 500 and not led.lock


def test_a_validator_answering_within_its_start_up_is_no_fault():
    """bill_escrow 1, the validator's first answer after 8 s (still within its
    start-up): no lock, and a note goes through."""
    b, d, dev = _silent_cabinet(1)
    led = d.ctl.store.ledger
    write = Device.write
    d.run(8000)
    dev.write = lambda data: write(dev, data)   # initialised: it answers now
    dev.status = _PU
    d.run(5000)
    assert not led.lock and not d.ctl.faults and dev.status == _IDLING
    assert dev.insert(0x65)
    d.run(1500)
    assert led.table.credits == 2000 and not led.lock


def test_silence_with_a_note_pending_locks_even_when_none_is_fitted():
    """A note journalled pending, then a power-up with the line silent and
    bill_escrow 0: the note is money in flight, so the cabinet locks with it
    in doubt rather than forget it."""
    from hal import faults as F
    from firmware.store import ledger as L
    b2, d2, dev2 = _cabinet(_IDLING, _pending_note(), seed=81)
    dev2.write = lambda data: None         # silent from power-up
    led2 = d2.ctl.store.ledger
    assert led2.escrow == 5000 and not led2.config["bill_escrow"]
    d2.run(11000)
    assert led2.lock == L.LK_DEVICE and led2.lock_arg == F.VALIDATOR
    assert led2.escrow == 5000 and led2.host & L.BILL_DOUBT and led2.table.credits == 0
