"""The scorecard as a Markdown table, for a README or a wiki (`scorecard export --format markdown`, `--readme`).

One row per dimension: the dimension, its status in words with its glyph and the site's marks (suspect, stale,
sample data, modelled; parity with its tolerance), the bar, ours and where we stand against it, in the words and
units the pages use; no relative dates, so the block changes only when the ledger does. A link to each dimension
only with base_url (a README's relative link would point into the repository, not at the site).

Ledger text is inert on GitHub: Markdown's punctuation is escaped (a title cannot open a link, an image, raw HTML
or a new cell), and what GitHub links although CommonMark does not (@mentions, #12, bare www. and URL addresses,
e-mail addresses) is put in a code span, the one form that keeps it plain text.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from ..core.statuses import GLYPHS
from ..core.textsafe import UNSAFE_LINE, md_code
from .markup import brief, title_text
from .resolve import ResolvedDimension, ResolvedLedger
from .views import STATUS_LABELS, bar_text, measured_text, standing_text, status_marks

# What GitHub turns into a link or a notification in text: mentions and team mentions, issue and PR references
# (#12, owner/repo#12, GH-12), e-mail addresses, and URLs with or without a scheme.
# No look-behind: GitHub's own test of the character before (ASCII, per text node) differs from Python's, so
# every such token is put in a code span, wherever it stands (the hostile pass: `@x, é@x, a@b.co@x, #1GH-12).
_LINKED = re.compile(r"(?i)(?:https?://|ftp://|www\.)[^\s<>|]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|@[\w-]+"
                     r"(?:/[\w.-]+)?|(?:[\w.-]+/[\w.-]+)?#\d+|GH-\d+")
_PUNCTUATION = re.compile(r"([\\`*_\[\]|~$])")  # inline marks and math ($); a cell holds no block: - + # > are plain
CELL_LIMIT = 300  # characters of ledger text in one cell; the rest is cut with "…"


def _code(text: str) -> str:
    return md_code(text).replace("|", "\\|")  # a pipe ends a cell even inside a code span, unless escaped


def cell(text: str) -> str:
    """Ledger text as the content of one table cell, shown as typed and linking nothing."""
    text = " ".join(UNSAFE_LINE.sub(" ", text).split())
    if len(text) > CELL_LIMIT:
        text = text[:CELL_LIMIT] + "…"
    parts: list[tuple[bool, str]] = []  # (in a code span, text); touching spans are one (`a` `b` would read as ``)
    at = 0
    for found in _LINKED.finditer(text):
        if found.start() > at:
            parts.append((False, text[at:found.start()]))
        if parts and parts[-1][0]:
            parts[-1] = (True, parts[-1][1] + found.group())
        else:
            parts.append((True, found.group()))
        at = found.end()
    if at < len(text):
        parts.append((False, text[at:]))
    return "".join(_code(part) if code else _plain(part) for code, part in parts)


def _plain(text: str) -> str:
    return _PUNCTUATION.sub(r"\\\1", text.replace("&", "&amp;").replace("<", "&lt;"))


def _status(d: ResolvedDimension, tolerance: float) -> str:
    words = f"{GLYPHS[d.status]} {STATUS_LABELS[d.status]}"
    if d.status == "parity":
        words += f" (±{tolerance * 100:g} %)"
    return " · ".join([words, *status_marks(d)])


def _bar(d: ResolvedDimension) -> str:
    number = bar_text(d)
    return cell(number) if number else cell(brief(title_text(d.record.model.sota.bar), 120))


def table(led: ResolvedLedger, categories: set[str] | None = None, statuses: set[str] | None = None) -> str:
    """The table (a header, a row per dimension in the site's order), and "" when no dimension is chosen."""
    rows = [(c, d) for c in led.categories if categories is None or c.slug in categories
            for d in c.dimensions if statuses is None or d.status in statuses]
    if not rows:
        return ""
    base = str(led.settings.base_url).rstrip("/") + "/" if led.settings.base_url else None
    several = len({c.slug for c, _ in rows}) > 1
    head = (["Category"] if several else []) + ["Dimension", "Status", "Bar", "Ours", "Against the bar"] + \
        (["Details"] if base else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    tolerance = led.settings.parity_tolerance
    for c, d in rows:
        ours = measured_text(d) if d.measured is not None else ""
        cells = ([cell(title_text(c.record.model.title))] if several else []) + [
            cell(title_text(d.record.model.title)), _status(d, tolerance), _bar(d), cell(ours), cell(standing_text(d))]
        if base:  # the whole target percent-encoded: base_url may hold ) [ ! * and the like (the hostile pass)
            target = quote(f"{base}{c.slug}/#{d.id}", safe=":/#%-._~?=&")
            cells.append(f"[{cell(d.id)}](<{target}>)")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
