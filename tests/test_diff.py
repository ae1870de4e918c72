"""`scorecard diff` over a scripted git history, one kind of change per commit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from conftest import LEDGERS, run_cli


def git(root, *args):
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(root), "PATH": "/usr/bin:/bin"})


def commit(root, message):
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    git(root, "tag", message)


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    top = tmp_path_factory.mktemp("diff") / "repo"
    root = top / "ledger"  # the ledger sits in a sub-folder of the repository
    shutil.copytree(LEDGERS / "base", root)
    git(top, "init", "-q")
    commit(top, "start")
    edit(root / "evidence/run.json", '"rps": 12', '"rps": 12.9')
    commit(top, "evidence-only")
    edit(root / "claims/core/beta.yaml", "status: no-claim", "status: trails")
    (root / "claims/core/beta.yaml").write_text((root / "claims/core/beta.yaml").read_text() +
                                                "result: {evidence: evidence/run.json, pointer: /lat, unit: ms}\n")
    edit(root / "evidence/run.json", '"flags"', '"lat": 33, "flags"')
    commit(top, "status-change")
    edit(root / "claims/core/beta.yaml", "  value: 5", "  value: 4")
    edit(root / "claims/core/beta.yaml", "https://example.org/beta", "https://example.org/beta-2")
    commit(top, "sota-change")
    (root / "claims/other").mkdir()
    (root / "claims/other/_category.yaml").write_text("title: Other\n")
    shutil.move(root / "claims/core/beta.yaml", root / "claims/other/beta.yaml")
    shutil.copy(LEDGERS / "base/claims/core/beta.yaml", root / "claims/core/gamma.yaml")
    commit(top, "move-and-add")
    (root / "claims/core/gamma.yaml").unlink()
    commit(top, "remove")
    edit(root / "evidence/run.json", '"rps": 12.9', '"rps": "fast"')
    return top, root


def diff(root, *args):
    proc = run_cli("diff", *args, "--format", "json", cwd=root)
    assert proc.returncode == 0, proc.stderr
    return {c["id"]: c for c in json.loads(proc.stdout)["changes"]}


def test_evidence_only_change(history):
    _, root = history
    changes = diff(root, "start", "evidence-only")
    assert list(changes) == ["alpha"]
    assert changes["alpha"]["lines"] == [  # the claim's typed 12 req/s no longer holds: an error since issue 42
        "measured value 12 req/s → 12.9 req/s, +7.5 %, better (from the evidence file only); still leads; "
        "bar 10 req/s", "now invalid: SC513 claim says 12 req/s; the artifact gives 12.9 req/s"]


def test_status_change(history):
    _, root = history
    lines = diff(root, "evidence-only", "status-change")["beta"]["lines"]
    assert "status no-claim → trails" in lines and "measured value now 33 ms; bar 5 ms" in lines


def test_sota_change(history):
    _, root = history
    lines = diff(root, "status-change", "sota-change")["beta"]["lines"]
    assert "SOTA bar 5 ms → 4 ms" in lines
    assert "SOTA source https://example.org/beta (2025-06) → https://example.org/beta-2 (2025-06)" in lines


def test_move_add_remove(history):
    _, root = history
    changes = diff(root, "sota-change", "move-and-add")
    assert changes["beta"]["lines"] == ["moved from category core to other"]
    assert changes["gamma"]["kind"] == "added"
    assert diff(root, "move-and-add", "remove")["gamma"]["kind"] == "removed"


def test_unchanged_dimensions_say_nothing(history):
    _, root = history
    assert diff(root, "remove", "remove") == {}
    assert "alpha" not in diff(root, "move-and-add", "remove")


def test_working_tree_and_claims_that_became_invalid(history):
    _, root = history
    changes = diff(root, "remove")
    assert "now invalid: SC308 pointer '/runs/0/rps' in evidence/run.json names a string, not a finite number" \
        in changes["alpha"]["lines"]
    assert any(line == "no longer measured (was 12.9 req/s)" for line in changes["alpha"]["lines"])


def test_markdown_and_text(history):
    _, root = history
    md = run_cli("diff", "start", "evidence-only", "--format", "markdown", cwd=root).stdout
    assert md.startswith("### scorecard: 1 dimension changed")
    assert "- **changed** ` alpha ` (` claims/core/alpha.yaml `)" in md
    text = run_cli("diff", "start", "evidence-only", cwd=root).stdout
    assert text.splitlines()[0] == "1 dimension changed between start and evidence-only:"


def test_errors_are_usage_errors(history, tmp_path):
    _, root = history
    proc = run_cli("diff", "no-such-rev", cwd=root)
    assert proc.returncode == 2 and "unknown revision 'no-such-rev'" in proc.stderr
    outside = shutil.copytree(LEDGERS / "base", tmp_path / "plain")
    proc = run_cli("diff", "HEAD", cwd=outside)
    assert proc.returncode == 2 and "not inside a git repository" in proc.stderr and "Traceback" not in proc.stderr


def test_reviews_recorded_and_claims_turned_suspect(tmp_path):
    root = shutil.copytree(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q")
    commit(root, "start")
    assert run_cli("review", "alpha", cwd=root).returncode == 0
    commit(root, "reviewed")
    edit(root / "evidence/run.json", '"rps": 12', '"rps": 11.5')
    commit(root, "rerun")
    assert diff(root, "start", "reviewed")["alpha"]["lines"] == [
        "reviewed: a person checked the claim against what it rests on now"]
    assert diff(root, "reviewed", "rerun")["alpha"]["lines"] == [
        "measured value 12 req/s → 11.5 req/s, -4.2 %, worse (from the evidence file only); still leads; "
        "bar 10 req/s",
        "now suspect: what it rests on changed since its review"]
    # In the working tree git knows the reviewed version, so the line names what changed.
    git(root, "reset", "-q", "--soft", "reviewed")
    assert diff(root, "reviewed")["alpha"]["lines"][-1] == (
        "now suspect: what it rests on changed since its review: evidence/run.json#/runs/0/rps: 12 → 11.5")
    edit(root / "claims/core/alpha.yaml", "reviewed: ", "# reviewed: ")
    assert diff(root, "reviewed")["alpha"]["lines"][-1] == "review stamp removed"


def test_merge_base_compares_a_branch_with_where_it_started(tmp_path):
    top = tmp_path / "repo"
    shutil.copytree(LEDGERS / "base", top)
    git(top, "init", "-q", "-b", "main")
    commit(top, "start")
    git(top, "checkout", "-q", "-b", "pr")
    edit(top / "evidence/run.json", '"rps": 12', '"rps": 13')  # the pull request changes alpha's value
    commit(top, "pr-change")
    git(top, "checkout", "-q", "main")
    edit(top / "claims/core/beta.yaml", "  value: 5", "  value: 4")  # main moves on: beta's bar
    commit(top, "main-moves")
    git(top, "checkout", "-q", "pr")
    against_tip = diff(top, "main", "pr")
    assert set(against_tip) == {"alpha", "beta"}  # the tip of main: the PR would seem to undo beta's change
    for args in (("--merge-base", "main", "pr"), ("main...pr",), ("--merge-base", "main"), ("main...",)):
        assert set(diff(top, *args)) == {"alpha"}, args
    proc = run_cli("diff", "main...pr", cwd=top)
    start = subprocess.run(["git", "rev-parse", "start"], cwd=top, capture_output=True, text=True).stdout.strip()
    assert f"between merge base of main and pr ({start[:7]}) and pr" in proc.stdout  # names, short ids
    proc = run_cli("diff", "--merge-base", "main", "nosuch", cwd=top)
    assert proc.returncode == 2 and "no merge base of 'main' and 'nosuch'" in proc.stderr


def test_typed_choices_and_the_verdicts_they_flip(tmp_path):
    """Issue 29, item 9: a change to a unit, a selection, a statistic, a formula, better, the bar's statistic or
    parity_tolerance is named, with every verdict it flips."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    (root / "scorecard.yaml").write_text((root / "scorecard.yaml").read_text() + "parity_tolerance: 0.2\n")
    commit(root, "tolerance")
    edit(root / "claims/core/alpha.yaml", "better: higher", "better: lower")
    edit(root / "claims/core/alpha.yaml", "pointer: /runs/0/rps", "path: $.runs[0].rps")
    edit(root / "scorecard.yaml", "parity_tolerance: 0.2\n", "parity_tolerance: 0.1\n")
    commit(root, "choices")

    changes = diff(root, "start", "tolerance")
    assert changes["scorecard.yaml"]["lines"] == [
        "typed choice changed: parity_tolerance: 0.05 → 0.2 (every verdict it flips is listed with its dimension)"]
    assert "verdict flips: ahead → level against the bar (parity_tolerance 0.05 → 0.2)" in changes["alpha"]["lines"]
    assert "beta" not in changes  # no number: no verdict to flip

    lines = diff(root, "tolerance", "choices")["alpha"]["lines"]
    assert "typed choice changed: sota.better: higher → lower" in lines
    assert "typed choice changed: selection evidence/run.json#path: (none) → $.runs[0].rps" in lines
    assert "typed choice changed: selection evidence/run.json#pointer: /runs/0/rps → (none)" in lines
    assert "verdict flips: level → behind against the bar" in lines  # 1.2x, lower is better, beyond 10 %


