"""Google Benchmark's `--benchmark_format=json` output (src/json_reporter.cc, src/statistics.cc).

`benchmarks` holds one entry per run: with `--benchmark_repetitions=N`, N entries of one `run_name` with
`run_type: iteration` (the runs) and then its aggregates (`run_type: aggregate`, `aggregate_name` mean, median,
stddev, cv, or a user statistic). `real_time` and `cpu_time` are per iteration in `time_unit` (ns, us, ms, s);
every other number of an entry is a user counter, in a unit the file does not state. An aggregate with
`aggregate_unit: percentage` (cv) is a ratio. A run that failed carries `error_occurred`; one skipped
(`SkipWithMessage`) carries `skipped`, its times zero.
"""

from __future__ import annotations

import json
from typing import Any

from ..selection import Where
from ..like import word_stat
from .base import Inconsistent, Picked, Request, entry, has_keys, metric, statistic

NAME = "google-benchmark"
STANDARD = ("name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
            "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
            "aggregate_unit", "error_occurred", "error_message", "label", "big_o", "complexity", "rms")
UNITS = {"ns": "ns", "us": "us", "ms": "ms", "s": "s"}


def recognise(data: Any) -> bool:
    """A `context` object, and `benchmarks` whose entries carry a name, a run_name and a run_type (complexity
    entries, BigO and RMS, included)."""
    if not (has_keys(data, ("context", "benchmarks")) and isinstance(data["context"], dict)
            and isinstance(data["benchmarks"], list) and data["benchmarks"]):
        return False
    return all(has_keys(e, ("name", "run_name", "run_type")) for e in data["benchmarks"])


def names(data: Any) -> list[tuple[str, Where]]:
    """One name per run_name, at its first entry."""
    assert isinstance(data, dict)
    out: dict[str, Where] = {}
    for i, e in enumerate(data["benchmarks"]):
        out.setdefault(str(e["run_name"]), ("benchmarks", i))
    return list(out.items())


def pick(data: Any, req: Request) -> Picked:
    first = entry(names(data), req, NAME)
    benches = data["benchmarks"]
    run_name = benches[first[1]]["run_name"]
    group = [i for i, e in enumerate(benches) if e.get("run_name") == run_name]
    _check_group(data, group, req)
    runs = [i for i in group if benches[i].get("run_type") == "iteration"]
    counters = sorted({k for i in group for k, v in benches[i].items() if k not in STANDARD
                       and isinstance(v, (int, float)) and not isinstance(v, bool)})
    name = metric(req, ["real_time", "cpu_time", *counters], NAME, "real_time")
    if len(runs) > 1:
        unit, unit_from = _one_unit(benches, runs, name, req)
        return Picked(tuple(("benchmarks", i, name) for i in runs), True, unit, unit_from)
    aggregates = _aggregates(benches, group, req)
    if len(runs) == 1 and not aggregates:
        unit, unit_from = _one_unit(benches, runs, name, req)
        return Picked((("benchmarks", runs[0], name),), False, unit, unit_from, None,
                      "a single run (no --benchmark_repetitions)")
    places: dict[str, Where] = {stat: ("benchmarks", i, name) for stat, i in aggregates.items()}
    unit, unit_from = _one_unit(benches, [aggregates[req.stat]] if req.stat in aggregates else [], name, req)
    return statistic(req, places, data, unit, unit_from, "the file holds the aggregates only, not the "
                     "repetitions (--benchmark_report_aggregates_only)")


def _check_group(data: Any, group: list[int], req: Request) -> None:
    """One benchmark's entries: none failed, and one family (two families cannot share a run_name)."""
    benches = data["benchmarks"]
    failed = failures(data, ("benchmarks", group[0]), whole=True)
    if failed:
        raise req.refuse(failed, "fix the benchmark so it runs without error, and run it again", key="benchmark",
                         code="SC323")
    families = {_family(benches[i]) for i in group if benches[i].get("run_type") == "iteration"}
    if len(families) > 1:
        raise req.refuse(f"{len(families)} benchmarks share the run_name {benches[group[0]]['run_name']!r}",
                         "give the benchmarks different names, or cite a file that holds one of them",
                         key="benchmark")


def _aggregates(benches: list, group: list[int], req: Request) -> dict[str, int]:
    """The statistics Google Benchmark computed over the repetitions, by name (spreads and ratios left out)."""
    out: dict[str, int] = {}
    for i in group:
        found = benches[i]
        name = str(found.get("aggregate_name"))
        if found.get("run_type") != "aggregate" or word_stat(name) in (None, "spread") or \
                found.get("aggregate_unit", "time") != "time":
            continue
        if name in out:
            raise req.refuse(f"two aggregates of {found.get('run_name')!r} are named {name!r}",
                             "give the user statistic another name, or cite the repetitions", key="stat")
        out[name] = i
    return out


