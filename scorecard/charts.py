"""Chart geometry, as plain data the macros template draws as SVG (no script, no library).

The bullet chart of one dimension against its bar, the status counts, the ledger's overview,
and a dimension's value over time. Pure: numbers in, coordinates and labels out.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from .markup import title_text
from .compare import in_unit
from .model import STATUSES, value_word
from .numfmt import fmt_number, fmt_ratio, fmt_value
from .views import STATUS_LABELS, measured_detail, standing_text

if TYPE_CHECKING:
    from .git import Commit
    from .history import DimensionHistory, State
    from .resolve import ResolvedDimension, ResolvedLedger


def bullet_chart(d: ResolvedDimension) -> dict | None:
    """Geometry of the result-against-bar chart (drawn by the macros template), or None.

    Everything is in the bar's unit; an interval is drawn as a whisker across the result's end.
    """
    c = d.comparison
    if c is None or d.measured is None:
        return None
    ends = [abs(c.bar), abs(c.value)] + ([abs(c.low), abs(c.high)] if c.low is not None else [])
    top = max(ends) * 1.15 or 1.0
    width = 240

    def x(v: float) -> float:
        return round(max(v, 0) / top * width, 1)

    interval = None
    if c.low is not None and c.high is not None:
        interval = {"low_x": x(c.low), "high_x": x(c.high)}
    detail = measured_detail(d)
    return {"width": width, "value_x": x(c.value), "bar_x": x(c.bar), "interval": interval,
            "label": f"{fmt_value(c.value, c.unit)}{f' ({detail})' if detail else ''} against the bar of "
                     f"{fmt_value(c.bar, c.unit)}; {c.better} is better; {standing_text(d)}"}


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


def overview_chart(led: ResolvedLedger) -> dict | None:
    """Where we stand in one picture: per category, its status bar and each compared dimension's
    position against its bar on one shared, direction-aware log axis (1 = the bar; ahead is to
    the right whatever `better` is). None when no dimension is compared with a bar."""
    points = [(cat, d, 1 + d.comparison.margin) for cat in led.categories for d in cat.dimensions
              if d.comparison is not None]
    if not points:
        return None
    lows = [max(p, 1e-9) for _, _, p in points]
    span = max(2.0, *(max(p, 1 / p) for p in lows))  # symmetric about the bar, at least 2x either way
    span = 2 ** math.ceil(math.log2(span))
    width, left, right, row_h = 640, 150, 16, 28
    plot = width - left - right

    def x(position: float) -> float:
        clamped = min(max(position, 1 / span), span)
        return round(left + (math.log2(clamped) / math.log2(span) + 1) / 2 * plot, 1)

    rows = []
    for i, cat in enumerate(led.categories):
        y = 24 + i * row_h
        dots = []
        for j, d in enumerate(dd for c, dd, _ in points if c is cat):
            pos = 1 + d.comparison.margin
            title, standing = title_text(d.record.model.title), standing_text(d)
            dots.append({"x": x(max(pos, 1e-9)), "y": y + (j % 3 - 1) * 5, "id": d.id, "status": d.status,
                         "href": f"{cat.slug}/index.html#{d.id}", "title": title, "standing": standing,
                         "label": f"{title}: {STATUS_LABELS[d.status]}, {standing}", "position": fmt_ratio(pos)})
        total, at, parts = sum(cat.counts.values()) or 1, left - 64.0, []
        for status in STATUSES:  # the category's status distribution, a small stacked bar before its row
            n = cat.counts.get(status, 0)
            if n:
                parts.append({"status": status, "x": round(at, 1), "width": round(n / total * 56, 1)})
                at += n / total * 56
        rows.append({"slug": cat.slug, "title": title_text(cat.record.model.short or cat.record.model.title),
                     "y": y, "dots": dots, "parts": parts, "counts": counts_chart(cat.counts)["label"]})
    ticks = []
    k = span
    while k >= 1 / span:
        ticks.append({"x": x(k), "label": ("×" if k >= 1 else "÷") + fmt_number(k if k >= 1 else 1 / k)
                      if k != 1 else "the bar"})
        k /= 2
    height = 24 + len(rows) * row_h
    ahead = sum(1 for _, d, p in points if d.comparison.standing == "ahead")
    behind = sum(1 for _, d, p in points if d.comparison.standing == "behind")
    label = (f"{len(points)} dimensions compared with their bars: {ahead} ahead, {behind} behind, "
             f"{len(points) - ahead - behind} level; ahead is to the right, the bar is the middle line")
    return {"width": width, "height": height + 20, "left": left, "plot_right": width - right, "rows": rows,
            "ticks": ticks, "bar_x": x(1), "axis_y": height, "label": label}


def chart(h: DimensionHistory, end: Commit) -> dict | None:
    """Geometry of the value-against-bar-over-time chart, or None when nothing was ever measured."""
    pts = [(c.time, s) for c, s in h.points]
    unit = next((s.unit for _, s in reversed(pts) if s.value is not None), None)  # the latest unit; others convert

    def value_of(s: State) -> float | None:
        return None if s.value is None else in_unit(s.value, s.unit, unit)

    def bar_of(s: State) -> float | None:
        return None if s.bar is None else in_unit(s.bar, s.bar_unit, unit)

    values = [v for v in (value_of(s) for _, s in pts) if v is not None]
    if not values:
        return None
    bars = [b for b in (bar_of(s) for _, s in pts) if b is not None]
    lo, hi = min(values + bars), max(values + bars)
    if lo == hi:
        lo, hi = lo - (abs(lo) or 1) * 0.5, hi + (abs(hi) or 1) * 0.5
    hi_label, lo_label = fmt_value(hi, unit), fmt_value(lo, unit)
    # Room for the longer y label at 11px (about 6.2px a character), so it is never clipped.
    width, height, pad, bottom = 360, 110, 8, 20
    left = max(40, round(10 + 6.2 * max(len(hi_label), len(lo_label))))
    t0, t1 = pts[0][0], max(end.time, pts[-1][0])
    one_day = _day(t0) == _day(t1)
    span = (t1 - t0) or 1
    order = {t: i for i, t in enumerate(sorted({t for t, _ in pts} | {t1}))}

    def x(t: int) -> float:
        if one_day:  # every commit on one day: a time axis would squash them, so they go in commit order
            return round(left + order[t] / max(len(order) - 1, 1) * (width - left - pad), 1)
        return round(left + (t - t0) / span * (width - left - pad), 1)

    def y(v: float) -> float:
        return round(height - bottom - (v - lo) / (hi - lo) * (height - bottom - pad), 1)

    def steps(get) -> str:
        out: list[str] = []
        prev = None
        for t, s in pts:
            v = get(s)
            if v is None:
                prev = None
                continue
            if prev is not None:
                out.append(f"{x(t)},{y(prev)}")
            out.append(f"{x(t)},{y(v)}")
            prev = v
        if prev is not None:
            out.append(f"{x(t1)},{y(prev)}")
        return " ".join(out)

    first, latest = values[0], values[-1]
    kinds = {value_word(s.status) for _, s in pts if s.value is not None}
    what = kinds.pop() + " value" if len(kinds) == 1 else "value (simulated in part)"
    label = (f"{what[0].upper()}{what[1:]} over {len(pts)} recorded states from {_day(pts[0][0])} to {_day(t1)}: "
             f"from {fmt_value(first, unit)} to {fmt_value(latest, unit)}, lowest {fmt_value(min(values), unit)}, "
             f"highest {fmt_value(max(values), unit)}")
    if bars:
        label += f"; SOTA bar from {fmt_value(bars[0], unit)} to {fmt_value(bars[-1], unit)}"
    if one_day:
        label += f"; all on {_day(t0)}, so the points are in commit order, evenly spaced"
    dots = [(x(t), y(v)) for t, v in ((t, value_of(s)) for t, s in pts) if v is not None]
    dates = [] if one_day else [(x(t), _day(t)) for t in _date_ticks(t0, t1, x, left, width - pad)]
    ticks = {"top": y(hi), "bottom": y(lo), "hi": hi_label, "lo": lo_label,
             "start": _day(t0) if not one_day else f"{_day(t0)}, by commit", "end": "" if one_day else _day(t1),
             "dates": dates, "axis_y": height - bottom, "left": left, "date_y": height - 5}
    return {"width": width, "height": height, "label": label, "what": what, "ticks": ticks,
            "value": steps(value_of),
            "bar": steps(bar_of) if bars else "",
            "dots": dots}


def _date_ticks(t0: int, t1: int, x, left: float, right: float) -> list[int]:
    """Times of month (or day) starts between t0 and t1 to label, at least 70px from each other and the ends."""
    day = 86400
    start = datetime.fromtimestamp(t0, tz=UTC).replace(hour=0, minute=0, second=0, microsecond=0)
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
    return datetime.fromtimestamp(t, tz=UTC).date().isoformat()
