"""The rules beyond the schema: evidence, traces, honesty and sources, per dimension."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from ..measure import compare, like, reading as measure, toolread, tools, units, verdict
from ..measure.compare import evidence_age, oldest_evidence, source_age
from ..measure.evidence import ArtifactStore, PointerError, resolve_pointer
from ..core.findings import Finding, finding, kind_of
from ..measure.reading import Measurement
from .fieldchecks import URL_RE
from .model import Settings
from ..core.statuses import HONEST, MEASURED
from ..core.dates import first_day, full_date
from ..core.paths import PathProblem, is_url, windows_problem
from . import bars, conditioned, privacy, prose
from .records import DimensionRecord, Review
from . import placeholders as ph, stamps
from .placeholders import ARTIFACT_NOTE


def check_dimension(rec: DimensionRecord, settings: Settings, store: ArtifactStore, today: date,
                    findings: list[Finding], known_clean: bool = False) -> DimensionRecord:
    """Every cross-file rule for one schema-valid dimension; the record with its measurement (read once, here, for
    every later stage) and its review, when it carries a stamp. known_clean (a clean check that still holds,
    checkmemo.py): only what later stages read is worked out (the measurement, the bar, the evidence's date, the
    review), not the rules that could only add findings."""
    measurement, bar, review, dated = _check_rules(rec, settings, store, today, findings, known_clean)
    if measurement is None and review is None and bar is None:
        return rec
    return replace(rec, measurement=measurement, review=review, bar=bar, evidence_dated=dated,
                   bar_stat=bars.stat_of(rec, bar, store) if bar is not None else None)


def _check_rules(rec: DimensionRecord, settings: Settings, store: ArtifactStore, today: date,
                 findings: list[Finding], known_clean: bool = False) -> tuple[Measurement | None, Measurement | None,
                                                                          Review | None, tuple | None]:
    dim = rec.model
    before = len(findings)
    measured = dim.status in MEASURED
    ours = measured and dim.result is not None
    if known_clean:
        value, bar = bars.read_both(rec, store, findings, ours)
    else:
        value, bar = _check_findings(rec, settings, store, today, findings)
    dated = None
    if measured and dim.result is not None and value is not None and settings.stale_evidence_after_months:
        dated = _check_evidence_age(rec, settings, store, today, findings)
    if not any(f.severity == "error" for f in findings[before:]) and (value is not None or not measured):
        return value, bar, _check_review(rec, settings, store, findings), dated
    return value, bar, None, dated


def _check_findings(rec: DimensionRecord, settings: Settings, store: ArtifactStore, today: date,
                    findings: list[Finding]) -> tuple[Measurement | None, Measurement | None]:
    """The rules before the evidence's age and the review, in the order they ask the store: (our measurement, the
    bar's from sota.result)."""
    dim, doc = rec.model, rec.doc
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
    ours = measured and dim.result is not None
    value, bar = bars.read_both(rec, store, findings, ours) if bars.check_form(rec, findings) else (None, None)
    sound = bars.check_pair(rec, value, bar, store, findings) if value is not None and bar is not None else True
    if dim.status == "simulated" and value is not None and _measured_not_modelled(value, store):
        findings.append(finding("SC326", doc.file, doc.pos(("status",)),
                                "status is simulated, but the result is read from a benchmark tool's output or a set "
                                "of runs: a measurement, not a model",
                                "set the status the evidence gives (leads, parity, trails or inconclusive), or cite "
                                "the model's output"))
    judged = compare.Bar.of(dim.sota, bar, bars.stat_of(rec, bar, store) if bar is not None else None)
    if value is not None and (bar is not None or dim.sota.result is None) and sound:
        _check_honesty(rec, value, judged, settings, store, findings)
    for where, unit in ((("sota", "unit"), dim.sota.unit), (("display_unit",), dim.display_unit)):
        unit_problem = measure.unit_problem(where, unit, "the result's") if unit is not None else None
        if unit_problem is not None:
            findings.append(finding(unit_problem.code, doc.file, doc.pos(unit_problem.loc), unit_problem.message,
                                    unit_problem.hint))
    _check_display_unit(rec, findings, bar.unit if bar is not None else None, value.unit if value else None)
    _check_source_date(rec, settings, today, findings)
    _check_placeholders(rec, findings)
    prose.check(rec, value if sound else None, judged, settings.parity_tolerance, findings, year=today.year)
    for i, entry in enumerate(dim.trace):
        target = entry if isinstance(entry, str) else entry.target
        path = ("trace", i) if isinstance(entry, str) else ("trace", i, "path" if entry.path is not None else "url")
        _check_trace(rec, target, doc.pos(path), store, findings)
    _check_windows_names(rec, findings)
    return value, bar


