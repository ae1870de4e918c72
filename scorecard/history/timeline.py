"""The ledger's history told: history.json for the site, and `scorecard history` as text or JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .walk import DimensionHistory, Event, History


def as_data(h: History) -> dict:
    """history.json: commits, and each dimension's states and events (machine-readable)."""
    return {
        "schema_version": 1,
        "head": h.head.sha,
        "notes": h.notes,
        "commits": [{"sha": c.sha, "time": c.time, "subject": c.subject} for c in h.commits],
        "dimensions": {i: {"renamed_from": d.renamed_from, "removed": d.removed, "older_versions_not_read": d.unread,
                           "states": [{"commit": c.sha, "time": c.time, "status": s.status, "value": s.value,
                                       "unit": s.unit, "bar": s.bar, "bar_unit": s.bar_unit, "category": s.category}
                                      for c, s in d.points]}
                       for i, d in h.dimensions.items()},
        "events": [event_data(e) for e in h.events],
    }


def event_data(e: Event) -> dict:
    """One event in the machine-readable forms."""
    return {"commit": e.commit.sha, "time": e.when, "dimension": e.target or e.dim, "id_then": e.dim,
            "category": e.category,
            "kinds": e.kinds, "text": e.text, "subject": e.subject}


def as_text(dim_id: str, d: DimensionHistory, notes: list[str]) -> str:
    """`scorecard history ID` for a terminal: one line per change, oldest first."""
    n = len(d.events)
    lines = [f"{dim_id}: {n} change{'s' if n != 1 else ''} over {len(d.points)} recorded "
             f"state{'s' if len(d.points) != 1 else ''}"
             + (f" (earlier names: {', '.join(d.renamed_from)})" if d.renamed_from else "")
             + (" (removed from the ledger)" if d.removed else "")]
    if d.unread:
        lines.append(f"  older versions not read ({d.unread})")
    for e in d.events:
        lines.append(f"  {e.date}  {e.short}  {e.text}  — {e.subject}")
    lines += [f"note: {note}" for note in notes]
    return "\n".join(lines) + "\n"


def ledger_text(h: History, limit: int) -> str:
    """`scorecard history` without an ID: the ledger's changes, newest first (limit 0: all of them)."""
    n = len(h.events)
    shown = h.events if limit <= 0 else h.events[:limit]
    lines = [f"{n} change{'s' if n != 1 else ''} in {len(h.commits)} commit{'s' if len(h.commits) != 1 else ''} "
             f"that touched the ledger, up to {h.head.short} ({h.head.when.date().isoformat()}); newest first:"]
    lines += [f"  {e.date}  {e.short}  {e.target or e.dim}: {e.text}  — {e.subject}" for e in shown]
    if len(shown) < n:
        lines.append(f"  … and {n - len(shown)} earlier (--limit 0 shows all)")
    lines += [f"note: {note}" for note in h.notes]
    return "\n".join(lines) + "\n"


def ledger_json(h: History, limit: int) -> str:
    """`scorecard history --format json` without an ID."""
    shown = h.events if limit <= 0 else h.events[:limit]
    doc = {"head": h.head.sha, "notes": h.notes, "total": len(h.events), "events": [event_data(e) for e in shown]}
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def as_json(dim_id: str, d: DimensionHistory, notes: list[str]) -> str:
    """`scorecard history ID --format json`."""
    doc = {"dimension": dim_id, "renamed_from": d.renamed_from, "removed": d.removed, "notes": notes,
           "older_versions_not_read": d.unread,
           "states": [{"commit": c.sha, "time": c.time, "status": s.status, "value": s.value, "unit": s.unit,
                       "bar": s.bar, "category": s.category} for c, s in d.points],
           "events": [event_data(e) for e in d.events]}
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
