"""SAS while a cashout ticket prints (the printer driver serves the line
between its chunks): the long polls that move money or change what a ticket
says (AFT 72/74, ticket in 70/71, handpay reset 94, validation ID 4C, ticket
data 7B/7D) get no answer and change nothing until the ticket is confirmed,
then are answered as usual; a meter read is answered mid-print. Each run is
compared with the same cabinet cashing out with a quiet line."""
import pytest

from firmware.sas import meters
from hal.mock.sasport import LoopSas
from sas_spec import with_crc, decode
from test_aft import cabinet, t72, t74, IN
from test_e2e_session import check
from test_sas_floor import ADDR, ask
from test_sas_ticket_data import _7b, _7d
from test_ticket_in import redeem_frame

SEED = 35
HELD = {
    "72 transfer in": t72(IN, 1000, "PRINT-1"),
    "74 lock": t74(0x00, 0x03, 1000),
    "70 ticket data": bytes((ADDR, 0x70)),
    "71 redeem": redeem_frame(0x00),
    "94 handpay reset": with_crc([ADDR, 0x94]),
    "4C validation ID": with_crc([ADDR, 0x4C, 1, 2, 3, 0, 0, 9]),
    "7B expiration": _7b(mask=0x0F, bits=0x0F, days=45),
    "7D location": _7d(45, "MID PRINT", "ST 1", "ST 2"),
}
CODES = (0x00, 0x01, 0x02, 0x03, 0x0C, 0x0D, 0x86, 0x87, 0xA0, 0xB8)


def _cash_out(frame=None):
    """$5 in, CASHOUT; `frame` put on the line while the ticket prints.
    Returns the board, the driver and what the cabinet sent mid-print."""
    b, d = cabinet(SEED)
    line = b.sas
    assert isinstance(line, LoopSas)
    d.bill(5)
    d.run(200)
    sent = []

    def host():
        line.host_read()
        line.host_send(frame)
    if frame is not None:
        b.printer.while_printing = host  # pyright: ignore[reportAttributeAccessIssue]
    d.press("CASHOUT")
    d.run(1500)
    sent.append(line.host_read())
    b.printer.while_printing = None
    return b, d, sent[0]


def _state(b, d):
    st = d.ctl.store
    led = st.ledger
    check(d)
    return (b.printer.tickets, b.printer.barcodes, led.table.credits, led.ticket,
            led.ticket_last, led.lock, st.journal.seq,
            [meters.meter(led, c) for c in CODES],
            ask(d, with_crc([ADDR, 0x4D, 0x00])))


@pytest.fixture(scope="module")
def quiet():
    b, d, sent = _cash_out()
    assert sent == b"" and len(b.printer.tickets) == 1
    return _state(b, d)


@pytest.mark.parametrize("name", sorted(HELD))
def test_a_money_or_ticket_poll_mid_print_is_held_then_answered(name, quiet):
    frame = HELD[name]
    b, d, sent = _cash_out(frame)
    assert sent == b"", name          # unanswered: the host polls it again
    assert _state(b, d) == quiet      # the ticket, journal, meters and 4D as with a quiet line
    assert ask(d, frame) is not None  # the ticket confirmed: answered as usual


def test_a_meter_read_mid_print_is_answered():
    frame = bytes((ADDR, 0x1A))
    b, d, sent = _cash_out(frame)
    assert decode(frame, sent)["credits"] == 0   # out of the meter with the ticket pending
