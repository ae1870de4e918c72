"""What `scorecard init` adds to the files a repository already has (issue 43 item 1): a `.gitignore` and a
`.pre-commit-config.yaml` are edited, never replaced or truncated.

- `.gitignore`: the anchored lines `/site/` and `/.site-*/` are appended where no line ignores them already,
  in the file's own line endings.
- `.pre-commit-config.yaml`: the hook is appended as one entry of a block-style `repos:` list, and only where the
  result parses to the old data plus that entry; otherwise nothing is written and the lines to add are said.

A file is edited only if it is a regular file reached through no symlink, at most 1 MiB, UTF-8, and unchanged
since it was read (site.write.replace_files, atomically).

Lazy imports: pyyaml, core.paths and site.write, where a file already exists.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

IGNORED = ("/site/", "/.site-*/")
MAX_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Edit:
    """A file init adds to: its new bytes, the bytes it was read with, and what is said of it."""

    path: Path
    new: bytes
    original: bytes
    said: str


class Left(Exception):
    """A file init may not or cannot edit safely: what to do by hand."""


def _read(path: Path) -> tuple[bytes, str]:
    """(the bytes, the text) of an existing regular file that is no symlink, at most 1 MiB; Left else."""
    from ..core.paths import PathProblem, read_unlinked

    try:
        raw = read_unlinked(path, MAX_BYTES)
    except PathProblem as exc:
        raise Left(f"{path.name} is over 1 MiB" if exc.code == "SC408" else
                   f"{path.name} is not a regular file (a link or a special file)") from None
    except IsADirectoryError:
        raise Left(f"{path.name} is not a regular file (a link or a special file)") from None
    try:
        return raw, raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Left(f"{path.name} is not UTF-8 text") from None


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\r" if "\r" in text else "\n"


def _appended(text: str, lines: list[str]) -> str:
    newline = _newline(text)
    return text + ("" if not text or text.endswith(("\n", "\r")) else newline) + newline.join(lines) + newline


def gitignore(path: Path) -> Edit | None:
    """The lines init adds to an existing .gitignore (None when it ignores the site's folders already)."""
    raw, text = _read(path)
    have = {line.strip() for line in text.replace("\r", "\n").split("\n")}
    missing = [line for line in IGNORED if not {line, line.lstrip("/"), line.strip("/"), line.lstrip("/").rstrip("/")}
               & have]
    if not missing:
        return None
    return Edit(path, _appended(text, missing).encode("utf-8"), raw, f"added {', '.join(missing)}")


def precommit(path: Path, entry: str) -> Edit:
    """The hook entry (YAML lines of one item of repos:) appended to an existing .pre-commit-config.yaml; Left with
    the lines to add where the file is not a block-style repos: list ending the file, or the result would not be
    the old data plus that entry."""
    import yaml

    raw, text = _read(path)
    hint = "add these lines under its repos: list:\n" + entry
    try:
        old = yaml.safe_load(text)
        item = yaml.safe_load("repos:\n" + entry)["repos"]
        new_text = _appended(text, _indented_as(text, entry).rstrip("\n").split("\n"))
        new = yaml.safe_load(new_text)
    except yaml.YAMLError:
        raise Left(f"{path.name} has no block-style repos: list at its end to add to (with the hook appended it "
                   f"is not YAML); {hint}") from None
    if not isinstance(old, dict) or not isinstance(old.get("repos"), list) or \
            new != {**old, "repos": old["repos"] + item}:
        raise Left(f"{path.name} has no block-style repos: list at its end to add to; {hint}")
    said = "added the scorecard-validate hook"
    if "files" in old or "exclude" in old:
        said += " (check: its top-level files: or exclude: applies to every hook, and may keep this one from running)"
    return Edit(path, new_text.encode("utf-8"), raw, said)


def _indented_as(text: str, entry: str) -> str:
    """entry (an item written "  - repo:", its keys 4 spaces in) indented as the file's own repos: items are
    (pre-commit's sample-config writes "-   repo:")."""
    found = re.search(r"^repos:[ \t]*(?:#.*)?\r?\n(?:[ \t]*(?:#.*)?\r?\n)*([ ]*)-([ ]+)\S", text, re.M)
    if found is None or (found[1], found[2]) == ("  ", " "):
        return entry
    dash, keys = f"{found[1]}-{found[2]}", " " * (len(found[1]) + 1 + len(found[2]))
    return "".join(dash + line[4:] if line.startswith("  - ") else keys + line[4:] if line.startswith("    ")
                   else line for line in entry.splitlines(keepends=True))


def edits_of(folder: Path, files: dict[str, str], said: list[str], entry: str, rels: tuple[str, str]) -> list[Edit]:
    """The edits of the files folder has already (taken out of files), with a line each in said: rels names the
    .gitignore and the .pre-commit-config.yaml, relative to folder."""
    edits = []
    for rel in rels:
        path = folder / rel
        if not (path.exists() or path.is_symlink()):
            continue
        files.pop(rel)
        try:
            edit = gitignore(path) if rel == rels[0] else precommit(path, entry)
        except Left as exc:
            said.append(f"left {rel}: {exc}")
            continue
        except OSError as exc:
            said.append(f"left {rel}: it cannot be read ({exc.strerror})")
            continue
        if edit is None:
            said.append(f"left {rel}: it ignores the site's folders already")
        else:
            edits.append(edit)
            said.append(f"{rel}: {edit.said}")
    return edits


def apply(edits: list[Edit], folder: Path) -> None:
    """Write the edits atomically, each checked unchanged since read and reached through no link."""
    from ..site.write import replace_files

    replace_files({e.path: e.new for e in edits}, folder, {e.path: e.original for e in edits})
