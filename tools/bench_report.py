"""The end of tools/bench_session.py's run: the screen timing, a long poll's
own work (--sas) and the printed figures. bench_session imports this once
the heap figures are taken, so the session's heap does not hold its code."""
import time
import micropython


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
        line.own(clock)         # after the figures: a long poll's own work, timed alone
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
