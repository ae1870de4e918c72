"""Reviewed stamps: the fingerprint, the one-line edit, suspect findings that name what changed, the site."""

from __future__ import annotations

import copy
import json
import re

import pytest

from scorecard.cli import pipeline, review
from scorecard.ledger import stamps, stampwords
from scorecard.ledger.model import Dimension

from conftest import LEDGERS, copy_ledger, run_cli
from gitrepo import commit, edit, git, set_rps, suspect_alpha, thirteen_suspects

STAMP = re.compile(r"^reviewed: (fp2-[0-9a-f]{16})$", re.M)


def stamp_of(root, dim="alpha"):
    m = STAMP.search((root / f"claims/core/{dim}.yaml").read_text())
    return m and m[1]


def codes(root):
    result, _ = pipeline.validate(root)
    return [(f.code, f.file, f.line) for f in result.findings], result


# --- the fingerprint ---------------------------------------------------------------------------

def test_fingerprint_covers_what_the_claim_rests_on_and_nothing_else(base_ledger):
    result, store = pipeline.validate(base_ledger)
    alpha = next(d for d in result.ledger.dimensions() if d.id == "alpha")
    covered = stamps.inputs(alpha.model, store.get)
    assert covered == {"status": "leads", "claim": "12 req/s", "result.unit": "req/s",
                       "evidence/run.json#/runs/0/rps": 12.0,
                       "evidence/run.json#/runs/0": {"rps": 12.0, "ok": True, "name": "fast"},
                       # fp2-: the comparison itself (issue 41)
                       "verdict.bar value": 10.0, "verdict.bar unit": "req/s", "verdict.better": "higher",
                       "verdict.bar stat": None, "verdict.bar kind": "claimed", "verdict.our level": None,
                       "verdict.bar level": None, "verdict.parity tolerance": None, "verdict.share": None}
    fp = stamps.fingerprint(covered)
    assert re.match(r"^fp2-[0-9a-f]{16}$", fp)
    # Runs of white space inside the claim read as one space.
    spaced = alpha.model.model_copy(update={"claim": "12   req/s "})
    assert stamps.fingerprint(stamps.inputs(spaced, store.get)) == fp
    # Any covered value changes the stamp.
    for key, value in [("status", "parity"), ("claim", "13 req/s"), ("result.unit", "rps"),
                       ("evidence/run.json#/runs/0/rps", 12.5), ("verdict.bar value", 7.0),
                       ("verdict.better", "lower"), ("verdict.bar stat", "p99"), ("verdict.our level", 0.99)]:
        assert stamps.fingerprint({**covered, key: value}) != fp, key


def test_unrelated_parts_of_the_artifact_do_not_change_the_stamp(base_ledger):
    assert run_cli("review", "alpha", "--root", str(base_ledger)).returncode == 0
    path = base_ledger / "evidence/run.json"
    data = json.loads(path.read_text())
    data["flags"]["stable"] = False
    data["meta"]["machine"] = "another box"
    path.write_text(json.dumps(data, indent=4))
    assert codes(base_ledger)[0] == []


def test_numbers_compare_by_value_not_spelling(base_ledger):
    assert run_cli("review", "alpha", "--root", str(base_ledger)).returncode == 0
    path = base_ledger / "evidence/run.json"
    path.write_text(path.read_text().replace('"rps": 12', '"rps": 12.0'))
    assert codes(base_ledger)[0] == []


# --- the one-line edit ----------------------------------------------------------------------------

AWKWARD = (
    "# A record with comments, odd quoting and spacing.\r\n"
    "title: 'Alpha throughput'   # single-quoted\r\n"
    "why: >-\r\n"
    "  Because it\r\n"
    "  matters.\r\n"
    "sota: {bar: \"The bar is 10 req/s.\", value: 10, unit: req/s, better: higher,\r\n"
    "       source: 'https://example.org/alpha', date: 2026-01}\r\n"
    "status:    leads\r\n"
    "claim: \"12 req/s\"   # keep this comment\r\n"
    "# a comment between keys\r\n"
    "result:\r\n"
    "    evidence: evidence/run.json\r\n"
    "    pointer: /runs/0/rps\r\n"
    "    unit: req/s\r\n"
    "trace: [docs/notes.md]"  # no newline at the end
)


