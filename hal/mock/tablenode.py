"""One node of a table in the multi-seat simulator (tools/sim --seats,
tools/sim_table.py): the real controller of its role (the dome controller,
or the cabinet's controller as a player station) on the mock board, its
fake clock moved by the simulator in lockstep with the other nodes, its
table link over stdin/stdout to the simulator's bus model. main.py runs it
when SIM_ROLE is set.

Commands, one a line; every answer ends with a line "." :
  t MS            run MS milliseconds (the link every ms, a station's controller
                  every 10 ms as its main loop would); answer: a line "> HEX" for
                  each frame sent, "j HEX" for each journal record committed
  < HEX           bytes arriving on the link
  press NAME | bill N | coin N | door | tilt | key | logic | cashbox | paper
  dice A B | cocked P | stuck P | leave
  nomem           the journal's next append raises MemoryError (a passing fault)
  status          one line (tools/sim_table.py prints it at the end)
  screen          the screen, a line each
  pixels          the display's frame buffer (128x64, MONO_VLSB) in hex
  recall          a station: "g ROUND D1 D2 VOIDED" per game in its recall,
                  then "balance N"
At start-up the node says what its journal holds ("b ..." lines), then ".".
"""
import sys
from binascii import hexlify, unhexlify

_STEP_MS = 10      # a station controller's main-loop pass


def _out(line):
    sys.stdout.write(line)
    sys.stdout.write("\n")


class Node:
    def __init__(self, role, opts, make, profile=None):
        """make(board, role, profile, store): main.py's controller for the role."""
        import hal
        start = opts.pop("start_ms", 0)
        self.role = role
        opts["fake_clock"] = True
        opts["link"] = "pipe"
        if role[0] == "dome":
            opts["escrow"] = False      # no money at a dome
        board = hal.detect(**opts)
        board.clock.advance(start)   # the table's time: a node started again goes on from it
        self.board = board
        self.line = board.link.line
        self.ms = start
        self.records = []
        if role[0] == "dome":
            self.ctl = make(board, role)
            self._hook(self.ctl.log.journal)
            self._booted_dome()
        else:
            from firmware.store.store import Store
            store = Store(board.flash, board.watchdog.feed, getattr(board, "provision", None),
                          board.urandom, getattr(board, "generation", None))
            self._hook(store.journal)
            self.ctl = make(board, role, profile, store)
            led = store.ledger
            if led.phase == 1:
                _out("b closed %d %d" % (led.round, led.tid))

    # ---- journal records as they are committed ----------------------------
    def _hook(self, journal):
        append = journal.append
        records = self.records

        def noted(payload):
            seq = append(payload)
            records.append(bytes(payload))
            return seq
        journal.append = noted

    def _booted_dome(self):
        r = self.ctl.log.rounds
        _out("b table %d" % r.tid)
        for back in range(r.count - 1, -1, -1):
            e = r.entry(back)
            _out("b round %d %d %d %d %d" % (e[0], e[2], e[3], e[4], e[5]))
        if r.open:
            _out("b open %d %d" % (r.round, r.roster))

    # ---- the lockstep -------------------------------------------------------
    def run(self, ms):
        b = self.board
        clock = b.clock
        ctl = self.ctl
        dome = self.role[0] == "dome"
        for _ in range(ms):
            clock.advance(1)
            self.ms += 1
            now = clock.ticks_ms()
            if dome:
                ctl.step(now)
            elif self.ms % _STEP_MS == 0:
                ctl.step(now, self.ms % 50 == 0)
            else:
                ctl.game.tick(now)
        for frame in self.line.outbox:
            _out("> " + hexlify(frame).decode())
        del self.line.outbox[:]
        for rec in self.records:
            _out("j " + hexlify(rec).decode())
        del self.records[:]
        if b.resets:
            _out("reset")                # machine.reset(): tools/sim starts it again

    def command(self, line):
        words = line.split()
        if not words:
            return
        cmd = words[0]
        b = self.board
        if cmd == "t":
            self.run(int(words[1]))
        elif cmd == "<":
            self.line.deliver(unhexlify(words[1]))
        elif cmd == "press":
            from hal import buttons as B
            b.press(getattr(B, words[1].upper()))
        elif cmd == "bill":
            b.insert_bill(int(words[1]))
        elif cmd == "coin":
            b.insert_coin(int(words[1]))
        elif cmd in ("door", "tilt", "logic", "cashbox"):
            getattr(b, cmd + ("_door" if cmd in ("logic", "cashbox") else "")).toggle()
        elif cmd == "key":
            b.audit_key.toggle()
        elif cmd == "paper":
            from hal import printer as PR
            p = b.printer
            p.status_value = PR.OK if p.status_value == PR.PAPER_OUT else PR.PAPER_OUT
        elif cmd == "dice":
            b.dome.forced.append((int(words[1]), int(words[2])))
        elif cmd in ("cocked", "stuck"):
            setattr(b.dome, cmd + "_permille", int(words[1]))
        elif cmd == "leave":
            self.ctl.game.seat.leave = True
        elif cmd == "status":
            _out(self.status())
        elif cmd == "screen":
            for text in self.screen():
                _out(text)
        elif cmd == "pixels":
            self.screen()
            _out(hexlify(self.board.display.buffer).decode())
        elif cmd == "nomem":
            self._no_memory()
        elif cmd == "recall":
            led = self.ctl.store.ledger
            rec = led.recall
            for i in range(len(rec)):
                g = rec.get(i)
                _out("g %d %d %d %d" % (g["game"], g["dice"][0], g["dice"][1], g["voided"]))
            _out("balance %d" % led.balance_check())
        else:
            _out("? " + line)

    def _no_memory(self):
        """The journal's next append raises MemoryError: a passing fault (the
        node shows RESTARTING and resets itself; tools/sim starts it again)."""
        j = self.ctl.log.journal if self.role[0] == "dome" else self.ctl.store.journal
        append = j.append

        def once(payload):
            j.append = append
            raise MemoryError("planted by nomem")
        j.append = once

    def status(self):
        if self.role[0] == "dome":
            d = self.ctl.dome
            r = self.ctl.log.rounds
            dice = "-"
            if r.count:
                e = r.entry(0)
                dice = "%d+%d" % (e[3], e[4]) if not e[5] else "void"
            return "round=%d dice=%s shooter=%d phase=%s seats=%s%s" % (
                r.round, dice, r.shooter, ("BETTING", "CLOSING", "SHAKING", "RESULT")[d.phase],
                "".join(str(s) if d.online & (1 << (s - 1)) else "." for s in range(1, 9)),
                " CRITICAL" if self.ctl.log.critical else "")
        from firmware.cabinet.game import STATE_NAMES
        c = self.ctl
        led = c.store.ledger
        seat = c.game.seat
        return "state=%s credits=%d bet=%d round=%d point=%d shooter=%d%s%s" % (
            STATE_NAMES[c.game.state], led.table.credits, led.table.on_table(),
            led.round, led.table.point, seat.shooter,
            " open" if led.phase == 1 else "",
            (" CRITICAL " + c.store.reason) if c.store.critical else "")

    def screen(self):
        if self.role[0] == "dome":
            self.ctl.draw()
            return self.ctl.lines()
        c = self.ctl
        c.tick_display(self.board.clock.ticks_ms(), True)
        from firmware.cabinet.drive import plain
        return [plain(x) for x in (c.lines or ())]


def main(role, opts, make, profile=None):
    node = Node(role, opts, make, profile)
    _out(".")
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        node.command(line.strip())
        _out(".")
        sys.stdout.flush()
