"""SSD1306 128x64 OLED over I2C as a framebuf.FrameBuffer subclass.

Based on micropython-lib drivers/display/ssd1306: drawing runs in C. `show()`
sends only the pages (8-pixel rows) that differ from what the display shows
(a copy of the last frame sent is kept; every 32nd frame goes whole): a whole
frame is ~25 ms of a 400 kHz bus, a countdown digit one page. The I2C object
comes from the board. Making the object never touches the bus; `init()` does,
and raises OSError (ETIMEDOUT, ENODEV) when no display answers, so the board
can report the fault instead of dying.
"""
import framebuf
from micropython import const

_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)

# show(part) sends a quarter of the frame (2 pages, 256 bytes, ~6 ms on a
# 400 kHz bus; the whole frame takes ~25 ms): the controller sends a frame in
# parts when a SAS host must be answered in between (within 20 ms)
_PARTS = const(4)
# every this many frames all pages go, changed or not: a display that lost
# its RAM (a glitch on its supply) shows the whole frame again
_FULL_EVERY = const(32)
WIDTH = const(128)
HEIGHT = const(64)

_INIT = (
    _SET_DISP,  # off
    _SET_MEM_ADDR, 0x00,  # horizontal addressing
    _SET_DISP_START_LINE,
    _SET_SEG_REMAP | 0x01,
    _SET_MUX_RATIO, HEIGHT - 1,
    _SET_COM_OUT_DIR | 0x08,
    _SET_DISP_OFFSET, 0x00,
    _SET_COM_PIN_CFG, 0x12,
    _SET_DISP_CLK_DIV, 0x80,
    _SET_PRECHARGE, 0xF1,
    _SET_VCOM_DESEL, 0x30,
    _SET_CONTRAST, 0xFF,
    _SET_ENTIRE_ON,
    _SET_NORM_INV,
    _SET_CHARGE_PUMP, 0x14,
    _SET_DISP | 0x01,  # on
)


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, i2c, addr=0x3C, width=WIDTH, height=HEIGHT):
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._cmd = bytearray(2)
        self._part = [b"\x40", None]
        self._sent = bytearray(len(self.buffer))  # the frame the display holds
        # each page of both as a view made once: show() compares them every
        # frame without allocating (slices of the buffers are new objects)
        self._pages = self._views(self.buffer)
        self._held = self._views(self._sent)
        self._frames = 0
        self._whole = False   # this frame goes whole

    def _views(self, frame):
        w = self.width
        mv = memoryview(frame)
        return [mv[p * w:(p + 1) * w] for p in range(self.height // 8)]

    def init(self):
        for c in _INIT:
            self.write_cmd(c)
        self.fill(0)
        self._send(0, self.height // 8 - 1)

    def write_cmd(self, cmd):
        self._cmd[0] = 0x80  # Co=1, D/C#=0
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def power(self, on):
        self.write_cmd(_SET_DISP | (1 if on else 0))

    def contrast(self, value):
        self.write_cmd(_SET_CONTRAST)
        self.write_cmd(value)

    parts = _PARTS

    def show(self, part=-1):
        """Sends the pages that changed since the last show (part: only those
        of that quarter of the frame); a run of changed pages goes as one
        transfer."""
        last = self.height // 8 - 1
        first = 0
        if part >= 0:
            first, last = 2 * part, 2 * part + 1
        if first == 0:  # a new frame
            self._frames += 1
            self._whole = self._frames % _FULL_EVERY == 0
        if self._whole:
            self._send(first, last)
            return
        pages = self._pages
        held = self._held
        p = first
        while p <= last:
            q = p
            while q <= last and pages[q] != held[q]:
                q += 1
            if q > p:
                self._send(p, q - 1)
            p = q + 1

    def _send(self, first, last):
        w = self.width
        self.write_cmd(_SET_COL_ADDR)
        self.write_cmd(0)
        self.write_cmd(w - 1)
        self.write_cmd(_SET_PAGE_ADDR)
        self.write_cmd(first)
        self.write_cmd(last)
        pages = memoryview(self.buffer)[first * w:(last + 1) * w]
        self._part[1] = pages
        self.i2c.writevto(self.addr, self._part)
        self._sent[first * w:(last + 1) * w] = pages
