"""Google Benchmark's `--benchmark_format=json` output (src/json_reporter.cc, src/statistics.cc).

`benchmarks` holds one entry per run: with `--benchmark_repetitions=N`, N entries of one `run_name` with
`run_type: iteration` (the runs) and then its aggregates (`run_type: aggregate`, `aggregate_name` mean, median,
stddev, cv, or a user statistic). `real_time` and `cpu_time` are per iteration in `time_unit` (ns, us, ms, s);
every other number of an entry is a user counter, in a unit the file does not state. An aggregate with
`aggregate_unit: percentage` (cv) is a ratio. A run that failed carries `error_occurred`.
"""

from __future__ import annotations

from typing import Any

from ..selection import Where
from ..like import word_stat
from .base import Picked, Request, entry, has_keys, metric, statistic

NAME = "google-benchmark"
ENTRY = ("name", "run_name", "run_type", "iterations", "real_time", "cpu_time", "time_unit")
STANDARD = ("name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
            "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit", "aggregate_name",
            "aggregate_unit", "error_occurred", "error_message", "label", "big_o", "complexity", "rms")
UNITS = {"ns": "ns", "us": "us", "ms": "ms", "s": "s"}


def recognise(data: Any) -> bool:
    """A `context` object, and `benchmarks` whose entries carry Google Benchmark's keys."""
    if not (has_keys(data, ("context", "benchmarks")) and isinstance(data["context"], dict)
            and isinstance(data["benchmarks"], list)):
        return False
    return all(has_keys(e, ENTRY) or (has_keys(e, ("name", "run_name", "run_type")) and "error_occurred" in e)
               for e in data["benchmarks"])


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
    failed = failures(data, ("benchmarks", group[0]))
    if failed:
        raise req.refuse(failed, "fix the benchmark so it runs without error, and run it again", key="benchmark",
                         code="SC323")
    runs = [i for i in group if benches[i].get("run_type") == "iteration"]
    counters = sorted({k for i in group for k, v in benches[i].items() if k not in STANDARD
                       and isinstance(v, (int, float)) and not isinstance(v, bool)})
    name = metric(req, ["real_time", "cpu_time", *counters], NAME, "real_time")
    unit, unit_from = _unit(benches[group[0]], name)
    if len(runs) > 1:
        return Picked(tuple(("benchmarks", i, name) for i in runs), True, unit, unit_from)
    aggregates: dict[str, Where] = {str(benches[i].get("aggregate_name")): ("benchmarks", i, name) for i in group
                  if benches[i].get("run_type") == "aggregate" and word_stat(str(benches[i].get("aggregate_name")))
                  not in (None, "spread")}
    if len(runs) == 1 and not aggregates:
        return Picked((("benchmarks", runs[0], name),), False, unit, unit_from, None,
                      "a single run (no --benchmark_repetitions)")
    return statistic(req, aggregates, data, unit, unit_from, "the file holds the aggregates only, not the "
                     "repetitions (--benchmark_report_aggregates_only)")


def _unit(found: dict, name: str) -> tuple[str | None, str]:
    if name in ("real_time", "cpu_time"):
        unit = UNITS.get(str(found.get("time_unit")))
        return unit, f"its time_unit is {found.get('time_unit')!r}"
    return None, "Google Benchmark does not state a counter's unit"


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """The unit of real_time and cpu_time: the entry's time_unit (an aggregate in percentage: a ratio)."""
    if len(where) >= 3 and where[0] == "benchmarks" and where[2] in ("real_time", "cpu_time"):
        found = data["benchmarks"][where[1]]
        if found.get("aggregate_unit") == "percentage":
            return "x", "a percentage aggregate (aggregate_unit) is a ratio"
        unit = UNITS.get(str(found.get("time_unit")))
        return (unit, "the entry's time_unit says so") if unit else None
    return None


def failures(data: Any, where: Where) -> str | None:
    """Why the entry at where did not measure: Google Benchmark's error_occurred."""
    if len(where) < 2 or where[0] != "benchmarks":
        return None
    benches = data["benchmarks"]
    run_name = benches[where[1]].get("run_name")
    bad = [e for e in benches if e.get("run_name") == run_name and e.get("error_occurred")]
    if not bad:
        return None
    return f"the runs of {run_name!r} failed ({str(bad[0].get('error_message', 'error_occurred'))[:80]!r})"


def hint(data: Any, where: Where) -> str:
    name = data["benchmarks"][where[1]]["run_name"] if len(where) > 1 else "..."
    return f"format: google-benchmark, benchmark: {name!r}, metric: real_time, stat: median"
