"""The pre-commit hook, through the real pre-commit framework, in a temporary git repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import LEDGERS, REPO

PRE_COMMIT = Path(sys.executable).parent / "pre-commit"


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def test_hook_file_is_a_plain_cli_call():
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    (hook,) = hooks
    assert hook["id"] == "scorecard-validate" and hook["language"] == "python"
    assert hook["entry"] == "scorecard validate" and hook["pass_filenames"] is False


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory):
    """A git repository holding a ledger, its .pre-commit-config.yaml pointing at this repository."""
    if not PRE_COMMIT.exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True)
    if head.returncode != 0:
        pytest.skip("this checkout is not a git repository")
    root = tmp_path_factory.mktemp("hook") / "ledger-repo"
    shutil.copytree(LEDGERS / "base", root)
    git("init", "-q", cwd=root)
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{
        "repo": str(REPO), "rev": head.stdout.strip(), "hooks": [{"id": "scorecard-validate"}]}]}))
    git("add", "-A", cwd=root)
    env = {**os.environ, "PRE_COMMIT_HOME": str(root.parent / "cache")}
    return root, env


def run_hook(root, env):
    return subprocess.run([str(PRE_COMMIT), "run", "--all-files"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=900)


def test_clean_ledger_passes_and_broken_fails_naming_the_file(hook_repo):
    root, env = hook_repo
    proc = run_hook(root, env)
    if proc.returncode == 3 and "pip" in proc.stdout + proc.stderr and os.environ.get("CI") != "true":
        pytest.skip(f"pre-commit could not install the hook environment: {(proc.stdout + proc.stderr)[-400:]}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "scorecard validate" in proc.stdout and "Passed" in proc.stdout

    record = root / "claims/core/alpha.yaml"
    record.write_text(record.read_text().replace("  source: https://example.org/alpha", "  soruce: https://example.org/alpha"))
    git("add", "-A", cwd=root)
    proc = run_hook(root, env)
    assert proc.returncode == 1
    assert "Failed" in proc.stdout
    assert "claims/core/alpha.yaml:8:3: error SC202 unknown field 'sota.soruce'" in proc.stdout