def _check_windows_names(rec: DimensionRecord, findings: list[Finding]) -> None:
    """SC411 for a file the record is, reads or cites whose name Windows cannot check out (the site writes it too)."""
    dim, doc = rec.model, rec.doc
    named: list[tuple[tuple, str]] = [((), doc.file)]
    if dim.result is not None and dim.status in MEASURED:
        named += list(measure.evidence_files(dim.result))
    if dim.sota.result is not None:  # the bar's evidence is published too
        named += [(("sota",) + loc, rel) for loc, rel in measure.evidence_files(dim.sota.result)]
    for i, entry in enumerate(dim.trace):
        target = entry if isinstance(entry, str) else entry.target
        if not is_url(target):
            named.append((("trace", i), target.partition("#")[0]))
    seen: set[str] = set()
    for loc, rel in named:
        refused = "\\" in rel or rel[1:2] == ":" or rel.startswith("/")  # SC404 says what is wrong with it
        why = windows_problem(rel) if rel not in seen and not refused else None
        seen.add(rel)
        if why is not None:
            findings.append(finding("SC411", doc.file, doc.pos(loc) if loc else (1, 1),
                                    f"'{rel}' cannot be checked out on Windows: {why}",
                                    "rename it: a ledger must clone, and its site unpack, on every system"))


def _measured_not_modelled(m: Measurement, store: ArtifactStore) -> bool:
    """Whether a value comes from what measures (a tool's file, by format: or pointer; runs; a statistic of runs by
    its key, such as median or p99), not from a model's output. A single number under a key such as `runs` may be a
    model's run as well as a measured one: it is not refused."""
    if m.summary is not None:
        return True
    for src in m.sources:
        data = store.get(src.evidence).data
        if src.tool is not None or src.summary is not None or tools.recognise(data) is not None:
            return True
        if any(like.named(data, place) not in (None, "spread") for place in src.places[:1]):
            return True
    return False


def _check_review(rec: DimensionRecord, settings: Settings, store: ArtifactStore,
                  findings: list[Finding]) -> Review | None:
    """SC801 when the reviewed: stamp no longer matches what the claim rests on; SC802 when one is required."""
    dim, doc = rec.model, rec.doc
    if dim.reviewed is None:
        if settings.require_review and dim.status in MEASURED:
            findings.append(finding("SC802", doc.file, doc.pos(("status",)),
                                    f"the measured claim '{rec.id}' has never been reviewed",
                                    f"check the claim against its evidence, then run `scorecard review {rec.id}`"))
        return None
    try:
        covered = stamps.inputs(dim, store.get, settings.parity_tolerance)
    except PointerError as exc:  # a query the stamp covers was stopped by the budget: never a silent pass
        findings.append(finding("SC311", doc.file, doc.pos(("reviewed",)),
                                f"the reviewed: stamp cannot be checked: {exc.message}",
                                "make the query cheaper (or the file it reads smaller), so that the run's queries "
                                "stay within their budget"))
        return None
    if covered is None:
        return None
    if stamps.matches(dim.reviewed, covered):
        return Review("current", covered)
    findings.append(finding("SC801", doc.file, doc.pos(("reviewed",)), stamps.suspect_message(rec.id, None),
                            f"check the claim still holds, then run `scorecard review {rec.id}` to record that"))
    return Review("suspect", covered)


