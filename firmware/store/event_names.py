"""Event code names (codes in firmware.store.events), for the audit menu and
the read-out only."""

NAMES = (
    "none", "power up", "door open", "door closed", "audit key on", "audit key off",
    "tilt", "tilt cleared", "cocked dice", "dice did not move", "malfunction",
    "critical memory", "RAM clear", "config change", "cashout ticket", "handpay",
    "handpay reset", "jackpot", "fault cleared", "PIN failed", "PIN lockout",
    "bill in", "printer fault", "shaker fault", "game voided", "coin in",
    "memory repaired", "aggregate min", "device fault", "ticket in doubt", "PIN accepted",
    "disabled by host", "enabled by host",
    "logic door open", "logic door closed", "cash box open", "cash box closed",
    "clock set", "clock NOT SET", "bill returned", "flash sector worn",
)
