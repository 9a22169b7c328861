"""Interleaved 2 of 5 barcodes for tickets: the ESC/POS command that prints
one, and the bar pattern itself (the mock printer draws it). Loaded only when
a ticket is printed."""

# GS h 80 (bar height), GS w 2 (module width), GS H 2 (digits below), then
# GS k 70 n d1..dn: Interleaved 2 of 5, function B (count-prefixed)
_BAR_SETUP = b"\x1dh\x50\x1dw\x02\x1dH\x02"
_ITF = b"\x1dk\x46"

# Interleaved 2 of 5: each digit is five elements, two of them wide
_ITF_DIGITS = ("nnwwn", "wnnnw", "nwnnw", "wwnnn", "nnwnw",
               "wnwnn", "nwwnn", "nnnww", "wnnwn", "nwnwn")


def itf_bars(digits):
    """The ITF pattern of an even-length digit string as text: "1" = bar,
    "0" = space, narrow = 1 module, wide = 3 (start 1010, stop 11101)."""
    if len(digits) % 2 or not digits.isdigit():
        raise ValueError("ITF needs an even number of digits")
    out = ["1010"]
    for i in range(0, len(digits), 2):
        bars = _ITF_DIGITS[ord(digits[i]) - 48]
        spaces = _ITF_DIGITS[ord(digits[i + 1]) - 48]
        for k in range(5):
            out.append("111" if bars[k] == "w" else "1")
            out.append("000" if spaces[k] == "w" else "0")
    out.append("11101")
    return "".join(out)


def barcode_bytes(digits):
    """ESC/POS bytes printing `digits` as an ITF barcode."""
    if len(digits) % 2 or not digits.isdigit() or len(digits) > 255:
        raise ValueError("ITF needs an even number of digits")
    return _BAR_SETUP + _ITF + bytes((len(digits),)) + digits.encode()


def ticket_text(lines, code):
    """A ticket as the paper shows it (mock printer, simulator): the lines,
    then the ITF bars and the digits under them."""
    out = list(lines)
    if code:
        bars = itf_bars(code).replace("1", "\u2588").replace("0", " ")
        out += [bars, bars, code]
    return "\n".join(out)
