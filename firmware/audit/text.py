"""Text helpers for the 16-column audit screens and the read-out (no floats,
no str.rjust on MicroPython)."""
from micropython import const
from firmware.timefmt import civil
from firmware import fmt

WIDTH = const(16)
RESULTS = ("--", "WIN", "LOSE", "PUSH", "RET")
RESULT_WORDS = ("no_action", "win", "lose", "push", "returned")

# pips of a die face on a 3x3 grid, row by row ('o' = pip)
_PIPS = ("   |   |   ", "   | o |   ", "o  |   |  o", "o  | o |  o",
         "o o|   |o o", "o o| o |o o", "o o|o o|o o")


def right(text, width=WIDTH):
    text = str(text)
    return " " * (width - len(text)) + text if len(text) < width else text


def pair(label, value, width=WIDTH):
    """label left, value right on one line if it fits, else None."""
    value = str(value)
    gap = width - len(label) - len(value)
    if gap < 1:
        return None
    return label + " " * gap + value


def wrap(text, width=WIDTH):
    """Word wrap; words longer than a line are cut into pieces."""
    out = []
    line = ""
    for word in str(text).split(" "):
        while len(word) > width:
            if line:
                out.append(line)
                line = ""
            out.append(word[:width])
            word = word[width:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line += " " + word
        else:
            out.append(line)
            line = word
    if line or not out:
        out.append(line)
    return out


def date(t):
    return "%04d-%02d-%02d" % civil(t)[:3]


def clock(t):
    return "%02d:%02d:%02d" % civil(t)[3:]


def stamp(t):
    return date(t) + " " + clock(t)


def point(p):
    return "%d" % p if p else "OFF"


def dice_text(d1, d2):
    if not d1 or not d2:
        return "Dice none"
    return "Dice %d+%d = %d" % (d1, d2, d1 + d2)


def pips(d1, d2):
    """Three lines drawing both faces, e.g. '[o  ] [o o]'."""
    a = _PIPS[d1 if 0 <= d1 <= 6 else 0].split("|")
    b = _PIPS[d2 if 0 <= d2 <= 6 else 0].split("|")
    return ["[%s] [%s]" % (a[i], b[i]) for i in range(3)]


def bet_label(kind, number):
    from firmware.rules import wagers as W
    label = W.LABELS[kind] if 0 <= kind < len(W.LABELS) else "Wager %d" % kind
    if number:
        label = "%s %d" % (label, number)
    return label


def bet_name(kind):
    from firmware.rules import wagers as W
    return W.NAMES[kind] if 0 <= kind < len(W.NAMES) else "wager_%d" % kind


def result_word(res):
    return RESULTS[res] if 0 <= res < len(RESULTS) else "?%d" % res


def bet_lines(bet):
    """Screen lines for one recall bet (kind, number, result, amount, paid)."""
    kind, number, res, amount, paid = bet
    label = bet_label(kind, number)
    word = result_word(res)
    out = []
    line = pair(label[:WIDTH - len(word) - 1], word)
    out.append(line)
    line = pair(" bet " + fmt(amount), "paid " + fmt(paid))
    if line is None:
        out.append(" bet " + fmt(amount))
        out.append(" paid " + fmt(paid))
    else:
        out.append(line)
    return out
