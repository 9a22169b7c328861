"""PIN stretching cost on the MicroPython unix port, scaled to an RP2040.

    .venv/bin/python tools/bench_pin.py

Runs itself under the unix port (.venv/bin/micropython), times
firmware.audit.pin.Check over ITERATIONS iterations (best of 5) and one
SLICE, and scales them to an RP2040 at 125 MHz by RP2040_FACTOR: the same
SHA-256 iteration loop took 105 us an iteration on the rp2 port (stock
v1.28.0 RPI_PICO image) in the emulated RP2040 of ../shared/rp2-emu
(rp2040js, 125 MHz instruction clock, no flash wait states, so a real chip
is if anything slower) and 0.54 us on this machine's unix port: a factor of
194. docs/BENCHMARKS.md has the figures and the commands.
"""
import sys

RP2040_FACTOR = 194


def mp_main():
    import time
    sys.path.insert(0, ".")
    from firmware.audit import pin as P
    rec = P.make_record("1234", P.DEFAULT_SALT)
    best = None
    for _ in range(5):
        c = P.Check(rec, "1234")
        t0 = time.ticks_us()
        ok = c.finish()
        dt = time.ticks_diff(time.ticks_us(), t0)
        assert ok
        best = dt if best is None or dt < best else best
    c = P.Check(rec, "1234")
    t0 = time.ticks_us()
    c.step(P.SLICE)
    sl = time.ticks_diff(time.ticks_us(), t0)
    per = best / P.ITERATIONS
    print("iterations %d, slice %d" % (P.ITERATIONS, P.SLICE))
    print("unix port: %.3f us an iteration, check %.1f ms, slice %.3f ms" % (per, best / 1000, sl / 1000))
    print("RP2040 125 MHz (x%d): check %.2f s, slice %.1f ms" % (
        RP2040_FACTOR, best * RP2040_FACTOR / 1e6, sl * RP2040_FACTOR / 1000))


def host_main():
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mp = os.path.join(root, ".venv", "bin", "micropython")
    return subprocess.call([mp, os.path.join("tools", "bench_pin.py")], cwd=root)


if sys.implementation.name == "micropython":
    mp_main()
else:
    sys.exit(host_main())
