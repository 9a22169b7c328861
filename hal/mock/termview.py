"""The simulator's terminal (tools/sim): the display's picture, the sound
line under it, the credits, bet and point in dollars beside it, the keys
below, laid out for the terminal's size (`tools/sim --size`):

  small  80x24   the picture in braille (2x4 pixels a character, 64x16)
  large 132x52   the picture in half blocks (1x2 pixels a character, 128x32),
                 the display's text, the newest ticket as the paper shows it

Every line is plain text: the display's scale marks never reach the terminal.
"""
from firmware import fmt
from firmware.cabinet.drive import plain
from firmware.cabinet.game import STATE_NAMES

SIZES = {"small": ("braille", 80, 24), "large": ("blocks", 132, 52)}
_SIDE = 15      # the small layout's column beside the picture


def wrap(text, width):
    """`text` as lines of at most `width` characters, broken between words."""
    out = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = line + " " + word if line else word
    if line:
        out.append(line)
    return out


_PRINTER = ("printer OK", "paper out", "printer FAULT", "paper low")


def status(ctl, board):
    """What the player and the technician need beside the picture: the
    money in dollars, the point, the game's state, the devices."""
    led = ctl.store.ledger
    t = led.table
    p = board.printer
    return ["CREDITS", "$" + fmt(t.credits), "BET", "$" + fmt(t.on_table()),
            "POINT %s" % (t.point or "OFF"), STATE_NAMES[ctl.game.state],
            led.suspended() or ("CRITICAL" if ctl.store.critical else "in service")], \
        ["money " + ("off" if board.money.inhibited else "on"),
         _PRINTER[p.status_value] if 0 <= p.status_value < 4 else "printer ?",
         "tickets %d" % len(p.tickets)]


def frame(ctl, board, size, sound, note=""):
    """The whole terminal as lines within the size's width and height.
    `sound`: the line under the picture; `note`: a warning (a --profile
    not applied)."""
    from hal.mock.keys import PLAYER_KEYS, CABINET_KEYS, SIDE_KEYS
    mode, width, height = SIZES[size]
    picture = board.display.to_text(mode).split("\n")
    game, devices = status(ctl, board)
    out = []
    if size == "small":
        side = game + [""] + list(SIDE_KEYS) + devices[:2] + ["^C quits"]
        for i in range(len(picture)):
            out.append(picture[i] + " " + (side[i] if i < len(side) else "")[:_SIDE])
        out.append(("sound: " + sound)[:width])
        guide = wrap(PLAYER_KEYS, width)
    else:
        out += picture
        out.append(("sound: " + sound)[:width])
        out.append("   ".join([game[0] + " " + game[1], game[2] + " " + game[3]] + game[4:] +
                              devices))
        text = ["|%-16s|" % plain(l) for l in (ctl.lines or ())]
        paper = []
        p = board.printer
        if p.tickets:
            from hal.itf import ticket_text
            paper = ticket_text(p.tickets[-1], p.barcodes[-1]).split("\n")
        for i in range(max(len(text), len(paper))):
            a = text[i] if i < len(text) else " " * 18
            out.append((a + "   " + (paper[i] if i < len(paper) else "")).rstrip()[:width])
        guide = wrap(PLAYER_KEYS + ", " + CABINET_KEYS + ". Ctrl-C quits (state kept in "
                     "the flash file)", width)
    if note:
        guide = wrap(note, width) + guide
    return out + guide
