"""The cabinet's asyncio main loop (Controller.run()): the parts of a pass run
in four tasks with their own periods, so none starves another (the periods:
firmware/cabinet/controller.py). Few tasks on purpose: each wake of a task
costs ~0.45 ms of scheduling on an RP2040, so a task per part (425 wakes a
second) would spend ~19 % of the CPU before doing any work. Tests and the
benchmark call Controller.step() themselves."""


def _cpython_sleep_ms(ms):
    import asyncio
    return asyncio.sleep(ms / 1000)


def _sleeper():
    """asyncio's sleep_ms (MicroPython), or its CPython equivalent."""
    import asyncio
    return getattr(asyncio, "sleep_ms", _cpython_sleep_ms)


def sleep_ms(ms):
    return _sleeper()(ms)


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

    async def every(ms, fn):
        while not stopped():
            try:
                fn(tk())
                between()
            except Exception as exc:  # never out of the loop: logged, then a clean restart
                ctl.fault(exc, tk())
            await sleep(ms)

    def inputs(now):
        ctl.tick_inputs(now)
        if sas_tick is not None:
            sas_tick(now)

    def money(now):
        ctl.tick_money(now)
        between()
        ctl.tick_serial()

    tasks = [every(10, inputs), every(20, money), every(50, ctl.tick_display),
             every(200, ctl.tick_maintenance)]
    link = getattr(ctl.game, "tick", None)
    if link is not None:    # a station's table link: it answers the dome within 15 ms
        tasks.append(every(2, link))
    await asyncio.gather(*tasks)
