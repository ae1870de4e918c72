"""Chart geometry, as plain data the macros template draws as SVG (no script, no library).

The bullet chart of one dimension against its bar, the status counts, and a dimension's value over time
(the ledger's overview is overview.py). Pure: numbers in, coordinates and labels out.
"""

from __future__ import annotations

import math
from datetime import timedelta
from typing import TYPE_CHECKING

from ..measure.compare import Comparison, in_unit
from ..measure.units import is_percent
from ..core.dates import utc, utc_date
from ..core.statuses import STATUSES, value_word
from ..measure.numfmt import fmt_number, fmt_value, glue, scaled
from .once import once
from .views import STATUS_LABELS, bar_text, measured_detail, measured_text, shown_unit, standing_text

if TYPE_CHECKING:
    from ..core.git import Commit
    from ..history.walk import DimensionHistory, State
    from .resolve import ResolvedDimension


@once
def bullet_chart(d: ResolvedDimension) -> dict | None:
    """Geometry of the result-against-bar chart (drawn by the macros template), or None.

    Everything is in the bar's unit; an interval is drawn as a whisker across the result's end.
    """
    c = d.comparison
    if c is None or d.measured is None:
        return None
    ends = [abs(c.bar), abs(c.value)] + ([abs(c.low), abs(c.high)] if c.low is not None and c.high is not None else [])
    top = max(ends) * 1.15 or 1.0
    width = BULLET_WIDTH

    def x(v: float) -> float:
        return round(max(v, 0) / top * width, 1)

    interval = None
    if c.low is not None and c.high is not None:
        interval = {"low_x": x(c.low), "high_x": x(c.high)}
    bar_band = None  # a bar read from sota.result: its own interval, as a band (issue 45)
    if c.bar_low is not None and c.bar_high is not None and math.isfinite(c.bar_low) and math.isfinite(c.bar_high):
        bar_band = {"low_x": x(min(c.bar_low, c.bar_high)), "high_x": x(max(c.bar_low, c.bar_high))}
    detail = measured_detail(d)
    return {"width": width, "value_x": x(c.value), "bar_x": x(c.bar), "interval": interval, "bar_band": bar_band,
            "better": c.better,
            "ticks": _bullet_ticks(c, shown_unit(d) or c.unit, top, x),
            "label": f"{measured_text(d)}{f' ({detail})' if detail else ''} against the bar of "
                     f"{bar_text(d)}; {c.better} is better; {standing_text(d)}"}


BULLET_WIDTH = 240
CHAR_PX = 6.6  # a generous width of one character of an 11px label
TICK_GAP = 8  # px between two tick labels on the bullet chart


def _bullet_ticks(c: Comparison, shown: str, top: float, x) -> list[dict]:
    """The bullet chart's scale: the bar, and the nearest round value each side of it whose label has room (0 at
    the latest on the left), labelled in the unit the page shows."""
    factor = in_unit(1.0, c.unit, shown) or 1.0
    bar = _placed({"x": x(c.bar), "label": "bar " + _tick_text(c.bar * factor, shown), "bar": True})
    kept = [bar]
    round_values = [t / factor for t in nice_ticks(0, top * factor, 8)]
    left = sorted((v for v in round_values if 0 <= v < c.bar), reverse=True)
    right = [v for v in round_values if v > c.bar and x(v) <= BULLET_WIDTH]
    for side in (left, right):
        for v in side:
            t = _placed({"x": x(v), "label": _tick_text(v * factor, shown), "bar": False})
            if all(t["right"] + TICK_GAP <= k["left"] or k["right"] + TICK_GAP <= t["left"] for k in kept):
                kept.append(t)
                break
    return sorted(kept, key=lambda t: t["x"])


def _placed(t: dict) -> dict:
    """A tick with its label's box, anchored so that it stays inside the picture."""
    width = CHAR_PX * len(t["label"])
    left = min(max(t["x"] - width / 2, 0.0), BULLET_WIDTH + 2 - width)
    return {**t, "anchor_x": round(left + width / 2, 1), "left": round(left, 1), "right": round(left + width, 1)}


def _tick_text(v: float, unit: str) -> str:
    return f"{fmt_number(v)}{glue(unit)}{unit}"


