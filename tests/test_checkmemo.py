"""validate's memo of clean checks (issue 46, ledger/checkmemo.py): the promise is that validate with it gives exactly
the findings validate without it gives, whatever changed in any file between two runs. A differential property:
random changes to artifacts, trace targets, settings, the day, git history and the records themselves, each run
warm and cold."""

from __future__ import annotations

import json
import os
import shutil
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecard.cli import pipeline
from scorecard.core.place import LedgerPlace

from conftest import REPO, copy_example, copy_ledger, LEDGERS, run_cli
from gitrepo import commit, git
from test_cache import files

TODAY = date(2026, 12, 7)


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("SCORECARD_NO_CACHE", raising=False)


def warm(root: Path, today: date = TODAY):
    result, _ = pipeline.validate(LedgerPlace.at(root, today=today), warm=True, findings_only=True)
    return result


def cold(root: Path, today: date = TODAY):
    result, _ = pipeline.validate(LedgerPlace.at(root, today=today))
    return result


def test_a_clean_record_is_not_checked_again_and_a_changed_one_is(tmp_path):
    root = copy_example(tmp_path / "ledger")
    first, second, third = warm(root), warm(root), warm(root)  # the folder, then the memo, then its hits
    assert first.reused == second.reused == 0
    clean = third.reused
    assert clean == third.dimension_count == 16  # the example is clean: every record kept
    assert first.findings == second.findings == third.findings == cold(root).findings
    record = root / "claims/latency-and-reuse/decode-throughput.yaml"
    record.write_text(record.read_text().replace("why: ", "why: Edited. ", 1))
    assert warm(root).reused == clean - 1  # the edited record is checked again
    assert warm(root).reused == clean
    artifact = root / "evidence/sample/latency.json"  # cited by decode-throughput and others
    artifact.write_text(artifact.read_text().replace('"tok/s": 1840.0', '"tok/s": 2840.0'))
    after = warm(root)
    assert after.reused < clean and after.findings == cold(root).findings
    assert any(f.code == "SC503" or f.severity == "error" for f in after.findings)  # the claim no longer holds


