"""The conditions rules (docs/format.md "Conditions"): a comparison across a condition the ledger lists as one that
must match is not judged (SC520); a bar we reproduced on other hardware (SC521) and an artifact whose meta
contradicts its tool (SC522) are said.

The promise: no status places a value against a bar measured on other listed conditions, whatever the record types;
an unstated value never counts as a match.
"""

from __future__ import annotations

from ..core.findings import Finding, finding
from ..measure import compare
from ..measure.conditions import (Conditions, Contradiction, Difference, added, differences, differing,
                                  of_measurement, typed)
from ..measure.evidence import ArtifactStore
from ..measure.reading import Measurement
from .model import Settings
from .records import DimensionRecord


def sides(rec: DimensionRecord, m: Measurement, bar: compare.Bar, store: ArtifactStore) \
        -> tuple[Conditions, Conditions, list[tuple[str, Contradiction]]]:
    """(ours, the bar's, each artifact whose meta contradicts its tool, with the key and the two values): read once
    per run, for the check and the pages alike."""
    key = f"{rec.id}\0{id(m)}"
    if key not in store.sides:
        ours, contradicted = of_measurement(m, store.get)
        theirs, more = _bar(rec, bar, store)
        store.sides[key] = ours, theirs, contradicted + more
    return store.sides[key]


def sides_of_bar(rec: DimensionRecord, bar: compare.Bar, store: ArtifactStore) -> Conditions:
    """The bar's conditions: typed in sota.conditions, added to what its own evidence records where we measured it."""
    return _bar(rec, bar, store)[0]


def _bar(rec: DimensionRecord, bar: compare.Bar, store: ArtifactStore) \
        -> tuple[Conditions, list[tuple[str, Contradiction]]]:
    theirs = typed(rec.model.sota.conditions)
    if bar.measured is None:
        return theirs, []
    read, contradicted = of_measurement(bar.measured, store.get)
    return added(read, theirs), contradicted


def listed(rec: DimensionRecord, settings: Settings) -> list[str]:
    """The keys that must match: the ledger's, then the record's own."""
    return list(dict.fromkeys([*settings.conditions_must_match, *rec.model.conditions_must_match]))


def unlike(rec: DimensionRecord, m: Measurement, bar: compare.Bar, settings: Settings,
           store: ArtifactStore) -> list[Difference]:
    """The keys conditions_must_match lists (the ledger's and the record's) that the two sides do not share."""
    keys = listed(rec, settings)
    if not keys:
        return []
    ours, theirs, _ = sides(rec, m, bar, store)
    return differences(ours, theirs, keys, settings.condition_equivalents)


def check(rec: DimensionRecord, m: Measurement, bar: compare.Bar, settings: Settings, store: ArtifactStore,
          findings: list[Finding]) -> list[Difference]:
    """SC522 and SC521 where they hold; SC520 where a listed key differs and the status places the value. Returns the
    listed keys that differ (the comparison is then not judged further)."""
    dim, doc = rec.model, rec.doc
    ours, theirs, contradicted = sides(rec, m, bar, store)
    for rel, (key, tool, meta) in contradicted:
        findings.append(finding("SC522", doc.file, doc.pos(("result", "evidence") if dim.result else ("result",)),
                                f"{rel}: meta states {key} {meta!r}, but the tool records {tool!r}: the page shows "
                                "the tool's, with the meta's beside it as stated by the ledger",
                                f"remove meta.{key} (the tool's record stands), or cite the run it describes"))
    keys = listed(rec, settings)
    if bar.kind == "reproduced" and "hardware" not in keys and "hardware" in differing(
            ours, theirs, settings.condition_equivalents):
        findings.append(finding("SC521", doc.file, doc.pos(("sota", "kind")),
                                f"the bar we reproduced was measured on other hardware: {ours['hardware'].value} "
                                f"(ours) · {theirs['hardware'].value} (bar)",
                                "measure both systems on the same machine, or list hardware in "
                                "conditions_must_match to leave the comparison inconclusive"))
    differ = unlike(rec, m, bar, settings, store)
    if differ and dim.status != "inconclusive":
        said = "; ".join(d.words() for d in differ)
        findings.append(finding("SC520", doc.file, doc.pos(("status",)),
                                f"status is {dim.status}, but conditions that must match do not: {said}; the evidence "
                                "gives inconclusive",
                                "set status: inconclusive, or measure on the bar's conditions (conditions_must_match "
                                f"lists {', '.join(d.key for d in differ)}; state a missing one in sota.conditions or "
                                "the artifact's meta)"))
    for field in ("claim", "note"):
        text = getattr(dim, field) or ""
        used = [name for name in ("gap", "ratio") if "${" + name + "}" in text]
        if differ and used:
            findings.append(finding("SC520", doc.file, doc.pos((field,)),
                                    f"{field} fills ${{{used[0]}}}, a gap to the bar, across conditions that must "
                                    f"match and do not: {'; '.join(d.words() for d in differ)}",
                                    "say what each side measured, in words, with ${value} and ${bar} (e.g. '${value} "
                                    "on our model; the bar's ${bar} is on another')"))
    return differ

