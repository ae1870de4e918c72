"""The one orchestrator: load -> check -> resolve -> render -> write.

Lazy imports: the site's stages (jinja2, resolve, render, themes, write) and the history walk, inside build
and refresh: validate, the pre-commit hook's path, never loads them.
"""

from __future__ import annotations

from dataclasses import field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.structs import slotted
from ..core import regexstore
from ..core.paths import PathProblem, builtin_templates
from ..core.place import LedgerPlace
from ..core.statuses import display_key
from ..measure import budget
from ..ledger.aged import AGED, by_time_alone  # noqa: F401 - AGED: re-exported for the tests
from ..ledger.cache import ParsedFiles, RenderedPages, ledger_folder, open_ledger_folder
from ..ledger.check import check, check_one
from ..ledger.checkmemo import CheckMemo
from ..ledger.load import ParseCache, read_document, stream_ledger
from ..ledger.records import CheckResult
from ..ledger.stamps import explain_records, explain_suspects
from ..measure.evidence import ArtifactStore

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..ledger.records import Ledger
    from ..site.render import Site
    from ..site.resolve import ResolvedLedger


def place_of(where: Path | LedgerPlace) -> LedgerPlace:
    """The run's one LedgerPlace: given, or made for the ledger at a root (dates from SOURCE_DATE_EPOCH, or today)."""
    return where if isinstance(where, LedgerPlace) else LedgerPlace.at(where)


def validate(where: Path | LedgerPlace, cache: ParseCache | None = None, warm: bool = False,
             findings_only: bool = False) -> tuple[CheckResult, ArtifactStore]:
    """Load and check the ledger at a root (or a place made for the run), and name what changed in suspect claims.

    cache: serve's parsed files, kept across rebuilds; else, with warm, the warm cache's (ledger/cache.py).
    With warm, a record whose clean check still holds is not checked again (ledger/checkmemo.py); with
    findings_only (the validate command), such a record carries no measurement for a site.
    """
    place = place_of(where)
    budget.reset_run()  # every path: query of this run shares one budget
    regexstore.use(warm)  # compiled patterns are kept by warm runs only (core/regexstore.py)
    known = folder = None
    if warm:  # parsed files are kept from the second run on this machine: a one-off run pays nothing
        known = ledger_folder(place)
        folder = open_ledger_folder(place)  # marks the ledger as seen (and used: see cache.evict)
        if cache is None and known is not None and folder is not None:
            cache = ParsedFiles(folder / "parsed.bin")
    loaded = stream_ledger(place, cache)  # checked category by category while the rest is parsed
    store = ArtifactStore(place)
    keep = cache is not None and cache.shares_documents
    memo = CheckMemo(folder / "checked.bin", loaded.settings.digest if loaded.settings else "", place.today,
                     records=not findings_only) if cache is not None and not keep and known is not None and \
        folder is not None else None  # not serve's (keep): its fast path checks records one by one
    result = check(loaded, store, keep_marks=keep, memo=memo)
    if memo is not None:
        memo.save()
    regexstore.keep()  # the patterns this run compiled, for the next (core/regexstore.py)
    return explain_suspects(result), store


@slotted
class BuildState:
    """What a successful build knew, kept by serve for its fast path."""

    ledger: Ledger
    store: ArtifactStore
    resolved: ResolvedLedger
    site: Site | None = None  # made on first use and reused


@slotted
class BuildOutcome:
    """What a build did: the check result, and the pages written (empty when refused)."""

    checked: CheckResult
    pages: int
    out: Path | None
    refused: bool
    cited_files: list[str] = field(default_factory=list)
    state: BuildState | None = None  # for serve's fast path
    notes: list[str] = field(default_factory=list)  # what the user should know (history unavailable, shallow)
    reused: int = 0  # categories and cited files whose outputs came from the warm cache
    parts: int = 0  # how many categories and cited files the warm cache was asked for (0: not used)

    def reuse_note(self) -> str:
        """What the warm cache gave, for the line that reports a build ("" when it was not used)."""
        if not self.parts:
            return ""
        return f" ({self.reused} of {self.parts} categories and cited files reused from the warm cache)"


def fails(result: CheckResult, strict: bool) -> bool:
    """Whether the findings fail the run: errors, or under --strict any warning but a staleness time alone raised
    (ledger/aged.py: shown on the site and in the summary, never the reason a typo fix is refused)."""
    if result.errors:
        return True
    if not strict:
        return False
    alone = {id(f) for f in by_time_alone(result)}
    return any(id(f) not in alone for f in result.findings)


