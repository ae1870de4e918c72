"""The GitHub Action (action.yml): each step's script run as a runner would, in a temporary repository."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import EPOCH, LEDGERS, REPO
from gitrepo import commit, git

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
STEPS = REPO / "action" / "steps.sh"


def test_every_run_step_calls_the_tested_script_and_every_input_is_used():
    runs = [s for s in ACTION["runs"]["steps"] if "run" in s]
    called = {m[1] for s in runs for m in [re.search(r'steps\.sh" (\w+)', s["run"])] if m}
    assert called == {"validate", "diff", "build", "verdict"}
    script = STEPS.read_text()
    for name in called:
        assert f"step_{name}()" in script
    text = (REPO / "action.yml").read_text()
    for name in ACTION["inputs"]:
        assert f"inputs.{name}" in text, f"input {name} is never used"
    for name, spec in ACTION["outputs"].items():
        _, key = re.search(r"steps\.(\w+)\.outputs\.([\w-]+)", spec["value"]).groups()
        assert key == name and f"output {name} " in script, name


@pytest.fixture
def repo(tmp_path):
    """A ledger repository with main, and a pull request branch that changes alpha's value."""
    root = tmp_path / "repo"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q", "-b", "main")
    base = commit(root, "start", 1)
    git(root, "checkout", "-q", "-b", "pr")
    run = root / "evidence/run.json"
    run.write_text(run.read_text().replace('"rps": 12', '"rps": 12.5'))
    commit(root, "faster", 2)
    return root, base


def runner(tmp_path: Path, root: Path, step: str, event: str = "pull_request", base: str = "", **inputs: str):
    """Run one step with the variables a GitHub runner sets; (exit status, summary, outputs, stderr)."""
    temp = tmp_path / "runner"
    temp.mkdir(parents=True, exist_ok=True)
    event_path = temp / "event.json"
    event_path.write_text(json.dumps({"pull_request": {"base": {"sha": base}, "number": 7}}))
    summary, output = temp / "summary.md", temp / "output"
    env = {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": str(event_path),
           "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(output), "RUNNER_TEMP": str(temp),
           "GITHUB_WORKSPACE": str(root), "SOURCE_DATE_EPOCH": EPOCH,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           **{f"INPUT_{k.upper()}": v for k, v in inputs.items()}}
    proc = subprocess.run(["bash", str(STEPS), step], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines()) if output.exists() else {}
    return proc.returncode, summary.read_text() if summary.exists() else "", outputs, proc.stdout + proc.stderr


def test_validate_annotates_and_keeps_going_so_the_summary_is_written(tmp_path, repo):
    root, _ = repo
    status, summary, outputs, log = runner(tmp_path, root, "validate", sarif="true")
    assert status == 0 and outputs["validate-status"] == "0" and "no errors" in summary
    sarif = json.loads(Path(outputs["sarif-file"]).read_text())
    assert sarif["version"] == "2.1.0"
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("status: leads", "status: trails"))
    status, summary, outputs, log = runner(tmp_path / "2", root, "validate")
    assert status == 0 and outputs["validate-status"] == "1"
    # The findings themselves in the summary, each ledger text in a code span.
    assert "**scorecard validate:** 1 error in 2 dimensions." in summary
    assert "- error SC502 at ` claims/core/alpha.yaml:10:9 `: ` status is trails, but the result is" in summary
    assert "::error file=claims/core/alpha.yaml,line=10" in log
    verdict = subprocess.run(["bash", str(STEPS), "verdict"], cwd=root, capture_output=True, text=True,
                             env={**os.environ, "VALIDATE_STATUS": "1"})
    assert verdict.returncode == 1 and "validate found problems" in verdict.stderr


def test_strict_fails_on_warnings(tmp_path, repo):
    root, _ = repo
    settings = root / "scorecard.yaml"
    settings.write_text(settings.read_text() + "require_review: true\n")  # SC802: a warning time does not raise
    assert runner(tmp_path, root, "validate")[2]["validate-status"] == "0"
    assert runner(tmp_path / "s", root, "validate", strict="true")[2]["validate-status"] == "1"


def test_diff_on_a_pull_request_compares_with_the_merge_base(tmp_path, repo):
    root, base = repo
    git(root, "checkout", "-q", "main")  # main moves on after the branch point: beta's bar changes
    beta = root / "claims/core/beta.yaml"
    beta.write_text(beta.read_text().replace("  value: 5", "  value: 4"))
    tip = commit(root, "main moves", 3)
    git(root, "checkout", "-q", "pr")
    status, summary, outputs, _ = runner(tmp_path, root, "diff", base=tip)  # the event names main's tip
    assert status == 0
    written = Path(outputs["diff-file"]).read_text()
    assert written == summary and "` alpha `" in written and "` beta `" not in written
    assert "12 req/s → 12.5 req/s" in written
    assert f"merge base of {tip[:7]} and this branch" in written and tip not in written  # short, in words


def test_diff_does_nothing_outside_pull_requests_and_says_why_it_cannot_compare(tmp_path, repo):
    root, _ = repo
    assert runner(tmp_path, root, "diff", event="push") == (0, "", {}, "")
    status, summary, outputs, _ = runner(tmp_path / "x", root, "diff", base="0" * 40)
    assert status == 0 and "could not compare" in summary and "fetch-depth: 0" in summary


def test_build_writes_the_site_only_when_asked(tmp_path, repo):
    root, _ = repo
    assert runner(tmp_path, root, "build")[2] == {}
    status, _, outputs, log = runner(tmp_path / "b", root, "build", build="true", history="true")
    assert status == 0, log
    site = Path(outputs["site"])
    assert (site / "index.html").is_file() and (site / "changes.html").is_file()


def test_the_diff_file_fits_a_comment_and_a_refused_build_shows_in_the_summary(tmp_path, repo):
    """Issue 40 item 11: the diff-file a comment step posts stays under GitHub's 65,536 characters (it ends with
    '… and N more'); a build the ledger makes fail says so in the job summary, not only in the log."""
    root, base = repo
    beta = (root / "claims/core/beta.yaml").read_text()
    for i in range(800):  # a pull request that adds 800 dimensions: about 100,000 characters of diff
        (root / f"claims/core/padded-dimension-{i:03}.yaml").write_text(beta.replace("Beta latency", f"Padded {i}"))
    commit(root, "many", 3)
    status, summary, outputs, _ = runner(tmp_path, root, "diff", base=base)
    written = Path(outputs["diff-file"]).read_text()
    assert status == 0 and len(written) < 65_536 and re.search(r"… and \d+ more changed dimensions", written)
    (root / "claims/core/alpha.yaml").write_text("title: [unclosed\n")
    status, summary, _, log = runner(tmp_path / "b", root, "build", build="true")
    assert status == 1 and "**scorecard build** refused:" in summary and "SC101" in summary
