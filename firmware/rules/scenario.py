"""Scripted play for test labs: one JSON action in, one JSON-able reply out.

The same code runs under CPython (tools/scenario) and on MicroPython, so a
lab's scenario gives the same lines on the host and on the board's port.
"""
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.rules import profiles as P
from firmware.rules.table import Table, RESULTS


def _numbered(kind, number):
    return kind in W.NUMBERS or kind in (W.COME, W.DONT_COME) or bool(number)


def settled_json(settled):
    out = []
    for kind, number, amount, result, paid, vig, rnd in settled:
        item = {"bet": W.NAMES[kind]}
        if _numbered(kind, number):
            item["number"] = number
        item["amount"] = amount
        item["result"] = RESULTS[result]
        item["paid"] = paid
        if vig:
            item["vig"] = vig
        out.append(item)
    return out


class Scenario:
    def __init__(self, profile_name="table", overrides=None):
        profile = P.get(profile_name, overrides)
        if profile is None:
            raise ValueError("unknown profile: %s" % profile_name)
        self.table = Table(profile)

    def _refuse(self, code, message=None):
        return {"ok": False, "error": code if isinstance(code, str) else R.code_name(code),
                "message": message or R.message(code), "credits": self.table.credits}

    def _wager(self, action):
        kind = W.kind_of(action.get("bet"))
        if kind < 0:
            return kind, 0, R.BAD_WAGER
        number = action.get("number", 0)
        dice = action.get("dice")
        if kind == W.HOP:
            if not (isinstance(dice, list) and len(dice) == 2 and
                    all(isinstance(d, int) and 1 <= d <= 6 for d in dice)):
                return kind, 0, R.BAD_DICE
            number = W.hop_number(dice[0], dice[1])
        if number is None:
            number = 0
        return kind, number, R.OK

    def do(self, action):
        """Applies one action (a dict) and returns the reply dict."""
        t = self.table
        if not isinstance(action, dict):
            return self._refuse("bad_action", "Each line must be a JSON object")
        what = action.get("do")
        if what == "credit":
            code = t.credit(action.get("amount"))
        elif what in ("bet", "remove", "working"):
            kind, number, code = self._wager(action)
            if code == R.OK:
                if what == "bet":
                    code = t.place(kind, action.get("amount"), number)
                elif what == "remove":
                    code = t.remove(kind, number, action.get("amount", 0))
                else:
                    code = t.set_working(kind, number, action.get("on") is True)
        elif what == "roll":
            return self._roll(action.get("dice"))
        elif what == "cashout":
            amount = t.cashout()
            if not amount:
                return self._refuse(R.NO_CREDITS)
            return {"ok": True, "credits": t.credits, "cashout": amount}
        else:
            return self._refuse("bad_action", "Unknown action: %s" % (what,))
        if code != R.OK:
            return self._refuse(code)
        reply = {"ok": True, "credits": t.credits}
        if t.last_vig:
            reply["vig"] = t.last_vig
        return reply

    def _roll(self, dice):
        t = self.table
        if not (isinstance(dice, list) and len(dice) == 2):
            return self._refuse(R.BAD_DICE)
        before = t.point
        returned = settled_json(t.close_betting())
        code = t.roll(dice[0], dice[1])
        if code != R.OK:
            return self._refuse(code)
        return {"ok": True, "credits": t.credits, "dice": dice,
                "total": dice[0] + dice[1], "point_before": before or None,
                "point_after": t.point or None,
                "settled": returned + settled_json(t.settled)}


def run_lines(lines, profile_name, write):
    """Runs JSON Lines from an iterable of text lines, writing one reply each."""
    import json
    sc = Scenario(profile_name)
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            action = json.loads(line)
        except ValueError:
            write(json.dumps(sc._refuse("bad_json", "Line is not valid JSON")))
            continue
        write(json.dumps(sc.do(action)))
