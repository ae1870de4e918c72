"""Where the bar comes from (sota.kind) and a bar read from an artifact (sota.result), read with ours.

A bar read from sota.result is a measurement like ours, and its interval counts in the verdict: each side is read
with k counting every interval on both sides (two intervals from runs are each taken at 97.5 %), so a lead must
clear the bar's interval as well as its own.
"""

from __future__ import annotations

from ..core.findings import Finding, finding
from ..measure import like, reading as measure
from ..measure.evidence import ArtifactStore
from ..measure.reading import Measurement
from .records import DimensionRecord

# Problems about a whole mapping point at its key; the rest at the value.
KEY_LOCS = frozenset({"result", "low", "high", "inputs"})


def check_form(rec: DimensionRecord, findings: list[Finding]) -> bool:
    """SC209 where the bar's kind and sota.result disagree, SC210 where a bar read from sota.result is typed as
    well; True when the bar's form is sound."""
    sota, doc = rec.model.sota, rec.doc
    before = len(findings)
    if sota.kind == "reproduced" and sota.result is None:
        findings.append(finding("SC209", doc.file, doc.pos(("sota", "kind")),
                                "kind: reproduced says we measured the other system, but there is no sota.result",
                                "add sota.result: naming the artifact of our run of the rival (evidence: and pointer:, "
                                "path: or format:), or say kind: independent or claimed with the typed value"))
    elif sota.result is not None and sota.kind not in ("reproduced", "independent"):
        said = f"kind: {sota.kind}" if sota.kind else "no kind (read as claimed)"
        findings.append(finding("SC209", doc.file, doc.pos(("sota", "kind" if sota.kind else "result"),
                                                           key=sota.kind is None),
                                f"sota.result reads the bar from an artifact, but the bar says {said}: the authors' "
                                "own number is typed, not measured", "write kind: reproduced (we measured it) or kind: "
                                "independent (a third party's committed artifact)"))
    if sota.result is not None:
        for key in ("value", "unit", "stat"):
            if getattr(sota, key) is not None:
                findings.append(finding("SC210", doc.file, doc.pos(("sota", key), key=True),
                                        f"sota.{key} is typed beside sota.result: one bar, one number",
                                        f"remove sota.{key}: the bar's value, unit and statistic are read from "
                                        "sota.result (give its unit: and stat: there)"))
    return len(findings) == before


def read_both(rec: DimensionRecord, store: ArtifactStore, findings: list[Finding],
              ours: bool) -> tuple[Measurement | None, Measurement | None]:
    """(our measurement, the bar's from sota.result), each read with k counting the other's intervals; None for a
    side that is not there or cannot be read (the findings say why).

    Each side is read once, and again only where both sides have intervals (its own are then taken at the level k
    intervals need) or where it could not be read (its findings then speak of k intervals): a side without an
    interval reads the same whatever k is."""
    model = rec.model
    bar_spec = model.sota.result
    if bar_spec is None:
        return (read(rec, model.result, (), store, findings) if ours else None), None
    first = measure.read(model.result, store.get) if ours else None
    bar_first = measure.read(bar_spec, store.get)
    k_ours = measure.intervals(first.measurement) if first is not None and first.measurement else 0
    k_bar = measure.intervals(bar_first.measurement) if bar_first.measurement else 0
    mine = found(rec, _again(first, k_ours, model.result, store, k_bar), (), findings) if first is not None else None
    bar = found(rec, _again(bar_first, k_bar, bar_spec, store, k_ours), ("sota",), findings)
    return mine, bar


def _again(first: measure.Reading, own: int, spec, store: ArtifactStore, others: int) -> measure.Reading:
    """first (which has own intervals), or spec read again with the other side's intervals counted, where they
    change it."""
    if not others or (first.measurement is not None and not own):
        return first
    return measure.read(spec, store.get, others)


def check_pair(rec: DimensionRecord, mine: Measurement, bar: Measurement, store: ArtifactStore,
               findings: list[Finding]) -> bool:
    """Ours and a bar read from sota.result are two measurements of one quantity: not the same values (SC317), not
    one field typed in two units (SC511), not two metrics of one tool (SC321), the bar's inputs one statistic
    (SC321). Whether they are sound."""
    doc, model = rec.doc, rec.model
    at = doc.pos(("sota", "result"), key=True)
    ours = {(src.evidence, place) for src in mine.sources for place in src.places}
    same = next((src for src in bar.sources if any((src.evidence, p) in ours for p in src.places)), None)
    if same is not None:
        findings.append(finding("SC317", doc.file, at, f"sota.result reads the values our result reads "
                                f"({same.cited}): the bar would be our own measurement",
                                "point sota.result at the other system's runs"))
        return False
    clash = measure.field_clash([*mine.sources, *bar.sources])  # each side's own inputs were checked when read
    if clash is not None:
        ours_src, theirs, field_name = clash
        findings.append(finding("SC511", doc.file, at, f"the bar reads the field '{field_name}' in {theirs.unit} and "
                                f"our result reads it in {ours_src.unit}: one quantity typed two ways puts a factor "
                                f"between them", f"give both the unit the artifacts' '{field_name}' is in"))
        return False
    spec, ours_spec = model.sota.result, model.result
    if spec is not None and ours_spec is not None and spec.format is not None and spec.format == ours_spec.format \
            and (spec.metric or "") != (ours_spec.metric or ""):
        findings.append(finding("SC321", doc.file, at, f"the bar is {spec.format}'s {spec.metric or 'default'} "
                                f"metric and ours its {ours_spec.metric or 'default'}: two quantities",
                                "read the same metric: on both sides"))
        return False
    problem = like.check(_values(bar, store), None, "parity")
    if problem is not None:
        findings.append(finding(problem.code, doc.file, at, "the bar: " + problem.message, problem.hint))
        return False
    return True


def stat_of(rec: DimensionRecord, bar: Measurement, store: ArtifactStore) -> str | None:
    """The bar's statistic as read: its runs', the tool's, what its key or a member beside it names, its inputs',
    else the stat: typed in sota.result."""
    read = [stat or (like.named(data, place) if place else None) for stat, _, data, place, _ in _values(bar, store)]
    return next((s for s in read if s), None) or getattr(rec.model.sota.result, "stat", None)


def _values(bar: Measurement, store: ArtifactStore) -> list:
    return [(src.summary.stat if src.summary else src.stat, src.selector, store.get(src.evidence).data,
             src.places[0] if src.places else (), ("sota", "result")) for src in bar.sources]


def read(rec: DimensionRecord, spec, prefix: tuple, store: ArtifactStore, out: list[Finding],
         others: int = 0) -> Measurement | None:
    """The measurement a result (ours, or the bar's under prefix sota) names, or None after recording in out why it
    cannot be had."""
    return found(rec, measure.read(spec, store.get, others), prefix, out)


def found(rec: DimensionRecord, reading: measure.Reading, prefix: tuple, out: list[Finding]) -> Measurement | None:
    """A reading's measurement, or None after recording its problems in out as findings at their places in the
    record (under prefix: ('sota',) for the bar's)."""
    doc = rec.doc
    for p in reading.problems:
        at_key = p.loc[-1] in KEY_LOCS or p.loc[-2:-1] == ("inputs",)
        loc = prefix + p.loc
        out.append(finding(p.code, doc.file, doc.pos(loc, key=at_key), p.message, p.hint))
    return None if reading.errors else reading.measurement
