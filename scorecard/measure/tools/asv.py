"""asv's result files (asv/results.py, format version 2) and the `benchmarks.json` beside them.

`results` maps each benchmark to a row of the columns `result_columns` names: `result` (one number per
parameter combination, the median of its samples; null where it failed), `params` (the parameters' values as
written, combined in order), `stats_ci_99_a`/`stats_ci_99_b` (the median's 99 % interval), `stats_q_25`/
`stats_q_75` (quartiles: spreads), and `samples` (each combination's runs, with `--record-samples`). The unit of
a benchmark is in `benchmarks.json` at the top of asv's results folder (`seconds`, `bytes`, or a track_
benchmark's own); where the evidence keeps that layout it is read from there, else the typed unit stands.
"""

from __future__ import annotations

from typing import Any

import itertools
import posixpath

from ..evidence import is_number
from ..selection import Where
from .base import Picked, Request, entry, has_keys, runs_at

NAME = "asv"
SIGNATURE = ("commit_hash", "env_name", "date", "params", "python", "requirements", "result_columns", "results",
             "version")
UNITS = {"seconds": "s", "bytes": "B"}
_KINDS = (("timeraw_", "s"), ("time_", "s"), ("peakmem_", "B"), ("mem_", "B"))
UNIT_WORDS = {"s": "seconds", "B": "bytes"}
NOT_MEASURED = {"stats_ci_99_a": "an end of asv's interval (name it with low: and high:)",
                "stats_ci_99_b": "an end of asv's interval (name it with low: and high:)",
                "stats_q_25": "a quartile (a spread)", "stats_q_75": "a quartile (a spread)",
                "stats_number": "a count of loops", "stats_repeat": "a count of samples",
                "started_at": "a time stamp", "duration": "how long asv took to run it", "params": "a parameter",
                "version": "a version"}


def recognise(data: Any) -> bool:
    """asv's top-level keys, and a row of columns per benchmark."""
    return has_keys(data, SIGNATURE) and isinstance(data["results"], dict) and \
        isinstance(data["result_columns"], list) and "result" in data["result_columns"]


def _column(data: dict, name: str) -> int | None:
    columns = data["result_columns"]
    return columns.index(name) if name in columns else None


def _combinations(data: dict, bench: str) -> list[tuple[str, ...]]:
    row = data["results"][bench]
    at = _column(data, "params")
    params = row[at] if isinstance(row, list) and at is not None and at < len(row) else None
    if not isinstance(params, list) or not params:
        return [()]
    return list(itertools.product(*[[str(v) for v in values] if isinstance(values, list) else [str(values)]
                                    for values in params]))


def names(data: Any) -> list[tuple[str, Where]]:
    """Each benchmark, and each parameter combination as asv shows it: name(10, 'a')."""
    assert isinstance(data, dict)
    out: list[tuple[str, Where]] = []
    for bench in sorted(data["results"]):
        combos = _combinations(data, bench)
        for i, combo in enumerate(combos):
            out.append((f"{bench}({', '.join(combo)})" if combo else bench, ("results", bench, i)))
    return out


def pick(data: Any, req: Request) -> Picked:
    assert isinstance(data, dict)
    _, bench, at = entry(names(data), req, NAME)
    combo = int(at)
    if req.metric is not None:
        raise req.refuse("asv records one metric per benchmark", "remove metric:", key="metric")
    unit, unit_from = _unit(data, str(bench), req)
    also = (_described_in(req.rel),) if unit is not None else ()
    samples, result = _column(data, "samples"), _column(data, "result")
    assert result is not None  # recognised
    runs = runs_at(data, ("results", bench, samples, combo)) if samples is not None else None
    if runs is not None:
        return Picked(runs, True, unit, unit_from, also=also)
    place = ("results", bench, result, combo)
    found = data["results"][bench]
    value = found[result][combo] if isinstance(found, list) and result < len(found) and \
        isinstance(found[result], list) and combo < len(found[result]) else None
    if not is_number(value):
        raise req.refuse(f"asv recorded no result for {req.benchmark or bench!r} (it failed, or was skipped)",
                         "fix the benchmark and run asv again", key="benchmark", code="SC323")
    if req.stat != "median":
        raise req.refuse(f"the file holds no samples (run asv with --record-samples), and asv's result is the "
                         f"median, not the {req.stat}", "write stat: median, or record the samples", key="stat")
    return Picked((place,), False, unit, unit_from, "median",
                  "the file holds no samples (run without --record-samples)", also=also)


