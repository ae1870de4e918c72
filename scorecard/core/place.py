"""The ledger's place: its root, safe reads inside it, its git repository and the dates the run reckons from.

One `LedgerPlace` is made per run, by the pipeline (or a command), and handed down: no stage below the
pipeline takes a bare root path, so every read inside the ledger goes through the same checks
(core/paths.py), git is asked for the repository once, and every stage reads the run's dates from one value:
the check's today, and the date SOURCE_DATE_EPOCH pins (the site's "as of" without it is the newest date in
the data, never the clock).

Lazy import: core.git, on first use (the pre-commit hook's validate of a ledger without stamps never runs git).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from .dates import utc_date
from .paths import inside_root, resolve_inside


def source_date() -> date | None:
    """The date SOURCE_DATE_EPOCH names, or None when it is not set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return utc_date(int(epoch))
    return None


@dataclass(frozen=True, slots=True, eq=False)
class LedgerPlace:
    """Where a ledger is, and when the run is.

    root: the ledger's folder as the user named it; real: with every symlink resolved (the bound of
    every read). today: the check's reference date (ages, dates in the future). source_date: the
    date SOURCE_DATE_EPOCH pins, if any; the site shows no other date of the run.
    """

    root: Path
    today: date
    source_date: date | None = None
    real: Path = field(init=False)
    _repo: list[tuple[Path, str] | str] = field(init=False, repr=False)  # [] until asked, then git's answer or error

    def __post_init__(self) -> None:
        object.__setattr__(self, "real", self.root.resolve())
        object.__setattr__(self, "_repo", [])

    @classmethod
    def at(cls, root: Path, today: date | None = None, pinned: date | None = None) -> LedgerPlace:
        """The ledger at root for this run: the dates from SOURCE_DATE_EPOCH when set, else the clock's today.

        today and pinned replace them (tests, and a command that reckons from another date).
        """
        pinned = pinned if pinned is not None else source_date()
        return cls(root, today or pinned or date.today(), pinned)

    def path(self, rel: str) -> Path:
        """The path of a ledger file named by rel; core.paths.PathProblem when it is unsafe or leaves the root."""
        return resolve_inside(self.root, rel, self.real)

    def rel(self, path: Path) -> str:
        """A path under the root, as the ledger names it (forward slashes)."""
        top, text = str(self.root), str(path)  # pathlib's own text, normalised: cut as relative_to would, faster
        if len(text) > len(top) + 1 and text[len(top)] == os.sep and top[-1:] != os.sep and text.startswith(top):
            return text[len(top) + 1:].replace(os.sep, "/")
        return path.relative_to(self.root).as_posix()

    def stays_inside(self, path: Path, rel: str) -> Path:
        """The real path of path (a symlink or not); PathProblem when it leaves the root or loops."""
        return inside_root(path, self.real, rel)

    def repo(self) -> tuple[Path, str]:
        """(the top of the git work tree, the root relative to it with a trailing '/', or ''); GitError outside git.

        Asked of git once per place, the answer (or the error) kept.
        """
        from . import git

        if not self._repo:
            try:
                self._repo.append(git.repo_prefix(self.root))
            except git.GitError as exc:
                self._repo.append(str(exc))  # the message: a fresh error each time, no traceback kept
        found = self._repo[0]
        if isinstance(found, str):
            raise git.GitError(found)
        return found

    def last_commit_date(self, paths: list[str]) -> date | None:
        """The date of the newest commit that changed any of the ledger paths, or None (no git, no commit)."""
        from . import git

        try:
            return git.last_commit_date(*self.repo(), paths)
        except git.GitError:
            return None

    def last_change_dates(self, folder: str) -> dict[str, tuple[date, str]]:
        """For each file under the ledger folder in HEAD, (the date of its last commit, its blob id); {} outside git."""
        from . import git

        try:
            return git.last_change_dates(*self.repo(), folder)
        except git.GitError:
            return {}