def test_diff_reads_the_committed_bytes_and_runs_no_program_from_any_config(tmp_path):
    """Issue 26: the pull request's .gitattributes (export-ignore, export-subst, a filter, a textconv) and the
    repository's config (filters, textconv, external diff, fsmonitor, hooks, pager, credential helper) change
    nothing and run nothing: the diff sees the dimension validate and build publish, with the committed bytes."""
    from scorecard.cli import diff as diffing

    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    shutil.copy(LEDGERS / "base/claims/core/alpha.yaml", root / "claims/core/hidden.yaml")
    edit(root / "evidence/run.json", '"flags"', '"subst": "$Format:%H%x22$", "flags"')
    (root / ".gitattributes").write_text("claims/core/hidden.yaml export-ignore\n.gitattributes export-ignore\n"
                                         "evidence/run.json export-subst\n* filter=x diff=x\n")
    commit(root, "pr")
    marker = tmp_path / "marker"
    program = f"sh -c 'echo ran >> {marker}; cat'"
    for key, value in [("filter.x.smudge", program), ("filter.x.clean", program), ("filter.x.required", "true"),
                       ("diff.x.textconv", program), ("diff.external", program), ("core.fsmonitor", program),
                       ("core.pager", program), ("core.hooksPath", str(tmp_path)), ("credential.helper", program)]:
        git(root, "config", key, value)
    for hook in ("post-checkout", "pre-commit", "post-commit", "reference-transaction", "post-index-change"):
        (tmp_path / hook).write_text(f"#!/bin/sh\necho {hook} >> {marker}\n")
        (tmp_path / hook).chmod(0o755)

    changes = diff(root, "start", "pr")
    assert not marker.exists(), marker.read_text()
    assert changes["hidden"]["kind"] == "added"  # export-ignore no longer hides it from the reviewer
    written, crafted = diffing._checkout(root, "", "pr", tmp_path / "out")
    assert crafted == []
    for rel in ("evidence/run.json", "claims/core/hidden.yaml"):
        assert (written / rel).read_bytes() == (root / rel).read_bytes(), rel  # no export-subst, no filter
    assert not (written / ".gitattributes").exists()  # only what the ledger reads is written
    # Every other reader of history: the same repository runs nothing either.
    for args in (["history"], ["history", "alpha"], ["build", "--history", "--out", str(tmp_path / "site")],
                 ["review", "alpha", "--dry-run"], ["diff", "start"]):
        proc = run_cli(*args, cwd=root)
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, (args, proc.stderr)
    assert not marker.exists(), marker.read_text()


