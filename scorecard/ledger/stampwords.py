"""What a reviewed stamp covers and what changed since, in words a reviewer reads (SC801, `scorecard review`).

A value a tool's format reads is named by its entry and statistic, in its unit ("test_dumps, median: 212.8 µs →
204.4 µs, 1,778 → 1,276 runs"); a long array of numbers is said per statistic, not run by run.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

from ..measure import compare, stats
from ..measure.evidence import escape_token
from ..measure.numfmt import fmt_number, fmt_value

FIXED_KEYS = ("status", "claim", "result.unit")
OUR_LEVEL = "verdict.our level"  # the level the verdict judges our interval at (stamps.VERDICT + "our level")


def _numbers_as_written(value: object) -> object:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    if isinstance(value, dict):
        return {k: _numbers_as_written(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers_as_written(v) for v in value]
    return value


def show(value: object, limit: int = 60) -> str:
    """A covered value in a finding: numbers as written (33, 35.5), text quoted, structures as JSON."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        text = str(int(value))
    elif isinstance(value, float):
        text = f"{value:.10g}"
    elif isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = json.dumps(_numbers_as_written(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _changed(key: str, old: object, new: object, out: list[str], factor: float | None = None) -> None:
    """Changes between two values, down to the leaves where both sides are objects or arrays.

    factor (set when result.unit changed to a commensurable unit) converts an old number into
    the new unit, so a value that only changed with its unit is said to be the same quantity.
    """
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new)):
            sub = f"{key}/{escape_token(k)}"
            if k not in new:
                out.append(f"{sub}: removed (was {show(old[k])})")
            elif k not in old:
                out.append(f"{sub}: added ({show(new[k])})")
            else:
                _changed(sub, old[k], new[k], out, factor)
    elif (isinstance(old, list) and isinstance(new, list) and _runs(old) and _runs(new)
          and max(len(old), len(new)) > RUNS_SHOWN):
        out.append(f"{key}: {_runs_changed(old, new)}")
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _changed(f"{key}/{i}", a, b, out, factor)
    elif (factor is not None and isinstance(old, float) and isinstance(new, float)
          and math.isclose(old * factor, new, rel_tol=1e-9)):
        out.append(f"{key}: {show(old)} → {show(new)} (the same quantity in the new unit)")
    else:
        out.append(f"{key}: {show(old)} → {show(new)}")


RUNS_SHOWN = 3  # longer arrays of numbers are runs: said per statistic, not run by run


def _runs(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


def _runs_changed(old: list, new: list) -> str:
    """Runs that changed, as a reviewer reads them: 'median 2.23 → 1.4 (n = 20 → 20), 95% intervals do not
    overlap'."""
    a, b = stats.summarise([float(v) for v in old]), stats.summarise([float(v) for v in new])
    text = f"median {show(a.value)} → {show(b.value)} (n = {a.n} → {b.n})"
    if None in (a.low, a.high, b.low, b.high):
        return text + ", too few runs for a 95% interval"
    assert a.low is not None and a.high is not None and b.low is not None and b.high is not None
    apart = a.high < b.low or b.high < a.low
    return text + (", 95% intervals do not overlap" if apart else ", within the runs' noise (95% intervals overlap)")


def _tool_entry(key: str) -> tuple[str, str] | None:
    """(the entry in words, its statistic) of a key a tool's format reads (file#{"format": ...}), else None."""
    rel, _, selector = key.partition("#")
    try:
        spec = json.loads(selector) if selector.startswith("{") else None
    except ValueError:
        return None
    if not isinstance(spec, dict) or not isinstance(spec.get("format"), str):
        return None
    name = str(spec["benchmark"]) if isinstance(spec.get("benchmark"), str) else rel.rsplit("/", 1)[-1]
    name = name if len(name) <= 60 else name[:59] + "…"  # as show() cuts a value
    metric = spec.get("metric") if isinstance(spec.get("metric"), str) else None
    stat = str(spec["stat"]) if isinstance(spec.get("stat"), str) else "median"
    return (f"{name} {metric}" if metric else name), stat


def _tool_changed(key: str, old: object, new: object, level: float) -> str | None:
    """A tool's entry that changed, as a reviewer reads it: 'test_dumps, median: 212.8 µs → 204.4 µs, 1,778 →
    1,276 runs', and 'outside the reviewed 95% interval' only when the new value is. None where key is not one."""
    entry = _tool_entry(key)
    if entry is None or old == new or not isinstance(old, dict) or not isinstance(new, dict):
        return None
    before, after = old.get("values"), new.get("values")
    if not (isinstance(before, list) and isinstance(after, list) and before and after and _runs(before)
            and _runs(after)):
        return None
    name, stat = entry
    unit = new.get("unit") if isinstance(new.get("unit"), str) else None
    was_unit = old.get("unit") if isinstance(old.get("unit"), str) else None
    factor = compare.in_unit(1.0, was_unit, unit) if was_unit and unit and was_unit != unit else 1.0
    if factor is None:
        return None
    if factor != 1.0 and len(before) == len(after) and all(
            math.isclose(float(x) * factor, float(y), rel_tol=1e-9) for x, y in zip(before, after, strict=True)):
        return f"{name}: the same values, now in {unit} (was {was_unit})"
    alpha = Fraction(1) - Fraction(level).limit_denominator(1000)
    a = stats.summarise([float(v) * factor for v in before], stat, alpha)
    b = stats.summarise([float(v) for v in after], stat, alpha)
    text = f"{name}, {stat}: {fmt_value(a.value, unit, 4)} → {fmt_value(b.value, unit, 4)}"
    if len(before) > 1 or len(after) > 1:
        text += f", {fmt_number(len(before))} → {fmt_number(len(after))} runs"
    if a.low is not None and a.high is not None and not a.low <= b.value <= a.high:
        text += f", outside the reviewed {fmt_number(level * 100)}% interval"
    return text


def describe(old: dict[str, object], new: dict[str, object]) -> list[str]:
    """What differs between two covered sets, one plain phrase each, in a stable order."""
    keys = [k for k in FIXED_KEYS if k in old or k in new]
    keys += sorted((set(old) | set(new)) - set(FIXED_KEYS))
    out = []
    factor = None
    old_unit, new_unit = old.get("result.unit"), new.get("result.unit")
    if isinstance(old_unit, str) and isinstance(new_unit, str) and old_unit != new_unit:
        factor = compare.in_unit(1.0, old_unit, new_unit)
    given = old.get(OUR_LEVEL)
    level = given if isinstance(given, float) and 0 < given < 1 else 0.95
    for key in keys:
        said = _tool_changed(key, old.get(key), new.get(key), level)
        if said is not None:
            out.append(said)
        elif key == "result.unit" and factor is not None:
            out.append(f"result.unit: {show(old_unit)} → {show(new_unit)} (convertible: 1 {old_unit} = "
                       f"{factor:.6g} {new_unit})")
        elif key in old and key in new:
            _changed(key, old[key], new[key], out, factor)
        elif key in new:
            out.append(f"{key}: newly cited ({show(new[key])})")
        else:
            out.append(f"{key}: no longer cited (was {show(old[key])})")
    return list(dict.fromkeys(out))  # a trace citing an object and the result inside it report one leaf once


def summary(covered: dict[str, object]) -> list[str]:
    """What a stamp covers, one phrase each (printed by `scorecard review`)."""
    return [f"{key}: {show(covered[key])}" for key in [k for k in FIXED_KEYS if k in covered]
            + sorted(set(covered) - set(FIXED_KEYS))]


