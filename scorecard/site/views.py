"""What the templates show about a dimension or a carried file, computed from resolved records.

Sentences (what was measured, where it stands), and the listing of a cited JSON file. Pure:
no templates, no disk.
"""

from __future__ import annotations

import math
import re
from urllib.parse import urlsplit

from markupsafe import Markup

from ..measure import units
from ..measure.compare import in_unit
from ..measure.gapwords import gap_words
from ..measure.measured import Source
from ..measure.reading import Measurement
from ..measure.numfmt import fmt_exact, fmt_number, fmt_percent, fmt_range, fmt_ratio, fmt_value, glue, scaled
from ..measure.prose import MARKED, fill, split
from ..core.paths import name_suffix
from .markup import markdown_block, markdown_inline
from .once import once
from .resolve import ResolvedCategory, ResolvedDimension


# The only files copied raw into the site: data, plain text and images that cannot script, by
# their (case-insensitive) suffix. Anything else a trace cites (HTML, SVG, XHTML, scripts, PDFs,
# archives...) gets a page showing it as escaped text, or saying it is not shown: a browser must
# never run or style with a file a pull request added, on the site's own origin.
# Each with the Content-Type serve gives it (the one list both read).
RAW_TYPES = {".json": "application/json", ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8",
             ".text": "text/plain; charset=utf-8", ".log": "text/plain; charset=utf-8",
             ".csv": "text/csv; charset=utf-8", ".tsv": "text/tab-separated-values; charset=utf-8",
             ".yaml": "text/plain; charset=utf-8", ".yml": "text/plain; charset=utf-8",
             ".toml": "text/plain; charset=utf-8", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
             ".gif": "image/gif", ".webp": "image/webp", ".avif": "image/avif"}
RAW_SUFFIXES = frozenset(RAW_TYPES)


VIEWED_SUFFIXES = frozenset({".json", ".md"})  # a readable page beside the raw copy


STATUS_LABELS = {"leads": "leads", "parity": "parity", "trails": "trails", "inconclusive": "inconclusive",
                 "simulated": "simulated",
                 "no-claim": "no claim", "out-of-scope": "out of scope"}


def carried_as(rel: str) -> str:
    """How the site carries a cited file: 'viewed' (raw copy and a page), 'raw' (copy only) or 'text' (page only)."""
    suffix = name_suffix(rel)
    if suffix in VIEWED_SUFFIXES:  # the JSON viewer shows only what was read as JSON: a lowercase .json
        return "viewed" if suffix != ".json" or rel.endswith(".json") else "raw"
    return "raw" if suffix in RAW_SUFFIXES else "text"


def _measurement(d: ResolvedDimension) -> Measurement:
    if d.measured is None:
        raise ValueError(f"'{d.id}' has no measured value to show")  # a template asked for it unguarded
    return d.measured.measurement


@once
def shown_unit(d: ResolvedDimension) -> str | None:
    """The one unit a dimension's value and its bar are both shown in: display_unit as written, else the bar's unit,
    scaled for reading only where the scaling keeps them the same (0.0005 s and 0.0007 s read 500 µs and 700 µs;
    0.5 ms and 6.2 ms stay in ms); None where the value is not compared with the bar."""
    c = d.comparison
    if c is None:
        return None
    chosen = d.record.model.display_unit
    if chosen is not None:  # as written, spelled as a reader expects (us is µs)
        return units.spelled(chosen) if in_unit(c.bar, c.unit, chosen) is not None else None  # else SC512
    for_bar, for_ours = scaled(c.bar, c.unit)[1], scaled(c.value, c.unit)[1]
    return for_bar if for_bar == for_ours and for_bar else units.spelled(c.unit)


def _in_shown(value: float, unit: str, shown: str, fixed: bool = False) -> str:
    converted = in_unit(value, unit, shown)
    return fmt_value(value, unit, fixed=fixed) if converted is None else \
        f"{fmt_number(converted, fixed=fixed)}{glue(shown)}{shown}"


