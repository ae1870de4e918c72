"""What prose says of where we stand against the bar, read sentence by sentence (issue 42), and whether it agrees
with the verdict: the direction of each comparison, the status its words give, and the size of a gap said in
words. The numbers themselves are typed.py's; this module reads the words around them (stancewords.py holds the
vocabulary). Pure: text in, findings out.

A sentence is read when its object is the bar: "the bar", SOTA, "state of the art", a rival or a leader the record
names; and a comparison that names nothing, said as a verdict or with its gap, is against the bar too. A
comparative (faster/slower, ahead/behind, beats/trails, higher/lower than, ...) says ahead or behind; a level word
(level with, on par, matches) says level; a negation flips it to a bound ("no slower than": level or ahead). Where
the bar is the subject of the comparison's clause ("the bar is 35% faster than oursys", "the bar lags") the
direction reverses. A comparison said in a past tense in an earlier time ("trailed the bar until v2.1") is history,
and left alone. docs/format.md ("Words in claims") lists the grammar.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ..core.structs import frozen
from . import stancewords as w, typed, units

AHEAD, LEVEL, BEHIND = 1, 0, -1


@frozen
class Said:
    """One thing prose says of the standing that the evidence does not give: the rule (direction, status), the
    words as written, what is wrong, and the honest form."""

    rule: str  # "direction" (SC517) or "status" (SC518)
    words: str
    message: str
    hint: str


@frozen
class Standing:
    """What the evidence gives, for the check: the status, the point's margin (None without a comparison), the
    tolerance, the direction, the gap candidates by unit family, and the bar's other names."""

    status: str
    margin: float | None
    tolerance: float
    better: str | None
    bars: tuple[str, ...] = ()  # leaders and rivals the record names, lowercase
    gaps: tuple[tuple[str, float], ...] = ()  # (family: '%', 'x' or a unit, the true gap in it)
    ratio: float | None = None  # ours ÷ the bar, where both are positive ('0.65× the bar' is checked against it)
    year: int = 0  # this year: a year before it is an earlier time, not this one


@frozen
class Claimed:
    """A comparison the prose makes: its stance (AHEAD, LEVEL, BEHIND), whether negated, where, and its words."""

    stance: int
    negated: bool
    start: int
    end: int
    words: str
    implicit: bool = False  # it names nothing it is compared with: in a scorecard, the bar
    elsewhere: bool = False  # it is made against something else than the bar (4.1x faster than naive)
    past: bool = False  # said in a past tense (trailed, was behind): history where the sentence names an earlier time


def may_say(text: str) -> bool:
    """Whether text holds a word of standing at all (else the check has nothing to read)."""
    text = (text if text.isascii() else text.translate(w.CONFUSABLE)).lower()
    return w.WORD_LOWER.search(text) is not None or (typed.may_show_a_number(text) and
                                                     w.RATIO.search(text) is not None)


def sentences(scan: str) -> list[tuple[int, str]]:
    """The sentences of a page's text, each with where it starts."""
    out, at = [], 0
    for m in w.SENTENCE.finditer(scan):
        out.append((at, scan[at:m.start()]))
        at = m.end()
    out.append((at, scan[at:]))
    return [(i, s) for i, s in out if s.strip()]


def about_the_bar(sentence: str, bars: tuple[str, ...]) -> bool:
    return _names_bar(sentence.lower(), bars)


def _has(low: str, name: str) -> bool:
    return bool(name) and re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", low) is not None


def _names_bar(low: str, bars: tuple[str, ...]) -> bool:
    return any(_has(low, b) for b in w.BARS + bars)


def history(sentence: str, year: int = 0) -> bool:
    """Whether the sentence names an earlier time (a version, an earlier release, a year before this one)."""
    for m in w.EARLIER_TIME.finditer(sentence):
        if m.group("year") is None or not year or int(m.group("year")) < year:
            return True
    return False


def _past(text: str, m: re.Match) -> bool:
    """Whether the comparison at m is said in a past tense (trailed, led, was behind), not a present perfect."""
    before = text[max(0, m.start() - 24):m.start()]
    if w.HAS_BEFORE.search(before):
        return False
    return w.PAST_BEFORE.search(before) is not None or w.PAST_WORD.search(m.group()) is not None