def _check_evidence_age(rec: DimensionRecord, settings: Settings, store: ArtifactStore, today: date,
                        findings: list[Finding]) -> tuple | None:
    """SC310 for evidence older than the setting; when the evidence was measured, for the site to reuse."""
    oldest = oldest_evidence(measure.evidence_files(rec.model.result), store)
    if oldest is None:
        return None
    measured, how, loc, rel = oldest
    age = evidence_age(measured, today)
    limit = settings.stale_evidence_after_months or 0
    if age > limit:
        source = {"meta.date": "its meta.date", "tool": "the run's date its tool records"}.get(
            how, "the last git commit that changed it")
        findings.append(finding("SC310", rec.doc.file, rec.doc.pos(loc),
                                f"the evidence {rel} was measured {age} months ago ({measured.isoformat()}, from "
                                f"{source}); stale_evidence_after_months is {limit}",
                                "measure again and commit the new artifact, or say in the claim how old the number is"))
    return oldest


def _check_honesty(rec: DimensionRecord, m: Measurement, sota: compare.Bar, settings: Settings, store: ArtifactStore,
                   findings: list[Finding]) -> None:
    dim, doc, tolerance = rec.model, rec.doc, settings.parity_tolerance
    if sota.value is None and dim.status in ("leads", "parity"):
        findings.append(finding("SC516", doc.file, doc.pos(("status",)),
                                f"status is {dim.status}, but the bar has no number: nothing can check the claim",
                                "give the bar its number (sota.value and sota.unit, or sota.result), or set status: "
                                "trails or inconclusive, which claim nothing in our favour"))
        return
    if sota.value is None and dim.status == "trails":  # nothing in our favour, but still across listed conditions
        conditioned.check(rec, m, sota, settings, store, findings)
    if sota.value is None or dim.status not in HONEST or units.parse(sota.unit or "").problem is not None:
        return
    if m.failures and m.expr is None and sota.better != "lower":
        findings.append(finding("SC327", doc.file, doc.pos(("sota", "better")),
                                f"{m.failures:,} requests failed and each counts as the slowest, but better is "
                                f"{sota.better}: a failure would count in the claim's favour",
                                "write better: lower (a time per request is better lower), or cite a run where every "
                                "request succeeded"))
        return
    c = compare.compare(m, sota, tolerance, dim.share)
    if c is None:
        why = compare.not_compared(m, sota)
        findings.append(finding("SC507", doc.file, doc.pos(("result", "unit")),
                                f"status '{dim.status}' cannot be checked against the bar: {why}",
                                f"give the result in a unit that converts to the bar's ({sota.unit}), e.g. ms and s, "
                                "kB and KiB, tok/s; or set status simulated or no-claim"))
        return
    overflow = c.not_finite()
    if overflow is not None:
        findings.append(finding("SC510", doc.file, doc.pos(("result", "unit")),
                                f"status '{dim.status}' cannot be judged: {overflow}",
                                "record the measurement in a unit that keeps it, and its interval, within the range of "
                                "a double (about 1e-300 to 1e300) in both the result's and the bar's unit"))
        return
    if sota.measured is not None and (sota.measured.censored or sota.measured.failures):
        findings.append(finding("SC325", doc.file, doc.pos(("sota", "result")),
                                "the bar is read from a run where some requests failed: its statistic covers only "
                                "the successful ones, which flatters the rival and says nothing of its failures",
                                "measure the rival without failures, and cite that run"))
        return
    # Like for like: a spread, or another statistic than the bar's, is never compared (any status); without the
    # bar's statistic, a lead or parity rests only on a median, a mean or a single value (else trails or inconclusive).
    problem = _like_for_like(rec, m, sota, store, "trails")
    if not conditioned.check(rec, m, sota, settings, store, findings):  # listed conditions differ: not judged (SC520)
        problem = problem or _judged(rec, m, sota, c, store)
    if problem is not None:
        findings.append(finding(problem.code, doc.file, doc.pos(problem.loc), problem.message, problem.hint))