def _one_unit(benches: list, entries: list[int], name: str, req: Request) -> tuple[str | None, str]:
    """The time unit of the entries read (every one must be in the same unit), or None for a counter."""
    if name not in ("real_time", "cpu_time"):
        return None, "Google Benchmark does not state a counter's unit"
    stated = {str(benches[i].get("time_unit")) for i in entries}
    if len(stated) > 1:
        raise req.refuse(f"the repetitions of {benches[entries[0]].get('run_name')!r} are in different time units "
                         f"({', '.join(sorted(stated))})", "run the benchmark again with one unit for all its "
                         "repetitions", key="benchmark", code="SC511")
    text = stated.pop() if stated else "ns"
    unit = UNITS.get(text)
    if unit is None:
        raise req.refuse(f"time_unit {text!r} is not one Google Benchmark writes (ns, us, ms, s)",
                         "cite the file as the tool wrote it", key="benchmark", code="SC511")
    return unit, f"its time_unit is {text!r}"


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """The unit of real_time and cpu_time: the entry's time_unit (an aggregate in percentage: a ratio)."""
    if len(where) >= 3 and where[0] == "benchmarks" and where[2] in ("real_time", "cpu_time"):
        found = data["benchmarks"][where[1]]
        if found.get("aggregate_unit") == "percentage":
            return "x", "a percentage aggregate (aggregate_unit) is a ratio"
        stated = found.get("time_unit")
        return (UNITS.get(str(stated), str(stated)), "the entry's time_unit says so") if isinstance(stated, str) \
            else None
    return None


def _family(found: dict) -> tuple[str, str]:
    """The benchmark an entry is a run of, as text (a value edited into a list still compares)."""
    return json.dumps(found.get("family_index")), json.dumps(found.get("per_family_instance_index"))


COUNTS = {"family_index": "an index", "per_family_instance_index": "an index", "repetitions": "a count",
          "repetition_index": "an index", "threads": "a count", "iterations": "a count of loops"}


def failures(data: Any, where: Where, whole: bool = False) -> str | None:
    """Why the entry at where did not measure: Google Benchmark's error_occurred or skipped (on it; with whole, on
    any entry of its run_name); and numbers that are not measurements (the machine's context, counts, indexes)."""
    if where and where[0] == "context":
        return "the context describes the machine; it is not a measurement"
    if len(where) > 2 and where[0] == "benchmarks" and where[2] in COUNTS:
        return f"{where[2]} is {COUNTS[str(where[2])]}, not a measurement"
    if len(where) < 2 or where[0] != "benchmarks":
        return None
    benches = data["benchmarks"]
    run_name = benches[where[1]].get("run_name")
    entries = [e for e in benches if e.get("run_name") == run_name] if whole else [benches[where[1]]]
    bad = [e for e in entries if e.get("error_occurred") or e.get("skipped") is True]  # a counter may be "skipped"
    if not bad:
        return None
    if not bad[0].get("error_occurred"):
        return f"the runs of {run_name!r} were skipped ({str(bad[0].get('skip_message', 'skipped'))[:80]!r})"
    return f"the runs of {run_name!r} failed ({str(bad[0].get('error_message', 'error_occurred'))[:80]!r})"


def hint(data: Any, where: Where) -> str:
    name = data["benchmarks"][where[1]]["run_name"] if len(where) > 1 else "..."
    return f"format: google-benchmark, benchmark: {name!r}, metric: real_time, stat: median"


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    """An aggregate a pointer names (the median entry's real_time) and the repetitions it summarised."""
    if len(where) != 3 or where[0] != "benchmarks" or where[2] not in ("real_time", "cpu_time"):
        return None
    benches = data["benchmarks"]
    found = benches[where[1]]
    stat = word_stat(str(found.get("aggregate_name")))
    if found.get("run_type") != "aggregate" or stat in (None, "spread", "extreme") or \
            found.get("aggregate_unit", "time") != "time":
        return None
    group = [i for i, e in enumerate(benches) if e.get("run_name") == found.get("run_name")]
    runs = [i for i in group if benches[i].get("run_type") == "iteration"]
    if len(runs) < 2:
        return None  # the repetitions are not in the file: the aggregate stands alone
    failed = failures(data, where, whole=True)
    if failed:
        raise Inconsistent("SC323", f"{failed}: the aggregate is judged with its repetitions, and a failed one is "
                           "not a measurement", "fix the benchmark so it runs without error, and run it again")
    families = {_family(benches[i]) for i in runs}
    if len(families) > 1:
        raise Inconsistent("SC322", f"{len(families)} benchmarks share the run_name {found.get('run_name')!r}: its "
                           "aggregate cannot be judged with its repetitions", "give the benchmarks different names")
    units = {str(benches[i].get("time_unit")) for i in [*runs, where[1]]}
    if len(units) > 1 or next(iter(units)) not in UNITS:
        raise Inconsistent("SC511", f"the aggregate and the repetitions of {found.get('run_name')!r} are in "
                           f"different time units ({', '.join(sorted(units))})", "cite the file as the tool wrote it")
    return str(stat), Picked(tuple(("benchmarks", i, where[2]) for i in runs), True, UNITS[units.pop()],
                             f"its time_unit is {found.get('time_unit')!r}")


def pools(data: Any, where: list[Where]) -> str | None:
    """Values from two Google Benchmark benchmarks: a family and instance of its own, even under one run_name."""
    benches = data["benchmarks"]
    entries = {(json.dumps(benches[place[1]].get("run_name")), *_family(benches[place[1]])) for place in where
               if len(place) > 1 and place[0] == "benchmarks" and isinstance(place[1], int)}
    return f"pools the runs of {len(entries)} Google Benchmark benchmarks (run_name, family_index or " \
        "per_family_instance_index differ)" if len(entries) > 1 else None
