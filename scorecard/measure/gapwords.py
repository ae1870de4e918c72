"""The gap between a value and its bar in the words people use (FORMAT "Gaps in words"): one wording for ${gap}, the
pages, the standing and the checks' messages. Pure: a comparison in, words out."""

from __future__ import annotations

import math

from . import units
from .compare import Comparison
from .numfmt import fmt_number, fmt_percent, glue
from .shares import less

MULTIPLE_FROM = 2.0  # a gap of this many times or more is said as a multiple, a smaller one as a percentage


def gap_words(c: Comparison, named: bool = True) -> str:
    """How far the value is from the bar, as people say it (FORMAT "Gaps in words"): q is the oriented ratio, at least
    1 (for a lower-is-better quantity ahead, the speed-up bar/ours); below 2x, (q - 1) as a percentage ('64% faster
    than the bar', '8% behind the bar'), from 2x a multiple ('12.4x slower than the bar', '3.1x the bar'); 'faster'
    and 'slower' for times and rates, 'ahead' and 'behind' otherwise; a zero bar by sign; a bar in % by the
    difference in percentage points ('3.1 points below the bar'). Without named, a percentage or a difference in
    points leaves the bar unnamed ('1.7% ahead'), for a sentence that has named it already."""
    bar = " the bar" if named else ""
    special = _not_a_ratio(c, bar)
    if special is not None:
        return special
    ratio, speed = c.ratio, _speed(c)
    # multiples and q only between two positive numbers: with a negative bar the ratio loses the direction
    if ratio is None or ratio <= 0 or c.bar <= 0:
        return _difference_words(c, named)
    q = max(ratio, 1 / ratio)
    size = _percent(q - 1)
    if q < MULTIPLE_FROM and size:  # as printed: 99.96 % reads 100 %, which is 2x
        if speed:
            return f"{size} {'faster' if c.margin > 0 else 'slower'}{' than the bar' if named else ''}"
        return f"{size} {'ahead' + (' of' if named else '') if c.margin > 0 else 'behind'}{bar}"
    many = fmt_number(q) + "×"
    if speed:
        return f"{many} {'faster' if c.margin > 0 else 'slower'} than the bar"
    if c.better == "lower":
        return f"{many} {'the bar' if ratio > 1 else 'below the bar'} (lower is better)"
    return f"{many} the bar" if ratio > 1 else f"{many} below the bar"


def _not_a_ratio(c: Comparison, bar: str) -> str | None:
    """The gaps not said as a ratio: unbounded, a share's in points, a zero bar's by sign, none at all."""
    if c.unbounded:
        return f"behind{bar} without bound (failed requests)"
    if units.is_percent(c.unit):  # a share against a share (%, percent): in points
        points = c.value - c.bar
        if points == 0:
            return "at the bar"
        size = f"{abs(points):.3g}"
        side = "above" if points > 0 else "below"
        return f"{size} point{'' if size == '1' else 's'} {side}{bar}{_judged_multiple(c)}"
    if c.zero_bar:
        return "at the bar of 0" if c.margin == 0 else f"{'better' if c.margin > 0 else 'worse'} than the bar of 0"
    return "at the bar" if c.margin == 0 else None


def _judged_multiple(c: Comparison) -> str:
    """The multiple of the side a share's verdict judges ('; 5.9× the bar's distance from 100%' for 94.1 % against
    99 %, the error rate the verdict compares; '; 3× the bar' for 12 % against 4 %): '' where a side is 0 (no
    multiple) or the multiple reads 1×."""
    if c.judged_bar is None or c.judged_bar <= 0:
        return ""
    complement = c.judged == "complement"
    ours = less(c.value) if complement else c.value
    if ours <= 0:
        return ""
    many = fmt_number(ours / c.judged_bar)
    if many == "1":
        return ""
    return f"; {many}× the bar's distance from 100%" if complement else f"; {many}× the bar"


def _speed(c: Comparison) -> bool:
    """Whether the gap is said in 'faster' and 'slower': a time where lower is better, a rate where higher is."""
    dims = dict(units.parse(c.unit).dims)
    return (c.better == "lower" and dims == {"s": 1}) or (c.better == "higher" and dims.get("s") == -1)


def _difference_words(c: Comparison, named: bool) -> str:
    """A gap against a negative bar, or across zero: a percentage of the bar's size below 100 %, else the
    difference in the unit (never 100 % or more of a number whose sign has turned)."""
    side = "ahead" + (" of" if named else "") if c.margin > 0 else "behind"
    bar = " the bar" if named else ""
    size = _percent(c.margin)
    if not size:
        across = ", across zero" if c.ratio is not None and c.ratio < 0 else ""
        return f"{fmt_number(abs(c.value - c.bar))}{glue(c.unit)}{c.unit} {side}{bar}{across}"
    return f"{size} {side}{bar}"


def _percent(fraction: float) -> str:
    """fraction as a gap in percent, as printed: '' where that reads 100 % or more (which a percentage never says),
    'less than 0.1%' where it reads 0 (a real gap never reads as none)."""
    size = fmt_percent(fraction)
    if float(size[:-1]) >= 100:
        return ""
    return "less than 0.1%" if size in ("0%", "0.0%") else size


def gap_q(c: Comparison) -> float | None:
    """The gap as one signed number for ranking and drawing, the q its words say: log2 q, above 0 ahead and below 0
    behind (0 at the bar). A share ranks by the ratio of the side the verdict judges (94.1 % against 99 % is 5.9×
    the bar's error rate); a gap against a negative bar, or across zero, said as a percentage of the bar's size, by
    1 + that share; a gap without bound, -infinity. None where the words give no size (a bar of 0, a difference in
    the unit): such a gap is never ranked against the others."""
    if c.unbounded:
        return -math.inf
    if c.margin == 0:
        return 0.0
    ours, bar = c.value, c.bar
    if units.is_percent(c.unit) and c.judged_bar is not None:  # a share: its judged side
        ours, bar = (less(c.value) if c.judged == "complement" else c.value), c.judged_bar
    if ours > 0 and bar > 0:
        size = abs(math.log2(ours / bar))
    elif bar != 0 and abs(c.margin) < 1 and not units.is_percent(c.unit):  # said as a percentage of the bar
        size = math.log2(1 + abs(c.margin))
    else:
        return None
    return size if c.margin > 0 else -size