def _judged(rec: DimensionRecord, m: Measurement, sota: compare.Bar, c: compare.Comparison,
            store: ArtifactStore) -> measure.Problem | None:
    """The verdict's refusal of the typed status, if any (the centre rule can only take leads or parity away: asked
    only where the evidence would give one of them)."""
    centre = _like_for_like(rec, m, sota, store, "leads") if c.verdict() in ("leads", "parity") else None
    problem = verdict.judge(rec.model.status, m, c, sota, centre is None, centre.message if centre else "")
    if problem is not None and problem.code == "SC321" and centre is not None:
        problem = replace(problem, loc=centre.loc, hint=f"{problem.hint}; or {centre.hint}")
    return problem


def _like_for_like(rec: DimensionRecord, m: Measurement, bar: compare.Bar, store: ArtifactStore,
                   status: str) -> measure.Problem | None:
    """SC321 where our value is not the bar's statistic (or, with none stated, not a median or mean for a lead)."""
    result = rec.model.result
    assert result is not None, "a measurement comes from a result"
    values = []
    for src in m.sources:
        spec = result if src.name is None else (result.inputs or {})[src.name]
        where = ("result",) if src.name is None else ("result", "inputs", src.name)
        loc = where + (("stat",) if spec.stat is not None else (src.kind,))
        runs_stat = src.summary.stat if src.summary is not None else src.stat  # a tool's own statistic
        place = src.places[0] if src.places else ()
        values.append((runs_stat, src.selector, store.get(src.evidence).data, place, loc))
    problem = like.check(values, bar.stat, status)
    if problem is None or len(values) != 1 or m.sources[0].kind == "format":
        return problem
    _, _, data, place, _ = values[0]
    return replace(problem, hint=toolread.with_short_form(data, place, problem.hint))


def _check_display_unit(rec: DimensionRecord, findings: list[Finding], bar_unit: str | None,
                        our_unit: str | None) -> None:
    """SC512 for a display_unit the bar's number (typed, or as read), or the result's, does not convert to."""
    dim, doc = rec.model, rec.doc
    shown = units.parse(dim.display_unit) if dim.display_unit is not None else None
    if shown is None or shown.problem is not None:
        return
    typed_bar = dim.sota.unit if dim.sota.value is not None else None
    ours = our_unit or (dim.result.unit if dim.result else None)
    others = [(what, text) for what, text in (("the bar's", bar_unit or typed_bar), ("the result's", ours)) if text]
    for what, text in others:
        if not shown.comparable(units.parse(text)):
            findings.append(finding("SC512", doc.file, doc.pos(("display_unit",)),
                                    f"display_unit '{dim.display_unit}' does not convert to {what} unit {text}",
                                    f"show the dimension in a unit that converts to {text} (or remove display_unit: "
                                    "to show it in the bar's unit)"))
            return


def _check_source_date(rec: DimensionRecord, settings: Settings, today: date, findings: list[Finding]) -> None:
    doc, sota = rec.doc, rec.model.sota
    for field, text in (("date", sota.date), ("checked", sota.checked)):
        if text is None:
            continue
        if first_day(text) > today:
            findings.append(finding("SC602", doc.file, doc.pos(("sota", field)),
                                    f"sota.{field} {text} is in the future (today is {today.isoformat()})",
                                    "use the date the source was published" if field == "date" else
                                    "use the date you checked that the bar still stands"))
            return
    if sota.checked is not None and first_day(sota.checked).replace(day=1) < first_day(sota.date).replace(day=1):
        findings.append(finding("SC204", doc.file, doc.pos(("sota", "checked")),
                                f"sota.checked {sota.checked} is before the source's date {sota.date}",
                                "checked is when a person last confirmed the bar: on or after sota.date"))
        return
    if settings.stale_after_months is not None:
        # Measured from the end of the period named, so `2024` counts from December 2024.
        age = source_age(sota, today)
        if age > settings.stale_after_months:
            what = (f"the SOTA bar was last checked {age} months ago (sota.checked {sota.checked})" if sota.checked
                    else f"the SOTA source is {age} months old")
            findings.append(finding("SC603", doc.file, doc.pos(("sota", "checked" if sota.checked else "date")),
                                    f"{what} (stale_after_months is {settings.stale_after_months})",
                                    "check whether the field has moved on: update sota: (bar, source, date), or, if "
                                    "the bar still stands, record that with sota.checked: YYYY-MM"))