def claims(sentence: str, standing: Standing) -> list[Claimed]:
    """The comparisons the sentence makes of ours against the bar, in order."""
    text = w.DIRECTION_PHRASE.sub(lambda m: " " * len(m.group()), sentence.translate(w.CONFUSABLE))
    out = []
    for m in w.WORD.finditer(text):
        kind = m.lastgroup or ""
        if kind == "unplaced":
            out.append(Claimed(2, False, m.start(), m.end(), m.group(), True))
            continue
        if not _compares(text, m, kind):
            continue  # a bound (under 100 ms), a word of quantity, or an adjective on a noun ('faster hardware')
        if kind in ("high", "low"):
            if standing.better is None:
                continue
            stance = AHEAD if (kind == "high") == (standing.better == "higher") else BEHIND
        else:
            stance = {"ahead": AHEAD, "behind": BEHIND, "level": LEVEL}[kind]
        clause = _clause_before(text, m.start())
        passive = w.PASSIVE.search(text[max(0, m.start() - 24):m.start()]) is not None and (
            text[m.end():m.end() + 4].lower() == " by " or w.PARTICIPLE.fullmatch(m.group()) is not None)
        obj = _object(text, m, passive)
        relative = w.RELATIVE.match(clause) is not None and not w.RELATIVE.fullmatch(clause.rstrip())
        obj_is_bar = (obj is not None and (_names_bar(obj[:40].lower(), standing.bars) or
                                           w.PRONOUN.match(obj) is not None)) or \
            (relative and _after_bar(text, clause, m.start(), standing.bars)) or \
            _bar_as_relative_object(clause, standing.bars)  # the bar, which oursys beats; the bar that oursys beats
        subject = not obj_is_bar and _bar_is_subject(text, clause, m.start(), standing.bars)
        nobody = w.NOBODY.search(clause) is not None and stance != LEVEL  # nobody is faster than oursys: we lead
        stance = -stance if passive else stance
        stance = AHEAD if nobody else -stance if subject else stance
        negated = not nobody and w.NEG.search(text[max(0, m.start() - 24):m.start()]) is not None
        implicit = nobody or (obj is None and _said_as_verdict(text, m, kind))
        out.append(Claimed(stance, negated, m.start(), m.end(), m.group(), implicit,
                           obj is not None and not obj_is_bar and not subject and not nobody, _past(text, m)))
    return out


def _clause_before(text: str, start: int) -> str:
    """The words of the comparison's clause before it (from the last comma, colon, 'and', 'but' …)."""
    head = text[:start]
    cut = max((m.end() for m in w.CLAUSE_END.finditer(head)), default=0)
    return head[cut:]


def _bar_is_subject(text: str, clause: str, start: int, bars: tuple[str, ...]) -> bool:
    """The bar is the subject of the comparison's clause: named in it, not after a preposition ('against the bar,
    oursys leads' names it in another clause; 'the bar is 35% faster' and 'the bar lags' make it the subject), or
    the clause is a relative one on the bar ('…the bar, which is 35% faster')."""
    low = clause.lower()
    for name in sorted(w.BARS + bars, key=len, reverse=True):
        for m in re.finditer(rf"(?<![\w]){re.escape(name)}(?![\w])", low):
            if w.PREPOSITION.search(low[:m.start()]) is None:
                return True
    if w.RELATIVE.fullmatch(clause.rstrip()) or re.fullmatch(r"\s*(?:which|that|who)\s+(?:is|are|was|were|runs|"
                                                            r"answers|serves)\b.*", clause, re.IGNORECASE):
        return _after_bar(text, clause, start, bars)  # '…the bar, which is 35% faster': the bar is the subject
    return False


def _bar_as_relative_object(clause: str, bars: tuple[str, ...]) -> bool:
    """'the bar that oursys beats': the bar, then a relative clause whose subject is another."""
    low = clause.lower()
    return any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])\s*,?\s*(?:that|which|whom)\s+(?!is\b|are\b|was\b|"
                         rf"were\b)\w", low) for name in w.BARS + bars)


def _after_bar(text: str, clause: str, start: int, bars: tuple[str, ...]) -> bool:
    """Whether the clause (a relative one) follows the bar's name: '…the bar, which …'."""
    before = text[:start - len(clause)].rstrip(" ,;:(—–").lower()
    return any(before.endswith(name) for name in w.BARS + bars)


