"""What the check stage hands on: the records that passed the schema, the checked ledger, and each review's state.

Plain data, below check, rules and stamps (which all read it), so that none of them imports another for a type.
"""

from __future__ import annotations

from dataclasses import field
from datetime import date

from ..core.structs import frozen, slotted
from ..core.findings import Finding
from ..core.place import LedgerPlace
from ..measure.measured import Bar
from ..measure.reading import Measurement
from .model import Category, Dimension, Settings
from .yamldoc import Document


@frozen
class Review:
    """A stamped record's review: "current" (the stamp matches) or "suspect", what the fingerprint
    covers now, and (for a suspect one, when git has the reviewed version) what changed since."""

    state: str
    covered: dict[str, object]
    changes: tuple[str, ...] | None = None


@frozen
class DimensionRecord:
    """A dimension that passed the schema: its id, category, source document and model, and
    (when it carries a `reviewed:` stamp) what the review rule found."""

    id: str
    category: str
    doc: Document = field(repr=False)  # the YAML source: not a template's to print
    model: Dimension
    review: Review | None = None
    measurement: Measurement | None = None  # the result as read by the check stage (once per run), where it has one
    bar: Measurement | None = None  # the bar as read from sota.result by the check stage, where it has one
    bar_stat: str | None = None  # its statistic as read (its runs', the tool's, its key's or its inputs')
    # When its evidence was measured (date, how it is known, where cited, file), where the check read it (SC310):
    # the site reuses it rather than asking the artifacts and git again.
    evidence_dated: tuple[date, str, tuple, str] | None = None

    @property
    def bar_of(self) -> Bar:
        """The bar the verdict is judged against: sota's typed number, or the one read from sota.result."""
        return Bar.of(self.model.sota, self.bar, self.bar_stat)

    @property
    def file(self) -> str:
        """The record's file, relative to the ledger root."""
        return self.doc.file


@slotted
class CategoryRecord:
    """A category that passed the schema, with its dimensions in display order."""

    slug: str
    doc: Document | None = field(repr=False)
    model: Category
    dimensions: list[DimensionRecord]


@slotted
class Ledger:
    """The checked ledger: where it is (its place), its settings and categories in display order."""

    place: LedgerPlace = field(repr=False)  # where it is on disk: no page, template or repr shows it
    settings: Settings
    categories: list[CategoryRecord]

    def dimensions(self) -> list[DimensionRecord]:
        """Every dimension, in display order."""
        return [d for c in self.categories for d in c.dimensions]


@slotted
class CheckResult:
    """What the check stage returns: the ledger as far as it is valid, and every finding."""

    ledger: Ledger
    findings: list[Finding]
    dimension_count: int
    reused: int = 0  # records whose clean check held, not checked again (validate's memo, ledger/checkmemo.py)

    @property
    def errors(self) -> list[Finding]:
        """The findings of severity error."""
        return [f for f in self.findings if f.severity == "error"]
