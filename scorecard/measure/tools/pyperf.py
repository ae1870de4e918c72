"""pyperf's JSON (pyperf/_bench.py, doc/api.rst "JSON format").

`benchmarks` holds one entry per benchmark, its `metadata` (`name`, `unit`: second, byte or integer), or the
file's common `metadata` where every benchmark shares them; `runs` holds one entry per worker process: `warmups`
(`[loops, value]` pairs, not measurements), `values` (per loop, in the benchmark's unit), and calibration runs
that hold warm-ups only. The runs are every value of every run; pyperf's mean and median are theirs.
"""

from __future__ import annotations

from typing import Any

from ..selection import Where
from .base import Picked, Request, entry, has_keys

NAME = "pyperf"
UNITS = {"second": "s", "byte": "B"}


def recognise(data: Any) -> bool:
    """pyperf's `version` string and `benchmarks`, each with its list of runs."""
    return has_keys(data, ("version", "benchmarks")) and isinstance(data["version"], str) and \
        isinstance(data["benchmarks"], list) and bool(data["benchmarks"]) and \
        all(has_keys(b, ("runs",)) and isinstance(b["runs"], list) for b in data["benchmarks"])


def _metadata(data: dict, index: int, key: str) -> object:
    own = data["benchmarks"][index].get("metadata")
    if isinstance(own, dict) and key in own:
        return own[key]
    common = data.get("metadata")
    return common.get(key) if isinstance(common, dict) else None


def names(data: Any) -> list[tuple[str, Where]]:
    assert isinstance(data, dict)
    return [(str(_metadata(data, i, "name")), ("benchmarks", i)) for i in range(len(data["benchmarks"]))]


def pick(data: Any, req: Request) -> Picked:
    at = entry(names(data), req, NAME)
    if req.metric is not None:
        raise req.refuse("pyperf records one metric per benchmark (its unit is in its metadata)",
                         "remove metric:", key="metric")
    assert isinstance(data, dict)
    runs = data["benchmarks"][at[1]]["runs"]
    places = tuple(("benchmarks", at[1], "runs", r, "values", k) for r, run in enumerate(runs)
                   if isinstance(run, dict) and isinstance(run.get("values"), list)
                   for k in range(len(run["values"])))  # every value: one that is not a number is refused
    if not places:
        raise req.refuse(f"benchmark {req.benchmark!r} holds no values (only warm-ups or calibration runs)",
                         "run pyperf without --calibrate-loops, or with more values", key="benchmark")
    for r in range(len(runs)):
        other = _other_run(data, int(at[1]), r)
        if other is not None:
            raise req.refuse(other[1], "cite the file as pyperf wrote it", key="benchmark",
                             code="SC511" if other[0] == "unit" else "SC322")
    if len(places) != len(_every_value(runs)):
        raise req.refuse(f"a run of benchmark {req.benchmark!r} holds values that are not a list",
                         "cite the file as pyperf wrote it: every run is a number", key="benchmark", code="SC308")
    unit, unit_from = _unit(data, int(at[1]))
    return Picked(places, True, unit, unit_from)


def _other_run(data: dict, index: int, r: int) -> tuple[str, str] | None:
    """Why run r is not a run of benchmark index: its metadata states another unit or name (pyperf writes a run's
    metadata there only where it differs from its benchmark's, and never adds a run of another benchmark)."""
    run = data["benchmarks"][index]["runs"][r]
    own = run.get("metadata") if isinstance(run, dict) else None
    if not isinstance(own, dict):
        return None
    for key, theirs in (("unit", _unit_text(data, index)), ("name", _metadata(data, index, "name"))):
        if key in own and str(own[key]) != str(theirs):
            return key, f"a run states another {key} ({own[key]}) than its benchmark ({theirs})"
    return None


def _unit_text(data: dict, index: int) -> str:
    stated = _metadata(data, index, "unit")
    return "second" if stated is None else str(stated)  # pyperf's default unit


