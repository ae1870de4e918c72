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
import gitrepo
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
    return gitrepo.thirteen_suspects(tmp_path_factory.mktemp("suspects") / "ledger")


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


def test_a_past_record_naming_a_path_with_a_line_break_cannot_stall_or_uncap_the_reader(tmp_path):
    """Found by the hostile pass: a past record's evidence path holding a line break reached `git cat-file --batch`
    as two requests; the reader fell a response behind, and the next large request deadlocked (validate hung until
    the job's timeout) or read a blob past the cap. Such a name is never asked for."""
    import subprocess as sp

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q")
    assert run_cli("review", "--all", "--root", str(root)).returncode == 0
    (root / "evidence/small.json").write_text('{"x": 1}')
    (root / "evidence/mid.json").write_text(json.dumps({"x": "y" * 1_000_000}))
    commit(root, "c1", 1)
    small = sp.run(["git", "rev-parse", "HEAD:evidence/small.json"], cwd=root, capture_output=True, text=True,
                   check=True).stdout.strip()
    alpha = root / "claims/core/alpha.yaml"
    good = alpha.read_text()
    evil = good.replace("  evidence: evidence/run.json\n", f'  evidence: "evidence/run.json\\n{small}"\n')
    evil = evil.replace("trace:\n", "trace:\n  - evidence/mid.json#/x\n  - evidence/" + "a" * 300_000 + ".json#/y\n")
    assert evil != good
    alpha.write_text(evil)
    commit(root, "evil", 2)
    alpha.write_text(good.replace("claim: 12 req/s", "claim: 12 req/s now"))
    commit(root, "reworded", 3)
    proc = run_cli("validate", "--root", str(root))  # run_cli times out (and fails the test) at 120 s
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "suspect: 'alpha' changed since it was reviewed: claim: \"12 req/s\" → \"12 req/s now\"" in proc.stdout


@pytest.mark.parametrize("name", ["HEAD:a\nb", "abc\rdef", "x\x00y", "", "\x1b[31m"])
def test_the_blob_reader_never_sends_a_name_git_would_read_as_another_request(tmp_path, name):
    git(tmp_path, "init", "-q")
    with git_module.BlobReader(tmp_path) as reader:
        assert reader.size(name) is None and reader.read(name) is None
        assert reader.size("HEAD") is None  # still in step: an empty repository has no HEAD commit


def test_a_cut_at_an_invalid_record_invents_no_addition(tmp_path, monkeypatch):
    """Found by the hostile pass: where the record at the cut did not validate, its first state after the cut was
    told as "added", hiding a change of value and wording. What it was before the cut is unread: the state is
    recorded with no event, and every event of the cut history is one the whole history has."""
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q")
    commit(root, "alpha at 12", 1)
    alpha = root / "claims/core/alpha.yaml"
    good = alpha.read_text()
    alpha.write_text(good.replace("status: leads", "status: bogus"))
    commit(root, "broken", 2)
    set_rps(root, 13)
    alpha.write_text(good.replace("claim: 12 req/s", "claim: 13 req/s"))
    commit(root, "fixed, at 13", 3)
    whole = history.walk(LedgerPlace.at(root))
    full = {(e.commit.sha, e.dim, e.text) for e in whole.events}
    assert any("12 req/s → 13 req/s" in text for _, _, text in full)
    for limit in (1, 2, 3):
        monkeypatch.setenv("SCORECARD_MAX_VERSIONS", str(limit))
        cut = history.walk(LedgerPlace.at(root))
        assert {(e.commit.sha, e.dim, e.text) for e in cut.events} <= full, limit
        assert cut.dimensions["alpha"].points[-1][1] == whole.dimensions["alpha"].points[-1][1]


def test_ids_that_swap_after_a_cut_at_an_invalid_record_invent_nothing(tmp_path, monkeypatch):
    """The hostile pass's seed 51: delta is invalid where the cut history starts, then beta and delta swap ids
    across categories (git lists two renames to new paths). The cut history told a rename pair and an addition the
    whole history does not have."""
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/perf").mkdir()
    (root / "claims/perf/_category.yaml").write_text("title: Perf\n")
    git(root, "init", "-q")
    commit(root, "ledger", 1)
    git(root, "mv", "claims/core/beta.yaml", "claims/core/gamma.yaml")
    delta = (root / "claims/core/alpha.yaml").read_text().replace("Alpha throughput", "Delta throughput")
    (root / "claims/perf/delta.yaml").write_text(delta)
    commit(root, "gamma, delta", 2)
    (root / "claims/perf/delta.yaml").write_text("title: [broken\n")
    commit(root, "delta broken", 3)
    gamma = root / "claims/core/gamma.yaml"
    gamma.write_text(gamma.read_text().replace("title: Beta latency", "title: Gamma latency"))
    commit(root, "gamma reworded", 4)
    git(root, "mv", "claims/core/gamma.yaml", "claims/core/delta.yaml")
    git(root, "mv", "claims/perf/delta.yaml", "claims/perf/gamma.yaml")
    commit(root, "swap", 5)
    whole = history.walk(LedgerPlace.at(root))
    full = {(e.commit.sha, e.dim, e.text) for e in whole.events}
    for limit in range(1, 6):
        monkeypatch.setenv("SCORECARD_MAX_VERSIONS", str(limit))
        cut = {(e.commit.sha, e.dim, e.text) for e in history.walk(LedgerPlace.at(root)).events}
        assert cut <= full, (limit, cut - full)
