"""Times from outside (git's commit times, SOURCE_DATE_EPOCH) as dates the tool can hold.

A commit can be dated after the year 9999 or before 1970, and SOURCE_DATE_EPOCH can be any
number: Python's datetime ends at 9999-12-31. Each such time is clamped into 1970-01-01 ..
9999-01-01 (a margin for a chart's last month tick), never an internal error.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

MAX_EPOCH = 253370764800  # 9999-01-01T00:00:00Z


def clamp_epoch(seconds: int) -> int:
    """seconds since the epoch, within what every date computation here can hold."""
    return min(max(seconds, 0), MAX_EPOCH)


def utc(seconds: int) -> datetime:
    """The UTC time of an epoch second, clamped."""
    return datetime.fromtimestamp(clamp_epoch(seconds), tz=UTC)


def utc_date(seconds: int) -> date:
    """The UTC date of an epoch second, clamped."""
    return utc(seconds).date()