def test_the_validate_command_uses_it_and_no_cache_does_not(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    outs = [run_cli("validate", "--root", str(root), "--format", "json", env={
        "XDG_CACHE_HOME": str(tmp_path / "xdg")}) for _ in range(3)]
    assert len({o.stdout for o in outs}) == 1 and all(o.returncode == 0 for o in outs)
    assert (next((tmp_path / "xdg").rglob("checked.bin"))).stat().st_size > 0
    evidence = root / "evidence/run.json"
    data = json.loads(evidence.read_text())
    data["runs"][0]["rps"] = 8  # alpha claims a lead at 12 req/s against 10
    evidence.write_text(json.dumps(data))
    broken = run_cli("validate", "--root", str(root), env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert broken.returncode == 1 and "alpha" in broken.stdout + broken.stderr


# --- the differential property ------------------------------------------------------------------------------------

FILES = ["evidence/sample/latency.json", "evidence/sample/tools/hyperfine-cli-start.json",
         "evidence/sample/tools/hyperfine-rival-start.json", "evidence/sample/tools/serving-compare.json",
         "evidence/sample/reuse.json", "CLAIMS.md", "BENCHMARK-AUTHORITY.md", "evidence/headline-qwen-50x5.json"]


def _numbers(node, out, where=()):
    if isinstance(node, dict):
        for k, v in node.items():
            _numbers(v, out, where + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _numbers(v, out, where + (i,))
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        out.append(where)


def _set(node, where, value):
    for k in where[:-1]:
        node = node[k]
    node[where[-1]] = value


def _clear(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)


def _number(root: Path, rel: str, pick: int, factor: float, outside: Path) -> None:
    path = root / rel
    if not (path.is_file() and rel.endswith(".json")):
        return
    try:
        data = json.loads(path.read_text())
    except ValueError:
        return
    places: list = []
    _numbers(data, places)
    if places:
        where = places[pick % len(places)]
        node = data
        for k in where:
            node = node[k]
        _set(data, where, round(node * factor, 6))
        path.write_text(json.dumps(data, indent=1))


def _delete(root: Path, rel: str, *_) -> None:
    if (root / rel).is_file() or (root / rel).is_symlink():
        (root / rel).unlink()


def _folder(root: Path, rel: str, *_) -> None:
    _clear(root / rel)
    (root / rel).mkdir()


def _outside(root: Path, rel: str, pick: int, factor: float, outside: Path) -> None:  # a link out of the root
    _clear(root / rel)
    (root / rel).symlink_to(outside)


def _restore(root: Path, rel: str, *_) -> None:
    _clear(root / rel)
    shutil.copy2(REPO / rel, root / rel)


def _garbage(root: Path, rel: str, *_) -> None:
    if not (root / rel).is_dir():
        (root / rel).write_text('{"meta": {"date": "1999-01-01"}, "results": [')


def _tolerance(root: Path, rel: str, pick: int, factor: float, outside: Path) -> None:
    settings_file = root / "scorecard.yaml"
    text = settings_file.read_text()
    settings_file.write_text(text.replace("parity_tolerance: 0.05", f"parity_tolerance: {min(factor, 2) / 10:g}")
                             if "parity_tolerance: 0.05" in text else
                             text.replace("parity_tolerance:", "parity_tolerance: 0.05 #", 1))


def _record(root: Path, rel: str, pick: int, factor: float, outside: Path) -> None:
    """A record's claim edited: never reused, but the others around it are."""
    records = sorted((root / "claims").rglob("*.yaml"))
    record = records[pick % len(records)]
    record.write_text(record.read_text().replace("claim: ", f"claim: {factor:.3g} ", 1))


def _commit(root: Path, rel: str, pick: int, *_) -> None:
    commit(root, f"step {pick}", pick % 400)


CHANGES = {"number": _number, "delete": _delete, "folder": _folder, "outside": _outside, "restore": _restore,
           "garbage": _garbage, "tolerance": _tolerance, "record": _record, "commit": _commit}


def mutate(root: Path, op: str, pick: int, factor: float, outside: Path) -> None:
    """One change a contributor (or an attacker) might make between two validates, to one of FILES."""
    CHANGES[op](root, FILES[pick % len(FILES)], pick, factor, outside)


OPS = st.sampled_from(sorted(CHANGES))
STEP = st.tuples(OPS, st.integers(0, 1000), st.sampled_from([0.5, 0.97, 1.0, 1.03, 2.0, 100.0]),
                 st.sampled_from([TODAY, date(2029, 6, 1), date(2026, 1, 2)]))


def _in_git(tmp_path_factory, name: str) -> tuple[Path, Path, Path]:
    """A fresh folder (with a cache of its own) holding the example ledger in git and a file outside it to link
    to: (the folder, the ledger, the outside file)."""
    base = tmp_path_factory.mktemp(name)
    os.environ["XDG_CACHE_HOME"] = str(base / "xdg")
    outside = base / "outside.json"
    outside.write_text('{"secret": 1}')
    root = copy_example(base / "ledger")
    git(root, "init", "-q")
    commit(root, "start", 1)
    return base, root, outside


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, min_size=1, max_size=4))
def test_warm_validate_gives_the_findings_cold_validate_gives(tmp_path_factory, steps):
    base, root, outside = _in_git(tmp_path_factory, "memo")
    warm(root), warm(root)  # the memo made
    for op, pick, factor, today in steps:
        mutate(root, op, pick, factor, outside)
        got, want = warm(root, today), cold(root, today)
        assert got.findings == want.findings, (op, pick, factor, today)
        assert got.dimension_count == want.dimension_count


@pytest.mark.parametrize("op", ["number", "delete", "folder", "outside", "garbage"])
@pytest.mark.parametrize("pick", range(len(FILES)))
def test_each_kind_of_change_to_each_kind_of_file_is_seen(tmp_path, op, pick):
    """Every answer the store gives (an artifact's bytes, a path's kind, a problem) is asked again: a trace target
    deleted or made a folder, an artifact changed, unreadable or a link out of the root."""
    outside = tmp_path / "outside.json"
    outside.write_text('{"secret": 1}')
    root = copy_example(tmp_path / "ledger")
    warm(root), warm(root)
    mutate(root, op, pick, 2.0, outside)
    got, want = warm(root), cold(root)
    assert got.findings == want.findings
    if op in ("delete", "folder", "outside") or (op == "garbage" and FILES[pick].endswith(".json")):
        # each breaks a cited file (a Markdown trace target's text is not read): the check must say so
        assert got.findings and got.reused < 16


def test_a_date_from_git_is_asked_again(tmp_path):
    """Evidence without meta.date is as old as the last commit that changed it: committed again later, it is no
    longer stale, and a record kept while it was must be judged again."""
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "scorecard.yaml").write_text((root / "scorecard.yaml").read_text() + "stale_evidence_after_months: 3\n")
    run = root / "evidence/run.json"
    run.write_text(run.read_text().replace('"date": "2026-02-01"', '"label": "ci"'))
    git(root, "init", "-q")
    commit(root, "measured", 10)  # 2026-01-11
    today = date(2026, 3, 1)  # under 3 months: fresh
    warm(root, today), warm(root, today)
    assert warm(root, today).reused == 2 and warm(root, today).findings == cold(root, today).findings == []
    later = date(2026, 6, 1)  # stale now: a day is part of the key, so nothing is reused
    assert any(f.code == "SC310" for f in warm(root, later).findings)
    run.write_text(run.read_text().replace('"label": "ci"', '"label": "ci2"'))
    commit(root, "measured again", 140)  # 2026-05-21: fresh again on 2026-06-01
    warm(root, later)
    git(root, "commit", "-q", "--amend", "--no-edit", "--date", "@1767225600", when=1767225600 + 20 * 86400)
    got, want = warm(root, later), cold(root, later)  # the same bytes, an older commit: stale once more
    assert got.findings == want.findings and any(f.code == "SC310" for f in want.findings)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, min_size=1, max_size=3))
