"""CPython-only HAL tests: the FrameBuffer stand-in against MicroPython's C
framebuf (drawn by the unix port in a subprocess), and the socket serial."""
import os
import socket
import subprocess
import sys
import time

import pytest

from hal.mock import fbuf
from test_hal_mock import FB_CASES, draw_cases

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MP = os.path.join(ROOT, ".venv", "bin", "micropython")

_SCRIPT = """
import sys
sys.path.insert(0, "tests_host")
sys.path.insert(0, ".")
import framebuf
from test_hal_mock import draw_cases
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
draw_cases(fb)
print(buf.hex())
for s, x, y in %r:
    fb.fill(0)
    fb.text(s, x, y, 1)
    print(buf.hex())
"""


@pytest.mark.skipif(not os.path.exists(MP), reason="no micropython in .venv")
def test_fbuf_stand_in_matches_micropython_framebuf():
    out = subprocess.run([MP, "-c", _SCRIPT % (FB_CASES,)], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    buf = bytearray(1024)
    fb = fbuf.FrameBuffer(buf, 128, 64, fbuf.MONO_VLSB)
    draw_cases(fb)
    assert any(buf)
    assert buf.hex() == out[0]
    for i, (s, x, y) in enumerate(FB_CASES):
        fb.fill(0)
        fb.text(s, x, y, 1)
        assert buf.hex() == out[i + 1], s


def test_fbuf_pixel_and_clipping():
    buf = bytearray(16)
    fb = fbuf.FrameBuffer(buf, 8, 16, fbuf.MONO_VLSB)
    fb.pixel(3, 9, 1)
    assert buf[8 + 3] == 0b10 and fb.pixel(3, 9) == 1 and fb.pixel(8, 0) is None
    fb.fill_rect(-3, -3, 5, 5, 1)
    assert fb.pixel(1, 1) == 1 and fb.pixel(2, 2) == 0
    with pytest.raises(ValueError):
        fbuf.FrameBuffer(bytearray(16), 8, 16, fbuf.RGB565)


def test_socket_serial_tcp_roundtrip():
    from hal.mock.serial import SocketSerial

    s = SocketSerial("tcp:127.0.0.1:0")
    host, port = s.address
    buf = bytearray(16)
    assert s.read(buf) == 0  # nobody connected: non-blocking
    c = socket.create_connection((host, port), timeout=2)
    try:
        c.sendall(b"PING")
        n = 0
        for _ in range(100):
            n = s.read(buf)
            if n:
                break
            time.sleep(0.01)
        assert buf[:n] == b"PING"
        assert s.write(b"PONG") == 4
        assert c.recv(4) == b"PONG"
    finally:
        c.close()
        s.close()


def test_detect_on_cpython_is_mock():
    import hal

    assert sys.platform not in ("rp2", "esp32")
    b = hal.detect(fake_clock=True, seed=2, flash=False)
    assert b.platform == "mock"
