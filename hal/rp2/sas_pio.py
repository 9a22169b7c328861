"""SAS line on the RP2040: a 9-bit UART in two PIO state machines (both
hardware UARTs are taken by the printer and the technician port).

Frame: start bit, 8 data bits (LSB first), the ninth (wakeup) bit, stop bit,
19,200 baud; the state machines run at 8 cycles per bit. The receiver pushes
each 9-bit word and raises a PIO interrupt; its handler (hard on the table
link) moves the words into a pre-allocated ring so nothing is lost while the
main loop is busy a few ms (an rp2 flash erase stops everything for tens of
ms: a message cut that way fails its CRC and the host polls again).
"""
import rp2
from machine import Pin, disable_irq, enable_irq
from micropython import const

_BAUD = const(19200)
_RING = const(128)
# who drains the receive FIFO (PioSas._drainer): the interrupt handler, a
# scheduled one (read() too), or read() right now (the handler leaves it)
_HARD = const(0)
_SOFT = const(1)
_READING = const(2)

# Typing only: the PIO DSL names exist inside @asm_pio functions at run time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import (block, in_, irq, jmp, label, noblock, out, pin, pins, pull,
                             push, rel, set, wait, x, x_dec)


# the TX FIFO joined (8 words): an answer is queued at once, not a word at
# a time behind the shift register
@rp2.asm_pio(sideset_init=rp2.PIO.OUT_HIGH, out_init=rp2.PIO.OUT_HIGH,
             out_shiftdir=rp2.PIO.SHIFT_RIGHT, fifo_join=rp2.PIO.JOIN_TX)
def _tx9():
    pull()                  .side(1)[7]     # idle high; a word of 9 bits
    set(x, 8)               .side(0)[7]     # start bit
    label("bit")
    out(pins, 1)[6]
    jmp(x_dec, "bit")


@rp2.asm_pio(in_shiftdir=rp2.PIO.SHIFT_RIGHT)
def _rx9():
    label("start")
    wait(0, pin, 0)                         # start bit
    set(x, 8)[10]                           # to the middle of data bit 0
    label("bit")
    in_(pins, 1)
    jmp(x_dec, "bit")[6]
    jmp(pin, "stop")                        # stop bit high: a good frame
    wait(1, pin, 0)                         # framing error: drop it
    jmp("start")
    label("stop")
    push(block)
    irq(noblock, rel(0))


class PioSas:
    """Board contract `sas`: read(buf, wake) -> n, write(data) -> n."""

    def __init__(self, pio, tx_pin, rx_pin, sm=0, baud=_BAUD, hard=False):
        # sm, baud: the bill validator's 8E1 line and the table link run on
        # the same programs (hal/rp2/id003_port.py, hal/rp2/rs485.py; a PIO
        # loads a program once for all its SMs). hard: the receive FIFO
        # (4 words) is drained from the interrupt itself, as the table link's
        # 115,200 baud needs: a scheduled handler waits for the main loop,
        # which a display transfer holds for ~10 ms (40 words at that rate).
        freq = 8 * baud
        rx = Pin(rx_pin, Pin.IN, Pin.PULL_UP)
        self._tx = rp2.StateMachine(pio * 4 + sm, _tx9, freq=freq, sideset_base=Pin(tx_pin),
                                    out_base=Pin(tx_pin))
        self._rx = rp2.StateMachine(pio * 4 + sm + 1, _rx9, freq=freq, in_base=rx, jmp_pin=rx)
        self._ring = bytearray(2 * _RING)     # (byte, wake) pairs
        self._head = 0
        self._n = 0
        self.overruns = 0
        # set at each word received (the main loop's asyncio.ThreadSafeFlag:
        # its SAS task wakes for a poll instead of looking after every part)
        self.wake = None
        self._drainer = _HARD if hard else _SOFT
        self._rx.irq(self._received, hard=hard)
        self._rx.active(1)
        self._tx.active(1)

    def _received(self, sm):
        if self._drainer != _READING:
            self._drain(sm)
        if self.wake is not None:
            self.wake.set()

    def _drain(self, sm):
        # no allocation (it may run as a hard interrupt): words go straight
        # into the ring, shifted in get() so no 32-bit integer is made
        while sm.rx_fifo():
            w = sm.get(None, 23)              # 9 bits at the top of the ISR
            if self._n == _RING:
                self.overruns += 1
                continue
            i = 2 * ((self._head + self._n) % _RING)
            self._ring[i] = w & 0xFF
            self._ring[i + 1] = w >> 8
            self._n += 1

    def read(self, buf, wake):
        if self._drainer == _SOFT:
            # a scheduled handler runs between the main loop's bytecodes:
            # the words it has not yet moved join the ring here. It does
            # not drain meanwhile: run between a drain's rx_fifo() and its
            # get(), it left get() waiting (CPU busy, no watchdog feed) for
            # the host's next word, ~1 s later
            if not self._n and not self._rx.rx_fifo():
                return 0  # the common case where nothing wakes the main loop for a poll
            self._drainer = _READING
            try:
                self._drain(self._rx)
            finally:
                self._drainer = _SOFT
        n = min(self._n, len(buf))
        if not n:
            return 0
        head = self._head
        ring = self._ring
        # interrupts stay on while the bytes are copied: a hard handler only
        # appends after head + count (at 115,200 baud the FIFO's 4 words
        # last 0.35 ms, less than a 20-byte copy takes)
        for k in range(n):
            i = 2 * ((head + k) % _RING)
            buf[k] = ring[i]
            wake[k] = ring[i + 1]
        state = disable_irq()     # head and count move together
        self._head = (head + n) % _RING
        self._n -= n
        enable_irq(state)
        return n

    def write(self, data):
        for b in data:
            self._tx.put(b)                   # ninth bit 0: a gaming machine's bytes
        return len(data)

    def tx_empty(self):
        """True when the transmit FIFO is empty (its last word is then in
        the shift register, one word time from the wire's end)."""
        return not self._tx.tx_fifo()

    def put(self, word):
        """One 9-bit word (the ID-003 line sends its parity bit as the ninth)."""
        self._tx.put(word)
