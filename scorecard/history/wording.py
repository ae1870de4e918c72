"""How a change to a dimension is said: the same words in `scorecard diff`, the history pages and the feed."""

from __future__ import annotations

from ..measure.compare import change_words
from ..measure.numfmt import fmt_value
from ..core.statuses import value_word


def shown(value: float | None, unit: str | None) -> str:
    """A value for a sentence: 81.2 ms, or 'no number'."""
    return "no number" if value is None else fmt_value(value, unit)


def moved(old: str, new: str) -> str:
    """A dimension's category changed."""
    return f"moved from category {old} to {new}"


def status_changed(old: str, new: str) -> str:
    """A dimension's status changed."""
    return f"status {old} → {new}"


def value_changed(old_status: str, old: tuple[float, str | None] | None, new_status: str,
                  new: tuple[float, str | None] | None, better: str | None) -> str | None:
    """The claimed number moved, appeared or went (each side a (value, unit) or None); None when it did not."""
    if old == new:
        return None
    if old is not None and new is not None and shown(*old) == shown(*new):
        return None  # no change a reader could see at the precision the site shows (81.2 ms → 81.2 ms)
    if old is not None and new is not None:
        return f"{value_word(new_status)} value {change_words(*old, *new, better)}"
    if new is not None:
        return f"{value_word(new_status)} value now {shown(*new)}"
    assert old is not None
    return f"no longer {value_word(old_status)} (was {shown(*old)})"


def bar_changed(old: tuple[float | None, str | None], new: tuple[float | None, str | None]) -> str | None:
    """The SOTA bar (value, unit) moved; None when it did not."""
    return None if old == new else f"SOTA bar {shown(*old)} → {shown(*new)}"


def added(status: str, value: tuple[float, str | None] | None, again: bool) -> str:
    """A dimension appeared (or came back)."""
    text = ("added again" if again else "added") + f" as {status}"
    return text + (f" at {shown(*value)}" if value is not None else "")
