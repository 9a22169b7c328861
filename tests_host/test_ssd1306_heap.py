"""hal/ssd1306.py: the controller calls show() every frame (50 ms) and it
compares each page with the copy the display holds. A frame with no page
changed sends nothing and, on the MicroPython port, allocates nothing (a
slice of each side was two 128-byte objects a page compared)."""
import gc
import sys

MP = sys.implementation.name == "micropython"


class _Bus:
    """An I2C bus that counts what is written to it."""

    def __init__(self):
        self.writes = 0

    def writeto(self, addr, data):
        self.writes += 1

    def writevto(self, addr, parts):
        self.writes += 1


def _unchanged_frame(d):
    """One frame shown in its four parts, then whole: nothing changed."""
    d.show(0)
    d.show(1)
    d.show(2)
    d.show(3)
    d.show()


def test_show_of_an_unchanged_frame_sends_and_allocates_nothing():
    if not MP:
        from hal.mock import fbuf
        sys.modules.setdefault("framebuf", fbuf)
    from hal.ssd1306 import SSD1306_I2C
    d = SSD1306_I2C(_Bus())
    d.init()
    d.text("7", 0, 40, 1)
    d.show()                # page 5 changed: sent
    sent = d.i2c.writes
    _unchanged_frame(d)     # (warm: every attribute and global looked up once)
    gc.collect()
    if MP:
        gc.disable()        # mem_alloc then only rises
        before = gc.mem_alloc()
    _unchanged_frame(d)
    if MP:
        grew = gc.mem_alloc() - before
        gc.enable()
        assert grew == 0, "show() allocated %d B on an unchanged frame" % grew
    assert d.i2c.writes == sent, d.i2c.writes - sent