def _compares(text: str, m: re.Match, kind: str) -> bool:
    """Whether the word at m makes a comparison: higher/lower with 'than' (two words between at most) or the bar;
    an adjective with 'than', 'by', a preposition, or at the end of its clause (not 'faster hardware')."""
    rest = text[m.end():m.end() + 48].lower()
    than = re.match(r"(?: [\w-]+){0,2}? than\b", rest) is not None
    if "bar" in m.group().lower():
        return True  # within the bar, inside the bar
    if kind in ("high", "low"):
        if w.TRANSITIVE.match(m.group()):
            return True
        return than or any(rest.startswith(f" {b}") for b in ("the bar", "the sota", "sota", "the state of the art",
                                                             "the rival", "the baseline"))
    if w.ADJECTIVE.fullmatch(m.group()):
        return than or w.ENDS_CLAUSE.match(rest) is not None
    return True


def _said_as_verdict(text: str, m: re.Match, kind: str) -> bool:
    """A comparison naming nothing, said as a verdict (we lead, best-in-class), with its gap (54% faster), or as a
    comparative ending its clause (oursys is faster.): in a scorecard, against the bar."""
    if w.VERDICT_WORD.fullmatch(m.group()) is not None or w.NUMBER_BEFORE.search(text[:m.start()]) is not None:
        return True
    return kind in ("ahead", "behind") and w.ADJECTIVE.fullmatch(m.group()) is not None and \
        w.ENDS_CLAUSE.match(text[m.end():m.end() + 20]) is not None


def _object(text: str, m: re.Match, passive: bool = False) -> str | None:
    """What a comparison is made against, within its clause: after 'than' (faster than X), 'of'/'with'/'over'
    (ahead of X, a speedup over X), a verb's object (beats X), or who does it in the passive (beaten by X); None
    where it names none ('wins on latency' names a domain, not an object)."""
    rest = w.CLAUSE_END.split(text[m.end():m.end() + 60], 1)[0].replace("(", " ").replace(")", " ")
    word = m.group().lower()
    if passive:
        obj = rest.strip()[2:].strip(" .!?")  # after 'by'
    elif w.TRANSITIVE.match(word) or word.endswith((" of", " with", " to", " than", " on", " upon", " over",
                                                    "behind", "ahead")):
        obj = rest.strip(" .!?")
    else:
        than = re.match(r"(?: \S+){0,3}? +(?:than|to|of|with|over|against|vs\.?|versus) (.+)", rest)
        obj = than.group(1).strip(" .!?") if than is not None else ""
    obj = re.sub(r"^(?:of|with|to|than)\s+", "", obj, flags=re.IGNORECASE)
    if obj.lower().startswith("on ") or w.TIME_OBJECT.match(obj):
        obj = ""  # leads on latency: where, not whom; faster than ever: than itself, so against the bar
    obj = re.sub(r"^by\b.*", "", obj).strip()  # 'trails by 490 ms': the gap, not an object
    return obj if re.search(r"\w", obj) else None


def check(scan: str, standing: Standing, gap_text: str = "") -> list[Said]:
    """What the text says of the standing that the evidence does not give, sentence by sentence: a gap typed beside
    a comparison in the other direction, or a favourable one larger than the evidence gives (rule 2 of issue 42), a
    multiple of the bar the evidence does not give, else words of a standing the status does not give (rule 3). A
    comparison with something else than the bar, or said in a past tense in an earlier time, is left alone."""
    scan = scan.translate(w.CONFUSABLE)  # a Cyrillic 'а' in 'fаster' or 'bаr' reads as the Latin it shows
    numbers = typed.numbers_in(scan) if standing.margin is not None else []
    out: list[Said] = []
    for offset, sentence in sentences(scan):
        named = about_the_bar(sentence, standing.bars)
        earlier = history(sentence, standing.year)
        out += _ratios(sentence, standing)
        for c in claims(sentence, standing):
            if c.elsewhere or (not named and not c.implicit) or (earlier and c.past):
                continue
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
    n = _attached(numbers, offset + c.start, offset + c.end, scan)
    if n is None:
        return None
    actual = AHEAD if standing.margin > 0 else BEHIND if standing.margin < 0 else LEVEL
    said = f"{n.text} {c.words}" if n.end <= offset + c.start else f"{c.words} … by {n.text}"
    if actual != c.stance:
        return Said("direction", said, f"says {said} ({_says(c)}); the result is {gap_text}",
                    "write ${gap}, which says the gap the way it is")
    if c.stance == AHEAD and not favourable_ok(n.value.copy_abs(), n.half, _gaps(standing, n.unit)):
        return Said("size", said, f"says {said}; the result is {gap_text}, and a lead is never rounded up",
                    "write ${gap}, or the gap at the precision the evidence gives")
    return None


