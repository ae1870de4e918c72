"""`scorecard export --readme FILE`: the scorecard table in a README's marked block, and nowhere else.

The block is the lines between exactly one `<!-- scorecard:start -->` and one `<!-- scorecard:end -->`, each
alone on its line, outside fenced code, the start first. Anything else (a marker missing or doubled, inside a
fence, the end before the start) writes nothing: the table is never appended. The file is edited only if it is
a regular file reached through no symlink and unchanged since it was read, atomically, keeping its line endings
and byte-order mark.

Lazy imports: core.paths and site.write, once a README is read or written (the table alone needs neither).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import click

from ..core.textsafe import printable

START = "<!-- scorecard:start -->"
END = "<!-- scorecard:end -->"
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
BOM = b"\xef\xbb\xbf"
MAX_BYTES = 4 * 1024 * 1024


class ReadmeRefused(click.ClickException):
    """The README's block cannot be found exactly once, or the file may not be edited: nothing is written."""

    exit_code = 1

    def __init__(self, message: str):
        super().__init__(printable(message, one_line=True))


def _markers(lines: list[str]) -> tuple[list[int], list[int], list[int]]:
    """Line numbers (0-based) of the start and end markers outside fenced code, and of those inside one."""
    starts, ends, fenced = [], [], []
    fence: str | None = None
    for i, line in enumerate(lines):
        bare = line.rstrip("\r\n")
        opened = _FENCE.match(bare)
        if fence is None and opened:
            fence = opened[1]
            continue
        if fence is not None:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence) and not bare.strip(" `~"):
                fence = None
            elif bare.strip() in (START, END):
                fenced.append(i)
            continue
        if bare.strip() == START:
            starts.append(i)
        elif bare.strip() == END:
            ends.append(i)
    return starts, ends, fenced


def block(text: str, name: str) -> tuple[int, int]:
    """(the line after the start marker, the end marker's line) of the README's one block; ReadmeRefused else."""
    lines = text.splitlines(keepends=True)
    starts, ends, fenced = _markers(lines)
    where = f"{name}: "
    if len(starts) != 1 or len(ends) != 1:
        said = [f"{len(starts)} {START}" if len(starts) != 1 else "", f"{len(ends)} {END}" if len(ends) != 1 else ""]
        inside = f" ({len(fenced)} inside fenced code, which do not count)" if fenced else ""
        raise ReadmeRefused(where + f"needs exactly one {START} and one {END}, each alone on a line outside fenced "
                            f"code; found {' and '.join(s for s in said if s)}{inside}; nothing was written")
    if ends[0] < starts[0]:
        raise ReadmeRefused(where + f"{END} comes before {START}; nothing was written")
    return starts[0] + 1, ends[0]


def with_table(text: str, table: str, name: str) -> str:
    """text with its block holding table (in the file's own line endings)."""
    first, end = block(text, name)
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if "\r\n" in text else "\n"
    body = [line + newline for line in table.splitlines()]
    return "".join(lines[:first] + body + lines[end:])


def read(path: Path) -> bytes:
    """The README's bytes: a regular file reached through no symlink, at most 4 MiB."""
    from ..core.paths import PathProblem, read_regular

    try:
        if stat.S_ISLNK(os.lstat(path).st_mode):
            raise ReadmeRefused(f"{path}: a symlink; nothing was written: name the file it points to")
        return read_regular(path, path.name, MAX_BYTES)
    except PathProblem as exc:
        raise ReadmeRefused(f"{path}: {exc.message}; nothing was written") from None
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