def test_review_inserts_one_line_and_keeps_every_other_byte(base_ledger):
    path = base_ledger / "claims/core/alpha.yaml"
    path.write_bytes(AWKWARD.encode())
    result = run_cli("review", "alpha", "--root", str(base_ledger))
    assert result.returncode == 0, result.stderr
    after = path.read_bytes().decode()
    stamp = re.search(r"reviewed: (fp2-[0-9a-f]{16})", after)[1]
    line = f"reviewed: {stamp}\r\n"
    assert after.count(line) == 1
    assert after.replace(line, "") == AWKWARD  # byte for byte, everything else as it was
    assert after.index(line) == AWKWARD.index("# a comment between keys")  # right after the claim's line
    assert codes(base_ledger)[0] == []


def test_review_replaces_only_the_stamp_keeping_its_comment_and_quotes(base_ledger):
    path = base_ledger / "claims/core/alpha.yaml"
    before = path.read_text().replace("claim: 12 req/s\n",
                                      "claim: 12 req/s\nreviewed: \"fp1-0000000000000000\"  # by ana\n")
    path.write_text(before)
    assert run_cli("review", "alpha", "--root", str(base_ledger)).returncode == 0
    after = path.read_text()
    new = re.search(r'reviewed: "(fp2-[0-9a-f]{16})"  # by ana\n', after)[1]
    assert new != "fp1-0000000000000000"
    assert after == before.replace("fp1-0000000000000000", new)


def test_set_stamp_after_a_block_scalar_claim_and_with_a_bom():
    text = "\ufefftitle: x\nclaim: >-\n  one line\n\nnote: n\n"
    out = review.set_stamp(text, "fp1-0123456789abcdef")
    # A block scalar ends where the next key starts (its trailing blank lines are part of it).
    assert out == "\ufefftitle: x\nclaim: >-\n  one line\n\nreviewed: fp1-0123456789abcdef\nnote: n\n"
    assert out.replace("reviewed: fp1-0123456789abcdef\n", "") == text


@pytest.mark.parametrize("text", ["{title: x, claim: y}\n", "title: x\nreviewed: [a]\nclaim: c\n", "title: x\n"])
def test_set_stamp_refuses_shapes_it_cannot_edit_safely(text):
    with pytest.raises(review.StampRefused):
        review.set_stamp(text, "fp1-0123456789abcdef")


def test_review_refuses_changing_nothing_when_the_dimension_has_errors(base_ledger):
    edit(base_ledger, "claims/core/alpha.yaml", "pointer: /runs/0/rps", "pointer: /runs/0/rpz")
    edit(base_ledger, "claims/core/beta.yaml", "claim: not measured",
         "claim: not measured\nreviewed: fp1-0000000000000000")
    before = {p: p.read_bytes() for p in base_ledger.rglob("*.yaml")}
    for args in (["alpha"], ["alpha", "beta"], ["--all"]):
        result = run_cli("review", *args, "--root", str(base_ledger))
        assert result.returncode == 1, args
        assert "SC307" in result.stderr and "review refused" in result.stderr and "no file was changed" in result.stderr
        assert {p: p.read_bytes() for p in base_ledger.rglob("*.yaml")} == before
    # beta alone has no errors: it can be reviewed.
    assert run_cli("review", "beta", "--root", str(base_ledger)).returncode == 0
    assert stamp_of(base_ledger, "beta") != "fp1-0000000000000000"


def test_review_usage_errors(base_ledger):
    for args, text in [([], "or pass --all"), (["alpha", "--all"], "not both"), (["nope"], "no dimension named nope")]:
        result = run_cli("review", *args, "--root", str(base_ledger))
        assert result.returncode == 2 and text in result.stderr, (args, result.stderr)