def _check_placeholders(rec: DimensionRecord, findings: list[Finding]) -> None:
    """SC604, once per record, where the scaffold's example text is still there (at the first such field)."""
    doc = rec.doc
    left = ph.example_fields(rec.model)
    if left:
        left.sort(key=lambda item: doc.pos(item[0]))
        findings.append(finding("SC604", doc.file, doc.pos(left[0][0]),
                                f"example text from `scorecard new` is still in: {', '.join(name for _, name in left)}",
                                ph.HINT))


def check_category_placeholders(meta_doc, summary: str | None) -> list[Finding]:
    """SC604 for a category whose summary is still the scaffold's."""
    if summary is not None and summary.strip() == ph.CATEGORY_SUMMARY:
        return [finding("SC604", meta_doc.file, meta_doc.pos(("summary",)),
                        f"summary is still the example text '{ph.CATEGORY_SUMMARY}'", ph.HINT)]
    return []


def _check_trace(rec: DimensionRecord, target: str, pos: tuple[int, int], store: ArtifactStore,
                 findings: list[Finding]) -> None:
    file = rec.doc.file
    if is_url(target):
        if not URL_RE.fullmatch(target):
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
    if fragment or "#" in target:
        _check_fragment(rec, target, pos, store, findings)


def _check_fragment(rec: DimensionRecord, target: str, pos: tuple[int, int], store: ArtifactStore,
                    findings: list[Finding]) -> None:
    """A trace's #/pointer must point into a .json file at a value that exists."""
    file = rec.doc.file
    rel, _, fragment = target.partition("#")
    if not fragment.startswith("/") or not rel.endswith(".json"):
        findings.append(finding("SC402", file, pos,
                                f"trace fragment '#{fragment}' must be a JSON pointer into a .json file",
                                "write file.json#/path/to/value, or drop the fragment"))
        return
    try:
        art = store.get(rel)
    except PathProblem as exc:
        findings.append(finding(exc.code, file, pos, exc.message, exc.hint))
        return
    if art.error:
        findings.append(finding("SC402", file, pos, f"trace '{rel}' is {art.error}", "fix the JSON file"))
        return
    try:
        resolve_pointer(art.data, fragment)
    except PointerError as exc:
        findings.append(finding("SC402", file, pos, f"trace '{target}': {exc.message}",
                                f"point at a value that exists in {rel}"))


def check_artifacts(store: ArtifactStore) -> list[Finding]:
    """Warnings about each artifact read: its meta block, and what it says of who made it (SC329)."""
    out = []
    for rel, art in sorted(store.loaded().items()):
        out += privacy.check(rel, art.data) if art.error is None else []
        if not isinstance(art.data, dict) or "meta" not in art.data:
            continue
        meta = art.data["meta"]
        note = meta.get("note") if isinstance(meta, dict) else None
        if isinstance(note, str) and note.startswith(ARTIFACT_NOTE):
            out.append(finding("SC604", rel, (1, 1), "the artifact is still the example scorecard init wrote",
                               "replace it with your own measurement (and its meta: commit, date, machine, command)"))
        if not isinstance(meta, dict):
            out.append(finding("SC309", rel, (1, 1), f"'meta' is {kind_of(meta, json=True)}, not an object",
                               "make meta an object such as {\"commit\": ..., \"date\": \"YYYY-MM-DD\"}"))
        elif "date" in meta and full_date(meta["date"]) is None:
            out.append(finding("SC309", rel, (1, 1), f"meta.date {meta['date']!r} is not a YYYY-MM-DD date",
                               "write the date the artifact was measured as YYYY-MM-DD"))
    return out
