"""Honesty arithmetic: a measurement against its bar (units, margin, noise, tolerance), and ages.

One place for what both the rules (which refuse a claim the numbers contradict) and the site
(which shows where a dimension stands, and how old its source and evidence are) compute.
"""

from __future__ import annotations

import dataclasses
import decimal
import math
from datetime import date
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar

from ..core.structs import frozen
from . import units
from .toolconditions import recorded_date
from .numfmt import fmt_value
from .measured import Bar
from .shares import as_share
from .reading import Measurement
from ..core.dates import full_date
from ..core.paths import PathProblem

W = TypeVar("W")  # where an input is cited (a record location, or nothing)

if TYPE_CHECKING:
    from .evidence import Artifact, ArtifactStore


class Dated(Protocol):
    """A bar as far as its age goes (the ledger's Sota): the (year, month) its age counts from."""

    def as_of(self) -> tuple[int, int]: ...


@frozen
class Comparison:
    """The measurement against the SOTA value, in the bar's unit."""

    value: float  # the claimed value in the bar's unit
    bar: float
    unit: str  # the bar's unit
    better: str
    tolerance: float
    margin: float  # relative lead (negative: behind), direction-aware
    low: float | None = None  # the interval in the bar's unit
    high: float | None = None
    worst: float | None = None  # the interval's margins: its end nearest to behind, and nearest to ahead
    best: float | None = None
    within: bool = False  # |ratio - 1| <= tolerance, decided in decimal (against a zero bar: exactly at it)
    bar_low: float | None = None  # the bar's interval, where it was read from sota.result with one
    bar_high: float | None = None
    # W >= -t and B <= t, decided in decimal from the numbers as written (a float margin of -0.0500000000000000033
    # rounds to -0.05, which would be level at 5 %); None where the comparison was made without them
    worse_within: bool | None = None
    better_within: bool | None = None
    judged: str = ""  # "complement" where a share was judged as its complement (accuracy as its error rate)
    judged_bar: float | None = None  # the bar on the side judged, for a share (the tolerance is a share of it)
    unbounded: bool = False  # P is unbounded (failed requests reach the statistic's rank): behind without bound

    @property
    def ratio(self) -> float | None:
        """result / bar, in one unit; None against a zero bar, and where the value of all is unbounded."""
        return self.value / self.bar if self.bar and not self.unbounded else None

    @property
    def zero_bar(self) -> bool:
        """A bar of 0: compared by sign and difference, never as a ratio (margin is then -1, 0 or 1)."""
        return self.bar == 0

    @property
    def worse_end(self) -> float:
        """W: the margin of the interval's worse end, the interval widened to hold the point (the point itself for
        a single value, judged exact); -inf where the runs cannot give that end."""
        return self.margin if self.worst is None else min(self.worst, self.margin)

    @property
    def better_end(self) -> float:
        """B: the margin of the interval's better end, widened to hold the point; +inf where there is none."""
        return self.margin if self.best is None else max(self.best, self.margin)

    @property
    def band(self) -> float:
        """The tolerance the verdict applies: none against a zero bar (compared by sign)."""
        return 0.0 if self.zero_bar else self.tolerance

    def verdict(self, stat_ok: bool = True) -> str:
        """The status the evidence gives (docs/format.md "The verdict"; every uncertainty resolves against the
        claimant), the first that holds of:

        leads         W better than the bar, and P ahead by more than the tolerance
        parity        W exists and is not behind by more than the tolerance
        trails        P behind by more than the tolerance, or B behind the bar (the whole interval behind)
        inconclusive  otherwise

        stat_ok: whether the value is a statistic a lead or parity may rest on (the bar's; without one a median,
        a mean or a single value); when it is not, only trails or inconclusive."""
        w, b, p = self.worse_end, self.better_end, self.margin
        if self.unbounded:  # behind by more than any tolerance, never NaN (issue 41)
            return "trails"
        if stat_ok and w > 0 and p > 0 and not self.within:
            return "leads"
        if stat_ok and math.isfinite(w) and (self.worse_within if self.worse_within is not None else w >= -self.band):
            return "parity"
        if (p < 0 and not self.within) or b < 0:
            return "trails"
        return "inconclusive"

    @property
    def standing(self) -> str:
        """Where the value stands, by the verdict (with a statistic a lead may rest on): ahead, level, behind, or
        unplaced (inconclusive)."""
        return {"leads": "ahead", "parity": "level", "trails": "behind"}.get(self.verdict(), "unplaced")

    @property
    def level_both_ways(self) -> bool:
        """Parity in the strict sense: B within the tolerance too (else only "not behind by more than" it)."""
        return self.better_within if self.better_within is not None else self.better_end <= self.band

    def not_finite(self) -> str | None:
        """What in the comparison is not a finite number, in words; None when every figure is finite."""
        for name, x in (("the value", self.value), ("the margin", self.margin), ("the interval's low end", self.low),
                        ("the interval's high end", self.high)):
            if x is not None and not math.isfinite(x):
                return f"{name} in the bar's unit is {x}"
        return None