def _range(d: ResolvedDimension, low: float, high: float, unit: str, like: float) -> str:
    shown = shown_unit(d)
    lo, hi = (None, None) if shown is None else (in_unit(low, unit, shown), in_unit(high, unit, shown))
    if shown is None or lo is None or hi is None:
        return fmt_range(low, high, unit, like)
    return f"{fmt_number(lo)}–{fmt_number(hi)}{glue(shown)}{shown}"


@once
def measured_text(d: ResolvedDimension, fixed: bool = False) -> str:
    """The claimed value as a reader wants it: 81.2 ms (in the unit its bar is shown in, where it has one); fixed: at
    a table column's one precision, trailing zeros kept (0.750x)."""
    m = _measurement(d)
    shown = shown_unit(d)
    return fmt_value(m.value, m.unit, fixed=fixed) if shown is None else _in_shown(m.value, m.unit, shown, fixed)


@once
def exact_text(d: ResolvedDimension) -> str:
    """The claimed value with every digit, in the unit the page shows it in (fmt_exact)."""
    m = _measurement(d)
    return fmt_exact(m.value, m.unit, shown_unit(d))


@once
def bar_text(d: ResolvedDimension, fixed: bool = False) -> str:
    """The bar's number (typed, or read from sota.result), in the unit the dimension's value is shown in (or scaled
    for reading on its own); fixed as measured_text's for a bar we read from an artifact, while a typed bar keeps its
    source's figures (3 never reads 3.00: no more precision than the source gave)."""
    bar = d.record.bar_of
    if bar.value is None:
        return ""
    fixed = fixed and bar.measured is not None
    shown = shown_unit(d)
    return fmt_value(bar.value, bar.unit, fixed=fixed) if shown is None or bar.unit is None else \
        _in_shown(bar.value, bar.unit, shown, fixed)


@once
def bar_kind(d: ResolvedDimension, short: bool = False) -> str:
    """Where the bar comes from, in words (issue 45): 'claimed by its authors', 'measured by example.org', or
    'measured by us: median of 12 runs, 97.5% interval 118–124 ms' (the interval the verdict used; short: the words
    before it, for a table, a card or the overview)."""
    sota, bar = d.record.model.sota, d.record.bar_of
    kind = sota.source_kind
    if kind == "claimed":
        return "claimed by its authors"
    who = "measured by us" if kind == "reproduced" else f"measured by {_host(sota.source)}"
    m = bar.measured
    if m is None or short:
        return who
    shown = shown_unit(d) or m.unit
    parts = [f"{m.summary.stat} of {m.summary.n} runs" if m.summary is not None else "a single value"]
    if m.low is not None and m.high is not None:
        low, high = in_unit(m.low, m.unit, shown), in_unit(m.high, m.unit, shown)
        if low is not None and high is not None:
            parts.append(f"{fmt_percent(m.level or 0.95)} interval {fmt_range(low, high, shown)}")
    return f"{who}: {', '.join(parts)}"


def _host(url: str) -> str:
    return urlsplit(url).hostname or url


SINGLE = "one number: its run-to-run noise is not known"  # a single value is judged exact (issue 41)


def _modelled(d: ResolvedDimension) -> bool:
    return d.measured is not None and d.measured.simulated