def nice_ticks(lo: float, hi: float, count: int = 4, outward: bool = False) -> list[float]:
    """Round numbers (1, 2, 2.5 or 5 times a power of ten apart) from lo to hi, about count intervals; with
    outward, from the round number at or below lo to the one at or above hi (an axis's ends)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    raw = (hi - lo) / count
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(lo / step + 1e-9) if outward else math.ceil(lo / step - 1e-9)
    last = math.ceil(hi / step - 1e-9) if outward else math.floor(hi / step + 1e-9)
    return [float(f"{k * step:.12g}") for k in range(first, last + 1)]


def counts_chart(counts: dict[str, int]) -> dict:
    """Geometry of the stacked status bar for counts."""
    total = sum(counts.values()) or 1
    width, x, parts = 300, 0.0, []
    for status in STATUSES:
        n = counts.get(status, 0)
        if n:
            w = round(n / total * width, 1)
            parts.append({"status": status, "x": round(x, 1), "width": w, "count": n})
            x += w
    label = ", ".join(f"{counts[s]} {STATUS_LABELS[s]}" for s in STATUSES if counts.get(s))
    return {"width": width, "parts": parts, "label": label or "no dimensions"}


def chart(h: DimensionHistory, end: Commit, tolerance: float = 0.05) -> dict | None:
    """Geometry of the value-against-bar-over-time chart, or None when nothing was ever measured. Honest (issue 45):
    the y-range holds at least the band where parity holds around the latest bar (shaded), so that a gap inside
    the tolerance never fills the chart's height; against a bar of 0, the values' own range with a visible minimum;
    ticks distinct at the precision shown."""
    pts = [(c.time, s) for c, s in h.points]
    unit = next((s.unit for _, s in reversed(pts) if s.value is not None), None)  # the latest unit; others convert
    timeline = _Timeline(pts, unit, max(end.time, pts[-1][0]) if pts else end.time, tolerance)
    return timeline.geometry() if timeline.values else None


MIN_SPAN = 0.1  # the smallest y-range drawn, as a share of the largest magnitude shown: a flat line stays flat


class _Timeline:
    """One dimension's value and bar over time, scaled to the chart (both in the latest value's unit)."""

    WIDTH, HEIGHT, PAD, BOTTOM = 360, 110, 8, 20

    def __init__(self, pts: list[tuple[int, State]], unit: str | None, t1: int, tolerance: float = 0.05):
        self.pts, self.unit, self.t1 = pts, unit, t1
        self.values = [v for v in (self.value_of(s) for _, s in pts) if v is not None]
        self.bars = [b for b in (self.bar_of(s) for _, s in pts) if b is not None]
        if not self.values:
            return
        # a share's verdict is on the side it judges, in points: no band of the bar's own size (issue 45)
        self.band = _band(self.bars[-1], tolerance) if self.bars and not is_percent(unit or "") else None
        lo, hi = _y_range(self.values + self.bars + list(self.band or ()))
        if is_percent(unit or "") and min(self.values + self.bars) >= 0 and max(self.values + self.bars) <= 100:
            lo, hi = max(lo, 0.0), min(hi, 100.0)  # a share's axis stays inside 0-100 %
        # The axis in one readable unit, from a round number to a round number, ticked at round numbers.
        self.factor, self.axis_unit = _axis_unit(max(abs(lo), abs(hi)), unit)
        self.yticks = _distinct(nice_ticks(lo * self.factor, hi * self.factor, 3, outward=True), self.axis_unit)
        self.lo = min(lo, self.yticks[0] / self.factor) if self.yticks else lo
        self.hi = max(hi, self.yticks[-1] / self.factor) if self.yticks else hi
        labels = [_tick_text(t, self.axis_unit) for t in self.yticks]
        self.hi_label, self.lo_label = fmt_value(hi, unit), fmt_value(lo, unit)
        # Room for the longest y label at 11px (about 6.2px a character), so it is never clipped.
        self.left = max(40, round(10 + 6.2 * max(len(t) for t in labels or [self.hi_label])))
        self.tick_labels = labels
        self.t0 = pts[0][0]
        self.one_day = _day(self.t0) == _day(t1)
        self.order = {t: i for i, t in enumerate(sorted({t for t, _ in pts} | {t1}))}

    def value_of(self, s: State) -> float | None:
        return None if s.value is None else in_unit(s.value, s.unit, self.unit)

    def bar_of(self, s: State) -> float | None:
        return None if s.bar is None else in_unit(s.bar, s.bar_unit, self.unit)

    def x(self, t: int) -> float:
        room = self.WIDTH - self.left - self.PAD
        if self.one_day:  # every commit on one day: a time axis would squash them, so they go in commit order
            return round(self.left + self.order[t] / max(len(self.order) - 1, 1) * room, 1)
        return round(self.left + (t - self.t0) / ((self.t1 - self.t0) or 1) * room, 1)

    def y(self, v: float) -> float:
        room = self.HEIGHT - self.BOTTOM - self.PAD
        return round(self.HEIGHT - self.BOTTOM - (v - self.lo) / (self.hi - self.lo) * room, 1)

    def steps(self, get) -> str:
        """A step line through the states get reads a number from (broken where it reads none)."""
        out: list[str] = []
        prev = None
        for t, s in self.pts:
            v = get(s)
            if v is None:
                prev = None
                continue
            if prev is not None:
                out.append(f"{self.x(t)},{self.y(prev)}")
            out.append(f"{self.x(t)},{self.y(v)}")
            prev = v
        if prev is not None:
            out.append(f"{self.x(self.t1)},{self.y(prev)}")
        return " ".join(out)

    def label(self, what: str) -> str:
        """The chart in words (its accessible name and caption): 'the bar held at 0.5 ms; ours went from 2.1 ms to
        6.2 ms (lowest …, highest …) over 4 recorded states from … to …'."""
        values, unit, t0 = self.values, self.unit, self.t0
        first, last = fmt_value(values[0], unit), fmt_value(values[-1], unit)
        ours = f"ours stayed at {first}" if first == last and len(set(values)) == 1 else \
            f"ours went from {first} to {last}"
        if len(set(values)) > 2 or (len(set(values)) == 2 and {min(values), max(values)} != {values[0], values[-1]}):
            ours += f" (lowest {fmt_value(min(values), unit)}, highest {fmt_value(max(values), unit)})"
        n = len(self.pts)
        text = f"{ours}, the {what}, over {n} recorded state{'s' if n != 1 else ''} from {_day(t0)} to " \
               f"{_day(self.t1)}"
        if self.bars:
            held = fmt_value(self.bars[0], unit) == fmt_value(self.bars[-1], unit) and len(set(self.bars)) == 1
            bar = f"the bar held at {fmt_value(self.bars[0], unit)}" if held else \
                f"the bar moved from {fmt_value(self.bars[0], unit)} to {fmt_value(self.bars[-1], unit)}"
            text = f"{bar}; {text}"
        if self.one_day:
            text += f"; all on {_day(t0)}, so the points are in commit order, evenly spaced"
        return text[0].upper() + text[1:]

    def geometry(self) -> dict:
        kinds = {value_word(s.status) for _, s in self.pts if s.value is not None}
        what = kinds.pop() + " value" if len(kinds) == 1 else "value (simulated in part)"
        t0, t1, one_day = self.t0, self.t1, self.one_day
        dots = [(self.x(t), self.y(v)) for t, v in ((t, self.value_of(s)) for t, s in self.pts) if v is not None]
        dates = [] if one_day else [(self.x(t), _day(t))
                                    for t in _date_ticks(t0, t1, self.x, self.left, self.WIDTH - self.PAD)]
        ticks = {"top": self.y(self.hi), "bottom": self.y(self.lo), "hi": self.hi_label, "lo": self.lo_label,
                 "y": [(self.y(t / self.factor), text) for t, text in zip(self.yticks, self.tick_labels, strict=True)],
                 "start": f"{_day(t0)}, by commit" if one_day else _day(t0), "end": "" if one_day else _day(t1),
                 "dates": dates, "axis_y": self.HEIGHT - self.BOTTOM, "left": self.left, "date_y": self.HEIGHT - 5}
        band = None if self.band is None else {"top": self.y(self.band[1]), "bottom": self.y(self.band[0])}
        return {"width": self.WIDTH, "height": self.HEIGHT, "label": self.label(what), "what": what, "ticks": ticks,
                "band": band,
                "value": self.steps(self.value_of), "bar": self.steps(self.bar_of) if self.bars else "", "dots": dots}


