"""The bench's SAS host for `tools/bench firmware --sas` and `--sas-plain`
(tools/bench_session.py): the long polls it sends in turn and, for
--sas-plain, the line without the answer-time instrumentation of
tools/bench_sas_line.py, so the heap figures are the firmware's with a
host polling it, not the bench's timing too."""


# long polls the bench host sends in turn (frames with their CRC where the
# poll carries data: 2F/6F game 0000 with meter codes, 4D look-ahead, 4C read)
LONG_POLLS = (b"\x01\x1c", b"\x01\x0f", b"\x01\x19", b"\x01\x1e", b"\x01\x1a",
              b"\x01\x10", b"\x01\x1f", b"\x01\x48", b"\x01\x54", b"\x01\x7e",
              b"\x01\x1b", b"\x01\x18", b"\x01\x20", b"\x01\x57",
              b"\x01\x2f\x05\x00\x00\x00\x05\x0c\x9b\x5b",
              b"\x01\x6f\x06\x00\x00\x00\x00\x05\x00\x3b\x09",
              b"\x01\x4d\xff\xba\xa3")


class Host:
    """The host's polls; a line class gives poll(frame, answered)."""

    def host(self, passes):
        """The SAS host at 10 ms pass `passes`: a general poll every 100 ms
        (every other one acknowledged by a poll to another address), a long
        poll every 500 ms (TimedLine lands each at the worst moment)."""
        if not passes % 10:
            if passes % 20:
                self.poll(b"\x82", False)
            else:
                self.poll(b"\x81", True)
        elif passes % 50 == 5:
            self.poll(LONG_POLLS[(passes // 50) % len(LONG_POLLS)], True)


class PlainLine(Host):
    """The same polls on the mock line, untimed: each is sent once the
    answers so far are taken off the line (the firmware reads the line
    itself, board.sas)."""

    def __init__(self, port):
        self.port = port

    def poll(self, frame, answered):
        self.port.host_read()
        self.port.host_send(frame)
