"""The SAS side's start (Sas.__init__ in firmware/sas/machine.py): its
buffers, the exception queue and what it resumes from the ledger. Run once
and let go: the SAS task does not hold this code. The sizes come from
machine.py, which owns them.
"""
import array
from firmware import forget
from firmware.sas import wire


def init(sas, ctl, rx, qcap, sent_none):
    sas.ctl = ctl
    sas.port = ctl.board.sas
    led = ctl.store.ledger
    sas.frames = wire.Framer(led.config["sas_address"])   # the receive framer
    sas._rx = bytearray(rx)
    sas.flags = bytearray(rx)          # the ninth (wakeup) bit of each byte read
    sas.buf = bytearray(48)            # the answer being built
    sas._queue = bytearray(qcap)       # exception codes, FIFO ring
    sas.numbers = array.array("i", [0] * qcap)   # their event numbers (0 = volatile)
    sas.first = 0                      # the oldest entry
    sas.size = 0
    sas.seen = led.sas_ack             # newest event number queued
    sas.last = led.sas_ack             # newest event number acknowledged
    sas._since = 0                     # when that was last journalled (ms)
    sas._tag = sent_none               # what the last general poll got, until acknowledged
    sas.repeat = 0                     # times it was sent
    sas.full = False                   # the queue overflowed: 70 goes first
    sas._count = 0                     # polls to other addresses seen
    sas.kind = 0                       # kind of the previous message for us
    # a game in progress at power-up (it is replayed or voided) is
    # reported as started again, so its 7F never comes without a 7E
    sas.phase = -1
    sas.game_no = led.game_no
    sas.digest = None                  # the ROM signature being computed (commands.py)
    sas.ready = -1                     # finished ROM signature waiting for a general poll
    sas.armed = False                  # a ticket printed that 4D 00 has not read
    sas.count = 0                      # polls answered
    sas.refused = 0                    # frames for us dropped (bad CRC or data)
    # long poll 54's serial number, read once (firmware/version.py, not
    # ctl.identity(): that loads the audit side's service module)
    from firmware.version import serial
    forget("firmware.version")          # play reads it nowhere else
    sas.serial = serial(ctl.board)[:40].encode()
