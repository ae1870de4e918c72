"""Issue 43 item 1: `scorecard init` into the repository a team has. A ledger in a subfolder gets its hook and its
workflow at the top, where pre-commit and GitHub read them, set to its folder; a repository that publishes Pages
already gets a workflow that checks pull requests and publishes nothing; a monorepo holds two ledgers.

The promises: init never replaces or truncates a file the repository has; what it writes works where it is put
(the hook runs on the ledger's files only, the workflow's steps run in the ledger's folder, the pull-request job
always runs and checks nothing when the ledger is untouched, and fails on a false claim); a refusal writes nothing.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from actionsteps import run_job
from conftest import LEDGERS, run_cli
from gitrepo import commit, git, set_rps

BIN = Path(sys.executable).parent
WORKFLOW = ".github/workflows/scorecard-ledger.yml"
CONFIG = """# our hooks
repos:
  - repo: https://github.com/psf/black
    rev: 24.1.0
    hooks:
      - id: black
"""
PAGES_WORKFLOW = """name: docs
on: push
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/deploy-pages@v4
"""


PAGES_STEPS = {
    "action in other case": "jobs:\n  d:\n    steps:\n      - uses: 'Actions/Deploy-Pages@v4'\n",
    "mkdocs gh-deploy": "jobs:\n  d:\n    steps:\n      - run: |\n          pip install mkdocs\n"
                        "          mkdocs gh-deploy --force\n",
    "a comment": "jobs:\n  d:\n    steps:\n      # not yet: uses: actions/deploy-pages@v4\n      - run: make\n",
}


def _repository(tmp_path: Path, pages: str = "") -> Path:
    """A team's repository: its code, a .gitignore, a .pre-commit-config.yaml and, as pages says, what publishes
    GitHub Pages (a workflow, a gh-pages branch of its own or of its remote, a CNAME)."""
    top = tmp_path / "repo"
    (top / "src").mkdir(parents=True)
    (top / "src/app.py").write_text("print('app')\n")
    (top / ".gitignore").write_text("node_modules/\n")
    (top / ".pre-commit-config.yaml").write_text(CONFIG)
    git(top, "init", "-q", "-b", "main")
    if pages == "workflow":
        (top / ".github/workflows").mkdir(parents=True)
        (top / ".github/workflows/docs.yml").write_text(PAGES_WORKFLOW)
    elif pages in ("CNAME", "docs/CNAME"):
        (top / pages).parent.mkdir(exist_ok=True)
        (top / pages).write_text("scorecard.example.org\n")
    commit(top, "the app", 0)
    if pages == "branch":
        git(top, "branch", "gh-pages")
    elif pages == "remote branch":
        git(top, "update-ref", "refs/remotes/origin/gh-pages", "HEAD")
    elif pages == "upstream branch":  # a fork's upstream publishes its own Pages, not this repository's
        git(top, "update-ref", "refs/remotes/upstream/gh-pages", "HEAD")
    elif pages in PAGES_STEPS:
        (top / ".github/workflows").mkdir(parents=True)
        (top / ".github/workflows/site.yml").write_text(PAGES_STEPS[pages])
        commit(top, "site", 0)
    return top


def _hook(top: Path, ledger: str) -> dict:
    """The scorecard hook of top's .pre-commit-config.yaml for ledger."""
    config = yaml.safe_load((top / ".pre-commit-config.yaml").read_text())
    return next(hook for repo in config["repos"] for hook in repo["hooks"]
                if hook["id"] == "scorecard-validate" and hook.get("args") == ["--root", ledger])


def test_a_ledger_in_a_subfolder_has_its_hook_and_workflow_at_the_top_and_every_old_byte_kept(tmp_path):
    top = _repository(tmp_path)
    proc = run_cli("init", "bench/ledger", cwd=top)
    assert proc.returncode == 0, proc.stderr
    assert "created bench/ledger/scorecard.yaml" in proc.stdout and f"created {WORKFLOW}" in proc.stdout
    assert ".pre-commit-config.yaml: added the scorecard-validate hook" in proc.stdout
    assert "next: cd bench/ledger && scorecard new performance/<id>" in proc.stdout
    assert (top / ".gitignore").read_text() == "node_modules/\n"  # the root's: not the ledger's to change
    assert (top / "bench/ledger/.gitignore").read_text() == "/site/\n/.site-*/\n"
    assert (top / ".pre-commit-config.yaml").read_text().startswith(CONFIG)
    assert not (top / "bench/ledger/.pre-commit-config.yaml").exists()
    assert not (top / "bench/ledger/.github").exists()
    hook = _hook(top, "bench/ledger")
    runs_on = re.compile(hook["files"])
    assert runs_on.search("bench/ledger/claims/performance/x.yaml") and runs_on.search("bench/ledger/scorecard.yaml")
    assert not any(runs_on.search(p) for p in ("src/app.py", "claims/x.yaml", "bench/ledgerx/scorecard.yaml",
                                                "bench/other/claims/x.yaml"))
    doc = yaml.safe_load((top / WORKFLOW).read_text())
    assert doc["defaults"] == {"run": {"working-directory": "bench/ledger"}}
    assert doc[True]["pull_request"] is None  # no filter: a required check always runs (pyyaml reads on: as True)
    assert doc[True]["push"] == {"paths": ["bench/ledger/**", WORKFLOW]}
    assert set(doc["jobs"]) == {"validate", "publish"}
    proc = run_cli("validate", cwd=top / "bench/ledger")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if (BIN / "pre-commit").exists():
        checked = run_cli_tool("pre-commit", "validate-config", str(top / ".pre-commit-config.yaml"))
        assert checked.returncode == 0, checked.stdout + checked.stderr


