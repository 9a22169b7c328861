"""The cabinet's asyncio main loop (Controller.run()): one task wakes every
20 ms to sample the buttons and runs the whole pass every third wake; SAS
polls wake a task of their own. Few wakes on purpose: each costs ~0.45 ms of
scheduling on an RP2040, and the parts of a pass walk more frozen bytecode
than the 16 KB XIP cache holds. Tests and the benchmark call
Controller.step() themselves."""


from micropython import const

from hal.buttons import SAMPLE_MS
from hal.ticks import ticks_add, ticks_diff

# A pass (game, money, read-out, screen, device watch) every 3rd wake: 60 ms.
_PASS_WAKES = const(3)
# Doors, tilt and the audit key every other pass (120 ms): a switch's change
# is an event, not a race.
_SWITCH_PASSES = const(2)
# The SAS idle tick (exceptions queued, loop break, acknowledgement) every
# 3rd pass (180 ms); polls are answered by their own task at once.
_SAS_PASSES = const(3)
# A sector erase stops the chip for ~65-95 ms (flash off the bus): with a
# SAS host polling, it runs right after an answer when the next poll the
# host's cycle predicts is at least this far (a poll never waits behind it).
_ERASE_GAP_MS = const(110)
# A collection (a few ms on the chip) goes ahead in a gap at least this long,
# at most every _GC_EVERY_MS, so the automatic one does not land on a poll
# (asking the free heap walks the whole heap too: as dear as collecting).
_GC_GAP_MS = const(30)
_GC_EVERY_MS = const(2000)
# A kind of poll not seen for this long no longer predicts the next one; no
# poll at all: the main pass erases as without a host.
_HOST_GONE_MS = const(2000)
# A host whose cycle never leaves the gap: the erase waits this long at most.
_ERASE_LATE_MS = const(15000)


def _cpython_sleep_ms(ms):
    import asyncio
    return asyncio.sleep(ms / 1000)


def _sleeper():
    """asyncio's sleep_ms (MicroPython), or its CPython equivalent."""
    import asyncio
    return getattr(asyncio, "sleep_ms", _cpython_sleep_ms)


def sleep_ms(ms):
    return _sleeper()(ms)


async def _answer(wake, answer, stopped):
    """The SAS task: answer() (which never raises) at each word on the line."""
    while not stopped():
        await wake.wait()
        answer()


async def run(ctl, stop=None):
    """Runs until `stop()` returns True (never on a board)."""
    import asyncio
    import gc
    sleep = _sleeper()
    tk = ctl.clock.ticks_ms
    done = [False]

    def stopped():
        if stop is not None and stop():
            done[0] = True
        return done[0]

    sas = ctl.sas
    serve = sas.serve if sas else None
    sas_tick = sas.tick if sas else None
    wake = None
    flag = getattr(asyncio, "ThreadSafeFlag", None)
    if serve is not None and flag is not None and hasattr(sas.port, "wake"):
        # the port wakes a task of its own for each poll (hal/rp2/sas_pio.py)
        wake = sas.port.wake = flag()
    buttons = ctl.board.buttons
    collected = [tk()]  # when the last collection ahead ran
    # the host's polling learnt per message kind (firmware/sas/wire.py): when
    # the last one came, its last interval, the shorter of its last two
    last = [tk()] * 4
    interval = [0] * 4
    period = [0] * 4

    def heard(kind, now):
        gap = ticks_diff(now, last[kind])
        period[kind] = min(gap, interval[kind])
        interval[kind] = gap
        last[kind] = now

    def polling(now):
        for t in last:
            if ticks_diff(now, t) < _HOST_GONE_MS:
                return True
        return False

    def room(now):
        """ms until the next poll the host's cycle predicts (< 0: one is due)."""
        ms = _HOST_GONE_MS
        for k in range(4):
            since = ticks_diff(now, last[k])
            if since < _HOST_GONE_MS:
                ms = min(ms, period[k] - since)
        return ms

    def answer():
        """Polls on the line answered; right after an answer, the gap the
        host's cycle leaves before its next poll takes the erase or the
        collection that would otherwise keep a poll waiting."""
        if serve is None:
            return
        count = sas.count
        serve()
        if sas.count == count:
            return
        now = tk()
        heard(sas.last_kind, now)
        gap = room(now)
        try:
            if gap >= _ERASE_GAP_MS and ctl.tick_maintenance(now, True, False):
                return
            if gap >= _GC_GAP_MS and ticks_diff(now, collected[0]) >= _GC_EVERY_MS:
                collected[0] = now
                gc.collect()
        except Exception as exc:  # never out of the loop: logged, then a clean restart
            ctl.fault(exc, tk())

    def between():
        ctl.sample_buttons(tk())
        answer()    # a SAS poll waits for one part at most (20 ms to answer)

    late = [None]   # since when an erase waits for a gap in the host's polling

    def may_erase(now):
        if serve is None or not polling(now) or not ctl.store.erase_pending():
            late[0] = None
            return True
        if late[0] is None:
            late[0] = now
        return ticks_diff(now, late[0]) >= _ERASE_LATE_MS

    async def main():
        due = tk()
        wakes = 0
        passes = 0
        while not stopped():
            now = tk()
            try:
                if wakes % _PASS_WAKES:
                    if not ctl.inputs_dead:
                        buttons.sample(now)
                else:
                    ctl.tick_inputs(now, passes % _SWITCH_PASSES == 0)
                    between()
                    ctl.tick_money(now)
                    between()
                    ctl.tick_serial()
                    between()
                    if passes % _SAS_PASSES == 0:
                        if sas_tick is not None:
                            sas_tick(now)
                        ctl.tick_maintenance(now, may_erase(now), True)
                        between()
                    ctl.tick_display(now)
                    passes += 1
            except Exception as exc:  # never out of the loop: logged, then a clean restart
                ctl.fault(exc, tk())
            wakes += 1
            due = ticks_add(due, SAMPLE_MS)
            wait = ticks_diff(due, tk())
            if wait < 0:    # a long pass: the schedule starts again from now
                due, wait = tk(), 0
            elif wait > SAMPLE_MS:  # a clock slower than the sleeps (a test's)
                due, wait = ticks_add(tk(), SAMPLE_MS), SAMPLE_MS
            await sleep(wait)

    tasks = [main()]
    if wake is not None:
        tasks.append(_answer(wake, answer, stopped))
    link = getattr(ctl.game, "tick", None)
    if link is not None:    # a station's table link: it answers the dome within 15 ms

        async def linked():
            while not stopped():
                try:
                    link(tk())
                    between()
                except Exception as exc:
                    ctl.fault(exc, tk())
                await sleep(2)

        tasks.append(linked())
    await asyncio.gather(*tasks)
