"""What prose says of where we stand against the bar, read sentence by sentence (issue 42), and whether it agrees
with the verdict: the direction of each comparison, the status its words give, and the size of a gap said in
words. The numbers themselves are typed.py's; this module reads the words around them. Pure: text in, findings out.

A sentence is read when its object is the bar: "the bar", SOTA, "state of the art", a rival or a leader the record
names. A comparative (faster/slower, ahead/behind, beats/trails, higher/lower than, ...) says ahead or behind; a
level word (level with, on par, matches) says level; a negation flips it to a bound ("no slower than": level or
ahead). Where the bar is the subject ("the bar is 35% faster than oursys") the direction reverses. A sentence that
places itself in an earlier time (until, before, a version, a year) is history, and left alone. docs/format.md
("Words in claims") lists the grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from . import typed, units

AHEAD, LEVEL, BEHIND = 1, 0, -1

_W = r"(?<![\w-])"  # a word's start
_AHEAD = (r"faster|quicker|better|ahead|leads?|leading|beats?|beating|outperform(?:s|ing)?|surpass(?:es|ing)?|"
          r"outpac(?:es|e|ing)|exceed(?:s|ing)?|outstrip(?:s|ping)?|tops|wins?|winning|edges? out|"
          r"outran|outruns?|outscores?|dominates?|crushes|overtakes?|superior to|eclipses?|bests|outclass(?:es)?|"
          r"outdoes|trounces?|speedier|snappier|improves? (?:on|upon)|an improvement (?:on|over)|wins? against|"
          r"ahead|a win over|a lead over|the lead over|leads over")
_BEHIND = (r"slower|worse|behind|trail(?:s|ing)?|lag(?:s|ging)?(?: behind)?|falls? short(?: of)?|fell short(?: of)?|"
           r"short of|underperform(?:s|ing)?|los(?:es|ing|e) to|lost to|misses|missing|off the pace of|inferior to|"
           r"a regression (?:from|against)|regress(?:es|ed)? (?:from|against)|trails?|a deficit (?:to|against)|"
           r"catching up (?:to|with)|catches up (?:to|with)|yet to (?:match|reach|catch)|not (?:yet )?at")
_LEVEL = (r"level with|on par(?: with)?|at par(?: with)?|par with|at parity|parity with|parity|matches|matching|"
          r"match(?:ed)?|equals|equal to|the same as|comparable (?:to|with)|in line with|neck and neck with|tied with|"
          r"ties|as (?:fast|quick|good|low|high|efficient) as|level")
_HIGH, _LOW = r"higher|more|greater|larger|bigger|above|over", r"lower|less|fewer|smaller|below|under"
_UNPLACED = (r"not yet placed|cannot yet tell|can't yet tell|can not yet tell|too early to tell|inconclusive|"
             r"cannot (?:yet )?place(?: it)?|can't (?:yet )?place(?: it)?|"
             r"undecided|not yet known|unplaced|too few runs|too noisy to (?:tell|place)")
_WORD = re.compile(rf"{_W}(?P<unplaced>{_UNPLACED})\b|{_W}(?P<level>{_LEVEL})\b|{_W}(?P<ahead>{_AHEAD})\b|"
                   rf"{_W}(?P<behind>{_BEHIND})\b|{_W}(?P<high>{_HIGH})\b|{_W}(?P<low>{_LOW})\b", re.IGNORECASE)
_TRANSITIVE = re.compile(r"leads?|beats?|beating|outperform|surpass|outpac|exceed|outstrip|tops|overtake|"
                         r"trail|lags?|underperform|match|equals|ties|outran|outrun|outscore|dominate|crushes|misses|"
                         r"eclipse|bests|outclass|outdoes|trounce",
                         re.IGNORECASE)
# A negation in the three words before a comparison ("no slower than"); "not only faster" negates nothing.
_NEG = re.compile(r"(?:\b(?:no|not|never|nor|without|hardly|barely)|n't)(?! (?:only|just|merely|simply|also)\b)"
                  r"(?: \w+)?(?: \w+)? ?$", re.IGNORECASE)
_DEGREE = re.compile(r"\b(?:nearly|almost|roughly|approximately|about|close to|just about|essentially|virtually|"
                     r"practically|near|more or less)\b", re.IGNORECASE)
_CERTAIN = re.compile(r"\b(?:arguably|effectively|appears? to|appeared to|seems? to|seemed to|likely|probably|"
                      r"apparently|possibly|presumably|may|might|could|would)\b", re.IGNORECASE)
_POINT = re.compile(r"\bpoint estimate\b|\bby the point\b", re.IGNORECASE)
_NOISE = re.compile(r"\bwithin (?:the )?(?:noise|(?:parity )?tolerance|±|\+/-)|\bwithin (?:the )?(?:run-to-run )?"
                    r"noise\b", re.IGNORECASE)
# A sentence placed in an earlier time: history, left alone (trailed until v2.1; led the bar in 2024): a past tense
# and a time it names. "54% faster than the bar until v3 ships" names a time but says the present: read.
_EARLIER = re.compile(r"\b(?:until|before|in|as of|since|prior to|at|by|through)\s+(?:v\d+(?:\.\d+)*\b|version \d|"
                      r"release \d|(?:19|20)\d\d\b|(?:the )?(?:last|previous|prior|earlier|old|first) (?:release|"
                      r"version|build|year|quarter))|\b(?:previously|formerly|used to|at the time|back then)\b",
                      re.IGNORECASE)
_PAST = re.compile(r"\b(?:was|were|had|did|led|beat|fell|lost|ran|outran|\w{3,}ed)\b", re.IGNORECASE)
_DIRECTION_PHRASE = re.compile(r"\b(?:higher|lower|more|less)(?: is|=) better\b|\bbetter: ?(?:higher|lower)\b|"
                               r"\b(?:lower|higher)-is-better\b", re.IGNORECASE)
_BARS = ("the bar", "sota", "state of the art", "state-of-the-art", "the rival", "rival's", "rivals", "the leader",
         "the competitor", "the baseline", "the record")
_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=\S)|\s+¶\s+")


@dataclass(frozen=True, slots=True)
class Said:
    """One thing prose says of the standing that the evidence does not give: the rule (direction, status), the
    words as written, what is wrong, and the honest form."""

    rule: str  # "direction" (SC517) or "status" (SC518)
    words: str
    message: str
    hint: str


@dataclass(frozen=True, slots=True)
class Standing:
    """What the evidence gives, for the check: the status, the point's margin (None without a comparison), the
    tolerance, the direction, the gap candidates by unit family, and the bar's other names."""

    status: str
    margin: float | None
    tolerance: float
    better: str | None
    bars: tuple[str, ...] = ()  # leaders and rivals the record names, lowercase
    gaps: tuple[tuple[str, float], ...] = ()  # (family: '%', 'x' or a unit, the true gap in it)


