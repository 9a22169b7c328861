"""Operator configuration: the settings list is data.

Each setting: (key, default, low, high, money) where `money` marks settings
that would change the value of money already on the station, so they are
refused while credits or bets are on it. Strings have low/high = min/max
length; a string that may be empty (low 0) is a line of text: spaces allowed.
A setting's text is read by parse(); the configured profile is built by
firmware/rules/profiles.py configured().
"""
CONFIG = (
    ("profile", "table", 1, 8, True),
    ("odds_mult", 0, 0, 100, True),        # 0 = the profile's own odds multiples
    ("min_bet", 0, 0, 100000, True),       # 0 = the profile's own limits
    ("max_bet", 0, 0, 100000, True),
    ("bet_timer_s", 15, 5, 120, False),
    ("shake_ms", 4000, 1000, 15000, False),
    ("settle_ms", 600, 200, 5000, False),
    ("credit_cents", 100, 1, 10000, True),
    ("bill_pulse", 1, 1, 100, True),       # credits per bill-validator pulse
    ("coin_pulse", 1, 1, 100, True),       # credits per coin-acceptor pulse
    ("credit_limit", 5000, 1, 10 ** 9, False),
    ("handpay_limit", 1200, 1, 10 ** 9, False),
    ("jackpot_limit", 0, 0, 10 ** 9, False),  # 0 = off; a bigger win locks for a handpay
    ("cocked_lockup", 3, 1, 20, False),
    ("stuck_lockup", 3, 1, 20, False),
    ("station", "CRAPS-01", 1, 12, False),
    # technician PIN as a salted, stretched record (firmware/audit/pin.py);
    # "": none set (a new cabinet, a RAM clear), no PIN opens anything
    ("pin", "", 1, 100, False),
    # settings added later go last: records name a setting by its index
    ("sas_address", 1, 0, 127, False),     # SAS 6.02 address; 0 = SAS off (2.1)
    # a betting period lasts at most this long however much the player presses
    ("bet_timer_max_s", 45, 5, 300, False),
    # 1: an ID-003 bill validator is fitted, so one silent since power-up
    # locks; 0: bills come as pulses or not at all (firmware/cabinet/escrow.py)
    ("bill_escrow", 0, 0, 1, False),
    # ticketing, also set by the SAS host (7B, 7C, 7D; firmware/sas/SAS.md):
    # 1: a cash out prints a ticket, 0: it is always a handpay
    ("ticket_out", 1, 0, 1, False),
    # 1: tickets are redeemed (ticket in), 0: every ticket is given back
    ("ticket_in", 1, 0, 1, False),
    # days a printed ticket is valid; 9999 = it never expires
    ("ticket_expiry", 30, 1, 9999, False),
    # lines printed at the top of a ticket (empty: not printed)
    ("ticket_location", "", 0, 40, False),
    ("ticket_address1", "", 0, 40, False),
    ("ticket_address2", "", 0, 40, False),
    # the house's number for this machine, which an AFT transfer must name
    # (SAS 74, 72, 7B); 0 = none: AFT transfers are refused (firmware/sas/SAS.md)
    ("asset_number", 0, 0, 0xFFFFFFFF, False),
    # SAS handpays: 1 the handpay queue (51 again every 15 s until the host
    # reads 1B), 0 legacy reporting for hosts that never read 1B (SAS 7.8.2)
    ("handpay_queue", 1, 0, 1, False),
)

NEVER_EXPIRES = 9999    # ticket_expiry: the ticket never expires (SAS 7B's 9999)
# the lines printed at the top of a ticket, in SAS 7C data code order (00-02)
TICKET_LINES = ("ticket_location", "ticket_address1", "ticket_address2")

def index(key):
    """The row of setting `key` in CONFIG, or None. A scan, not a dict: it
    runs only when a setting is changed, and a dict of 28 keys would stay on
    the heap."""
    for i in range(len(CONFIG)):
        if CONFIG[i][0] == key:
            return i
    return None


def defaults() -> dict:
    """Every setting at its default: a dict of str and int values by key."""
    return {c[0]: c[1] for c in CONFIG}


def pulse_cents(config, src):
    """Cents one validator (src 0) or coin (src 1) pulse is worth: pulses
    count machine credits of `credit_cents` each; play counts cents."""
    return config["coin_pulse" if src else "bill_pulse"] * config["credit_cents"]


def parse(key, text):
    """(ok, value) for a setting given as text; checks type and range."""
    i = index(key)
    if i is None:
        return False, "unknown setting"
    name, default, low, high, money = CONFIG[i]
    if isinstance(default, str):
        first = 32 if low == 0 else 33
        if not low <= len(text) <= high or not all(first <= ord(ch) < 127 for ch in text):
            return False, "%d-%d printable characters" % (low, high)
        return True, text
    try:
        value = int(text)
    except ValueError:
        return False, "a whole number"
    if not low <= value <= high:
        return False, "between %d and %d" % (low, high)
    return True, value
