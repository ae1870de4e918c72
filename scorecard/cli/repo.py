"""Where `scorecard init` puts a ledger in the repository it is in (issue 43 item 1).

A ledger at the top of a git work tree (or outside git) has its hook config and workflow beside it, as before. A
ledger in a subfolder has them where pre-commit and GitHub look, at the top: the hook with `--root <ledger>`, the
workflow with `working-directory: <ledger>`. Where the repository already publishes GitHub Pages, the workflow
checks pull requests only: one repository has one Pages site, and scorecard does not take it over.

Nothing here runs a program the repository configures: git is asked through core.git (its safe options), and
the files read (workflows, CNAME) are regular files, bounded, read as text.

Lazy import: core.git, only when init is asked to place a ledger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..core.findings import UserError

# A ledger folder's path as init writes it into YAML, a regular expression, a path filter and a shell's working
# directory: letters, digits, '.', '_' and '-' in each name (no name starting with '-' or '.'), so no file needs
# quoting rules of its own.
LEDGER_PATH = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*")
WORKFLOW_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\.ya?ml")
DEFAULT_WORKFLOW = "scorecard-ledger.yml"  # not scorecard.yml: OpenSSF Scorecard's workflow is often named so
# What deploys GitHub Pages from a workflow: an action a step uses (GitHub reads its name in any case), or a command
# a step runs that pushes a gh-pages branch. A comment naming one is not a use.
DEPLOYERS = re.compile(r"^[ \t]*(?:-[ \t]+)?(?:uses:[ \t]*['\"]?(?:actions/deploy-pages|peaceiris/actions-gh-pages|"
                       r"jamesives/github-pages-deploy-action|shalzz/zola-deploy-action)@|(?:run:|-|[^#\n]*\s)"
                       r"[^#\n]*\b(?:mkdocs gh-deploy|ghp-import)\b)", re.IGNORECASE | re.MULTILINE)
MAX_WORKFLOW_BYTES = 1024 * 1024


class PlaceRefused(UserError):
    """init cannot place a ledger where it was asked."""


@dataclass(frozen=True)
class Place:
    """Where init writes: the work tree's top folder (the ledger folder itself outside git), the ledger folder
    relative to it ('' at the top, else a LEDGER_PATH), and what already publishes GitHub Pages there ('' nothing)."""

    top: Path
    ledger: str
    pages: str = ""

    def rel(self, name: str) -> str:
        """A path in the ledger folder, relative to top."""
        return f"{self.ledger}/{name}" if self.ledger else name


def place(folder: Path, workflows: bool) -> Place:
    """The Place of a ledger to be made in folder (which may not exist yet); with workflows, what publishes Pages."""
    folder = Path(folder).absolute()
    if ".git" in folder.parts:
        raise PlaceRefused(f"{folder} is inside a .git folder, git's own store: make the ledger in the work tree; "
                           "nothing was written")
    base, rest = folder, list[str]()
    while not base.exists():
        rest.insert(0, base.name)
        base = base.parent
    top_and_prefix = _repo(base)
    if top_and_prefix is None:
        return Place(folder, "")
    top, prefix = top_and_prefix
    ledger = "/".join([*(p for p in prefix.split("/") if p), *rest])
    if ledger and not LEDGER_PATH.fullmatch(ledger):
        raise PlaceRefused(f"{ledger!r} cannot name a ledger folder in a repository: init writes it into the hook's "
                           "and the workflow's settings, so each name in it is letters, digits, '.', '_' and '-' "
                           "(not first); nothing was written")
    return Place(top, ledger, pages_found(top) if workflows else "")


def _repo(folder: Path) -> tuple[Path, str] | None:
    """(the work tree's top, folder's prefix in it) where folder is in a git work tree, else None (not in a
    repository). PlaceRefused where it is in one that git cannot read (git missing, a repository another user owns,
    a broken config, a bare repository): the hook and the workflow would land where nothing reads them."""
    from ..core import git

    try:
        top, prefix = git.repo_prefix(folder)
    except (git.GitError, OSError, ValueError) as exc:
        above = next((p for p in (folder, *folder.parents) if (p / ".git").exists()), None)
        if "not inside a git repository" in str(exc) and above is None:
            return None
        where = f" ({above}/.git)" if above is not None else ""
        raise PlaceRefused(f"{folder} is in a git repository{where} that git cannot read: {_one_line(str(exc))}; "
                           "init cannot find its top, where the hook config and the workflow go; nothing was written "
                           "(fix that, or make the ledger outside the repository)") from None
    return top.resolve(), prefix


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def pages_found(top: Path) -> str:
    """What publishes GitHub Pages from the repository at top already, in words ('' nothing found): a workflow
    using a Pages deploy action or command, a gh-pages branch (local or origin's), or a CNAME file (at the top or in
    docs/, the folders Pages publishes from). A reusable workflow or an action of the repository's own that deploys
    is not looked into: docs/getting-started.md says to use --ci none there."""
    workflows = top / ".github" / "workflows"
    for path in sorted(workflows.glob("*.y*ml")) if workflows.is_dir() else []:
        if _mentions(path, DEPLOYERS):
            return f".github/workflows/{path.name} deploys GitHub Pages"
    if _branch(top, "gh-pages"):
        return "a gh-pages branch publishes GitHub Pages"
    for rel in ("CNAME", "docs/CNAME"):
        if (top / rel).is_file():
            return f"{rel} names a GitHub Pages domain"
    return ""


def _mentions(path: Path, pattern: re.Pattern[str]) -> bool:
    """Whether the regular file at path (bounded, UTF-8 or not) holds a line pattern finds."""
    from ..core.paths import PathProblem, read_regular

    try:
        text = read_regular(path, path.name, MAX_WORKFLOW_BYTES).decode("utf-8", "replace")
    except (PathProblem, OSError):
        return False
    return pattern.search(text) is not None


def _branch(top: Path, name: str) -> bool:
    """Whether the repository has a branch name, its own or a remote's."""
    from ..core import git

    try:
        return bool(git.run(["for-each-ref", "--format=%(refname)", f"refs/heads/{name}",
                             f"refs/remotes/origin/{name}"], top).strip())  # a fork's upstream is not this one
    except (git.GitError, OSError):
        return False


def workflow_name(name: str | None) -> str:
    """The workflow's file name (--workflow-name; '.yml' added when it has no suffix); PlaceRefused else."""
    name = name or DEFAULT_WORKFLOW
    if not name.endswith((".yml", ".yaml")):
        name += ".yml"
    if not WORKFLOW_NAME.fullmatch(name):
        raise PlaceRefused(f"--workflow-name {name!r} is not a file name of letters, digits, '.', '_' and '-' "
                           "ending .yml; nothing was written")
    return name
