"""Step-by-step driver over a fake clock: tests, the headless simulator and
the benchmark drive the real controller with it (no real sleeping).

Script language (headless simulator), one command a line, '#' comments:
  press NAME [N]      button (hal.buttons names: NEXT PREV CHIP BET_UP ...) N times
  bill N | coin N     a $N note (escrow validator; N pulses from a pulse validator) /
                      N pulses from the coin acceptor
  wait MS             run the cabinet for MS milliseconds
  roll                press ROLL, wait until the result was shown its minimum time
  result              the same without pressing ROLL (the timer runs out)
  shown               wait until a result is committed and on screen (no more)
  door | tilt | key   toggle the door / tilt switch / audit key
  logic | cashbox     toggle the logic area door / cash box door
  ticket              print the newest ticket as the paper shows it (barcode too)
  paper | fault       toggle printer paper-out / fault
  motor               toggle a shaker motor failure
  cocked P | stuck P | flicker P   dome irregularity rates (per mille)
  dice A B            the next roll comes up A and B (mock dome)
  heard NAME          fail (exit 1) unless the buzzer played NAME (LAST CALL, NO
                      MORE BETS, WIN, SEVEN OUT) after the sound the last
                      `heard` matched
  expect TEXT         fail (exit 1) unless TEXT is on the screen
  absent TEXT         fail (exit 1) if TEXT is on the screen
  screen              print the screen now
  quit                stop here (as if the power was cut)
"""
from hal import buttons as B
from hal import printer as PR
from firmware.cabinet import game as G


def plain(line):
    """A screen line as text, a render scale mark ("\x01".."\x04") read as a
    space: 'CR\\x0220' reads 'CR 20'."""
    for m in "\x01\x02\x03\x04":
        line = line.replace(m, " ")
    return line


STEP_MS = 10
_BY_NAME = {}
for _c in B.names:
    _BY_NAME[B.names[_c]] = _c


class Driver:
    def __init__(self, board, ctl=None, out=None, draw=True, **opts):
        from firmware.cabinet.controller import Controller
        self.board = board
        self.ctl = ctl if ctl is not None else Controller(board, **opts)
        self.out = out        # callable(text) for every new screen, or None
        self.draw = draw
        self.t = 0            # ms driven
        self._shown = None
        self.failures = 0
        self.heard = []       # the sounds cued, by name (hal.buzzer.NAMES)
        self._cues = getattr(board.buzzer, "cues", 0)
        if draw:
            self.ctl.tick_display(board.clock.ticks_ms(), True)

    def step(self, ms=STEP_MS):
        self.board.clock.advance(ms)
        self.t += ms
        self.ctl.step(self.board.clock.ticks_ms(), self.draw)
        bz = self.board.buzzer
        if bz.cues != self._cues:
            from hal.buzzer import NAMES
            self._cues = bz.cues
            self.heard.append(NAMES[bz.last])
            if self.out is not None:
                self.out("sound: " + NAMES[bz.last])
        if self.out is not None and self.ctl.lines is not None \
                and self.ctl.lines is not self._shown:
            self._shown = self.ctl.lines
            self.out(self.screen_text())

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            self.step()

    def until(self, pred, limit_ms=60000):
        end = self.t + limit_ms
        while self.t < end:
            if pred():
                return True
            self.step()
        return pred()

    def press(self, name, n=1):
        code = _BY_NAME[name] if isinstance(name, str) else name
        for _ in range(n):
            self.board.press(code)
            self.run(120)

    def bill(self, pulses):
        ok = self.board.insert_bill(pulses)
        self.run(pulses * self.board.money.pulse_ms + 800)
        return ok

    def coin(self, pulses):
        ok = self.board.insert_coin(pulses)
        self.run(pulses * self.board.money.pulse_ms + 800)
        return ok

    def wait_result(self, limit_ms=120000):
        """Until a result is committed or the roll ends otherwise (lock, void)."""
        g = self.ctl.game
        rolls = g.rolls
        self.until(lambda: g.rolling(), limit_ms)
        done = self.until(lambda: g.rolls != rolls or not g.rolling(), limit_ms) \
            and g.rolls != rolls
        if done:  # the player has read it: keys act again
            self.until(lambda: not g.result_locked(self.board.clock.ticks_ms()), limit_ms)
        return done

    def roll(self):
        self.press("ROLL")
        return self.wait_result()

    def screen_text(self):
        lines = self.ctl.lines or ()
        return "\n".join("|%-16s|" % plain(l) for l in lines)

    def on_screen(self, text):
        return any(text in plain(l) for l in (self.ctl.lines or ()))

    # ---- scripts --------------------------------------------------------------
    def command(self, line, echo=None):
        """Runs one script line; False on 'quit'."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        words = line.split()
        cmd = words[0].lower()
        arg = words[1] if len(words) > 1 else ""
        b = self.board
        if echo is not None:
            echo("> " + line)
        if cmd == "press":
            self.press(arg.upper(), int(words[2]) if len(words) > 2 else 1)
        elif cmd == "bill":
            self.bill(int(arg))
        elif cmd == "coin":
            self.coin(int(arg))
        elif cmd == "wait":
            self.run(int(arg))
        elif cmd == "roll":
            self.roll()
        elif cmd == "result":
            self.wait_result()
        elif cmd == "shown":
            g = self.ctl.game
            rolls = g.rolls
            self.until(lambda: g.rolls != rolls, 120000)
        elif cmd in ("door", "tilt", "logic", "cashbox"):
            getattr(b, cmd + ("_door" if cmd in ("logic", "cashbox") else "")).toggle()
            self.run(200)
        elif cmd == "ticket":
            p = b.printer
            if echo is not None and p.tickets:
                from hal.itf import ticket_text
                echo(ticket_text(p.tickets[-1], p.barcodes[-1]))
        elif cmd == "key":
            b.audit_key.toggle()
            self.run(200)
        elif cmd == "paper":
            p = b.printer
            p.status_value = PR.OK if p.status_value == PR.PAPER_OUT else PR.PAPER_OUT
        elif cmd == "fault":
            p = b.printer
            p.status_value = PR.OK if p.status_value == PR.FAULT else PR.FAULT
        elif cmd == "motor":
            b.dome.motor_fail = not b.dome.motor_fail
        elif cmd in ("cocked", "stuck", "flicker"):
            setattr(b.dome, cmd + "_permille", int(arg))
        elif cmd == "dice":
            b.dome.forced.append((int(arg), int(words[2])))
        elif cmd in ("expect", "absent"):
            text = line.split(None, 1)[1] if len(words) > 1 else ""
            if self.on_screen(text) != (cmd == "expect"):
                self.failures += 1
                if echo is not None:
                    echo("EXPECT FAILED: %r %s screen" % (
                        text, "not on" if cmd == "expect" else "on"))
                    echo(self.screen_text())
        elif cmd == "heard":
            name = line.split(None, 1)[1] if len(words) > 1 else ""
            if name in self.heard:
                del self.heard[:self.heard.index(name) + 1]
            else:
                self.failures += 1
                if echo is not None:
                    echo("EXPECT FAILED: sound %r not heard (since: %s)" % (
                        name, ", ".join(self.heard) or "none"))
        elif cmd == "screen":
            if echo is not None:
                echo(self.screen_text())
        elif cmd == "quit":
            return False
        elif echo is not None:
            echo("unknown command: " + line)
            self.failures += 1
        return True

    def script(self, lines, echo=None):
        for line in lines:
            if not self.command(line, echo):
                return False
        return True


def state_name(ctl):
    return G.STATE_NAMES[ctl.game.state]
