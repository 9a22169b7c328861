"""Mock SSD1306: a 128x64 MONO_VLSB frame buffer with a terminal rendering."""
try:
    import framebuf
except ImportError:  # CPython
    from hal.mock import fbuf as framebuf

WIDTH = 128
HEIGHT = 64


class MockDisplay(framebuf.FrameBuffer):
    def __init__(self, width=WIDTH, height=HEIGHT):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * ((height + 7) // 8))
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.frames = 0  # show() calls
        self.on_show = None  # optional callable(display), e.g. terminal redraw

    parts = 4   # show(part): a quarter of the frame, as hal/ssd1306

    def show(self, part=-1):
        if part >= 0 and part != self.parts - 1:
            return      # the frame counts (and the terminal redraws) once it is all sent
        self.frames += 1
        if self.on_show is not None:
            self.on_show(self)

    def get(self, x, y):
        """Pixel from the buffer (0/1), 0 outside."""
        if 0 <= x < self.width and 0 <= y < self.height:
            return (self.buffer[(y >> 3) * self.width + x] >> (y & 7)) & 1
        return 0

    def to_text(self, mode="braille"):
        """Whole frame as text: 'braille' (2x4 pixels per char, 64x16 chars),
        'blocks' (half blocks, 1x2 per char, 128x32) or 'ascii' ('#'/'.');
        hal/mock/frametext.py, loaded when first asked for."""
        from hal.mock.frametext import to_text
        return to_text(self, mode)
