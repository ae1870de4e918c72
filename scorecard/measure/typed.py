"""Numbers typed in prose, read as the page shows them, and checked against the numbers a claim rests on.

The text is read the way a reader sees it: placeholders filled or blanked, Markdown reduced to its text (emphasis
marks, links, escapes, entities and autolinks; code spans blanked, as the check leaves code alone), Unicode
folded (NFKC: fullwidth digits, thin and no-break spaces), invisible characters dropped and white space read as
one space. A number with a unit comparable to a known number's must be one of them at its written precision
(or, after `under`, `over` and their kin, on the right side of the value). Pure: text in, numbers out.
"""

from __future__ import annotations

import bisect
import html
import re
import unicodedata
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext

from . import prose, units

_N, _N_END, _FILLED, _QUOTED = "\ue000", "\ue001", "\ue002", "\ue003"
_PRIVATE = re.compile("[\ue000-\ue00f]")
_MARKS = _N + _FILLED + _QUOTED


@dataclass(frozen=True, slots=True)
class Written:
    """A number typed with a unit: as written, its value, half the step of its last written digit, its unit, and
    the side it states the value is on ('' for equal, '<=' after under/below, '>=' after over/above, '~' after
    within: the value or its difference from the bar at most)."""

    text: str  # the number and its unit as read: '81 ms', '1,840 tok/s'
    value: Decimal
    half: Decimal
    unit: str
    bound: str = ""
    relative: bool = False  # followed by faster, slower, ahead, more…: a difference, not the value itself


@dataclass(frozen=True, slots=True)
class Known:
    """A number the claim rests on: its value, unit and what it is ('the value', 'the bar', "input 'ours'")."""

    value: float
    unit: str
    what: str


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A typed number that none of the known numbers gives at its precision, the nearest one and the first known
    number (the value, where the caller lists it first), each in the written unit where it converts to it."""

    written: Written
    nearest: Known
    nearest_in_unit: float
    first_in_unit: float | None


# --- the text as shown ---------------------------------------------------------------------------

def shown(text: str, n: int | None = None, plain: bool = False) -> tuple[str, bool]:
    """text as a reader sees it, for the check (placeholders blanked, ${n} as n, Markdown as its text, Unicode
    folded), and whether a number is typed against a placeholder (9${n}, ${n}.5, -${value}: one number on the
    page that no placeholder gave). With plain, text is a page's text already: only folded."""
    texts, glued = readings(text, n, plain)
    return texts[0], glued


def readings(text: str, n: int | None = None, plain: bool = False) -> tuple[list[str], bool]:
    """shown's text in both readings of an emphasis or link mark (a *, _ or [ is a mark and shows nothing, or is
    unmatched and shows as itself, which parts the digits around it): a number the page shows is in one of them."""
    if plain:
        return [_normalise(text)], False
    pieces, _ = prose.split(_PRIVATE.sub("", text))
    marked = "".join(p.text if p.name is None else _QUOTED if p.name == prose.QUOTE else
                     _N + str(n) + _N_END if p.name == "n" and n is not None else _FILLED for p in pieces)
    out, glued = [], False
    for emphasis in ("", " "):
        plain_text = _normalise(_markdown_text(marked, emphasis))
        glued = glued or _GLUED.search(plain_text) is not None
        out.append(plain_text.replace(_N, "").replace(_N_END, "").replace(_FILLED, " ").replace(_QUOTED, " "))
    return out, glued


_GLUED = re.compile(rf"(?:\d|[.]|\d,|(?<![\w])[-−])[{_MARKS}]|[{_N_END}{_FILLED}{_QUOTED}](?:\d|[.,]\d)")
_GROUPED = re.compile(r"(?<=\d)[\u00a0\u202f\u2009'’](?=\d{3}(?!\d))")  # 1 840, 1'840: thousands
_SPACE = re.compile(r"\s+")


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", _GROUPED.sub("", text)).replace("μ", "µ")  # NFKC makes µ Greek
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return _SPACE.sub(" ", text)


_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_AUTOLINK = re.compile(r"<(?:[A-Za-z][A-Za-z0-9+.\-]{1,31}:[^\s<>]*"
                       r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\-]+@[A-Za-z0-9.\-]+)>")
_TICKS = re.compile(r"`+")
_LINK_TAIL = re.compile(r"\]\([^()\s]*(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")


def _markdown_text(text: str, emphasis: str) -> str:
    """The text Markdown shows of text, paragraph by paragraph (a code span never crosses a blank line), with each
    emphasis mark as emphasis."""
    blocks = re.split(r"\n[ \t]*\n|\n(?=" + _BLOCK_START + ")", text)  # a code span ends with its block
    return " ".join(_inline_text(_BLOCK_MARK.sub(" ", par), emphasis) for par in blocks)


