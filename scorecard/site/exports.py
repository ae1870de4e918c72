"""The site's machine-readable exports: data.json (whole and per category), data.csv, search.json, sitemap.xml.

Field names and meanings are documented in docs/site.md; SCHEMA_VERSION changes when they do.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from urllib.parse import quote
from html import escape as _html_escape

from markupsafe import Markup

from .. import __version__
from ..measure.conditions import Row
from .resolve import ResolvedCategory, ResolvedDimension, ResolvedLedger
from .views import prose_text


SCHEMA_VERSION = 1


# C0 and C1 control characters but TAB, LF and CR: every export shows them as U+FFFD, as the pages do, so that
# `cat data.csv` (or data.json) cannot retitle a terminal or ring its bell (issue 40 item 8).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ESCAPED_CONTROL = re.compile(r"\\u00(?:0[0-8bcef]|1[0-9a-f]|7f)|[\x7f-\x9f]")


def clean_text(text: str) -> str:
    """text with the control characters an export must not hold replaced by U+FFFD."""
    return _CONTROL.sub("\ufffd", text)


def _cleaned(doc: object) -> object:
    if isinstance(doc, str):
        return clean_text(doc)
    if isinstance(doc, dict):
        return {clean_text(k) if isinstance(k, str) else k: _cleaned(v) for k, v in doc.items()}
    if isinstance(doc, (list, tuple)):
        return [_cleaned(v) for v in doc]
    return doc


def _compact(doc: object) -> str:
    # indent= would make json use its pure-Python encoder (5x slower), so exports are compact.
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if _ESCAPED_CONTROL.search(text):  # rare: clean the data itself and write it again (an escaped backslash
        text = json.dumps(_cleaned(doc), sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                          allow_nan=False)  # that reads like one costs only this second pass)
    return text


def json_bytes(doc: object) -> bytes:
    return (_compact(doc) + "\n").encode("utf-8")


def compact_bytes(doc: object) -> bytes:
    """doc as compact JSON, without the final newline (a part of a larger document)."""
    return _compact(doc).encode("utf-8")


def ledger_json_chunks(led: ResolvedLedger, parts: Iterable[bytes]) -> Iterator[bytes]:
    """data.json in chunks, byte for byte what json_bytes(ledger_data(led)) gives.

    parts: each category's compact_bytes(category_data(...)), in order (render builds them once for
    both the category's data.json and this one).
    """
    head = _ledger_head(led)
    yield ('{"as_of":' + _compact(head.pop("as_of")) + ',"categories":[').encode("utf-8")
    for i, part in enumerate(parts):
        yield (b"," + part) if i else part
    rest = ",".join(_compact(k) + ":" + _compact(v) for k, v in sorted(head.items()))
    yield ("]," + rest + "}\n").encode("utf-8")


def dimension_data(d: ResolvedDimension) -> dict:
    """One dimension in the machine-readable export."""
    rec = d.record
    m, c = d.measured, d.comparison
    return {
        "id": d.id, "category": rec.category, "file": rec.file, "url": f"{rec.category}/#{d.id}",
        **rec.model.model_dump(mode="json", exclude={"order"}), "glyph": d.glyph,
        "claim_text": prose_text(d, "claim"), "note_text": prose_text(d, "note") or None,
        "measured": None if m is None else measured_data(m),
        "bar": bar_data(d),
        "comparison": None if c is None else {"ratio": c.ratio, "margin": _margin(c),
                                              "standing": None if d.status == "simulated" else "unplaced"
                                              if d.conditions_unlike else c.standing,
                                              "better": c.better,
                                              "value": c.value, "unit": c.unit, "low": c.low, "high": c.high,
                                              "bar_low": c.bar_low, "bar_high": c.bar_high,
                                              "tolerance": c.band, "judged": c.judged or None},
        "not_compared": d.not_compared or None,
        "source_age_months": d.source_age_months, "source_stale": d.source_stale,
        "review": d.review, "review_changes": d.review_changes,
        "evidence_date": d.evidence_date.isoformat() if d.evidence_date else None,
        "evidence_date_from": d.evidence_date_from or None, "evidence_age_months": d.evidence_age_months,
        "evidence_stale": d.evidence_stale,
        "conditions": [conditions_row(row) for row in d.conditions],
    }


def conditions_row(row: Row) -> dict:
    """One condition in the export: both sides' values as shown (None: not stated), whether they differ, whether
    the ledger lists it as one that must match, and what the page marks beside ours."""
    return {"key": row.key, "ours": row.ours.value if row.ours else None, "bar": row.bar.value if row.bar else None,
            "differs": row.differs, "must_match": row.listed,
            "ours_marked": (row.ours.marked or None) if row.ours else None,
            "ours_stated_by_ledger": (row.ours.ledger or None) if row.ours else None}


def bar_data(d: ResolvedDimension) -> dict:
    """The bar in the export: where it comes from, its number, and (read from sota.result) its runs, interval and
    source."""
    bar = d.record.bar_of
    out: dict = {"kind": bar.kind, "value": bar.value, "unit": bar.unit, "better": bar.better, "stat": bar.stat}
    m = bar.measured
    if m is not None:
        first = m.sources[0]
        out.update(n=m.n, low=m.low, high=m.high, level=m.level, expr=m.expr,
                   evidence=None if m.expr else first.evidence, pointer=None if m.expr else _pointer(first),
                   path=first.selector if not m.expr and first.kind == "path" else None, tool=_tool(first))
    return out


def measured_data(m) -> dict:
    """The measured value in the export: the number, its interval and runs, and every source."""
    mm = m.measurement
    s = mm.summary
    first = mm.sources[0]
    out = {"value": mm.value, "unit": mm.unit, "evidence": None if mm.expr else first.evidence,
           "pointer": _pointer(first) if not mm.expr else None,
           "tool": _tool(first),
           "path": first.selector if not mm.expr and first.kind == "path" else None,
           "meta": first.meta, "simulated": m.simulated, "sample": m.sample,
           "n": mm.n, "stat": s.stat if s else None, "low": mm.low, "high": mm.high,
           "interval": mm.interval_from or None, "coverage": mm.coverage, "level": mm.level, "expr": mm.expr}
    if mm.failures:  # requests that failed, each counted as the slowest; unbounded: no value of all requests
        out.update(failed=mm.failures, unbounded=mm.unbounded)
        if mm.unbounded:
            out.update(value=None, value_of_successes=mm.value)
    if mm.expr:
        out["inputs"] = {src.name: {"value": src.value, "unit": src.unit, "evidence": src.evidence,
                                    **({"pointer": src.at, "tool": _tool(src)} if src.kind == "format"
                                       else {src.kind: src.selector}),
                                    "n": src.summary.n if src.summary else 1, "meta": src.meta} for src in mm.sources}
    return out


def _margin(c) -> float | None:
    """The margin as exported: none where the value of all requests is unbounded (failed requests, issue 41)."""
    return None if c.unbounded else c.margin


def _pointer(src) -> str | None:
    """The pointer typed, or for a format: selection the pointer of what it read (the runs' array, or the value)."""
    return src.selector if src.kind == "pointer" else src.at if src.kind == "format" else None


def _tool(src) -> dict | None:
    """A format: selection as the export shows it: the tool, and the statistic it computed where it stands alone."""
    if src.tool is None:
        return None
    return {"format": src.tool, "read": src.selector, "stat": src.stat, "alone": src.alone or None}


def category_data(cat: ResolvedCategory) -> dict:
    """One category in the machine-readable export."""
    rec = cat.record
    return {"slug": cat.slug, "file": rec.doc.file if rec.doc else None, **rec.model.model_dump(mode="json"),
            "counts": cat.counts, "dimensions": [dimension_data(d) for d in cat.dimensions]}


def _ledger_head(led: ResolvedLedger) -> dict:
    return {"schema_version": SCHEMA_VERSION, "generator": f"scorecard {__version__}", "as_of": led.as_of.isoformat(),
            "settings": led.settings.model_dump(mode="json"), "counts": led.counts}


def ledger_data(led: ResolvedLedger) -> dict:
    """The whole ledger with resolved values (the content of site/data.json)."""
    return {**_ledger_head(led), "categories": [category_data(c) for c in led.categories]}


CSV_COLUMNS = ("id", "category", "title", "status", "claim", "value", "unit", "bar", "bar_unit", "better", "bar_kind",
               "ratio", "margin", "tolerance", "source", "source_date", "bar_checked", "evidence", "pointer", "path",
               "artifact_commit", "artifact_date", "url", "conditions_differ")


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(value: object) -> str:
    """A text cell a spreadsheet will not run: one starting like a formula gets a leading apostrophe."""
    text = "" if value is None else clean_text(str(value))
    return "'" + text if text.startswith(_FORMULA_START) else text


def _csv_number(value: float | None) -> str:
    return "" if value is None else repr(float(value)) if not float(value).is_integer() else str(int(value))


def csv_row(cat_slug: str, d: ResolvedDimension) -> list[str]:
    """One dimension as a data.csv row (columns: CSV_COLUMNS; docs/site.md)."""
    model = d.record.model
    sota, m, c, bar = model.sota, d.measured, d.comparison, d.record.bar_of
    mm = m.measurement if m else None
    first = mm.sources[0] if mm and mm.sources and not mm.expr else None
    meta = first.meta if first else {}
    return [_csv_text(d.id), _csv_text(cat_slug), _csv_text(model.title), d.status, _csv_text(prose_text(d, "claim")),
            _csv_number(mm.value if mm else None), _csv_text(mm.unit if mm else None), _csv_number(bar.value),
            _csv_text(bar.unit), sota.better or "", bar.kind, _csv_number(c.ratio if c else None),
            _csv_number(_margin(c) if c else None), _csv_number(c.band if c and d.status == "parity" else None),
            _csv_text(sota.source), sota.date, sota.checked or "",
            _csv_text(first.evidence if first else None),
            _csv_text(_pointer(first) if first else None),
            _csv_text(first.selector if first and first.kind == "path" else None),
            _csv_text(meta.get("commit") if isinstance(meta.get("commit"), str) else None),
            d.evidence_date.isoformat() if d.evidence_date else "", f"{cat_slug}/index.html#{d.id}",
            _csv_text("; ".join(d.conditions_differ))]


def ledger_csv(led: ResolvedLedger) -> bytes:
    """data.csv: one row per dimension (RFC 4180, UTF-8, CRLF line ends), in the index's order."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for cat in led.categories:
        writer.writerows(csv_row(cat.slug, d) for d in cat.dimensions)
    return out.getvalue().encode("utf-8")


def sitemap(led: ResolvedLedger) -> bytes:
    """sitemap.xml (with base_url: a sitemap needs absolute addresses): the index, every category
    page and every dimension's card, with the ledger's "as of" date."""
    base = (led.settings.base_url or "").rstrip("/") + "/"
    cards = led.settings.cards
    paths = [""] + [p for c in led.categories
                    for p in [f"{c.slug}/", *(f"{c.slug}/card-{d.id}.html" for d in c.dimensions if cards)]]
    if led.history is not None:
        paths.append("changes.html")
    day = led.as_of.isoformat()
    body = "".join(f"<url><loc>{_xml_text(base + quote(p))}</loc><lastmod>{day}</lastmod></url>\n" for p in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + body + "</urlset>\n").encode("utf-8")


def search_index(led: ResolvedLedger) -> list[dict]:
    """A small index for tools: id, title, category, status, claim, url (naming the file, so that it opens from
    file:// too: latency/index.html#ttft-p50)."""
    return [{"id": d.id, "title": d.record.model.title, "category": c.slug, "status": d.status,
             "claim": prose_text(d, "claim"), "url": f"{c.slug}/index.html#{d.id}"}
            for c in led.categories for d in c.dimensions]


class _Spans:
    """Byte strings appended to a temporary file (no name: unlinked at once), each read back by its span."""

    def __init__(self) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 - it lives as long as what holds it
        self.end = 0

    def write(self, data: bytes) -> tuple[int, int]:
        self.file.seek(self.end)
        self.file.write(data)
        span = (self.end, len(data))
        self.end += len(data)
        return span

    def read(self, span: tuple[int, int]) -> bytes:
        self.file.seek(span[0])
        return self.file.read(span[1])


class Spool(_Spans):
    """Byte strings kept in a temporary file by key, read back in key order: data.json's parts of a large
    ledger (44 MB at 20,000 dimensions) need not stay in memory while the rest of the site is made.
    drain() closes the file, or it closes when the spool is dropped.
    """

    def __init__(self) -> None:
        super().__init__()
        self.where: dict[int, list[tuple[int, int]]] = {}

    def add(self, key: int, items: list[bytes]) -> None:
        self.where.setdefault(key, []).extend(self.write(item) for item in items)

    def drain(self) -> Iterator[bytes]:
        """Every item, in key order, then the file is closed."""
        try:
            for key in sorted(self.where):
                for span in self.where[key]:
                    yield self.read(span)
        finally:
            self.file.close()


class Sections(_Spans, Mapping[str, str]):
    """The index's section of each category, by slug, kept in a temporary file until the index is made: at 20,000
    dimensions they are 35 MB of HTML (up to twice that as text in memory), which the parent held while the rest of
    the site was made. Read back one at a time as the index is streamed, as markup (rendered by our templates)."""

    def __init__(self) -> None:
        super().__init__()
        self.where: dict[str, tuple[int, int]] = {}

    def add(self, sections: Mapping[str, str]) -> None:
        for slug, text in sections.items():
            self.where[slug] = self.write(text.encode("utf-8", "surrogatepass"))

    def __getitem__(self, slug: str) -> str:
        return Markup(self.read(self.where[slug]).decode("utf-8", "surrogatepass"))

    def __iter__(self) -> Iterator[str]:
        return iter(self.where)

    def __len__(self) -> int:
        return len(self.where)


def _xml_text(text: str) -> str:
    """text escaped for XML character data (&, < and >), as xml.sax.saxutils.escape does, without importing it
    (it loads urllib.request, http.client and email: 65 ms, a tenth of a warm build's start)."""
    return _html_escape(text, quote=False)
