"""The one orchestrator: load -> check -> resolve -> render -> write."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date, datetime, UTC
from pathlib import Path

from .check import CheckResult, check
from .evidence import ArtifactStore
from .load import load_ledger


def source_date() -> date | None:
    """The date SOURCE_DATE_EPOCH names, or None when it is not set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), tz=UTC).date()
    return None


def today() -> date:
    """The validator's reference date: SOURCE_DATE_EPOCH when set (reproducible), else the clock."""
    return source_date() or date.today()


def validate(root: Path, cache: dict | None = None) -> tuple[CheckResult, ArtifactStore]:
    """Load and check the ledger at root (cache: parsed files by content, kept across rebuilds)."""
    store = ArtifactStore(root)
    result = check(load_ledger(root, cache), store, today(), keep_marks=cache is not None)
    explain_suspects(root, result)
    return result, store


def explain_suspects(root: Path, result: CheckResult) -> None:
    """Name what changed in each suspect claim, from the committed version its stamp was written for.

    Only suspect records reach git (a fixed few processes for all of them), so a clean ledger's
    validate (the pre-commit hook) never runs it.
    """
    suspects = [i for i, f in enumerate(result.findings) if f.code == "SC801"]
    if not suspects:
        return
    from dataclasses import replace

    from .review import describe, reviewed_versions
    from .rules import suspect_message

    by_file = {d.file: d for d in result.ledger.dimensions()}
    records = [by_file[result.findings[i].file] for i in suspects if result.findings[i].file in by_file]
    reviewed = reviewed_versions(root, {r.file: r.model.reviewed for r in records if r.inputs is not None})
    for i in suspects:
        f = result.findings[i]
        rec = by_file.get(f.file)
        if rec is not None and rec.inputs is not None and rec.file in reviewed:
            rec.changes = describe(reviewed[rec.file], rec.inputs)
            result.findings[i] = replace(f, message=suspect_message(rec.id, rec.changes))


@dataclass(slots=True)
class BuildState:
    """What a successful build knew, kept by serve for its fast path."""

    ledger: object
    store: ArtifactStore
    resolved: object
    site: object = None  # the render.Site, made on first use and reused


@dataclass(slots=True)
class BuildOutcome:
    """What a build did: the check result, and the pages written (empty when refused)."""

    checked: CheckResult
    pages: int
    out: Path | None
    refused: bool
    cited_files: list[str] = field(default_factory=list)
    state: BuildState | None = None  # for serve's fast path
    notes: list[str] = field(default_factory=list)  # what the user should know (history unavailable, shallow)


def refresh_dimensions(state: BuildState, docs: list) -> tuple[list, dict[str, bytes]] | None:
    """serve's fast path: re-check and re-render only the categories of changed dimension files.

    Returns (findings, pages of the changed categories), or None when a full build is needed
    (a changed file has errors, or is not a dimension the last build knew).
    """
    from .check import check_one
    from .load import read_document
    from .render import Site
    from .resolve import count_statuses, resolve_dimension

    ledger, store, resolved = state.ledger, state.store, state.resolved
    by_file = {d.record.file: (ci, di) for ci, c in enumerate(resolved.categories) for di, d in enumerate(c.dimensions)}
    touched: set[int] = set()
    findings = []
    for rel, cache in docs:
        if rel not in by_file:
            return None
        ci, di = by_file[rel]
        yaml_findings: list = []
        doc = read_document(ledger.root, ledger.root / rel, yaml_findings, cache)
        if doc.data is None:
            return None
        cat = resolved.categories[ci]
        record, more = check_one(doc, cat.slug, ledger.settings, store, today())
        findings += yaml_findings + more
        if record is None or any(f.severity == "error" for f in yaml_findings + more):
            return None
        fresh = resolve_dimension(record, ledger, store, resolved.as_of, {}, {})
        fresh.history = cat.dimensions[di].history  # git's history does not change with an unsaved edit
        cat.dimensions[di] = fresh
        cat.record.dimensions[di] = record
        touched.add(ci)
    if state.site is None:
        state.site = Site(resolved)
    site = state.site
    pages = {}
    for ci in sorted(touched):
        cat = resolved.categories[ci]
        cat.dimensions.sort(key=lambda d: (d.record.model.order is None, d.record.model.order or 0, d.id))
        cat.counts = count_statuses(cat.dimensions)
        pages[f"{cat.slug}/index.html"] = site.page("category.html", "../", f"{cat.slug}/index.html", category=cat)
    return findings, pages


def template_finding(exc, root: Path, theme: Path):
    """A Jinja error as a finding at the template's file and line."""
    from .findings import finding
    from .render import TemplateRefused

    if isinstance(exc, TemplateRefused):
        return finding(exc.code, exc.file, (1, 1), exc.message, exc.hint)
    name, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    tb = exc.__traceback__
    while tb is not None:  # Jinja maps template frames to the template's own file and line
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".svg", ".css", ".js", ".xml")):
            name, line = filename, tb.tb_lineno
        tb = tb.tb_next
    shown = "a template"
    if name:
        path = Path(name)
        for base, prefix in ((root, ""), (theme, "(built-in theme) templates/")):
            try:
                shown = prefix + path.resolve().relative_to(base.resolve()).as_posix()
                break
            except ValueError:
                continue
    message = f"{type(exc).__name__}: {exc.message if getattr(exc, 'message', None) else exc}"
    return finding("SC701", shown, (line or 1, 1), message,
                   "fix the template; the templates' context is documented in docs/site.md")


