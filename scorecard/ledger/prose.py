"""The prose rules: placeholders in claim: and note: that cannot be read or filled (SC211), and numbers typed
there that the numbers the claim rests on do not give (SC513)."""

from __future__ import annotations

from ..core.patterns import lazy
from ..core.findings import Finding, finding
import re

from ..measure import compare, prose, stance, stats, typed, units, verdict
from ..measure.gapwords import gap_words
from ..measure.pagetext import readings
from ..measure.measured import Bar, Measurement
from ..measure.numfmt import fmt_number, fmt_range, fmt_ratio, fmt_value
from ..core.statuses import MEASURED
from .records import DimensionRecord
from . import stamps

FIELDS = ("claim", "note")
_HINT = ("write the number as a placeholder (${value}, ${bar}, ${interval}, ...) so the text follows the artifact, or "
         "correct it; a number quoted from elsewhere goes in ${quote …}")


def check(rec: DimensionRecord, value: Measurement | None, bar: Bar, tolerance: float,
          findings: list[Finding], year: int = 0) -> None:
    """SC211 for each placeholder that cannot be read, or that nothing in the record fills; SC513 for each number
    typed with a comparable unit that no number read gives at its written precision; SC519 for one that is not
    ours typed as ours; SC517 and SC518 for words of standing the evidence does not give (issue 42)."""
    dim = rec.model
    texts = [(f, t) for f in FIELDS if isinstance(t := getattr(dim, f), str)]
    if not any("$" in t or typed.may_show_a_number(t) or not t.isascii() or
               any(mark in t for mark in "*_&\\[<`") or stance.may_say(t) for _, t in texts):
        return  # nothing to fill, no number to check, no word of standing: the hook's common case, kept cheap
    c = compare.compare(value, bar, tolerance, rec.model.share) if value is not None and bar.value is not None else None
    values = shown_values(value, bar, c)
    where = standing(rec, c, year)
    for field, text in texts:
        _check_placeholders(rec, field, text, value, bar, c, values, findings)
        if value is not None:
            _check_numbers(rec, field, text, known_numbers(value, bar, c, text, _labels(rec)), values, where,
                           findings)
        elif rec.model.status not in MEASURED and bar.value is not None and bar.unit:  # no number of ours to give
            _check_numbers(rec, field, text, [typed.Known(bar.value, bar.unit, "the bar", "bar")], values, where,
                           findings, ours=False)
        if _judged(rec, value, bar, c):
            _check_words(rec, field, text, values, c, where, findings)


def _check_placeholders(rec: DimensionRecord, field: str, text: str, value: Measurement | None, bar: Bar,
                        c: compare.Comparison | None, values: dict[str, str], findings: list[Finding]) -> None:
    """SC211: a placeholder that cannot be read, a number glued to one, or one nothing in the record fills."""
    doc = rec.doc
    pos = doc.pos((field,))
    pieces, slips = prose.split(text)
    for slip in slips:
        findings.append(finding("SC211", doc.file, pos, f"{field}: {slip.message}", slip.hint))
    for p in pieces:
        if p.name in prose.MARKED and stance.may_say(p.text):
            findings.append(finding("SC211", doc.file, pos, f"{field}: ${{{p.name} {p.text}}} holds words of "
                                    "standing, which a mark would keep from the check", f"mark only the figure, "
                                    f"and write the words around it: ${{{p.name} 4.48x}}"))
    if "${" in text and readings(text, values)[1]:
        findings.append(finding("SC211", doc.file, pos, f"{field}: a number is typed against a placeholder: the "
                                "page would show them as one number", "put a space between the placeholder and "
                                "the number, or write the number as its own placeholder"))
    if value is not None or rec.model.status not in MEASURED:  # else the result's own findings say why
        for name in prose.names(text):
            why = _unfilled(name, value, bar, c)
            if why:
                findings.append(finding("SC211", doc.file, pos, f"{field}: nothing fills ${{{name}}}: {why}",
                                        f"remove ${{{name}}}, or {_REMEDY[name]}"))


