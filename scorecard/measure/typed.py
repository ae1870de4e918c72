"""Numbers typed in prose, read as the page shows them (pagetext.py), and checked against the numbers a claim
rests on: a number with a unit comparable to a known number's must be one of them at its written precision, or,
after `under`, `over` and their kin, on the right side of the value; one before `faster`, `slower` and their kin
is a difference from the bar. Pure: text in, numbers out.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal, localcontext

from ..core.structs import frozen
from ..core.patterns import lazy
from . import units
from .pagetext import CLOSE, OPEN, readings


@frozen
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
    of_the_bar: bool = False  # … than the bar, … of the bar: the gap to the bar
    start: int = -1  # where it stands in the text read (for the words around it: stance.py)
    end: int = -1
    before: str = ""  # the words before it in its sentence, lower case (whose number it is: the bar's, a run's)
    after: str = ""  # the few characters after it, lower case (the 120 ms bar)
    ranged: bool = False  # one end of a range or list (75–88 ms): an interval's or the runs' ends need no name


@frozen
class Known:
    """A number the claim rests on: its value, unit and what it is ('the value', 'the bar', "input 'ours'")."""

    value: float
    unit: str
    what: str
    needs: str = ""  # whose number it is, which the sentence must say: bar, interval, best-run, worst-run, input:x


@frozen
class Mismatch:
    """A typed number that none of the known numbers gives at its precision, the nearest one and the first known
    number (the value, where the caller lists it first), each in the written unit where it converts to it."""

    written: Written
    nearest: Known
    nearest_in_unit: float
    first_in_unit: float | None
    unnamed: Known | None = None  # a number the evidence gives, but not as ours, typed without saying whose


# --- numbers and their units ---------------------------------------------------------------------

# A number not glued to what comes before it (a letter, a digit, a point, a currency sign: H100, v2.1, $0.40),
# with thousands in groups of three, decimals (a point, or a comma and one or two digits) and an exponent.
_NUMBER = lazy(r"(?<![\w.,#@$€£¥^])((?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+|,\d{1,2}(?![\d,]))?|\.\d+)"
                     r"(?:[eE][-+]?\d{1,4})?)")
_SCALE = {"k": 3, "K": 3, "M": 6}  # 9.9k tok/s
_UNIT = lazy(rf"([kKM](?=[ -][A-Za-zµμ%×{{]))?{CLOSE}?(?: |-(?=[A-Za-zµμ{{]))?"
                   r"([A-Za-zµμ%×{][A-Za-z0-9µμ%×/{}^·]*)")
_PER = lazy(r" per ([A-Za-z]+)")
_ALIASES = {"msec": "ms", "msecs": "ms", "millis": "ms", "usec": "µs", "usecs": "µs", "µsec": "µs", "µsecs": "µs",
            "nsec": "ns", "nsecs": "ns", "secs": "s", "mins": "min", "rps": "req/s", "qps": "req/s",
            "rpm": "req/min", "pct": "%", "X": "x", "fold": "x", "points": "%", "point": "%", "pts": "%",
            "pp": "%"}
# 75–88 ms, 5 to 7 s, 81/95 ms, 95 and 81 ms: the first takes the second's unit (which a placeholder may give)
_JOIN = lazy(rf" ?(?:-|–|—|to|/|and|or) ?{OPEN}?")
_BETWEEN = lazy(r"\bbetween ?$", re.IGNORECASE)  # between 75 and 90 ms: the value inside
_NOT = r"(?:\b(?:no|not|never) )"
_UPPER = lazy(r"(?:\bunder|\bbelow|\bless than|\bat most|\bup to|<|≤|<=|\bsub-) ?$", re.IGNORECASE)
_LOWER = lazy(r"(?:\bover|\babove|\bmore than|\bat least|>|≥|>=) ?$", re.IGNORECASE)
_NEGATED = lazy(_NOT + r"(?:under|below|less than|more than|over|above) ?$", re.IGNORECASE)
_WITHIN = lazy(r"\bwithin ?$", re.IGNORECASE)
# After a number and its unit: a difference (faster, ahead…; or more, lower… than / of the bar)
_RELATIVE = lazy(r" (?:faster|slower|quicker|better|worse|ahead|behind|"
                       r"(?:more|less|fewer|lower|higher|above|below|over|under|short) (?:than|of)\b)", re.IGNORECASE)
_OF_THE_BAR = lazy(r" (?:faster|slower|quicker|better|worse|ahead|behind|more|less|fewer|lower|higher|above|"
                         r"below|over|under|short)(?: than| of)? the bar\b", re.IGNORECASE)


def written_numbers(text: str, values: dict[str, str] | None = None, plain: bool = False,
                    inline: bool = False) -> list[Written]:
    """The numbers typed with a unit in text, as the page shows it (values: what each placeholder shows; the
    numbers they give are theirs, not typed). A range or list's first number takes the unit of its second (75–88
    ms, 81/95 ms, 95 and 81 ms); a number glued to letters (50x5, 3rd) or to a unit that is a number itself
    (H100) is left out, as is the spread after ±."""
    out: list[Written] = []
    if not may_show_a_number(text):
        return out
    seen: set[tuple] = set()
    for scan in readings(text, values, plain, inline)[0]:
        for w in _numbers(scan):
            key = (w.value, w.unit, w.bound, w.relative, w.text)
            if key not in seen:
                seen.add(key)
                out.append(w)
    return out


_DIGIT = lazy(r"\d")


def may_show_a_number(text: str) -> bool:
    """False where text cannot show a number: ASCII with no digit, no entity and no placeholder."""
    return not text.isascii() or "&" in text or "${" in text or _DIGIT.search(text) is not None


def _inside(scan: str, at: int) -> int | None:
    """Where the placeholder's text that position at is in ends (its CLOSE), or None when it is typed text."""
    opened = scan.rfind(OPEN, 0, at)
    if opened < 0 or scan.rfind(CLOSE, 0, at) > opened:
        return None
    end = scan.find(CLOSE, at)
    return end if end >= 0 else None


