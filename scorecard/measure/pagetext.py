"""Prose as a reader sees it on the page, for the check of the numbers typed there (typed.py).

Placeholders are filled with what they show, between marks (so that the numbers they give are known as theirs),
or blanked; Markdown is reduced to its text (emphasis marks, links and references, escapes, entities, autolinks;
code spans shown as their text, indented code blocks blanked; a pipe table's bare numbers given their column's
unit); Unicode is folded (NFKC: fullwidth digits, thin and no-break spaces), invisible characters (format,
combining and private-use ones) dropped and white space read as one space. Pure: text in, text out.

Lazy import: html, for a character reference (&amp;, &#8202;) only: its table of entities costs every hook run 1.7 ms.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata

from ..core.patterns import lazy
from . import prose

OPEN, CLOSE, FILLED, QUOTED = "\ue000", "\ue001", "\ue002", "\ue003"  # a filled placeholder's ends; a blank one
PRIVATE = lazy("[\ue000-\ue01f]")  # what a ledger's text may not hold: the marks here and the page's
_MARKS = OPEN + CLOSE + FILLED + QUOTED


def readings(text: str, values: dict[str, str] | None = None, plain: bool = False,
             inline: bool = False) -> tuple[list[str], bool]:
    """See _readings (the check asks twice for a text with placeholders: whether one is glued, and its numbers).
    inline: a claim, rendered as one line of Markdown, where an indented line is text, not a code block."""
    texts, glued = _readings(text, tuple(sorted((values or {}).items())), plain, inline)
    return list(texts), glued


@functools.lru_cache(maxsize=256)
def _readings(text: str, values_items: tuple[tuple[str, str], ...], plain: bool,
              inline: bool = False) -> tuple[tuple[str, ...], bool]:
    """text as shown, in both readings of an emphasis or link mark (a *, _, [ or ] is a mark and shows nothing, or
    is unmatched and shows as itself, which parts the digits around it: a number the page shows is in one of
    them); and whether a number is typed against a placeholder (9${n}, ${n}.5, -${value}: one number on the page
    that no placeholder gave). A placeholder with a value shows it between OPEN and CLOSE; one without, FILLED;
    a quoted number, QUOTED. With plain, text is a page's text already: only folded."""
    if plain:
        return (normalise(text),), False
    values = dict(values_items)
    pieces, _ = prose.split(PRIVATE.sub("", text)) if "${" in text else ([prose.Piece(text)], [])
    marked = "".join(p.text if p.name is None else QUOTED if p.name in prose.MARKED else
                     OPEN + values[p.name] + CLOSE if p.name in values else FILLED for p in pieces)
    out, glued = [], False
    for emphasis in _mark_readings(marked):
        shown = normalise(_inline_text(marked, emphasis) if inline else _markdown_text(marked, emphasis))
        glued = glued or _GLUED.search(shown) is not None
        out.append(shown.replace(FILLED, " ").replace(QUOTED, " "))
    return tuple(out), glued


# A digit, a point or a sign just before a placeholder, or a digit (or a point or comma and a digit) just after.
_GLUED = lazy(rf"(?:\d|[.]|\d,|(?<![\w])[-−])[{OPEN}{FILLED}{QUOTED}]|[{CLOSE}{FILLED}{QUOTED}](?:\d|[.,]\d)")
_GROUPED = lazy(r"(?<=\d)[\u00a0\u202f\u2009'’](?=\d{3}(?!\d))")  # 1 840, 1'840: thousands
_SPACE = lazy(r"\s+")
_INVISIBLE = frozenset(("Cf", "Mn", "Me", "Co"))


def normalise(text: str) -> str:
    """text folded as a reader reads it: NFKC, µ as the micro sign, no invisible character, one space."""
    text = _GROUPED.sub("", text)
    if not text.isascii():  # ASCII is its own NFKC, and holds no invisible character but white space
        text = unicodedata.normalize("NFKC", text).replace("μ", "µ")  # NFKC makes µ Greek
        text = "".join(c for c in text if c in _MARKS or unicodedata.category(c) not in _INVISIBLE)
    return _SPACE.sub(" ", text)


