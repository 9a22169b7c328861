"""Meter report from a cabinet over the read-out protocol (firmware/audit/readout.py).

Usage:
  tools/meters (--port DEV [--baud N] | --tcp HOST:PORT | --unix PATH)
               [--csv | --json] [--recall N] [--events N] [--digest] [--raw CMD]

  --port DEV        the cabinet's technician serial port (pyserial), e.g. /dev/ttyUSB0
  --tcp HOST:PORT   the simulator: hal.mock board built with serial="tcp:HOST:PORT"
  --unix PATH       the simulator on a unix socket (serial="unix:PATH")
  --csv / --json    machine-readable output instead of the table
  --recall N        also dump the N newest games of game recall
  --events N        also dump the N newest events
  --digest          also fetch the software verification digest (compare with
                    tools/digest on the approved release)
  --raw CMD         send one command and print the reply as it comes

Every report carries the cabinet identity (ID) and the host time it was read.
"""
import argparse
import json
import socket
import sys
import time

TIMEOUT_S = 5.0
CONNECT_WAIT_S = 30.0


class ProtocolError(Exception):
    pass


class Link:
    """Line transport: send(bytes), recv() -> bytes ('' on timeout)."""

    def __init__(self):
        self._rx = b""
        self.timeout = TIMEOUT_S  # per reply (--timeout: a slow link, an emulated cabinet)

    def request(self, command, timeout=None):
        """(first line, [data lines]) of one reply; raises ProtocolError on ERR."""
        status, lines = self.exchange(command, timeout)
        if not status.startswith("OK"):
            raise ProtocolError("%s -> %s" % (command, status))
        return status, lines

    def exchange(self, command, timeout=None):
        timeout = self.timeout if timeout is None else timeout
        self.send((command + "\n").encode("ascii"))
        lines = []
        # silence, not the whole reply, is timed: a long reply on a slow line (or a
        # cabinet in an emulator on a busy machine) keeps arriving past any fixed time
        deadline = time.monotonic() + timeout
        while True:
            nl = self._rx.find(b"\n")
            if nl >= 0:
                line = self._rx[:nl].decode("ascii", "replace").rstrip("\r")
                self._rx = self._rx[nl + 1:]
                if line == ".":
                    break
                if line.startswith("."):
                    line = line[1:]
                lines.append(line)
                continue
            if time.monotonic() > deadline:
                raise ProtocolError("%s: nothing received for %.0f s, reply incomplete"
                                    % (command, timeout))
            data = self.recv()
            if data:
                self._rx += data
                deadline = time.monotonic() + timeout
        if not lines:
            raise ProtocolError("%s: empty reply" % command)
        return lines[0], lines[1:]


class SocketLink(Link):
    def __init__(self, family, address):
        Link.__init__(self)
        # the simulator may still be starting (seconds on a busy machine)
        start = time.monotonic()
        said = False
        while True:
            self.sock = socket.socket(family, socket.SOCK_STREAM)
            self.sock.settimeout(TIMEOUT_S)
            try:
                self.sock.connect(address)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                self.sock.close()
                waited = time.monotonic() - start
                if waited > CONNECT_WAIT_S:
                    raise
                if waited > 2 and not said:
                    print("waiting for the cabinet at %s (is the simulator running?)" % (address,),
                          file=sys.stderr)
                    said = True
                time.sleep(0.1)
        self.sock.settimeout(0.2)

    def send(self, data):
        self.sock.sendall(data)

    def recv(self):
        try:
            data = self.sock.recv(4096)
        except socket.timeout:
            return b""
        if not data:
            raise ProtocolError("connection closed by the cabinet")
        return data

    def close(self):
        self.sock.close()


class SerialLink(Link):
    def __init__(self, port, baud):
        Link.__init__(self)
        import serial  # pyserial

        self.ser = serial.Serial(port, baud, timeout=0.2)
        self.ser.reset_input_buffer()

    def send(self, data):
        self.ser.write(data)
        self.ser.flush()

    def recv(self):
        return self.ser.read(4096)

    def close(self):
        self.ser.close()


def open_link(args):
    if args.port:
        return SerialLink(args.port, args.baud)
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        return SocketLink(socket.AF_INET, (host or "127.0.0.1", int(port)))
    if args.unix:
        return SocketLink(socket.AF_UNIX, args.unix)
    raise SystemExit("say where the cabinet is: --port DEV, --tcp HOST:PORT or --unix PATH")


def kv(lines):
    out = {}
    for line in lines:
        k, _, v = line.partition("=")
        out[k] = v
    return out


def read_identity(link):
    return kv(link.request("ID")[1])


def read_meters(link):
    rows = []
    for line in link.request("METERS")[1]:
        key, value, group, label = line.split(" ", 3)
        rows.append({"key": key, "label": label, "group": group, "value": int(value)})
    return rows


def read_recall(link, n):
    count = int(link.request("RECALL")[0].split()[2])
    games = []
    for i in range(min(n, count)):
        g = {"bets": []}
        for line in link.request("RECALL %d" % i)[1]:
            k, _, v = line.partition("=")
            if k == "bet":
                kind, number, result, amount, paid = v.split()
                g["bets"].append({"kind": kind, "number": int(number), "result": result,
                                  "amount": int(amount), "paid": int(paid)})
            elif k == "dice":
                g["dice"] = [int(x) for x in v.split()]
            elif k == "more":
                more, amount, paid = (int(x) for x in v.split())
                g["more"] = {"bets": more, "amount": amount, "paid": paid}
            else:
                g[k] = int(v)
        games.append(g)
    return games


