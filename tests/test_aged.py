"""Issue 43 item 3 and the hostile pass after it: `--strict` passes a staleness time alone raised, and only that.

The promise: a source (SC603) or evidence (SC310) that went stale while its record and artifact sat committed
unchanged does not fail `--strict` (a typo fix elsewhere is not refused because a source aged); one a change
brought in (a pull request with a 26-year-old bar, an artifact dated long ago, an uncommitted edit) fails it as
any warning does. Both are shown.
"""

from __future__ import annotations

from scorecard.cli import pipeline

from conftest import LEDGERS, copy_ledger, run_cli
from gitrepo import DAY, START, commit, edit, git

LATER = str(START + 1100 * DAY)  # 2029-01-05: the base ledger's 2026-01 source is 36 months old (limit 24)


def _strict(root) -> tuple[int, str]:
    proc = run_cli("validate", "--strict", "--root", str(root), env={"SOURCE_DATE_EPOCH": LATER})
    return proc.returncode, proc.stdout


def _ledger(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    settings = root / "scorecard.yaml"
    settings.write_text(settings.read_text() + "stale_evidence_after_months: 12\n")
    git(root, "init", "-q")
    commit(root, "the ledger, fresh", 40)  # 2026-02-10: sources of 2026-01, evidence of 2026-02-01
    return root


def test_a_source_and_evidence_that_aged_untouched_pass_strict_and_are_shown(tmp_path):
    root = _ledger(tmp_path)
    code, out = _strict(root)
    assert "warning SC603" in out and "warning SC310" in out
    assert code == 0, out


def test_a_typo_fixed_in_another_file_still_passes(tmp_path):
    root = _ledger(tmp_path)
    (root / "docs/notes.md").write_text((root / "docs/notes.md").read_text() + "\nA typo fixed.\n")
    commit(root, "typo", 1100)
    assert _strict(root)[0] == 0


def test_a_record_changed_after_its_source_went_stale_fails_strict(tmp_path):
    """The hostile pass: a pull request swapped in a bar dated 1999 and claimed leads; strict passed it."""
    root = _ledger(tmp_path)
    edit(root, "claims/core/alpha.yaml", "  date: 2026-01", "  date: 2026-01 ")  # touched at 2029: not time alone
    commit(root, "alpha touched", 1100)
    code, out = _strict(root)
    assert code == 1 and "SC603" in out


def test_a_stale_bar_brought_in_by_a_commit_fails_strict_even_before_it_would_have_aged(tmp_path):
    root = _ledger(tmp_path)
    edit(root, "claims/core/beta.yaml", "  date: 2025-06", "  date: 1999-01")
    commit(root, "an old bar", 41)
    proc = run_cli("validate", "--strict", "--root", str(root))  # today: 2026-06 (conftest's epoch)
    assert proc.returncode == 1 and "SC603" in proc.stdout


def test_an_artifact_changed_after_its_date_went_stale_fails_strict(tmp_path):
    root = _ledger(tmp_path)
    run = root / "evidence/run.json"
    run.write_text(run.read_text().replace('"flags"', '"note": "rerun", "flags"'))  # same old meta.date
    commit(root, "artifact touched", 1100)
    code, out = _strict(root)
    assert code == 1 and "SC310" in out


def test_an_uncommitted_edit_is_not_time_alone(tmp_path):
    root = _ledger(tmp_path)
    edit(root, "claims/core/beta.yaml", "title: Beta latency", "title: Beta latency, edited")
    assert _strict(root)[0] == 1
    git(root, "checkout", "--", "claims/core/beta.yaml")
    assert _strict(root)[0] == 0


def test_outside_git_nothing_is_time_alone(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    assert not pipeline.fails(result, strict=True)  # fresh: nothing to refuse
    code, out = _strict(root)
    assert code == 1 and "SC603" in out