@dataclass(frozen=True, slots=True)
class Claimed:
    """A comparison the prose makes: its stance (AHEAD, LEVEL, BEHIND), whether negated, where, and its words."""

    stance: int
    negated: bool
    start: int
    end: int
    words: str
    implicit: bool = False  # it names nothing it is compared with: in a scorecard, the bar
    elsewhere: bool = False  # it is made against something else than the bar (4.1x faster than naive)


def may_say(text: str) -> bool:
    """Whether text holds a word of standing at all (else the check has nothing to read)."""
    return _WORD.search(text) is not None


def sentences(scan: str) -> list[tuple[int, str]]:
    """The sentences of a page's text, each with where it starts."""
    out, at = [], 0
    for m in _SENTENCE.finditer(scan):
        out.append((at, scan[at:m.start()]))
        at = m.end()
    out.append((at, scan[at:]))
    return [(i, s) for i, s in out if s.strip()]


def about_the_bar(sentence: str, bars: tuple[str, ...]) -> bool:
    low = sentence.lower()
    return any(_has(low, b) for b in _BARS + bars)


def _has(low: str, name: str) -> bool:
    return bool(name) and re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", low) is not None


def history(sentence: str) -> bool:
    """Whether the sentence places itself in an earlier time (then it is left alone)."""
    return _EARLIER.search(sentence) is not None and _PAST.search(sentence) is not None


