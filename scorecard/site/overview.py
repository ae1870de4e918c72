"""The index's overview (issue 45): every dimension compared with its bar, as a ranked list of labelled gap bars,
furthest ahead first. A bar's length is the gap measure its words say (log q, q the oriented ratio of "Gaps in
words"), so that a longer bar is always a larger gap; each row names its dimension, its status in words, the gap
and the two numbers in the dimension's own unit (a speed-up against a speed-up bar reads "4.1x against 3x", never
as a ratio of the two). Pure: a resolved ledger in, rows of plain data out; the macros template draws them in
HTML, so that no label can overlap another or be clipped.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..measure.gapwords import gap_q
from ..measure.numfmt import fmt_number
from .markup import title_text
from .views import bar_kind, bar_text, measured_text, standing_text, status_marks

if TYPE_CHECKING:
    from .resolve import ResolvedDimension, ResolvedLedger

MAX_SPAN = 8.0  # a half of the axis reaches at most 8x from the bar; a gap beyond is drawn at the edge and said so
HALF = 100.0  # the drawing's units from the bar's line to either edge


def overview_chart(led: ResolvedLedger) -> dict | None:
    """The ranked rows, the axis's reach either side of the bar (2x to 8x, the smallest power of 2 that holds the
    finite gaps) and a summary in words; None when no dimension is compared with a bar."""
    compared = [(cat, d, c, _placed(gap_q(c), c.margin)) for cat in led.categories for d in cat.dimensions
                if (c := d.comparison) is not None]
    if not compared:
        return None
    finite = [abs(q) for _, _, _, q in compared if q is not None and math.isfinite(q)]
    span = min(MAX_SPAN, 2.0 ** max(1, math.ceil(max(finite, default=1.0) - 1e-12)))
    reach = math.log2(span)
    rows = []
    for cat, d, _, q in sorted(compared, key=lambda x: (-x[3], title_text(x[1].record.model.title), x[1].id)):
        sized = abs(q) != UNSIZED
        length = min(abs(q) / reach, 1.0) * HALF if sized else 0.0
        rows.append({"id": d.id, "href": f"{cat.slug}/index.html#{d.id}", "title": d.record.model.title,
                     "category": cat.record.model.short or cat.record.model.title, "status": d.status,
                     "gap": standing_text(d), "ours": measured_text(d), "bar": bar_text(d),
                     "kind": bar_kind(d, short=True),
                     "x": round(HALF if q >= 0 else HALF - length, 2), "width": round(length, 2),
                     "side": "ahead" if q > 0 else "behind" if q < 0 else "level", "beyond": sized and abs(q) > reach,
                     "sized": sized, "marks": status_marks(d)})
    by = {s: sum(1 for r in rows if r["status"] == s) for s in ("leads", "parity", "trails", "inconclusive",
                                                                 "simulated")}
    label = (f"{len(rows)} dimension{'s' if len(rows) != 1 else ''} compared with their bars, furthest ahead "
             f"first: {by['leads']} ahead, {by['parity']} level, {by['trails']} behind"
             + (f", {by['inconclusive']} not yet placed" if by["inconclusive"] else "")
             + (f", {by['simulated']} modelled (not measured)" if by["simulated"] else ""))
    return {"rows": rows, "span": fmt_number(span), "half": HALF, "label": label}


UNSIZED = 1e-9  # where a gap's words give no size (a bar of 0): ranked just off the bar on its side, drawn as none


def _placed(q: float | None, margin: float) -> float:
    return q if q is not None else (UNSIZED if margin > 0 else -UNSIZED)


def gap_rank(d: ResolvedDimension) -> str:
    """A row's place in the index's sort by the gap (data-gap): log2 q, behind below 0, as a number the script
    reads (a side without a ratio, or a gap without bound, at +-1000)."""
    q = gap_q(d.comparison) if d.comparison is not None else None
    return "" if q is None else format(max(-1000.0, min(1000.0, q)), ".6g")
