"""tools/scenario: the test-lab runner, on CPython and on the MicroPython port."""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "tools", "scenarios", "demo.jsonl")


def run(lines, *opts):
    r = subprocess.run([os.path.join(ROOT, "tools", "scenario")] + list(opts),
                       input="\n".join(lines) + "\n", capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    return [json.loads(l) for l in r.stdout.splitlines() if l.strip()]


def demo():
    with open(DEMO) as f:
        return [l.strip() for l in f if l.strip()]


def test_demo_scenario_settles_by_hand():
    # amounts in cents; winning bets pay their winnings and stay up
    out = run(demo())
    assert [o["credits"] for o in out] == [10000, 9000, 8500, 9000, 6000, 4800, 4300, 4300,
                                           5700, 15700, 16900, 0]
    assert out[3]["settled"] == [{"bet": "field", "amount": 500, "result": "win", "paid": 500,
                                  "stays_up": True}]
    assert out[3]["point_before"] is None and out[3]["point_after"] == 4
    assert out[7] == {"ok": False, "error": "odds_limit", "message": "Over the odds limit",
                      "credits": 4300}
    # the field rode and lost on the 6; place 6 paid 7:6 on $12 and stayed up
    assert out[8]["settled"] == [
        {"bet": "field", "amount": 500, "result": "lose", "paid": 0},
        {"bet": "place", "number": 6, "amount": 1200, "result": "win", "paid": 1400,
         "stays_up": True}]
    # 4 made: pass $10 even money (stays up for the come-out), odds $30 at 2:1
    # come down with the point, hard 4 loses to the easy 4.
    assert out[9]["settled"] == [
        {"bet": "pass", "amount": 1000, "result": "win", "paid": 1000, "stays_up": True},
        {"bet": "pass_odds", "number": 4, "amount": 3000, "result": "win", "paid": 9000},
        {"bet": "hard", "number": 4, "amount": 500, "result": "lose", "paid": 0}]
    assert out[10] == {"ok": True, "credits": 16900}          # place 6 taken down
    assert out[11] == {"ok": True, "credits": 0, "cashout": 16900}


def test_place_6_wins_twice_and_stays_up():
    lines = ['{"do":"credit","amount":10000}', '{"do":"roll","dice":[2,2]}',
             '{"do":"bet","bet":"place","number":6,"amount":600}',
             '{"do":"roll","dice":[3,3]}', '{"do":"roll","dice":[1,5]}',
             '{"do":"remove","bet":"place","number":6}']
    out = run(lines)
    for k in (3, 4):                      # 7/6 of $6 each time, the bet still up
        assert out[k]["settled"] == [{"bet": "place", "number": 6, "amount": 600,
                                      "result": "win", "paid": 700, "stays_up": True}]
    assert [o["credits"] for o in out] == [10000, 10000, 9400, 10100, 10800, 11400]
    # $1 place 6 in 003: 7/6 of 100 cents = 116.67, paid to the next cent
    one = ['{"do":"credit","amount":1000}', '{"do":"roll","dice":[2,2]}',
           '{"do":"bet","bet":"place","number":6,"amount":100}', '{"do":"roll","dice":[3,3]}']
    assert run(one, "--profile", "casino")[3]["settled"] == [
        {"bet": "place", "number": 6, "amount": 100, "result": "win", "paid": 117,
         "stays_up": True}]
    assert run(one, "--profile", "table")[3]["settled"][0]["paid"] == 116


def _raw(path, *opts):
    r = subprocess.run([os.path.join(ROOT, "tools", "scenario")] + list(opts) + [path],
                       capture_output=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_every_scenario_file_same_bytes_on_both_ports():
    # key order, refusals of malformed JSON (bad-input.jsonl): byte for byte
    folder = os.path.join(ROOT, "tools", "scenarios")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".jsonl"))
    assert "bad-input.jsonl" in names and "demo.jsonl" in names
    for name in names:
        path = os.path.join(folder, name)
        for prof in ("table", "etg", "casino", "house"):
            a = _raw(path, "--profile", prof)
            assert a and a == _raw(path, "--profile", prof, "--micropython"), (name, prof)