def run_cli_tool(name: str, *args: str):
    import subprocess

    return subprocess.run([str(BIN / name), *args], capture_output=True, text=True, timeout=120)


def test_init_with_no_folder_makes_the_ledger_here(tmp_path):
    top = _repository(tmp_path)
    (top / "perf").mkdir()
    proc = run_cli("init", "--ci", "none", cwd=top / "perf")
    assert proc.returncode == 0, proc.stderr
    assert (top / "perf/scorecard.yaml").is_file() and _hook(top, "perf")
    assert "next: cd . && scorecard new" in proc.stdout


def _pr(top: Path, branch: str, change) -> None:
    """A pull request's checkout: main as origin/main, branch made by change and committed."""
    git(top, "checkout", "-q", "main")
    git(top, "update-ref", "refs/remotes/origin/main", "main")
    git(top, "checkout", "-q", "-b", branch)
    change()
    commit(top, branch, 2)


def test_the_subfolder_workflow_checks_nothing_when_the_ledger_is_untouched_and_fails_on_a_false_claim(tmp_path):
    """The workflow's steps run as the runner runs them: in the ledger's folder; a pull request that leaves the ledger
    alone passes at once (a required check never waits), one that changes it runs the checks, which pass on an
    honest ledger and fail on a claim its evidence does not give; the default branch builds the site with history."""
    top = _repository(tmp_path)
    assert run_cli("init", "bench/ledger", cwd=top).returncode == 0
    ledger = top / "bench/ledger"
    shutil.rmtree(ledger / "claims/performance")  # init's empty category: --strict refuses it (SC008)
    shutil.copytree(LEDGERS / "base", ledger, dirs_exist_ok=True)  # a finished ledger: init's settings replaced
    commit(top, "the ledger", 1)
    doc = yaml.safe_load((top / WORKFLOW).read_text())
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}

    _pr(top, "app-only", lambda: (top / "src/app.py").write_text("print('app 2')\n"))
    ran = run_job(doc, "validate", top, env, tmp_path / "untouched")
    assert [r.returncode for r in ran] == [0] and "nothing to check" in (tmp_path / "untouched/summary.md").read_text()

    beta = ledger / "claims/core/beta.yaml"
    _pr(top, "reword", lambda: beta.write_text(beta.read_text().replace("title: ", "title: Renamed ", 1)))
    ran = run_job(doc, "validate", top, env, tmp_path / "touched")
    assert all(r.returncode == 0 for r in ran), [r.output for r in ran]
    assert sum("scorecard " in r.run for r in ran) == 3  # diff, validate, build
    assert "beta" in (tmp_path / "touched/summary.md").read_text()

    _pr(top, "false-claim", lambda: set_rps(ledger, 8))  # alpha says leads over a bar of 10 req/s
    ran = run_job(doc, "validate", top, env, tmp_path / "false")
    assert ran[-1].returncode == 1 and "scorecard validate --strict" in ran[-1].run and "alpha" in ran[-1].output

    git(top, "checkout", "-q", "main")
    ran = run_job(doc, "publish", top, env, tmp_path / "publish")
    assert all(r.returncode == 0 for r in ran), [r.output for r in ran]
    assert (tmp_path / "publish/temp/site/index.html").is_file()
    assert (tmp_path / "publish/temp/site/changes.html").is_file()
    assert not (ledger / "site").exists()


