"""The end of `tools/bench firmware --sas` (tools/bench_session.py loads it
after the heap figures are taken): a long poll's own work timed alone, and
the answer-time report of the SAS line (tools/bench_sas_line.py). Not in
the heap while the session runs: only the line's measuring part is."""
import time
from bench_sas_line import TimedLine, _BUCKETS, _BUCKET_US


def own_work(line, clock):
    """After the session: a long poll's own work (parse, meters, CRC,
    write), the poll already received, timed alone."""
    ctl = line.ctl
    for i in range(len(line.own)):
        line.line.host_send(b"\x01\x1c" if i % 2 else b"\x01\x0f")
        w0 = line.waited.us()
        t0 = time.ticks_us()
        ctl.sas.tick(clock.ticks_ms())
        dt = time.ticks_diff(time.ticks_us(), t0)
        w = line.waited.us() - w0
        if w:
            line.preempted += w
            line.dropped += 1
        else:
            line.own[line.nown] = min(dt, 65535)
            line.nown += 1
        assert len(line.line.host_read()) in (28, 36)


def _median(line, k):
    half = line.count[k] // 2
    seen = 0
    for i in range(_BUCKETS):
        seen += line.hist[k][i]
        if seen > half:
            return (i + 1) * _BUCKET_US
    return line.max[k]


def report(line):
    for k, what in ((1, "long poll"), (0, "general poll")):
        if line.count[k]:
            print("SAS %s answer time (poll landing just after the SAS read -> first byte"
                  " out), %d polls: min %d us, median <= %d us, max %d us" % (
                      what, line.count[k], line.min[k], _median(line, k), line.max[k]))
    dt, code, n = line.worst
    spent = ", ".join("%s %d us" % (TimedLine.PARTS[line.wpart[i]], line.wdt[i])
                      for i in range(n))
    print("SAS worst answer: %d us to poll %02X (I2C display time included: %d us);"
          " parts finished meanwhile: %s" % (dt, code, line.wbus, spent or "none"))
    own, n = line.own, line.nown
    for i in range(1, n):       # in place: the heap is the one measured
        v, j = own[i], i
        while j and own[j - 1] > v:
            own[j] = own[j - 1]
            j -= 1
        own[j] = v
    print("SAS long poll 0F/1C own work (parse, meters, CRC, write): min %d us, median %d us,"
          " max %d us; %d polls answered, %d not sent (previous one unanswered);"
          " spec: start the answer within 20 ms" % (
              own[0], own[n // 2], own[n - 1], line.ctl.sas.polls, line.skipped))
    # tick/serve swallow exceptions (a MemoryError too): a bench that hid one would lie
    print("SAS errors: %d %s" % (line.ctl.sas.errors, line.ctl.sas.error))
    print("(%d measurements left out: the host OS ran other processes meanwhile, %d ms in all,"
          " /proc/self/schedstat)" % (line.dropped, line.preempted // 1000))
