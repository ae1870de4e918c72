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
    hook, readme = hooks
    assert hook["id"] == "scorecard-validate" and hook["language"] == "python"
    assert hook["entry"] == "scorecard validate" and hook["pass_filenames"] is False
    assert readme["id"] == "scorecard-readme" and readme["entry"] == "scorecard export --check --readme README.md"
    assert readme["pass_filenames"] is False


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
        "repo": str(REPO), "rev": head.stdout.strip(), "hooks": [{"id": "scorecard-validate"},
                                                                 {"id": "scorecard-readme"}]}]}))
    (root / "README.md").write_text("# Ours\n\n<!-- scorecard:start -->\n<!-- scorecard:end -->\n")
    from conftest import run_cli

    assert run_cli("export", "--readme", "README.md", cwd=root).returncode == 0
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
    assert "scorecard README table is current" in proc.stdout  # the second hook, from the same repository
    title = root / "claims/core/beta.yaml"
    title.write_text(title.read_text().replace("title: Beta latency", "title: Beta latency renamed"))
    git("add", "-A", cwd=root)
    stale = run_hook(root, env)
    assert stale.returncode == 1 and "stale" in stale.stdout, stale.stdout
    title.write_text(title.read_text().replace("title: Beta latency renamed", "title: Beta latency"))
    git("add", "-A", cwd=root)

    record = root / "claims/core/alpha.yaml"
    record.write_text(record.read_text().replace("  source: https://example.org/alpha", "  soruce: https://example.org/alpha"))
    git("add", "-A", cwd=root)
    proc = run_hook(root, env)
    assert proc.returncode == 1
    assert "Failed" in proc.stdout
    assert "claims/core/alpha.yaml:8:3: error SC202 unknown field 'sota.soruce'" in proc.stdout


def test_the_config_init_writes_installs_scorecard_into_pre_commits_own_environment(tmp_path):
    """Issue 26: `init` wrote `language: system`, so `pre-commit run` failed with "Executable `scorecard` not found"
    unless a virtualenv was active. The config it writes now has pre-commit install the same scorecard version;
    run here through the real framework, from a wheel built from this checkout (PIP_FIND_LINKS), with no scorecard
    on the PATH."""
    from scorecard import DISTRIBUTION, __version__

    if not PRE_COMMIT.exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    root = tmp_path / "ledger"
    from conftest import run_cli

    assert run_cli("init", str(root), "--subject", "oursys", "--title", "Test").returncode == 0
    config = yaml.safe_load((root / ".pre-commit-config.yaml").read_text())
    (hook,) = config["repos"][0]["hooks"]
    assert hook["language"] == "python" and hook["additional_dependencies"] == [f"{DISTRIBUTION}=={__version__}"]
    assert subprocess.run([str(PRE_COMMIT), "validate-config", str(root / ".pre-commit-config.yaml")],
                          capture_output=True).returncode == 0
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                           if not (Path(p) / "scorecard").exists())  # no scorecard but pre-commit's own
    env = {**os.environ, "PATH": path, "PRE_COMMIT_HOME": str(tmp_path / "cache"), "PIP_FIND_LINKS": str(wheels)}
    env.pop("VIRTUAL_ENV", None)
    proc = subprocess.run([str(PRE_COMMIT), "run", "--all-files"], cwd=root, env=env, capture_output=True, text=True,
                          timeout=900)
    if proc.returncode == 3 and "pip" in proc.stdout + proc.stderr and os.environ.get("CI") != "true":
        pytest.skip(f"pre-commit could not install the hook environment: {(proc.stdout + proc.stderr)[-400:]}")
    assert proc.returncode == 0 and "scorecard validate" in proc.stdout and "Passed" in proc.stdout, \
        proc.stdout + proc.stderr