def claims(sentence: str, standing: Standing) -> list[Claimed]:
    """The comparisons the sentence makes of ours against the bar, in order."""
    text = _DIRECTION_PHRASE.sub(lambda m: " " * len(m.group()), sentence)
    out = []
    for m in _WORD.finditer(text):
        kind = m.lastgroup or ""
        if kind == "unplaced":
            out.append(Claimed(2, False, m.start(), m.end(), m.group(), True))
            continue
        if kind in ("high", "low"):
            if not _compares(text, m.end()) or standing.better is None:
                continue  # a bound (under 100 ms) or a word of quantity: typed.py reads the number
            stance = AHEAD if (kind == "high") == (standing.better == "higher") else BEHIND
        else:
            stance = {"ahead": AHEAD, "behind": BEHIND, "level": LEVEL}[kind]
        subject = _reversed(text, m, standing.bars)  # the bar is the subject
        stance = -stance if subject else stance
        negated = _NEG.search(text[max(0, m.start() - 24):m.start()]) is not None
        obj = _object(text, m)
        elsewhere = obj is not None and not subject and not _names_bar(obj[:40].lower(), standing.bars)
        out.append(Claimed(stance, negated, m.start(), m.end(), m.group(), _implicit(text, m, kind), elsewhere))
    return out


_VERDICT_WORD = re.compile(r"ahead|behind|leads?|leading|trail|trails|trailing|beats?|lags?|lagging",
                           re.IGNORECASE)
_NUMBER_BEFORE = re.compile(r"\d(?:[.,]\d+)?\s?(?:%|×|x|[a-zµ/]{1,8})?\s?$", re.IGNORECASE)


def _implicit(text: str, m: re.Match, kind: str) -> bool:
    """A comparison naming nothing it is made against, said as a verdict (leads, ahead, behind) or with its gap
    (54% faster): in a scorecard's claim, against the bar. 'a faster start-up' is not read."""
    if kind not in ("ahead", "behind") or _object(text, m) is not None:
        return False
    return _VERDICT_WORD.fullmatch(m.group()) is not None or _NUMBER_BEFORE.search(text[:m.start()]) is not None


def _compares(text: str, end: int) -> bool:
    """Whether higher/lower/over/under at end compares with something ('than …', 'the bar'), not bounds a number."""
    rest = text[end:end + 40].lower()
    return rest.startswith(" than") or any(rest.startswith(f" {b}") for b in ("the bar", "the sota", "sota",
                                                                                  "the state of the art", "the rival"))


def _object(text: str, m: re.Match) -> str | None:
    """What a comparison is made against: after 'than' (faster than X), 'of'/'with' (ahead of X), or a verb's
    object (beats X); None where it names none."""
    rest = _CLAUSE_END.split(text[m.end():m.end() + 60], 1)[0]  # the object ends with its clause
    word = m.group().lower()
    if _TRANSITIVE.match(word) or word.endswith((" of", " with", " to", " than", " on", " upon", " over", "behind",
                                                 "ahead")):
        return rest.strip() or None
    than = re.match(r"(?: \S+){0,3}? (?:than|to|of|with) (.+)", rest)
    return than.group(1) if than is not None else None


_CLAUSE_END = re.compile(r"[,;:()]| and | but | while | whereas ")