def _ratios(sentence: str, s: Standing) -> list[Said]:
    """'0.65× the bar's latency', '65% of the bar': ours as a multiple of the bar, which must be the ratio the
    evidence gives at the precision written."""
    out = []
    for m in w.RATIO.finditer(sentence):
        if s.ratio is None or re.search(r"(?:\bwithin|\bby|±|\+/-|\bto|\bof) ?$", sentence[:m.start()],
                                        re.IGNORECASE):
            continue  # within 5% of the bar: a bound on the gap, read by typed.py; not a multiple of the bar
        written = Decimal(m.group(1)) / (100 if m.group(2) == "%" else 1)
        half = Decimal(5).scaleb(-len(m.group(1).partition(".")[2]) - 1) / (100 if m.group(2) == "%" else 1)
        inverse = (m.group("noun") or "").lower() in w.INVERSE_NOUNS and s.better == "lower"  # speed of a time
        ratio = 1 / s.ratio if inverse else s.ratio
        if abs(written - Decimal(repr(ratio))) > half * Decimal("1.000000001"):
            out.append(Said("size", m.group(), f"says {m.group()}: ours is {ratio:.3g}× the bar"
                            + (f" ({m.group('noun')})" if m.group("noun") else ""),
                            "write ${ratio}, which shows ours ÷ the bar"))
    return out


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
    near = sentence[max(0, c.start - 40):c.start]  # a hedge goes with the words it hedges
    hedge = w.CERTAIN.search(near)
    marked_point = w.POINT.search(sentence) is not None
    if c.stance == 2:  # not yet placed
        ok = status == "inconclusive"
    elif hedge is not None and status != "inconclusive":
        return (f"'{c.words}' is hedged ({hedge.group()}), but the evidence gives {status}: a hedge of certainty is "
                "for a value the runs cannot place", _HINTS.get(status, "say what the evidence gives"))
    else:
        ok = _agrees(c, sentence, s, marked_point)
    if ok:
        return None
    gives = f"the evidence gives {status}" if status in ("leads", "parity", "trails", "inconclusive") else \
        f"the status is {status}"
    return (f"says '{c.words}' ({_says(c)}), but {gives}", _HINTS.get(status, "say nothing of the standing the "
                                                                               "record has no number for"))


def _agrees(c: Claimed, sentence: str, s: Standing, marked_point: bool) -> bool:
    """The table of docs/format.md "Words in claims": what each status may say."""
    ahead, level, behind = c.stance == AHEAD, c.stance == LEVEL, c.stance == BEHIND
    at_most_level = (behind and not c.negated) or (ahead and c.negated)  # behind, or not ahead
    if s.status == "inconclusive":
        return marked_point or at_most_level
    if s.status == "leads":
        return (ahead and not c.negated) or (behind and c.negated) or (level and c.negated)
    if s.status == "parity":
        return (level and not c.negated) or (c.negated and not level) or behind or \
            (ahead and (marked_point or w.NOISE.search(sentence) is not None))
    if s.status == "trails":
        near = s.margin is not None and abs(s.margin) <= 2 * s.tolerance and w.DEGREE.search(sentence) is not None
        return at_most_level or (level and c.negated) or (level and near)
    if s.status == "simulated":  # a gap in plain words, in the model's direction; no verdict word
        side = None if s.margin is None else AHEAD if s.margin > 0 else BEHIND if s.margin < 0 else LEVEL
        return not level and w.VERDICT_VERB.match(c.words) is None and (side is None or c.negated or
                                                                       c.stance == side)
    return at_most_level  # no number: nothing in our favour


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
    for n in numbers:
        if 0 <= start - n.end <= 2 and not scan[n.end:start].strip():
            return n
        if 0 < n.start - end <= 60 and n.before.endswith(("by ", "by")) and n.relative:
            return n
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
