"""Strict JSON (RFC 8259) for the scenario runner, the same on every port.

MicroPython's json module accepts text CPython refuses (a trailing comma, a
leading zero, a missing comma, a trailing NUL) and orders dict keys by hash,
so a lab's scenario would not give the same bytes on the host and on the
board's port. Both ports therefore read and write through this module:
`loads` refuses anything that is not exactly one JSON value (ValueError),
`dumps` writes objects in the fixed key order of KEYS, ASCII only, with
CPython's default separators.
"""

_DEPTH = 100  # nesting a scenario never needs; deeper is refused, not recursed
_WS = b" \t\r\n"
_ESC = {0x22: '"', 0x5C: "\\", 0x2F: "/", 0x62: "\b", 0x66: "\f", 0x6E: "\n",
        0x72: "\r", 0x74: "\t"}
_OUT_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
            "\b": "\\b", "\f": "\\f"}
KEYS = ("ok", "error", "message", "credits", "cashout", "bet", "number", "amount",
        "result", "paid", "vig", "stays_up", "dice", "total", "point_before",
        "point_after", "settled")


def loads(data):
    """The value in `data` (bytes or str); ValueError if it is not strict JSON."""
    if isinstance(data, str):
        data = data.encode()
    pos = _skip(data, 0)
    value, pos = _value(data, pos, 0)
    if _skip(data, pos) != len(data):
        raise ValueError("extra data")
    return value


def _skip(s, i):
    n = len(s)
    while i < n and s[i] in _WS:
        i += 1
    return i


def _value(s, i, depth):
    if i >= len(s):
        raise ValueError("value expected")
    c = s[i]
    if c == 0x7B:
        return _object(s, i + 1, depth + 1)
    if c == 0x5B:
        return _array(s, i + 1, depth + 1)
    if c == 0x22:
        return _string(s, i + 1)
    for word, val in ((b"true", True), (b"false", False), (b"null", None)):
        if s[i:i + len(word)] == word:
            return val, i + len(word)
    return _number(s, i)


def _object(s, i, depth):
    if depth > _DEPTH:
        raise ValueError("too deep")
    out = {}
    i = _skip(s, i)
    if i < len(s) and s[i] == 0x7D:
        return out, i + 1
    while True:
        if i >= len(s) or s[i] != 0x22:
            raise ValueError("key expected")
        key, i = _string(s, i + 1)
        i = _skip(s, i)
        if i >= len(s) or s[i] != 0x3A:
            raise ValueError("colon expected")
        value, i = _value(s, _skip(s, i + 1), depth)
        out[key] = value
        i = _skip(s, i)
        if i < len(s) and s[i] == 0x2C:
            i = _skip(s, i + 1)
        elif i < len(s) and s[i] == 0x7D:
            return out, i + 1
        else:
            raise ValueError("comma or } expected")


def _array(s, i, depth):
    if depth > _DEPTH:
        raise ValueError("too deep")
    out = []
    i = _skip(s, i)
    if i < len(s) and s[i] == 0x5D:
        return out, i + 1
    while True:
        value, i = _value(s, i, depth)
        out.append(value)
        i = _skip(s, i)
        if i < len(s) and s[i] == 0x2C:
            i = _skip(s, i + 1)
        elif i < len(s) and s[i] == 0x5D:
            return out, i + 1
        else:
            raise ValueError("comma or ] expected")


def _digits(s, i):
    j = i
    while j < len(s) and 0x30 <= s[j] <= 0x39:
        j += 1
    return j


def _number(s, i):
    start = i
    if i < len(s) and s[i] == 0x2D:
        i += 1
    j = _digits(s, i)
    if j == i or (s[i] == 0x30 and j > i + 1):
        raise ValueError("bad number")
    i = j
    whole = True
    if i < len(s) and s[i] == 0x2E:
        j = _digits(s, i + 1)
        if j == i + 1:
            raise ValueError("bad fraction")
        i, whole = j, False
    if i < len(s) and s[i] in b"eE":
        i += 1
        if i < len(s) and s[i] in b"+-":
            i += 1
        j = _digits(s, i)
        if j == i:
            raise ValueError("bad exponent")
        i, whole = j, False
    text = s[start:i].decode()
    return (int(text) if whole else float(text)), i


