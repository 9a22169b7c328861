"""Pulse counting in a PIO state machine: counts even while flash erase or
program has interrupts disabled (the counter runs in hardware).

Each falling edge that stays low for at least _MIN_LOW cycles (a glitch
filter: ~3.3 ms at 10 kHz; validator pulses are 20-100 ms) adds 1 to X.
X is only ever written by the single `mov(x, invert(y))`, so a read through
exec() sees a whole count, never a half-updated one.
"""
import rp2
from machine import Pin
from micropython import const

_SM_FREQ = const(10_000)
# encoded once: exec() of a string assembles it in Python at every call (~7 ms on a Pico)
_X_TO_ISR = rp2.asm_pio_encode("mov(isr, x)", 0)
_PUSH = rp2.asm_pio_encode("push(noblock)", 0)

# Typing only: the PIO DSL names exist inside @asm_pio functions at run time.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import invert, jmp, label, mov, nop, pin, wait, wrap, wrap_target, x, y, y_dec


@rp2.asm_pio()
def _falling_counter():
    wrap_target()
    wait(1, pin, 0)  # line idle (high through the opto pull-up)
    wait(0, pin, 0)  # falling edge
    nop()[31]  # glitch filter
    jmp(pin, "skip")  # high again: too short, not a pulse
    mov(y, invert(x))
    jmp(y_dec, "inc")
    label("inc")
    mov(x, invert(y))  # x + 1
    label("skip")
    wrap()


class PioCounter:
    def __init__(self, sm_id, pin_no):
        pin = Pin(pin_no, Pin.IN, Pin.PULL_UP)
        self._sm = rp2.StateMachine(sm_id, _falling_counter, freq=_SM_FREQ, in_base=pin, jmp_pin=pin)
        self._sm.exec("set(x, 0)")
        self._sm.active(1)

    def read(self):
        sm = self._sm
        while sm.rx_fifo():
            sm.get()
        sm.exec(_X_TO_ISR)
        sm.exec(_PUSH)
        return sm.get()
