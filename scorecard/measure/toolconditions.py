"""What each benchmark tool records of where and how it ran, read through one allowlist per tool (TOOL_KEYS) into
the conditions' vocabulary (conditions.py), and the day its runs ran (recorded_date). No other key of a tool's
metadata is read: host names, user names, paths, executables, environment variables and configure arguments
never are (docs/formats.md "Conditions" lists the keys).

Lazy import: tools (a file's format), only where a file's recorded date is asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from ..core.dates import full_date


def as_text(value: object) -> str:
    """A recorded value as text: yes/no for a boolean, 8 for 8.0."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _at(data: Any, *path: str | int) -> Any:
    node = data
    for step in path:
        if isinstance(step, int) and isinstance(node, list) and -len(node) <= step < len(node):
            node = node[step]
        elif isinstance(step, str) and isinstance(node, dict):
            node = node.get(step)
        else:
            return None
    return node


def _joined(*parts: object, sep: str = ", ") -> str | None:
    words = [as_text(p) for p in parts if p not in (None, "", [], {})]
    return sep.join(words) if words else None


def _cpus(model: object, count: object) -> str | None:
    """A CPU model name and its logical CPU count, as a person writes them."""
    count_text = f"{as_text(count)} CPUs" if isinstance(count, (int, str)) and not isinstance(count, bool) and \
        re.fullmatch(r"[0-9]{1,6}", str(count)) else None
    return _joined(model if isinstance(model, str) and model.strip() else None, count_text)


