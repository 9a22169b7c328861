"""The multi-seat simulator (tools/sim --seats N): the dome controller and N
player stations, each a separate process running the real main.py under the
MicroPython unix port (hal/mock/tablenode.py), each with its own flash image
in a folder, joined by the bus model in this process.

Time is the simulator's: every node's clock moves a millisecond at a time in
lockstep ("t 1"), and a frame sent in one millisecond reaches the others when
its last bit would have left the wire at 115,200 baud (11 bits a byte).
The bus model can lose, duplicate, corrupt and delay frames (per mille, per
frame and receiver), and frames that overlap on the wire garble each other.
A node can be killed (kill -9) and started again from its flash image.

Modes:
  --headless SCRIPT    run a multi-seat script (below) as fast as it goes
  --sweep ROUNDS       random players, kill -9 of random nodes mid-round
                       (--kills), invariants 1-3 after every round from the
                       journals' records (tests_host/link_sim.Witness)
  (neither)            the table in this terminal, paced to real time
Script commands, one a line, '#' comments:
  seat N press NAME | seat N bill D | seat N coin N | seat N door | seat N key
  seat N tilt | seat N leave            a station's buttons, money, switches
  dome door | dome tilt | dome key | dome dice A B | dome cocked P | dome stuck P
  roll                 until the dome has finished one more round and every
                       station in it has settled it
  wait MS              run MS milliseconds
  kill dome|seat N     kill -9 the node (it starts again with `start`)
  start dome|seat N
  expect dome|seat N TEXT   fail unless TEXT is on that screen
  screen dome|seat N
The output ends with a line per station and one for the dome:
  --- end seat N: state=... credits=... bet=... round=R ...
  --- end dome: round=R dice=A+B shooter=N ...
"""
import argparse
import binascii
import os
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tools", "cpython_shims"), os.path.join(ROOT, "tests_host")]

from link_sim import Witness, Violation  # noqa: E402
from hal.mock.xorshift import Rng  # noqa: E402

BAUD = 115200
BYTE_US = 11 * 1000000 // BAUD
# the dome's table.cfg: short rounds for the sweeps (~1.5 s), a script's
# (a 5 s window: the script's presses land in it), and play at a terminal
FAST_DOME = "dome window_s=1 result_s=1 shake_ms=500 settle_ms=100 shooter_idle_s=60"
SCRIPT_DOME = "dome window_s=5 result_s=2 shake_ms=1000 settle_ms=300 shooter_idle_s=120"
PLAY_DOME = "dome window_s=10 shooter_idle_s=120"