def _numbers(scan: str) -> list[Written]:
    found = [f for m in _NUMBER.finditer(scan) if (f := _read(scan, m)) is not None]
    out: list[Written] = []
    for i, (m, word, end) in enumerate(found):
        close = _inside(scan, m.start())
        if close is not None and end <= close + 1 and not (end > close and word):
            continue  # a number a placeholder shows, with its own unit: the page's, not typed
        nxt = found[i + 1] if i + 1 < len(found) else None
        shown_as, ends = "", end
        if word == "" and nxt is not None and _JOIN.fullmatch(scan, m.end(), nxt[0].start()):
            word, ends = nxt[1], nxt[2]
            unit = str(word).partition("\0")[2]
            shown_as = m.group(1).replace(",", ".") + ("" if unit in ("x", "×", "%") else " ") + unit
        if not word:
            continue
        before = scan[max(0, m.start() - 2):m.start()]
        sign = "-" if before[-1:] in ("-", "−") and not before[-2:-1].isalnum() else ""
        typed_as = shown_as or scan[m.start() - len(sign):end].replace(OPEN, "").replace(CLOSE, "")
        written = _written(sign + m.group(1), word, typed_as, _bound(scan, m.start()))
        if written is not None:
            before = _before(scan, m.start() - len(sign))
            by = _BY.search(before)
            joined = bool(shown_as) or (i > 0 and _JOIN.fullmatch(scan, found[i - 1][0].end(), m.start()) is not None)
            out.append(replace(written, relative=bool(_RELATIVE.match(scan, ends)) or by is not None,
                               of_the_bar=bool(_OF_THE_BAR.match(scan, ends)) or _names_the_bar(by),
                               start=m.start() - len(sign), end=ends, before=before, ranged=joined,
                               after=scan[ends:ends + 16].lower()))
    return out


def numbers_in(scan: str) -> list[Written]:
    """The numbers typed with a unit in one reading of a text (pagetext.readings), with where each stands."""
    return _numbers(scan) if _DIGIT.search(scan) else []


# "trails the bar by 490 ms", "ahead by 32%", "the gap is 490 ms": a difference from the bar (group 1: it names it)
_BY = lazy(r"(?:\b(?:leads?|leading|ahead|behind|trails?|trailing|lags?|lagging|beats?|beating|outperforms?|"
                 r"faster|slower|better|worse|higher|lower|more|less|short|exceeds?|misses)\b(?P<bar>[^.;!?]{0,40}?"
                 r"\b(?:the bar|sota|state of the art)\b)?[^.;!?]{0,40}? by|\bthe gap (?:to the bar )?(?:is|of)|"
                 r"\bgap to the bar (?:is|of)) ?$", re.IGNORECASE)