def _day(value: object) -> str | None:
    """The date (YYYY-MM-DD) a tool's timestamp names: ISO text, vLLM's 20260412-153045, or epoch milliseconds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        try:
            return datetime.fromtimestamp(value / 1000, tz=UTC).date().isoformat()
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str):
        found = re.match(r"(\d{4})-?(\d{2})-?(\d{2})", value.strip())
        if found:
            return "-".join(found.groups())
    return None


def _version(value: object) -> str | None:
    """A runtime version where the value is one (asv's params.python may be an executable's path: never shown)."""
    return value if isinstance(value, str) and re.fullmatch(r"\d+(\.\d+){0,3}\S{0,12}( \(\d+-bit\))?", value) else None


def _python_machine(info: Any, name: str, model: tuple[str, ...], count: tuple[str, ...]) \
        -> dict[str, tuple[object, str]]:
    """hardware and software as a Python benchmark tool records them under info (named name): the CPU model and
    count at model and count, the implementation and version at python_implementation and python_version."""
    return {
        "hardware": (_cpus(_at(info, *model), _at(info, *count)),
                     f"{name}.{'.'.join(model)}, {name}.{'.'.join(count)}"),
        "software": (_joined(_at(info, "python_implementation"), _version(_at(info, "python_version")), sep=" "),
                     f"{name}.python_implementation, {name}.python_version"),
    }


def _pytest_benchmark(data: Any, where: tuple) -> dict[str, tuple[object, str]]:
    info = _at(data, "machine_info")
    return {**_python_machine(info, "machine_info", ("cpu", "brand_raw"), ("cpu", "count")),
            "date": (_day(_at(data, "datetime")), "datetime")}


def _pyperf(data: Any, where: tuple) -> dict[str, tuple[object, str]]:
    meta = _at(data, "metadata")
    bench = _at(data, *where[:2]) if len(where) >= 2 and where[0] == "benchmarks" else _at(data, "benchmarks", 0)
    runs = _at(bench, "runs")
    run_date = next((_at(run, "metadata", "date") for run in runs if _at(run, "metadata", "date")), None) \
        if isinstance(runs, list) else None
    return {**_python_machine(meta, "metadata", ("cpu_model_name",), ("cpu_count",)),
            "date": (_day(run_date or _at(meta, "date")), "the first run's metadata.date")}


def _google_benchmark(data: Any, where: tuple) -> dict[str, tuple[object, str]]:
    context = _at(data, "context")
    cpus, mhz, scaling = _at(context, "num_cpus"), _at(context, "mhz_per_cpu"), _at(context, "cpu_scaling_enabled")
    hardware = _joined(f"{cpus} CPUs" if isinstance(cpus, int) else None,
                       f"{mhz} MHz" if isinstance(mhz, (int, float)) and not isinstance(mhz, bool) else None,
                       {True: "CPU scaling on", False: "CPU scaling off"}.get(scaling) if isinstance(scaling, bool)
                       else None)
    build = _at(context, "library_build_type")
    return {
        "hardware": (hardware, "context.num_cpus, context.mhz_per_cpu, context.cpu_scaling_enabled"),
        "software": (_joined(f"Google Benchmark {_at(context, 'library_version')}"
                             if isinstance(_at(context, "library_version"), str) else None,
                             f"{build} build" if isinstance(build, str) else None),
                     "context.library_version, context.library_build_type"),
        "date": (_day(_at(context, "date")), "context.date"),
    }


def _asv(data: Any, where: tuple) -> dict[str, tuple[object, str]]:
    params = _at(data, "params")
    ram = _at(params, "ram")
    ram_text = f"{int(ram) / 2 ** 30:.1f} GiB RAM" if isinstance(ram, str) and re.fullmatch(r"[0-9]{1,20}", ram) \
        else None
    entry = _at(data, *where[:2]) if len(where) >= 2 and where[0] == "results" else None
    columns = _at(data, "result_columns")
    started = entry[columns.index("started_at")] if isinstance(entry, list) and isinstance(columns, list) and \
        "started_at" in columns and columns.index("started_at") < len(entry) else None
    return {
        "hardware": (_joined(_cpus(_at(params, "cpu"), _at(params, "num_cpu")), _at(params, "arch"), ram_text),
                     "params.cpu, params.num_cpu, params.arch, params.ram"),
        "software": (_joined(_at(params, "os"), f"Python {_version(_at(params, 'python'))}"
                             if _version(_at(params, "python")) else None),
                     "params.os, params.python"),
        "date": (_day(started), "the result's started_at"),
    }


def _serving(data: Any, where: tuple) -> dict[str, tuple[object, str]]:
    server = _at(data, "server_info")
    model = _at(data, "model_id") or _at(server, "model_path")
    backend, version = _at(data, "backend"), _at(server, "version")
    rate = _at(data, "request_rate")
    return {
        "model": (model if isinstance(model, str) else None, "model_id (vLLM), server_info.model_path (SGLang)"),
        "software": (_joined(backend if isinstance(backend, str) else None,
                             version if isinstance(version, str) else None, sep=" "),
                     "backend, server_info.version"),
        "workload": (_at(data, "dataset_name") if isinstance(_at(data, "dataset_name"), str) else None,
                     "dataset_name"),
        "request_rate": ("unlimited" if rate in ("inf", float("inf")) else rate, "request_rate"),
        "concurrency": (_at(data, "max_concurrency"), "max_concurrency"),
        "date": (_day(_at(data, "date")), "date"),
    }


# tool -> what it records, read only through these keys (docs/formats.md lists them); hyperfine records none
TOOL_KEYS: dict[str, Callable[[Any, tuple], dict[str, tuple[object, str]]]] = {
    "hyperfine": lambda data, where: {},
    "pytest-benchmark": _pytest_benchmark,
    "pyperf": _pyperf,
    "google-benchmark": _google_benchmark,
    "asv": _asv,
    "serving": _serving,
}


def recorded_date(art: Any) -> date | None:
    """The day a tool's file (an evidence.Artifact) says its runs ran (the oldest, for a file of several: asv's
    results' started_at), or None where no tool wrote it or the tool records none (hyperfine)."""
    from .tools import recognised

    data = art.data
    fmt = recognised(art)
    if fmt is None or fmt.NAME not in TOOL_KEYS:
        return None
    if fmt.NAME == "asv":
        results = data.get("results") if isinstance(data, dict) else None
        days: list[object] = [_asv(data, ("results", name))["date"][0] for name in results] \
            if isinstance(results, dict) else []
    else:
        days = [TOOL_KEYS[fmt.NAME](data, ()).get("date", (None, ""))[0]]
    found = sorted(d for d in days if isinstance(d, str))
    return full_date(found[0]) if found else None