def test_a_record_made_invalid_reads_now_invalid_not_removed(tmp_path):
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    edit(root / "claims/core/alpha.yaml", "why:", "whyy: typo\nwhy:")
    commit(root, "typo")
    change = diff(root, "start", "typo")["alpha"]
    assert change["kind"] == "invalid"
    assert change["lines"] and all(line.startswith("now invalid: SC202") for line in change["lines"])


def test_a_value_change_says_whether_it_is_beyond_the_runs_noise(tmp_path):
    """Issue 26: '2.12 ms → 6.2 ms, +192.7 %, worse' was shown when the new run's interval overlapped the old one."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    (root / "evidence/times.json").write_text('{"times": [12, 13, 11, 12, 14, 12, 13, 11]}\n')
    edit(root / "claims/core/alpha.yaml", "evidence: evidence/run.json\n  pointer: /runs/0/rps",
         "evidence: evidence/times.json\n  pointer: /times")
    edit(root / "claims/core/alpha.yaml", "status: leads", "status: parity")
    edit(root / "claims/core/alpha.yaml", "value: 10", "value: 12")
    git(root, "init", "-q")
    commit(root, "start")
    (root / "evidence/times.json").write_text('{"times": [12, 14, 10, 13, 16, 12, 13, 9]}\n')
    commit(root, "noisy")
    (root / "evidence/times.json").write_text('{"times": [22, 23, 21, 22, 24, 22, 23, 21]}\n')
    commit(root, "apart")
    assert "within the runs' noise (the intervals overlap); still parity; bar 12 req/s" in \
        diff(root, "start", "noisy")["alpha"]["lines"][0]
    assert "the intervals do not overlap" in diff(root, "noisy", "apart")["alpha"]["lines"][0]


# --- issue 40 item 3: diff writes only where it means to ---------------------------------------------------

def _tree_commit(root, entries):
    """A commit whose tree is written entry by entry (mode, name, object id), as a crafted push could hold it:
    git's own porcelain would refuse duplicates, so the tree objects are made with hash-object --literally."""
    def tree_of(items):
        body = b"".join(f"{mode} {name}".encode() + b"\0" + bytes.fromhex(sha) for mode, name, sha in items)
        proc = subprocess.run(["git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin"], cwd=root,
                              input=body, capture_output=True, check=True)
        return proc.stdout.decode().strip()
    return tree_of