# What starts a block and shows nothing: a quote's >, a heading's #, a list item's marker.
_BLOCK_START = r"[ \t]{0,3}(?:>|#{1,6}(?:[ \t]|$)|(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$))"
_BLOCK_MARK = re.compile(r"^[ \t]{0,3}(?:(?:>[ \t]?)+|#{1,6}(?=[ \t]|$)|(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$))",
                         re.MULTILINE)


def _inline_text(par: str, emphasis: str) -> str:
    out: list[str] = []
    i, size = 0, len(par)
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
            else:
                out.append(" ")  # a code span: left alone
                i = end + run
        elif c == "<" and (m := _AUTOLINK.match(par, i)):
            out.append(m.group()[1:-1])  # an autolink shows its address (and is no code span's end)
            i = m.end()
        elif c == "&" and (m := _ENTITY.match(par, i)):
            out.append(html.unescape(m.group()))
            i = m.end()
        elif c == "]" and (m := _LINK_TAIL.match(par, i)):
            out.append(emphasis)  # [text](url) shows its text
            i = m.end()
        elif c in "*[" or (c == "_" and not (_word(par, i - 1) and _word(par, i + 1))):
            out.append(emphasis)
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


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


# --- numbers and their units ---------------------------------------------------------------------

# A number not glued to what comes before it (a letter, a digit, a point, a currency sign: H100, v2.1, $0.40),
# with thousands in groups of three, decimals (or a leading point) and an exponent.
_NUMBER = re.compile(r"(?<![\w.,#@$€£¥^])((?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d{1,4})?)")
_SCALE = {"k": 3, "K": 3, "M": 6}  # 9.9k tok/s
_UNIT = re.compile(r"([kKM](?=[ -][A-Za-zµμ%×{]))?(?: |-(?=[A-Za-zµμ{]))?([A-Za-zµμ%×{][A-Za-z0-9µμ%×/{}^·]*)")
_PER = re.compile(r" per ([A-Za-z]+)")
_ALIASES = {"msec": "ms", "usec": "µs", "µsec": "µs", "nsec": "ns", "secs": "s", "rps": "req/s", "qps": "req/s",
            "pct": "%", "X": "x", "fold": "x"}
_JOIN = re.compile(r" ?(?:-|–|—|to|/) ?")  # 75–88 ms, 5 to 7 s, 81/95 ms: the first takes the second's unit
_SPREAD = re.compile(r" ?± ?")  # 81.1 ± 1.2 ms: the spread is not a claim of its own
_UPPER = re.compile(r"(?:\bunder|\bbelow|\bless than|\bat most|\bup to|<|≤|<=) ?$", re.IGNORECASE)
_RELATIVE = re.compile(r" (?:faster|slower|quicker|better|worse|ahead|behind|more|less|fewer|lower|higher|above|below|"
                       r"over|under|short|beyond|off)\b", re.IGNORECASE)
_WITHIN = re.compile(r"\bwithin ?$", re.IGNORECASE)
_LOWER = re.compile(r"(?:\bover|\babove|\bmore than|\bat least|>|≥|>=) ?$", re.IGNORECASE)


def written_numbers(text: str, n: int | None = None, plain: bool = False) -> list[Written]:
    """The numbers typed with a unit in text, as the page shows it. A range or list's first number takes the unit of
    its second (75–88 ms, 81/95 ms); a number glued to letters (50x5, 3rd) or to a unit that is a number itself
    (H100) is left out, as is the spread after ±."""
    out: list[Written] = []
    for scan in readings(text, n, plain)[0]:
        out += [w for w in _numbers(scan) if w not in out]
    return out


def _numbers(scan: str) -> list[Written]:
    found = [f for m in _NUMBER.finditer(scan) if (f := _read(scan, m)) is not None]
    out: list[Written] = []
    skip = -1
    for i, (m, word, end) in enumerate(found):
        if i == skip:
            continue
        nxt = found[i + 1] if i + 1 < len(found) else None
        between = scan[m.end():nxt[0].start()] if nxt is not None else ""
        shown_as = ""
        if word == "" and nxt is not None and (_JOIN.fullmatch(between) or _SPREAD.fullmatch(between)):
            word = nxt[1]
            unit = str(word).partition("\0")[2]
            shown_as = m.group(1) + ("" if unit in ("x", "×", "%") else " ") + unit
            skip = i + 1 if _SPREAD.fullmatch(between) else skip
        if not word:
            continue
        before = scan[max(0, m.start() - 12):m.start()]
        sign = "-" if before[-1:] in ("-", "−") and not before[-2:-1].isalnum() else ""
        head = before[:-1] if sign else before
        bound = "<=" if _UPPER.search(head) else ">=" if _LOWER.search(head) else "~" if _WITHIN.search(head) else ""
        written = _written(sign + m.group(1), word, shown_as or scan[m.start() - len(sign):end], bound)
        if written is not None:
            out.append(replace(written, relative=bool(_RELATIVE.match(scan, found[i + 1][2] if shown_as else end))))
    return out


