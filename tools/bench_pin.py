"""PIN stretching cost on the chip: a budget, and the unix port's figure.

    .venv/bin/python tools/bench_pin.py     (tools/bench pin)

The chip's cost of one check (one guess) is ITERATIONS x the rate of one
chained SHA-256 iteration on the RP2040: CHIP_US, measured with the same
loop on the rp2 port (stock v1.28.0 RPI_PICO image) in the emulated RP2040
of ../shared/rp2-emu (rp2040js, 125 MHz, no flash wait states: a real chip
is if anything slower, so this is a floor). It must be at least BUDGET_MS,
else the run fails. Runs itself under the unix port (.venv/bin/micropython)
to time firmware.audit.pin.Check over ITERATIONS (best of 5) and one SLICE:
informative, and scaled by RP2040_FACTOR (105 us on the chip / 0.54 us on
this machine's unix port) as a cross-check. docs/BENCHMARKS.md has the figures.
"""
import sys

CHIP_US = 105           # one iteration on the (emulated) RP2040, us
RP2040_FACTOR = 194
BUDGET_MS = 50          # a guess costs at least this much chip time (issue 25)
SLICE_BUDGET_MS = 20    # one main-loop pass of a check on the chip


def mp_main():
    import time
    sys.path.insert(0, ".")
    from firmware.audit import pin as P
    pin = "24681357"
    rec = P.make_record(pin, P.new_salt())
    best = None
    for _ in range(5):
        c = P.Check(rec, pin)
        t0 = time.ticks_us()
        ok = c.finish()
        dt = time.ticks_diff(time.ticks_us(), t0)
        assert ok
        best = dt if best is None or dt < best else best
    c = P.Check(rec, pin)
    t0 = time.ticks_us()
    c.step(P.SLICE)
    sl = time.ticks_diff(time.ticks_us(), t0)
    per = best / P.ITERATIONS
    chip_ms = P.ITERATIONS * CHIP_US / 1000
    slice_ms = P.SLICE * CHIP_US / 1000
    print("iterations %d, slice %d" % (P.ITERATIONS, P.SLICE))
    print("unix port: %.3f us an iteration, check %.1f ms, slice %.3f ms" % (per, best / 1000, sl / 1000))
    print("RP2040 125 MHz (unix x%d, cross-check): check %.2f s, slice %.1f ms" % (
        RP2040_FACTOR, best * RP2040_FACTOR / 1e6, sl * RP2040_FACTOR / 1000))
    print("chip cost of a guess: %d x %d us = %.0f ms (budget >= %d ms); slice %.1f ms (budget <= %d ms)" % (
        P.ITERATIONS, CHIP_US, chip_ms, BUDGET_MS, slice_ms, SLICE_BUDGET_MS))
    for digits in (6, 8):
        print("flash holder, %d-digit PIN: 10^%d guesses x %d SHA-256 = %.1e SHA-256 (%.0f days of chip time)" % (
            digits, digits, P.ITERATIONS, 10 ** digits * P.ITERATIONS, 10 ** digits * chip_ms / 86400000))
    if chip_ms < BUDGET_MS or slice_ms > SLICE_BUDGET_MS:
        print("FAIL: PIN stretching out of budget")
        sys.exit(1)
    print("PASS")


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