@once
def measured_detail(d: ResolvedDimension) -> str:
    """What qualifies the value: '95% CI 29.9–30.4 ms, n = 10', 'median of n = 10 runs, range …', or ''."""
    m = _measurement(d)
    s = m.summary
    interval = None if m.low is None or m.high is None else _range(d, m.low, m.high, m.unit, m.value)
    if s is not None and s.failures:
        return _failed_detail(s, interval, m.level or s.level)
    if m.interval_from == "artifact" and interval:  # who states the level: the tool, or the ledger (issue 41)
        level = f"{fmt_percent(m.level)} " if m.level else ""
        tool = m.sources[0].tool if m.sources else None
        return f"{level}interval {interval} reported by {tool}" if tool else \
            f"interval {interval}, stated by the ledger as a {level}interval"
    if s is None and not m.expr and m.sources and m.sources[0].alone:  # a tool's own value, its runs not in the file
        src = m.sources[0]
        return (f"the tool's {src.stat}; " if src.stat else "") + src.alone
    if s is None:  # a formula: its interval through its inputs' intervals, where they have one
        if m.interval_from == "ci" and interval:
            return f"{fmt_percent(m.level or 0.95)} CI {interval}, through the inputs' intervals"
        if m.missing_end is not None:
            return f"too few runs in an input for the {fmt_percent(m.level or 0.95)} interval"
        return "" if m.expr or interval or _modelled(d) else SINGLE
    if s.n == 1 and not _modelled(d):
        return SINGLE
    runs = f"{s.stat} of n = {s.n} runs"
    if m.interval_from == "ci" and interval:
        return f"{runs}; {fmt_percent(m.level or s.level)} CI {interval}"
    if m.missing_end is not None:
        end, needed = m.missing_end
        return (f"{runs}; range {_range(d, s.lowest, s.highest, m.unit, m.value)}; too few runs for the "
                f"{fmt_percent(s.level)} interval's {end} end (it needs {needed})")
    return f"{runs}; range {_range(d, s.lowest, s.highest, m.unit, m.value)}"


def _failed_detail(s, interval: str | None, level: float) -> str:
    """What qualifies a statistic of requests some of which failed, each counted as the slowest (issue 41)."""
    if s.unbounded:
        return (f"{s.stat} of the {s.n - s.failures:,} requests that succeeded; {s.failures:,} of the {s.n:,} "
                f"failed, so the {s.stat} of all is unbounded: a failed request counts as the slowest")
    said = f"{fmt_percent(level)} CI {interval}" if interval else \
        f"the {fmt_percent(level)} interval's slow end is unbounded"
    return f"{s.stat} of n = {s.n:,} requests, {s.failures:,} failed (each counted as the slowest); {said}"


def interval_text(d: ResolvedDimension) -> str:
    """The interval the verdict used, with its level: '97.5% interval 75–88 ms'; '' where the value has none."""
    m = _measurement(d)
    if m.low is None or m.high is None:
        return ""
    level = m.level or (m.summary.level if m.summary is not None else None)
    return (f"{fmt_percent(level)} interval " if level else "interval ") + _range(d, m.low, m.high, m.unit, m.value)


def prose_values(d: ResolvedDimension) -> dict[str, str]:
    """What fills each placeholder of claim: and note: for d, in the words and unit the page shows (a name d has
    nothing for is absent: the check stage refuses it, SC211)."""
    values: dict[str, str] = {}
    if d.measured is not None:
        values.update(value=measured_text(d), n=str(d.measured.measurement.n))
        if interval := interval_text(d):
            values["interval"] = interval
    if bar := bar_text(d):
        values["bar"] = bar
    c = d.comparison
    if c is not None:
        values["gap"] = gap_words(c)
        if c.ratio is not None and c.ratio > 0 and c.bar > 0:
            values["ratio"] = fmt_ratio(c.ratio)
    return values


_PRIVATE = re.compile("[\ue000-\ue01f]")
# Around a ${quote …}, ${setting …} or ${was …}, through Markdown, then made a span that says what it is.
_MARKS = {"quote": ("\ue010", "\ue011"), "setting": ("\ue012", "\ue013"), "was": ("\ue014", "\ue015")}
_SPANS = {kind: (f'<span class="marked {"quoted" if kind == "quote" else kind}" title="{said}: not checked against '
                 f'the evidence">', f'<span class="visually-hidden"> ({said})</span></span>')
          for kind, said in MARKED.items()}


def prose_text(d: ResolvedDimension, field: str) -> str:
    """d's claim or note (field) as plain text: its placeholders filled from the numbers; '' where it has none."""
    text = getattr(d.record.model, field)
    if not text:
        return ""
    return fill(text, prose_values(d)) if "$" in text else text


