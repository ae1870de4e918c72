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
    result = check(load_ledger(root, cache), store, today())
    return result, store


@dataclass(slots=True)
class BuildOutcome:
    """What a build did: the check result, and the pages written (empty when refused)."""

    checked: CheckResult
    pages: int
    out: Path | None
    refused: bool
    cited_files: list[str] = field(default_factory=list)


def fails(result: CheckResult, strict: bool) -> bool:
    """Whether the findings fail the run (errors, or any finding under --strict)."""
    return bool(result.errors) or (strict and bool(result.findings))


def build(root: Path, out: Path, strict: bool = False, guard=None, cache: dict | None = None) -> BuildOutcome:
    """Validate, then render and write the site atomically; refuse if the ledger has errors."""
    from .render import render_site
    from .resolve import resolve_ledger
    from .write import write_site

    result, store = validate(root, cache)
    if fails(result, strict):
        return BuildOutcome(result, 0, None, True)
    # The site never shows the clock: "as of" is SOURCE_DATE_EPOCH, else the newest date in the data.
    resolved = resolve_ledger(result.ledger, store, source_date())
    pages = render_site(resolved)
    write_site(root, out, pages, guard=guard)
    return BuildOutcome(result, len(pages), out, False, sorted(resolved.files))
