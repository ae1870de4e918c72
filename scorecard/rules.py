"""The rules beyond the schema: evidence, traces, honesty and sources, per dimension."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from .evidence import ArtifactStore, PointerError, is_number, json_kind, parse_pointer, resolve_pointer
from .findings import Finding, finding
from .model import MEASURED, DATE_RE, URL_RE, Settings, parse_date
from .paths import PathProblem, is_url

if TYPE_CHECKING:
    from .check import DimensionRecord


def check_dimension(rec: "DimensionRecord", settings: Settings, store: ArtifactStore, today: date,
                    findings: list[Finding]) -> None:
    """Every cross-file rule for one schema-valid dimension."""
    dim, doc = rec.model, rec.doc
    before = len(findings)
    measured = dim.status in MEASURED
    if measured and dim.result is None:
        findings.append(finding("SC301", doc.file, doc.pos(("status",)),
                                f"status '{dim.status}' states a number but there is no result",
                                "add result: {evidence: evidence/<file>.json, pointer: /path/to/value, unit: ...}, "
                                "or use status no-claim"))
    elif not measured and dim.result is not None:
        findings.append(finding("SC302", doc.file, doc.pos(("result",), key=True),
                                f"status '{dim.status}' has no number, so it must not have a result",
                                "remove result:, or set the status the measurement supports"))
    value = measured_value(rec, store, findings) if measured and dim.result is not None else None
    if value is not None and dim.status != "simulated":
        _check_honesty(rec, value, settings.parity_tolerance, findings)
    _check_source_date(rec, settings, today, findings)
    for i, entry in enumerate(dim.trace):
        target = entry if isinstance(entry, str) else entry.target
        path = ("trace", i) if isinstance(entry, str) else ("trace", i, "path" if entry.path is not None else "url")
        _check_trace(rec, target, doc.pos(path), store, findings)
    if measured and dim.result is not None and value is not None and settings.stale_evidence_after_months:
        _check_evidence_age(rec, settings, store, today, findings)
    if not any(f.severity == "error" for f in findings[before:]) and (value is not None or not measured):
        _check_review(rec, settings, store, findings)


def _check_review(rec: "DimensionRecord", settings: Settings, store: ArtifactStore, findings: list[Finding]) -> None:
    """SC801 when the reviewed: stamp no longer matches what the claim rests on; SC802 when one is required."""
    dim, doc = rec.model, rec.doc
    if dim.reviewed is None:
        if settings.require_review and dim.status in MEASURED:
            findings.append(finding("SC802", doc.file, doc.pos(("status",)),
                                    f"the measured claim '{rec.id}' has never been reviewed",
                                    f"check the claim against its evidence, then run `scorecard review {rec.id}`"))
        return
    from . import review  # here: a ledger without stamps (and the hook on it) never loads it

    covered = review.inputs(dim, store.get)
    if covered is None:
        return
    rec.inputs = covered
    if review.fingerprint(covered) == dim.reviewed:
        rec.review = "current"
        return
    rec.review = "suspect"
    findings.append(finding("SC801", doc.file, doc.pos(("reviewed",)), suspect_message(rec.id, None),
                            f"check the claim still holds, then run `scorecard review {rec.id}` to record that"))


def suspect_message(dim_id: str, changes: list[str] | None) -> str:
    """SC801's sentence, naming what changed when it is known."""
    what = "; ".join(changes) if changes else ("its status, claim or a cited value (git holds no committed "
                                               "version of the review to compare with)")
    return f"suspect: '{dim_id}' changed since it was reviewed: {what}"


def evidence_date(art, store: ArtifactStore) -> tuple[date | None, str]:
    """When an artifact was measured, and how that is known: ('meta.date' or 'git'), or (None, '').

    git is asked only for an artifact without a usable meta.date (once per run, for all of evidence/).
    """
    text = art.meta.get("date") if isinstance(art.meta, dict) else None
    parsed = parse_date(text) if isinstance(text, str) and len(text) == 10 else None
    if parsed and parsed[2]:
        return date(*parsed), "meta.date"
    committed = store.git_date(art.rel)
    return (committed, "git") if committed is not None else (None, "")