def _reversed(text: str, m: re.Match, bars: tuple[str, ...]) -> bool:
    """The bar is the subject: it is named before the comparison, and the comparison's object is not the bar."""
    obj = _object(text, m)
    if obj is None:
        return False
    return _names_bar(text[:m.start()].lower(), bars) and not _names_bar(obj[:40].lower(), bars)


def _names_bar(low: str, bars: tuple[str, ...]) -> bool:
    return any(_has(low, b) for b in _BARS + bars)


def check(scan: str, standing: Standing, gap_text: str = "") -> list[Said]:
    """What the text says of the standing that the evidence does not give, sentence by sentence: a gap typed beside
    a comparison in the other direction, or a favourable one larger than the evidence gives (rule 2 of issue 42),
    else words of a standing the status does not give (rule 3). A sentence not about the bar, or placed in an
    earlier time, is left alone."""
    numbers = typed.numbers_in(scan) if standing.margin is not None else []
    out: list[Said] = []
    for offset, sentence in sentences(scan):
        named = about_the_bar(sentence, standing.bars)
        if history(sentence):
            continue
        for c in claims(sentence, standing):
            if c.elsewhere or (not named and not c.implicit):
                continue  # a comparison with something else than the bar (4.1x faster than naive): left alone
            said = _gap_said(c, offset, scan, numbers, standing, gap_text) if numbers else None
            why = _refused(c, sentence, standing) if said is None else None
            if said is not None:
                out.append(said)
            elif why is not None:
                out.append(Said("status", _excerpt(sentence, c), why[0], why[1]))
    return out


def _gap_said(c: Claimed, offset: int, scan: str, numbers: list[typed.Written], standing: Standing,
              gap_text: str) -> Said | None:
    """A gap typed beside the comparison c: its direction must be the result's, and a favourable one no larger than
    the evidence gives (favourable_ok)."""
    if c.stance not in (AHEAD, BEHIND) or c.negated or standing.margin is None:
        return None
    w = _attached(numbers, offset + c.start, offset + c.end, scan)
    if w is None:
        return None
    actual = AHEAD if standing.margin > 0 else BEHIND if standing.margin < 0 else LEVEL
    said = f"{w.text} {c.words}" if w.end <= offset + c.start else f"{c.words} … by {w.text}"
    if actual != c.stance:
        return Said("direction", said, f"says {said} ({_says(c)}); the result is {gap_text}",
                    "write ${gap}, which says the gap the way it is")
    if c.stance == AHEAD and not favourable_ok(w.value.copy_abs(), w.half, _gaps(standing, w.unit)):
        return Said("size", said, f"says {said}; the result is {gap_text}, and a lead is never rounded up",
                    "write ${gap}, or the gap at the precision the evidence gives")
    return None


def _says(c: Claimed) -> str:
    if c.stance == 2:
        return "not yet placed"
    word = {AHEAD: "ahead of", LEVEL: "level with", BEHIND: "behind"}[c.stance]
    return f"not {word} the bar" if c.negated else f"{word} the bar"


_HINTS = {
    "leads": "say it leads in words that lead (ahead of the bar, beats it, ${gap})",
    "parity": "say it is level (level with the bar, within the tolerance, ${gap}); a lead by the point is 'ahead by "
              "the point, within the noise'",
    "trails": "say it trails (behind the bar, trails it by …, ${gap})",
    "inconclusive": "say it is not yet placed, or mark a gap 'by the point estimate' (${gap} does)",
    "simulated": "give the modelled gap in figures (${gap}) with no verdict word: a model places nothing",
}


