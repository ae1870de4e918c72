"""Boundaries, pinned: a value exactly at the bar or the tolerance, a date exactly today, an age
exactly at its limit, list positions, and the YAML scalars a careless parser gets wrong.

Each case sits on the edge a flipped comparison would move (`<` for `<=`, `>` for `>=`), so the
mutation run (tests/mutation/run) finds a test that fails for every such change.
"""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from scorecard import compare, pipeline
from scorecard.measure import Measurement
from scorecard.yamldoc import Document, parse_bytes

from conftest import LEDGERS, copy_ledger

TOL = 0.05


def bar(value: float = 100.0, better: str = "higher", unit: str = "req/s"):
    return SimpleNamespace(value=value, unit=unit, better=better)


def judged(status: str, value: float, *, low: float | None = None, high: float | None = None,
           better: str = "higher") -> str | None:
    m = Measurement(value, "req/s", (), low=low, high=high, interval_from="ci" if low is not None else "")
    c = compare.compare(m, bar(better=better), TOL)
    assert c is not None
    problem = compare.judge(status, m, c)
    return None if problem is None else problem.code


# --- the margin and the tolerance -------------------------------------------------------------------

@pytest.mark.parametrize(("status", "value", "code"), [
    ("leads", 100.0, "SC501"),    # exactly at the bar is not a lead
    ("leads", 105.0, "SC504"),    # a lead of exactly the tolerance is inside it
    ("leads", 105.5, None),       # beyond the tolerance: a lead
    ("leads", 99.0, "SC501"),
    ("trails", 100.0, "SC502"),   # exactly at the bar is not a trail
    ("trails", 99.0, None),
    ("trails", 101.0, "SC502"),
    ("parity", 105.0, None),      # exactly at +tolerance is level
    ("parity", 95.0, None),       # exactly at -tolerance is level
    ("parity", 105.5, "SC503"),
    ("parity", 94.5, "SC503"),
])
def test_status_against_the_bar_at_its_edges(status, value, code):
    assert judged(status, value) == code


@pytest.mark.parametrize(("status", "value", "lower_code", "higher_code"), [
    ("leads", 95.0, "SC504", "SC501"),   # lower is better: 95 against 100 is exactly 5% ahead
    ("leads", 94.0, None, "SC501"),
    ("trails", 105.0, None, "SC502"),
    ("trails", 95.0, "SC502", None),
])
def test_the_direction_decides_which_side_is_ahead(status, value, lower_code, higher_code):
    assert judged(status, value, better="lower") == lower_code
    assert judged(status, value, better="higher") == higher_code


def test_margin_is_relative_and_direction_aware():
    assert compare.margin(110, 100, "higher") == pytest.approx(0.10)
    assert compare.margin(110, 100, "lower") == pytest.approx(-0.10)
    assert compare.margin(5, 0, "higher") == 5  # a bar of zero: the difference itself
    assert compare.margin(90, -100, "higher") == pytest.approx(1.9)  # relative to |bar|


@pytest.mark.parametrize(("low", "high", "status", "code"), [
    (100.0, 130.0, "leads", "SC505"),   # the interval's worst end exactly at the bar reaches it
    (100.5, 130.0, "leads", None),
    (70.0, 100.0, "trails", "SC506"),   # the best end exactly at the bar reaches it
    (70.0, 99.5, "trails", None),
])
def test_an_interval_touching_the_bar(low, high, status, code):
    value = 120.0 if status == "leads" else 80.0
    assert judged(status, value, low=low, high=high) == code


def test_standing_needs_the_margin_beyond_the_tolerance_and_the_whole_interval_on_one_side():
    def standing(value, low=None, high=None):
        m = Measurement(value, "req/s", (), low=low, high=high)
        c = compare.compare(m, bar(), TOL)
        assert c is not None
        return c.standing

    assert standing(105.0) == "level" and standing(95.0) == "level"
    assert standing(105.5) == "ahead" and standing(94.5) == "behind"
    assert standing(120.0, 100.0, 130.0) == "level"  # worst end exactly at the bar
    assert standing(80.0, 70.0, 100.0) == "level"
    assert standing(120.0, 100.5, 130.0) == "ahead" and standing(80.0, 70.0, 99.5) == "behind"


# --- dates: today, and ages exactly at their limit --------------------------------------------------

TODAY = "2026-06-15"  # SOURCE_DATE_EPOCH of the test run (conftest)


