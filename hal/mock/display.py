"""Mock SSD1306: a 128x64 MONO_VLSB frame buffer with a terminal rendering."""
try:
    import framebuf
except ImportError:  # CPython
    from hal.mock import fbuf as framebuf

WIDTH = 128
HEIGHT = 64

# braille dot bit for (dx, dy) inside a 2x4 cell
_BRAILLE = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


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
        'blocks' (half blocks, 1x2 per char, 128x32) or 'ascii' ('#'/'.')."""
        g = self.get
        rows = []
        if mode == "braille":
            for cy in range(0, self.height, 4):
                row = []
                for cx in range(0, self.width, 2):
                    v = 0
                    for dx in range(2):
                        for dy in range(4):
                            if g(cx + dx, cy + dy):
                                v |= _BRAILLE[dx][dy]
                    row.append(chr(0x2800 + v))
                rows.append("".join(row))
        elif mode == "blocks":
            ch = (" ", "\u2580", "\u2584", "\u2588")
            for y in range(0, self.height, 2):
                rows.append("".join(ch[g(x, y) | (g(x, y + 1) << 1)] for x in range(self.width)))
        else:
            for y in range(self.height):
                rows.append("".join("#" if g(x, y) else "." for x in range(self.width)))
        return "\n".join(rows)
