"""The mock display's frame as text (MockDisplay.to_text: tools/sim's
terminal, the tests), apart so that a session that never prints the
display does not load it."""
from micropython import const

# braille dot bit for (dx, dy) inside a 2x4 cell
_BRAILLE = const(((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80)))


def to_text(d, mode):
    g = d.get
    rows = []
    if mode == "braille":
        for cy in range(0, d.height, 4):
            row = []
            for cx in range(0, d.width, 2):
                v = 0
                for dx in range(2):
                    for dy in range(4):
                        if g(cx + dx, cy + dy):
                            v |= _BRAILLE[dx][dy]
                row.append(chr(0x2800 + v))
            rows.append("".join(row))
    elif mode == "blocks":
        ch = (" ", "\u2580", "\u2584", "\u2588")
        for y in range(0, d.height, 2):
            rows.append("".join(ch[g(x, y) | (g(x, y + 1) << 1)] for x in range(d.width)))
    else:
        for y in range(d.height):
            rows.append("".join("#" if g(x, y) else "." for x in range(d.width)))
    return "\n".join(rows)