def test_review_all_then_again_is_already_current_and_dry_run_writes_nothing(base_ledger):
    before = {p: p.read_bytes() for p in base_ledger.rglob("*.yaml")}
    dry = run_cli("review", "--all", "--dry-run", "--root", str(base_ledger))
    assert dry.returncode == 0 and "would stamp 2 dimensions" in dry.stdout
    assert {p: p.read_bytes() for p in base_ledger.rglob("*.yaml")} == before
    one = run_cli("review", "alpha", "--dry-run", "--root", str(base_ledger))
    assert "evidence/run.json#/runs/0/rps: 12" in one.stdout  # one dimension named: what the stamp covers
    first = run_cli("review", "--all", "--root", str(base_ledger))
    assert first.returncode == 0 and "stamped 2 dimensions" in first.stdout
    # one line per dimension and a summary (issue 43 item 6: about 90 lines for 8 dimensions before)
    assert first.stdout.count("\n") == 3 and first.stdout.splitlines()[0].startswith("reviewed alpha ")
    again = run_cli("review", "--all", "--root", str(base_ledger))
    assert again.returncode == 0 and "already current: alpha, beta" in again.stdout and "stamped 0" in again.stdout
    assert codes(base_ledger)[0] == []
    # The written stamp is what the model accepts.
    Dimension.model_validate(__import__("yaml").safe_load((base_ledger / "claims/core/alpha.yaml").read_text()))


# --- suspect claims -------------------------------------------------------------------------------

def test_suspect_names_what_changed_from_the_committed_review(tmp_path):
    root = suspect_alpha(tmp_path / "ledger", "--all")
    found, _ = codes(root)
    assert found == [("SC801", "claims/core/alpha.yaml", 12)]
    result = run_cli("validate", "--root", str(root))
    assert result.returncode == 0  # a warning
    assert ("suspect: 'alpha' changed since it was reviewed: claim: \"12 req/s\" → \"12.9 req/s\"; "
            "evidence/run.json#/runs/0/rps: 12 → 12.9") in result.stdout
    assert run_cli("validate", "--strict", "--root", str(root)).returncode == 1
    # The review, once done, says what it saw change, and the ledger is clean again.
    done = run_cli("review", "alpha", "--root", str(root))
    assert "changed since the last review:" in done.stdout and "evidence/run.json#/runs/0/rps: 12 → 12.9" in done.stdout
    assert codes(root)[0] == []


