"""pytest-benchmark's `--benchmark-json` output (pytest_benchmark/stats.py, session.py).

`benchmarks` holds one entry per test (`name`, `fullname` with the file, `params`), its `stats` in seconds per
iteration: `min`, `max`, `mean`, `median` are statistics of the rounds, `stddev`, `iqr`, `q1`, `q3`, `ld15iqr`,
`hd15iqr` spreads, `rounds` and `iterations` counts, `ops` the operations per second (1 / mean). The rounds
themselves are in `stats.data` only when the run was given `--benchmark-save-data`.
"""

from __future__ import annotations

from typing import Any

from ..selection import Where
from .base import Picked, Request, entry, has_keys, metric, runs_at, statistic

NAME = "pytest-benchmark"
SIGNATURE = ("machine_info", "commit_info", "benchmarks", "datetime", "version")
ENTRY = ("name", "fullname", "stats")
TIME_KEYS = ("min", "max", "mean", "stddev", "median", "iqr", "q1", "q3", "ld15iqr", "hd15iqr", "total", "data")
_FROM = "pytest-benchmark writes times in seconds"


def recognise(data: Any) -> bool:
    """pytest-benchmark's top-level keys, and every benchmark with a name and stats."""
    return has_keys(data, SIGNATURE) and isinstance(data["benchmarks"], list) and \
        all(has_keys(e, ENTRY) and isinstance(e["stats"], dict) for e in data["benchmarks"])


def names(data: Any, full: bool = False) -> list[tuple[str, Where]]:
    """Each benchmark by its name, or by its fullname (bench/test_a.py::test_x), which two files cannot share."""
    assert isinstance(data, dict)
    return [(str(e["fullname" if full else "name"]), ("benchmarks", i)) for i, e in enumerate(data["benchmarks"])]


def pick(data: Any, req: Request) -> Picked:
    at = entry(names(data, full=req.benchmark is not None and "::" in req.benchmark), req, NAME)
    metric(req, ["time"], NAME, "time")
    stats = (*at, "stats")
    runs = runs_at(data, (*stats, "data"))
    if runs is not None:
        return Picked(runs, True, "s", _FROM)
    fields = {s: (*stats, s) for s in ("min", "max", "mean", "median")}
    return statistic(req, fields, data, "s", _FROM,
                     "the file holds no rounds (saved without --benchmark-save-data)")


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """The unit pytest-benchmark defines for the value at where."""
    if len(where) >= 4 and where[0] == "benchmarks" and where[2] == "stats":
        if where[3] in TIME_KEYS and where[3] != "total":
            return "s", _FROM
        if where[3] == "ops":
            return "1/s", "pytest-benchmark's ops is per second"
    return None


NOT_MEASURED = {"total": "the sum of all rounds", "rounds": "a count of rounds", "iterations": "a count of loops",
                "iqr_outliers": "a count of outliers", "stddev_outliers": "a count of outliers"}


DESCRIPTIONS = {"machine_info": "describes the machine", "commit_info": "describes the commit",
                "datetime": "is a time stamp", "version": "is pytest-benchmark's version", "params": "is a parameter",
                "param": "is a parameter", "options": "is an option of the run"}


def failures(data: Any, where: Where) -> str | None:
    """A number that is not a measurement of one call: a total or a count in stats, the machine, a parameter."""
    if len(where) >= 4 and where[0] == "benchmarks" and where[2] == "stats" and where[3] in NOT_MEASURED:
        return f"stats.{where[3]} is {NOT_MEASURED[str(where[3])]}, not a measurement of one call"
    key = where[0] if where and where[0] != "benchmarks" else where[2] if len(where) > 2 else None
    if key in DESCRIPTIONS:
        return f"{key} {DESCRIPTIONS[str(key)]}; it is not a measurement"
    return None


def hint(data: Any, where: Where) -> str:
    name = data["benchmarks"][where[1]]["name"] if len(where) > 1 else "..."
    return f"format: pytest-benchmark, benchmark: {name!r}, stat: median"


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    """The statistic a pointer names (stats/median) and the rounds it summarised (stats/data)."""
    if len(where) == 4 and where[0] == "benchmarks" and where[2] == "stats" and where[3] in ("min", "max", "mean",
                                                                                            "median"):
        runs = runs_at(data, (*where[:3], "data"))
        return (str(where[3]), Picked(runs, True, "s", _FROM)) if runs else None
    return None


TOP_KEYS = frozenset({"machine_info", "commit_info", "benchmarks", "datetime", "version", "meta"})
ENTRY_KEYS = frozenset({"group", "name", "fullname", "params", "param", "extra_info", "options", "stats"})
STATS_KEYS = frozenset({*TIME_KEYS, "rounds", "iterations", "iqr_outliers", "stddev_outliers", "outliers", "ops"})


def unknown(data: Any, where: Where) -> str | None:
    """A key pytest-benchmark does not write, where a selection reaches (extra_info is the test's own)."""
    if not where:
        return None
    if where[0] not in TOP_KEYS:
        return f"'{where[0]}' is not a key pytest-benchmark writes"
    if where[0] == "benchmarks" and len(where) >= 3 and where[2] not in ENTRY_KEYS:
        return f"'{where[2]}' is not a key pytest-benchmark writes in a benchmark"
    if where[0] == "benchmarks" and len(where) >= 4 and where[2] == "stats" and where[3] not in STATS_KEYS:
        return f"'stats.{where[3]}' is not a statistic pytest-benchmark writes"
    return None


def pools(data: Any, where: list[Where]) -> str | None:
    """Values from two of pytest-benchmark's entries: each is its own test."""
    entries = {place[1] for place in where if len(place) > 1 and place[0] == "benchmarks"}
    return f"pools {len(entries)} pytest-benchmark tests" if len(entries) > 1 else None