def _check_evidence_age(rec: "DimensionRecord", settings: Settings, store: ArtifactStore, today: date,
                        findings: list[Finding]) -> None:
    art = store.get(rec.model.result.evidence)
    measured, how = evidence_date(art, store)
    if measured is None:
        return
    age = months_between((measured.year, measured.month), today)
    limit = settings.stale_evidence_after_months
    if age > limit:
        source = "its meta.date" if how == "meta.date" else "the last git commit that changed it"
        findings.append(finding("SC310", rec.doc.file, rec.doc.pos(("result", "evidence")),
                                f"the evidence {art.rel} was measured {age} months ago ({measured.isoformat()}, from "
                                f"{source}); stale_evidence_after_months is {limit}",
                                "measure again and commit the new artifact, or say in the claim how old the number is"))


def measured_value(rec: "DimensionRecord", store: ArtifactStore, out: list[Finding]) -> float | None:
    """The number rec's result points at, or None after recording in out why it cannot be had."""
    doc, result = rec.doc, rec.model.result
    ev_pos, ptr_pos = doc.pos(("result", "evidence")), doc.pos(("result", "pointer"))
    rel = result.evidence
    if not rel.startswith("evidence/") or not rel.endswith(".json"):
        out.append(finding("SC303", doc.file, ev_pos, f"evidence '{rel}' is not a .json file under evidence/",
                           "move the artifact to evidence/ and cite it as evidence/<name>.json"))
        return None
    try:
        art = store.get(rel)
    except PathProblem as exc:
        out.append(finding(exc.code, doc.file, ev_pos, exc.message, exc.hint))
        return None
    if art.error == "missing":
        out.append(finding("SC304", doc.file, ev_pos, f"evidence file '{rel}' does not exist",
                           "commit the artifact, or fix the path (it is relative to the ledger root)"))
        return None
    if art.error:
        out.append(finding("SC305", doc.file, ev_pos, f"evidence file '{rel}' is {art.error}",
                           "regenerate the artifact as strict JSON (NaN and Infinity are not JSON; use null)"))
        return None
    try:
        parse_pointer(result.pointer)
        value = resolve_pointer(art.data, result.pointer)
    except PointerError as exc:
        code = "SC306" if exc.syntax else "SC307"
        hint = ("write an RFC 6901 pointer such as /runs/peak/ratio (escape '~' as ~0 and '/' as ~1)" if exc.syntax
                else f"point at a number that exists in {rel}")
        out.append(finding(code, doc.file, ptr_pos, f"pointer '{result.pointer}' in {rel}: {exc.message}", hint))
        return None
    if not is_number(value):
        what = json_kind(value)
        out.append(finding("SC308", doc.file, ptr_pos,
                           f"pointer '{result.pointer}' in {rel} names a {what}, not a finite number",
                           "point at the number itself (a boolean, string or null is not a measurement)"))
        return None
    return float(value)


def margin(result: float, bar: float, better: str) -> float:
    """How far result is ahead of bar, relative to the bar (negative: behind)."""
    diff = (result - bar) / abs(bar) if bar else result - bar
    return diff if better == "higher" else -diff


def _check_honesty(rec: "DimensionRecord", value: float, tolerance: float, findings: list[Finding]) -> None:
    dim, doc = rec.model, rec.doc
    sota = dim.sota
    if sota.value is None or dim.result is None or sota.unit.strip() != dim.result.unit.strip():
        return
    m = margin(value, sota.value, sota.better)
    shown = f"{_num(value)} {dim.result.unit} against the bar {_num(sota.value)} {sota.unit} ({sota.better} is better)"
    pos = doc.pos(("status",))
    if dim.status == "leads" and m <= 0:
        findings.append(finding("SC501", doc.file, pos, f"status is leads, but the result is {shown}",
                                "set the status the numbers support (parity or trails)"))
    elif dim.status == "leads" and m <= tolerance:
        findings.append(finding("SC504", doc.file, pos,
                                f"status is leads by {m:.1%}, within the parity tolerance of {tolerance:.0%}: {shown}",
                                "consider status parity; a lead inside the tolerance is noise"))
    elif dim.status == "trails" and m >= 0:
        findings.append(finding("SC502", doc.file, pos, f"status is trails, but the result is {shown}",
                                "set the status the numbers support (parity or leads)"))
    elif dim.status == "parity" and abs(m) > tolerance:
        findings.append(finding("SC503", doc.file, pos,
                                f"status is parity, but the result is {abs(m):.1%} {'ahead' if m > 0 else 'behind'} "
                                f"(tolerance {tolerance:.0%}): {shown}",
                                f"set status {'leads' if m > 0 else 'trails'}, or widen parity_tolerance in scorecard.yaml"))


