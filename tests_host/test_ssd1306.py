"""hal/ssd1306.py on a logging I2C bus: a frame goes in quarter parts when
asked (SAS is served between them), and only the pages (8-pixel rows) that
changed since the last show go on the bus, a run of them as one transfer;
every 32nd frame goes whole (a display that lost its RAM recovers)."""
import sys

import pytest


class _I2C:
    def __init__(self):
        self.log = []

    def writeto(self, addr, data):
        self.log.append(bytes(data))

    def writevto(self, addr, parts):
        self.log.append(b"".join(bytes(p) for p in parts))

    def transfers(self):
        """(first page, last page, data) of each frame transfer in the log."""
        out = []
        log = self.log
        for i, m in enumerate(log):
            if m[:1] == b"\x40":
                out.append((log[i - 2][1], log[i - 1][1], m[1:]))
        return out


def _display():
    try:
        import framebuf  # noqa: F401 (MicroPython)
    except ImportError:  # CPython: the mock's pure-Python frame buffer
        from hal.mock import fbuf
        sys.modules["framebuf"] = fbuf
    from hal.ssd1306 import SSD1306_I2C
    return SSD1306_I2C(_I2C())


@pytest.fixture
def disp():
    d = _display()
    d.init()
    d.i2c.log.clear()
    return d


def _page(d, p):
    return bytes(d.buffer[p * 128:(p + 1) * 128])


def test_init_sends_the_whole_blank_frame():
    d = _display()
    d.init()
    assert d.i2c.transfers() == [(0, 7, bytes(1024))]


def test_an_unchanged_frame_sends_nothing(disp):
    disp.show()
    for part in range(disp.parts):
        disp.show(part)
    assert disp.i2c.log == []


def test_only_changed_pages_go_a_run_in_one_transfer(disp):
    disp.pixel(5, 3 * 8 + 2, 1)           # page 3
    disp.fill_rect(0, 5 * 8, 4, 24, 1)     # pages 5, 6, 7
    disp.show()
    t = disp.i2c.transfers()
    assert [(a, b) for a, b, _ in t] == [(3, 3), (5, 7)]
    assert t[0][2] == _page(disp, 3)
    assert t[1][2] == _page(disp, 5) + _page(disp, 6) + _page(disp, 7)
    # column window 0-127 before each
    assert disp.i2c.log[:4] == [b"\x80\x21", b"\x80\x00", b"\x80\x7f", b"\x80\x22"]
    disp.i2c.log.clear()
    disp.show()
    assert disp.i2c.log == [], "sent once"


def test_a_frame_in_parts_sends_each_quarters_changed_pages(disp):
    for i in range(len(disp.buffer)):
        disp.buffer[i] = i & 0xFF
    got = b""
    for part in range(disp.parts):
        disp.i2c.log.clear()
        disp.show(part)
        assert disp.i2c.transfers() == [(2 * part, 2 * part + 1, bytes(disp.buffer[256 * part:256 * (part + 1)]))]
        got += disp.i2c.transfers()[0][2]
    assert got == bytes(disp.buffer)


def test_every_32nd_frame_goes_whole(disp):
    whole = []
    for k in range(1, 65):
        disp.i2c.log.clear()
        disp.show()
        if disp.i2c.transfers():
            whole.append(k)
            assert disp.i2c.transfers() == [(0, 7, bytes(disp.buffer))]
    assert len(whole) == 2 and whole[1] - whole[0] == 32