@pytest.mark.parametrize("pages, found", [
    ("workflow", ".github/workflows/docs.yml deploys GitHub Pages"),
    ("branch", "a gh-pages branch publishes GitHub Pages"),
    ("remote branch", "a gh-pages branch publishes GitHub Pages"),
    ("CNAME", "CNAME names a GitHub Pages domain"),
    ("docs/CNAME", "docs/CNAME names a GitHub Pages domain"),
    ("action in other case", ".github/workflows/site.yml deploys GitHub Pages"),
    ("mkdocs gh-deploy", ".github/workflows/site.yml deploys GitHub Pages"),
])
def test_a_repository_that_publishes_pages_already_gets_a_check_and_no_publish(tmp_path, pages, found):
    top = _repository(tmp_path, pages)
    proc = run_cli("init", "scorecard", cwd=top)
    assert proc.returncode == 0, proc.stderr
    assert f"note: {found}, so {WORKFLOW} checks pull requests and publishes nothing" in proc.stdout
    text = (top / WORKFLOW).read_text()
    doc = yaml.safe_load(text)
    assert set(doc["jobs"]) == {"validate"} and set(doc[True]) == {"pull_request"}
    assert f"#   {found}\n" in text and "deploy-pages" not in text and "pages: write" not in text


@pytest.mark.parametrize("pages", ["", "upstream branch", "a comment"])
def test_a_repository_with_no_pages_gets_the_publish(tmp_path, pages):
    top = _repository(tmp_path, pages)
    assert run_cli("init", "scorecard", cwd=top).returncode == 0
    assert set(yaml.safe_load((top / WORKFLOW).read_text())["jobs"]) == {"validate", "publish"}


def test_a_monorepo_holds_two_ledgers_each_with_its_hook_and_workflow(tmp_path):
    """The second ledger's workflow must have a name of its own (init never replaces a file), and checks pull requests
    only: the first one's publishes the repository's one Pages site."""
    top = _repository(tmp_path)
    assert run_cli("init", "ledgers/serving", cwd=top).returncode == 0
    before = {p: p.read_bytes() for p in top.rglob("*") if p.is_file() and ".git" not in p.parts}
    refused = run_cli("init", "ledgers/training", cwd=top)
    assert refused.returncode != 0 and WORKFLOW in refused.stderr and "nothing was written" in refused.stderr
    assert {p: p.read_bytes() for p in top.rglob("*") if p.is_file() and ".git" not in p.parts} == before
    assert not (top / "ledgers/training").exists()
    proc = run_cli("init", "ledgers/training", "--workflow-name", "scorecard-training", cwd=top)
    assert proc.returncode == 0, proc.stderr
    assert f"note: {WORKFLOW} deploys GitHub Pages" in proc.stdout
    second = yaml.safe_load((top / ".github/workflows/scorecard-training.yml").read_text())
    assert set(second["jobs"]) == {"validate"} and second["defaults"]["run"]["working-directory"] == "ledgers/training"
    assert second["name"] != yaml.safe_load((top / WORKFLOW).read_text())["name"]
    assert _hook(top, "ledgers/serving") and _hook(top, "ledgers/training")
    touched = next(s["run"] for s in second["jobs"]["validate"]["steps"] if s.get("id") == "touched")
    assert ":(top).github/workflows/scorecard-training.yml" in touched
    if (BIN / "pre-commit").exists():
        checked = run_cli_tool("pre-commit", "validate-config", str(top / ".pre-commit-config.yaml"))
        assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("args, said", [
    (["has space/ledger"], "cannot name a ledger folder"),
    (["-x"], None),  # click reads it as an option: a usage error
    (["ok", "--workflow-name", "../escape.yml"], "is not a file name"),
    (["ok", "--workflow-name", ".hidden.yml"], "is not a file name"),
])
def test_a_folder_or_workflow_name_init_cannot_write_safely_is_refused_and_nothing_written(tmp_path, args, said):
    top = _repository(tmp_path)
    before = sorted(p.relative_to(top) for p in top.rglob("*") if ".git" not in p.parts)
    proc = run_cli("init", *args, cwd=top)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    if said:
        assert said in proc.stderr and "nothing was written" in proc.stderr
    assert sorted(p.relative_to(top) for p in top.rglob("*") if ".git" not in p.parts) == before


def test_a_dry_run_in_a_subfolder_says_every_path_from_the_top_and_writes_nothing(tmp_path):
    top = _repository(tmp_path)
    before = {p: p.read_bytes() for p in top.rglob("*") if p.is_file() and ".git" not in p.parts}
    proc = run_cli("init", "--dry-run", "bench/ledger", cwd=top)
    assert proc.returncode == 0, proc.stderr
    assert f"would create {WORKFLOW}" in proc.stdout and "would create bench/ledger/scorecard.yaml" in proc.stdout
    assert "would change .pre-commit-config.yaml: added the scorecard-validate hook" in proc.stdout
    assert {p: p.read_bytes() for p in top.rglob("*") if p.is_file() and ".git" not in p.parts} == before
    assert not (top / "bench").exists()


