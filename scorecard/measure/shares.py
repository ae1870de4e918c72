"""Shares: a result in % whose bar and value lie in 0-100 is judged on the side its bar has nearer 0.

94.1 % accuracy against a bar of 99 % is 5.9 % of error against 1 %: 490 % behind, and trails. Judged as a ratio of
the shares themselves it was 4.9 % behind, "within tolerance". The invariant: writing a share as its complement
with `better` flipped never changes the verdict. At exactly 50 % both sides are judged and the stricter verdict
stands. Interval ends are clipped to 0-100. A record that means a gain or a change in percent says `share: false`.
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


def is_share(m: Measurement, sota) -> bool:
    """Whether m against sota is a share: the bar's unit is % (or percent), and both numbers lie in 0-100."""
    theirs = units.parse(sota.unit or "")
    if not (theirs.known and not theirs.dims and theirs.factor == 0.01) or sota.value is None:
        return False
    mine = units.parse(m.unit)
    value = m.value if mine.factor == theirs.factor else mine.to(m.value, theirs)
    return 0 <= value <= 100 and 0 <= sota.value <= 100


def as_share(m: Measurement, sota, tolerance: float, compare: Callable[..., Any]) -> Any:
    """The comparison (compare.Comparison) of a share on the side its bar has nearer 0, shown with its own numbers;
    None for a value that is not a share. compare: compare.compare, handed in (this module sits below it)."""
    if not is_share(m, sota):
        return None
    unit = units.parse(sota.unit)
    ours = _in(m, unit, sota.unit)
    bar = _bar_in(sota, unit)
    plain = compare(ours, bar, tolerance, share=False)
    flipped = compare(_complement(ours, sota.unit), _bar_complement(bar), tolerance, share=False)
    assert plain is not None and flipped is not None, "a share is always comparable with its own bar"
    shown = plain
    if sota.value > 50 or (sota.value == 50 and RANK[flipped.verdict()] < RANK[plain.verdict()]):
        shown = dataclasses.replace(flipped, value=plain.value, bar=plain.bar, better=plain.better, low=plain.low,
                                    high=plain.high, bar_low=plain.bar_low, bar_high=plain.bar_high,
                                    judged="complement", judged_bar=flipped.bar)
    else:
        shown = dataclasses.replace(plain, judged_bar=plain.bar)
    return shown


def _clip(x: float | None) -> float | None:
    return None if x is None else min(max(x, 0.0), 100.0)


def _less(x: float | None) -> float | None:
    """100 - x, in decimal from x as written (100 - 94.1 is 5.9, not 5.900000000000006)."""
    return None if x is None else less(x)


def less(x: float) -> float:
    """The complement of a share in %."""
    with decimal.localcontext() as ctx:
        ctx.prec = 60
        return float(decimal.Decimal(100) - decimal.Decimal(repr(x)))


def _in(m: Measurement, unit: units.Unit, text: str) -> Measurement:
    """m in the bar's unit of %, its interval ends clipped to 0-100."""
    mine = units.parse(m.unit)

    def to(x: float) -> float:  # % to %: the number as written, never rescaled through a float
        return x if mine.factor == unit.factor else mine.to(x, unit)
    low = None if m.low is None else to(m.low)
    high = None if m.high is None else to(m.high)
    return dataclasses.replace(m, value=to(m.value), unit=text, low=_clip(low), high=_clip(high))


def _complement(m: Measurement, text: str) -> Measurement:
    return dataclasses.replace(m, value=less(m.value), unit=text, low=_less(m.high), high=_less(m.low),
                               needs_low=m.needs_high, needs_high=m.needs_low)


def _bar_in(sota, unit: units.Unit):
    if isinstance(sota, Bar) and sota.measured is not None:
        return dataclasses.replace(sota, measured=_in(sota.measured, unit, sota.unit or "%"))
    return sota


def _bar_complement(sota):
    better = FLIP.get(sota.better, sota.better)
    if isinstance(sota, Bar):
        measured = None if sota.measured is None else _complement(sota.measured, sota.unit or "%")
        return dataclasses.replace(sota, value=_less(sota.value), better=better, measured=measured)
    return SimpleNamespace(value=_less(sota.value), unit=sota.unit, better=better, stat=getattr(sota, "stat", None),
                           kind=getattr(sota, "kind", None), measured=None)