def test_suspect_without_git_says_what_it_can(base_ledger):
    assert run_cli("review", "alpha", "--root", str(base_ledger)).returncode == 0
    edit(base_ledger, "claims/core/alpha.yaml", "status: leads", "status: leads\n")
    set_rps(base_ledger, 14)
    edit(base_ledger, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: 14 req/s")  # said as measured again
    found, result = codes(base_ledger)
    assert [c for c, *_ in found] == ["SC801"]
    assert "git holds no committed version of the review" in result.findings[0].message


def test_require_review_warns_only_for_measured_claims(base_ledger):
    (base_ledger / "scorecard.yaml").write_text((base_ledger / "scorecard.yaml").read_text() + "require_review: true\n")
    found, _ = codes(base_ledger)
    assert found == [("SC802", "claims/core/alpha.yaml", 10)]
    assert run_cli("review", "alpha", "--root", str(base_ledger)).returncode == 0
    assert codes(base_ledger)[0] == []


# --- staleness ------------------------------------------------------------------------------------

def test_evidence_age_from_git_when_there_is_no_meta_date(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    path = root / "evidence/run.json"
    data = json.loads(path.read_text())
    del data["meta"]["date"]
    path.write_text(json.dumps(data))
    (root / "scorecard.yaml").write_text((root / "scorecard.yaml").read_text() + "stale_evidence_after_months: 3\n")
    assert codes(root)[0] == []  # not in git: no date, so no age and no warning
    git(root, "init", "-q")
    commit(root, "old evidence", -400)  # 2024-11-27; today is 2026-06-15
    found, result = codes(root)
    assert found == [("SC310", "claims/core/alpha.yaml", 13)]
    assert "measured 19 months ago (2024-11-27, from the last git commit that changed it)" in result.findings[0].message
    path.write_text(path.read_text() + "\n")  # uncommitted changes: newer than any commit, so no age
    assert codes(root)[0] == []



def test_evidence_dates_cost_the_same_few_git_calls_however_many_artifacts(tmp_path, monkeypatch):
    from scorecard.core import git as git_module

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "scorecard.yaml").write_text((root / "scorecard.yaml").read_text() + "stale_evidence_after_months: 3\n")
    alpha = (root / "claims/core/alpha.yaml").read_text()
    for i in range(12):  # twelve dimensions, each reading its own artifact without meta.date
        (root / f"evidence/run-{i}.json").write_text(json.dumps({"runs": [{"rps": 12}]}))
        (root / f"claims/core/alpha-{i}.yaml").write_text(alpha.replace("evidence/run.json", f"evidence/run-{i}.json"))
    git(root, "init", "-q")
    commit(root, "old evidence", -400)
    calls = []
    real = git_module.run
    monkeypatch.setattr(git_module, "run", lambda args, *a, **k: (calls.append(args[0]), real(args, *a, **k))[1])
    found, _ = codes(root)
    stale = sorted(f[1] for f in found if f[0] == "SC310")  # alpha's own artifact is stale by its meta.date
    assert stale == sorted([f"claims/core/alpha-{i}.yaml" for i in range(12)] + ["claims/core/alpha.yaml"])
    assert calls == ["rev-parse", "ls-tree", "log"]  # one batch for all of evidence/, not one per artifact



def test_many_suspects_are_explained_with_a_fixed_few_git_processes(tmp_path, monkeypatch):
    from scorecard.core import git as git_module

    root = thirteen_suspects(tmp_path / "ledger")
    calls, readers = [], []
    real_run, real_reader = git_module.run, git_module.BlobReader
    monkeypatch.setattr(git_module, "run", lambda args, *a, **k: (calls.append(args[0]), real_run(args, *a, **k))[1])
    monkeypatch.setattr(git_module, "BlobReader", lambda *a: (readers.append(1), real_reader(*a))[1])
    found, result = codes(root)
    suspect = [f for f in result.findings if f.code == "SC801"]
    assert len(suspect) == 13
    assert all(f.message.endswith("evidence/run.json#/runs/0/rps: 12 → 12.5") for f in suspect)
    assert calls == ["rev-parse", "log"] and readers == [1]  # not a few processes per suspect


# --- the site -------------------------------------------------------------------------------------

def test_site_marks_reviewed_suspect_and_never_reviewed(base_ledger, tmp_path):
    (base_ledger / "scorecard.yaml").write_text((base_ledger / "scorecard.yaml").read_text()
                                                + "stale_evidence_after_months: 3\n")
    out = tmp_path / "site"
    assert not pipeline.build(base_ledger, out).refused
    page = (out / "core/index.html").read_text()
    assert "not reviewed</span> no review of this claim and its number has been recorded" in page
    assert 'Measured <time datetime="2026-02-01">2026-02-01</time> (from the artifact\'s meta.date)' in page
    assert 'flag flag-stale">stale evidence' in page
    assert "(source from 2026-01)" in page
    assert "not reviewed" in (out / "index.html").read_text()
    assert run_cli("review", "--all", "--root", str(base_ledger)).returncode == 0
    pipeline.build(base_ledger, out)
    page = (out / "core/index.html").read_text()
    assert "✓</span> reviewed</span> what this claim rests on is unchanged" in page
    set_rps(base_ledger, 12.5)
    outcome = pipeline.build(base_ledger, out)
    assert not outcome.refused  # suspect is a warning
    page = (out / "core/index.html").read_text()
    assert "⚠</span> suspect</span> what this claim rests on changed" in page
    index = (out / "index.html").read_text()
    assert "1 suspect</span> (changed since their review)" in index
    data = json.loads((out / "data.json").read_text())
    alpha = data["categories"][0]["dimensions"][0]
    assert alpha["review"] == "suspect" and alpha["evidence_date"] == "2026-02-01" and alpha["evidence_stale"]


def test_review_takes_dimension_files_as_well_as_ids(base_ledger):
    result = run_cli("review", "alpha.yaml", "../../claims/core/beta.yaml", cwd=base_ledger / "claims/core")
    assert result.returncode == 0, result.stderr
    assert stamp_of(base_ledger, "alpha") and stamp_of(base_ledger, "beta")
    outside = run_cli("review", "scorecard.yaml", cwd=base_ledger)
    assert outside.returncode == 2 and "is not a dimension file of this ledger" in outside.stderr


def test_a_changed_input_of_a_derived_value_makes_its_review_suspect(tmp_path):
    root = copy_ledger(LEDGERS / "good" / "measurements", tmp_path / "ledger")
    assert run_cli("review", "--all", "--root", str(root)).returncode == 0
    assert codes(root)[0] == []
    path = root / "evidence/sample/tools/serving-compare.json"
    path.write_text(path.read_text().replace('"peak_tok_s": 1840.0', '"peak_tok_s": 1800.0'))
    result, _ = pipeline.validate(root)
    # SC513 is an error (issue 42): a record with an error is not judged for its review until it is mended
    assert [(f.code, f.file) for f in result.findings] == [("SC513", "claims/tool-output/peak-decode-vs-sglang.yaml")]
    assert result.findings[0].message == "claim says 0.75x; the artifact gives 0.767x"


def test_the_description_of_a_change_converts_units():
    old = {"status": "parity", "result.unit": "ms", "evidence/a.json#/p50": 33.8}
    assert stampwords.describe(old, {**old, "result.unit": "s", "evidence/a.json#/p50": 0.0338}) == [
        'result.unit: "ms" → "s" (convertible: 1 ms = 0.001 s)',
        "evidence/a.json#/p50: 33.8 → 0.0338 (the same quantity in the new unit)"]
    assert stampwords.describe(old, {**old, "result.unit": "s", "evidence/a.json#/p50": 0.04})[1] == \
        "evidence/a.json#/p50: 33.8 → 0.04"


def test_runs_that_changed_are_said_per_statistic_not_run_by_run():
    """Issue 26: a re-run turned a reviewed claim suspect with one line holding 20 per-run diffs in raw seconds."""
    old = {"evidence/r.json#/runs": [0.0025 + i * 1e-5 for i in range(20)]}
    new = {"evidence/r.json#/runs": [0.0014 + i * 1e-5 for i in range(20)]}
    lines = stampwords.describe(old, new)
    assert len(lines) == 1 and lines[0].startswith("evidence/r.json#/runs: median 0.002595 → 0.001495 (n = 20 → 20)")
    assert lines[0].endswith("95% intervals do not overlap")
    noisy = {"evidence/r.json#/runs": [0.0025 + (i % 2) * 1e-3 for i in range(20)]}
    assert stampwords.describe(old, noisy)[0].endswith("within the runs' noise (95% intervals overlap)")
    few = stampwords.describe({"k": [1.0, 2.0, 3.0]}, {"k": [1.0, 2.5, 3.0]})
    assert few == ["k/1: 2 → 2.5"]  # three numbers stay leaf by leaf


def test_a_format_reads_stamp_covers_the_runs_and_the_unit_the_tool_states(tmp_path):
    """A re-run of the tool, or the same numbers in another time_unit, turns a reviewed claim suspect."""
    root = copy_ledger(LEDGERS / "good" / "tool-formats", tmp_path / "ledger")
    proc = run_cli("review", "gbench", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    assert pipeline.validate(root)[0].findings == []
    path = root / "evidence/gbench.json"
    original = json.loads(path.read_text())

    def suspect(edit) -> list[str]:
        data = copy.deepcopy(original)
        edit(data)
        path.write_text(json.dumps(data))
        return [f.message for f in pipeline.validate(root)[0].findings if f.code == "SC801"]

    def unit(data):
        for entry in data["benchmarks"]:
            if entry["run_name"] == "plain_join":
                entry["time_unit"] = "us"

    def rerun(data):
        data["benchmarks"][8]["real_time"] += 1

    def elsewhere(data):
        data["benchmarks"][0]["real_time"] += 1  # another benchmark's run: not what the claim rests on

    def covered(edit) -> dict:
        data = copy.deepcopy(original)
        edit(data)
        path.write_text(json.dumps(data))
        result, store = pipeline.validate(root)
        dim = next(d for d in result.ledger.dimensions() if d.id == "gbench")
        return stamps.inputs(dim.model, store.get)

    before, after = covered(lambda data: None), covered(unit)
    assert [v for k, v in before.items() if "google-benchmark" in k][0]["unit"] == "ns"
    assert [v for k, v in after.items() if "google-benchmark" in k][0]["unit"] == "us"
    assert stamps.fingerprint(before) != stamps.fingerprint(after)
    assert len(suspect(rerun)) == 1
    assert suspect(elsewhere) == []


def test_a_suspect_tool_entry_is_named_in_words_with_values_in_their_unit(tmp_path):
    """Issue 43 item 6: SC801 said `evidence/x.json#{"benchmark": ..., "format": ..., "stat": ...}/values: median
    0.000212838 → 0.000204391`. It names the entry and the statistic and gives values in their unit, and says
    "outside the reviewed interval" only when the new value is."""
    root = copy_ledger(LEDGERS / "good" / "tool-formats", tmp_path / "ledger")
    git(root, "init", "-q")
    assert run_cli("review", "gbench", "--root", str(root)).returncode == 0
    commit(root, "reviewed", 1)
    path = root / "evidence/gbench.json"
    data = json.loads(path.read_text())
    runs = [e for e in data["benchmarks"] if e.get("run_name") == "plain_join" and e.get("run_type") != "aggregate"]
    unit = runs[0]["time_unit"]
    before = sum(e["real_time"] for e in runs) / len(runs)
    for entry in runs:
        entry["real_time"] = round(entry["real_time"] * 1.5, 3)
    path.write_text(json.dumps(data))
    message = next(f.message for f in pipeline.validate(root)[0].findings if f.code == "SC801")
    assert "#{" not in message and "/values" not in message, message
    said = re.search(r"plain_join, mean: ([\d.,]+) (\S+) → ([\d.,]+) (\S+), 3 → 3 runs$", message)
    assert said, message
    assert said[2] == said[4] and float(said[1].replace(",", "")) == pytest.approx(
        before * {"ns": 1, "us": 1e3, "ms": 1e6}[unit] / {"ns": 1, "µs": 1e3, "ms": 1e6}[said[2]], rel=1e-3)


def test_moving_a_format_unit_to_display_unit_keeps_the_review_current(tmp_path):
    """Issue 43 item 5: `unit: ms` beside format: hyperfine (SC328 now) moved to `display_unit: ms` is the same claim
    shown the same way: its stamp stays current, and the page shows the value in ms as before."""
    root = copy_ledger(LEDGERS / "good" / "tool-formats", tmp_path / "ledger")
    record = root / "claims/tools/hyperfine.yaml"
    text = record.read_text()
    assert "display_unit: ms\n" in text and "  unit: ms" not in text.split("\nresult:")[1]
    old_form = text.replace("display_unit: ms\n", "").replace("\nresult:\n", "\nresult:\n  unit: ms\n")
    record.write_text(old_form)
    assert run_cli("review", "hyperfine", "--root", str(root)).returncode == 0
    assert [f.code for f in pipeline.validate(root)[0].findings] == ["SC328"]
    stamped = record.read_text()
    record.write_text(stamped.replace("\nresult:\n  unit: ms\n", "\ndisplay_unit: ms\nresult:\n"))
    assert pipeline.validate(root)[0].findings == []  # no SC801: the review is current
    record.write_text(stamped.replace("\nresult:\n  unit: ms\n", "\ndisplay_unit: s\nresult:\n"))
    assert [f.code for f in pipeline.validate(root)[0].findings] == ["SC801"]  # shown otherwise: a new claim
