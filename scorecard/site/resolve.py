"""Resolve stage: checked records + artifacts -> measured values with provenance.

Everything the renderer shows that is derived (values, ratios, who is ahead, counts,
trace targets, staleness) is computed here once, so render.py only lays it out.
"""

from __future__ import annotations

from dataclasses import field
from datetime import date
from typing import TYPE_CHECKING

from ..core.structs import frozen, slotted
from ..ledger import conditioned
from ..ledger.records import CategoryRecord, DimensionRecord, Ledger
from ..measure.conditions import Row, table
from ..measure import reading as measure
from ..measure.evidence import ArtifactStore, JsonValue, resolve_pointer
from ..measure.toolread import located
from ..measure.compare import Comparison, compare, not_compared, oldest_evidence, source_age
from ..measure.compare import evidence_age as age_of_evidence
from ..measure.reading import Measurement, Source
from ..ledger.model import Settings
from ..core.statuses import GLYPHS, MEASURED, STATUSES
from ..core.dates import first_day, full_date
from ..core.paths import is_url, normalise
from ..core.place import LedgerPlace

if TYPE_CHECKING:
    from ..history.walk import DimensionHistory, History


@frozen
class Measured:
    """The claimed number (read, summarised or derived from artifacts) and where it came from."""

    measurement: Measurement
    simulated: bool
    sample: bool  # an artifact it was read from says meta.sample

    @property
    def value(self) -> float:
        """The claimed number, in unit."""
        return self.measurement.value

    @property
    def unit(self) -> str:
        """The result's unit, as written."""
        return self.measurement.unit

    @property
    def sources(self) -> tuple[Source, ...]:
        """Each selection the number was read from (one, or one per input of a derived value)."""
        return self.measurement.sources

    @property
    def evidence(self) -> str:
        """The artifact of the first source."""
        return self.measurement.sources[0].evidence

    @property
    def pointer(self) -> str:
        """The pointer or JSONPath query of the first source."""
        return self.measurement.sources[0].selector

    @property
    def meta(self) -> dict:
        """The meta block of the first source's artifact."""
        return self.measurement.sources[0].meta


@frozen
class TraceView:
    """One trace entry, ready to link: kind is url, file or json."""

    kind: str
    target: str  # as written
    path: str  # ledger-relative file path ('' for URLs)
    pointer: str  # JSON pointer fragment ('' if none)
    label: str | None
    value: JsonValue = None  # the cited JSON value, for json traces


@slotted
class ResolvedDimension:
    """A dimension with everything the site shows about it."""

    record: DimensionRecord
    measured: Measured | None
    comparison: Comparison | None
    not_compared: str  # why a measured value is not compared with its bar ('' when it is, or nothing is measured)
    traces: list[TraceView]
    source_age_months: int | None
    source_stale: bool
    # Review: "current" (stamp matches), "suspect" (changed since), "never" (a measured claim
    # without a stamp), or None (an unmeasured claim without one); changes name what moved.
    review: str | None = None
    review_changes: list[str] = field(default_factory=list)
    # When the evidence was measured: its meta.date, else its last git commit; age against as_of.
    evidence_date: date | None = None
    evidence_date_from: str = ""  # "tool" (the run's date its tool records), "meta.date" or "git"
    evidence_age_months: int | None = None
    evidence_stale: bool = False
    history: DimensionHistory | None = None  # when the site is built with --history
    conditions: tuple[Row, ...] = ()  # what each side was measured on, side by side (measure.conditions.table)

    @property
    def conditions_differ(self) -> list[str]:
        """The conditions on which the two sides differ (the "conditions differ" mark names them)."""
        return [row.key for row in self.conditions if row.differs]

    @property
    def conditions_unlike(self) -> list[str]:
        """The conditions that must match and differ: the value is not placed against the bar (SC520)."""
        return [row.key for row in self.conditions if row.listed and row.differs]

    @property
    def id(self) -> str:
        """The dimension's id (its permalink anchor)."""
        return self.record.id

    @property
    def status(self) -> str:
        """The dimension's status word."""
        return self.record.model.status

    @property
    def glyph(self) -> str:
        """The status glyph."""
        return GLYPHS[self.status]