def read_events(link, n):
    events = []
    start = 0
    while len(events) < n:
        want = min(50, n - len(events))
        status, lines = link.request("EVENTS %d %d" % (want, start))
        for line in lines:
            number, t, code, arg, rest = line.split(" ", 4)
            name, _, detail = rest.partition("; ")
            events.append({"number": int(number), "time": int(t), "code": int(code),
                           "arg": int(arg), "name": name, "detail": detail})
        if len(lines) < want:
            break
        start += len(lines)
    return events


def read_digest(link, timeout=60.0):
    deadline = time.monotonic() + timeout
    while True:
        # a cabinet answers DIGEST once computed; an older one says ERR 5: ask again
        status, lines = link.exchange("DIGEST", timeout)
        if status.startswith("OK DIGEST"):
            return status.split()[2]
        if not status.startswith("ERR 5") or time.monotonic() > deadline:
            raise ProtocolError("DIGEST -> %s" % status)
        time.sleep(0.02)


def civil(t):
    """The cabinet's seconds since 1970 as the date and time it shows (no zone: local as set)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(t))


def print_table(report, out):
    ident = report["identity"]
    w = out.write
    w("%s meter report\n" % (ident.get("name") or "Cabinet"))
    for k in ("station", "serial", "version", "profile"):
        w("  %-10s %s\n" % (k, ident.get(k, "")))
    w("  %-10s %s (host clock, UTC)\n" % ("read at", report["timestamp"]))
    if "time" in ident:
        w("  %-10s %s\n" % ("cabinet", civil(int(ident["time"]))))
    if report.get("digest"):
        w("  %-10s %s\n" % ("SHA-256", report["digest"]))
    st = report.get("status") or {}
    if st:
        w("  %-10s %s   lock %s   play %s\n" % ("credits", st.get("credits", "?"),
                                                 st.get("lock", "?"), st.get("suspended", "?")))
    group = None
    for m in report["meters"]:
        if m["group"] != group:
            group = m["group"]
            w("\n  [%s]\n" % group)
        w("  %-18s %-16s %12d\n" % (m["key"], m["label"], m["value"]))
    for g in report.get("recall", ()):
        w("\nRECALL game #%d  %s  dice %d+%d  point %s -> %s  credits %d -> %d  "
          "re-rolls %d%s\n" % (g["game"], civil(g["time"]), g["dice"][0], g["dice"][1],
                               g["point_before"] or "off", g["point_after"] or "off",
                               g["credits_before"], g["credits_after"], g["rerolls"],
                               "  VOIDED" if g["voided"] else ""))
        for b in g["bets"]:
            w("    %-16s %3d  %-9s bet %10d  paid %10d\n" % (
                b["kind"], b["number"], b["result"], b["amount"], b["paid"]))
        if "more" in g:
            w("    +%d more bets: bet %d paid %d\n" % (g["more"]["bets"], g["more"]["amount"],
                                                      g["more"]["paid"]))
    if report.get("events") is not None:
        w("\nEVENTS (newest first)\n")
        for e in report["events"]:
            w("  #%-6d %s  %-18s %s\n" % (e["number"], civil(e["time"]), e["name"], e["detail"]))


def print_csv(report, out):
    import csv

    ident = report["identity"]
    wr = csv.writer(out, lineterminator="\n")
    wr.writerow(["station", "serial", "version", "read_at_utc", "key", "label", "group", "value"])
    rows = [{"key": "credits", "label": "Credits", "group": "status",
             "value": (report.get("status") or {}).get("credits", "")}] + report["meters"]
    for m in rows:
        wr.writerow([ident.get("station", ""), ident.get("serial", ""), ident.get("version", ""),
                     report["timestamp"], m["key"], m["label"], m["group"], m["value"]])


def collect(link, args):
    report = {"identity": read_identity(link),
              "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    report["status"] = kv(link.request("STATUS")[1])
    report["meters"] = read_meters(link)
    if args.recall:
        report["recall"] = read_recall(link, args.recall)
    if args.events:
        report["events"] = read_events(link, args.events)
    if args.digest:
        report["digest"] = read_digest(link)
    return report


def main(argv, out=None):
    out = out or sys.stdout
    ap = argparse.ArgumentParser(prog="tools/meters", description=__doc__.split("\n")[0])
    ap.add_argument("--port")
    ap.add_argument("--baud", type=int, default=115200)
    ap.add_argument("--tcp")
    ap.add_argument("--unix")
    fmt = ap.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true")
    fmt.add_argument("--json", action="store_true")
    ap.add_argument("--recall", type=int, default=0, metavar="N")
    ap.add_argument("--events", type=int, default=0, metavar="N")
    ap.add_argument("--digest", action="store_true")
    ap.add_argument("--raw", metavar="CMD")
    ap.add_argument("--timeout", type=float, default=TIMEOUT_S, metavar="S",
                    help="seconds to wait for each reply (default %.0f)" % TIMEOUT_S)
    args = ap.parse_args(argv)
    link = open_link(args)
    link.timeout = args.timeout
    try:
        if args.raw:
            status, lines = link.exchange(args.raw)
            out.write("\n".join([status] + lines) + "\n")
            return 0 if status.startswith("OK") else 1
        report = collect(link, args)
    except ProtocolError as exc:
        sys.stderr.write("meters: %s\n" % exc)
        return 1
    finally:
        link.close()
    if args.json:
        json.dump(report, out, indent=1)
        out.write("\n")
    elif args.csv:
        print_csv(report, out)
    else:
        print_table(report, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