def _check_numbers(rec: DimensionRecord, field: str, text: str, known: list[typed.Known], values: dict[str, str],
                   where: stance.Standing, findings: list[Finding], ours: bool = True) -> None:
    """SC513 for a number no known number gives (on a record with no number, any but the bar's); SC519 for the
    bar's (or a run's, an end's) typed as ours."""
    doc = rec.doc
    pos = doc.pos((field,))
    for miss in typed.check(text, known, values, where.bars, inline=field == "claim"):
        if not ours:
            findings.append(finding("SC513", doc.file, pos, f"{field} says {miss.written.text}, but the record has "
                                    f"no number of ours (status {rec.model.status})", "say the number with the "
                                    "evidence that gives it (a measured status and a result), or mark a number "
                                    "quoted from elsewhere: ${quote …}"))
        elif miss.unnamed is not None:
            findings.append(finding("SC519", doc.file, pos, f"{field} says {miss.written.text}, which is "
                                    f"{miss.unnamed.what}, not our value; {_gives(miss)}", _WHOSE))
        else:
            findings.append(finding("SC513", doc.file, pos, f"{field} says {miss.written.text}; {_gives(miss)}",
                                    _HINT))


def _labels(rec: DimensionRecord) -> dict[str, str]:
    """Each input's label, by its name (what prose calls it: 'raw SGLang')."""
    inputs = rec.model.result.inputs if rec.model.result is not None else None
    return {name: _named(i.label) for name, i in (inputs or {}).items() if i.label}


def _judged(rec: DimensionRecord, value: Measurement | None, bar: Bar, c: compare.Comparison | None) -> bool:
    """Whether the words can be judged: a record with no number (its words may claim nothing in our favour), or a
    measured one whose value was read and compared with the bar, or whose bar has no number at all. A record whose
    value or bar could not be read has its own findings; its words are not judged against a guess."""
    if rec.model.status not in MEASURED:
        return True
    if value is None:
        return False
    return c is not None or (bar.value is None and rec.model.sota.result is None)


_WHOSE = ("say whose number it is ('against the bar's 900 ms', 'the 95% interval 75–88 ms', 'fastest run 78 ms'), "
          "or write it as its placeholder (${bar}, ${interval})")
_CODES = {"direction": "SC517", "size": "SC513", "status": "SC518"}


def _check_words(rec: DimensionRecord, field: str, text: str, values: dict[str, str], c: compare.Comparison | None,
                 where: stance.Standing, findings: list[Finding]) -> None:
    """SC517 for a gap said in the wrong direction, SC513 for a favourable one larger than the evidence gives, SC518
    for words of a standing the status does not give (stance.py), each said once whatever the readings."""
    doc = rec.doc
    seen: set[tuple[str, str]] = set()
    gap_text = gap_words(c) if c is not None else ""
    # ${bar} names the bar ('faster than ${bar}' is a comparison with it); what the other placeholders show is the
    # evidence's own words (${gap} says the gap the way it is), so the words around them are what is read
    named = {name: "the bar" if name == "bar" else "X" for name in values}
    for scan in readings(text, named, inline=field == "claim")[0]:
        if not stance.may_say(scan):
            continue
        for said in stance.check(scan, where, gap_text):
            if (said.rule, said.message) in seen:
                continue
            seen.add((said.rule, said.message))
            findings.append(finding(_CODES[said.rule], doc.file, doc.pos((field,)), f"{field} {said.message}",
                                    said.hint))


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


def rendered(text: str, m: Measurement | None, bar: Bar, share: bool | None = None) -> str:
    """text with its placeholders filled as the page shows them, a marked text (quote, setting, was) as its text:
    for the history, the feed and `diff`, which say what a reader saw (issue 42)."""
    if "$" not in text:
        return text
    c = compare.compare(m, bar, stamps.DEFAULT_TOLERANCE, share) if m is not None and bar.value is not None else None
    return prose.fill(text, shown_values(m, bar, c))


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
        out["gap"] = gap_words(c)
        if c.ratio is not None and c.ratio > 0 and c.bar > 0:
            out["ratio"] = fmt_ratio(c.ratio)
    return out


