"""Which staleness warnings time alone raised: those `--strict` lets pass (issue 43 item 3).

A stale source (SC603) or stale evidence (SC310) is raised by time alone when the record (and, for evidence, the
artifact) was committed unchanged while it was still fresh: a typo fix elsewhere must not fail because a source
aged since the last merge. A record or artifact changed after it went stale (a pull request that brings in a
26-year-old bar, or an artifact dated long ago), or not committed as it is, was not made stale by time: `--strict`
refuses it as any other warning (the hostile pass found the first version exempted every SC603 and SC310).

Lazy import: core.git, only where such a warning is found under --strict.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..measure.compare import evidence_age, source_age

if TYPE_CHECKING:
    from datetime import date

    from ..core.findings import Finding
    from ..core.place import LedgerPlace
    from .records import CheckResult

AGED = frozenset({"SC310", "SC603"})


def _committed(place: LedgerPlace, rel: str, dates: dict[str, tuple[date, str]]) -> date | None:
    """When rel was last committed, if the file is committed exactly as it is now; else None."""
    from ..core import git

    entry = dates.get(rel)
    if entry is None:
        return None
    try:
        now = place.path(rel).read_bytes()
    except (OSError, ValueError):
        return None
    return entry[0] if git.blob_id(now) == entry[1] else None


def by_time_alone(result: CheckResult) -> list[Finding]:
    """The SC603 and SC310 findings of result that time alone raised."""
    aged = [f for f in result.findings if f.code in AGED]
    if not aged:
        return []
    place, settings = result.ledger.place, result.ledger.settings
    records = {d.file: d for d in result.ledger.dimensions()}
    claims, evidence = place.last_change_dates("claims"), place.last_change_dates("evidence")
    out = []
    for f in aged:
        rec, changed = records.get(f.file), _committed(place, f.file, claims)
        if rec is None or changed is None:
            continue
        if f.code == "SC603":
            limit = settings.stale_after_months
            fresh = limit is not None and source_age(rec.model.sota, changed) <= limit
        else:
            dated = rec.evidence_dated
            artifact = _committed(place, dated[3], evidence) if dated is not None else None
            limit = settings.stale_evidence_after_months
            fresh = dated is not None and artifact is not None and limit is not None and \
                evidence_age(dated[0], max(changed, artifact)) <= limit
        if fresh:
            out.append(f)
    return out
