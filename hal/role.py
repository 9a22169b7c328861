"""Which part of a table a board is, from its configuration: the file
`table.cfg` on the board's filesystem (written at installation:
docs/INSTALL.md "A table"; the simulator passes the same text in SIM_ROLE).
In the HAL: the board's devices and pins depend on it (hal/REFERENCE.md
"Table link"), and main.py reads it before anything of firmware/ loads, so
a safe boot still works when the firmware does not.

    (no file, or empty)      the stand-alone cabinet: dome and station on one chip
    dome [key=value ...]     the dome controller; keys: window_s (the betting
                             window), result_s (a result on view), shooter_idle_s,
                             shake_ms, settle_ms, cocked_lockup, stuck_lockup
    station N                player station N (1-8) at a table

One release image serves all three. A text that does not parse is refused
with the reason (the board then stays locked on it: a station must not run
as a stand-alone cabinet with its own dome by mistake).
"""
CABINET = "cabinet"
DOME = "dome"
STATION = "station"
PATH = "table.cfg"
# key -> (firmware/link/dome.py setting, multiplier, lowest, highest)
_DOME_KEYS = {"window_s": ("window_ms", 1000, 1, 600),
              "result_s": ("result_ms", 1000, 1, 10),
              "shooter_idle_s": ("shooter_idle_ms", 1000, 0, 3600),
              "shake_ms": ("shake_ms", 1, 500, 10000),
              "settle_ms": ("settle_ms", 1, 100, 5000),
              "cocked_lockup": ("cocked_lockup", 1, 1, 20),
              "stuck_lockup": ("stuck_lockup", 1, 1, 20)}


def parse(text):
    """(role, station address, dome settings) or raises ValueError."""
    words = text.split()
    if not words:
        return CABINET, 0, {}
    what = words[0]
    if what == "station":
        if len(words) != 2 or not words[1].isdigit() or not 1 <= int(words[1]) <= 8:
            raise ValueError("station needs its address 1-8")
        return STATION, int(words[1]), {}
    if what != "dome":
        raise ValueError("role is dome or station N, not %s" % what[:12])
    cfg = {}
    for w in words[1:]:
        key, _, value = w.partition("=")
        spec = _DOME_KEYS.get(key)
        if spec is None or not value.isdigit():
            raise ValueError("dome setting %s" % w[:20])
        name, mult, lo, hi = spec
        v = int(value)
        if not lo <= v <= hi:
            raise ValueError("%s between %d and %d" % (key, lo, hi))
        cfg[name] = v * mult
    return DOME, 0, cfg


def read(path=PATH):
    """The board's role from its file (absent: the stand-alone cabinet)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return CABINET, 0, {}
    return parse(text)