def _blob(root, data: bytes) -> str:
    return subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=root, input=data, capture_output=True,
                          check=True).stdout.decode().strip()


def _ls(root, rev, path=""):
    out = subprocess.run(["git", "ls-tree", rev, *([path] if path else [])], cwd=root, capture_output=True,
                         check=True).stdout.decode()
    return [(line.split()[0], line.split("\t")[1], line.split()[2]) for line in out.splitlines()]


def _commit_tree(root, tree, tag):
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e"}
    sha = subprocess.run(["git", "commit-tree", tree, "-p", "HEAD", "-m", tag], cwd=root, capture_output=True,
                         check=True, env=env).stdout.decode().strip()
    git(root, "tag", tag, sha)
    return sha


def test_a_chain_of_symlinks_never_sends_a_write_outside_the_diffs_folder(tmp_path):
    """a -> ., b -> a/.., c -> b/.., d -> c/..: each link's target reads as inside when taken as text, but on disk
    d is two folders above the revision's; with a second entry d, a folder holding x, x was written there."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    tree_of = _tree_commit(root, None)
    planted = _blob(root, b"planted by a crafted tree\n")
    links = [("120000", name, _blob(root, target.encode()))
             for name, target in (("a", "."), ("b", "a/.."), ("c", "b/.."), ("d", "c/.."))]
    evidence = tree_of([*_ls(root, "start:evidence"), *links, ("40000", "d", tree_of([("100644", "x", planted)]))])
    top = tree_of([(m, n, o) if n != "evidence" else ("40000", n, evidence) for m, n, o in _ls(root, "start")])
    _commit_tree(root, top, "crafted")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    proc = run_cli("diff", "start", "crafted", cwd=root, env={"TMPDIR": str(scratch)})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    planted_files = [p for p in tmp_path.rglob("*") if p.is_file() and p.read_bytes() == b"planted by a crafted tree\n"]
    assert planted_files == []
    assert proc.stdout.startswith("crafted tree: evidence/d: a file and a folder of one name")
    from scorecard.cli import diff as diffing
    written, crafted = diffing._checkout(root, "", "crafted", tmp_path / "w")
    assert ("evidence/d", "a file and a folder of one name") in crafted
    assert [p for p in written.rglob("*") if p.is_symlink()] == []  # links are resolved here, never made


@pytest.mark.parametrize("link, reads", [("run.json", True), ("./run.json", True), ("../evidence/run.json", True),
                                         ("a/../run.json", False), ("../../outside.json", False),
                                         ("/etc/passwd", False), ("loop", False)])
def test_a_committed_link_is_followed_inside_the_tree_as_the_system_would(tmp_path, link, reads):
    """a -> . inside evidence/: 'a/../run.json' is evidence/../run.json on disk, the ledger root's run.json,
    which does not exist; textually it would read as evidence/run.json."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    (root / "evidence/a").symlink_to("..")
    (root / "evidence/loop").symlink_to("loop2")
    (root / "evidence/loop2").symlink_to("loop")
    (root / "evidence/link.json").symlink_to(link)
    git(root, "init", "-q")
    commit(root, "start")
    from scorecard.cli import diff as diffing
    written, _ = diffing._checkout(root, "", "start", tmp_path / "w")
    assert (written / "evidence/link.json").is_file() == reads
    if reads:
        assert (written / "evidence/link.json").read_bytes() == (root / "evidence/run.json").read_bytes()


