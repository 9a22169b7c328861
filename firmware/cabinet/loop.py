"""The cabinet's asyncio main loop (Controller.run()): the parts of a pass run
in four tasks with their own periods, so none starves another (the periods:
firmware/cabinet/controller.py). Few tasks on purpose: each wake of a task
costs ~0.45 ms of scheduling on an RP2040, so a task per part (425 wakes a
second) would spend ~19 % of the CPU before doing any work. Tests and the
benchmark call Controller.step() themselves."""


from micropython import const

from hal.ticks import ticks_add, ticks_diff

# Doors, tilt and the audit key are debounced over 50 ms: reading them at
# every 20 ms pass of the buttons' task would cost ~1 ms a pass on an RP2040.
SWITCH_MS = const(50)


def _cpython_sleep_ms(ms):
    import asyncio
    return asyncio.sleep(ms / 1000)


def _sleeper():
    """asyncio's sleep_ms (MicroPython), or its CPython equivalent."""
    import asyncio
    return getattr(asyncio, "sleep_ms", _cpython_sleep_ms)


def sleep_ms(ms):
    return _sleeper()(ms)


async def _answer(wake, serve, stopped):
    """The SAS task: serve() (which never raises) at each word on the line."""
    while not stopped():
        await wake.wait()
        serve()


async def run(ctl, stop=None):
    """Runs until `stop()` returns True (never on a board)."""
    import asyncio
    sleep = _sleeper()
    tk = ctl.clock.ticks_ms
    done = [False]

    def stopped():
        if stop is not None and stop():
            done[0] = True
        return done[0]

    serve = ctl.sas.serve if ctl.sas else None
    answer = None
    flag = getattr(asyncio, "ThreadSafeFlag", None)
    if serve is not None and flag is not None and hasattr(ctl.sas.port, "wake"):
        # the port wakes a task of its own for each poll (hal/rp2/sas_pio.py):
        # it is answered when the running part ends, and no part looks for one
        ctl.sas.port.wake = flag()
        answer, serve = serve, None
    sas_tick = ctl.sas.tick if ctl.sas else None
    buttons = ctl.board.buttons

    def between():
        now = tk()
        if buttons.due(now) and not ctl.inputs_dead:
            # not only in tick_inputs: a round of tasks can outlast a short
            # press's (or release's) 50 ms
            buttons.sample(now)
        if serve is not None:
            serve()     # a SAS poll waits for one part at most (20 ms to answer)

    async def every(ms, fn, phase=0):
        """fn every `ms` on a fixed schedule, `phase` ms after the others:
        tasks of one period take turns, so between() runs at half the period."""
        due = ticks_add(tk(), phase)
        if phase:
            await sleep(phase)
        while not stopped():
            try:
                fn(tk())
                between()
            except Exception as exc:  # never out of the loop: logged, then a clean restart
                ctl.fault(exc, tk())
            due = ticks_add(due, ms)
            wait = ticks_diff(due, tk())
            if wait < 0:    # a long part: the schedule starts again from now
                due, wait = tk(), 0
            elif wait > ms:  # a clock slower than the sleeps (a test's): one period at most
                due, wait = ticks_add(tk(), ms), ms
            await sleep(wait)

    switched = [tk()]

    def inputs(now):
        due = ticks_diff(now, switched[0]) >= SWITCH_MS
        if due:
            switched[0] = now
        ctl.tick_inputs(now, due)

    def money(now):
        ctl.tick_money(now)
        between()
        ctl.tick_serial()
        if sas_tick is not None:
            sas_tick(now)   # its polls are answered in between() at every part

    # the buttons are sampled in between() every 10 ms (hal/buttons.py SAMPLE_MS)
    tasks = [every(20, inputs), every(20, money, 10), every(50, ctl.tick_display),
             every(200, ctl.tick_maintenance)]
    if answer is not None:
        tasks.append(_answer(ctl.sas.port.wake, answer, stopped))
    link = getattr(ctl.game, "tick", None)
    if link is not None:    # a station's table link: it answers the dome within 15 ms
        tasks.append(every(2, link))
    await asyncio.gather(*tasks)
