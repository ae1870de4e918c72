"""Prose from the numbers: the placeholders of claim: and note:, and the numbers typed there.

`${value}` `${bar}` `${ratio}` `${gap}` `${n}` `${interval}` are filled from the measurement where the prose is
shown; `${quote 4.48x}` shows its text as written and marks a number quoted from elsewhere (left unchecked), as
`${setting 200 ms}` marks a configured threshold and `${was 81.2 ms}` an earlier value;
`$${` is a literal `${`. The numbers typed around them are checked by typed.py. Pure: text in, pieces out.
"""

from __future__ import annotations

import re

from ..core.structs import frozen
from ..core.nearest import close_matches

NAMES = ("value", "bar", "ratio", "gap", "n", "interval")
QUOTE = "quote"
# Text shown as typed and marked, never checked against the evidence: a number quoted from elsewhere, a configured
# threshold or setting (a 200 ms SLO), an earlier value (issue 42).
MARKED = {QUOTE: "quoted from elsewhere", "setting": "a setting, not a measurement", "was": "an earlier value"}
HINT_NAMES = ", ".join("${" + n + "}" for n in NAMES) + ", ${quote …}, ${setting …}, ${was …}"


@frozen
class Piece:
    """Literal text (name None), a placeholder to fill (name), or a quoted number (name 'quote', its text)."""

    text: str
    name: str | None = None


@frozen
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
    if name in MARKED:
        if not arg or "${" in arg:
            return Piece(""), Slip(start, f"{written} marks nothing" if not arg else f"{written} holds a placeholder",
                                   f"write the text inside it: ${{{name} {_EXAMPLE[name]}}}")
        return Piece(arg, name), None
    if name in NAMES:
        if arg:
            return Piece(""), Slip(start, f"{written}: ${{{name}}} takes nothing after its name",
                                   f"write ${{{name}}}, or ${{quote {arg}}} for a number quoted from elsewhere")
        return Piece("", name), None
    near = close_matches(name, NAMES + tuple(MARKED), n=1, cutoff=0.6)
    hint = f"did you mean ${{{near[0]}}}?" if near else f"the placeholders are {HINT_NAMES}"
    return Piece(""), Slip(start, f"{written} is not a placeholder", hint + "; write $${ for a literal ${")


_EXAMPLE = {QUOTE: "4.48x", "setting": "200 ms", "was": "81.2 ms"}


def fill(text: str, values: dict[str, str], marks: dict[str, tuple[str, str]] | None = None) -> str:
    """text with each placeholder replaced by its value (a name with none keeps its placeholder as written), a
    marked text (quote, setting, was) by its text between the two marks given for its kind, and $${ by ${."""
    pieces, _ = split(text)
    marks = marks or {}
    return "".join(p.text if p.name is None else
                   marks.get(p.name, ("", ""))[0] + p.text + marks.get(p.name, ("", ""))[1] if p.name in MARKED else
                   values.get(p.name, "${" + p.name + "}") for p in pieces)


def names(text: str) -> list[str]:
    """The placeholders text uses, in order, each once."""
    seen: list[str] = []
    for p in split(text)[0]:
        if p.name is not None and p.name not in MARKED and p.name not in seen:
            seen.append(p.name)
    return seen
