"""`scorecard new --evidence`: what a tool's output says of the record to write (issue 43 item 4).

The tool, the entry and its unit are read from the file; which way is better only where the tool defines the
quantity (every time statistic of the five benchmark tools is better lower, as is their memory; a serving latency
is better lower and a throughput higher); the bar's number only from --bar, and then the status the evidence
gives against it. What is not known is written empty and marked `# REQUIRED:`, which validate refuses (SC201)
until it is filled in: never a placeholder number, which would pass or fail by accident.

Lazy imports: the measure layer and the pipeline, used only here (a plain `scorecard new` loads neither).
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..core.findings import UserError

LATENCIES = ("ttft", "tpot", "itl", "e2el")  # the serving times: better lower
_BAR = re.compile(r"\s*([-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*(\S.*?)?\s*")
_SAFE_UNIT = re.compile(r"[A-Za-z0-9/{}_%µμ^*·. -]{1,40}")
# What a YAML file cannot hold raw, or reads as a line break: C1 controls (NEL among them), the line and paragraph
# separators, U+FFFE and U+FFFF (json.dumps leaves them as they are; C0 it escapes itself).
_YAML_CANNOT_HOLD = re.compile("[\x7f-\x9f\u2028\u2029\ufffe\uffff]")
_GIVES = re.compile(r"set status: (leads|parity|trails|inconclusive)\b")


def yaml_text(text: str) -> str:
    """text as a YAML double-quoted scalar (a JSON string is one): no comment, key or newline can slip in, nor a
    character YAML reads as a line break (NEL, LINE and PARAGRAPH SEPARATOR), which JSON leaves as it is."""
    quoted = json.dumps(text, ensure_ascii=False)
    return _YAML_CANNOT_HOLD.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


class NewRefused(UserError):
    """new was asked for something its evidence or --bar cannot give."""


@dataclass(frozen=True)
class Detected:
    """A tool's output found at the evidence named: the format, the entry to read, its unit and which way is better."""

    name: str
    benchmark: str
    others: str  # a comment naming the file's other entries
    unit: str
    better: str | None  # None where the tool does not define the quantity
    metric: str | None = None  # serving: the metric read
    conditions: tuple[tuple[str, str], ...] = ()  # what the file records it was measured on, as shown


def _tool_output(root: Path, evidence: str, fmt: str | None, metric: str | None):
    """(the store, the artifact, the tool module that wrote it or None); NewRefused where it cannot be read."""
    from ..core.paths import PathProblem
    from ..core.place import LedgerPlace
    from ..measure import tools
    from ..measure.evidence import ArtifactStore

    store = ArtifactStore(LedgerPlace.at(root))
    try:
        art = store.get(f"evidence/{evidence}")
    except PathProblem as exc:
        raise NewRefused(f"evidence/{evidence}: {exc.message}") from None
    except OSError as exc:
        raise NewRefused(f"evidence/{evidence} cannot be read: {exc}") from None
    if art.error:
        raise NewRefused(f"evidence/{evidence} is {art.error}; commit the tool's output first")
    module = tools.FORMATS[fmt] if fmt else tools.recognise(art.data)
    if module is not None and not module.recognise(art.data):
        found = tools.recognise(art.data)
        raise NewRefused(f"evidence/{evidence} is not {fmt} output" + (
            f" (it looks like {found.NAME} output)" if found else " (it lacks the keys the tool always writes)"))
    if metric is not None and (module is None or module.NAME != "serving"):
        raise NewRefused("--metric goes with a serving benchmark's file (format: serving); other tools name their "
                         "entries with --benchmark")
    return store, art, module


