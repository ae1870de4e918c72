"""Check stage: schema mapping, honesty margins, ordering, findings sorted."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorecard.cli import pipeline
from scorecard.measure.compare import margin


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize("result,bar,better,expected", [
    (12, 10, "higher", 0.2), (8, 10, "higher", -0.2), (8, 10, "lower", 0.2), (12, 10, "lower", -0.2),
    (1, 0, "higher", 1), (-1, 0, "lower", 1),
])
def test_margin_is_direction_aware(result, bar, better, expected):
    assert margin(result, bar, better) == pytest.approx(expected)


def set_result(root: Path, status: str, value: float, better: str = "higher", unit: str = "req/s") -> list[str]:
    write(root, "evidence/run.json", f'{{"runs": [{{"rps": {value}}}]}}')
    text = (root / "claims/core/alpha.yaml").read_text()
    text = text.replace("status: leads", f"status: {status}").replace("better: higher", f"better: {better}")
    text = text.replace("  unit: req/s\ntrace:", f"  unit: {unit}\ntrace:")
    text = text.replace("claim: 12 req/s", "claim: ${value}")  # prose that follows the number (SC513: test_prose)
    write(root, "claims/core/alpha.yaml", text)
    result, _ = pipeline.validate(root)
    return [f.code for f in result.findings]


@pytest.mark.parametrize("status,value,better,codes", [
    ("leads", 12, "higher", []), ("leads", 10, "higher", ["SC501"]), ("leads", 10.4, "higher", ["SC504"]),
    ("parity", 10.5, "higher", []), ("parity", 9.5, "higher", []), ("parity", 10.6, "higher", ["SC503"]),
    ("trails", 9, "higher", []), ("trails", 11, "higher", ["SC502"]),
    ("leads", 8, "lower", []), ("trails", 12, "lower", []), ("leads", 12, "lower", ["SC501"]),
    ("simulated", 1, "higher", []),
])
def test_honesty(base_ledger, status, value, better, codes):
    assert set_result(base_ledger, status, value, better) == codes


@pytest.mark.parametrize("status,value,unit,codes", [
    # The bar is 10 req/s, higher is better: units convert before the status is judged.
    ("leads", 720, "req/min", []), ("leads", 540, "req/min", ["SC501"]), ("parity", 0.0101, "req/ms", []),
    ("trails", 0.0101, "requests/ms", ["SC502"]),
    # A unit that does not convert never switches the check off (the loophole of issue 11).
    ("leads", 1, "rps", ["SC507", "SC508"]), ("leads", 1, "ms", ["SC507"]), ("parity", 10, "tok/s", ["SC507"]),
    # Simulated values are not judged against the bar; an unknown unit still warns.
    ("simulated", 1, "rps", ["SC508"]), ("simulated", 1, "ms", []),
])
def test_honesty_converts_units_and_refuses_incomparable_ones(base_ledger, status, value, unit, codes):
    assert sorted(set_result(base_ledger, status, value, unit=unit)) == codes


def test_parity_tolerance_comes_from_settings(base_ledger):
    write(base_ledger, "scorecard.yaml", "title: T\nsubject: s\nparity_tolerance: 0.2\n")
    assert set_result(base_ledger, "parity", 12) == []  # 12 against 10 is exactly 20 % ahead: level at ±20 %
    assert set_result(base_ledger, "parity", 12.01) == ["SC503"]


def test_a_tolerance_over_a_fifth_is_refused_and_judged_at_a_fifth(base_ledger):
    write(base_ledger, "scorecard.yaml", "title: T\nsubject: s\nparity_tolerance: 0.99\n")
    result, _ = pipeline.validate(base_ledger)
    codes = sorted(f.code for f in result.findings if f.severity == "error")
    assert "SC515" in codes
    found = next(f for f in result.findings if f.code == "SC515")
    assert (found.file, found.line, found.col) == ("scorecard.yaml", 3, 19) and "at most 0.2" in found.hint


def test_findings_are_sorted_and_all_collected(base_ledger):
    write(base_ledger, "claims/core/beta.yaml", "title: 1\n")
    write(base_ledger, "claims/core/alpha.yaml", "title: A\nwhy: w\nsoruce: x\n")
    result, _ = pipeline.validate(base_ledger)
    keys = [f.sort_key() for f in result.findings]
    assert keys == sorted(keys)
    assert {f.file for f in result.findings} == {"claims/core/alpha.yaml", "claims/core/beta.yaml"}
    assert len(result.findings) >= 6


def test_display_order(base_ledger):
    write(base_ledger, "claims/aaa/_category.yaml", "title: Unordered\n")
    write(base_ledger, "claims/aaa/z.yaml", (base_ledger / "claims/core/beta.yaml").read_text() + "order: 1\n")
    write(base_ledger, "claims/aaa/y.yaml", (base_ledger / "claims/core/beta.yaml").read_text() + "order: 2\n")
    write(base_ledger, "claims/aaa/x.yaml", (base_ledger / "claims/core/beta.yaml").read_text())
    result, _ = pipeline.validate(base_ledger)
    assert result.findings == []
    cats = result.ledger.categories
    assert [c.slug for c in cats] == ["core", "aaa"]  # ordered categories first
    assert [d.id for d in cats[1].dimensions] == ["z", "y", "x"]


def test_missing_field_hint_describes_the_field(base_ledger):
    write(base_ledger, "claims/core/beta.yaml", "title: B\nwhy: w\nstatus: no-claim\nclaim: c\n")
    result, _ = pipeline.validate(base_ledger)
    (f,) = result.findings
    assert (f.code, f.message) == ("SC201", "missing required field 'sota'")


def test_a_trailing_newline_is_never_part_of_a_valid_slug_url_date_or_stamp(base_ledger):
    (base_ledger / "claims/core/first-gap\n.yaml").write_text((base_ledger / "claims/core/beta.yaml").read_text())
    text = (base_ledger / "claims/core/alpha.yaml").read_text()
    text = text.replace("source: https://example.org/alpha", 'source: "https://example.org/alpha\\n"')
    text = text.replace("date: 2026-01", 'date: "2026-01\\n"')
    write(base_ledger, "claims/core/alpha.yaml", text + 'reviewed: "fp1-0123456789abcdef\\n"\n')
    result, _ = pipeline.validate(base_ledger)
    codes = {(f.file.split("/")[-1], f.code) for f in result.findings}
    assert {("first-gap\n.yaml", "SC004"), ("alpha.yaml", "SC601"), ("alpha.yaml", "SC205"),
            ("alpha.yaml", "SC204")} <= codes