def test_a_duplicate_or_case_colliding_entry_is_shown_first_and_the_diff_still_made(tmp_path):
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    tree_of = _tree_commit(root, None)
    alpha = [o for m, n, o in _ls(root, "start:claims/core") if n == "alpha.yaml"][0]
    beta = [o for m, n, o in _ls(root, "start:claims/core") if n == "beta.yaml"][0]
    other = _blob(root, (root / "claims/core/alpha.yaml").read_bytes().replace(b"status: leads", b"status: parity"))
    core = tree_of([("100644", "_category.yaml",
                     [o for m, n, o in _ls(root, "start:claims/core") if n == "_category.yaml"][0]),
                    ("100644", "alpha.yaml", alpha), ("100644", "alpha.yaml", other),
                    ("100644", "beta.yaml", beta), ("100644", "Beta.yaml", beta)])
    core_sorted = core
    claims = tree_of([("40000", "core", core_sorted)])
    top = tree_of(sorted([(m, n, o) for m, n, o in _ls(root, "start") if n != "claims"] +
                         [("40000", "claims", claims)], key=lambda t: t[1]))
    crafted = _commit_tree(root, top, "crafted")
    proc = run_cli("diff", "start", crafted, cwd=root)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("crafted tree: claims/core/Beta.yaml: names that differ only in case")
    assert lines[1].startswith("crafted tree: claims/core/alpha.yaml: two entries of one name")
    assert lines[2].startswith("crafted tree: claims/core/beta.yaml: names that differ only in case")
    assert "left out alpha (claims/core/alpha.yaml)" in proc.stdout  # the rest of the diff is made; not "removed"
    assert "removed" not in proc.stdout
    md = run_cli("diff", "start", crafted, "--format", "markdown", cwd=root).stdout
    assert md.startswith("- **crafted tree** ` crafted tree: claims/core/Beta.yaml")


def test_diff_writes_only_what_the_ledger_reads_and_never_a_files_bytes_over_the_cap(tmp_path):
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    big = b"x" * (16 * 1024 * 1024 + 1)
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs/uncited.bin").write_bytes(big)
    (root / "evidence/huge.json").write_bytes(b'{"a": "' + big + b'"}')
    commit(root, "big")
    from scorecard.cli import diff as diffing
    written, _ = diffing._checkout(root, "", "big", tmp_path / "w")
    assert not (written / "docs/uncited.bin").exists()
    huge = written / "evidence/huge.json"
    assert huge.stat().st_size == len(big) + 9 and huge.stat().st_blocks * 512 < 1024 * 1024  # sparse: not read
    assert (written / "docs/notes.md").exists() == (root / "docs/notes.md").exists()


