"""The index's first screen (issue 45): one sentence that answers "where do we stand?", whose counts add up to the
number it names, and a table of counts by category and status, each count a link. Pure: a resolved ledger in,
words and counts out (plain data: a ledger's own templates may read it too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.statuses import STATUSES, VERDICTS
from ..measure.gapwords import gap_q, gap_words
from ..measure.numfmt import fmt_percent
from .markup import title_text
from .views import STATUS_LABELS

if TYPE_CHECKING:
    from .resolve import ResolvedDimension, ResolvedLedger

OTHERS = {"simulated": "{n} simulated (a model's number, not a measurement)", "no-claim": "{n} with no claim (no "
          "number yet: a real gap)", "out-of-scope": "{n} out of scope"}


def headline(led: ResolvedLedger, subject: str) -> dict:
    """The sentence, in parts the index links: 'fak leads on 3 of 9 measured dimensions, is level (within ±5%) on
    2, trails on 3, and 1 is inconclusive', the dimensions furthest behind (or, with none behind, furthest ahead)
    with their gap in words, and the count of the others by status. `text` is the whole, as plain text."""
    counts = led.counts
    measured = sum(counts.get(s, 0) for s in VERDICTS)
    total = sum(counts.values())
    band = fmt_percent(led.settings.parity_tolerance)
    lead = _measured_clause(subject, counts, measured, band) if measured else \
        f"{subject} has no measured dimension yet" if total else f"{subject} has no dimension yet"
    dims = [(cat.slug, d) for cat in led.categories for d in cat.dimensions]
    extreme, side = _extreme(dims, "trails"), "behind"
    if not extreme:
        extreme, side = _extreme(dims, "leads"), "ahead"
    rest = [OTHERS[s].format(n=counts[s]) for s in OTHERS if counts.get(s)]
    others = (f"Of the other {total - measured}: " if measured else f"Of its {total}: ") + _listed(rest) + "." \
        if rest else ""
    sample = sum(1 for _, d in dims if d.status in VERDICTS and d.measured is not None and d.measured.sample)
    if sample:  # a number from sample data is no measurement: said where the count is (issue 45)
        others = (f"{'All' if sample == measured else sample} of the {measured} measured rest on sample data, not "
                  f"real runs. " + others).strip()
    out = {"lead": lead, "side": side, "extreme": extreme, "gap": extreme[0]["gap"] if extreme else "",
           "others": others, "measured": measured, "total": total, "sample": sample}
    out["text"] = _text(out)
    return out


def _measured_clause(subject: str, counts: dict[str, int], measured: int, band: str) -> str:
    whole = f"{measured} measured dimension{'s' if measured != 1 else ''}"
    if measured == counts.get("inconclusive", 0):  # all of them: 'fak's 2 measured dimensions are inconclusive'
        return f"{subject}'s {whole} {'is' if measured == 1 else 'are'} inconclusive"
    parts: list[str] = []
    for status in VERDICTS:
        n = counts.get(status, 0)
        if n:
            said = {"leads": f"leads on {n}", "parity": f"is level (within ±{band}) on {n}",
                    "trails": f"trails on {n}", "inconclusive": f"{n} {'is' if n == 1 else 'are'} inconclusive"}
            parts.append(said[status] + ("" if parts else f" of {whole}"))  # the first names the whole it counts
    return f"{subject} {_listed(parts, comma=True)}"


def _extreme(dims: list[tuple[str, ResolvedDimension]], status: str) -> list[dict]:
    """The dimensions of status furthest from the bar (with all that tie with it: the same q, or the same words),
    by the gap measure the words use."""
    compared = [(slug, d, q, gap_words(c)) for slug, d in dims if d.status == status
                and (c := d.comparison) is not None
                and (q := gap_q(c)) is not None]  # a gap whose words give no size is never 'furthest'
    if not compared:
        return []
    words = (min if status == "trails" else max)(compared, key=lambda x: x[2])[3]
    return [{"id": d.id, "title": d.record.model.title, "href": f"{slug}/index.html#{d.id}", "gap": words}
            for slug, d, _, said in compared if said == words]


def _listed(parts: list[str], comma: bool = False) -> str:
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + ("," if comma and len(parts) > 2 else "") + " and " + parts[-1]


def _text(h: dict) -> str:
    extreme = h["extreme"]
    names = _listed([title_text(e["title"]) for e in extreme])
    far = f" — furthest {h['side']} on {names}, {'each ' if len(extreme) > 1 else ''}{h['gap']}" if extreme else ""
    return f"{h['lead']}{far}." + (f" {h['others']}" if h["others"] else "")


_HYPHENATED = {"inconclusive": "incon\u00adclusive", "simulated": "simu\u00adlated"}  # where a narrow column breaks


def status_table(led: ResolvedLedger) -> dict:
    """Counts by category and status, in the format's status order, only the statuses the ledger has: each count
    links to its category's section (a total to the status's definition in the legend)."""
    shown = [s for s in STATUSES if led.counts.get(s)]
    rows = [{"slug": cat.slug, "title": cat.record.model.short or cat.record.model.title,
             "cells": [{"status": s, "n": cat.counts.get(s, 0)} for s in shown], "total": sum(cat.counts.values())}
            for cat in led.categories]
    labels = [_HYPHENATED.get(s, STATUS_LABELS[s]) for s in shown]  # the columns fit a phone's width
    return {"statuses": shown, "labels": labels, "rows": rows,
            "totals": [{"status": s, "n": led.counts[s]} for s in shown], "total": sum(led.counts.values())}
