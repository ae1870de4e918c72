"""Prose from the numbers: the placeholders of claim: and note:, and the numbers typed there.

`${value}` `${bar}` `${ratio}` `${gap}` `${n}` `${interval}` are filled from the measurement where the prose is
shown; `${quote 4.48x}` shows its text as written and marks a number quoted from elsewhere (left unchecked);
`$${` is a literal `${`. A number typed with a unit comparable to a number the claim rests on is checked against
those numbers (the value, its interval's ends, its runs' range, the bar, the inputs) at the precision it is
written with. Pure: text in, pieces and numbers out; which numbers there are is the caller's to say.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from decimal import Decimal

from . import units

NAMES = ("value", "bar", "ratio", "gap", "n", "interval")
QUOTE = "quote"
HINT_NAMES = ", ".join("${" + n + "}" for n in NAMES) + ", ${quote …}"


@dataclass(frozen=True, slots=True)
class Piece:
    """Literal text (name None), a placeholder to fill (name), or a quoted number (name 'quote', its text)."""

    text: str
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Slip:
    """A placeholder that cannot be read: where it starts in the text, and what to do."""

    start: int
    message: str
    hint: str


_OPEN = re.compile(r"\$\$\{|\$\{")


def split(text: str) -> tuple[list[Piece], list[Slip]]:
    """text as literal pieces and placeholders, and the placeholders that cannot be read (kept as literal text)."""
    pieces: list[Piece] = []
    slips: list[Slip] = []
    literal: list[str] = []
    i = 0
    for m in _OPEN.finditer(text):
        if m.start() < i:
            continue  # inside a placeholder already read
        literal.append(text[i:m.start()])
        i = m.end()
        if m.group() == "$${":
            literal.append("${")
            continue
        close = text.find("}", m.end())
        if close < 0:
            slips.append(Slip(m.start(), "'${' is not closed", "close it with '}', or write '$${' for a literal '${'"))
            literal.append(text[m.start():])
            i = len(text)
            break
        piece, slip = _placeholder(text[m.end():close], m.start())
        i = close + 1
        if slip is not None:
            slips.append(slip)
            literal.append(text[m.start():i])
            continue
        if literal:
            pieces.append(Piece("".join(literal)))
            literal = []
        pieces.append(piece)
    literal.append(text[i:])
    if "".join(literal):
        pieces.append(Piece("".join(literal)))
    return pieces, slips


def _placeholder(inner: str, start: int) -> tuple[Piece, Slip | None]:
    name, _, arg = inner.strip().partition(" ")
    arg = arg.strip()
    written = "${" + inner + "}"
    if name == QUOTE:
        if not arg or "${" in arg:
            return Piece(""), Slip(start, f"{written} quotes nothing" if not arg else f"{written} holds a placeholder",
                                   "write the number quoted from elsewhere inside it: ${quote 4.48x}")
        return Piece(arg, QUOTE), None
    if name in NAMES:
        if arg:
            return Piece(""), Slip(start, f"{written}: ${{{name}}} takes nothing after its name",
                                   f"write ${{{name}}}, or ${{quote {arg}}} for a number quoted from elsewhere")
        return Piece("", name), None
    near = difflib.get_close_matches(name, NAMES + (QUOTE,), n=1, cutoff=0.6)
    hint = f"did you mean ${{{near[0]}}}?" if near else f"the placeholders are {HINT_NAMES}"
    return Piece(""), Slip(start, f"{written} is not a placeholder", hint + "; write $${ for a literal ${")


def fill(text: str, values: dict[str, str]) -> str:
    """text with each placeholder replaced by its value (a name with none keeps its placeholder as written), a
    quoted number by its text and $${ by ${."""
    pieces, _ = split(text)
    return "".join(p.text if p.name is None or p.name == QUOTE else values.get(p.name, "${" + p.name + "}")
                   for p in pieces)


def names(text: str) -> list[str]:
    """The placeholders text uses, in order, each once."""
    seen: list[str] = []
    for p in split(text)[0]:
        if p.name is not None and p.name != QUOTE and p.name not in seen:
            seen.append(p.name)
    return seen


# --- numbers typed in prose ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Written:
    """A number typed with a unit: as written, its value, half the step of its last written digit, and its unit."""

    text: str  # the number and its unit as written: '81 ms', '1,840 tok/s'
    value: Decimal
    half: Decimal
    unit: str


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


# A number not glued to what comes before it (a letter, a digit, a point, a slash, a currency sign: H100, v2.1,
# 2401.09670, $0.40), with thousands in groups of three, decimals and an exponent.
_NUMBER = re.compile(r"(?<![\w.,/#@$€£¥^])((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)")
_UNIT = re.compile(r"[ \u00a0\u202f]?([A-Za-zµμ%×{][A-Za-z0-9µμ%×/{}^²³·]*)")
_RANGE = re.compile(r"[ \u00a0\u202f]?(?:-|–|—|to)[ \u00a0\u202f]?")
_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def _blank(m: re.Match) -> str:
    return " " * len(m.group())


def scannable(text: str) -> str:
    """text as the check reads it: placeholders, quoted numbers and code spans blanked out, $${ as ${."""
    pieces, _ = split(text)
    plain = "".join(p.text if p.name is None else " " for p in pieces)
    return _CODE.sub(_blank, plain)


def written_numbers(text: str) -> list[Written]:
    """The numbers typed with a unit in text (as scannable gives it); a range's first end takes the unit of its
    second (75–88 ms). A number glued to letters after it (50x5, 3rd) or with a unit that is a number itself is
    left out."""
    scan = scannable(text)
    found: list[tuple[re.Match, str | None, int]] = []
    for m in _NUMBER.finditer(scan):
        before = scan[m.start() - 1] if m.start() else ""
        if before in "-−" and m.start() >= 2 and (scan[m.start() - 2].isalpha() or scan[m.start() - 2] == "_"):
            continue  # H-100
        unit = _UNIT.match(scan, m.end())
        if unit is not None and unit.group(1) == "to":  # 5 to 7 s: a range, its unit after its second end
            unit = None
        glued = unit is None and m.end() < len(scan) and (scan[m.end()].isalnum() or scan[m.end()] == "_")
        found.append((m, None if glued else (unit.group(1) if unit else ""), unit.end() if unit else m.end()))
    out: list[Written] = []
    for i, (m, word, end) in enumerate(found):
        shown = ""
        if word == "" and i + 1 < len(found) and _RANGE.fullmatch(scan, m.end(), found[i + 1][0].start()):
            word = found[i + 1][1]
            shown = m.group(1) + ("" if word in ("x", "×", "%") else " ") + str(word)
        if not word:
            continue
        sign = "-" if m.start() and scan[m.start() - 1] in "-−" and (m.start() < 2 or scan[m.start() - 2] in " (") \
            else ""
        written = _written(sign + m.group(1), word, shown or scan[m.start() - len(sign):end])
        if written is not None:
            out.append(written)
    return out


def _written(number: str, unit: str, text: str) -> Written | None:
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
    step += int(exp or 0)
    value = Decimal(number.replace(",", ""))
    return Written(text, value, Decimal(5).scaleb(step - 1), unit)


def _family(unit: units.Unit) -> str | None:
    """A dimensionless unit's kind: '%' (shares) or 'x' (multiples), which are checked only against their own."""
    if unit.dims:
        return None
    return "%" if unit.factor == 0.01 else "x"


def _convert(known: Known, to: units.Unit) -> float | None:
    mine = units.parse(known.unit)
    if mine.problem is not None or not mine.comparable(to) or _family(mine) != _family(to):
        return None
    return mine.to(known.value, to)


def check(text: str, known: list[Known]) -> list[Mismatch]:
    """Each number typed in text whose unit converts to a known number's that no known number gives at its
    written precision; numbers in units no known number has are left alone."""
    out: list[Mismatch] = []
    for w in written_numbers(text):
        unit = units.parse(w.unit)
        near: tuple[float, Known, float] | None = None
        for k in known:
            converted = _convert(k, unit)
            if converted is None:
                continue
            distance = abs(Decimal(repr(converted)) - w.value)
            if distance <= w.half * Decimal("1.000000001") + abs(w.value) * Decimal("1e-12"):
                near = None
                break
            if near is None or distance < near[0]:
                near = (float(distance), k, converted)
        else:
            if near is not None:
                out.append(Mismatch(w, near[1], near[2], _convert(known[0], unit)))
    return out