def _num(x: float) -> str:
    return f"{x:g}"


def months_between(then: tuple[int, int], now: date) -> int:
    """Whole months from (year, month) to now."""
    return (now.year - then[0]) * 12 + (now.month - then[1])


def _check_source_date(rec: "DimensionRecord", settings: Settings, today: date, findings: list[Finding]) -> None:
    doc, text = rec.doc, rec.model.sota.date
    year, month, day = parse_date(text)
    start = date(year, month or 1, day or 1)
    pos = doc.pos(("sota", "date"))
    if start > today:
        findings.append(finding("SC602", doc.file, pos, f"sota.date {text} is in the future (today is {today.isoformat()})",
                                "use the date the source was published"))
        return
    if settings.stale_after_months is not None:
        # Measured from the end of the period named, so `2024` counts from December 2024.
        age = months_between((year, month or 12), today)
        if age > settings.stale_after_months:
            findings.append(finding("SC603", doc.file, pos,
                                    f"the SOTA source is {age} months old (stale_after_months is {settings.stale_after_months})",
                                    "check whether the field has moved on, then update sota: (bar, source, date)"))


def _check_trace(rec: "DimensionRecord", target: str, pos: tuple[int, int], store: ArtifactStore,
                 findings: list[Finding]) -> None:
    file = rec.doc.file
    if is_url(target):
        if not URL_RE.match(target):
            findings.append(finding("SC403", file, pos, f"trace URL '{target}' is not a valid http(s) URL",
                                    "traces may link only http:// or https:// URLs, without spaces, quotes, <, > or "
                                    "backslashes (percent-encode them)"))
        return
    rel, _, fragment = target.partition("#")
    try:
        _, kind = store.locate(rel)
    except PathProblem as exc:
        findings.append(finding(exc.code, file, pos, exc.message, exc.hint))
        return
    if kind == "missing":
        findings.append(finding("SC401", file, pos, f"trace '{rel}' does not exist",
                                "commit the file, or fix the path (it is relative to the ledger root)"))
        return
    if kind == "dir":
        findings.append(finding("SC405", file, pos, f"trace '{rel}' is a folder", "point at a file inside it"))
        return
    if not fragment and "#" not in target:
        return
    if not fragment.startswith("/") or not rel.endswith(".json"):
        findings.append(finding("SC402", file, pos, f"trace fragment '#{fragment}' must be a JSON pointer into a .json file",
                                "write file.json#/path/to/value, or drop the fragment"))
        return
    art = store.get(rel)
    if art.error:
        findings.append(finding("SC402", file, pos, f"trace '{rel}' is {art.error}", "fix the JSON file"))
        return
    try:
        resolve_pointer(art.data, fragment)
    except PointerError as exc:
        findings.append(finding("SC402", file, pos, f"trace '{target}': {exc.message}",
                                f"point at a value that exists in {rel}"))


def check_artifacts(store: ArtifactStore) -> list[Finding]:
    """Warnings about the meta block of each artifact read."""
    out = []
    for rel, art in sorted(store.loaded().items()):
        if not isinstance(art.data, dict) or "meta" not in art.data:
            continue
        meta = art.data["meta"]
        if not isinstance(meta, dict):
            out.append(finding("SC309", rel, (1, 1), f"'meta' is a {json_kind(meta)}, not an object",
                               "make meta an object such as {\"commit\": ..., \"date\": \"YYYY-MM-DD\"}"))
        elif "date" in meta and not (isinstance(meta["date"], str) and DATE_RE.match(meta["date"])
                                     and len(meta["date"]) == 10 and parse_date(meta["date"])):
            out.append(finding("SC309", rel, (1, 1), f"meta.date {meta['date']!r} is not a YYYY-MM-DD date",
                               "write the date the artifact was measured as YYYY-MM-DD"))
    return out
