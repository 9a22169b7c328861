"""What the SAS host sets for the tickets the cabinet prints (SAS 6.02
section 15): 7B extended validation status, 7C set extended ticket data,
7D set ticket data. Each value is a configuration setting
(firmware/store/config.py), so it is journalled, survives a power cut and
shows in the audit menu; a value already in force is not written again
(hosts send these polls again and again). `answer()` is their handler in
firmware/sas/machine.py; the answer goes into sas.reply."""
from micropython import const
from firmware.sas import wire as Wr
from firmware.store.config import NEVER_EXPIRES, TICKET_LINES as _LINES

_SECURE_ENHANCED = const(0x8000)   # status bit 15: read only
# status bits the cabinet honours (Table 15.2c) and the setting each one is
_BITS = ((0x0001, "ticket_out"),   # bit 0: the printer is the cash out device
         (0x0020, "ticket_in"))    # bit 5: ticket redemption
_MAX_TEXT = const(40)              # Table 15.3c's longest line
# 7C data codes (Table 15.3c) kept by the cabinet; 10 and 20 (restricted and
# debit ticket titles) are taken but not kept: it prints neither ticket
_TITLES = const(b"\x10\x20")
_TITLE_MAX = const(16)


def answer(sas, f, n):
    """Long poll f[:n] (7B, 7C or 7D) -> length of the answer in sas.reply."""
    cmd = f[1]
    if cmd == 0x7B:
        return _status(sas, f, n)
    if cmd == 0x7C:
        return _flag(sas, cmd, _extended(sas, f, n))
    return _flag(sas, cmd, _ticket_data(sas, f, n))


def _set(sas, key, value):
    """Sets `key` unless it already holds `value`; False if refused."""
    ctl = sas.ctl
    store = ctl.store
    if store.ledger.config[key] == value:
        return True
    return not store.critical and store.set_config(ctl.now_s(), key, str(value)) == 0


def _status(sas, f, n):
    """7B: the control mask picks the status bits to change; expiration
    0000 leaves it as it is, 9999 never expires. Answer: the asset number
    (Config asset_number), the status bits, the cashable expiration, and 0000
    for restricted tickets (the cabinet prints none)."""
    if f[2] != 8 or n != 13:
        sas.refused += 1
        return sas.status(0x80)
    mask = f[3] | (f[4] << 8)
    bits = f[5] | (f[6] << 8)
    days = Wr.get_bcd(f, 7, 2)
    if days < 0 or Wr.get_bcd(f, 9, 2) < 0:
        sas.refused += 1
        return sas.status(0x80)
    for bit, key in _BITS:
        if mask & bit:
            _set(sas, key, 1 if bits & bit else 0)
    if days:
        _set(sas, "ticket_expiry", days)
    cfg = sas.ctl.store.ledger.config
    o = sas.reply
    k = sas.head(0x7B)
    o[k] = 10
    asset = cfg["asset_number"]
    for i in range(4):
        o[k + 1 + i] = (asset >> (8 * i)) & 0xFF
    bits = _SECURE_ENHANCED
    for bit, key in _BITS:
        if cfg[key]:
            bits |= bit
    o[k + 5] = bits & 0xFF
    o[k + 6] = bits >> 8
    k = Wr.put_bcd(o, k + 7, cfg["ticket_expiry"], 2)
    return sas.tail(Wr.put_bcd(o, k, 0, 2))


def _text(f, at, size):
    """The ASCII text f[at:at + size], or None when it is not printable."""
    for i in range(at, at + size):
        if not 32 <= f[i] < 127:
            return None
    return bytes(f[at:at + size]).decode()


def _extended(sas, f, n):
    """7C: (code, length, text) elements in any order; True when every
    element is valid (then all are applied)."""
    end = 3 + f[2]
    if end != n - 2:
        return False
    for apply in (False, True):         # check all first: nothing half-set
        i = 3
        while i < end:
            if i + 2 > end:
                return False
            code, size = f[i], f[i + 1]
            if i + 2 + size > end or size > _MAX_TEXT:
                return False
            text = _text(f, i + 2, size)
            if text is None:
                return False
            if code < len(_LINES):
                if apply and not _set(sas, _LINES[code], text):
                    return False
            elif code not in _TITLES or size > _TITLE_MAX:
                return False
            i += 2 + size
    return True


def _ticket_data(sas, f, n):
    """7D: host ID (2, not kept), expiration in days (1 binary, 00 = never
    expires), then location, address 1 and address 2, each a length byte
    (00 = leave as it is) and its text; trailing fields may be left out."""
    end = 3 + f[2]
    if end != n - 2 or f[2] < 3:
        return False
    for apply in (False, True):
        i = 6
        for key in _LINES:
            if i >= end:
                break
            size = f[i]
            if i + 1 + size > end or size > _MAX_TEXT:
                return False
            text = _text(f, i + 1, size)
            if text is None:
                return False
            if apply and size and not _set(sas, key, text):
                return False
            i += 1 + size
        if i != end:
            return False
        if apply and not _set(sas, "ticket_expiry", f[5] or NEVER_EXPIRES):
            return False
    return True


def _flag(sas, cmd, ok):
    """7C/7D's answer: 01 the data was taken, 00 it was not."""
    o = sas.reply
    k = sas.head(cmd)
    o[k] = 1 if ok else 0
    return sas.tail(k + 1)