def test_a_warm_build_gives_the_site_a_cold_build_gives(tmp_path_factory, steps):
    """A build keeps and reuses clean checks too, working out only what the site reads of a kept record: its
    outcome, findings and every byte of its site are a cold build's."""
    base, root, outside = _in_git(tmp_path_factory, "memo-build")
    for _ in range(3):  # seen, kept, reused
        assert not pipeline.build(LedgerPlace.at(root, today=TODAY), base / "site", warm=True).refused
    for n, (op, pick, factor, today) in enumerate(steps):
        mutate(root, op, pick, factor, outside)
        got = pipeline.build(LedgerPlace.at(root, today=today), base / "site", warm=True)
        want = pipeline.build(LedgerPlace.at(root, today=today), base / f"cold-{n}")
        assert (got.refused, got.checked.findings) == (want.refused, want.checked.findings), (op, pick, factor)
        if not want.refused:
            assert files(base / "site") == files(base / f"cold-{n}"), (op, pick, factor, today)



# --- found by the hostile pass ------------------------------------------------------------------------------------

QUERIED = """title: {title}
why: Because.
sota: {{bar: The bar is 10 req/s., value: 10, unit: req/s, better: higher, source: https://example.org/a,
       date: 2026-01}}
status: leads
claim: {claim} req/s
result: {{evidence: {evidence}, path: "{path}", unit: req/s}}
{extra}"""


def _queried(root: Path, category: str, name: str, claim: str, evidence: str, path: str, extra: str = "") -> None:
    folder = root / "claims" / category
    if not folder.exists():
        folder.mkdir()
        (folder / "_category.yaml").write_text(f"title: {category}\n")
    (folder / f"{name}.yaml").write_text(QUERIED.format(title=name, claim=claim, evidence=evidence, path=path,
                                                        extra=extra))


