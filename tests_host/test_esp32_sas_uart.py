"""The ESP32 SAS line (hal/esp32/sas_uart.py) over a fake UART on a fake
microsecond clock: a host message arriving in pieces across many reads gets
the wakeup mark on its first byte only, however often the controller reads;
the framer then sees every message whole. CPython only (fakes `machine`)."""
import sys
import types

from firmware.sas import wire as Wr

BYTE_US = 573                      # 11 bits (start, 8 data, parity, stop) at 19,200 baud


class FakeUart:
    """Bytes arrive at given microsecond times; any()/readinto() see those
    whose time has come."""

    def __init__(self, clock, *a, **k):
        self.clock = clock
        self.line = []             # (arrival_us, byte), in order
        self.sent = bytearray()
        self.next = []             # messages the host sends 1 ms after each answer

    def any(self):
        return sum(1 for t, _ in self.line if t <= self.clock[0])

    def readinto(self, buf, n):
        k = min(n, self.any())
        for i in range(k):
            buf[i] = self.line.pop(0)[1]
        return k

    def write(self, data):
        self.sent += data
        if self.next:
            _send(self, self.clock[0] + len(data) * BYTE_US + 1000, self.next.pop(0))
        return len(data)

    def flush(self):
        pass

    def init(self, **k):
        pass


def _port(monkeypatch):
    clock = [1000]
    fake = types.ModuleType("machine")
    fake.UART = lambda *a, **k: FakeUart(clock, *a, **k)
    monkeypatch.setitem(sys.modules, "machine", fake)
    monkeypatch.delitem(sys.modules, "hal.esp32.sas_uart", raising=False)
    from hal.esp32.sas_uart import UartSas
    port = UartSas(1, 33, 34, ticks_us=lambda: clock[0])
    return port, port._u, clock


def _crc(body):
    c = Wr.crc16(body)
    return body + bytes((c & 0xFF, c >> 8))


def _send(uart, at, data):
    """The host's burst: one byte every BYTE_US from `at`; returns its end."""
    for i in range(len(data)):
        uart.line.append((at + i * BYTE_US, data[i]))
    return at + len(data) * BYTE_US


def _serve(port, clock, until, every_us, framer, frames, answer=False):
    buf, wake = bytearray(64), bytearray(64)
    marks = []
    while clock[0] < until:
        n = port.read(buf, wake)
        for i in range(n):
            if wake[i]:
                marks.append(buf[i])
            kind = framer.feed(buf[i], wake[i])
            if kind:
                frames.append(bytes(framer.buf[:framer.n]))
                if answer:
                    port.write(b"\x01")
        clock[0] += every_us
    return marks


def test_a_poll_in_pieces_across_fast_reads_has_one_wakeup(monkeypatch):
    port, uart, clock = _port(monkeypatch)
    set_time = _crc(bytes((1, 0x7F, 0x03, 0x15, 0x20, 0x30, 0x13, 0x45, 0x00)))
    t = _send(uart, 2000, set_time)                    # 11 bytes, 6.3 ms
    t = _send(uart, t + 8000, b"\x81")                 # a general poll after a pause
    t = _send(uart, t + 8000, bytes((1, 0x1C)))
    framer, frames = Wr.Framer(1), []
    # the controller reads every 100 us: many empty reads inside each message
    marks = _serve(port, clock, t + 5000, 100, framer, frames)
    assert marks == [1, 0x81, 1]
    assert frames == [set_time, b"\x81", bytes((1, 0x1C))]


def test_slow_reads_and_an_answer(monkeypatch):
    port, uart, clock = _port(monkeypatch)
    _send(uart, 2000, bytes((1, 0x1C)))
    # the next poll comes 1 ms after the answer, with no empty read between
    # (reads every 7 ms, a display part): our answer ended the message
    uart.next.append(bytes((1, 0x0F)))
    framer, frames = Wr.Framer(1), []
    marks = _serve(port, clock, 40000, 7000, framer, frames, answer=True)
    assert marks == [1, 1] and frames == [bytes((1, 0x1C)), bytes((1, 0x0F))]
    assert uart.sent == b"\x01\x01"


def test_a_pause_shorter_than_the_gap_is_not_a_new_message(monkeypatch):
    port, uart, clock = _port(monkeypatch)
    body = _crc(bytes((1, 0x7F, 0x03, 0x15, 0x20, 0x30, 0x13, 0x45, 0x00)))
    t = _send(uart, 2000, body[:4])
    t = _send(uart, t + 1200, body[4:])                # 1.2 ms pause inside the message
    framer, frames = Wr.Framer(1), []
    marks = _serve(port, clock, t + 5000, 50, framer, frames)
    assert marks == [1] and frames == [body]