def test_bad_input_file_is_refused_line_by_line():
    path = os.path.join(ROOT, "tools", "scenarios", "bad-input.jsonl")
    with open(path, "rb") as f:
        lines = [l for l in f.read().split(b"\n") if l.strip() and not l.startswith(b"#")]
    out = [json.loads(l) for l in _raw(path).decode().splitlines()]
    assert len(out) == len(lines)
    for line, reply in zip(lines, out):
        if reply["ok"]:                    # the only good lines: credit, a bet, cash out
            assert line in (b'{"do":"credit","amount":2000}', b'{"do":"\\u0063redit","amount":100}',
                            b'{"do":"bet","bet":"field","amount":500}', b'{"do":"cashout"}'), line
        try:
            json.loads(line.decode("utf-8"), parse_constant=_no_constant)
            strict_ok = True
        except (ValueError, RecursionError):
            strict_ok = False
        # refused exactly where RFC 8259 (CPython's json without NaN and
        # Infinity) refuses; a lone surrogate escape is refused as well, a
        # string MicroPython cannot hold, and nesting deeper than 100
        lone = b"\\ud800" in line or line.startswith(b"[" * 101)
        assert (reply.get("error") == "bad_json") == (not strict_ok or lone), line
    assert out[-1] == {"ok": True, "credits": 0, "cashout": 1600}


def _no_constant(name):
    raise ValueError(name)


def test_profile_option_changes_the_rules():
    lines = ['{"do":"credit","amount":10000}', '{"do":"bet","bet":"twelve","amount":1000}',
             '{"do":"roll","dice":[6,6]}']
    assert run(lines, "--profile", "table")[2]["credits"] == 9000 + 30000
    assert run(lines, "--profile", "casino")[2]["credits"] == 9000 + 32000
    hop = ['{"do":"credit","amount":2000}', '{"do":"bet","bet":"hop","dice":[3,1],"amount":500}',
           '{"do":"roll","dice":[1,3]}']
    assert run(hop, "--profile", "etg")[2]["settled"] == [
        {"bet": "hop", "number": 13, "amount": 500, "result": "win", "paid": 7500,
         "stays_up": True}]
    assert run(hop, "--profile", "table")[1]["error"] == "not_offered"
    # 002's $5 aggregate minimum: a lone $2 bet goes back when bets close.
    small = ['{"do":"credit","amount":2000}', '{"do":"bet","bet":"field","amount":200}',
             '{"do":"roll","dice":[1,3]}']
    assert run(small, "--profile", "etg")[2]["settled"] == [
        {"bet": "field", "amount": 200, "result": "returned", "paid": 200}]
    assert run(small, "--profile", "table")[2]["settled"][0]["result"] == "win"
    # ...and a roll refused for its dice returns nothing and changes nothing
    bad = small[:2] + ['{"do":"roll","dice":[1,9]}']
    assert run(bad, "--profile", "etg")[2] == {
        "ok": False, "error": "bad_dice", "message": "Dice must be two faces 1-6", "credits": 1800}


def test_bad_lines_get_errors_and_change_nothing():
    out = run(['{"do":"credit","amount":50}', "not json", "[1,2]", '{"do":"fly"}',
               '{"do":"bet","bet":"nonsense","amount":500}',
               '{"do":"bet","bet":"pass","amount":"500"}',
               '{"do":"bet","bet":"pass","amount":-500}',
               '{"do":"roll","dice":[0,7]}', '{"do":"roll"}',
               '{"do":"remove","bet":"pass"}', '{"do":"cashout"}', '{"do":"cashout"}'])
    assert [o.get("error") for o in out] == [
        None, "bad_json", "bad_action", "bad_action", "bad_wager", "bad_amount",
        "bad_amount", "bad_dice", "bad_dice", "no_bet", None, "no_credits"]
    assert all(o["credits"] == 50 for o in out[:10])
    assert all(o["message"] for o in out if not o["ok"])


