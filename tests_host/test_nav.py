"""The player's navigation (firmware/cabinet/player.py, through the real Player):
every wager of every profile is at most 4 presses from any selection, any
of the six point numbers at most 2 more, and the selection never leaves
what the profile offers. Breadth-first search over the real key handling.
Plain asserts: runs on CPython and MicroPython."""
from hal import buttons as B
from firmware.rules import wagers as W
from firmware.rules import profiles as P
from firmware.rules import reasons as R
from firmware.rules.table import Table
from firmware.cabinet import player as nav  # the navigation lives in player.py
from firmware.cabinet import player as PL

NAV_KEYS = B.GROUP_KEYS + (B.NEXT, B.PREV, B.NUMBER)
class _Ledger:
    def __init__(self, table):
        self.table = table


class _Store:
    def __init__(self, table):
        self.ledger = _Ledger(table)


class _Ctl:
    def __init__(self, table):
        self.store = _Store(table)


def _press(player, ctl, state, code):
    player.sel, player.armed_until, player.die = state
    player.picked = True  # a selection the player made (not the power-up one)
    player.page = PL.BETTING
    player.on_button(code, ctl, 1000)
    armed = player.armed_until if player.armed(1000) else None
    return (player.sel, armed, player.die)


def _reach(table, start, limit):
    """{selection: fewest presses} from `start` over the navigation keys."""
    p = PL.Player()
    ctl = _Ctl(table)
    first = (start, None, 0)
    seen = {first: 0}
    best = {start: 0}
    frontier = [first]
    for depth in range(1, limit + 1):
        nxt = []
        for st in frontier:
            for code in NAV_KEYS:
                s2 = _press(p, ctl, st, code)
                if s2 not in seen:
                    seen[s2] = depth
                    nxt.append(s2)
                    if s2[0] not in best:
                        best[s2[0]] = depth
        frontier = nxt
    return best


def _tables(prof):
    t = Table(prof)
    yield t
    t = Table(prof)
    t.credit(100000)                      # cents
    assert t.place(W.PASS, 1000) == R.OK
    t.roll(3, 3)                          # point 6
    if W.COME in prof["offered"]:
        assert t.place(W.COME, 1000) == R.OK
        t.roll(4, 4)                      # come to 8
    yield t


def _starts(prof, table):
    for k in prof["offered"]:
        for n in nav.numbers(k, table):
            yield (k, n)


def test_groups_hold_every_offered_wager_once():
    for name in P.NAMES:
        prof = P.get(name)
        for k in prof["offered"]:
            assert sum(1 for g in nav.GROUPS if k in g[2]) == 1, W.NAMES[k]
    assert len(nav.GROUPS) == len(B.GROUP_KEYS)


def test_every_wager_within_4_presses_and_point_numbers_2_more():
    worst = 0
    for name in P.NAMES:
        prof = P.get(name)
        for table in _tables(prof):
            for start in _starts(prof, table):
                best = _reach(table, start, 4)
                for k in prof["offered"]:
                    got = [d for (kk, n), d in best.items() if kk == k]
                    assert got, (name, start, W.NAMES[k])
                    worst = max(worst, min(got))
            # numbers: from the wager with any number, any other in <= 2
            for k in prof["offered"]:
                ns = nav.numbers(k, table)
                if not set(W.POINTS) <= set(ns):
                    continue
                for n0 in ns:
                    best = _reach(table, (k, n0), 2)
                    for n in W.POINTS:
                        assert (k, n) in best, (name, W.NAMES[k], n0, n)
    assert worst <= 4


def test_selection_stays_valid_and_pick_refuses_missing_numbers():
    prof = P.get("table")
    t = Table(prof)
    p = PL.Player()
    ctl = _Ctl(t)
    for code in NAV_KEYS * 3:
        p.on_button(code, ctl, 0)
        assert p.sel[0] in prof["offered"] and p.sel[1] in nav.numbers(p.sel[0], t), p.sel
    p.sel = (W.HARD, 4)
    p.on_button(B.NUMBER, ctl, 0)
    p.on_button(B.COME, ctl, 0)          # key 5: no hard 5, the place 5
    assert p.sel == (W.PLACE, 5)
    p.on_button(B.NUMBER, ctl, 0)
    p.on_button(B.HARD, ctl, 0)          # key 8: place 8 (a place bet takes it)
    assert p.sel == (W.PLACE, 8)
    p.on_button(B.HARD, ctl, 0)
    p.on_button(B.NUMBER, ctl, 0)
    p.on_button(B.HARD, ctl, 0)          # key 8 on a hardway
    assert p.sel == (W.HARD, 8)
    text = p.on_button(B.BONUS, ctl, 0)  # table profile: no bonus bets
    assert "NO BONUS" in text and p.sel == (W.HARD, 8)


def test_first_line_press_selects_the_pass_line():
    # issue 22: at power-up Pass Line is selected but not by the player; LINE
    # stepped on to Don't Pass. The first group key selects its first wager.
    for name in P.NAMES:
        t = Table(P.get(name))
        p = PL.Player()
        ctl = _Ctl(t)
        p.on_button(B.LINE, ctl, 0)
        assert p.sel == (W.PASS, 0), name
        p.on_button(B.LINE, ctl, 0)
        assert p.sel == (W.DONT_PASS, 0), name


def test_number_key_places_anywhere_and_two_keys_make_a_hop():
    # NUMBER + a key on a wager without that number: the place bet on it;
    # a second key within the time: the hop of the two keys' die faces
    for name in P.NAMES:
        prof = P.get(name)
        t = Table(prof)
        p = PL.Player()
        ctl = _Ctl(t)
        p.on_button(B.NUMBER, ctl, 0)
        p.on_button(B.PLACE, ctl, 0)     # key 6 (third key: die 3)
        assert p.sel == (W.PLACE, 6), name
        text = p.on_button(B.HARD, ctl, 0)   # fourth key: die 4
        if W.HOP in prof["offered"]:
            assert p.sel == (W.HOP, 34), (name, p.sel)
        else:                            # no hops: HARD is the hardways again
            assert p.sel == (W.HARD, 6) and not text, (name, p.sel, text)
    t = Table(P.get("etg"))
    p = PL.Player()
    ctl = _Ctl(t)
    p.on_button(B.NUMBER, ctl, 0)
    p.on_button(B.LINE, ctl, 0)
    text = p.on_button(B.LINE, ctl, 0)   # hop 1-1 is the two bet in 002: not a hop
    assert text.startswith("NO HOP 1-1") and p.sel == (W.PLACE, 4), (text, p.sel)


def test_hop_is_two_die_keys():
    prof = P.get("etg")
    t = Table(prof)
    p = PL.Player()
    ctl = _Ctl(t)
    p.on_button(B.PROPS, ctl, 0)
    while p.sel[0] != W.HOP:             # NEXT through the props to the hop
        p.on_button(B.NEXT, ctl, 0)
    p.on_button(B.NUMBER, ctl, 0)
    p.on_button(B.HARD, ctl, 0)          # 4th key: die 4
    p.on_button(B.COME, ctl, 0)          # 2nd key: die 2
    assert p.sel == (W.HOP, 24)


def test_number_prompt_times_out():
    prof = P.get("table")
    t = Table(prof)
    p = PL.Player()
    ctl = _Ctl(t)
    p.on_button(B.PLACE, ctl, 0)
    p.on_button(B.NUMBER, ctl, 0)
    p.on_button(B.HARD, ctl, nav.ARMED_MS + 1)   # too late: the HARD group
    assert p.sel[0] == W.HARD