@slotted
class ResolvedCategory:
    """A category and its resolved dimensions, with counts per status."""

    record: CategoryRecord
    dimensions: list[ResolvedDimension]
    counts: dict[str, int]

    @property
    def slug(self) -> str:
        """The category's slug (its folder name and URL segment)."""
        return self.record.slug


@slotted
class ResolvedLedger:
    """The whole ledger, resolved: what render.py turns into pages."""

    place: LedgerPlace = field(repr=False)  # where it is on disk: no page, template or repr shows it
    settings: Settings
    categories: list[ResolvedCategory]
    counts: dict[str, int]
    as_of: date
    # Files the site must carry so that every trace and evidence link works, by ledger path.
    files: dict[str, bytes] = field(default_factory=dict, repr=False)  # the bytes, published as files
    # For each JSON file, the pointers cited into it and by which dimension ids.
    citations: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    history: History | None = None  # when built with --history


def attach_history(resolved: ResolvedLedger, history: History) -> None:
    """Give each dimension its history (by id); the ledger keeps the whole for changes.html and the feed."""
    resolved.history = history
    for cat in resolved.categories:
        for d in cat.dimensions:
            d.history = history.dimensions.get(d.id)


def count_statuses(dimensions: list[ResolvedDimension]) -> dict[str, int]:
    """How many dimensions have each status, in the format's status order."""
    counts = {s: 0 for s in STATUSES}
    for d in dimensions:
        counts[d.status] += 1
    return counts


def resolve_ledger(ledger: Ledger, store: ArtifactStore) -> ResolvedLedger:
    """Resolve every dimension of a checked, error-free ledger.

    The site never shows the clock: it is "as of" the date SOURCE_DATE_EPOCH pins (the place's), else the newest
    date in the data.
    """
    as_of = ledger.place.source_date or _latest_date(ledger, store)
    citations: dict[str, dict[str, list[str]]] = {}
    files: dict[str, bytes] = {}
    categories = []
    for cat in ledger.categories:
        dims = [resolve_dimension(d, ledger, store, as_of, citations, files) for d in cat.dimensions]
        categories.append(ResolvedCategory(cat, dims, count_statuses(dims)))
    every = [d for c in categories for d in c.dimensions]
    return ResolvedLedger(ledger.place, ledger.settings, categories, count_statuses(every), as_of,
                          dict(sorted(files.items())),
                          {k: dict(sorted(v.items())) for k, v in sorted(citations.items())})


def _cite(citations: dict, rel: str, pointer: str, dim_id: str) -> None:
    ids = citations.setdefault(rel, {}).setdefault(pointer, [])
    if dim_id not in ids:
        ids.append(dim_id)


