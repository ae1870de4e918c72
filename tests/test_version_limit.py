"""Issue 40 item 4: one run parses at most SCORECARD_MAX_VERSIONS past file versions (history, stamp explanations).

The promise: however long the history, a run reads a bounded number of past versions; past the bound the
timeline starts later and says "older versions not read (N)", and a suspect claim says "not explained:
version limit". Neither is an error, and what is shown is what the newest versions give.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.cli import pipeline
from scorecard.core import git as git_module
from scorecard.core.git import Change, Commit
from scorecard.core.place import LedgerPlace
from scorecard.history import bound
from scorecard.history import walk as history

from conftest import LEDGERS, copy_ledger, run_cli
from gitrepo import commit, edit, git, set_rps


@pytest.fixture(scope="module")
def remeasured(tmp_path_factory):
    """The base ledger committed, then alpha re-measured in 12 commits (12.1 … 13.2 req/s)."""
    root = copy_ledger(LEDGERS / "base", tmp_path_factory.mktemp("limit") / "ledger")
    edit(root, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: More requests per second than the bar.")
    git(root, "init", "-q")
    commit(root, "ledger", 0)
    for i in range(1, 13):
        set_rps(root, round(12 + i / 10, 1))
        commit(root, f"run {i}", i)
    return root


def test_without_a_limit_every_commit_is_read(remeasured):
    walked = history.walk(LedgerPlace.at(remeasured))
    alpha = walked.dimensions["alpha"]
    assert len(walked.commits) == 13 and len(alpha.points) == 13 and alpha.unread == 0
    assert not any("Older versions" in n for n in walked.notes)


def test_past_the_limit_the_timeline_starts_later_and_says_how_much_it_left_out(remeasured, monkeypatch):
    # Starting at commit s reads the run.json before s and each one written after (the newest is free):
    # k + 1 past versions for the last k + 1 commits, so a limit of 5 starts at the 8th commit.
    monkeypatch.setenv("SCORECARD_MAX_VERSIONS", "5")
    walked = history.walk(LedgerPlace.at(remeasured))
    alpha = walked.dimensions["alpha"]
    assert len(walked.commits) == 6
    assert [s.value for _, s in alpha.points] == [12.7, 12.8, 12.9, 13.0, 13.1, 13.2]  # the newest, unchanged
    assert [e.text for e in alpha.events][0] == "measured value 12.7 req/s → 12.8 req/s, +0.8 %, better"
    assert alpha.unread == 7  # the first commit and six re-measurements
    assert walked.dimensions["beta"].unread == 1  # only the first commit touched beta's files
    assert any(n.startswith("Older versions not read: the history starts at ") and "7 older commits" in n
               and "more than 5 past file versions" in n for n in walked.notes)


@pytest.mark.parametrize("limit, commits", [(1, 2), (2, 3), (11, 12), (12, 13), (13, 13)])
def test_the_limit_is_exact_at_its_boundary(remeasured, monkeypatch, limit, commits):
    monkeypatch.setenv("SCORECARD_MAX_VERSIONS", str(limit))
    walked = history.walk(LedgerPlace.at(remeasured))
    assert len(walked.commits) == commits
    assert walked.dimensions["alpha"].points[-1][1].value == 13.2


def test_the_pages_and_the_command_say_older_versions_not_read(remeasured, tmp_path, monkeypatch):
    monkeypatch.setenv("SCORECARD_MAX_VERSIONS", "5")
    outcome = pipeline.build(remeasured, tmp_path / "site", history=True)
    assert not outcome.refused
    page = (tmp_path / "site/core/index.html").read_text()
    assert "Older versions not read (7)" in page
    data = json.loads((tmp_path / "site/history.json").read_text())
    assert data["dimensions"]["alpha"]["older_versions_not_read"] == 7
    text = run_cli("history", "alpha", "--root", str(remeasured), env={"SCORECARD_MAX_VERSIONS": "5"})
    assert text.returncode == 0 and "older versions not read (7)" in text.stdout


@pytest.mark.parametrize("value", ["0", "-3", "many", ""])
def test_a_limit_that_is_not_a_positive_number_is_the_default_or_one(monkeypatch, value):
    monkeypatch.setenv("SCORECARD_MAX_VERSIONS", value)
    assert git_module.version_limit() == (1 if value in ("0", "-3") else git_module.MAX_VERSIONS)


# --- the cut, over generated histories ------------------------------------------------------------------

_paths = st.sampled_from(["claims/a/x.yaml", "claims/a/y.yaml", "evidence/r.json", "evidence/s.json"])


@st.composite
def histories(draw):
    """First-parent commits as git lists them: adds, modifications, deletions and renames of a few paths."""
    tree: dict[str, str] = {}
    commits, n = [], 0
    for i in range(draw(st.integers(1, 12))):
        changes = []
        for path in sorted(set(draw(st.lists(_paths, min_size=1, max_size=3)))):
            if any(path in (c.path, c.old_path) for c in changes):
                continue
            n += 1
            blob = f"{n:040x}" if draw(st.booleans()) or not tree else draw(st.sampled_from(sorted(tree.values())))
            free = sorted(set(["claims/a/z.yaml", "evidence/t.json", *_paths.elements]) - set(tree)
                          - {p for c in changes for p in (c.path, c.old_path)})
            action = draw(st.sampled_from(["set", "delete", "rename"])) if path in tree else "set"
            if action == "delete":
                changes.append(Change("D", path, None, "", tree.pop(path)))
            elif action == "rename" and free:
                new = draw(st.sampled_from(free))
                old = tree.pop(path)
                tree[new] = old
                changes.append(Change("R", new, path, old, old))
            else:
                changes.append(Change("M" if path in tree else "A", path, None, blob, tree.get(path, "")))
                tree[path] = blob
        commits.append(Commit(f"{i:040x}", i, f"c{i}", changes))
    return commits


def _needed(commits: list[Commit], start: bound.Start) -> set[str]:
    present = set(bound._head(commits).values())
    blobs = set(start.tree.values()) | {ch.blob for c in commits[start.index:] for ch in c.changes}
    return {b for b in blobs if b and b not in present}


@settings(max_examples=300, deadline=None)
@given(histories(), st.integers(1, 8))
def test_the_cut_reads_at_most_the_limit_and_starts_as_early_as_it_can(commits, limit):
    start = bound.start(commits, limit)
    assert len(_needed(commits, start)) <= limit
    # The tree it starts from is the tree after the commits before it, replayed.
    assert start.tree == (bound._head(commits[:start.index]) if start.index else {})
    if start.index:  # one commit earlier would read more than the limit
        earlier = bound.Start(start.index - 1, bound._head(commits[:start.index - 1]))
        assert len(_needed(commits, earlier)) > limit


# --- stamp explanations ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def thirteen_suspects(tmp_path_factory):
    """13 records resting on alpha's run, reviewed and committed, then the run re-measured: 13 suspects."""
    root = copy_ledger(LEDGERS / "base", tmp_path_factory.mktemp("suspects") / "ledger")
    alpha = (root / "claims/core/alpha.yaml").read_text()
    for i in range(12):
        (root / f"claims/core/alpha-{i}.yaml").write_text(alpha)
    git(root, "init", "-q")
    commit(root, "ledger", 1)
    assert run_cli("review", "--all", "--root", str(root)).returncode == 0
    commit(root, "reviewed", 2)
    set_rps(root, 12.5)
    return root