def _unit(data: dict, index: int) -> tuple[str | None, str]:
    """pyperf's unit for a benchmark: second (its default) is s, byte is B, integer a plain count (the typed unit
    stands); another word is compared by its spelling."""
    text = _unit_text(data, index)
    unit = UNITS.get(text, None if text == "integer" else text)
    return unit, f"its metadata unit is {text!r}"


MEMORY = ("mem_max_rss", "mem_peak_pagefile_usage", "command_max_rss")  # metadata that measures: bytes


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """The benchmark's unit for a value or warm-up inside its runs; bytes for the memory pyperf's metadata records."""
    if where and "metadata" in where[:5] and where[-1] in MEMORY:
        return "B", f"pyperf records {where[-1]} in bytes"
    if len(where) >= 5 and where[0] == "benchmarks" and where[2] == "runs" and where[4] in ("values", "warmups"):
        unit, how = _unit(data, int(where[1]))
        return (unit, how) if unit else None
    return None


def failures(data: Any, where: Where) -> str | None:
    """Warm-ups are not runs: a selection inside them reads values pyperf throws away; nor is metadata."""
    if len(where) >= 5 and where[0] == "benchmarks" and where[2] == "runs" and where[4] == "warmups":
        return "the warm-ups are not measurements (pyperf leaves them out of every statistic)"
    if "metadata" in where[:5] and where[-1] not in MEMORY:  # the file's, a benchmark's or a run's
        return "pyperf's metadata (loops, a run's duration, the machine) is not a measurement of the benchmark"
    if len(where) >= 4 and where[0] == "benchmarks" and where[2] == "runs" and isinstance(where[1], int) and \
            isinstance(where[3], int):
        other = _other_run(data, where[1], where[3])
        return other[1] if other else None
    return None


def hint(data: Any, where: Where) -> str:
    name = _metadata(data, where[1], "name") if len(where) > 1 and isinstance(where[1], int) else "..."
    return f"format: pyperf, benchmark: {name!r}, stat: median"


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    return None  # pyperf writes no statistics: its readers compute them


def pools(data: Any, where: list[Where]) -> str | None:
    """Values from two of pyperf's benchmarks: each is its own (its name is in its metadata, so the entries look
    alike to a reader that compares their text)."""
    entries = {place[1] for place in where if len(place) > 1 and place[0] == "benchmarks"}
    return f"pools the values of {len(entries)} pyperf benchmarks" if len(entries) > 1 else None


def _every_value(runs: list) -> set[tuple[int, int | str]]:
    """Every value of every run, by (run, index); a run's values edited into a number counts as one, "values"."""
    out: set[tuple[int, int | str]] = set()
    for r, run in enumerate(runs):
        values = run.get("values") if isinstance(run, dict) else None
        out.update([(r, k) for k in range(len(values))] if isinstance(values, list) else
                   [(r, "values")] if isinstance(run, dict) and "values" in run else [])
    return out


def partial(data: Any, where: list[Where]) -> str | None:
    """Values of some of a benchmark's runs only (one worker's, or each worker's first): pyperf's runs are every
    value of every worker, and a worker is not a repetition to choose."""
    taken: dict[int, set[tuple[int, int | str]]] = {}
    for place in where:
        if len(place) < 5 or place[0] != "benchmarks" or place[2] != "runs" or place[4] != "values" or \
                not isinstance(place[1], int) or not isinstance(place[3], int):
            continue
        values = data["benchmarks"][place[1]]["runs"][place[3]]["values"]
        taken.setdefault(place[1], set()).update(
            [(place[3], place[5])] if len(place) > 5 else [(place[3], k) for k in range(len(values))]
            if isinstance(values, list) else [(place[3], "values")])  # a number edited in for the list
    for index, got in sorted(taken.items()):
        every = _every_value(data["benchmarks"][index]["runs"])
        if got != every:
            return f"takes {len(got)} of the {len(every)} values of benchmark {_metadata(data, index, 'name')!r}"
    return None
