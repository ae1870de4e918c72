"""Writing a new ledger's files (scorecard init and new): every file or none, never over a file that exists, never
out of the folder through a link, and every refusal before the first byte is written."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path

from ..core.findings import UserError


class ScaffoldRefused(UserError):
    """The scaffold would overwrite something, or was asked for something invalid."""


NAME_MAX = 255  # bytes in one name: Linux, macOS and Windows alike


def short_names(path: Path) -> None:
    """ScaffoldRefused where a name in path is longer than a disk takes (checked before any use of the path)."""
    long = next((name for name in path.parts if len(name.encode("utf-8", "surrogateescape")) > NAME_MAX), None)
    if long is not None:
        raise ScaffoldRefused(f"the name {long[:40]}… is {len(long)} characters, over the {NAME_MAX} a disk takes; "
                              "nothing was written")


def writable(root: Path, files: dict[str, str]) -> None:
    """ScaffoldRefused, before anything is written, if any path exists (a symlink, even dangling, included), its
    nearest existing folder is not a writable folder or leads out of root through a symlink, a name is too long
    for the disk, or a text is not UTF-8 (a title given in the terminal's own bytes)."""
    for rel in files:
        short_names(root / rel)
    try:
        _check_writable(root, files)
    except OSError as exc:  # a name too long, a folder that cannot be listed
        raise ScaffoldRefused(f"cannot write under {root}: {exc.strerror}; nothing was written") from None
    for rel, text in files.items():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ScaffoldRefused(f"{rel} would hold text that is not UTF-8 (a --title or --subject in the "
                                  "terminal's own bytes?); nothing was written") from None


def _check_writable(root: Path, files: dict[str, str]) -> None:
    real_root = root.resolve()
    clashes = sorted(rel for rel in files if (root / rel).exists() or (root / rel).is_symlink())
    if clashes:
        hint = " (--workflow-name gives this ledger's workflow a name of its own)" if any(
            rel.startswith(".github/workflows/") for rel in clashes) else ""
        raise ScaffoldRefused(f"refusing to overwrite {', '.join(clashes)}{hint}; nothing was written")
    for rel in files:
        folder = (root / rel).parent
        while not (folder.exists() or folder.is_symlink()) and folder != root.parent:
            folder = folder.parent
        if not (folder.exists() or folder.is_symlink()):
            continue
        if not folder.resolve().is_relative_to(real_root) and folder.resolve() != real_root.parent:
            raise ScaffoldRefused(f"refusing to write {rel}: {folder} leads out of {root} through a symlink; "
                                  "nothing was written")
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            what = "is not a folder" if not folder.is_dir() else "is not writable"
            raise ScaffoldRefused(f"cannot write {rel}: {folder} {what}; nothing was written")


def write_all(root: Path, files: dict[str, str], then: Callable[[], None] | None = None) -> list[str]:
    """Write every file, then do what then does (init's edits of existing files), or none of it: writable first,
    and on any error remove what was written and the folders made for it."""
    writable(root, files)
    written: list[Path] = []
    made: list[Path] = []
    try:
        for rel, text in files.items():
            path = root / rel
            missing = [f for f in (path.parent, *path.parent.parents) if not (f.exists() or f.is_symlink())]
            path.parent.mkdir(parents=True, exist_ok=True)
            made += reversed(missing)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            fd = os.open(path, flags, 0o644)
            written.append(path)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
        if then is not None:
            then()
    except (OSError, ScaffoldRefused) as exc:
        for path in written:
            path.unlink(missing_ok=True)
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        if isinstance(exc, ScaffoldRefused):
            raise ScaffoldRefused(f"{exc}; nothing was kept") from None
        raise ScaffoldRefused(f"cannot write {exc.filename or root}: {exc.strerror}; nothing was kept") from None
    return sorted(files)
