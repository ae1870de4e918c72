"""`scorecard export --readme FILE`: the scorecard table in a README's marked block, and nowhere else.

The block is the lines between exactly one `<!-- scorecard:start -->` and one `<!-- scorecard:end -->`, each an
HTML block of its own line at the top level as CommonMark reads the file (not in a fence, an indented code block,
a list, a quote or a <pre>), the start first. Anything else (a marker missing or doubled, inside a
fence, the end before the start) writes nothing: the table is never appended. The file is edited only if it is
a regular file reached through no symlink and unchanged since it was read, atomically, keeping its line endings
and byte-order mark.

Lazy imports: markdown-it, core.paths and site.write, once a README is read or written (the table alone needs
none of them).
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from ..core.textsafe import printable

START = "<!-- scorecard:start -->"
END = "<!-- scorecard:end -->"
BOM = b"\xef\xbb\xbf"
MAX_BYTES = 4 * 1024 * 1024


class ReadmeRefused(click.ClickException):
    """The README's block cannot be found exactly once, or the file may not be edited: nothing is written."""

    exit_code = 1

    def __init__(self, message: str):
        super().__init__(printable(message, one_line=True))


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # lines as CommonMark has them (not U+2028, \f, ...)


def _lines(text: str) -> list[str]:
    return _LINE.findall(text)


def _markers(text: str) -> tuple[list[int], list[int], int]:
    """Line numbers (0-based) of the start and end markers as CommonMark reads the file: each an HTML block of
    its own line at the top level (not in a fence, an indented code block, a list, a quote or a <pre>), and how
    many other lines name a marker (which do not count)."""
    from markdown_it import MarkdownIt

    starts: list[int] = []
    ends: list[int] = []
    for token in MarkdownIt("commonmark").parse(text):
        if token.type != "html_block" or token.level != 0 or not token.map or token.map[1] - token.map[0] != 1:
            continue
        (starts if token.content.strip() == START else ends if token.content.strip() == END else []).append(
            token.map[0])
    named = sum(1 for line in _lines(text) if START in line or END in line)
    return starts, ends, named - len(starts) - len(ends)


def block(text: str, name: str) -> tuple[int, int]:
    """(the line after the start marker, the end marker's line) of the README's one block; ReadmeRefused else."""
    starts, ends, elsewhere = _markers(text)
    where = f"{name}: "
    if len(starts) != 1 or len(ends) != 1:
        said = [f"{len(starts)} {START}" if len(starts) != 1 else "", f"{len(ends)} {END}" if len(ends) != 1 else ""]
        inside = f" ({elsewhere} more inside code, a list or a line of text, which do not count)" if elsewhere else ""
        raise ReadmeRefused(where + f"needs exactly one {START} and one {END}, each alone on a line outside code "
                            f"and lists; found {' and '.join(s for s in said if s)}{inside}; nothing was written")
    if ends[0] < starts[0]:
        raise ReadmeRefused(where + f"{END} comes before {START}; nothing was written")
    return starts[0] + 1, ends[0]


def with_table(text: str, table: str, name: str) -> str:
    """text with its block holding table (in the file's own line endings)."""
    first, end = block(text, name)
    lines = _lines(text)
    newline = "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"
    body = [line + newline for line in table.splitlines()]
    return "".join(lines[:first] + body + lines[end:])


def read(path: Path) -> bytes:
    """The README's bytes: a regular file reached through no symlink, at most 4 MiB."""
    from ..core.paths import PathProblem, read_unlinked

    try:
        return read_unlinked(path, MAX_BYTES)
    except PathProblem as exc:
        raise ReadmeRefused(f"{path}: {exc.message}; nothing was written: {exc.hint}") from None
    except OSError as exc:
        raise ReadmeRefused(f"{path}: cannot be read ({exc.strerror}); nothing was written") from None


def update(path: Path, table: str, check: bool) -> bool:
    """Put table in the README's block; with check, only say whether it is current. True when it was current."""
    from ..core.paths import EditRefused
    from ..site.write import replace_files

    raw = read(path)
    bom = raw.startswith(BOM)
    try:
        text = raw[len(BOM) if bom else 0:].decode("utf-8")
    except UnicodeDecodeError:
        raise ReadmeRefused(f"{path}: not UTF-8 text; nothing was written") from None
    fresh = with_table(text, table, str(path))
    if fresh == text:
        return True
    if not check:
        folder = path.parent.resolve()
        try:
            replace_files({folder / path.name: (BOM if bom else b"") + fresh.encode("utf-8")}, folder,
                          {folder / path.name: raw})
        except EditRefused as exc:
            raise ReadmeRefused(str(exc)) from None
    return False