def margin(value: float, bar: float, better: str) -> float:
    """How far value is ahead of bar, both in one unit, relative to the bar (negative: behind); against a zero bar
    only its sign (-1, 0 or 1), since a difference from zero depends on the unit it is written in."""
    same = units.parse("x")
    return exact_margin(value, same, bar, same, better)


def within_tolerance(value: float, unit: units.Unit, bar: float, bar_unit: units.Unit, tolerance: float) -> bool:
    """|value / bar - 1| <= tolerance, inclusive, in decimal from the numbers as written (their shortest repr),
    so that 1.05 x against 1 x at 5 % is parity as 105 ms against 100 ms is. Against a zero bar: value == 0."""
    if not (math.isfinite(value) and math.isfinite(bar)):
        return False
    if bar == 0:
        return value == 0
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        ratio = (_dec(value) * _dec(unit.factor)) / (_dec(bar) * _dec(bar_unit.factor))
        return abs(ratio - 1) <= _dec(tolerance)


def _dec(x: float) -> decimal.Decimal:
    return decimal.Decimal(repr(x))


def not_compared(m: Measurement, sota) -> str | None:
    """Why m cannot be compared with the bar, in words; None when it can."""
    if sota.value is None:
        return "the SOTA bar has no number"
    mine, theirs = units.parse(m.unit), units.parse(sota.unit)
    if mine.comparable(theirs):
        return None
    unknown = [u.text for u in (mine, theirs) if not u.known]
    if unknown:
        return (f"the unit '{unknown[0]}' is not one scorecard knows, and the bar's unit is spelled "
                f"'{sota.unit}' while the result's is '{m.unit}'")
    return f"the result's unit {m.unit} cannot be converted to the bar's unit {sota.unit}"


def compare(m: Measurement, sota, tolerance: float, share: bool | None = None) -> Comparison | None:
    """m against the bar, after converting units; None when they cannot be compared (see not_compared). Where the
    bar was read with an interval (a Bar from sota.result), a lead must clear it too: ours against its far end.
    A share (share not False) is judged on the side its bar has nearer 0 (shares.py)."""
    if not_compared(m, sota) is not None:
        return None
    if share is not False:
        judged = as_share(m, sota, tolerance, compare)
        if judged is not None:
            return judged
    c = _compare(m, sota, tolerance)
    if m.censored:  # failed requests enter at the worse end: our worse end is unbounded (issue 41)
        return dataclasses.replace(c, worst=-math.inf, best=c.margin if c.best is None else c.best,
                                   worse_within=False)
    if m.unbounded:  # so many failed that the statistic of all requests is unbounded: behind without bound
        return dataclasses.replace(c, worst=-math.inf, worse_within=False, unbounded=True)
    return c


