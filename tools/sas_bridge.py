"""Host side of the simulator's SAS port: a pty (or TCP) line for a SAS host.

A pty carries 8-bit bytes only, so the wakeup (ninth) bit is sent the way
sas-comm-py does it: the host writes one byte 0x80 in front of each message,
and the byte after it is the one with the wakeup bit set (the address, or
address|0x80 for a general poll). A marker counts only as the first byte of
what the host wrote in one go, or right after a general poll (a 0x80 inside
a long poll is data), so the host must not write its next poll before the
answer to a long poll (or the 20 ms answer window) has passed, which a SAS
host does anyway. The
simulator's SAS socket (hal/mock/sasport.SocketSas) gets each byte as a pair
(ninth bit, byte); its replies come back unchanged.

  python tools/sas_bridge.py SIM_SOCKET [pty | tcp:HOST:PORT]
prints "SAS pty: /dev/pts/N" (or "SAS tcp: HOST:PORT") once the line is up.
"""
import os
import select
import socket
import sys
import time
import tty

MARK = 0x80


IN = 0          # inside a message, or not known to be complete
MARKED = 1      # a marker came: the next byte has the wakeup bit
DONE = 2        # a general poll came: that message is complete


def encode(chunk, state):
    """Host bytes -> (pairs for the simulator, state after them). A 0x80 is
    a marker at the start of a chunk, or right after a general poll (one
    byte, so complete): a host that writes a poll nobody answers (another
    address) and then the next one may find both in one read when the
    bridge is slow to run."""
    out = bytearray()
    for i in range(len(chunk)):
        b = chunk[i]
        if b == MARK and state != MARKED and (i == 0 or state == DONE):
            state = MARKED
            continue
        wake = state == MARKED
        out += bytes((1 if wake else 0, b))
        state = DONE if wake and b & 0x80 else IN
    return bytes(out), state


def connect(path, timeout_s=30):
    t0 = time.time()
    while True:
        try:
            if path.startswith("tcp:"):
                host, _, port = path[4:].rpartition(":")
                return socket.create_connection((host or "127.0.0.1", int(port)))
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path[5:] if path.startswith("unix:") else path)
            return s
        except OSError:
            if time.time() - t0 > timeout_s:
                raise
            time.sleep(0.05)


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    spec = argv[2] if len(argv) > 2 else "pty"
    keep = None
    if spec == "pty":
        master, keep = os.openpty()
        tty.setraw(keep)
        print("SAS pty: " + os.ttyname(keep), flush=True)
        sim = connect(argv[1])
        src, write = master, lambda data: os.write(master, data)
    else:
        host, _, port = spec[4:].rpartition(":")
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((host or "127.0.0.1", int(port)))
        srv.listen(1)
        print("SAS tcp: %s:%d" % srv.getsockname(), flush=True)
        sim = connect(argv[1])
        src, _ = srv.accept()
        write = src.sendall
    state = IN
    while True:
        r, _, _ = select.select([src, sim], [], [])
        if sim in r:
            data = sim.recv(4096)
            if not data:
                return 0
            write(data)
        if src in r:
            data = os.read(src, 4096) if isinstance(src, int) else src.recv(4096)
            if not data:
                return 0
            pairs, state = encode(data, state)
            sim.sendall(pairs)


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except KeyboardInterrupt:
        sys.exit(0)