def _read(scan: str, m: re.Match) -> tuple[re.Match, str | None, int] | None:
    """A number's unit as typed after it ('' for none), and where the unit ends; None for a number that is part
    of something else (a path 2401.09670, H-100, 50x5)."""
    start = m.start()
    if start and scan[start - 1] == "/" and not (start >= 2 and scan[start - 2].isdigit()):
        return None  # example.org/2401.09670
    if start >= 2 and scan[start - 1] in "-−" and (scan[start - 2].isalpha() or scan[start - 2] == "_"):
        return None  # H-100
    unit = _UNIT.match(scan, m.end())
    if unit is None or unit.group(2) == "to":
        glued = m.end() < len(scan) and (scan[m.end()].isalnum() or scan[m.end()] == "_")
        return (m, None if glued else "", m.end())
    word, end = unit.group(2), unit.end()
    per = _PER.match(scan, end)
    if word.lower() == "per" and scan[end:end + 5] == " cent":
        word, end = "%", end + 5
    elif per is not None and _known(per.group(1)) and "/" not in word:
        word, end = f"{word}/{per.group(1)}", per.end()
    word = (unit.group(1) or "") + "\0" + _spelled(word)  # the scale travels with the unit to _written
    return (m, word, end)


def _spelled(word: str) -> str:
    """A unit word as the units module reads it: aliases (msec, rps, pct, X, fold) and, for a word it does not
    know, its lower case (MS is ms)."""
    word = _ALIASES.get(word, word)
    if not units.parse(word).known and units.parse(word.lower()).known:
        return word.lower()
    return word


def _known(word: str) -> bool:
    return units.parse(word).known and units.parse(word).problem is None


def _written(number: str, word: str, text: str, bound: str) -> Written | None:
    scale, _, unit = word.partition("\0") if "\0" in word else ("", "", word)
    parsed = units.parse(unit)
    if parsed.problem is not None:
        return None  # x5, H100: a number, not a unit
    digits = number.lstrip("-").replace(",", "")
    mantissa, _, exp = digits.lower().partition("e")
    whole, _, frac = mantissa.partition(".")
    step = -len(frac)
    if not frac and not exp:  # an integer's trailing zeros may be rounding, down to two significant figures
        significant = whole.lstrip("0") or "0"
        zeros = len(significant) - len(significant.rstrip("0")) if significant != "0" else 0
        step = min(zeros, max(len(significant) - 2, 0))
    shift = int(exp or 0) + _SCALE.get(scale, 0)
    with localcontext() as ctx:
        ctx.prec = 60
        value = Decimal(number.replace(",", "").lower().partition("e")[0]).scaleb(shift)
        return Written(text, value, Decimal(5).scaleb(step + shift - 1), unit, bound)


# --- the check -------------------------------------------------------------------------------------

def _family(unit: units.Unit) -> str | None:
    """A dimensionless unit's kind: '%' (shares) or 'x' (multiples), which are checked only against their own."""
    if unit.dims:
        return None
    return "%" if unit.factor == 0.01 else "x"


def convert(known: Known, to: units.Unit) -> float | None:
    """known's value in the unit to, or None where it does not convert (or is not of its family: % and x)."""
    mine = units.parse(known.unit)
    if mine.problem is not None or not mine.comparable(to) or _family(mine) != _family(to):
        return None
    return mine.to(known.value, to)


def check(text: str, known: list[Known], n: int | None = None) -> list[Mismatch]:
    """Each number typed in text whose unit converts to a known number's that no known number gives at its
    written precision (after under/over: that the value, known[0], is not on the side stated, and after within:
    nor the difference from the bar); numbers in units no known number has are left alone."""
    out: list[Mismatch] = []
    for w in written_numbers(text, n):
        unit = units.parse(w.unit)
        near: tuple[Decimal, Known, float] | None = None
        held = False
        for k in known:
            converted = convert(k, unit)
            if converted is None or (w.relative and k.what != DIFFERENCE):
                continue  # '50 ms faster' is a difference: only the difference from the bar can give it
            held = held or _holds(w, Decimal(repr(converted)), k is known[0], k.what == DIFFERENCE)
            distance = abs(Decimal(repr(converted)) - w.value)
            if near is None or distance < near[0]:
                near = (distance, k, converted)
        if near is not None and not held:
            out.append(Mismatch(w, near[1], near[2], convert(known[0], unit)))
    return out


DIFFERENCE = "the difference from the bar"


def _holds(w: Written, x: Decimal, value: bool, difference: bool) -> bool:
    """Whether x is what w says: equal at its precision, or for a bound on the value (or, after within, on the
    difference from the bar) on its side."""
    with localcontext() as ctx:
        ctx.prec = 60
        slack = w.half * Decimal("1.000000001") + abs(w.value) * Decimal("1e-12")
        if abs(x - w.value) <= slack:
            return True
        on_it = difference if w.relative else value  # what a bound is about: the difference, or the value
        if w.bound == ">=" and on_it:
            return x >= w.value - slack
        if (w.bound == "<=" and on_it) or (w.bound == "~" and (value or difference)):
            return x <= w.value + slack
    return False