@once
def prose(d: ResolvedDimension, field: str, block: bool = False) -> Markup:
    """d's claim or note (field) as HTML (inline, or with block as paragraphs): placeholders filled, Markdown
    rendered, a number quoted from elsewhere marked as such (its text shown as typed: no Markdown inside it)."""
    text = _PRIVATE.sub("", getattr(d.record.model, field) or "")
    if "$" in text:
        text = fill(_escape_quoted(text), prose_values(d), _MARKS)
    rendered = str(markdown_block(text) if block else markdown_inline(text))
    # A mark inside a tag (a link's title, a fence's info string) is dropped: the span goes only where text shows.
    return Markup("".join(_marked(part, part.startswith("<")) for part in _TAG.split(rendered)))


def _marked(part: str, in_tag: bool) -> str:
    for kind, (opened, closed) in _MARKS.items():
        part = part.replace(opened, "" if in_tag else _SPANS[kind][0]).replace(closed, "" if in_tag else
                                                                               _SPANS[kind][1])
    return part


_TAG = re.compile(r"(<[^>]*>)")
_MARKDOWN_PUNCT = re.compile(r"([\\`*_\[\]<>&!#|~()])")


def _escape_quoted(text: str) -> str:
    """text with the Markdown marks inside each ${quote …} escaped, so that a quote is shown as typed and its mark
    can neither split nor leave it."""
    pieces, _ = split(text)
    if not any(p.name in MARKED for p in pieces):
        return text
    return "".join(p.text.replace("${", "$${") if p.name is None else
                   "${" + p.name + " " + _MARKDOWN_PUNCT.sub(r"\\\1", p.text) + "}" if p.name in MARKED else
                   "${" + p.name + "}" for p in pieces)


@once
def standing_text(d: ResolvedDimension) -> str:
    """Where the value stands, in the words of its status (the one the evidence gives): '37% ahead of the bar',
    '12.4× slower than the bar', 'level with the bar: within ±5% (2.4% behind)', 'not behind the bar by more than
    5% (the interval reaches 18% ahead)', 'not yet placed: 2.4% behind by the point estimate; …'."""
    text, c = _standing(d), d.comparison
    in_percent = c is not None and units.is_percent(c.unit)
    return f"{text}; {RATIO}" if text and in_percent and d.record.model.share is False else text


RATIO = "judged as a ratio, not as a share (share: false)"  # a gain in percent, said where a reader sees it (issue 41)


def _standing(d: ResolvedDimension) -> str:
    c = d.comparison
    if c is None:
        return ""
    if d.status == "simulated":  # a modelled number gets no verdict word: its gap in plain figures (issue 41)
        return f"modelled: {gap_words(c)}"
    status = d.status if d.status in ("leads", "parity", "trails", "inconclusive") else c.verdict()
    if status in ("leads", "trails"):
        return gap_words(c)
    unlike = d.conditions_unlike
    if status == "inconclusive" and unlike:  # not placed whatever the runs: measured on other conditions (issue 44)
        return f"not placed: measured on other conditions ({', '.join(unlike)}); {gap_words(c)} as measured"
    if status == "inconclusive":
        needs = _runs_to_place(d)
        return f"not yet placed: {gap_words(c)} by the point estimate" + (f"; {needs}" if needs else "")
    if c.zero_bar:  # by sign: a difference from 0 depends on the unit
        return "level with the bar of 0" if c.margin == 0 else f"level with the bar ({gap_words(c)}; the interval " \
            "reaches it)"
    band = fmt_percent(c.tolerance)
    if not c.level_both_ways:
        reach = f"{fmt_percent(c.better_end)} ahead" if math.isfinite(c.better_end) else "unbounded ahead"
        return f"not behind the bar by more than {band} (the interval reaches {reach})"
    if c.margin == 0:
        return f"level with the bar: within ±{band}"
    return f"level with the bar: within ±{band} ({gap_words(c, named=False)})"


