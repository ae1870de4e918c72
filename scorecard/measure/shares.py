"""Shares: a result in % whose bar and value lie in 0-100 is judged on the side its bar has nearer 0.

94.1 % accuracy against a bar of 99 % is 5.9 % of error against 1 %: 490 % behind, and trails. Judged as a ratio of
the shares themselves it was 4.9 % behind, "within tolerance". The invariant: writing a share as its complement
with `better` flipped never changes the verdict. At exactly 50 % both sides are judged and the stricter verdict
stands. Every number the verdict reads must lie in 0-100 for a value to be a share, so nothing is clipped. A record
that means a gain or a change in percent says `share: false`.
"""

from __future__ import annotations

import dataclasses
import decimal
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from . import units
from .measured import Bar, Measurement

RANK = {"trails": 0, "inconclusive": 1, "parity": 2, "leads": 3}
FLIP = {"higher": "lower", "lower": "higher"}


PERCENT = "%"


def is_share(m: Measurement, sota) -> bool:
    """Whether m against sota is a share: the result is in % (x is a ratio by contract, never a share), the bar
    converts to %, and every number the verdict reads lies in 0-100: the value, its interval's ends, its runs, and
    the bar's (a run below 0 % shows the value is a change in percent, not a share)."""
    if not units.is_percent(m.unit) or sota.value is None or not units.parse(sota.unit or "").comparable(
            units.parse(PERCENT)):
        return False
    ours = _in(m)
    bar = _bar_in(sota)
    numbers = [ours.value, ours.low, ours.high, bar.value]
    if ours.summary is not None:
        numbers += [ours.summary.lowest, ours.summary.highest]
    measured = getattr(bar, "measured", None)
    if measured is not None:
        numbers += [measured.low, measured.high]
        if measured.summary is not None:
            numbers += [measured.summary.lowest, measured.summary.highest]
    return all(0 <= x <= 100 for x in numbers if x is not None)


def as_share(m: Measurement, sota, tolerance: float, compare: Callable[..., Any]) -> Any:
    """The comparison (compare.Comparison) of a share on the side its bar has nearer 0, shown with its own numbers;
    None for a value that is not a share. compare: compare.compare, handed in (this module sits below it)."""
    if not is_share(m, sota):
        return None
    ours, bar = _in(m), _bar_in(sota)
    plain = compare(ours, bar, tolerance, share=False)
    flipped = compare(_complement(ours), _bar_complement(bar), tolerance, share=False)
    assert plain is not None and flipped is not None, "a share is always comparable with its own bar"
    if bar.value > 50 or (bar.value == 50 and RANK[flipped.verdict()] < RANK[plain.verdict()]):
        return dataclasses.replace(flipped, value=plain.value, bar=plain.bar, unit=plain.unit, better=plain.better,
                                   low=plain.low, high=plain.high, bar_low=plain.bar_low, bar_high=plain.bar_high,
                                   judged="complement", judged_bar=flipped.bar)
    return dataclasses.replace(plain, judged_bar=plain.bar)


def _less(x: float | None) -> float | None:
    """100 - x, in decimal from x as written (100 - 94.1 is 5.9, not 5.900000000000006)."""
    return None if x is None else less(x)


def less(x: float) -> float:
    """The complement of a share in %."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return float(decimal.Decimal(100) - decimal.Decimal(repr(x)))


def _to_percent(x: float | None, unit: str | None) -> float | None:
    """x in %: the number as written where it is already in % (never rescaled through a float)."""
    if x is None:
        return None
    mine = units.parse(unit or "")
    return x if units.is_percent(unit) else mine.to(x, units.parse(PERCENT))


def _in(m: Measurement) -> Measurement:
    """m in %, as written."""
    value = _to_percent(m.value, m.unit)
    assert value is not None
    return dataclasses.replace(m, value=value, unit=PERCENT, low=_to_percent(m.low, m.unit),
                               high=_to_percent(m.high, m.unit))


def _complement(m: Measurement) -> Measurement:
    return dataclasses.replace(m, value=less(m.value), low=_less(m.high), high=_less(m.low),
                               needs_low=m.needs_high, needs_high=m.needs_low)


def _bar(sota, value: float | None, better: str, measured: Callable[[Measurement], Measurement]):
    """The bar with another number, direction and measurement (measured, applied to the one it was read from)."""
    if isinstance(sota, Bar):
        return dataclasses.replace(sota, value=value, unit=PERCENT, better=better,
                                   measured=None if sota.measured is None else measured(sota.measured))
    return SimpleNamespace(value=value, unit=PERCENT, better=better, stat=getattr(sota, "stat", None),
                           kind=getattr(sota, "kind", None), measured=None)


def _bar_in(sota):
    """The bar in %: its typed number, or the measurement it was read from."""
    return _bar(sota, _to_percent(sota.value, sota.unit), sota.better, _in)


def _bar_complement(sota):
    """The bar (in %) as its complement, the other way better."""
    return _bar(sota, _less(sota.value), FLIP.get(sota.better, sota.better), _complement)
