"""The one orchestrator: load -> check -> resolve -> render -> write."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

from .check import CheckResult, check
from .evidence import ArtifactStore
from .load import load_ledger


def source_date() -> date | None:
    """The date SOURCE_DATE_EPOCH names, or None when it is not set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc).date()
    return None


def today() -> date:
    """The validator's reference date: SOURCE_DATE_EPOCH when set (reproducible), else the clock."""
    return source_date() or date.today()


def validate(root: Path, cache: dict | None = None) -> tuple[CheckResult, ArtifactStore]:
    """Load and check the ledger at root (cache: parsed files by content, kept across rebuilds)."""
    store = ArtifactStore(root)
    result = check(load_ledger(root, cache), store, today(), keep_marks=cache is not None)
    return result, store


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
        cat.dimensions[di] = resolve_dimension(record, ledger, store, resolved.as_of, {}, {})
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


def build(root: Path, out: Path, strict: bool = False, guard=None, cache: dict | None = None) -> BuildOutcome:
    """Validate, then render and write the site atomically; refuse if the ledger has errors."""
    from jinja2 import TemplateError  # here, not at the top: validate (and the hook) never needs jinja2

    from .render import Site
    from .resolve import resolve_ledger
    from .write import write_site

    result, store = validate(root, cache)
    if fails(result, strict):
        return BuildOutcome(result, 0, None, True)
    # The site never shows the clock: "as of" is SOURCE_DATE_EPOCH, else the newest date in the data.
    resolved = resolve_ledger(result.ledger, store, source_date())
    site = Site(resolved)
    try:
        count = write_site(root, out, site.iter_pages(), guard=guard)
    except TemplateError as exc:  # the write stage has already removed its temporary folder
        result.findings.append(template_finding(exc, root, site.theme))
        return BuildOutcome(result, 0, None, True)
    return BuildOutcome(result, count, out, False, sorted(resolved.files), BuildState(result.ledger, store, resolved, site))
