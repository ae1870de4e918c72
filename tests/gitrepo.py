"""Scripted git histories for the review and history tests: fixed dates, fixed authors, no global config."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import LEDGERS, copy_ledger

DAY = 86400
START = 1767225600  # 2026-01-01T00:00:00Z


def git(root: Path, *args: str, when: int | None = None) -> str:
    """Run git in root with a fixed identity (and commit date), returning its stdout."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.org",
           "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.org"}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    proc = subprocess.run(["git", *args], cwd=root, env=env, capture_output=True, text=True, check=True)
    return proc.stdout


def commit(root: Path, message: str, day: int) -> str:
    """Stage everything and commit it on the given day after 2026-01-01; the new commit's id."""
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", message, when=START + day * DAY)
    return git(root, "rev-parse", "HEAD").strip()


def set_rps(root: Path, rps: float) -> None:
    """Set the base ledger's measured throughput (alpha's result) in evidence/run.json."""
    path = root / "evidence" / "run.json"
    data = json.loads(path.read_text())
    data["runs"][0]["rps"] = rps
    path.write_text(json.dumps(data, indent=1) + "\n")


def edit(root: Path, rel: str, old: str, new: str) -> None:
    """Replace text in a ledger file (the text must be there)."""
    path = root / rel
    text = path.read_text()
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new))


def suspect_alpha(dest: Path, *reviewed: str) -> Path:
    """The base ledger in git, the dimensions reviewed committed, then alpha re-measured at 12.9 req/s and its claim
    said so: a suspect claim whose reviewed version git holds."""
    from conftest import LEDGERS, copy_ledger, run_cli

    root = copy_ledger(LEDGERS / "base", dest)
    git(root, "init", "-q")
    assert run_cli("review", *reviewed, "--root", str(root)).returncode == 0
    commit(root, "reviewed", 1)
    set_rps(root, 12.9)
    edit(root, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: 12.9 req/s")
    return root


def thirteen_suspects(dest: Path) -> Path:
    """The base ledger and 12 copies of alpha in git, all reviewed and committed, then alpha's run re-measured at
    12.5 req/s: 13 suspect claims whose reviewed versions git holds."""
    from conftest import LEDGERS, copy_ledger, run_cli

    root = copy_ledger(LEDGERS / "base", dest)
    alpha = (root / "claims/core/alpha.yaml").read_text()
    for i in range(12):
        (root / f"claims/core/alpha-{i}.yaml").write_text(alpha)
    git(root, "init", "-q")
    commit(root, "ledger", 1)
    assert run_cli("review", "--all", "--root", str(root)).returncode == 0
    commit(root, "reviewed", 2)
    set_rps(root, 12.5)  # every alpha-* now rests on a changed value
    return root


def scripted_history(dest: Path) -> tuple[Path, dict[str, str]]:
    """The base ledger in a repository with a known history; returns (root, commit ids by step).

    c1  day 9    initial: alpha leads at 12 req/s, beta no-claim
    c2  day 40   evidence only: 12 -> 13 req/s
    c3  day 68   alpha parity at 10.2 (status and value change together)
    --  day 70   docs only (touches neither claims/ nor evidence/: not in the history)
    c4  day 99   beta renamed to gamma (git mv)
    c5  day 129  delta added (no-claim)
    c6  day 160  delta removed
    c7  day 190  merge of a branch on which the SOTA bar of alpha went from 10 to 10.1
    """
    root = copy_ledger(LEDGERS / "base", dest)
    edit(root, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: ${value}")  # follows the reruns below
    git(root, "init", "-q", "-b", "main")
    ids = {"c1": commit(root, "initial ledger", 9)}
    set_rps(root, 13)
    ids["c2"] = commit(root, "rerun the throughput benchmark", 40)
    set_rps(root, 10.2)
    edit(root, "claims/core/alpha.yaml", "status: leads", "status: parity")
    ids["c3"] = commit(root, "alpha regressed to parity", 68)
    (root / "docs" / "notes.md").write_text("More notes.\n")
    commit(root, "docs only", 70)
    git(root, "mv", "claims/core/beta.yaml", "claims/core/gamma.yaml")
    ids["c4"] = commit(root, "rename beta to gamma", 99)
    (root / "claims/core/delta.yaml").write_text((root / "claims/core/gamma.yaml").read_text()
                                                 .replace("Beta latency", "Delta latency"))
    ids["c5"] = commit(root, "add delta", 129)
    (root / "claims/core/delta.yaml").unlink()
    ids["c6"] = commit(root, "drop delta", 160)
    git(root, "checkout", "-q", "-b", "bar")
    edit(root, "claims/core/alpha.yaml", "value: 10\n", "value: 10.1\n")
    commit(root, "the field moved: bar 10.1", 170)
    git(root, "checkout", "-q", "main")
    git(root, "merge", "-q", "--no-ff", "-m", "merge the new bar", "bar", when=START + 190 * DAY)
    ids["c7"] = git(root, "rev-parse", "HEAD").strip()
    return root, ids


def reviewed_history(dest: Path) -> Path:
    """The scripted history, then alpha reviewed (day 200) and measured again (day 210): suspect and stale.

    For the site tests: every review and staleness mark and the history pages appear at once.
    """
    from scorecard.cli import review

    root, _ = scripted_history(dest)
    edit(root, "scorecard.yaml", "stale_after_months: 24", "stale_after_months: 24\nstale_evidence_after_months: 3")
    outcome = review.review(root, ["alpha"], every=False)
    assert outcome.stamped and not outcome.blocking
    commit(root, "review alpha", 200)
    set_rps(root, 10.0)
    commit(root, "rerun: 10 req/s", 210)
    return root
