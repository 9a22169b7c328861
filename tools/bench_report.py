"""The end of tools/bench_session.py's run: the screen timing, a long poll's
own work (--sas) and the printed figures. bench_session imports this once
the heap figures are taken, so the session's heap does not hold its code."""
import time
import micropython
from micropython import const

_OWN = const(3)          # record kind of a long poll's own work (bench_sas_host.py)
_OWN_POLLS = const(200)  # long polls timed alone after the session (0F and 1C)
_NEXT = const(0)         # bench_sas_line.py's state slots
_KIND = const(14)        # bench_sas_timed.py's


def report(ctl, board, line, sas, passes, fake_ms, t_total, cpu, base, after_boot,
           high, heap100, heap_end):
    from firmware.cabinet import screens, render
    clock = board.clock
    g = ctl.game
    led = ctl.store.ledger
    peak = micropython.mem_peak()
    # screen build + redraw
    now = clock.ticks_ms()
    k = 200
    t0 = time.ticks_us()
    for _ in range(k):
        lines, dice, inv = screens.build(ctl, now)
    t_build = time.ticks_diff(time.ticks_us(), t0) / k
    t0 = time.ticks_us()
    for _ in range(k):
        render.draw(board.display, lines, (3, 4), inv)
        board.display.show()
    t_draw = time.ticks_diff(time.ticks_us(), t0) / k
    if sas == 1:
        own(ctl, line, clock)   # after the figures: a long poll's own work, timed alone
    if line is not None:
        line.close()
    m = led.meters
    print("rolls %d, passes %d (10 ms each, %d s of cabinet time)" % (g.rolls, passes, fake_ms // 1000))
    print("balance_check %d, games %d, cocked %d, total_in %d, wagered %d" % (
        led.balance_check(), m.get("games"), m.get("cocked"), m.get("total_in"), m.get("wagered")))
    print("heap: %d B after imports+board, %d B after boot" % (base, after_boot))
    print("peak heap: micropython.mem_peak() %d B (unix port: counts every block ever"
          " live incl. outside the GC heap); sampled max gc.mem_alloc() %d B" % (peak, high))
    print("heap after gc at roll 100: %d B, at roll %d: %d B (growth %d B)" % (
        heap100 or 0, g.rolls, heap_end, heap_end - (heap100 or 0)))
    print("session CPU time: %d ms" % cpu)
    print("firmware time per game cycle: %.1f ms (%.1f us per 10 ms pass)" % (
        t_total / 1000 / g.rolls, t_total / passes))
    print("screen: build %.0f us, draw+show %.0f us" % (t_build, t_draw))
    if line is not None:
        # tick/serve swallow exceptions (a MemoryError too): a bench that hid one would lie
        print("SAS errors: %d %s" % (ctl.sas.errors, ctl.sas.error))


def own(ctl, line, clock):
    """--sas, after the session: a long poll's own work, timed alone: a tick
    of the SAS task with 1C or 0F on the line, to the answer's first byte
    (parse, meters, BCD, CRC)."""
    s = line.s
    s[_KIND] = _OWN
    for i in range(_OWN_POLLS):
        s[_NEXT] = 3 if i % 2 else 2
        line.land()
        ctl.sas.tick(clock.ticks_ms())