def _band(bar: float, tolerance: float) -> tuple[float, float] | None:
    """Where parity holds around the bar (its tolerance either way); none around a bar of 0, judged by sign."""
    return None if bar == 0 else (bar - abs(bar) * tolerance, bar + abs(bar) * tolerance)


def _y_range(numbers: list[float]) -> tuple[float, float]:
    """The numbers' range, widened about its middle to at least MIN_SPAN of the largest magnitude (1 when all are
    0): a flat series, one state or a tiny move is drawn as what it is."""
    lo, hi = min(numbers), max(numbers)
    least = max(abs(lo), abs(hi)) * MIN_SPAN or 1.0
    if hi - lo < least:
        mid = (lo + hi) / 2
        lo, hi = mid - least / 2, mid + least / 2
    return lo, hi


def _distinct(ticks: list[float], unit: str) -> list[float]:
    """Ticks whose labels differ at the precision shown (a label repeated is dropped)."""
    seen: set[str] = set()
    out = []
    for t in ticks:
        text = _tick_text(t, unit)
        if text not in seen:
            seen.add(text)
            out.append(t)
    return out


def _axis_unit(magnitude: float, unit: str | None) -> tuple[float, str]:
    """The factor from unit to the unit an axis reaching magnitude is labelled in (scaled for reading), and it."""
    if not unit:
        return 1.0, ""
    readable, shown = scaled(magnitude, unit) if magnitude else (magnitude, unit)
    return (readable / magnitude if magnitude else 1.0), shown


def _date_ticks(t0: int, t1: int, x, left: float, right: float) -> list[int]:
    """Times of month (or day) starts between t0 and t1 to label, at least 70px from each other and the ends."""
    day = 86400
    start = utc(t0).replace(hour=0, minute=0, second=0, microsecond=0)
    monthly = t1 - t0 > 62 * day
    out: list[int] = []
    last = left + 70  # the start label's room
    cursor = start
    for _ in range(400):
        if monthly:
            cursor = (cursor.replace(day=1) + timedelta(days=32)).replace(day=1)
        else:
            cursor = cursor + timedelta(days=max(1, (t1 - t0) // day // 4))
        t = int(cursor.timestamp())
        if t >= t1:
            break
        px = x(t)
        if px - last >= 70 and right - px >= 70:
            out.append(t)
            last = px
    return out


def _day(t: int) -> str:
    return utc_date(t).isoformat()