def _names_the_bar(by: re.Match | None) -> bool:
    return by is not None and (by.group("bar") is not None or "gap" in by.group().lower())


def _before(scan: str, start: int) -> str:
    """The words before start in its sentence (at most 80 characters), lower case."""
    head = scan[max(0, start - 80):start]
    cut = max(head.rfind(". "), head.rfind("; "), head.rfind("! "), head.rfind("? "))
    return (head[cut + 2:] if cut >= 0 else head).lower()


def _bound(scan: str, start: int) -> str:
    """The side of the value a number states from the words before it: '<=', '>=', '~' (within), '' (equal)."""
    head = scan[max(0, start - 24):start]
    sign = head[-1:] in ("-", "−") and not head[-2:-1].isalnum()
    head = head[:-1] if sign else head
    if _NEGATED.search(head):  # no more than 40 ms: at most
        return "<=" if re.search(r"(?:more than|over|above) ?$", head, re.IGNORECASE) else ">="
    if _BETWEEN.search(head):
        return ">="
    if re.search(rf"\bbetween [\d.,]+ ?(?:and|-|–) ?{OPEN}?$", head, re.IGNORECASE):
        return "<="
    return "<=" if _UPPER.search(head) else ">=" if _LOWER.search(head) else "~" if _WITHIN.search(head) else ""


def _read(scan: str, m: re.Match) -> tuple[re.Match, str | None, int] | None:
    """A number's unit as typed after it ('' for none), and where the unit ends; None for a number that is part
    of something else (a path 2401.09670, H-100, 50x5) or the spread after ±."""
    start = m.start()
    if start and scan[start - 1] == "/" and not (start >= 2 and scan[start - 2].isdigit()):
        return None  # example.org/2401.09670
    if start >= 2 and scan[start - 1] in "-−" and (scan[start - 2].isalpha() or scan[start - 2] == "_") and \
            scan[max(0, start - 4):start].lower() != "sub-":
        return None  # H-100 (but sub-900 ms is a bound)
    if scan[max(0, start - 2):start].strip() == "±":
        return None  # 81.1 ± 1.2 ms: the spread is not a claim of its own
    unit = _UNIT.match(scan, m.end())
    if unit is None or unit.group(2) in ("to", "and", "or"):
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
    word = _ALIASES.get(word, _ALIASES.get(word.lower(), word) if not units.parse(word).known else word)
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
    if re.fullmatch(r"\d+,\d{1,2}", number.split("e")[0].split("E")[0]):
        number = number.replace(",", ".")  # 95,5 ms: a decimal comma
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


def check(text: str, known: list[Known], values: dict[str, str] | None = None,
          names: tuple[str, ...] = (), inline: bool = False) -> list[Mismatch]:
    """Each number typed in text whose unit converts to a known number's that no known number gives at its
    written precision (after under/over: that the value, known[0], is not on the side stated; after within: nor
    the difference from the bar). A number before faster, ahead and their kin is checked against the difference
    from the bar only (and a % or × one only where it says 'the bar': the gap). Numbers in units no known number
    has are left alone. values: what each placeholder shows. A number that is the bar's, an interval end, a run's
    or an input's rather than ours holds only where its sentence says whose it is (names: the bar's other names,
    lower case): 'against the rival's 120 ms', '95% interval 75–88 ms', 'fastest run 78 ms'."""
    out: list[Mismatch] = []
    per_request = bool(known) and units.parse(known[0].unit).dims == (("s", 1),)  # a latency is per request
    for w in written_numbers(text, values, inline=inline):
        unit = units.parse(w.unit)
        bare = _PER_REQUEST.fullmatch(w.unit)
        if bare is not None and per_request:  # 140 ms per request, 140 ms/req: the time of a request
            unit = units.parse(bare.group(1))
        near: tuple[Decimal, Known, float] | None = None
        held, unnamed = False, None
        for k in known:
            converted = convert(k, unit)
            if converted is None or not _about(w, k):
                continue
            holds = _holds(w, Decimal(repr(converted)), k is known[0], k.what == DIFFERENCE)
            if holds and k.needs and not named(w, k.needs, names):
                holds, unnamed = False, unnamed or k
            held = held or holds
            distance = abs(Decimal(repr(converted)) - w.value)
            if near is None or distance < near[0]:
                near = (distance, k, converted)
        if near is not None and not held:  # a bound on ours that fails is a false figure, not the bar's number
            out.append(Mismatch(w, near[1], near[2], convert(known[0], unit), None if w.bound else unnamed))
    return out