def _validate_with(tmp_path, beta_edits: dict[str, str], settings_edits: dict[str, str] | None = None):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    beta = root / "claims/core/beta.yaml"
    text = beta.read_text()
    for old, new in beta_edits.items():
        assert old in text, old
        text = text.replace(old, new)
    beta.write_text(text)
    settings = root / "scorecard.yaml"
    stext = settings.read_text()
    for old, new in (settings_edits or {}).items():
        assert old in stext, old
        stext = stext.replace(old, new)
    settings.write_text(stext)
    result, _ = pipeline.validate(root)
    return [(f.code, f.file, f.line, f.col) for f in result.findings]


def _beta_date() -> str:
    text = (LEDGERS / "base/claims/core/beta.yaml").read_text()
    return next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("date:"))


@pytest.mark.parametrize(("when", "future"), [(TODAY, False), ("2026-06-16", True), ("2026-06", False),
                                              ("2026-07", True), ("2026", False), ("2027", True)])
def test_a_source_dated_today_is_not_in_the_future(tmp_path, when, future):
    found = _validate_with(tmp_path, {f"date: {_beta_date()}": f"date: {when}"},
                           {"stale_after_months: 24": "stale_after_months: 120"})
    assert any(code == "SC602" for code, *_ in found) == future, found


@pytest.mark.parametrize(("when", "stale"), [
    ("2024-06", False),  # 24 months before June 2026: exactly at the limit, not over it
    ("2024-05", True),
    ("2024", False),     # a year counts from its December: 18 months
    ("2023", True),      # from December 2023: 30 months
])
def test_a_source_exactly_at_the_age_limit_is_not_stale(tmp_path, when, stale):
    found = _validate_with(tmp_path, {f"date: {_beta_date()}": f"date: {when}"})
    assert any(code == "SC603" for code, *_ in found) == stale, found


def test_months_between_counts_whole_months():
    assert compare.months_between((2024, 6), date(2026, 6, 15)) == 24
    assert compare.months_between((2024, 12), date(2026, 6, 1)) == 18
    assert compare.months_between((2026, 7), date(2026, 6, 30)) == -1


# --- YAML: scalars, positions of list items, NUL bytes -----------------------------------------------

def parsed(text: str) -> tuple[Document, list]:
    doc = Document("f.yaml")
    findings: list = []
    parse_bytes(text.encode(), doc, findings)
    return doc, findings


def test_booleans_and_nulls_by_the_yaml_1_2_core_schema():
    doc, findings = parsed("a: false\nb: true\nc: FALSE\nd: null\ne: ~\nf:\ng: 'false'\nh: 0x10\ni: 1e3\n")
    assert findings == []
    assert doc.data == {"a": False, "b": True, "c": False, "d": None, "e": None, "f": None, "g": "false",
                        "h": 16, "i": 1000.0}
    assert doc.data["a"] is False and doc.data["b"] is True


def test_every_list_item_has_its_own_position():
    doc, findings = parsed("trace:\n  - a\n  - b\n  -   c\nx: [1, 22, 333]\n")
    assert findings == []
    assert [doc.pos(("trace", i)) for i in range(3)] == [(2, 5), (3, 5), (4, 7)]
    assert [doc.pos(("x", i)) for i in range(3)] == [(5, 5), (5, 8), (5, 12)]
    assert doc.pos(("x",), key=True) == (5, 1)


def test_a_bad_trace_item_is_reported_at_its_own_line(tmp_path):
    text = (LEDGERS / "base/claims/core/beta.yaml").read_text()
    assert "trace:" not in text
    found = _validate_with(tmp_path, {"claim:": "trace:\n  - docs/notes.md\n  - https://example.org/x\n"
                                                "  - docs/missing.md\nclaim:"})
    line = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("claim:"))) + 1
    assert ("SC401", "claims/core/beta.yaml", line + 3, 5) in found, found


def test_a_nul_byte_is_a_finding_not_a_silent_drop(tmp_path):
    doc, findings = parsed("title: a\x00b\n")
    assert doc.data is None
    assert [(f.code, f.line, f.col) for f in findings] == [("SC107", 1, 1)]
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core/beta.yaml").write_bytes(b"title: Beta\x00\n")
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file, f.line) for f in result.errors] == [("SC107", "claims/core/beta.yaml", 1)]


def test_meta_that_is_not_an_object_is_sc309(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    art = root / "evidence/run.json"
    assert art.is_file()
    art.write_text('{"meta": ["not", "an object"], "runs": [{"rps": 12}]}\n')
    result, _ = pipeline.validate(root)
    sc309 = [f for f in result.findings if f.code == "SC309"]
    assert [(f.file, f.line, f.col) for f in sc309] == [("evidence/run.json", 1, 1)]
    assert "an array, not an object" in sc309[0].message