def resolve_dimension(rec: DimensionRecord, ledger: Ledger, store: ArtifactStore, as_of: date,
                      citations: dict, files: dict) -> ResolvedDimension:
    """One dimension resolved; citations and files collect what its result and traces cite."""
    dim = rec.model
    measured = comparison = None
    why_not = ""
    measured_on, measured_from, evidence_age = None, "", None
    bar = rec.bar_of
    if bar.measured is not None and dim.sota.result is not None:  # a bar read from an artifact: cited like ours
        _cite_result(dim.sota.result, bar.measured, rec.id, store, citations, files)
    if dim.status in MEASURED and dim.result is not None:
        m = rec.measurement  # read by the check stage
        assert m is not None, "resolve runs only on a ledger without errors"
        _cite_result(dim.result, m, rec.id, store, citations, files)
        measured = Measured(m, simulated=dim.status == "simulated",
                            sample=any(bool(src.meta.get("sample")) for src in m.sources))
        comparison = compare(m, bar, ledger.settings.parity_tolerance, dim.share)
        why_not = not_compared(m, bar) or ""
        # the same files the check dates (SC310), read again only where the check did not
        oldest = rec.evidence_dated or oldest_evidence(measure.evidence_files(dim.result), store)
        if oldest is not None:
            measured_on, measured_from = oldest[0], oldest[1]
            evidence_age = age_of_evidence(measured_on, as_of)
    traces = [_trace_view(entry, rec.id, store, citations, files) for entry in dim.trace]
    age = source_age(dim.sota, as_of)
    stale_after = ledger.settings.stale_after_months
    evidence_after = ledger.settings.stale_evidence_after_months
    review = (rec.review.state if rec.review is not None else None) if dim.reviewed is not None else (
        "never" if measured is not None else None)
    return ResolvedDimension(rec, measured, comparison, why_not, traces, max(age, 0),
                             stale_after is not None and age > stale_after,
                             conditions=_conditions(rec, ledger.settings, store),
                             review=review, review_changes=list(rec.review.changes or ()) if rec.review else [],
                             evidence_date=measured_on, evidence_date_from=measured_from,
                             evidence_age_months=evidence_age,
                             evidence_stale=bool(evidence_after and evidence_age is not None
                                                 and evidence_age > evidence_after))


def _conditions(rec: DimensionRecord, settings: Settings, store: ArtifactStore) -> tuple[Row, ...]:
    """Both sides' conditions as rows: ours where a value was measured, the bar's typed or read from its evidence."""
    bar = rec.bar_of
    if rec.measurement is not None:
        ours, theirs, _ = conditioned.sides(rec, rec.measurement, bar, store)
    else:
        ours, theirs = {}, conditioned.sides_of_bar(rec, bar, store)
    return table(ours, theirs, conditioned.listed(rec, settings), settings.condition_equivalents)


def _cite_result(result, m: Measurement, dim_id: str, store: ArtifactStore, citations: dict, files: dict) -> None:
    """Publish and cite every file a result read (and what a format read beside it, such as asv's units)."""
    for rel, kind, selector in measure.selections(result):
        art = store.get(rel)
        files[art.rel] = art.raw
        for pointer in located(art.data, kind, selector):
            _cite(citations, art.rel, pointer, dim_id)
    for src in m.sources:  # where the page links to (the runs' array a tool's statistic was computed from)
        if src.at and src.evidence in files:
            _cite(citations, src.evidence, src.at, dim_id)
    for rel in sorted({rel for src in m.sources for rel in src.also}):
        files[rel] = store.get(rel).raw


def _trace_view(entry, dim_id: str, store: ArtifactStore, citations: dict, files: dict) -> TraceView:
    target, label = (entry, None) if isinstance(entry, str) else (entry.target, entry.label)
    if is_url(target):
        return TraceView("url", target, "", "", label)
    rel, _, pointer = target.partition("#")
    rel = normalise(rel)
    if rel.endswith(".json"):
        art = store.get(rel)
        files[rel] = art.raw
        if pointer:
            _cite(citations, rel, pointer, dim_id)
            return TraceView("json", target, rel, pointer, label, resolve_pointer(art.data, pointer))
        return TraceView("json", target, rel, "", label)
    if rel not in files:
        files[rel] = store.raw(rel)
    return TraceView("file", target, rel, "", label)


def _latest_date(ledger: Ledger, store: ArtifactStore) -> date:
    """Without SOURCE_DATE_EPOCH, "as of" is the newest date in the data, never the clock.

    The data's dates are the SOTA dates, the artifacts' meta.date, and in a git repository the
    date of the last commit that changed the ledger's claims or evidence.
    """
    latest = ledger.place.last_commit_date(["scorecard.yaml", "claims", "evidence"]) or date(1970, 1, 1)
    for d in ledger.dimensions():
        for text in (d.model.sota.date, d.model.sota.checked):
            if text:
                latest = max(latest, first_day(text))
    for art in store.loaded().values():
        measured = full_date(art.meta.get("date")) if isinstance(art.meta, dict) else None
        if measured is not None:
            latest = max(latest, measured)
    return latest
