"""Bars we measured ourselves (sota.kind, sota.result): read like ours, both intervals in the verdict, and seen by
review, diff and the reader. The corpus holds the refusals (tests/ledgers/bad/reproduced-*, bar-*, result-*)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from scorecard.cli import pipeline
from scorecard.measure import verdict
from scorecard.measure import compare, stats
from scorecard.measure.reading import Measurement

from conftest import LEDGERS, bad_case, copy_ledger, run_cli


def _records(root):
    result, _ = pipeline.validate(root)
    assert result.errors == [], result.errors
    return {d.id: d for d in result.ledger.dimensions()}


def test_both_sides_are_read_at_the_level_k_intervals_need(tmp_path):
    root = copy_ledger(LEDGERS / "good" / "reproduced-bar", tmp_path / "ledger")
    dims = _records(root)
    for dim in ("alpha", "beta", "gamma"):
        rec = dims[dim]
        assert rec.measurement.level == rec.bar.level == 1 - float(stats.ALPHA) / 2, dim  # 97.5 % each
        assert rec.bar_of.kind in ("reproduced", "independent") and rec.bar_of.has_interval


def test_a_lead_must_clear_the_bars_interval_not_only_its_value():
    """The same numbers against a typed bar lead; against the same bar read with a wide interval, they do not."""
    ours = Measurement(10.0, "ms", (), low=9.9, high=10.1, interval_from="ci", level=0.975)
    wide = Measurement(10.6, "ms", (), low=9.0, high=12.0, interval_from="ci", level=0.975)
    sota = type("S", (), {"value": None, "unit": None, "better": "lower", "stat": None, "kind": "reproduced"})()
    typed = compare.Bar(10.6, "ms", "lower", None)
    assert compare.compare(ours, typed, 0.05).standing == "ahead"
    c = compare.compare(ours, compare.Bar.of(sota, wide), 0.05)
    # our worse end (10.1) against the bar's better end (9.0) is 12% behind: not placed (issue 41: was level)
    assert (c.standing, c.bar_low, c.bar_high) == ("unplaced", 9.0, 12.0)
    problem = verdict.judge("leads", ours, c, compare.Bar.of(sota, wide))
    assert problem is not None and problem.code == "SC505" and "the bar's own interval" in problem.message
    # exactly at the bar's near end is not past it; a hair beyond is
    at = Measurement(8.0, "ms", (), low=7.9, high=9.0, interval_from="ci", level=0.975)
    assert compare.compare(at, compare.Bar.of(sota, wide), 0.05).standing == "level"
    past = Measurement(8.0, "ms", (), low=7.9, high=8.999, interval_from="ci", level=0.975)
    assert compare.compare(past, compare.Bar.of(sota, wide), 0.05).standing == "ahead"
    # a bar whose runs cannot give its near end: no lead rests on it, and the finding says how many runs it needs
    open_end = Measurement(10.6, "ms", (), low=None, high=12.0, interval_from="ci", level=0.975, needs_low=7)
    bar = compare.Bar.of(sota, open_end)
    c = compare.compare(past, bar, 0.05)
    assert c.standing == "unplaced"  # our worse end against a bar with no better end: not placed (issue 41)
    assert "needs 7 runs" in verdict.judge("leads", past, c, bar).message


def test_a_rerun_of_the_rival_turns_a_reviewed_claim_suspect_and_diff_says_so(tmp_path):
    top = tmp_path / "repo"
    root = copy_ledger(LEDGERS / "good" / "reproduced-bar", top)
    assert run_cli("review", "--all", "--root", str(root)).returncode == 0
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(top), "PATH": "/usr/bin:/bin"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "start"]):
        subprocess.run(["git", *args], cwd=top, check=True, capture_output=True, env=env)
    path = root / "evidence/rival.json"
    data = json.loads(path.read_text())
    data["rival"] = [x + 1 for x in data["rival"]]  # the rival, re-run: slower
    path.write_text(json.dumps(data))
    found = pipeline.validate(root)[0].findings
    assert sorted(f.file for f in found if f.code == "SC801") == ["claims/core/alpha.yaml", "claims/core/gamma.yaml"]
    proc = run_cli("diff", "HEAD", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"bar 12 ms → 13 ms.*\(read from sota\.result\)", proc.stdout), proc.stdout


def test_stamps_of_dimensions_without_a_measured_bar_are_unchanged():
    """The example ledger's stamps were written before sota.result existed, and still match."""
    result, _ = pipeline.validate(LEDGERS.parent.parent)
    assert [f for f in result.findings if f.code == "SC801"] == []


def test_the_reader_sees_the_kind_of_every_bar(tmp_path):
    root = copy_ledger(LEDGERS / "good" / "reproduced-bar", tmp_path / "ledger")
    shutil.copy(LEDGERS / "base" / "claims" / "core" / "beta.yaml", root / "claims" / "core" / "delta.yaml")
    assert not pipeline.build(root, root / "site").refused
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (root / "site/core/index.html").read_text()))
    assert "The bar is measured by us: median of 12 runs, 97.5% interval" in page
    assert "The bar is measured by lab.example.org: median of 12 runs" in page
    assert "The bar is claimed by its authors." in page
    data = json.loads((root / "site/core/data.json").read_text())
    kinds = {d["id"]: d["bar"]["kind"] for d in data["dimensions"]}
    assert kinds["alpha"] == "reproduced" and kinds["gamma"] == "independent"
    alpha = next(d for d in data["dimensions"] if d["id"] == "alpha")
    assert alpha["bar"]["n"] == 12 and alpha["bar"]["pointer"] == "/rival" and alpha["comparison"]["bar_low"]
    csv = (root / "site/data.csv").read_text().splitlines()
    header = csv[0].split(",")
    assert "bar_kind" in header
    column = header.index("bar_kind")
    assert sorted(line.split(",")[column] for line in csv[1:] if line.startswith(("alpha,", "gamma,"))) == \
        ["independent", "reproduced"]


