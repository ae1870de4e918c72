"""The prose rules: placeholders in claim: and note: that cannot be read or filled (SC211), and numbers typed
there that the numbers the claim rests on do not give (SC513)."""

from __future__ import annotations

from ..core.findings import Finding, finding
from ..measure import compare, prose, typed, units, verdict
from ..measure.pagetext import readings
from ..measure.measured import Bar, Measurement
from ..measure.numfmt import fmt_number, fmt_range, fmt_ratio, fmt_value
from ..core.statuses import MEASURED
from .records import DimensionRecord

FIELDS = ("claim", "note")
_HINT = ("write the number as a placeholder (${value}, ${bar}, ${interval}, ...) so the text follows the artifact, or "
         "correct it; a number quoted from elsewhere goes in ${quote …}")


def check(rec: DimensionRecord, value: Measurement | None, bar: Bar, tolerance: float,
          findings: list[Finding]) -> None:
    """SC211 for each placeholder that cannot be read, or that nothing in the record fills; SC513 for each number
    typed with a comparable unit that no number read gives at its written precision."""
    dim, doc = rec.model, rec.doc
    texts = [(f, t) for f in FIELDS if isinstance(t := getattr(dim, f), str)]
    if not any("$" in t or (value is not None and typed.may_show_a_number(t)) for _, t in texts):
        return  # nothing to fill and no number to check: the hook's common case, kept cheap
    c = compare.compare(value, bar, tolerance, rec.model.share) if value is not None and bar.value is not None else None
    values = shown_values(value, bar, c)
    for field, text in texts:
        pos = doc.pos((field,))
        for slip in prose.split(text)[1]:
            findings.append(finding("SC211", doc.file, pos, f"{field}: {slip.message}", slip.hint))
        if "${" in text and readings(text, values)[1]:
            findings.append(finding("SC211", doc.file, pos, f"{field}: a number is typed against a placeholder: the "
                                    "page would show them as one number", "put a space between the placeholder and "
                                    "the number, or write the number as its own placeholder"))
        if value is not None or dim.status not in MEASURED:  # else the result's own findings say why
            for name in prose.names(text):
                why = _unfilled(name, value, bar, c)
                if why:
                    findings.append(finding("SC211", doc.file, pos, f"{field}: nothing fills ${{{name}}}: {why}",
                                            f"remove ${{{name}}}, or {_REMEDY[name]}"))
        if value is not None:
            for miss in typed.check(text, known_numbers(value, bar, c), values):
                findings.append(finding("SC513", doc.file, pos, f"{field} says {miss.written.text}; {_gives(miss)}",
                                        _HINT))


_REMEDY = {"value": "give the record a measured status and a result", "n": "give the record a measured result",
           "bar": "give the bar a number (sota.value or sota.result)",
           "ratio": "compare with a bar that has a non-zero number in a unit the result converts to",
           "gap": "compare with a bar that has a number in a unit the result converts to",
           "interval": "read the value from runs or give the artifact's low:/high: with level:"}


def _unfilled(name: str, m: Measurement | None, bar: Bar, c: compare.Comparison | None) -> str:
    """Why nothing fills the placeholder name in this record ('' when something does)."""
    if name in ("value", "n"):
        return "" if m is not None else "the record has no measured value"
    if name == "bar":
        return "" if bar.value is not None else "the bar has no number"
    if name in ("ratio", "gap"):
        if c is None:
            return "the value is not compared with a bar"
        return "" if name == "gap" or (c.ratio is not None and c.ratio > 0 and c.bar > 0) else \
            "a ratio to a bar of 0 or of the other sign means nothing"
    assert name == "interval"
    return "" if m is not None and m.low is not None and m.high is not None else "the value has no interval"


def shown_values(m: Measurement | None, bar: Bar, c: compare.Comparison | None) -> dict[str, str]:
    """What each placeholder shows, near enough for the check (the page may scale the unit): the numbers in it are
    the placeholder's, and a number typed beside it takes its unit (95–${value})."""
    out: dict[str, str] = {}
    if m is not None:
        out.update(value=fmt_value(m.value, m.unit), n=str(m.n))
        if m.low is not None and m.high is not None:
            out["interval"] = f"{verdict.percent(m.level or 0.95)} interval {fmt_range(m.low, m.high, m.unit)}"
    if bar.value is not None and bar.unit:
        out["bar"] = fmt_value(bar.value, bar.unit)
    if c is not None:
        out["gap"] = compare.gap_words(c)
        if c.ratio is not None and c.ratio > 0 and c.bar > 0:
            out["ratio"] = fmt_ratio(c.ratio)
    return out


def known_numbers(m: Measurement, bar: Bar, c: compare.Comparison | None) -> list[typed.Known]:
    """Every number the claim rests on that prose may quote: the value, its interval's ends, its runs' lowest and
    highest, the bar (and its interval's ends), the ratio (for a value in x, as x is checked only against x), the
    difference from the bar (not for a share, whose difference is in points) and the gap in % and ×, the inputs."""
    out = [typed.Known(m.value, m.unit, "the value")]
    for x, what in ((m.low, "the interval's low end"), (m.high, "the interval's high end")):
        if x is not None:
            out.append(typed.Known(x, m.unit, what))
    if m.summary is not None:
        out += [typed.Known(m.summary.lowest, m.unit, "the lowest run"),
                typed.Known(m.summary.highest, m.unit, "the highest run")]
    if bar.value is not None and bar.unit:
        out.append(typed.Known(bar.value, bar.unit, "the bar"))
        b = bar.measured
        if b is not None:
            out += [typed.Known(x, b.unit, f"the bar's interval's {end} end")
                    for x, end in ((b.low, "low"), (b.high, "high")) if x is not None]
    shown = units.parse(m.unit)
    if c is not None and c.ratio is not None and not shown.dims and shown.factor == 1:  # x only against x
        out.append(typed.Known(c.ratio, "x", "the ratio to the bar"))
    if c is not None and (shown.dims or shown.factor == 1):  # a share's difference is in points, not %
        out.append(typed.Known(abs(c.value - c.bar), c.unit, typed.DIFFERENCE))
    if c is not None and c.ratio is not None and c.ratio > 0 and c.bar > 0 and c.margin != 0:  # 32% ahead, 4× faster
        out += [typed.Known(abs(c.margin) * 100, "%", typed.GAP),
                typed.Known(max(c.ratio, 1 / c.ratio), "x", typed.GAP)]
    out += [typed.Known(src.value, src.unit, f"input '{src.name}'") for src in m.sources
            if src.name is not None and src.unit]
    return out


def _gives(miss: typed.Mismatch) -> str:
    """'the artifact gives 80.6 ms' and, where another number the claim rests on is nearer, which one and what."""
    nearest = f"{miss.nearest.what} is {_shown(miss.written, miss.nearest_in_unit)}"
    if miss.first_in_unit is None:
        return f"the nearest number the claim rests on, {nearest}"
    value = f"the artifact gives {_shown(miss.written, miss.first_in_unit)}"
    if miss.nearest.what == "the value" or miss.nearest_in_unit == miss.first_in_unit:
        return value
    return f"{value} (the nearest number it rests on: {nearest})"


def _shown(w: typed.Written, x: float) -> str:
    """x in the written unit, to one more figure than the text gives (at least three)."""
    figures = len(str(abs(w.value)).replace(".", "").replace("-", "").lstrip("0")) + 1
    return f"{fmt_number(x, max(3, figures))}{'' if w.unit in ('x', '×', '%') else ' '}{w.unit}"
