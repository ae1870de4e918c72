"""git runs nothing and fetches nothing, whatever the repository's own configuration says (issue 40 item 2).

The promise: a ledger's repository (its .git/config, refs and objects are the pull request's when it comes as an
archive, a fork's branch or a local clone) cannot make scorecard start a program, fetch, or read other commits
than the ones its first-parent history names; and one commit git cannot parse never ends a command in an error.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import LEDGERS, run_cli
from gitrepo import commit, git, set_rps

READERS = (["history"], ["history", "alpha"], ["diff", "HEAD~1", "HEAD"], ["validate"],
           ["review", "--all", "--dry-run"])


def _two_commits(tmp_path: Path) -> Path:
    root = shutil.copytree(LEDGERS / "base", tmp_path / "ledger")
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("claim: 12 req/s", "claim: ${value}"))  # follows the rerun
    git(root, "init", "-q", "-b", "main")
    commit(root, "start", 1)
    set_rps(root, 13)
    commit(root, "second", 2)
    return root


def _run_all(root: Path, tmp_path: Path) -> list:
    runs = []
    for args in (*READERS, ["build", "--history", "--out", str(tmp_path / "site")]):
        proc = run_cli(*args, cwd=root)
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr and "internal error" not in proc.stderr, (
            args, proc.stderr)
        runs.append(proc)
    return runs


@pytest.mark.parametrize("allow_file", [False, True])
def test_a_promisor_remote_never_runs_its_upload_pack(tmp_path, allow_file):
    """A partial clone's promisor remote with a shell upload-pack: a missing object would be fetched lazily,
    running the program, during build, diff, history and review."""
    root = _two_commits(tmp_path)
    old = git(root, "rev-parse", "HEAD~1:evidence/run.json").strip()
    (root / ".git/objects" / old[:2] / old[2:]).unlink()  # the object a lazy fetch would ask the remote for
    marker = tmp_path / "marker"
    for key, value in [("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                       ("remote.origin.url", str(tmp_path / "nowhere")), ("remote.origin.promisor", "true"),
                       ("remote.origin.uploadpack", f"sh -c 'echo ran >> {marker}; exit 1'")]:
        git(root, "config", key, value)
    if allow_file:  # a repository may allow a protocol; scorecard's refusal is not a setting it can undo
        git(root, "config", "protocol.file.allow", "always")
    _run_all(root, tmp_path)
    assert not marker.exists(), marker.read_text()


def test_replace_refs_and_grafts_change_nothing(tmp_path):
    root = _two_commits(tmp_path)
    before = [p.stdout for p in _run_all(root, tmp_path)[:3]]
    first = git(root, "rev-parse", "HEAD~1").strip()
    git(root, "replace", "HEAD", first)  # HEAD would read as the first commit
    (root / ".git/info").mkdir(exist_ok=True)
    (root / ".git/info/grafts").write_text(git(root, "rev-parse", "HEAD").strip() + "\n")  # HEAD without parents
    after = [p.stdout for p in _run_all(root, tmp_path)[:3]]
    assert after == before
    assert "13 req/s" in after[0] and "12 req/s" in after[0]


def test_a_log_encoding_of_utf16_changes_nothing(tmp_path):
    root = _two_commits(tmp_path)
    before = [p.stdout for p in _run_all(root, tmp_path)[:3]]
    git(root, "config", "i18n.logOutputEncoding", "UTF-16")
    assert [p.stdout for p in _run_all(root, tmp_path)[:3]] == before


def test_a_commit_git_cannot_date_is_named_in_a_note_never_an_error(tmp_path):
    root = _two_commits(tmp_path)
    raw = git(root, "cat-file", "commit", "HEAD")
    crafted = "".join(line if not line.startswith(("author ", "committer ")) else
                      line.split(">")[0] + "> notadate +0000\n" for line in raw.splitlines(keepends=True))
    (tmp_path / "commit.txt").write_text(crafted)
    bad = git(root, "hash-object", "-t", "commit", "-w", "--literally", str(tmp_path / "commit.txt")).strip()
    git(root, "update-ref", "refs/heads/main", bad)
    runs = _run_all(root, tmp_path)
    history = runs[0]
    assert history.returncode == 0
    assert f"Commit {bad[:7]} has a date git cannot read" in history.stdout + history.stderr
    assert "12 req/s → 13 req/s" in history.stdout  # its changes are still shown, dated as the commit before
    assert all(p.returncode == 0 for p in runs), [(p.args, p.stdout, p.stderr) for p in runs if p.returncode]
    events = json.loads((tmp_path / "site/history.json").read_text())
    assert events


def test_a_past_artifact_over_the_cap_is_a_gap_never_read(tmp_path, monkeypatch):
    """Issue 40 item 4: history and build --history read a 150 MB past artifact (1.4 GB); validate's stamp
    explanations re-read artifacts at past commits without the cap."""
    from scorecard.core import git as gitmod

    root = shutil.copytree(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q", "-b", "main")
    commit(root, "start", 1)
    run = root / "evidence/run.json"
    data = json.loads(run.read_text())
    data["pad"] = "x" * (16 * 1024 * 1024 + 10)
    run.write_text(json.dumps(data))
    commit(root, "huge", 2)
    set_rps(root, 13)
    data = json.loads(run.read_text())
    data.pop("pad")
    run.write_text(json.dumps(data))
    commit(root, "small again", 3)
    proc = run_cli("history", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert "over the size cap" in proc.stdout + proc.stderr
    read: list[int] = []
    real = gitmod.BlobReader.read

    def spy(self, sha, limit=gitmod.MAX_BLOB_BYTES):
        got = real(self, sha, limit)
        read.append(0 if got is None else len(got))
        return got
    monkeypatch.setattr(gitmod.BlobReader, "read", spy)
    from scorecard.history.walk import walk
    from scorecard.core.place import LedgerPlace

    history = walk(LedgerPlace.at(root))
    assert max(read) < 16 * 1024 * 1024 and any("over the size cap" in n for n in history.notes)