def _compare(m: Measurement, sota, tolerance: float) -> Comparison:
    mine, theirs = units.parse(m.unit), units.parse(sota.unit)
    value = mine.to(m.value, theirs)
    c_margin = exact_margin(m.value, mine, sota.value, theirs, sota.better)
    within = within_tolerance(m.value, mine, sota.value, theirs, tolerance)
    bar = sota.measured if isinstance(sota, Bar) and sota.has_interval else None
    ours = m.has_interval
    band = 0.0 if sota.value == 0 else tolerance
    point_in = _beyond(m.value, mine, sota.value, theirs, sota.better, band, worse=True)
    point_out = _beyond(m.value, mine, sota.value, theirs, sota.better, band, worse=False)
    if not ours and bar is None:
        return Comparison(value, sota.value, sota.unit, sota.better, tolerance, c_margin, within=within,
                          worse_within=point_in, better_within=point_out)
    # An end the runs cannot give is unbounded: the interval then reaches past the bar on that side.
    o_low, o_high = (m.low, m.high) if ours else (m.value, m.value)
    b_low, b_high = (bar.low, bar.high) if bar is not None else (sota.value, sota.value)
    if sota.better == "lower":  # our worst end (high) against the bar's best (low), our best (low) against its worst
        worst = _end_margin(o_high, mine, b_low, theirs, sota.better)
        best = _end_margin(o_low, mine, b_high, theirs, sota.better, best=True)
    else:
        worst = _end_margin(o_low, mine, b_high, theirs, sota.better)
        best = _end_margin(o_high, mine, b_low, theirs, sota.better, best=True)
    low = None if m.low is None else mine.to(m.low, theirs)
    high = None if m.high is None else mine.to(m.high, theirs)
    lower = sota.better == "lower"
    worse_end, bar_better = (o_high, b_low) if lower else (o_low, b_high)
    better_end, bar_worse = (o_low, b_high) if lower else (o_high, b_low)
    worse_in = point_in and worse_end is not None and bar_better is not None and \
        _beyond(worse_end, mine, bar_better, theirs, sota.better, band, worse=True, against=sota.value)
    better_in = point_out and better_end is not None and bar_worse is not None and \
        _beyond(better_end, mine, bar_worse, theirs, sota.better, band, worse=False, against=sota.value)
    return Comparison(value, sota.value, sota.unit, sota.better, tolerance, c_margin, low, high, worst, best,
                      within, None if bar is None else bar.low, None if bar is None else bar.high, worse_in,
                      better_in)


def _beyond(value: float, unit: units.Unit, bar: float, bar_unit: units.Unit, better: str, band: float,
            worse: bool, against: float | None = None) -> bool:
    """Decided in decimal: with worse, whether value is not behind bar by more than band (its oriented margin, with
    the denominator |against| or |bar|, is >= -band); else whether it is not ahead of it by more than band."""
    oriented = _oriented(value, unit, bar, bar_unit, better, against)
    if oriented is None:
        return False
    return oriented >= -_dec(band) if worse else oriented <= _dec(band)


def _end_margin(end: float | None, unit: units.Unit, bar_end: float | None, bar_unit: units.Unit, better: str,
                best: bool = False) -> float:
    """How far one end of our interval is past one end of the bar's; an end that does not exist is unbounded the
    way that cannot help the claim (-inf for the worst end, +inf for the best)."""
    if end is None or bar_end is None:
        return math.inf if best else -math.inf
    return exact_margin(end, unit, bar_end, bar_unit, better)


def _oriented(value: float, unit: units.Unit, bar: float, bar_unit: units.Unit, better: str,
              against: float | None = None) -> decimal.Decimal | None:
    """(value - bar) / |against, else bar|, negated when lower is better, in decimal from the numbers as written;
    against a zero denominator only the sign of the difference; None where a number is not finite. The one
    computation of a margin: exact_margin gives it as a float, _beyond compares it with the tolerance."""
    if not (math.isfinite(value) and math.isfinite(bar)):
        return None
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        mine, theirs = _dec(value) * _dec(unit.factor), _dec(bar) * _dec(bar_unit.factor)
        base = abs(_dec(against) * _dec(bar_unit.factor)) if against is not None else abs(theirs)
        diff = (mine - theirs) / base if base else decimal.Decimal((mine > theirs) - (mine < theirs))
        return diff if better == "higher" else -diff


