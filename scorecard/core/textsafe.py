"""Text a ledger controls, made safe to print: no terminal control, no GitHub runner command.

Below everything that prints (the reporters, the command line's messages, UserError's own sentence), so every
output path shares one definition.
"""

from __future__ import annotations

import re

from .patterns import lazy

# What a ledger's text must not send to a terminal: C0 controls but newline and tab, DEL, C1
# controls (escape sequences, OSC titles, bells) and the bidirectional overrides that make
# text read differently from what it is. Shown as visible escapes instead.
UNSAFE = lazy("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
UNSAFE_LINE = lazy("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

# A GitHub runner reads a workflow command from any line a step prints: `::name …` at the start of a line
# (after any whitespace), and the legacy `##[name …]` anywhere in it. Ledger text must form neither: the second
# character is shown escaped (`#\x23[`, `:\x3a`; in JSON `#\u0023[`, which decodes to the same text).
_LEGACY_COMMAND = lazy(r"##\[")
_LINE_COMMAND = lazy(r"(?m)^([^\S\n]*)::")


def escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: str, one_line: bool = False) -> str:
    """text with control characters shown as escapes (\\x1b), so a ledger cannot drive the terminal."""
    return (UNSAFE_LINE if one_line else UNSAFE).sub(escape, text)


def runner_safe(text: str, json: bool = False) -> str:
    """text that no GitHub runner reads as a workflow command."""
    legacy = "#\\u0023[" if json else "#\\x23["
    text = _LEGACY_COMMAND.sub(lambda _: legacy, text)
    return text if json else _LINE_COMMAND.sub(lambda m: m.group(1) + ":\\x3a", text)


def printable(text: str, one_line: bool = False) -> str:
    """Both: what any message holding ledger text goes through before it is printed."""
    return runner_safe(terminal_safe(text, one_line))


MD_SPAN_LIMIT = 2000  # characters of ledger text in one code span; the rest is cut with "…"


def md_code(text: str) -> str:
    """text as a Markdown code span that nothing inside can end: no link, image, raw HTML, heading or emphasis
    opens from it, and GitHub links no @mention, #issue or bare www. address in it. Control characters and
    newlines show as escapes (\\n), so a name cannot start a block of its own. At most MD_SPAN_LIMIT characters."""
    if len(text) > MD_SPAN_LIMIT:
        text = text[:MD_SPAN_LIMIT] + "…"
    flat = UNSAFE_LINE.sub(escape, text.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t"))
    longest = max((len(run) for run in re.findall("`+", flat)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {flat} {fence}"