def detect(root: Path, evidence: str, fmt: str | None, benchmark: str | None,
           metric: str | None = None) -> Detected | None:
    """The tool that wrote evidence/<evidence> (fmt, or recognised by its keys), or None for a file of no tool's."""
    from ..measure import tools
    from ..measure.selection import Refused
    from ..measure.toolread import sibling

    store, art, module = _tool_output(root, evidence, fmt, metric)
    if module is None:
        return None
    names = [name for name, _ in module.names(art.data)]
    chosen = benchmark if benchmark is not None else names[0] if names else ""
    if not chosen.strip() and module.NAME != "serving":
        raise NewRefused(f"evidence/{evidence}: the entry to read has no name; give --benchmark with one the file has")
    # asv's benchmarks.json beside its results: the unit a track_ benchmark states
    req = tools.Request(chosen, metric, "median", ("result",), f"evidence/{evidence}", sibling(store.get))
    try:
        picked = tools.pick(module.NAME, art.data, req)
    except Refused as exc:
        raise NewRefused(f"{exc.problem.message} ({exc.problem.hint})") from None
    others = [n for n in names if n != chosen]
    listed = f"; also here: {', '.join(yaml_text(n) for n in others[:4])}{', ...' if len(others) > 4 else ''}" \
        if others else ""
    unit = picked.unit if picked.unit is not None and re.fullmatch(r"[A-Za-z/{}_0-9]{1,40}", picked.unit) else "x"
    read = (metric or "ttft") if module.NAME == "serving" else None
    from ..measure.conditions import of_artifact

    recorded = of_artifact(art.data, module.NAME, picked.where[0] if picked.where else ())[0]
    return Detected(module.NAME, chosen, listed, unit, tool_better(module.NAME, read, unit, chosen), read,
                    tuple((key, item.value) for key, item in recorded.items()))


def tool_better(name: str, metric: str | None, unit: str, entry: str = "") -> str | None:
    """Which way is better where the tool defines the quantity, else None (the record must say). asv says it by
    the benchmark's kind: time_, timeraw_, mem_ and peakmem_ are better lower; a track_ value is the author's."""
    if name == "serving":
        from ..measure.tools.serving import RATES

        return "lower" if metric in LATENCIES else "higher" if metric in RATES else None
    if name == "asv" and not entry.rsplit(".", 1)[-1].startswith(("time_", "timeraw_", "mem_", "peakmem_")):
        return None
    from ..measure import units

    dims = units.parse(unit).dims
    return "lower" if dims in (units.parse("s").dims, units.parse("B").dims) else None


@dataclass(frozen=True)
class TypedBar:
    """--bar '900 ms': the bar's number and unit as the record will hold them."""

    value: str  # as written in YAML: 900, 0.25, 1.5e-06
    unit: str


def parse_bar(text: str, tool: Detected | None) -> TypedBar:
    """--bar's number and unit; refused unless the unit is known and converts to the tool's."""
    from ..measure import units

    found = _BAR.fullmatch(text)
    if found is None or found[2] is None:
        raise NewRefused(f"--bar {text!r} is not a number and its unit: write e.g. --bar '900 ms' or "
                         "--bar '2400 tok/s'")
    value = float(found[1])
    if not math.isfinite(value):
        raise NewRefused(f"--bar {text!r}: the number is out of range")
    unit = found[2]
    parsed = units.parse(unit)
    if not _SAFE_UNIT.fullmatch(unit) or parsed.problem or not parsed.known:
        raise NewRefused(f"--bar {text!r}: {unit!r} is not a unit scorecard knows" +
                         (f" ({parsed.problem})" if parsed.problem else "") + "; docs/format.md lists them")
    if tool is not None and not parsed.comparable(units.parse(tool.unit)):
        raise NewRefused(f"--bar {text!r}: {unit} does not convert to {tool.unit}, the unit the {tool.name} file "
                         "states; give the bar in a unit of the same quantity")
    shown = str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return TypedBar(shown, unit)


def evidence_status(root: Path, rel: str) -> str | None:
    """The status validate says the evidence gives for the record at rel, or None when it agrees or cannot say."""
    from .pipeline import validate

    result, _ = validate(root)
    for f in result.findings:
        found = _GIVES.search(f.hint or "") if f.file == rel else None
        if found:
            return found[1]
    return None


def set_status(path: Path, old: str, new: str) -> None:
    """Rewrite the status line of a record new has just written (a regular file, never through a link)."""
    text = path.read_text(encoding="utf-8")
    fresh = text.replace(f"\nstatus: {old} ", f"\nstatus: {new} ", 1)
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(fresh)
