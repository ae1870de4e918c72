"""What every tool format gives the reader: the places of one entry's runs (or of the one statistic the tool
computed), the unit the tool defines for them, and why a value stands alone when it does.

A format module (hyperfine, pytest_benchmark, ...) knows one tool's output from the tool's own documentation and
source; this module holds what they share: the picked values, the refusals, and the entry lookup by name.
"""

from __future__ import annotations

from typing import Any

from collections.abc import Callable

from ...core.structs import frozen
from ...core.nearest import close_matches
from ..evidence import JsonValue, is_number
from ..selection import Loc, Refused, Where, refuse, value_at

Sibling = Callable[[str], JsonValue | None]  # another artifact of the ledger by its path (asv's benchmarks.json)


@frozen
class Picked:
    """What a tool's format selects for one benchmark and metric."""

    where: tuple[Where, ...]  # the runs' places, or the one value's place
    runs: bool  # whether the values are runs (else one value the tool computed or measured)
    unit: str | None  # the unit the tool defines for them (None: the tool does not say; the typed unit stands)
    unit_from: str  # how the unit is known, for messages: "hyperfine writes times in seconds"
    stat: str | None = None  # a single value's statistic as the tool computed it (median, mean, p99), or None
    alone: str = ""  # why a value stands without its runs, shown beside it ("the file holds no runs: ...")
    warn: bool = False  # whether standing alone deserves a warning (runs the file holds are not measurements)
    also: tuple[str, ...] = ()  # other files of the ledger read to know it (asv's benchmarks.json, for the unit)
    failures: int = 0  # failed requests beside the runs (where): each enters at the slow end (serving, issue 41)


class Inconsistent(Exception):
    """A statistic whose runs are in the file but cannot be read as its runs (other units, other benchmarks pooled
    under its name): refused, never read as the statistic alone."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


@frozen
class Request:
    """A format selection as the record writes it."""

    benchmark: str | None
    metric: str | None
    stat: str  # median unless the record says otherwise
    loc: Loc  # the selection's place in the record
    rel: str  # the evidence file, for messages
    sibling: Sibling

    def refuse(self, message: str, hint: str, key: str = "format", code: str = "SC322") -> Refused:
        return refuse(code, self.loc + (key,), f"{self.rel}: {message}", hint)


def runs_at(data: Any, place: Where) -> tuple[Where, ...] | None:
    """The places of every element of a non-empty array of runs at place, or None where there is none (each run is
    checked to be a number by the reader: a null or a string among runs is refused, never skipped)."""
    try:
        found: Any = value_at(data, place)
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    if not isinstance(found, list) or not found:
        return None
    return tuple((*place, i) for i in range(len(found)))


def number_at(data: Any, place: Where) -> bool:
    """Whether a finite number sits at place."""
    try:
        return is_number(value_at(data, place))
    except (KeyError, IndexError, TypeError, ValueError):
        return False


def entry(names: list[tuple[str, Where]], req: Request, tool: str, noun: str = "benchmark") -> Where:
    """The place of the entry the record names (benchmark:), or of the only one when it names none."""
    if req.benchmark is None:
        if len(names) == 1:
            return names[0][1]
        listed = ", ".join(repr(n) for n, _ in names[:8]) + (", ..." if len(names) > 8 else "")
        raise req.refuse(f"{tool} output holds {len(names)} {noun}s; benchmark: must name one ({listed})",
                         f"add benchmark: {names[0][0]!r}" if names else "check that this is the file meant",
                         key="format")
    found = [where for name, where in names if name == req.benchmark]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise req.refuse(f"{len(found)} {noun}s are named {req.benchmark!r}", "name the entry by a name only it "
                         "has (pytest-benchmark: its fullname), or cite a file that holds one of them",
                         key="benchmark")
    close = close_matches(req.benchmark, [n for n, _ in names], n=1)
    hint = f"did you mean {close[0]!r}?" if close else \
        "known: " + ", ".join(repr(n) for n, _ in names[:8]) + (", ..." if len(names) > 8 else "")
    raise req.refuse(f"no {noun} named {req.benchmark!r} in the {tool} output", hint, key="benchmark")


def metric(req: Request, known: list[str], tool: str, default: str) -> str:
    """The metric the record names, or the tool's default; refused when the tool writes no such metric."""
    name = req.metric if req.metric is not None else default
    if name not in known:
        close = close_matches(name, known, n=1)
        raise req.refuse(f"{tool} writes no metric {name!r} for this entry",
                         f"did you mean {close[0]!r}?" if close else "metric: is one of " + ", ".join(known),
                         key="metric")
    return name


def statistic(req: Request, fields: dict[str, Where], data: Any, unit: str | None, unit_from: str,
              alone: str) -> Picked:
    """The tool's own statistic named by stat:, as a single value, where the file holds no runs."""
    place = fields.get(req.stat)
    if place is None or not number_at(data, place):
        offered = sorted(s for s, p in fields.items() if number_at(data, p))
        raise req.refuse(f"{alone}, and the tool reports no {req.stat} here",
                         ("stat: is one of " + ", ".join(offered) + " (the statistics the tool reports), or record "
                          "the runs") if offered else "record the runs (see docs/formats.md)", key="stat")
    return Picked((place,), False, unit, unit_from, req.stat, alone)


def has_keys(node: Any, keys: tuple[str, ...]) -> bool:
    """Whether node is an object holding every key."""
    return isinstance(node, dict) and all(k in node for k in keys)
