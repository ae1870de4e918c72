"""Resolving a user-given path safely inside the ledger root."""

from __future__ import annotations

import re
from pathlib import Path

_DRIVE = re.compile(r"^[A-Za-z]:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


class PathProblem(Exception):
    """A path that cannot be used: code is the rule, message says why."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


def is_url(text: str) -> bool:
    """Whether text has a URL scheme (a drive letter such as C: is not one)."""
    return bool(_SCHEME.match(text))


def resolve_inside(root: Path, rel: str, real_root: Path | None = None) -> Path:
    """The file rel names inside root; raise PathProblem if it is unsafe or leaves the root."""
    escape_hint = "use a path relative to the ledger root, inside it, with forward slashes"
    if not rel or rel != rel.strip():
        raise PathProblem("SC404", f"path '{rel}' is empty or has surrounding spaces", escape_hint)
    if "\\" in rel:
        raise PathProblem("SC404", f"path '{rel}' contains a backslash", escape_hint)
    if rel.startswith("/") or _DRIVE.match(rel):
        raise PathProblem("SC404", f"path '{rel}' is absolute", escape_hint)
    if "\x00" in rel or any(part == ".." for part in rel.split("/")):
        raise PathProblem("SC404", f"path '{rel}' leaves the ledger root", escape_hint)
    path = root / rel
    real = path.resolve()
    if not real.is_relative_to(real_root or root.resolve()):
        raise PathProblem("SC404", f"path '{rel}' goes through a symlink that leaves the ledger root",
                          "replace the symlink with the file itself")
    return path


def normalise(rel: str) -> str:
    """rel with ./ and empty segments removed, for comparing and linking."""
    return "/".join(part for part in rel.split("/") if part not in ("", "."))
