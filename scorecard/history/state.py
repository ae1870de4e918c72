"""What the site shows of a dimension at one commit, and what changed between two such states, in words."""

from __future__ import annotations


from ..core.structs import frozen
from . import wording


@frozen
class State:
    """What the site shows of a dimension at one commit."""

    category: str
    status: str
    value: float | None
    unit: str | None
    bar: float | None
    bar_unit: str | None
    claim: str  # as the page showed it: placeholders filled
    better: str | None = None
    note: str = ""
    wording: str = ""  # the claim as typed: a change of the numbers its placeholders show is not a rewording


def measured(state: State) -> tuple[float, str | None] | None:
    """A state's measured value and unit, or None where it has no number."""
    return None if state.value is None else (state.value, state.unit)


def differences(old: State, new: State) -> list[tuple[str, str]]:
    """What changed between two states, as (kind, words)."""
    out = []
    if old.category != new.category:
        out.append(("moved", wording.moved(old.category, new.category)))
    if old.status != new.status:
        out.append(("status", wording.status_changed(old.status, new.status)))
    value = wording.value_changed(old.status, measured(old), new.status, measured(new), new.better)
    if value is not None:
        out.append(("value", value))
    bar = wording.bar_changed((old.bar, old.bar_unit), (new.bar, new.bar_unit))
    if bar is not None:
        out.append(("bar", bar))
    if old.wording != new.wording and old.claim != new.claim:
        out.append(("claim", f"claim reworded: “{old.claim}” → “{new.claim}”"))
    if old.note != new.note:
        out.append(("note", "note reworded"))
    return out