_NONWORD = lazy(r"[^\w'%.-]+")
_BAR_NAMES = ("the bar", "bar's", "sota", "state of the art", "state-of-the-art", "rival", "leader", "competitor",
              "baseline", "theirs", "vs", "vs.", "versus", "against", "compared with", "compared to", "relative to",
              "than", "bar of", "bar is", "bar at")
_RUN_WORDS = ("run", "runs", "sample", "samples", "min", "max", "minimum", "maximum", "lowest", "highest", "fastest",
              "slowest", "best", "worst", "range", "ranged", "spread", "from", "between")
_INTERVAL_WORDS = ("interval", "ci", "confidence", "bound", "bounds", "range")


def named(w: Written, needs: str, names: tuple[str, ...]) -> bool:
    """Whether the words before w say whose number it is (needs: what Known.needs names)."""
    before = _NONWORD.sub(" ", w.before)
    words = f" {before} "

    def has(*phrases: str) -> bool:
        return any(f" {p} " in words or f" {p}'s " in words for p in phrases)

    if needs == "bar":  # named just before in its clause (against the rival's 120 ms), or just after (the 120 ms bar)
        clause = re.split(r"[,;]", w.before[-32:])[-1]  # 'the bar takes 1,390 ms, oursys 900 ms': not the bar's
        near = " " + _NONWORD.sub(" ", clause) + " "
        return any(f" {p} " in near or f" {p}'s " in near for p in (*_BAR_NAMES, "bar", *names)) or \
            re.match(r"[^\w]{0,2}(?:bar|sota)\b", w.after) is not None
    if needs == "interval":
        return w.ranged or has(*_INTERVAL_WORDS)
    if needs in ("best-run", "worst-run"):
        wrong = ("worst", "slowest") if needs == "best-run" else ("best", "fastest")
        return (w.ranged or has(*_RUN_WORDS)) and not has(*wrong)
    if needs.startswith("input:"):  # its name or its label (input:sglang|raw sglang)
        return any(has(name.lower()) for name in needs[6:].split("|"))
    if needs.startswith("stat:"):  # p99 2,100 ms, or 2,100 ms p99: the statistic's word beside the number
        word = needs[5:]
        return f" {word} " in " " + _NONWORD.sub(" ", w.before[-16:]) + " " or \
            re.match(rf"\W{{0,3}}(?:at |at the )?{re.escape(word)}\b", w.after) is not None
    return True


_PER_REQUEST = lazy(r"(.+?) ?/ ?(?:req|reqs|request|requests|\{requests?\}|call|calls|query|queries|op|ops|"
                          r"operation|operations|invocation|invocations|iteration|iterations)")
DIFFERENCE = "the difference from the bar"
GAP = "the gap to the bar"


def _about(w: Written, k: Known) -> bool:
    """Whether k is a number w may be saying: a difference or gap only for a relative number (the gap, in % or ×,
    only for one that names the bar), or after within; any other known number only for a number that is not."""
    if k.what == GAP:
        return w.relative and w.of_the_bar
    if k.what == DIFFERENCE:
        return w.relative or w.bound == "~"
    return not w.relative


def _holds(w: Written, x: Decimal, value: bool, difference: bool) -> bool:
    """Whether x is what w says: equal at its precision, or for a bound on the value (or, after within, on the
    difference from the bar) on its side."""
    with localcontext() as ctx:
        ctx.prec = 60
        slack = w.half * Decimal("1.000000001") + abs(w.value) * Decimal("1e-12")
        on_it = difference if w.relative else value  # what a bound is about: the difference, or the value
        exact = abs(w.value) * Decimal("1e-12")  # a bound is what it says: 1.39 s is not 'under 1 s', rounded
        if w.bound == ">=" and on_it:
            return x >= w.value - exact
        if (w.bound == "<=" and on_it) or (w.bound == "~" and (value or difference)):
            return x <= w.value + exact
        return abs(x - w.value) <= slack