def test_diff_names_a_bar_pointed_elsewhere_as_a_typed_choice(tmp_path):
    from scorecard.cli.diff import typed_choices

    root = copy_ledger(LEDGERS / "good" / "reproduced-bar", tmp_path / "ledger")
    before = typed_choices(_records(root)["alpha"].model)
    path = root / "claims/core/alpha.yaml"
    path.write_text(path.read_text().replace("    pointer: /rival\n", "    pointer: /ours\n", 1))
    result, _ = pipeline.validate(root)
    after = typed_choices(next(d for d in result.ledger.dimensions() if d.id == "alpha").model)
    assert before["sota selection evidence/rival.json#pointer"] == "/rival"
    assert after["sota selection evidence/rival.json#pointer"] == "/ours"
    assert before["sota.result.unit"] == "ms"


def test_against_a_measured_bar_the_missing_end_named_is_the_one_missing():
    """Ours with no high end (lower is better: the worst case) against a bar read with its whole interval: the
    finding names our missing end; a single number of ours against a bar with no near end names the bar's."""
    sota = type("S", (), {"value": None, "unit": None, "better": "lower", "stat": None, "kind": "reproduced"})()
    whole = compare.Bar.of(sota, Measurement(20.0, "ms", (), low=19.0, high=21.0, interval_from="ci", level=0.975))
    ours = Measurement(10.0, "ms", (), low=9.0, high=None, interval_from="ci", level=0.975, needs_high=36)
    c = compare.compare(ours, whole, 0.05)
    problem = verdict.judge("leads", ours, c, whole)
    assert problem is not None and "has no high end" in problem.message and "bar with no" not in problem.message
    open_end = compare.Bar.of(sota, Measurement(10.6, "ms", (), low=None, high=12.0, interval_from="ci",
                                                level=0.975, needs_low=7))
    single = Measurement(8.0, "ms", ())
    c = compare.compare(single, open_end, 0.05)
    problem = verdict.judge("leads", single, c, open_end)
    assert problem is not None and "meets a bar with no low end" in problem.message
    assert "needs 7 runs" in problem.message


def test_each_side_is_read_once_and_again_only_where_both_have_intervals(tmp_path, monkeypatch):
    """Issue 25: one reading per side; a second only at the level k intervals need, where both sides have one (a
    single number reads the same whatever k is)."""
    from scorecard.ledger import bars

    root = copy_ledger(LEDGERS / "good" / "reproduced-bar", tmp_path / "l")
    rival = root / "evidence/rival.json"
    rival.write_text(json.dumps({**json.loads(rival.read_text()), "single": 9.5}))
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("  pointer: /ours\n", "  pointer: /single\n"))
    calls: list[tuple[str | None, int]] = []
    real = bars.measure.read

    def counted(spec, get, others=0):
        calls.append((spec.pointer, others))
        return real(spec, get, others)

    monkeypatch.setattr(bars.measure, "read", counted)
    result, store = pipeline.validate(root)
    assert result.findings == []
    assert calls[:2] == [("/single", 0), ("/rival", 0)] and ("/single", 1) not in calls  # alpha: each side once
    assert len(calls) == 2 + 4 + 4  # beta and gamma: both sides with intervals, each read again at k = 2
    [a] = [d for d in result.ledger.dimensions() if d.id == "alpha"]
    assert a.measurement == real(a.model.result, store.get, 1).measurement  # what reading it again would give


@pytest.mark.parametrize("case", ["bar-is-our-own-runs-said-to-lead", "bar-field-in-another-unit-said-to-trail",
                                  "bar-another-metric-said-to-trail", "bar-is-a-spread"])
def test_a_bar_that_is_not_a_second_measurement_of_the_quantity_stops_the_check_there(case, tmp_path):
    """Pinned by the mutation run of ledger.bars: once the pair is unsound (our own runs, one field in two units,
    another metric, a spread), nothing is judged from it: one finding, the pair's, whatever the status says."""
    root, expect = bad_case(case, tmp_path / "l")
    found = [f for f in pipeline.validate(root)[0].findings if f.code != "SC328"]  # the deprecated unit: form
    assert [(f.code, f.line) for f in found] == [(expect["code"], expect["line"])], found


def test_a_measured_bar_beside_no_claim_of_ours_is_read_alone_at_95_percent(tmp_path):
    """Pinned by the mutation run of ledger.bars: without our result, the bar's interval rests on no other (k = 1)."""
    root = copy_ledger(LEDGERS / "good" / "reproduced-bar", tmp_path / "l")
    alpha = root / "claims/core/alpha.yaml"
    text = alpha.read_text()
    alpha.write_text(text[:text.index("status: leads")] + "status: no-claim\nclaim: not measured yet\n")
    result, _ = pipeline.validate(root)
    assert result.errors == [], result.findings
    [a] = [d for d in result.ledger.dimensions() if d.id == "alpha"]
    assert a.measurement is None and a.bar_of.measured is not None
    assert a.bar_of.measured.level == pytest.approx(0.95)
