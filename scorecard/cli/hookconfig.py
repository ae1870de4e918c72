"""The pre-commit config `scorecard init` writes: the hook that validates the ledger on every commit, installed
from where the running scorecard came from (workflow.Origin), set to the ledger's folder where it is not the
repository's top."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .. import DISTRIBUTION, __version__

if TYPE_CHECKING:
    from .workflow import Origin

PRECOMMIT_REPO = """# pre-commit: validate the ledger on every commit (https://pre-commit.com). It runs without
# --strict, so a warning (example text, a suspect claim) shows but does not stop a commit; the
# workflow's pull-request check runs with --strict, as the publish does.
# pre-commit installs scorecard {version} from the repository and commit it came from (the hook
# is that repository's .pre-commit-hooks.yaml); `pre-commit autoupdate` moves it to the newest tag.
repos:
"""
HOOK_REPO = """  - repo: {repo}
    rev: {rev}  # scorecard {version}
    hooks:
      - id: scorecard-validate
        verbose: true   # pre-commit hides a passing hook's output: this shows its warnings too
"""
PRECOMMIT = """# pre-commit: validate the ledger on every commit (https://pre-commit.com). It runs without
# --strict, so a warning (example text, a suspect claim) shows but does not stop a commit; the
# workflow's pull-request check runs with --strict, as the publish does.
# pre-commit installs scorecard {version} into an environment of its own (language: python), so
# the hook works without activating a virtualenv; `pre-commit autoupdate` does not move it: edit
# the version below to upgrade.
repos:
"""
HOOK_LOCAL = """  - repo: local
    hooks:
      - id: scorecard-validate
        name: scorecard validate
        entry: scorecard validate
        language: python
        additional_dependencies: ["{distribution}=={version}"]
        pass_filenames: false
        verbose: true   # pre-commit hides a passing hook's output: this shows its warnings too
"""
HOOK_FILES = "(scorecard\\.yaml|claims/|evidence/|templates/|.*\\.md$)"


def precommit_entry(found: Origin, ledger: str = "") -> str:
    """The hook as one item of a config's repos: list: from the repository and commit found came from where it came
    from git, else the version pin. For a ledger in a subfolder (a repo.LEDGER_PATH), run there and only when a
    commit changes it."""
    pinned = bool(found.repo and found.rev)
    entry = f"# CHECK: {found.note}\n" if found.note else ""  # with the entry, in a config of its own or not
    entry += HOOK_REPO.format(repo=found.repo, rev=found.rev, version=__version__) if pinned else \
        HOOK_LOCAL.format(version=__version__, distribution=DISTRIBUTION)
    if ledger:
        entry += f'        args: [--root, "{ledger}"]   # the ledger\'s folder\n'
    if ledger or not pinned:
        entry += f"        files: ^{re.escape(ledger + '/') if ledger else ''}{HOOK_FILES}\n"
    return entry


def precommit_text(found: Origin, ledger: str = "") -> str:
    """The hook's config, installing scorecard from where found says (precommit_entry), with a CHECK line where
    that is a guess."""
    head = PRECOMMIT_REPO.format(version=__version__) if found.repo and found.rev else \
        PRECOMMIT.format(version=__version__)
    return head + precommit_entry(found, ledger)