def _described_in(rel: str) -> str:
    """Where asv's layout keeps benchmarks.json: at the top of the results folder, above the machine folders."""
    return posixpath.join(posixpath.dirname(posixpath.dirname(rel)), "benchmarks.json")


def by_name(bench: str) -> str | None:
    """The unit asv fixes by a benchmark's kind, its name's prefix: time_ and timeraw_ are seconds, mem_ and
    peakmem_ bytes; a track_ benchmark states its own (in benchmarks.json)."""
    word = bench.rsplit(".", 1)[-1]
    return next((unit for prefix, unit in _KINDS if word.startswith(prefix)), None)


def _unit(data: dict, bench: str, req: Request) -> tuple[str | None, str]:
    fixed = by_name(bench)
    if fixed is not None:
        return fixed, f"asv measures a {bench.rsplit('.', 1)[-1].split('_')[0]}_ benchmark in {UNIT_WORDS[fixed]}"
    described = req.sibling(_described_in(req.rel))
    info = described.get(bench) if isinstance(described, dict) else None
    stated = info.get("unit") if isinstance(info, dict) else None
    if not isinstance(stated, str) or not stated.strip():
        return None, "no benchmarks.json beside the results folder states its unit"
    return UNITS.get(stated, "{" + stated + "}" if stated.isidentifier() else stated), \
        f"benchmarks.json gives its unit as {stated!r}"


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """The unit a time_ or mem_ benchmark's result and samples are in (a track_ benchmark's is in another file)."""
    if len(where) >= 3 and where[0] == "results" and _column(data, "result") == where[2] or \
            len(where) >= 3 and where[0] == "results" and _column(data, "samples") == where[2]:
        fixed = by_name(str(where[1]))
        if fixed is not None:
            return fixed, f"asv measures {str(where[1]).rsplit('.', 1)[-1]} in {UNIT_WORDS[fixed]}"
    return None


def failures(data: Any, where: Where) -> str | None:
    """A column that is not a measurement: an interval's end, a quartile, a count, a time stamp."""
    if len(where) == 3 and where[0] == "results" and isinstance(data, dict) and where[2] == _column(data, "result"):
        return "the result column holds asv's median of each parameter combination, not runs"
    if len(where) >= 3 and where[0] == "results" and isinstance(data, dict):
        for name, what in NOT_MEASURED.items():
            if _column(data, name) == where[2]:
                return f"the column {name} is {what}, not a measurement"
    if where and where[0] not in ("results", "meta"):
        return f"asv's {where[0]} (the run's date, build durations, the machine) is not a measurement of a benchmark"
    return None


def own_statistic(data: Any, where: Where) -> str | None:
    """asv's result for one parameter combination is the median of its samples."""
    return "median" if len(where) == 4 and where[0] == "results" and where[2] == _column(data, "result") else None


def interval(data: Any, where: Where) -> tuple[Where, Where] | None:
    """The ends of asv's 99 % interval for the result of one parameter combination."""
    low, high = _column(data, "stats_ci_99_a"), _column(data, "stats_ci_99_b")
    if len(where) != 4 or where[0] != "results" or where[2] != _column(data, "result") or low is None or high is None:
        return None
    return ("results", where[1], low, where[3]), ("results", where[1], high, where[3])


def hint(data: Any, where: Where) -> str:
    return f"format: asv, benchmark: {where[1]!r}, stat: median"


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    """asv's result (the median) for one parameter combination and the samples it is the median of."""
    if len(where) != 4 or where[0] != "results" or where[2] != _column(data, "result"):
        return None
    samples = _column(data, "samples")
    runs = runs_at(data, ("results", where[1], samples, where[3])) if samples is not None else None
    fixed = by_name(str(where[1]))
    return ("median", Picked(runs, True, fixed, "asv's samples")) if runs and fixed else None


def pools(data: Any, where: list[Where]) -> str | None:
    """Values from two asv benchmarks or parameter combinations."""
    entries = {(place[1], place[3] if len(place) > 3 else None) for place in where
               if len(place) > 2 and place[0] == "results"}
    return f"pools {len(entries)} asv benchmarks or parameter combinations" if len(entries) > 1 else None