_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = lazy(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_AUTOLINK = lazy(r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*"
                       r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9.\-]+)>")
_TICKS = lazy(r"`+")
# A link's destination and title after its text, or a reference's label: [95](url "t") ms, [95][r] ms.
_LINK_TAIL = lazy(r"\]\(\s*(?:<[^<>\n]*>|(?:[^()\s]|\((?:[^()\s]|\([^()\s]*\))*\))*)"
                        r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)|\]\[[^\[\]]{0,999}\]")
_DEFINITION = lazy(r"^[ \t]{0,3}\[[^\[\]]{1,999}\]:[ \t]*(?:<[^<>\n]*>|[^\s<>]+)"  # [r]: https://… shows nothing
                         r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*(?:\n|$)")


def _markdown_text(text: str, emphasis: str) -> str:
    """The text Markdown shows of text, block by block (a code span never crosses a blank line or a new block),
    with each emphasis mark as emphasis; an indented code block blanked."""
    blocks = re.split(r"\n[ \t]*\n|\n(?=" + _BLOCK_START + ")", text)
    out, in_list = [], False
    for par in blocks:
        while (d := _DEFINITION.match(par)) is not None:  # definitions open a block; they cannot interrupt one
            par = par[d.end():].lstrip("\n")
        in_list = in_list or _LIST_ITEM.match(par) is not None  # indented under a list item: its paragraph
        table = _table(par) if "|" in par else None
        if table is not None:
            par = table
        out.append(" " if _INDENTED.fullmatch(par) and not in_list else _inline_text(_BLOCK_MARK.sub(" ", par),
                                                                                      emphasis))
    return " ".join(out)


# What starts a block and shows nothing: a quote's >, a heading's #, a list item's marker.
_BLOCK_START = r"[ \t]{0,3}(?:>|#{1,6}(?:[ \t]|$)|(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|`{3,}|~{3,})"  # … or a fence
_BLOCK_MARK = lazy(r"^[ \t]{0,3}(?:(?:>[ \t]?)+|#{1,6}(?=[ \t]|$)|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))",
                         re.MULTILINE)
_LIST_ITEM = lazy(r"\n?[ \t]{0,3}(?:>[ \t]?)*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_INDENTED = lazy(r"\n?(?:(?: {4}|\t)[^\n]*\n?)+")  # every line indented: an indented code block


_EMPHASIS = lazy(r"[*_\[\]]")
_BRACKETS, _STARS = lazy(r"[\[\]]"), lazy(r"[*_]")


def _mark_readings(text: str) -> tuple[str, ...]:
    """How the marks of text may show: each as nothing, or each as a space; and where it has both kinds, brackets
    as themselves (a [ no link closes shows) while the emphasis marks show nothing, since the two kinds are matched
    apart ([95]95-**ms** shows [95]95-ms). One reading where no mark can differ."""
    if not _EMPHASIS.search(text):
        return ("",)
    return ("", " ", "[") if _BRACKETS.search(text) and _STARS.search(text) else ("", " ")
_INLINE_MARKS = lazy(r"[\\`<&\]*_\[]")


def _inline_text(par: str, emphasis: str) -> str:
    if not _INLINE_MARKS.search(par):
        return par  # plain text: nothing to read differently
    out: list[str] = []
    i, size, opened = 0, len(par), 0  # opened: the [ not yet closed, that a link's ](…) or ][…] may close
    closers = _backtick_runs(par)
    while i < size:
        c = par[i]
        if c == "\\" and i + 1 < size and (par[i + 1] in _ESCAPABLE or par[i + 1] == "\n"):
            out.append(par[i + 1])  # an escaped mark, or a hard line break
            i += 2
        elif c == "`":
            run = len(_TICKS.match(par, i).group())  # type: ignore[union-attr]  # c is a backtick
            end = _closing(closers, run, i + run)
            if end is None:
                out.append("`" * run)
                i += run
            else:  # a code span shows its text as typed: read like any other (issue 42)
                out.append(" " + _code_text(par[i + run:end]) + " ")
                i = end + run
        elif c == "<" and (m := _AUTOLINK.match(par, i)):
            out.append(m.group()[1:-1])  # an autolink shows its address (and is no code span's end)
            i = m.end()
        elif c == "&" and (m := _ENTITY.match(par, i)):
            out.append(_unescape(m.group()))
            i = m.end()
        elif c == "]" and opened and (m := _LINK_TAIL.match(par, i)):
            out.append("" if emphasis == "[" else emphasis)  # [text](url) and [text][label] show their text
            opened -= 1
            i = m.end()
        elif c in "*[]" or (c == "_" and not (_word(par, i - 1) and _word(par, i + 1))):
            shows = (c if c in "[]" else "") if emphasis == "[" else emphasis
            out.append(c if c == "]" and not opened else shows)  # a ] with no [ to close shows: 95]95 ms is 95 ms
            opened += 1 if c == "[" else -1 if c == "]" and opened else 0
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _code_text(inner: str) -> str:
    """A code span's text as CommonMark shows it: line endings as spaces, one space stripped from each end of text
    that has a non-space."""
    inner = inner.replace("\n", " ")
    if inner.startswith(" ") and inner.endswith(" ") and inner.strip():
        inner = inner[1:-1]
    return inner


def _table(par: str) -> str | None:
    """A pipe table's text with each bare number in a body cell given its column's unit, as a reader reads it (a
    header 'TTFT (ms)' or 'ms'): None where par is not a table."""
    rows = [r for r in par.split("\n") if r.strip()]
    if len(rows) < 2 or not _DELIMITER.fullmatch(rows[1].strip()) or "|" not in rows[0]:
        return None
    header = _cells(rows[0])
    units = [(_HEADER_UNIT.search(h) or _BARE_UNIT.fullmatch(h.strip()) or _LAST_UNIT.search(h)) for h in header]
    out = [" , ".join(header)]
    for row in rows[2:]:
        cells = _cells(row)
        out.append(" , ".join(_cell(c, units[k] if k < len(units) else None) for k, c in enumerate(cells)))
    return " ; ".join(out) + " ;"


def _cell(cell: str, unit: re.Match | None) -> str:
    return f"{cell} {unit.group(1)}" if unit is not None and _BARE_NUMBER.fullmatch(cell.strip()) else cell


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)]


