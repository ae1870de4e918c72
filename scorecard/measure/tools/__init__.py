"""The benchmark tools' own output formats, read as each tool defines them.

One module per tool knows, from the tool's documentation and source, where its runs are, the unit of every
metric, which numbers are statistics it computed and which are spreads, what marks a failed run, and the keys
its writer always emits (its signature). `format:` in a selection reads an entry by the tool's own words; a file
carrying a whole signature is recognised, and a pointer or path into it is judged by the same semantics.

Lazy imports: the format modules and base.py (FORMATS, Picked, Request, Sibling, Inconsistent), when a file may be
a tool's or a selection names a format: a ledger whose JSON is no tool's output never loads them (issue 46).
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ...core.toolnames import TOOL_FORMATS

if TYPE_CHECKING:
    from ..selection import Where
    from .base import Inconsistent, Picked, Request, Sibling

    FORMATS: dict[str, ModuleType]

# Every format's signature holds one of these top-level keys, so a file with none of them is no tool's output and
# is answered without a format module (tests/test_tools.py holds every format to it).
KEYS = ("results", "benchmarks", "backend")
NAMES = TOOL_FORMATS
_BASE = ("Inconsistent", "Picked", "Request", "Sibling")

__all__ = ["FORMATS", "Inconsistent", "NAMES", "Picked", "Request", "Sibling", "alone_at", "behind", "failed_at",
           "interval_at", "partly", "pick", "pooled", "recognise", "recognised", "short_form", "stated_unit",
           "statistic_at", "unknown_at"]


@functools.cache
def formats() -> dict[str, ModuleType]:
    """The format modules by name, imported when first asked."""
    from . import asv, google_benchmark, hyperfine, pyperf, pytest_benchmark, serving

    found = {m.NAME: m for m in (hyperfine, pytest_benchmark, pyperf, google_benchmark, asv, serving)}
    assert tuple(found) == TOOL_FORMATS, "core.toolnames lists the formats measure.tools reads"
    return found


def __getattr__(name: str) -> Any:
    if name == "FORMATS":
        return formats()
    if name in _BASE:
        from . import base

        return getattr(base, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def pick(name: str, data: Any, req: Request) -> Picked:
    """The runs (or the tool's own statistic) a format selection names; refused with what is wrong."""
    fmt = formats()[name]
    if not fmt.recognise(data):
        other = recognise(data)
        said = f"; it looks like {other.NAME} output" if other is not None else ""
        raise req.refuse(f"not {name} output (it lacks the keys {name} always writes{said})",
                         f"write format: {other.NAME}" if other is not None else
                         "check the file is the tool's unmodified output (docs/formats.md lists each format's keys)")
    return fmt.pick(data, req)


def recognise(data: Any) -> ModuleType | None:
    """The format whose whole signature the file carries, or None."""
    if not (isinstance(data, dict) and any(key in data for key in KEYS)):
        return None
    return next((fmt for fmt in formats().values() if fmt.recognise(data)), None)


def recognised(art: Any) -> ModuleType | None:
    """recognise(art.data), asked once per artifact (the check, the conditions and the dates all ask)."""
    if not art.tool_known:
        fmt = recognise(art.data)
        art.tool, art.tool_known = (fmt.NAME if fmt is not None else None), True
    return formats()[art.tool] if art.tool is not None else None


def _ask(fmt: ModuleType | None, question: str, *args: Any) -> Any:
    """A recognised format's answer to one question (None where there is no format, or it has no such answer)."""
    answer = getattr(fmt, question, None)
    return answer(*args) if answer is not None else None


def stated_unit(data: Any, where: Where, fmt: ModuleType | None = None) -> tuple[str, str] | None:
    """(unit, how it is known) where a recognised tool defines the unit of the value at where."""
    return _ask(fmt or recognise(data), "unit_at", data, where)


def failed_at(data: Any, where: Where, fmt: ModuleType | None = None) -> str | None:
    """Why the value at where is not a measurement (a failed run or request, a warm-up), or None."""
    return _ask(fmt or recognise(data), "failures", data, where)


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    """(statistic, the runs it summarised) where a pointer or path names a statistic a recognised tool computed
    over runs that are in the file: then it is judged with those runs, one quantity, one verdict."""
    try:
        return _ask(recognise(data), "behind", data, where)
    except (KeyError, IndexError, TypeError, ValueError):
        return None


def unknown_at(data: Any, where: Where, fmt: ModuleType | None = None) -> str | None:
    """Why a place in a recognised file is not one of the tool's own numbers (a key the tool does not write)."""
    return _ask(fmt or recognise(data), "unknown", data, where)


def pooled(data: Any, where: list[Where], fmt: ModuleType | None = None) -> str | None:
    """Why values selected together come from entries the tool keeps apart (two commands, two tests)."""
    return _ask(fmt or recognise(data), "pools", data, where) if len(where) > 1 else None


def statistic_at(data: Any, where: Where, fmt: ModuleType | None = None) -> str | None:
    """The statistic a recognised tool computed at where, read alone where its runs are not in the file (asv's
    result: the median), or None."""
    return _ask(fmt or recognise(data), "own_statistic", data, where)


def interval_at(data: Any, where: Where, fmt: ModuleType | None = None) -> tuple[Where, Where] | None:
    """The places of the interval's ends a recognised tool writes for the value at where (asv's), or None."""
    return _ask(fmt or recognise(data), "interval", data, where)


def partly(data: Any, where: list[Where], fmt: ModuleType | None = None) -> str | None:
    """Why values selected from one entry are only some of its runs where the tool's runs span several arrays
    (one pyperf worker's values, one request's inter-token gaps)."""
    return _ask(fmt or recognise(data), "partial", data, where)


def alone_at(data: Any, where: Where) -> str | None:
    """Why a tool's statistic selected by pointer stands without the runs the file holds (a warning)."""
    return _ask(recognise(data), "alone", data, where)


def short_form(data: Any, where: Where) -> str | None:
    """The format: form that reads the entry a pointer or path names, in a recognised file."""
    fmt = recognise(data)
    if fmt is None or not where:
        return None
    try:
        return fmt.hint(data, where)
    except (KeyError, IndexError, TypeError, ValueError):
        return None
