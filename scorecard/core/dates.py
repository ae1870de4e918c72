"""Times from outside (git's commit times, SOURCE_DATE_EPOCH) as dates the tool can hold.

A commit can be dated after the year 9999 or before 1970, and SOURCE_DATE_EPOCH can be any
number: Python's datetime ends at 9999-12-31. Each such time is clamped into 1970-01-01 ..
9999-01-01 (a margin for a chart's last month tick), never an internal error.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

MAX_EPOCH = 253370764800  # 9999-01-01T00:00:00Z
DATE_RE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")  # the format's YYYY, YYYY-MM or YYYY-MM-DD
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def clamp_epoch(seconds: int) -> int:
    """seconds since the epoch, within what every date computation here can hold."""
    return min(max(seconds, 0), MAX_EPOCH)


def utc(seconds: int) -> datetime:
    """The UTC time of an epoch second, clamped."""
    return datetime.fromtimestamp(clamp_epoch(seconds), tz=UTC)


def utc_date(seconds: int) -> date:
    """The UTC date of an epoch second, clamped."""
    return utc(seconds).date()


def parse_date(value: str) -> tuple[int, int | None, int | None] | None:
    """(year, month, day) of a YYYY, YYYY-MM or YYYY-MM-DD date, or None if not a real date."""
    m = DATE_RE.fullmatch(value)
    if not m:
        return None
    year = int(m[1])
    month = int(m[2]) if m[2] else None
    day = int(m[3]) if m[3] else None
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None and (month is None or not 1 <= day <= month_days(year, month)):
        return None
    return year, month, day


def month_days(year: int, month: int) -> int:
    """How many days the month has (the Gregorian calendar's leap years, as calendar.monthrange counts them;
    importing calendar costs the hook 1.5 ms)."""
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 29 if month == 2 and leap else _MONTH_DAYS[month - 1]


def full_date(value: object) -> date | None:
    """The day a YYYY-MM-DD string names (an artifact's meta.date), or None for anything else."""
    parsed = parse_date(value) if isinstance(value, str) and len(value) == 10 else None
    return date(parsed[0], parsed[1] or 1, parsed[2]) if parsed and parsed[2] else None


def first_day(text: str) -> date:
    """The first day of the period a date the schema accepted names: 2024 is 2024-01-01."""
    parsed = parse_date(text)
    if parsed is None:
        raise ValueError(f"not a date: {text!r}")  # the schema refuses it before any rule runs
    year, month, day = parsed
    return date(year, month or 1, day or 1)