def test_two_folders_of_one_name_or_of_names_differing_in_case_are_crafted(tmp_path):
    """Found by the hostile pass: the recursive listing named only files, so two `claims` folders whose files did
    not overlap, or a `Claims` beside `claims`, went unreported."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    tree_of = _tree_commit(root, None)
    gamma = _blob(root, (root / "claims/core/beta.yaml").read_bytes().replace(b"Beta latency", b"Gamma latency"))
    cat = _blob(root, b"title: Core 2\n")
    extra = tree_of([("40000", "core2", tree_of([("100644", "_category.yaml", cat), ("100644", "gamma.yaml", gamma)]))])
    start = _ls(root, "start")
    claims = next(o for m, n, o in start if n == "claims")
    _commit_tree(root, tree_of([*start, ("40000", "claims", extra)]), "dupdir")
    _commit_tree(root, tree_of([*start, ("40000", "Claims", extra)]), "casedir")
    assert claims
    for tag, why in (("dupdir", "claims: two entries of one name"), ("casedir", "names that differ only in case")):
        proc = run_cli("diff", "start", tag, cwd=root)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
        assert proc.stdout.startswith("crafted tree: ") and why in proc.stdout.splitlines()[0] + proc.stdout, tag


@pytest.mark.parametrize("target", [b"x" * 5000, b"./" * 250_000 + b"run.json"])
def test_a_link_target_over_a_path_is_never_read_nor_walked(tmp_path, monkeypatch, target):
    """Found by the hostile pass: a 200 MiB 'link' was read whole (857 MB), and './' * 500,000 took 27 s."""
    from scorecard.cli import diff as diffing

    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    tree_of = _tree_commit(root, None)
    link = _blob(root, target)
    evidence = tree_of([*_ls(root, "start:evidence"), ("120000", "link.json", link)])
    top = tree_of([(m, n, o) if n != "evidence" else ("40000", n, evidence) for m, n, o in _ls(root, "start")])
    _commit_tree(root, top, "longlink")
    read: list[str] = []
    original = diffing.git.BlobReader.read
    monkeypatch.setattr(diffing.git.BlobReader, "read", lambda self, sha: (read.append(sha), original(self, sha))[1])
    written, _ = diffing._checkout(root, "", "longlink", tmp_path / "w")
    assert link not in read  # the target is over PATH_MAX: never read, and the link is left out
    assert not (written / "evidence/link.json").exists() and (written / "evidence/run.json").is_file()


def test_a_record_whose_category_file_was_deleted_is_invalid_not_removed(tmp_path):
    """Issue 40 item 10: diff said "removed" for the records of a category whose _category.yaml was deleted."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    git(root, "init", "-q")
    commit(root, "start")
    (root / "claims/core/_category.yaml").unlink()
    commit(root, "nocat")
    changes = diff(root, "start", "nocat")
    assert changes["alpha"]["kind"] == changes["beta"]["kind"] == "invalid"
    assert changes["alpha"]["lines"] == ["now invalid: SC005 category 'core' has no _category.yaml"]


def test_a_change_of_conditions_or_of_the_list_is_named_with_every_verdict_it_flips(tmp_path):
    """Issue 44 item 5: sota.conditions, a record's conditions_must_match and the ledger's are typed choices; listing
    a key the two sides do not share leaves the value unplaced, and the diff says so."""
    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    run_json = root / "evidence/run.json"
    run_json.write_text(run_json.read_text().replace('{"commit": "abc1234"',
                                                     '{"model": "Llama-3", "commit": "abc1234"'))
    git(root, "init", "-q")
    commit(root, "start")
    edit(root / "claims/core/alpha.yaml", "  date: 2026-01\n", "  date: 2026-01\n  conditions: {model: Llama-2}\n")
    commit(root, "stated")
    (root / "scorecard.yaml").write_text((root / "scorecard.yaml").read_text() + "conditions_must_match: [model]\n")
    edit(root / "claims/core/alpha.yaml", "status: leads", "status: inconclusive")
    commit(root, "listed")

    lines = diff(root, "start", "stated")["alpha"]["lines"]
    assert "typed choice changed: sota.conditions.model: (none) → Llama-2" in lines
    assert not any("verdict flips" in line for line in lines)  # stated, not listed: the verdict stands
    changes = diff(root, "stated", "listed")
    assert changes["scorecard.yaml"]["lines"] == [
        "typed choice changed: conditions_must_match: [] → [model] (every verdict it flips is listed with its "
        "dimension)"]
    assert "verdict flips: ahead → not placed (measured on other conditions: model) against the bar " \
           "(conditions_must_match)" in changes["alpha"]["lines"]
