"""Mock technician serial: a local socket (tools); the in-memory pipe (tests)
is hal.mock.loopserial, importable from here too.

Both have non-blocking read(buf) -> n and write(data) -> n.
"""
import socket
import sys

from hal.mock.loopserial import LoopSerial  # noqa: F401  (both kinds importable here)


def _recv_into(sock, buf):
    fn = getattr(sock, "recv_into", None)
    if fn is not None:  # CPython
        return fn(buf)
    n = sock.readinto(buf)  # MicroPython: None when nothing is there
    if n is None:
        raise OSError(11)
    return n


def unix_address(path):
    """bind()'s address for a unix socket: CPython takes the path, the
    MicroPython unix port a raw struct sockaddr_un (a str there is EINVAL)."""
    if sys.implementation.name != "micropython":
        return path
    import struct
    return struct.pack("H", socket.AF_UNIX) + path.encode() + b"\0"


class SocketSerial:
    """Listens on "tcp:HOST:PORT" (PORT 0 = any free port, see `.address`) or
    "unix:PATH"; one client at a time, everything non-blocking."""

    def __init__(self, spec):
        kind, _, rest = spec.partition(":")
        if kind == "tcp":
            host, _, port = rest.rpartition(":")
            fam = socket.AF_INET
            addr = socket.getaddrinfo(host or "127.0.0.1", int(port))[0][-1]
        elif kind == "unix":
            fam = socket.AF_UNIX
            addr = unix_address(rest)
            try:
                import os

                os.remove(rest)
            except OSError:
                pass
        else:
            raise ValueError("serial spec: tcp:HOST:PORT or unix:PATH")
        s = socket.socket(fam, socket.SOCK_STREAM)
        if fam == socket.AF_INET:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(addr)
        s.listen(1)
        s.setblocking(False)
        self._srv = s
        self._cli = None
        self.address = rest if kind == "unix" else \
            s.getsockname() if hasattr(s, "getsockname") else addr

    def _accept(self):
        if self._cli is None:
            try:
                c, _ = self._srv.accept()
            except OSError:
                return None
            c.setblocking(False)
            self._cli = c
        return self._cli

    def read(self, buf):
        c = self._accept()
        if c is None:
            return 0
        try:
            n = _recv_into(c, buf)
        except OSError:
            return 0
        if n == 0:  # peer closed
            c.close()
            self._cli = None
        return n

    def write(self, data):
        c = self._accept()
        if c is None:
            return 0
        try:
            return c.send(data) or 0
        except OSError:
            c.close()
            self._cli = None
            return 0

    def close(self):
        if self._cli is not None:
            self._cli.close()
        self._srv.close()


class SocketSas:
    """The SAS port on a socket: each received byte is a pair (ninth bit,
    byte); replies are plain bytes (hal.mock.sasport, tools/sas_bridge.py)."""

    def __init__(self, spec):
        self._sock = SocketSerial(spec)
        self.address = self._sock.address
        self._raw = bytearray(128)
        self._odd = -1          # a ninth-bit byte whose data byte has not come yet

    def read(self, buf, wake):
        got = self._sock.read(memoryview(self._raw)[:min(len(self._raw), 2 * len(buf))])
        n = 0
        for i in range(got):
            b = self._raw[i]
            if self._odd < 0:
                self._odd = b
            else:
                buf[n] = b
                wake[n] = 1 if self._odd else 0
                n += 1
                self._odd = -1
        return n

    def write(self, data):
        return self._sock.write(data)

    def close(self):
        self._sock.close()
