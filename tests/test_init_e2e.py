"""Issue 43, done means: for each place scorecard can be installed from (a version pin on the package index, a git
URL and commit, a local checkout that no runner can reach), `init` into a repository that has its own .gitignore,
.pre-commit-config.yaml and Pages workflow; then the real `pre-commit run --all-files`, and the workflow's steps
as the runner runs them, its install line included, each passing on an honest ledger and failing on a false claim.

Offline: one wheel built from this checkout and one local index (this checkout's dependencies, downloaded once into
tests/.cache/ keyed by them and this Python) serve pip, pre-commit's hook environments and the workflow's install
line alike (PIP_NO_INDEX, PIP_FIND_LINKS). The git origin is this checkout's HEAD, cloned by pre-commit and pip.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from actionsteps import run_job
from conftest import LEDGERS, REPO
from gitrepo import commit, git, set_rps

pytestmark = pytest.mark.slow
BIN = Path(sys.executable).parent
CACHE = REPO / "tests" / ".cache"
CONFIG = """# the team's own hooks
repos:
  - repo: local
    hooks:
      - id: no-tabs
        name: no tabs in Python
        entry: "\\t"
        language: pygrep
        files: \\.py$
"""
PAGES_WORKFLOW = """name: docs
on: push
permissions: {}
jobs:
  deploy:
    runs-on: ubuntu-latest
    permissions:
      pages: write
      id-token: write
    steps:
      - uses: actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128  # v5.0.0
"""


def _offline(why: str) -> None:
    """Skip where the package index cannot be reached to fill the cache, except in CI, where that fails."""
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    """A folder of wheels pip installs scorecard from with no network: this checkout's wheel, its dependencies and
    the build backend (for the git origin's source build and pre-commit's own placeholder package)."""
    if not (BIN / "pre-commit").exists():
        pytest.skip("pre-commit is not installed (pip install -e '.[test]')")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    wanted = sorted([*project["project"]["dependencies"], *project["build-system"]["requires"], "wheel"])
    key = hashlib.sha256(json.dumps([wanted, sys.version_info[:2], sys.platform]).encode()).hexdigest()[:16]
    deps = CACHE / f"wheelhouse-{key}"
    if not (deps / "complete").exists():
        shutil.rmtree(deps, ignore_errors=True)
        got = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                              "-d", str(deps), *wanted], capture_output=True, text=True, timeout=600)
        if got.returncode != 0:
            _offline(f"could not fill the local index: {got.stderr[-400:]}")
        (deps / "complete").write_text("")
    folder = tmp_path_factory.mktemp("index")
    for wheel in deps.iterdir():
        if wheel.name != "complete":
            (folder / wheel.name).symlink_to(wheel)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(folder), str(REPO)],
                           capture_output=True, text=True, timeout=600,
                           env={**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(deps)})
    assert built.returncode == 0, built.stderr
    return folder


@pytest.fixture(scope="module")
def hooks_home(tmp_path_factory) -> Path:
    """pre-commit's cache, shared by the origins (two of them install the same hook)."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _origin(kind: str, tmp_path: Path):
    """The Origin init writes its install lines from, as workflow.origin makes it for each kind."""
    from scorecard.cli import workflow

    if kind == "index":
        return workflow.origin(None)
    if kind == "git":
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True)
        if head.returncode != 0:
            pytest.skip("this checkout is not a git repository")
        # A file: URL is never what origin() makes (no runner reaches it); the test's stand-in for an https one, with
        # a host, as a requirement's URL must have for pip's older parser.
        url, rev = REPO.as_uri(), head.stdout.strip()
        return workflow.Origin(f"scorecard-ledger @ git+file://localhost{REPO.as_posix()}@{rev}", "", url, rev)
    checkout = tmp_path / "checkout"  # pip install -e of a checkout whose remote no runner can reach
    checkout.mkdir()
    git(checkout, "init", "-q", "-b", "main")
    commit(checkout, "first", 0)
    found = workflow.origin(json.dumps({"url": checkout.as_uri(), "dir_info": {"editable": True}}))
    assert found.note and found.repo is None
    return found