def _explanations(root) -> dict[str, str]:
    result = pipeline.validate(root)[0]
    return {f.file: f.message for f in result.findings if f.code == "SC801"}


@pytest.mark.parametrize("limit, unexplained", [(39, 0), (38, 1), (3, 12), (2, 13), (1, 13)])
def test_suspects_past_the_limit_are_not_explained_and_say_why(thirteen_suspects, monkeypatch, limit, unexplained):
    # Each explanation reads three past versions: the record, scorecard.yaml and the artifact it cites.
    monkeypatch.setenv("SCORECARD_MAX_VERSIONS", str(limit))
    found = _explanations(thirteen_suspects)
    assert len(found) == 13
    limited = sorted(f for f, m in found.items() if m.endswith("not explained: version limit (this run read as many "
                                                                "past file versions as it may; SCORECARD_MAX_VERSIONS"
                                                                " raises the limit)"))
    explained = [f for f, m in found.items() if m.endswith("evidence/run.json#/runs/0/rps: 12 → 12.5")]
    assert len(limited) == unexplained and len(explained) == 13 - unexplained
    assert limited == sorted(found)[13 - unexplained:]  # in file order: the same files on every run


def test_a_walk_holds_only_the_artifact_versions_its_tree_holds(remeasured, monkeypatch):
    """Twelve versions of run.json are parsed, one at a time: a replaced version's data is dropped."""
    from scorecard.history.parsed import Parsed

    held, real = [], Parsed.artifact

    def counting(self, blob, path):
        art = real(self, blob, path)
        held.append(len(self.artifacts))
        return art

    monkeypatch.setattr(Parsed, "artifact", counting)
    walked = history.walk(LedgerPlace.at(remeasured))
    assert len(walked.dimensions["alpha"].points) == 13 and len(held) >= 13
    assert max(held) <= len(list((remeasured / "evidence").iterdir()))