def fails(result: CheckResult, strict: bool) -> bool:
    """Whether the findings fail the run (errors, or any finding under --strict)."""
    return bool(result.errors) or (strict and bool(result.findings))


def build(root: Path, out: Path, strict: bool = False, guard=None, cache: dict | None = None,
          history: bool = False) -> BuildOutcome:
    """Validate, then render and write the site atomically; refuse if the ledger has errors.

    With history, the ledger's git history is walked too: each dimension gets its timeline and
    chart, and the site gets changes.html, feed.xml and history.json.
    """
    from jinja2 import TemplateError  # here, not at the top: validate (and the hook) never needs jinja2

    from .render import Site, builtin_templates
    from .resolve import resolve_ledger
    from .write import write_site

    result, store = validate(root, cache)
    if fails(result, strict):
        return BuildOutcome(result, 0, None, True)
    # The site never shows the clock: "as of" is SOURCE_DATE_EPOCH, else the newest date in the data.
    resolved = resolve_ledger(result.ledger, store, source_date())
    notes: list[str] = []
    if history:
        from .history import HistoryUnavailable, walk
        from .resolve import attach_history

        try:
            walked = walk(root)
            attach_history(resolved, walked)
            notes += walked.notes
        except HistoryUnavailable as exc:
            notes.append(f"no history: {exc}; the site is built without it")
    try:
        site = Site(resolved)
        count = write_site(root, out, site.iter_pages(), guard=guard)
    except TemplateError as exc:  # the write stage has already removed its temporary folder
        result.findings.append(template_finding(exc, root, builtin_templates()))
        return BuildOutcome(result, 0, None, True, notes=notes)
    return BuildOutcome(result, count, out, False, sorted(resolved.files), BuildState(result.ledger, store, resolved, site),
                        notes)


@dataclass(slots=True)
class Stamped:
    """One dimension `scorecard review` stamped (or would stamp, with --dry-run)."""

    id: str
    file: str
    old: str | None
    new: str
    covered: list[str]  # what the stamp covers, one phrase each
    changes: list[str] | None  # what changed since the old stamp, when git knows


@dataclass(slots=True)
class ReviewOutcome:
    """What `scorecard review` did: stamped, already current, or refused with the findings why."""

    checked: CheckResult
    stamped: list[Stamped] = field(default_factory=list)
    current: list[str] = field(default_factory=list)
    blocking: list = field(default_factory=list)  # error findings that refused the review
    refusal: str = ""  # a reason other than findings (a file shape the edit cannot handle)


class UnknownDimension(Exception):
    """An id given to `scorecard review` that names no dimension file."""


def review(root: Path, ids: list[str], every: bool, dry_run: bool = False) -> ReviewOutcome:
    """Stamp the dimensions named (or every one) with the fingerprint of what they rest on now.

    Nothing is written when any of them has errors (or when the ledger's settings do): a stamp
    says a human checked a claim that holds, and a claim with errors does not. Each file changes
    by its `reviewed:` line only, written atomically.
    """
    from .load import SETTINGS_FILE
    from .review import StampRefused, fingerprint, inputs, set_stamp, summary
    from .write import replace_files

    result, store = validate(root)
    files = {p.stem: p.relative_to(root).as_posix() for p in sorted((root / "claims").glob("*/*.yaml"))
             if p.name != "_category.yaml"}
    unknown = [i for i in ids if i not in files]
    if unknown:
        raise UnknownDimension(", ".join(unknown))
    wanted = sorted(files) if every else list(dict.fromkeys(ids))
    wanted_files = {files[i] for i in wanted} | {SETTINGS_FILE}
    outcome = ReviewOutcome(result)
    outcome.blocking = [f for f in result.findings if f.severity == "error" and f.file in wanted_files]
    if outcome.blocking:
        return outcome
    records = {d.id: d for d in result.ledger.dimensions()}
    for dim_id in wanted:
        if dim_id not in records:  # e.g. an id used twice, or a category without _category.yaml
            outcome.refusal = f"{files[dim_id]}: the record is not part of the checked ledger (see validate)"
            return outcome
    edits: dict[Path, bytes] = {}
    for dim_id in wanted:
        rec = records[dim_id]
        covered = rec.inputs if rec.inputs is not None else inputs(rec.model, store.get)  # the rule's, if stamped
        if covered is None:  # cannot happen without an error finding; refuse rather than stamp a guess
            outcome.refusal = f"{rec.file}: a value the claim cites cannot be read"
            return outcome
        stamp = fingerprint(covered)
        if rec.model.reviewed == stamp:
            outcome.current.append(dim_id)
            continue
        path = root / rec.file
        try:
            text = set_stamp(path.read_bytes().decode("utf-8"), stamp)
        except StampRefused as exc:
            outcome.refusal = f"{rec.file}: {exc}; add `reviewed: {stamp}` by hand"
            return outcome
        edits[path] = text.encode("utf-8")
        outcome.stamped.append(Stamped(dim_id, rec.file, rec.model.reviewed, stamp, summary(covered), rec.changes))
    if not dry_run:
        try:
            replace_files(edits, root)
        except OSError as exc:
            outcome.stamped = []
            outcome.refusal = f"cannot write {exc.filename or 'a stamped file'}: {exc.strerror}"
    return outcome
