"""Calendar date from Unix seconds with integers only (no time.gmtime on
every port; tickets, recall and the event log all need the same answer)."""


def civil(t):
    """(year, month, day, hh, mm, ss) of seconds since 1970 UTC."""
    days, rem = divmod(t, 86400)
    hh, rem = divmod(rem, 3600)
    mm, ss = divmod(rem, 60)
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    if m <= 2:
        y += 1
    return y, m, d, hh, mm, ss


def unix(y, m, d, hh=0, mm=0, ss=0):
    """Seconds since 1970 UTC of a civil date and time (inverse of civil)."""
    s = (hh * 60 + mm) * 60 + ss
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return (era * 146097 + doe - 719468) * 86400 + s