def exact_margin(value: float, unit: units.Unit, bar: float, bar_unit: units.Unit, better: str) -> float:
    """margin() of value (in unit) against bar (in bar_unit), computed in decimal from the numbers as written.

    Converting first in binary floating point would move a value exactly at the bar a hair to one side
    (0.57 s is 569.9999999999999 ms): which side would then depend on the unit the ledger chose.
    """
    oriented = _oriented(value, unit, bar, bar_unit, better)
    if oriented is None:
        return math.nan
    out = float(oriented)
    if out == 0 and oriented != 0:  # a margin too small for a double keeps the side it is on
        out = 5e-324 if oriented > 0 else -5e-324
    return out


def change_words(old: float, old_unit: str | None, new: float, new_unit: str | None, better: str | None) -> str:
    """A value's change as a reviewer reads it: '33 ms → 35.5 ms, +7.6 %, worse' (units converted first)."""
    text = f"{fmt_value(old, old_unit)} → {fmt_value(new, new_unit)}"
    if old_unit and new_unit and units.parse(old_unit).comparable(units.parse(new_unit)):
        base = units.parse(old_unit).to(old, units.parse(new_unit))
    elif old_unit == new_unit:
        base = old
    else:
        return text + " (units not comparable)"
    if base:
        text += f", {(new - base) / abs(base) * 100:+.1f} %"
    if better in ("higher", "lower") and new != base:
        text += ", better" if (new > base) == (better == "higher") else ", worse"
    return text


def in_unit(value: float, unit: str | None, target: str | None) -> float | None:
    """value re-expressed in target, or None when the units cannot be converted."""
    if unit == target:
        return value
    if not unit or not target:
        return None
    mine, theirs = units.parse(unit), units.parse(target)
    return mine.to(value, theirs) if mine.comparable(theirs) else None


def source_age(sota: Dated, today: date) -> int:
    """Whole months since the bar's source (or its last check); a year counts from its December."""
    return months_between(sota.as_of(), today)


def evidence_date(art: Artifact, store: ArtifactStore) -> tuple[date | None, str]:
    """When an artifact was measured, and how that is known: ('tool': the run's date its tool records, 'meta.date'
    or 'git'), or (None, '').

    git is asked only for an artifact without a usable meta.date (once per run, for all of evidence/).
    """
    ran = recorded_date(art)  # the run's own date, as the tool records it (meta adds, never overrides)
    if ran is not None:
        return ran, "tool"
    measured = full_date(art.meta.get("date")) if isinstance(art.meta, dict) else None
    if measured is not None:
        return measured, "meta.date"
    committed = store.git_date(art.rel)
    return (committed, "git") if committed is not None else (None, "")


def oldest_evidence(files: Iterable[tuple[W, str]], store: ArtifactStore) -> tuple[date, str, W, str] | None:
    """Of (where, artifact) pairs, the one measured first: (its date, how that is known, where, artifact).

    The oldest input decides how old a number is. An artifact that cannot be read is skipped
    (the rules say why elsewhere); None when no input has a date.
    """
    dated: list[tuple[date, str, W, str]] = []
    for where, rel in files:
        try:
            when, how = evidence_date(store.get(rel), store)
        except PathProblem:
            continue
        if when is not None:
            dated.append((when, how, where, rel))
    return min(dated, key=lambda d: d[0]) if dated else None


def months_between(then: tuple[int, int], now: date) -> int:
    """Whole months from (year, month) to now."""
    return (now.year - then[0]) * 12 + (now.month - then[1])


def evidence_age(measured: date, when: date) -> int:
    """How old evidence measured on a date is at when, in whole months: never below 0 (evidence dated after the
    reference date, as a commit after SOURCE_DATE_EPOCH may be, is new). The one computation the check (SC310,
    from today) and the site ("measured N months ago", from its as-of date) share."""
    return max(months_between((measured.year, measured.month), when), 0)