def _string(s, i):
    out = []
    n = len(s)
    start = i
    while True:
        if i >= n:
            raise ValueError("unterminated string")
        c = s[i]
        if c == 0x22:
            out.append(_utf8(s[start:i]))
            return "".join(out), i + 1
        if c < 0x20:
            raise ValueError("control character in string")
        if c != 0x5C:
            i += 1
            continue
        out.append(_utf8(s[start:i]))
        if i + 1 >= n:
            raise ValueError("bad escape")
        e = s[i + 1]
        if e in _ESC:
            out.append(_ESC[e])
            i += 2
        elif e == 0x75:
            cp, i = _hex4(s, i + 2)
            if 0xD800 <= cp < 0xDC00 and s[i:i + 2] == b"\\u":
                lo, j = _hex4(s, i + 2)
                if 0xDC00 <= lo < 0xE000:
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                    i = j
            if 0xD800 <= cp < 0xE000:
                raise ValueError("lone surrogate")
            out.append(chr(cp))
        else:
            raise ValueError("bad escape")
        start = i


def _hex4(s, i):
    h = s[i:i + 4]
    if len(h) != 4 or any(c not in b"0123456789abcdefABCDEF" for c in h):
        raise ValueError("bad \\u escape")
    return int(h.decode(), 16), i + 4


def _utf8(b):
    """Decodes after checking the bytes are well-formed UTF-8 (no overlong
    forms, no surrogates): ports differ in what their decoders let through."""
    i = 0
    n = len(b)
    while i < n:
        c = b[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            size, lo, hi = 2, 0x80, 0xBF
        elif 0xE0 <= c <= 0xEF:
            size = 3
            lo = 0xA0 if c == 0xE0 else 0x80
            hi = 0x9F if c == 0xED else 0xBF
        elif 0xF0 <= c <= 0xF4:
            size = 4
            lo = 0x90 if c == 0xF0 else 0x80
            hi = 0x8F if c == 0xF4 else 0xBF
        else:
            raise ValueError("bad UTF-8")
        if i + size > n or not lo <= b[i + 1] <= hi:
            raise ValueError("bad UTF-8")
        for k in range(i + 2, i + size):
            if not 0x80 <= b[k] <= 0xBF:
                raise ValueError("bad UTF-8")
        i += size
    return bytes(b).decode()


def dumps(value):
    """Compact-but-spaced JSON text, objects in KEYS order (then by name)."""
    out = []
    _write(value, out)
    return "".join(out)


def _key_rank(k):
    return (KEYS.index(k), "") if k in KEYS else (len(KEYS), k)


def _write(v, out):
    if v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif v is None:
        out.append("null")
    elif isinstance(v, int):
        out.append(str(v))
    elif isinstance(v, str):
        _write_str(v, out)
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for k in range(len(v)):
            if k:
                out.append(", ")
            _write(v[k], out)
        out.append("]")
    elif isinstance(v, dict):
        out.append("{")
        first = True
        for k in sorted(v, key=_key_rank):
            if not first:
                out.append(", ")
            first = False
            _write_str(k, out)
            out.append(": ")
            _write(v[k], out)
        out.append("}")
    else:
        raise ValueError("not written: %s" % type(v).__name__)


def _write_str(s, out):
    out.append('"')
    for ch in s:
        if ch in _OUT_ESC:
            out.append(_OUT_ESC[ch])
            continue
        cp = ord(ch)
        if 0x20 <= cp < 0x7F:
            out.append(ch)
        elif cp < 0x10000:
            out.append("\\u%04x" % cp)
        else:
            cp -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
    out.append('"')