def status_marks(d: ResolvedDimension) -> list[str]:
    """The marks a reader must see beside a status wherever it is shown (README table, badges): modelled, sample
    data, suspect, stale source, stale evidence."""
    return [mark for mark, on in (("modelled", d.status == "simulated"),
                                  ("sample data", d.measured is not None and d.measured.sample),
                                  ("suspect", d.review == "suspect"), ("stale source", d.source_stale),
                                  ("stale evidence", d.evidence_stale)) if on]


def status_words(status: str, tolerance: float) -> str:
    """A status in words with what it rests on, for a badge's title: parity says its tolerance (issue 41)."""
    if status == "parity":
        return f"level with the bar: within ±{fmt_percent(tolerance)}"
    return "measured, not yet placed against the bar" if status == "inconclusive" else ""


def _runs_to_place(d: ResolvedDimension) -> str:
    """What it would take to place an inconclusive value: '6 runs give the median's interval at 95%'."""
    m = d.measured.measurement if d.measured is not None else None
    if m is None or m.missing_end is None:
        return ""
    s = m.summary
    what = f"the {s.stat}'s" if s is not None else "the formula's"
    return f"{m.missing_end[1]} runs give {what} interval at {fmt_percent(m.level or 0.95)}"


def review_counts(dimensions) -> dict[str, int]:
    """How many dimensions are reviewed and current, suspect, and measured but never reviewed."""
    counts = {"current": 0, "suspect": 0, "never": 0}
    for d in dimensions:
        if d.review in counts:
            counts[d.review] += 1
    return counts


def category_badge_text(cat: ResolvedCategory) -> str:
    parts = [f"{n} {STATUS_LABELS[s]}" for s, n in cat.counts.items() if n]
    return ", ".join(parts) or "empty"


def computed_from(d: ResolvedDimension, rel: str) -> list[dict[str, str]]:
    """What the pages computed from the values d cites in rel, side by side (the evidence viewer's "cited by",
    issue 45): 'ours: 81.2 ms (median of n = 12 runs; 95% CI 79.3–83.8 ms)', 'the bar: 120 ms, measured by us:
    median of 12 runs, 97.5% interval 118–124 ms' (at the level the verdict used)."""
    out = []
    m = d.measured
    if m is not None and any(src.evidence == rel for src in m.sources):
        detail = measured_detail(d)
        read = ", ".join(f"{src.name} = {fmt_value(src.value, src.unit)}" for src in m.sources if src.evidence == rel)
        how = f", computed as {m.measurement.expr} with {read} from this file" if m.measurement.expr else ""
        out.append({"side": "ours", "text": measured_text(d) + (f" ({detail})" if detail else "") + how})
    bar = d.record.bar_of.measured
    if bar is not None and any(src.evidence == rel for src in bar.sources):
        out.append({"side": "the bar", "text": f"{bar_text(d)}, {bar_kind(d)}"})
    return out


def single_source(m: Measurement | None) -> Source | None:
    """The one artifact's reading a measurement rests on (its link, its printed path), or None for a formula or
    several inputs."""
    return m.sources[0] if m is not None and not m.expr and len(m.sources) == 1 else None


def provenance_facts(d: ResolvedDimension) -> dict[str, str | int]:
    """A card's provenance line (issue 45): the artifact (or how many a formula reads), the day it was measured,
    the hardware its conditions state and the commit its meta records."""
    m = d.measured
    sources = m.sources if m is not None else ()
    one = single_source(m.measurement if m is not None else None)
    hardware = next((row.ours.value for row in d.conditions if row.key == "hardware" and row.ours is not None), "")
    commit = next((str(src.meta["commit"]) for src in sources if isinstance(src.meta, dict) and "commit" in src.meta),
                  "")
    return {"artifact": one.evidence if one is not None else "", "artifacts": len({src.evidence for src in sources}),
            "date": d.evidence_date.isoformat() if d.evidence_date else "", "hardware": str(hardware),
            "commit": commit}


def bar_evidence(d: ResolvedDimension) -> str:
    """The artifact a bar read from sota.result cites (printed beside it), or 'formula' for several."""
    m = d.record.bar_of.measured
    if m is None:
        return ""
    one = single_source(m)
    return one.evidence if one is not None else "formula"