def _spent(root: Path) -> int:
    from scorecard.measure import budget

    cold(root)
    return budget.run_spent()[1]


def test_a_kept_record_whose_query_no_longer_fits_the_runs_budget_is_checked_again(tmp_path, monkeypatch):
    """Records made to spend the run's query budget before a kept one: cold, its query is not run (SC311); warm
    must say the same, not reuse it as clean."""
    from scorecard.measure import budget

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    _queried(root, "zz", "a", "12", "evidence/run.json", "$.runs[?@.name == 'fast'].rps")
    alone = _spent(root)
    warm(root), warm(root)
    assert warm(root).reused == 3  # alpha, beta and a, whose query fitted
    (root / "evidence/big.json").write_text(json.dumps({"m": {f"k{i}": i for i in range(2000)}}))
    for i in range(3):  # sorted before zz: their queries run first
        _queried(root, "aa", f"b{i}", "1999", "evidence/big.json", "$.m[?@ == 1999]")
    everything = _spent(root)
    monkeypatch.setattr(budget, "RUN_WORK_BUDGET", everything - alone // 2)  # the b's fit, a's query does not
    want = cold(root)
    assert [f.code for f in want.findings if f.file == "claims/zz/a.yaml"] == ["SC311"]
    assert warm(root).findings == want.findings


def test_a_stamp_whose_query_the_budget_stopped_is_a_finding_never_a_silent_pass(tmp_path, monkeypatch):
    """The review rule reads a path: query's value again for the fingerprint; stopped there by the run's budget,
    it used to skip the stamp's check without a word (the hostile pass). Now it says the stamp cannot be checked."""
    from scorecard.measure import budget

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    _queried(root, "zz", "a", "12", "evidence/run.json", "$.runs[?@.name == 'fast'].rps",
             "reviewed: fp1-0000000000000000\n")
    assert "SC801" in [f.code for f in cold(root).findings]  # a wrong stamp, with budget to spare
    once_ = _spent(root) // 2  # the reading query and the stamp's, the same work each
    monkeypatch.setattr(budget, "RUN_WORK_BUDGET", once_ + once_ // 2)
    found = [f for f in cold(root).findings if f.file == "claims/zz/a.yaml"]
    assert [(f.code, f.line) for f in found] == [("SC311", 8)]
    assert "reviewed: stamp cannot be checked" in found[0].message


def test_the_codes_digest_covers_every_file_below_the_package(tmp_path):
    """A rule changed in a sub-package (ledger/, measure/) must not read what the older code kept (the hostile pass:
    only the package's top folder was hashed); bytecode caches aside; two installs of the same code share it."""
    import scorecard
    from scorecard.ledger import cache

    (tmp_path / "pkg/sub/__pycache__").mkdir(parents=True)
    rule = tmp_path / "pkg/sub/rules.py"
    rule.write_text("RULE = 1\n")
    before = cache.files_below(tmp_path / "pkg")
    assert [rel for rel, _, _ in before] == ["sub/rules.py"]
    (tmp_path / "pkg/sub/__pycache__/rules.cpython-311.pyc").write_bytes(b"x")
    assert cache.files_below(tmp_path / "pkg") == before
    rule.write_text("RULE = 2\n")
    os.utime(rule, ns=(1, 1))
    assert cache.files_below(tmp_path / "pkg") != before
    walked: list[Path] = []
    real = cache.files_below
    cache.files_below = lambda folder: walked.append(Path(folder)) or real(folder)  # type: ignore[assignment]
    try:
        fresh = cache.code_digest.__wrapped__()  # type: ignore[attr-defined]
        kept = list((tmp_path / "xdg").rglob("code-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == fresh == cache.code_digest.__wrapped__()  # type: ignore
        kept[0].write_bytes(b"short")  # damaged: worked out again from the files' bytes
        assert cache.code_digest.__wrapped__() == fresh  # type: ignore[attr-defined]
    finally:
        cache.files_below = real
    assert Path(scorecard.__file__).resolve().parent in walked  # the whole package, walked down