def _environment(index: Path, hooks_home: Path, venv: Path | None = None) -> dict[str, str]:
    path = os.environ["PATH"].split(os.pathsep)
    path = [p for p in path if not (Path(p) / "scorecard").exists()]  # no scorecard but the one installed here
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(index), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "PRE_COMMIT_HOME": str(hooks_home), "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "PATH": os.pathsep.join([*([str(venv / "bin")] if venv else []), *path])}
    for name in ("VIRTUAL_ENV", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CONFIG_FILE"):
        env.pop(name, None)
    env["PIP_CONFIG_FILE"] = os.devnull  # the machine's pip.conf may name other indexes
    return env


def _pre_commit(top: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "pre-commit"), "run", "--all-files"], cwd=top, env=env, capture_output=True,
                          text=True, timeout=900)


@pytest.mark.parametrize("kind, ledger", [("index", "bench/scorecard"), ("git", ""), ("checkout", "scorecard")])
def test_init_into_a_repository_then_its_hook_and_its_workflow_pass_an_honest_ledger_and_fail_a_false_claim(
        tmp_path, index, hooks_home, kind, ledger):
    from scorecard.cli import scaffold

    top = tmp_path / "repo"
    (top / ".github/workflows").mkdir(parents=True)
    (top / ".github/workflows/docs.yml").write_text(PAGES_WORKFLOW)
    (top / ".gitignore").write_text("__pycache__/\n")
    (top / ".pre-commit-config.yaml").write_text(CONFIG)
    (top / "app.py").write_text("print('app')\n")
    git(top, "init", "-q", "-b", "main")
    commit(top, "the app", 0)
    folder = top / ledger if ledger else top
    found = _origin(kind, tmp_path)
    said: list[str] = []
    made = scaffold.init(folder, install=found, said=said)
    assert made.top.resolve() == top.resolve()
    assert ".pre-commit-config.yaml: added the scorecard-validate hook" in said
    assert any("docs.yml deploys GitHub Pages" in line for line in said)
    assert ("# CHECK: " in (top / ".pre-commit-config.yaml").read_text()) == (kind == "checkout")
    shutil.rmtree(folder / "claims/performance")  # the empty category init writes: --strict refuses it
    shutil.copytree(LEDGERS / "base", folder, dirs_exist_ok=True)
    commit(top, "the ledger", 1)
    git(top, "update-ref", "refs/remotes/origin/main", "main")

    env = _environment(index, hooks_home)
    proc = _pre_commit(top, env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "scorecard validate" in proc.stdout and "Passed" in proc.stdout and "no tabs" in proc.stdout

    venv = tmp_path / "runner"  # the runner's Python, with nothing installed yet
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    runner = _environment(index, hooks_home, venv)
    doc = yaml.safe_load((top / ".github/workflows/scorecard-ledger.yml").read_text())
    assert set(doc["jobs"]) == {"validate"}  # the repository publishes Pages already
    git(top, "checkout", "-q", "-b", "reword")
    beta = folder / "claims/core/beta.yaml"
    beta.write_text(beta.read_text().replace("title: ", "title: Renamed ", 1))
    commit(top, "reword", 2)
    ran = run_job(doc, "validate", top, runner, tmp_path / "honest", install=True)
    assert ran and all(r.returncode == 0 for r in ran), [(r.run, r.output[-800:]) for r in ran]
    assert any("pip install" in r.run for r in ran) and (venv / "bin/scorecard").exists()
    assert sum("scorecard " in r.run and "pip install" not in r.run for r in ran) == 3

    git(top, "checkout", "-q", "-b", "false-claim")
    set_rps(folder, 8)  # alpha says it leads a bar of 10 req/s
    git(top, "add", "-A")
    proc = _pre_commit(top, env)
    assert proc.returncode == 1 and "Failed" in proc.stdout and "claims/core/alpha.yaml" in proc.stdout, proc.stdout
    commit(top, "false claim", 3)
    ran = run_job(doc, "validate", top, runner, tmp_path / "false", install=True)
    assert ran[-1].returncode == 1 and "scorecard validate --strict" in ran[-1].run, ran[-1].output
    assert "alpha.yaml" in ran[-1].output
