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
    out = run(demo())
    assert [o["credits"] for o in out] == [100, 90, 85, 95, 65, 53, 48, 48, 74, 184, 0]
    assert out[3]["settled"] == [{"bet": "field", "amount": 5, "result": "win", "paid": 10}]
    assert out[3]["point_before"] is None and out[3]["point_after"] == 4
    assert out[7] == {"ok": False, "error": "odds_limit", "message": "Over the odds limit",
                      "credits": 48}
    # 4 made: pass 10 even money, odds 30 at 2:1, hard 4 loses to the easy 4.
    assert out[9]["settled"] == [
        {"bet": "pass", "amount": 10, "result": "win", "paid": 20},
        {"bet": "pass_odds", "number": 4, "amount": 30, "result": "win", "paid": 90},
        {"bet": "hard", "number": 4, "amount": 5, "result": "lose", "paid": 0}]
    assert out[10] == {"ok": True, "credits": 0, "cashout": 184}


def test_same_lines_on_micropython():
    assert run(demo(), "--micropython") == run(demo())


def test_profile_option_changes_the_rules():
    lines = ['{"do":"credit","amount":100}', '{"do":"bet","bet":"twelve","amount":10}',
             '{"do":"roll","dice":[6,6]}']
    assert run(lines, "--profile", "table")[2]["credits"] == 90 + 310
    assert run(lines, "--profile", "casino")[2]["credits"] == 90 + 330
    hop = ['{"do":"credit","amount":20}', '{"do":"bet","bet":"hop","dice":[3,1],"amount":5}',
           '{"do":"roll","dice":[1,3]}']
    assert run(hop, "--profile", "etg")[2]["settled"] == [
        {"bet": "hop", "number": 13, "amount": 5, "result": "win", "paid": 80}]
    assert run(hop, "--profile", "table")[1]["error"] == "not_offered"
    # 002's $5 aggregate minimum: a lone $2 bet goes back when bets close.
    small = ['{"do":"credit","amount":20}', '{"do":"bet","bet":"field","amount":2}',
             '{"do":"roll","dice":[1,3]}']
    assert run(small, "--profile", "etg")[2]["settled"] == [
        {"bet": "field", "amount": 2, "result": "returned", "paid": 2}]
    assert run(small, "--profile", "table")[2]["settled"][0]["result"] == "win"


def test_bad_lines_get_errors_and_change_nothing():
    out = run(['{"do":"credit","amount":50}', "not json", "[1,2]", '{"do":"fly"}',
               '{"do":"bet","bet":"nonsense","amount":5}',
               '{"do":"bet","bet":"pass","amount":"5"}',
               '{"do":"bet","bet":"pass","amount":-5}',
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
