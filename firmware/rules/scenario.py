"""Scripted play for test labs: one JSON action in, one JSON-able reply out.

The same code runs under CPython (tools/scenario) and on MicroPython, and
reads and writes JSON through firmware.rules.jsonl, so a lab's scenario
gives the same bytes on the host and on the board's port. Every amount is
integer cents.
"""
from firmware.rules import wagers as W
from firmware.rules import reasons as R
from firmware.rules import profiles as P
from firmware.rules.table import Table, RESULTS


def _numbered(kind, number):
    return kind in W.NUMBERS or kind in (W.COME, W.DONT_COME) or bool(number)


def _dice_ok(dice):
    return (isinstance(dice, list) and len(dice) == 2 and
            all(type(d) is int and 1 <= d <= 6 for d in dice))


def settled_json(settled):
    out = []
    for kind, number, amount, result, paid, vig, rnd, up in settled:
        item = {"bet": W.NAMES[kind]}
        if _numbered(kind, number):
            item["number"] = number
        item["amount"] = amount
        item["result"] = RESULTS[result]
        item["paid"] = paid
        if vig:
            item["vig"] = vig
        if up:
            item["stays_up"] = True
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
            if not _dice_ok(dice):
                return kind, 0, R.BAD_DICE
            number = W.hop_number(dice[0], dice[1])
        if number is None:
            number = 0
        return kind, number, R.OK

    def do(self, action):
        """Applies one action (a dict) and returns the reply dict. An
        exception in the engine is a refusal that changes nothing: the
        runner answers it and reads the next line."""
        before = self.table.encode()
        try:
            return self._do(action)
        except Exception:  # noqa: BLE001 - a lab's line never stops the runner
            self.table.load(before)
            return self._refuse(R.NOT_AVAILABLE)

    def _do(self, action):
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
                elif not isinstance(action.get("on"), bool):
                    return self._refuse("bad_action", '"on" must be true or false')
                else:
                    code = t.set_working(kind, number, action["on"])
        elif what == "roll":
            return self._roll(action.get("dice"))
        elif what == "cashout":
            amount = t.cashout()
            if not amount:
                return self._refuse(R.NO_CREDITS)
            return {"ok": True, "credits": t.credits, "cashout": amount}
        elif isinstance(what, str):
            return self._refuse("bad_action", "Unknown action: %s" % what[:40])
        else:
            return self._refuse("bad_action", "Unknown action")
        if code != R.OK:
            return self._refuse(code)
        reply = {"ok": True, "credits": t.credits}
        if t.last_vig and what != "credit" and what != "working":
            # charged (refunded: < 0) by this bet or take-down, not by the
            # line before
            reply["vig"] = t.last_vig
        return reply

    def _roll(self, dice):
        t = self.table
        # checked before the bets close: a refused line changes nothing
        if not _dice_ok(dice):
            return self._refuse(R.BAD_DICE)
        before = t.point
        returned = settled_json(t.close_betting())
        t.roll(dice[0], dice[1])
        return {"ok": True, "credits": t.credits, "dice": dice,
                "total": dice[0] + dice[1], "point_before": before or None,
                "point_after": t.point or None,
                "settled": returned + settled_json(t.settled)}


def run_lines(lines, profile_name, write):
    """Runs JSON Lines from an iterable of byte lines, writing one reply each."""
    from firmware.rules.jsonl import loads, dumps
    sc = Scenario(profile_name)
    for line in lines:
        line = _strip(line)
        if not line or line[0] == 0x23:  # blank or a '#' comment
            continue
        try:
            action = loads(line)
        except ValueError:
            write(dumps(sc._refuse("bad_json", "Line is not valid JSON")))
            continue
        write(dumps(sc.do(action)))


def _strip(line):
    """JSON's own white space only: ports differ in what str.strip() takes."""
    i, j = 0, len(line)
    while i < j and line[i] in b" \t\r\n":
        i += 1
    while j > i and line[j - 1] in b" \t\r\n":
        j -= 1
    return line[i:j]
