"""The ledger's snapshot, written: Ledger.pieces() loads this module while
a snapshot is written (every few hundred records, the boot's first, a RAM
clear) and lets it go, so play does not hold its code. The layout is the
one firmware/store/snapload.py reads back.
"""
import struct
from firmware.store import config as C
from firmware.store import ledger as L


def pieces(led):
    """The snapshot as a list of pieces, in order: the journal copies
    them into its chunks, so no block the size of the whole state is
    needed (after a long replay a fragmented heap has none: issue 10)."""
    cfg = "\n".join("%s=%s" % (c[0], led.config[c[0]]) for c in C.CONFIG).encode()
    hist = "\n".join("%d %d %s %s" % h for h in led.conf_history).encode()
    misc = struct.pack(L._MISC, led.phase, led.lock, led.door_open, led.tilt,
                       led.audit, led.cocked_run, led.stuck_run, led.rerolls,
                       led.lock_arg, led.credits_at_close, led.game_no) + \
        struct.pack(L._FLIGHT, led.pulses[0], led.pulses[1], led.ticket, led.ticket_no)
    misc += struct.pack(L._MISC_SAS, led.host, led.sas_ack, led.val_id, led.val_seq)
    misc += struct.pack(L._MISC_ESC, led.escrow) + struct.pack(L._MISC_TKT, led.ticket_last)
    out = [None, misc, cfg, hist, led.table.encode(), led.meters.encode()]
    sizes = [len(p) for p in out[1:]]
    for more in (led.recall.pieces(), led.events.pieces()):
        n = 0
        for p in more:
            n += len(p)
        sizes.append(n)
        out.extend(more)
    out[0] = struct.pack("<B7I", L.SNAP_VERSION, *sizes)
    return out