def build(where: Path | LedgerPlace, out: Path, strict: bool = False, guard=None, cache: ParseCache | None = None,
          history: bool = False, warm: bool = False) -> BuildOutcome:
    """Validate, then render and write the site atomically; refuse if the ledger has errors.

    With history, the ledger's git history is walked too: each dimension gets its timeline and
    chart, and the site gets changes.html, feed.xml and history.json. With warm, files parsed
    and categories rendered by an earlier build are taken from the warm cache (ledger/cache.py).
    """
    from jinja2 import TemplateError  # here, not at the top: validate (and the hook) never needs jinja2

    from ..site.limits import limited
    from ..site.render import Site
    from ..site.themes import template_finding
    from ..site.resolve import resolve_ledger
    from ..site.write import MARKER, write_site

    place = place_of(where)
    result, store = validate(place, cache, warm)
    if fails(result, strict):
        return BuildOutcome(result, 0, None, True)
    resolved = resolve_ledger(result.ledger, store)
    notes: list[str] = []
    if history:
        from ..history.walk import HistoryUnavailable, walk
        from ..site.resolve import attach_history

        try:
            walked = walk(place)
            attach_history(resolved, walked)
            notes += walked.notes
        except HistoryUnavailable as exc:
            notes.append(f"no history: {exc}; the site is built without it")
    try:
        # Rendered parts are kept by a rebuild (a site is there to replace), not by a one-off build.
        folder = ledger_folder(place) if warm and (out / MARKER).is_file() else None
        site = Site(resolved, reuse=RenderedPages(folder / "pages") if folder is not None else None)
        pages = limited(site.iter_pages) if site.sandboxed else site.iter_pages()  # a ledger's own templates
        count = write_site(place, out, pages, guard=guard)
    except TemplateError as exc:  # the write stage has already removed its temporary folder
        result.findings.append(template_finding(exc, place, builtin_templates()))
        return BuildOutcome(result, 0, None, True, notes=notes)
    regexstore.keep()  # what rendering compiled too
    return BuildOutcome(result, count, out, False, sorted(resolved.files),
                        BuildState(result.ledger, store, resolved, site), notes, site.reused, site.parts)


def refresh(state: BuildState, files: list[str], cache: ParseCache) -> dict[str, bytes] | None:
    """serve's fast path: the pages of the categories whose dimension files alone changed, by the build's own
    stages run over those files (load's read, check's rules, the suspects named, resolve, render) against the
    last good build's state, which is then the state with them.

    None when only a full build is right: a file with an error, or not a dimension the last build knew. The
    index and the other pages wait for the full build that follows.
    """
    from ..site.resolve import count_statuses, resolve_dimension

    resolved, ledger, place = state.resolved, state.ledger, state.ledger.place
    budget.reset_run()  # a fast refresh is a run of its own: its queries share a fresh budget
    where = {d.record.file: (ci, di) for ci, c in enumerate(resolved.categories) for di, d in enumerate(c.dimensions)}
    records = []
    for rel in files:
        if rel not in where:
            return None
        found: list = []
        try:
            path = place.path(rel)  # inside the root as it is now (a folder on the way may have become a link)
        except PathProblem:
            return None
        doc = read_document(place, path, found, cache)
        if doc.data is None:
            return None
        record, more = check_one(doc, resolved.categories[where[rel][0]].slug, ledger.settings, state.store)
        if record is None or any(f.severity == "error" for f in found + more):
            return None
        records.append(record)
    touched = sorted({where[r.file][0] for r in records})
    dims = {ci: list(resolved.categories[ci].dimensions) for ci in touched}
    for record in explain_records(place, records):
        ci, di = where[record.file]
        fresh = resolve_dimension(record, ledger, state.store, resolved.as_of, {}, {})
        fresh.history = dims[ci][di].history  # git's history does not change with an unsaved edit
        dims[ci][di] = fresh
    categories, ledger_categories = list(resolved.categories), list(ledger.categories)
    for ci in touched:  # in display order again (a changed order: moves a dimension)
        mine = sorted(dims[ci], key=lambda d: display_key(d.record.model.order, d.id))
        categories[ci] = replace(categories[ci], record=replace(categories[ci].record,
                                                                dimensions=[d.record for d in mine]),
                                 dimensions=mine, counts=count_statuses(mine))
        ledger_categories[ci] = categories[ci].record
    state.resolved = replace(resolved, categories=categories)
    state.ledger = replace(ledger, categories=ledger_categories)
    return _render_categories(state, [categories[ci] for ci in touched])


def _render_categories(state: BuildState, categories: list) -> dict[str, bytes]:
    """The category pages of a fast refresh; a ledger's own templates under the limits here too (a fault or a
    limit is raised, and the full rebuild that follows reports it)."""
    from ..site.limits import limited
    from ..site.once import forget

    forget()
    if state.site is None:
        from ..site.render import Site

        state.site = Site(state.resolved)
    site = state.site
    site.ledger = state.resolved

    def render() -> Iterator[tuple[str, bytes]]:
        for category in categories:
            name = f"{category.slug}/index.html"
            yield name, site.page("category.html", "../", name, category=category)
    return {name: body if isinstance(body, bytes) else b"".join(body)
            for name, body in (limited(render) if site.sandboxed else render())}