def _refused(c: Claimed, sentence: str, s: Standing) -> tuple[str, str] | None:
    """(message, hint) where what c says is not what the status gives (None where it agrees)."""
    status = s.status
    hedged = _CERTAIN.search(sentence) is not None
    marked_point = _POINT.search(sentence) is not None
    if c.stance == 2:  # not yet placed
        ok = status == "inconclusive"
    elif hedged and status != "inconclusive":
        return (f"'{c.words}' is hedged ({_CERTAIN.search(sentence).group()}), but the evidence gives "  # type: ignore[union-attr]
                f"{status}: a hedge of certainty is for a value the runs cannot place",
                _HINTS.get(status, "say what the evidence gives"))
    elif status == "inconclusive":
        ok = marked_point or (c.stance == AHEAD and c.negated) or (c.stance == BEHIND and not c.negated)
    elif status == "leads":
        ok = (c.stance == AHEAD and not c.negated) or (c.stance == BEHIND and c.negated)
    elif status == "parity":
        ok = (c.stance == LEVEL and not c.negated) or (c.stance in (AHEAD, BEHIND) and c.negated) or \
            c.stance == BEHIND or (c.stance == AHEAD and (marked_point or _NOISE.search(sentence) is not None))
    elif status == "trails":
        near = s.margin is not None and abs(s.margin) <= 2 * s.tolerance and _DEGREE.search(sentence) is not None
        ok = (c.stance == BEHIND and not c.negated) or (c.stance == AHEAD and c.negated) or \
            (c.stance == LEVEL and not c.negated and near)
    elif status == "simulated":
        ok = c.stance != LEVEL and not _verdict_verb(c.words)
    else:  # no number: nothing in our favour
        ok = (c.stance == BEHIND and not c.negated) or (c.stance == AHEAD and c.negated)
    if ok:
        return None
    gives = f"the evidence gives {status}" if status in ("leads", "parity", "trails", "inconclusive") else \
        f"the status is {status}"
    return (f"says '{c.words}' ({_says(c)}), but {gives}", _HINTS.get(status, "say nothing of the standing the "
                                                                               "record has no number for"))


_VERDICT_VERBS = re.compile(r"leads?|leading|beats?|beating|trails?|trailing|outperform|surpass|wins?|winning|"
                            r"los(?:es|e|ing)|lost|dominates?|crushes|underperform", re.IGNORECASE)


def _verdict_verb(words: str) -> bool:
    return _VERDICT_VERBS.match(words) is not None


def _excerpt(sentence: str, c: Claimed) -> str:
    return sentence[max(0, c.start - 30):c.end + 30].strip()


# --- a gap said in words: its direction and, on the favourable side, its size (rule 2) ---------------------------

def favourable_ok(written: Decimal, half: Decimal, gaps: list[float]) -> bool:
    """A favourable gap is never larger than a true gap once rounded to the written precision, and a multiple or
    percentage at two significant figures at least: '2×' needs 1.95× (a bare digit would round 1.54× up)."""
    if not gaps:
        return False
    magnitude = written.copy_abs().adjusted()  # the exponent of the first significant digit
    second = Decimal(5).scaleb(magnitude - 2)  # half a unit of the second significant figure
    slack = min(half, second) * Decimal("1.000000001")
    return any(written - Decimal(repr(g)) <= slack and Decimal(repr(g)) - written <= half * Decimal("1.000000001")
               for g in gaps)


def _attached(numbers: list[typed.Written], start: int, end: int, scan: str) -> typed.Written | None:
    """The number a comparison at [start, end) is about: just before it (54.4% faster), or after 'by' (trails the
    bar by 490 ms)."""
    for w in numbers:
        if 0 <= start - w.end <= 2 and not scan[w.end:start].strip():
            return w
        if 0 < w.start - end <= 60 and w.before.endswith(("by ", "by")) and w.relative:
            return w
    return None


def _gaps(standing: Standing, unit: str) -> list[float]:
    """The true gaps in the family or unit a number is written in."""
    written = units.parse(unit)
    out = []
    for family, gap in standing.gaps:
        if family in ("%", "x"):
            if not written.dims and written.factor == (0.01 if family == "%" else 1.0):
                out.append(gap)
            continue
        mine = units.parse(family)
        if mine.known and written.known and mine.comparable(written) and written.problem is None:
            out.append(mine.to(gap, written))
    return out