class NodeProc:
    """One node process and its pipe."""

    def __init__(self, name, role, flash, seed, micropython, start_ms):
        self.name = name
        self.role = role
        self.flash = flash
        self.seed = seed
        self.mp = micropython
        self.proc = None
        self.up = False
        self.booted = []
        self.start(start_ms)

    def start(self, start_ms):
        env = dict(os.environ, SIM_ROLE=self.role, SIM_FLASH=self.flash, SIM_SEED=str(self.seed),
                   SIM_START_MS=str(start_ms))
        for k in ("SIM_HEADLESS", "SIM_SAS", "SIM_SERIAL"):
            env.pop(k, None)
        self.proc = subprocess.Popen([self.mp, "-X", "heapsize=4M", "main.py"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.booted = self.read()
        self.up = True

    def send(self, line):
        self.proc.stdin.write((line + "\n").encode())

    def read(self):
        out = []
        f = self.proc.stdout
        while True:
            line = f.readline()
            if not line:
                raise EOFError("%s: the node process ended" % self.name)
            line = line.decode().rstrip("\n")
            if line == ".":
                return out
            out.append(line)

    def call(self, line):
        self.send(line)
        return self.read()

    def kill(self):
        if self.proc is not None:
            try:
                self.proc.send_signal(signal.SIGKILL)
            except OSError:
                pass
            self.proc.wait()
        self.up = False

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


class Table:
    def __init__(self, seats, folder, seed=1, faults=(0, 0, 0, 0), dome_role=FAST_DOME,
                 micropython=None, witness=True):
        self.rng = Rng(seed, 0x7AB1E)
        self.ms = 0
        self.faults = faults                # loss, dup, corrupt, delay (per mille)
        mp = micropython or os.path.join(ROOT, ".venv", "bin", "micropython")
        os.makedirs(folder, exist_ok=True)
        self.witness = Witness() if witness else None
        self.nodes = {"dome": NodeProc("dome", dome_role, os.path.join(folder, "dome.bin"),
                                       seed, mp, 0)}
        for a in range(1, seats + 1):
            self.nodes[a] = NodeProc("seat %d" % a, "station %d" % a,
                                     os.path.join(folder, "seat%d.bin" % a), seed * 31 + a, mp, 0)
        self.air = []                       # (start us, end us, sender) on the wire
        self.pending = []                   # (deliver at ms, receiver, bytes)
        self.busy_us = 0
        self.frames = self.collisions = self.kills = self.restarts = 0
        # a table resumed from its flash: the witness starts from what the
        # journals hold, the stations' closes before the dome's open round
        for n in sorted(self.nodes.values(), key=lambda n: n.name == "dome"):
            self._booted(n, resumed=True)

    # ---- the bus model --------------------------------------------------------
    def _send(self, sender, frame):
        t = self.ms * 1000
        end = t + len(frame) * BYTE_US
        collided = False
        for a in self.air:
            if a[1] > t and a[0] < end and a[2] != sender:
                a[3][0] = True
                collided = True
        flag = [collided]
        self.air.append((t, end, sender, flag))
        self.busy_us += end - t
        self.frames += 1
        if collided:
            self.collisions += 1
        loss, dup, corrupt, delay = self.faults
        r = self.rng
        for name, n in self.nodes.items():
            if (name == sender) or not n.up:
                continue
            if r.below(1000) < loss:
                continue
            for c in range(2 if r.below(1000) < dup else 1):
                at = (end + 999) // 1000 + c * ((len(frame) * BYTE_US + 999) // 1000)
                if r.below(1000) < delay:
                    at += 1 + r.below(20)
                self.pending.append([at, name, frame, flag, r.below(1000) < corrupt])

    def _deliver(self):
        keep = []
        for p in self.pending:
            at, name, frame, flag, corrupt = p
            if at > self.ms:
                keep.append(p)
                continue
            n = self.nodes[name]
            if not n.up:
                continue
            data = bytearray(frame)
            if flag[0]:                     # garbled on the wire
                for i in range(len(data)):
                    data[i] ^= self.rng.below(256)
            elif corrupt:
                data[self.rng.below(len(data))] ^= 1 << self.rng.below(8)
            self._call(n, "< " + binascii.hexlify(bytes(data)).decode())
        self.pending = keep
        self.air = [a for a in self.air if a[1] > self.ms * 1000 - 50000]

    # ---- the nodes ------------------------------------------------------------------
    def _call(self, n, line):
        return self._take(n, n.call(line))

    def _take(self, n, out):
        """The frames a node sent go on the wire, its journal records to the
        witness; the rest is the command's answer."""
        who = "dome" if n.name == "dome" else int(n.name.split()[1])
        rest = []
        for x in out:
            if x.startswith("> "):
                self._send(who, binascii.unhexlify(x[2:]))
            elif x.startswith("j "):
                if self.witness is not None:
                    rec = binascii.unhexlify(x[2:])
                    if who == "dome":
                        self.witness.dome_record(rec)
                    else:
                        self.witness.seat_record(who, rec)
            else:
                rest.append(x)
        return rest

    def _booted(self, n, resumed=False):
        """What node `n`'s journal held at its start ("b ..." lines). Rounds the
        dome finished before this run (`resumed`) were never seen closing:
        history, not checked against invariant 1."""
        w = self.witness
        if w is None:
            return
        for x in n.booted:
            f = x.split()
            if f[:2] == ["b", "table"]:
                w.tid = int(f[2])
            elif f[:2] == ["b", "round"]:
                w.dome_finished(*[int(v) for v in f[2:7]], seen=not resumed)
            elif f[:2] == ["b", "open"]:
                w.dome_open(int(f[2]), int(f[3]))
            elif f[:2] == ["b", "closed"]:
                w.closed.setdefault((int(n.name.split()[1]), int(f[2])), int(f[3]))

    def node(self, who):
        return self.nodes["dome" if who == "dome" else int(who)]

    def step(self, ms=1):
        for _ in range(ms):
            self.ms += 1
            self._deliver()
            # every node runs the millisecond; their commands go out together
            ups = [n for n in self.nodes.values() if n.up]
            for n in ups:
                n.send("t 1")
            for n in ups:
                if "reset" in self._take(n, n.read()):
                    n.kill()                # its board reset itself (a passing fault):
                    self.start(n.name.split()[-1])  # a new process on the same flash
                    self.restarts += 1

    def command(self, who, line):
        return self._call(self.node(who), line)

    def kill(self, who):
        self.node(who).kill()
        self.kills += 1

    def start(self, who):
        n = self.node(who)
        n.start(self.ms)
        self._booted(n)

    def seats(self):
        return [k for k in self.nodes if k != "dome"]

    def check(self):
        """Invariants 1-3 as the records came (the witness raised already if
        not) and every running station's recall against the dome's journal."""
        for a in self.seats():
            n = self.nodes[a]
            if not n.up:
                continue
            games = []
            balance = 0
            for x in self.command(a, "recall"):
                f = x.split()
                if f[0] == "g":
                    games.append(tuple(int(v) for v in f[1:5]))
                elif f[0] == "balance":
                    balance = int(f[1])
            self.witness.check_recall(a, games, balance)

    def close(self):
        for n in self.nodes.values():
            if n.up:
                n.close()


# ---- a picture of the table ---------------------------------------------------------------
def png(tb, path, scale=2, columns=3):
    """The dome's and every station's display, as the panels show them,
    with a title bar each (the README's picture)."""
    from screens import png as write_png, ON, OFF, GRID
    from hal.mock import fbuf
    names = ["dome"] + tb.seats()
    bar = 12
    pw, ph = 128 * scale, (64 + bar) * scale
    gap = 8
    cols = min(columns, len(names))
    rows_n = (len(names) + cols - 1) // cols
    W, H = cols * pw + (cols + 1) * gap, rows_n * ph + (rows_n + 1) * gap
    canvas = [bytearray(bytes(GRID) * W) for _ in range(H)]
    for i, who in enumerate(names):
        buf = binascii.unhexlify(tb.command(who, "pixels")[0])
        title = bytearray(128 * 2)
        t = fbuf.FrameBuffer(title, 128, 16, fbuf.MONO_VLSB)
        t.text("DOME" if who == "dome" else "SEAT %d" % who, 2, 2, 1)
        x0 = gap + (i % cols) * (pw + gap)
        y0 = gap + (i // cols) * (ph + gap)
        for y in range(64 + bar):
            for x in range(128):
                if y < bar:
                    on = (title[(y >> 3) * 128 + x] >> (y & 7)) & 1
                    c = OFF if on else ON
                else:
                    yy = y - bar
                    c = ON if (buf[(yy >> 3) * 128 + x] >> (yy & 7)) & 1 else OFF
                for sy in range(scale):
                    row = canvas[y0 + y * scale + sy]
                    for sx in range(scale):
                        k = 3 * (x0 + x * scale + sx)
                        row[k:k + 3] = bytes(c)
    write_png(path, W, H, [bytes(r) for r in canvas])


# ---- scripts ----------------------------------------------------------------------------
_SETTLE_MS = {"press": 150, "bill": 2500, "coin": 1500}


def run_script(tb, lines, out=print):
    failures = 0
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        out("> " + line)
        w = line.split()
        cmd = w[0]
        if cmd in ("seat", "dome"):
            who = "dome" if cmd == "dome" else w[1]
            rest = w[1:] if cmd == "dome" else w[2:]
            tb.command(who, " ".join(rest))
            tb.step(_SETTLE_MS.get(rest[0], 300))
        elif cmd == "wait":
            tb.step(int(w[1]))
        elif cmd == "roll":
            if not roll(tb):
                out("roll: no round finished in 120 s")
                failures += 1
        elif cmd in ("kill", "start"):
            who = "dome" if w[1] == "dome" else w[2]
            getattr(tb, cmd)(who)
        elif cmd in ("expect", "screen"):
            who = "dome" if w[1] == "dome" else w[2]
            text = line.split(None, 2 if w[1] == "dome" else 3)[-1] if cmd == "expect" else ""
            screen = tb.command(who, "screen")
            if cmd == "screen":
                out("\n".join("|%-16s|" % s for s in screen))
            elif not any(text in s for s in screen):
                failures += 1
                out("EXPECT FAILED: %r not on %s's screen" % (text, who))
                out("\n".join("|%-16s|" % s for s in screen))
        else:
            out("unknown command: " + line)
            failures += 1
    return failures


def roll(tb, limit_ms=120000):
    w = tb.witness
    before = len(w.results)
    end = tb.ms + limit_ms
    while tb.ms < end:
        tb.step(10)
        if len(w.results) > before:
            n = max(w.results)
            roster = w.rounds.get(n, 0)
            if all((a, n) in w.outcome for a in tb.seats()
                   if roster & (1 << (a - 1)) and tb.nodes[a].up):
                tb.check()
                return True
    return False


def end_lines(tb, out=print):
    for a in tb.seats():
        n = tb.nodes[a]
        out("--- end seat %d: %s" % (a, tb.command(a, "status")[0] if n.up else "down"))
    d = tb.nodes["dome"]
    out("--- end dome: %s" % (tb.command("dome", "status")[0] if d.up else "down"))


# ---- the fault sweep ----------------------------------------------------------------------
def sweep(tb, rounds, kills, out=print):
    """Random players at every station, kill -9 of random nodes mid-round,
    invariants 1-3 after every round."""
    r = tb.rng
    w = tb.witness
    seats = tb.seats()
    for a in seats:
        tb.command(a, "bill 100")
    tb.step(3000)
    start = len(w.results)
    down = {}
    every = max(1, rounds // max(1, kills)) if kills else 0
    last_kill_round = start
    t0 = time.time()
    while len(w.results) - start < rounds:
        tb.step(50)
        for who, back in list(down.items()):
            if tb.ms >= back:
                tb.start(who)
                del down[who]
        for a in seats:
            n = tb.nodes[a]
            if not n.up or r.below(4):
                continue
            x = r.below(10)
            if x < 6:
                tb.command(a, "press BET_UP")
            elif x < 7:
                tb.command(a, "press ROLL")
            elif x < 8:
                tb.command(a, "press NEXT")
            elif x == 8 and r.below(10) == 0:
                tb.command(a, "bill 20")
        done = len(w.results) - start
        if every and done - (last_kill_round - start) >= every and not down and tb.kills < kills:
            last_kill_round = len(w.results)
            # mid-round: a random moment of the next round's close, shake or result
            tb.step(r.below(2500))
            names = ["dome"] + seats
            who = names[r.below(len(names))]
            tb.kill(who)
            down[who] = tb.ms + 200 + r.below(2000)
        if done and done % 50 == 0 and len(w.results) != getattr(sweep, "_said", -1):
            sweep._said = len(w.results)
            out("  %d rounds, %d kills, %.0f s" % (done, tb.kills, time.time() - t0))
        tb.check()
    for who, back in list(down.items()):
        tb.start(who)
    return len(w.results) - start


def main(argv):
    ap = argparse.ArgumentParser(prog="tools/sim --seats")
    ap.add_argument("--seats", type=int, required=True)
    ap.add_argument("--flash", default="sim-table")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bus-faults", default="0,0,0,0",
                    help="loss,dup,corrupt[,delay] per mille per frame and receiver")
    ap.add_argument("--headless")
    ap.add_argument("--sweep", type=int)
    ap.add_argument("--kills", type=int, default=0)
    ap.add_argument("--dome", help="the dome's table.cfg text (default: a short table)")
    ap.add_argument("--png", help="with --headless: a picture of the table at the end")
    a = ap.parse_args(argv)
    if not 1 <= a.seats <= 8:
        print("--seats: 1 to 8")
        return 2
    faults = [int(x) for x in a.bus_faults.split(",")] + [0, 0, 0]
    dome = a.dome or (FAST_DOME if a.sweep else SCRIPT_DOME if a.headless else PLAY_DOME)
    tb = Table(a.seats, a.flash, a.seed, tuple(faults[:4]), dome)
    try:
        if a.sweep:
            t0 = time.time()
            n = sweep(tb, a.sweep, a.kills)
            print("sweep: %d rounds, %d stations, %d kill -9, bus %s, %d frames, %d collisions, "
                  "%.0f s" % (n, a.seats, tb.kills, a.bus_faults, tb.frames, tb.collisions,
                              time.time() - t0))
            end_lines(tb)
            return 0
        if a.headless:
            src = sys.stdin if a.headless == "-" else open(a.headless)
            failures = run_script(tb, src)
            if a.png:
                png(tb, a.png)
            end_lines(tb)
            if failures:
                print("%d expectation(s) failed" % failures)
                return 1
            return 0
        from sim_view import interactive
        return interactive(tb)
    except Violation as e:
        print("INVARIANT VIOLATED:", e)
        end_lines(tb)
        return 1
    finally:
        tb.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
