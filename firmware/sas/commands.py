"""The SAS long polls that change something or take long: a ROM check,
setting the clock or the validation ID, a remote handpay reset. `answer()`
is Sas.more's handler for them (firmware/sas/machine.py); the answer goes
into sas.reply."""
from firmware.sas import wire as Wr
from firmware.sas import validation as V
from firmware.store import events as E
from firmware.store import records as T
from firmware.store import ledger as L
from firmware import timefmt


class _Crc:
    """hashlib-like CRC-16 for the ROM signature (same walk as the digest)."""

    def __init__(self, seed):
        self.crc = seed

    def update(self, data):
        self.crc = Wr.crc16(data, 0, len(data), self.crc)

    def digest(self):
        return bytes((self.crc & 0xFF, self.crc >> 8))


class _Rom:
    """The ROM signature being computed, a few blocks per pass: step(n)
    gives None until it is done, then the CRC (-1: the program could not
    be read)."""

    def __init__(self, digest):
        self.d = digest

    def step(self, n):
        d = self.d
        if not d.step(n):
            return None
        h = d.hexdigest         # 4 hex digits: the CRC, low byte first
        return int(h[0:2], 16) | (int(h[2:4], 16) << 8) if h else -1


def answer(sas, f, n):
    """Long poll f[:n] (21, 4C, 7F or 94) -> length of the answer in sas.reply
    (0: none)."""
    cmd = f[1]
    if cmd == 0x21:
        return _rom(sas, f)
    if cmd == 0x4C:
        return _set_validation(sas, f)
    if cmd == 0x7F:
        return _set_date(sas, f)
    return _handpay_reset(sas)


def _rom(sas, f):
    """21 ROM signature: CRC-16 seeded by the host over the same program
    image and files, in the same byte stream, as Verify's digest
    (firmware/audit/digest.for_board); computed a few blocks per pass
    while polls are answered, sent on the first general poll after (6.1)."""
    from firmware.audit.digest import for_board
    sas.rom_check = _Rom(for_board(".", _Crc(f[2] | (f[3] << 8))))
    sas.rom_signature = -1
    return 0


def _set_date(sas, f):
    """7F receive date and time (also as a type G broadcast)."""
    date = Wr.get_bcd(f, 2, 4)
    tm = Wr.get_bcd(f, 6, 3)
    mo, d, y = date // 1000000, date // 10000 % 100, date % 10000
    hh, mi, ss = tm // 10000, tm // 100 % 100, tm % 100
    if date < 0 or tm < 0 or not (1 <= mo <= 12 and 1 <= d <= 31 and 2000 <= y <= 2099
                                  and hh < 24 and mi < 60 and ss < 60):
        sas.refused += 1
        return sas.status(0x80)
    t = timefmt.unix(y, mo, d, hh, mi, ss)
    if timefmt.civil(t)[:3] != (y, mo, d):  # 31 February and the like
        sas.refused += 1
        return sas.status(0x80)
    # logged with the old time as the record's time and the new one as its argument
    ctl = sas.ctl
    old = ctl.now_s()
    fn = getattr(ctl.clock, "set_time", None)
    if fn is not None:
        fn(t)
    if not ctl.store.critical:
        ctl.store.commit(T.pack(T.EVENT, old, E.CLOCK_SET, t & 0xFFFFFFFF))
    ctl.dirty = True
    return sas.status()


def _handpay_reset(sas):
    """94 remote handpay reset: 00 reset, 01 unable, 02 not in a handpay."""
    store = sas.ctl.store
    led = store.ledger
    k = sas.head(0x94)
    if led.lock not in (L.LK_HANDPAY, L.LK_JACKPOT):
        code = 2
    elif store.reset(sas.ctl.now_s()) == 0:
        code = 0
    else:
        code = 1
    sas.reply[k] = code
    return sas.tail(k + 1)


def _set_validation(sas, f):
    """4C set secure-enhanced validation ID and sequence (15.6); an ID of
    zero only reads them back."""
    store = sas.ctl.store
    led = store.ledger
    vid = f[2] | (f[3] << 8) | (f[4] << 16)
    seq = f[5] | (f[6] << 8) | (f[7] << 16)
    if vid and (vid != led.val_id or seq > led.val_seq) and not store.critical:
        store.commit(T.pack(T.VALID_ID, sas.ctl.now_s(), vid, seq))
    o = sas.reply
    k = sas.head(0x4C)
    vid, seq = V.of_ledger(led)[:2]
    for i in range(3):
        o[k + i] = (vid >> (8 * i)) & 0xFF
        o[k + 3 + i] = (seq >> (8 * i)) & 0xFF
    return sas.tail(k + 6)