def known_numbers(m: Measurement, bar: Bar, c: compare.Comparison | None, text: str = "",
                  labels: dict[str, str] | None = None) -> list[typed.Known]:
    """Every number the claim rests on that prose may quote: the value, its interval's ends, its runs' lowest and
    highest, the bar (and its interval's ends), the ratio (for a value in x, as x is checked only against x), the
    difference from the bar (not for a share, whose difference is in points) and the gap in % and ×, the inputs
    (each named in prose by its name or its label: labels)."""
    labels = labels or {}
    out = [typed.Known(m.value, m.unit, "the value")]
    for x, what in ((m.low, "the interval's low end"), (m.high, "the interval's high end")):
        if x is not None:
            out.append(typed.Known(x, m.unit, what, "interval"))
    if m.summary is not None:
        lowest_best = bar.better != "higher"  # which run is the best, for 'fastest run 78 ms'
        out += [typed.Known(m.summary.lowest, m.unit, "the lowest run", "best-run" if lowest_best else "worst-run"),
                typed.Known(m.summary.highest, m.unit, "the highest run", "worst-run" if lowest_best else "best-run")]
    if bar.value is not None and bar.unit:
        out.append(typed.Known(bar.value, bar.unit, "the bar", "bar"))
        b = bar.measured
        if b is not None:
            out += [typed.Known(x, b.unit, f"the bar's interval's {end} end", "bar")
                    for x, end in ((b.low, "low"), (b.high, "high")) if x is not None]
    shown = units.parse(m.unit)
    if c is not None and c.ratio is not None and not shown.dims and shown.factor == 1:  # x only against x
        out.append(typed.Known(c.ratio, "x", "the ratio to the bar"))
    if c is not None:  # a share's difference is in points ('8 points above the bar', read as %)
        out.append(typed.Known(abs(c.value - c.bar), c.unit, typed.DIFFERENCE))
    if c is not None and c.ratio is not None and c.ratio > 0 and c.bar > 0 and c.margin != 0:  # 32% ahead, 4× faster
        out += [typed.Known(x * 100, "%", typed.GAP) for x in _percent_gaps(c)]
        out.append(typed.Known(max(c.ratio, 1 / c.ratio), "x", typed.GAP))
    out += [typed.Known(src.value, src.unit, f"input '{src.name}'",
                        "input:" + "|".join([str(src.name)] + ([labels[src.name]] if src.name in labels else [])))
            for src in m.sources if src.name is not None and src.unit]
    return out + _other_statistics(m, text)


_STAT_WORD = lazy(r"\b(p\d{1,2}(?:\.\d{1,3})?|median|mean|average|min|max|minimum|maximum)\b", re.IGNORECASE)
_STAT_OF = {"average": "mean", "minimum": "min", "maximum": "max"}


def _other_statistics(m: Measurement, text: str) -> list[typed.Known]:
    """Another statistic of the same runs that the text names ('p99 2,100 ms' beside a median): a number the
    evidence gives, where its word stands beside it (rule 4 of issue 42)."""
    s = m.summary
    if s is None or not s.samples or s.failures:
        return []
    out = []
    for word in sorted({w.lower() for w in _STAT_WORD.findall(text)}):
        stat = _STAT_OF.get(word, word)
        if stat != s.stat and stats.is_stat(stat):
            out.append(typed.Known(stats.summarise(list(s.samples), stat).value, m.unit, f"the runs' {stat}",
                                   f"stat:{word}"))
    return out


def _percent_gaps(c: compare.Comparison) -> list[float]:
    """A gap in percent on either conventional base: 600 ms against 900 ms is 33% less time and 50% faster."""
    assert c.ratio is not None and c.ratio > 0
    return sorted({abs(c.ratio - 1), abs(1 / c.ratio - 1)})


def standing(rec: DimensionRecord, c: compare.Comparison | None, year: int = 0) -> stance.Standing:
    """What the evidence gives, for the words' check (stance.py)."""
    dim = rec.model
    gaps: list[tuple[str, float]] = []
    if c is not None and not c.unbounded:
        if c.ratio is not None and c.ratio > 0 and c.bar > 0:
            gaps += [("%", x * 100) for x in _percent_gaps(c)] + [("x", max(c.ratio, 1 / c.ratio))]
        gaps.append((c.unit, abs(c.value - c.bar)))
    status = dim.status if c is not None or dim.status not in MEASURED else "unplaced"
    margin = None if c is None else (-1.0 if c.unbounded else c.margin)
    names = tuple(n for x in dim.leaders if (n := _named(x)))
    ratio = c.ratio if c is not None and c.ratio is not None and c.ratio > 0 and c.bar > 0 else None
    return stance.Standing(status, margin, c.band if c is not None else 0.0,
                           c.better if c is not None else dim.sota.better, names, tuple(gaps), ratio, year)


def _named(text: str) -> str:
    """A leader's or an input's label as prose says it: 'NVIDIA Dynamo (incremental: …)' is 'nvidia dynamo'."""
    plain = re.sub(r"[*_`\[\]]|\(https?://[^)]*\)", "", text)
    return re.sub(r"\s*\([^)]*\)?", "", plain).partition(":")[0].strip().lower()


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
