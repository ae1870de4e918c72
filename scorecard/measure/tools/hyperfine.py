"""hyperfine's `--export-json` output (src/export/json.rs, src/benchmark/benchmark_result.rs).

`results` holds one entry per command: `times` is every timed run in seconds (warm-ups and preparation runs are
not in it), `exit_codes` each run's exit code, `mean`, `median`, `min` and `max` the statistics of `times`,
`stddev` their spread, `user` and `system` the mean user and system CPU time (seconds). Later versions add
`memory_usage_byte` (each run's peak memory, bytes). A parameter scan gives one entry per value, its command
with the value substituted, and `parameters` naming it.
"""

from __future__ import annotations

from typing import Any

from ..selection import Where
from .base import Picked, Request, entry, has_keys, metric, runs_at, statistic

NAME = "hyperfine"
SIGNATURE = ("command", "mean", "stddev", "median", "user", "system", "min", "max", "times")
CORE = ("command", "times")
NOT_MEASURED = {"exit_codes": "the exit codes are not measurements", "parameters": "a parameter is not a measurement"}
TIME_KEYS = ("mean", "stddev", "median", "min", "max", "user", "system", "times")
_FROM = "hyperfine writes times in seconds"


def recognise(data: Any) -> bool:
    """Every entry of a non-empty `results` holds hyperfine's core: a command and its times (the statistics
    beside them may be edited away; the times are still seconds)."""
    results = data.get("results") if isinstance(data, dict) else None
    return isinstance(results, list) and bool(results) and \
        all(has_keys(e, CORE) and isinstance(e["times"], list) for e in results)


def names(data: Any) -> list[tuple[str, Where]]:
    assert isinstance(data, dict)
    return [(str(e["command"]), ("results", i)) for i, e in enumerate(data["results"])]


def pick(data: Any, req: Request) -> Picked:
    at = entry(names(data), req, NAME, "command")
    found = data["results"][at[1]]  # recognised
    known = ["time", "user", "system"] + (["memory"] if "memory_usage_byte" in found else [])
    name = metric(req, known, NAME, "time")
    if name in ("user", "system"):
        if req.stat != "mean":
            raise req.refuse(f"hyperfine reports only the mean {name} CPU time", f"write stat: mean for metric: "
                             f"{name}, or claim the wall-clock time (metric: time)", key="stat")
        return Picked(((*at, name),), False, "s", _FROM, "mean", f"hyperfine records only the mean {name} time")
    key, unit, unit_from = ("times", "s", _FROM) if name == "time" else \
        ("memory_usage_byte", "B", "hyperfine writes memory in bytes")
    failed = failures(data, (*at, key))
    if failed:
        raise req.refuse(failed, "fix the command so every run succeeds, and run the benchmark again "
                         "(hyperfine --ignore-failure times failed runs too)", key="benchmark", code="SC323")
    runs = runs_at(data, (*at, key))
    if runs is not None:
        return Picked(runs, True, unit, unit_from)
    fields = {s: (*at, s) for s in ("mean", "median", "min", "max")} if name == "time" else {}
    return statistic(req, fields, data, unit, unit_from, "the file holds no runs (times)")


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """The unit hyperfine defines for the value at where."""
    if len(where) >= 3 and where[0] == "results" and where[2] in TIME_KEYS:
        return "s", _FROM
    if len(where) >= 3 and where[0] == "results" and where[2] == "memory_usage_byte":
        return "B", "hyperfine writes memory in bytes"
    return None


def failures(data: Any, where: Where) -> str | None:
    """Why the value at where is not a measurement: an exit code, or runs of a command that failed (a command that
    exited non-zero, or was killed by a signal: null, was still timed)."""
    if len(where) < 3 or where[0] != "results":
        return None
    if where[2] in NOT_MEASURED:
        return NOT_MEASURED[str(where[2])]
    if where[2] not in ("times", "memory_usage_byte", "mean", "median", "min", "max", "user", "system"):
        return None
    codes = data["results"][where[1]].get("exit_codes")
    if not isinstance(codes, list):
        return None
    bad = sum(1 for c in codes if c != 0)  # null: killed by a signal
    if not bad:
        return None
    return (f"{bad} of the {len(codes)} runs of {data['results'][where[1]]['command']!r} failed (exit_codes): a "
            "failed run is not a measurement, and its time is in the runs and their statistics")


def hint(data: Any, where: Where) -> str:
    """The short form that reads the entry at where."""
    command = data["results"][where[1]]["command"] if len(where) > 1 else "..."
    return f"format: hyperfine, benchmark: {command!r}, stat: median"


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    """The statistic a pointer names (results/i/median) and the runs it summarised (results/i/times)."""
    if len(where) == 3 and where[0] == "results" and where[2] in ("mean", "median", "min", "max"):
        runs = runs_at(data, ("results", where[1], "times"))
        return (str(where[2]), Picked(runs, True, "s", _FROM)) if runs else None
    return None


ENTRY_KEYS = frozenset({"command", "mean", "stddev", "median", "user", "system", "min", "max", "times", "exit_codes",
                        "parameters", "memory_usage_byte"})


def unknown(data: Any, where: Where) -> str | None:
    """A key hyperfine does not write, where a selection reaches (a number added beside its own)."""
    if not where or where[0] == "meta":
        return None
    if where[0] != "results":
        return f"'{where[0]}' is not a key hyperfine writes"
    if len(where) >= 3 and where[2] not in ENTRY_KEYS:
        return f"'{where[2]}' is not a key hyperfine writes in an entry"
    return None


def pools(data: Any, where: list[Where]) -> str | None:
    """Values from two of hyperfine's entries: every entry is its own command (a parameter scan's too, whatever
    --command-name calls them), never a repetition of another."""
    entries = {place[1] for place in where if len(place) > 1 and place[0] == "results"}
    return f"pools the runs of {len(entries)} hyperfine entries (each is one command)" if len(entries) > 1 else None
