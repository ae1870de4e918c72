"""The one orchestrator: load -> check -> resolve -> render -> write."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.dates import utc_date
from ..ledger.check import check
from ..ledger.records import CheckResult
from ..measure.evidence import ArtifactStore
from ..ledger.cache import ParsedFiles, RenderedPages, ledger_folder, open_ledger_folder
from ..ledger.load import ParseCache, stream_ledger
from ..ledger.stamps import explain_suspects

if TYPE_CHECKING:
    from ..ledger.records import Ledger
    from ..site.render import Site
    from ..site.resolve import ResolvedLedger


def source_date() -> date | None:
    """The date SOURCE_DATE_EPOCH names, or None when it is not set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return utc_date(int(epoch))
    return None


def today() -> date:
    """The validator's reference date: SOURCE_DATE_EPOCH when set (reproducible), else the clock."""
    return source_date() or date.today()


def validate(root: Path, cache: ParseCache | None = None, warm: bool = False) -> tuple[CheckResult, ArtifactStore]:
    """Load and check the ledger at root.

    cache: serve's parsed files, kept across rebuilds; else, with warm, the warm cache's (ledger/cache.py).
    """
    if warm:  # parsed files are kept from the second run on this machine: a one-off run pays nothing
        known = ledger_folder(root)
        folder = open_ledger_folder(root)  # marks the ledger as seen (and used: see cache.evict)
        if cache is None and known is not None and folder is not None:
            cache = ParsedFiles(folder / "parsed.bin")
    loaded = stream_ledger(root, cache)  # checked category by category while the rest is parsed
    store = ArtifactStore(root)
    keep = cache is not None and cache.shares_documents
    return explain_suspects(root, check(loaded, store, today(), keep_marks=keep)), store


@dataclass(slots=True)
class BuildState:
    """What a successful build knew, kept by serve for its fast path."""

    ledger: Ledger
    store: ArtifactStore
    resolved: ResolvedLedger
    site: Site | None = None  # made on first use and reused


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
    reused: int = 0  # categories and cited files whose outputs came from the warm cache
    parts: int = 0  # how many categories and cited files the warm cache was asked for (0: not used)

    def reuse_note(self) -> str:
        """What the warm cache gave, for the line that reports a build ("" when it was not used)."""
        if not self.parts:
            return ""
        return f" ({self.reused} of {self.parts} categories and cited files reused from the warm cache)"


def fails(result: CheckResult, strict: bool) -> bool:
    """Whether the findings fail the run (errors, or any finding under --strict)."""
    return bool(result.errors) or (strict and bool(result.findings))


def build(root: Path, out: Path, strict: bool = False, guard=None, cache: ParseCache | None = None,
          history: bool = False, warm: bool = False) -> BuildOutcome:
    """Validate, then render and write the site atomically; refuse if the ledger has errors.

    With history, the ledger's git history is walked too: each dimension gets its timeline and
    chart, and the site gets changes.html, feed.xml and history.json. With warm, files parsed
    and categories rendered by an earlier build are taken from the warm cache (ledger/cache.py).
    """
    from jinja2 import TemplateError  # here, not at the top: validate (and the hook) never needs jinja2

    from ..site.render import Site
    from ..core.paths import builtin_templates
    from ..site.themes import template_finding
    from ..site.resolve import resolve_ledger
    from ..site.write import MARKER, write_site

    result, store = validate(root, cache, warm)
    if fails(result, strict):
        return BuildOutcome(result, 0, None, True)
    # The site never shows the clock: "as of" is SOURCE_DATE_EPOCH, else the newest date in the data.
    resolved = resolve_ledger(result.ledger, store, source_date())
    notes: list[str] = []
    if history:
        from ..history.walk import HistoryUnavailable, walk
        from ..site.resolve import attach_history

        try:
            walked = walk(root)
            attach_history(resolved, walked)
            notes += walked.notes
        except HistoryUnavailable as exc:
            notes.append(f"no history: {exc}; the site is built without it")
    try:
        # Rendered parts are kept by a rebuild (a site is there to replace), not by a one-off build.
        folder = ledger_folder(root) if warm and (out / MARKER).is_file() else None
        site = Site(resolved, reuse=RenderedPages(folder / "pages") if folder is not None else None)
        count = write_site(root, out, site.iter_pages(), guard=guard)
    except TemplateError as exc:  # the write stage has already removed its temporary folder
        result.findings.append(template_finding(exc, root, builtin_templates()))
        return BuildOutcome(result, 0, None, True, notes=notes)
    return BuildOutcome(result, count, out, False, sorted(resolved.files),
                        BuildState(result.ledger, store, resolved, site), notes, site.reused, site.parts)
