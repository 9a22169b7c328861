"""The cabinet's asyncio main loop (Controller.run()): each part of a pass
is its own task with its own period, so none starves another (the periods:
firmware/cabinet/controller.py). Tests and the benchmark call
Controller.step() themselves."""


def _cpython_sleep_ms(ms):
    import asyncio
    return asyncio.sleep(ms / 1000)


async def run(ctl, stop=None):
    """Runs until `stop()` returns True (never on a board)."""
    import asyncio
    sleep_ms = getattr(asyncio, "sleep_ms", None)
    if sleep_ms is None:  # CPython
        sleep_ms = _cpython_sleep_ms
    tk = ctl.clock.ticks_ms
    done = [False]

    def stopped():
        if stop is not None and stop():
            done[0] = True
        return done[0]

    serve = ctl.sas.serve if ctl.sas else None
    buttons = ctl.board.buttons

    async def every(ms, fn):
        while not stopped():
            try:
                fn(tk())
                if buttons.busy() and not ctl.inputs_dead:
                    # a press being debounced is sampled after every task, not
                    # once a pass: a pass can outlast a short press's 50 ms
                    buttons.sample(tk())
            except Exception as exc:  # never out of the loop: logged, then a clean restart
                ctl.fault(exc, tk())
            if serve is not None:
                serve()     # a SAS poll waits for one part at most (20 ms to answer)
            await sleep_ms(ms)

    sas = ctl.sas.tick if ctl.sas else lambda now: None
    await asyncio.gather(
        every(5, sas),
        every(10, ctl.tick_inputs),
        every(20, ctl.tick_money),
        every(20, lambda now: ctl.tick_serial()),
        every(50, ctl.tick_display),
        every(200, ctl.tick_maintenance),
    )