def test_unknown_profile_is_refused():
    r = subprocess.run([os.path.join(ROOT, "tools", "scenario"), "--profile", "vegas"],
                       input="", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 2 and "unknown profile" in r.stdout


DONT_REDUCE = ['{"do":"credit","amount":10000}', '{"do":"bet","bet":"dont_pass","amount":1000}',
               '{"do":"roll","dice":[2,2]}',
               '{"do":"bet","bet":"dont_pass_odds","amount":500}',
               '{"do":"remove","bet":"dont_pass","amount":500}']


def test_reducing_a_dont_pass_with_odds_in_house():
    # issue 19, 1: this raised TypeError (004's odds cap is the table limit)
    # and the runner died, on both ports
    for port in ((), ("--micropython",)):
        out = run(DONT_REDUCE, "--profile", "house", *port)
        assert out[4] == {"ok": True, "credits": 9000}, port


def test_vig_is_in_the_reply_of_the_line_that_charged_it():
    # issue 19, 8: credit and working replies repeated the bet's vig
    out = run(['{"do":"credit","amount":10000}', '{"do":"roll","dice":[2,3]}',
               '{"do":"bet","bet":"buy","number":4,"amount":2000}',
               '{"do":"credit","amount":100}',
               '{"do":"working","bet":"buy","number":4,"on":false}',
               '{"do":"remove","bet":"buy","number":4}'])
    assert out[2] == {"ok": True, "credits": 7900, "vig": 100}
    assert out[3] == {"ok": True, "credits": 8000}
    assert out[4] == {"ok": True, "credits": 8000}
    assert out[5] == {"ok": True, "credits": 10100, "vig": -100}   # this period's: an undo


def test_credits_rise_by_what_settled_shows_when_the_guard_returns_a_buy():
    # issue 19, 8: the 10-digit guard gave a buy back with its vig; the
    # reply showed the stake only
    start = 10 ** 10 - 1 - 1000 - 2000 * 301 + 2100
    out = run(['{"do":"credit","amount":%d}' % start, '{"do":"roll","dice":[2,3]}',
               '{"do":"bet","bet":"buy","number":4,"amount":2000}',
               '{"do":"roll","dice":[1,3]}', '{"do":"roll","dice":[6,6]}'])
    assert out[3]["settled"][0]["paid"] == 3900 and out[3]["settled"][0]["stays_up"]
    back = out[4]["settled"]
    assert back == [{"bet": "buy", "number": 4, "amount": 2000, "result": "returned",
                     "paid": 2100}]
    assert out[4]["credits"] - out[3]["credits"] == sum(s["paid"] for s in back)


def test_an_exception_in_the_engine_is_a_refusal_and_the_runner_goes_on():
    import sys
    sys.path.insert(0, ROOT)
    from firmware.rules.scenario import Scenario, run_lines
    from firmware.rules.table import Table
    sc = Scenario("table")
    assert sc.do({"do": "credit", "amount": 1000})["ok"]
    assert sc.do({"do": "bet", "bet": "field", "amount": 100})["ok"]
    before = sc.table.encode()
    real = Table.place

    def broken(self, kind, amount, number=0):
        self.credits -= amount      # half done, then a bug
        raise TypeError("a bug")
    Table.place = broken
    try:
        reply = sc.do({"do": "bet", "bet": "pass", "amount": 500})
    finally:
        Table.place = real
    assert reply == {"ok": False, "error": "not_available", "message": "Not available",
                     "credits": 900}
    assert sc.table.encode() == before
    assert sc.do({"do": "bet", "bet": "pass", "amount": 500}) == {"ok": True, "credits": 400}
    # run_lines answers every line, the failing one included
    out = []
    Table.place = broken
    try:
        run_lines([b'{"do":"credit","amount":500}', b'{"do":"bet","bet":"pass","amount":100}',
                   b'{"do":"cashout"}'], "table", out.append)
    finally:
        Table.place = real
    assert [json.loads(o).get("error") for o in out] == [None, "not_available", None]
