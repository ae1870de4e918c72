"""What a result measures: its number in the result's unit, the interval the verdict uses, and where every
number came from (a Source per selection read)."""

from __future__ import annotations


from ..core.structs import frozen
from . import stats
from .selection import Problem


@frozen
class Source:
    """One selection read from an artifact: where, what it selected, and the number it gave."""

    evidence: str
    selector: str  # the pointer or the JSONPath query, as written
    kind: str  # "pointer" or "path"
    value: float  # the number, or the statistic of the runs
    unit: str | None
    meta: dict
    name: str | None = None  # the input's name, for a derived value
    summary: stats.Summary | None = None  # for runs
    at: str = ""  # the JSON pointer of the (first) value selected, where a link to the artifact points
    places: tuple[tuple[str | int, ...], ...] = ()  # where every selected value sits (two inputs there are one)
    tool: str | None = None  # the format: it was read by (hyperfine, pytest-benchmark, ...)
    stat: str | None = None  # a single value's statistic as the tool computed it (median, p99)
    alone: str = ""  # why a tool's value stands without its runs, for the page
    warning: Problem | None = None  # what the reader should know of how it was read (SC324)
    also: tuple[str, ...] = ()  # other evidence files read to know it (asv's benchmarks.json), published beside it

    @property
    def cited(self) -> str:
        """The selection as one text: file#/pointer or file#$.query."""
        return f"{self.evidence}#{self.selector}"


@frozen
class Measurement:
    """The claimed number in the result's unit, with its uncertainty and provenance."""

    value: float
    unit: str
    sources: tuple[Source, ...]
    summary: stats.Summary | None = None  # when the value is the statistic of several runs
    low: float | None = None  # an interval: the statistic's confidence interval, or the artifact's own
    high: float | None = None
    interval_from: str = ""  # "ci" (computed), "artifact" (named by low/high), or ""
    expr: str | None = None
    level: float | None = None  # the confidence the interval was taken at (computed) or is stated at (artifact)
    needs_low: int | None = None  # where a computed interval has no low (high) end: the runs that end needs
    needs_high: int | None = None

    @property
    def n(self) -> int:
        """How many runs the value summarises (1 for a single number)."""
        return self.summary.n if self.summary else 1

    @property
    def coverage(self) -> float | None:
        """The confidence level of a computed interval."""
        return self.summary.coverage if self.summary and self.interval_from == "ci" else None

    @property
    def has_interval(self) -> bool:
        """Whether the value has an interval, or an end of one its runs cannot give."""
        return bool(self.interval_from or self.low is not None or self.high is not None or
                    self.missing_end is not None)

    @property
    def censored(self) -> bool:
        """Whether a source is a tool's statistic over the successful requests of a run where some failed (SC324):
        failed requests are the slow ones, so the value is only our better end; its worse end is unbounded. A
        formula over requests some of which failed is too: which way a failure moves it depends on the formula."""
        return any(src.warning is not None and src.warning.code == "SC324" for src in self.sources) or \
            (self.expr is not None and self.failures > 0)

    @property
    def failures(self) -> int:
        """Failed requests its runs count, each entered as the slowest (issue 41); 0 for most measurements."""
        return sum(src.summary.failures for src in self.sources if src.summary is not None)

    @property
    def unbounded(self) -> bool:
        """Whether failed requests reach the statistic's own rank: the value of all requests is then unbounded (the
        value held is over the successful ones only, and the evidence gives trails)."""
        return any(src.summary is not None and src.summary.unbounded for src in self.sources)

    @property
    def missing_end(self) -> tuple[str, int] | None:
        """Where an end of a computed interval does not exist: ('low' or 'high', runs it needs); the low end first."""
        if self.interval_from != "ci":
            return None
        if self.needs_low is not None:
            return "low", self.needs_low
        return ("high", self.needs_high) if self.needs_high is not None else None


@frozen
class Bar:
    """The bar a value is judged against: the number typed in sota, or the one read from sota.result, whose interval
    then counts in the verdict as well as ours."""

    value: float | None
    unit: str | None
    better: str | None
    stat: str | None
    kind: str = "claimed"  # claimed | independent | reproduced
    measured: Measurement | None = None  # the bar as read from sota.result

    @classmethod
    def of(cls, sota, measured: Measurement | None = None, stat: str | None = None) -> Bar:
        """The bar of a record's sota (with, for sota.result, the measurement read from it, and its statistic as
        read: its runs', the tool's, its key's or its inputs')."""
        kind = getattr(sota, "kind", None) or "claimed"
        if measured is None:
            return cls(sota.value, sota.unit, sota.better, sota.stat, kind)
        stat = stat or (measured.summary.stat if measured.summary is not None else
                        next((src.stat for src in measured.sources if src.stat), None))
        return cls(measured.value, measured.unit, sota.better, stat, kind, measured)

    @property
    def has_interval(self) -> bool:
        """Whether the bar has an interval (or an end its runs cannot give) that the verdict must clear."""
        return self.measured is not None and self.measured.has_interval