_DELIMITER = lazy(r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?")
_HEADER_UNIT = lazy(r"[(\[]\s*([^()\[\]\s][^()\[\]]{0,15}?)\s*[)\]]\s*$")  # TTFT (ms), rate [req/s]
_BARE_UNIT = lazy(r"(ms|s|µs|us|ns|min|h|%|x|×|req/s|tok/s|tokens/s|GB/s|MB/s|MB|GB|KiB|MiB|GiB|W|J|Wh)")
_LAST_UNIT = lazy(r"(?:,|\bin)\s+(ms|s|µs|us|ns|min|h|%|x|req/s|tok/s|tokens/s|GB/s|MB/s|MB|GB|W|J|Wh)\s*$")
_BARE_NUMBER = lazy(r"[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def _word(text: str, i: int) -> bool:
    return 0 <= i < len(text) and text[i].isalnum()


def _backtick_runs(par: str) -> dict[int, list[int]]:
    """Where each run of backticks starts, by its length (for finding a code span's closing run in one pass)."""
    runs: dict[int, list[int]] = {}
    for m in re.finditer(r"(?<!`)`+", par):
        runs.setdefault(len(m.group()), []).append(m.start())
    return runs


def _closing(runs: dict[int, list[int]], length: int, start: int) -> int | None:
    starts = runs.get(length, [])
    at = bisect.bisect_left(starts, start)
    return starts[at] if at < len(starts) else None


def _unescape(reference: str) -> str:
    """The character an HTML character reference names (html.unescape, imported when first asked)."""
    import html

    return html.unescape(reference)