def test_a_folder_that_is_a_dangling_link_is_refused_with_a_sentence(tmp_path):
    (tmp_path / "ledger").symlink_to(tmp_path / "nowhere" / "x")
    proc = run_cli("init", "ledger", cwd=tmp_path)
    assert proc.returncode == 2 and "nothing was written" in proc.stderr and "internal error" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ledger"]


# --- the hostile pass on init into a repository ------------------------------------------------------------------

def _tree(top: Path) -> dict:
    return {p.relative_to(top): (p.read_bytes() if p.is_file() else None) for p in top.rglob("*")
            if ".git" not in p.relative_to(top).parts}


@pytest.mark.parametrize("setup, args, said", [
    (lambda top: (top / ".github").write_text("not a folder\n"), ["led"], ".github is not a folder"),
    (lambda top: None, ["led", "--workflow-name", "w" * 300], "nothing was written"),
    (lambda top: None, ["x" * 300], "nothing was written"),
    (lambda top: None, ["led", "--title", "caf\udcff"], "not UTF-8"),
    (lambda top: None, [".git/hooks/led"], "inside a .git folder"),
    (lambda top: (top / ".github/workflows").mkdir(parents=True) or
     (top / WORKFLOW).write_text("name: theirs\n"), ["led", "--dry-run"], "refusing to overwrite"),
])
def test_a_refusal_leaves_the_repository_as_it_was(tmp_path, setup, args, said):
    """Every refusal before the first byte: no edited config, no empty folders, a sentence and exit 2 (the hostile
    pass found an appended hook and empty folders after 'nothing was kept', and exit 3 for a long name or a title in
    the terminal's own bytes; a dry run said 'would create' of a workflow the run refuses to overwrite)."""
    top = _repository(tmp_path)
    setup(top)
    before = _tree(top)
    env = {"PYTHONUTF8": "0"} if any("\udcff" in a for a in args) else None
    import subprocess

    from conftest import scorecard_command

    proc = subprocess.run([*scorecard_command(), "init", *[a.encode("utf-8", "surrogateescape") for a in args]],
                          cwd=top, capture_output=True, timeout=120, env={**os.environ, **(env or {})})
    out = (proc.stdout + proc.stderr).decode("utf-8", "replace")
    assert proc.returncode == 2, out
    assert said in out and "internal error" not in out
    assert _tree(top) == before


def test_a_broken_repository_is_refused_not_taken_for_no_repository(tmp_path):
    """git failing inside a repository (a broken config) put the hook config and the workflow in the ledger's own
    folder, where nothing reads them, with exit 0."""
    top = _repository(tmp_path)
    with (top / ".git/config").open("a") as config:
        config.write("[core\nbroken\n")
    proc = run_cli("init", "sub/led", cwd=top)
    assert proc.returncode == 2 and "git cannot read" in proc.stderr and "nothing was written" in proc.stderr
    assert not (top / "sub").exists()


def test_a_bare_repository_is_refused(tmp_path):
    bare = tmp_path / "bare.git"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    proc = run_cli("init", "led", cwd=bare)
    assert proc.returncode == 2 and "nothing was written" in proc.stderr, proc.stdout + proc.stderr
    assert not (bare / "led").exists()


def test_annotations_name_files_from_the_repositorys_top_in_a_subfolder_ledger(tmp_path):
    """GitHub places an annotation by its path from the repository's top; the workflow's steps run in the ledger's
    folder, so the paths were the ledger's own (scorecard.yaml, not bench/ledger/scorecard.yaml)."""
    top = _repository(tmp_path)
    assert run_cli("init", "bench/ledger", "--ci", "none", cwd=top).returncode == 0
    (top / "bench/ledger/claims/performance/x.yaml").write_text("title: [\n")
    proc = run_cli("validate", "--format", "github", cwd=top / "bench/ledger", env={"GITHUB_WORKSPACE": str(top)})
    assert "::error file=bench/ledger/claims/performance/x.yaml,line=2" in proc.stdout, proc.stdout
    sarif = run_cli("validate", "--format", "sarif", cwd=top / "bench/ledger", env={"GITHUB_WORKSPACE": str(top)})
    assert '"uri": "bench/ledger/claims/performance/x.yaml"' in sarif.stdout
    plain = run_cli("validate", cwd=top / "bench/ledger", env={"GITHUB_WORKSPACE": str(top)})
    assert plain.stdout.startswith("claims/performance/x.yaml:2:")  # the terminal's paths stay the ledger's
