"""Schema errors as findings, pinned whole: rule code, line, column, message and hint.

Each case is one mistake in a valid record (the base ledger's beta.yaml); the expectation is
what a contributor reads. Together they hold every branch of check.schema_finding.
"""

from __future__ import annotations

import pytest

from scorecard.core.place import LedgerPlace
from scorecard.cli import pipeline
from scorecard.ledger.check import check_one
from scorecard.measure.evidence import ArtifactStore
from scorecard.ledger.load import MemoryParseCache
from scorecard.ledger.model import Settings
from scorecard.ledger.yamldoc import Document, parse_bytes

from conftest import LEDGERS, copy_ledger

STATUSES = "'leads', 'parity', 'trails', 'inconclusive', 'simulated', 'no-claim' or 'out-of-scope'"
KNOWN = ("claim, conditions_must_match, display_unit, leaders, note, order, result, reviewed, share, sota, status, "
         "title, trace, why")

CASES = {
    "title-int": ("title: Beta latency", "title: 42",
                  ("SC203", 1, 8, "'title' must be a text, not a number (42)", "quote the value to make it text")),
    "order-text": ("claim: not measured", "claim: not measured\norder: first",
                   ("SC203", 12, 8, "'order' must be a whole number, not text", "write a number, e.g. `order: 10`")),
    "order-unit": ("claim: not measured", "claim: not measured\norder: 5 ms",
                   ("SC203", 12, 8, "'order' must be a whole number, not text",
                    "write the number alone (`order: 5`) and put the unit 'ms' in the field's unit (see the docs)")),
    "status-typo": ("status: no-claim", "status: noclaim",
                    ("SC204", 10, 9, f"'status' is 'noclaim'; it must be one of {STATUSES}",
                     "did you mean 'no-claim'?")),
    "status-far": ("status: no-claim", "status: zzzzzz",
                   ("SC204", 10, 9, f"'status' is 'zzzzzz'; it must be one of {STATUSES}", f"use one of {STATUSES}")),
    "missing-nested": ("  source: https://example.org/beta\n", "",
                       ("SC201", 3, 1, "missing required field 'sota.source'",
                        "add `source:` (http(s) URL of the source.)")),
    "missing-top": ("claim: not measured\n", "",
                    ("SC201", 1, 1, "missing required field 'claim'",
                     "add `claim:` (One line: our position in words.)")),
    "unknown-near": ("  date: 2025-06", "  date: 2025-06\n  soruce: https://example.org/beta",
                     ("SC202", 10, 3, "unknown field 'sota.soruce'", "did you mean 'source'?")),
    "unknown-elsewhere": ("claim: not measured", "claim: not measured\nbetter: lower",
                          ("SC202", 12, 1, "unknown field 'better'",
                           "'better' belongs under `sota:`: indent it into that block")),
    "unknown-nested": ("  date: 2025-06", "  date: 2025-06\n  pointer: /a",
                       ("SC202", 10, 3, "unknown field 'sota.pointer'",
                        "'pointer' belongs under `result:`: indent it into that block")),
    "unknown-far": ("claim: not measured", "claim: not measured\nzzzqqq: 1",
                    ("SC202", 12, 1, "unknown field 'zzzqqq'", f"known fields here: {KNOWN}")),
    "trace-int": ("claim: not measured", "claim: not measured\ntrace:\n  - 42",
                  ("SC203", 13, 5, "'trace[0]' must be a path, URL, or {path:, label:} mapping, not a number (42)",
                   "check the value's type")),
    "trace-path-int": ("claim: not measured", "claim: not measured\ntrace:\n  - {path: 5}",
                       ("SC203", 13, 12, "'trace[0].path' must be a text, not a number (5)",
                        "quote the value to make it text")),
    "trace-extra": ("claim: not measured", "claim: not measured\ntrace:\n  - {path: docs/notes.md, lable: x}",
                    ("SC202", 13, 27, "unknown field 'trace[0].lable'", "did you mean 'label'?")),
    "trace-list": ("claim: not measured", "claim: not measured\ntrace:\n  - [a]",
                   ("SC203", 13, 5, "'trace[0]' must be a path, URL, or {path:, label:} mapping, not a list",
                    "check the value's type")),
    "custom-date": ("date: 2025-06", "date: 2025-13",
                    ("SC205", 9, 9, "sota.date: '2025-13': month 13 is out of range (01 to 12)",
                     "write the date as YYYY, YYYY-MM or YYYY-MM-DD, e.g. 2024-01")),
    "leaders-int": ("claim: not measured", "claim: not measured\nleaders: [1]",
                    ("SC203", 12, 11, "'leaders[0]' must be a text, not a number (1)",
                     "quote the value to make it text")),
    "second-leader": ("claim: not measured", "claim: not measured\nleaders:\n  - A\n  - 2",
                      ("SC203", 14, 5, "'leaders[1]' must be a text, not a number (2)",
                       "quote the value to make it text")),
    "block-as-text": ("sota:\n  bar: The bar is 5 ms.\n  value: 5\n  unit: ms\n  better: lower\n"
                      "  source: https://example.org/beta\n  date: 2025-06\n", "sota: x\n",
                      ("SC203", 3, 7, "'sota' must be a mapping, not text", "check the value's type")),
}


def _findings(tmp_path, old: str, new: str):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    path = root / "claims/core/beta.yaml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    result, _ = pipeline.validate(root)
    return [(f.code, f.line, f.col, f.message, f.hint) for f in result.findings]


@pytest.mark.parametrize("name", sorted(CASES))
def test_schema_finding(tmp_path, name):
    old, new, expected = CASES[name]
    assert _findings(tmp_path, old, new) == [expected]


def test_every_record_counts_even_an_invalid_one(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    assert result.dimension_count == 2
    (root / "claims/core/beta.yaml").write_text("title: [unclosed\n")
    result, _ = pipeline.validate(root)
    assert result.dimension_count == 2 and [d.id for d in result.ledger.dimensions()] == ["alpha"]


def test_a_category_summary_left_as_the_example_is_sc604(tmp_path):
    from scorecard.ledger.placeholders import CATEGORY_SUMMARY

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    meta = root / "claims/core/_category.yaml"
    meta.write_text(meta.read_text().rstrip("\n") + f"\nsummary: {CATEGORY_SUMMARY}\n")
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file) for f in result.findings] == [("SC604", "claims/core/_category.yaml")]


def test_marks_are_dropped_unless_kept_for_serve(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    assert all(d.doc.data is None and d.doc.marks == {} for d in result.ledger.dimensions())
    kept, _ = pipeline.validate(root, cache=MemoryParseCache())
    assert all(d.doc.data is not None and d.doc.marks for d in kept.ledger.dimensions())
    warm, _ = pipeline.validate(root, warm=True)  # the warm cache hands out new Documents: marks dropped
    assert all(d.doc.data is None and d.doc.marks == {} for d in warm.ledger.dimensions())


def test_check_one_checks_a_single_record(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    settings = Settings(title="t", subject="s")
    from datetime import date

    store = ArtifactStore(LedgerPlace.at(root, today=date(2026, 6, 15)))

    doc = Document("claims/core/beta.yaml")
    parse_bytes((root / "claims/core/beta.yaml").read_bytes(), doc, [])
    record, findings = check_one(doc, "core", settings, store)
    assert record is not None and (record.id, record.category) == ("beta", "core") and findings == []
    bad = Document("claims/core/beta.yaml")
    parse_bytes(b"title: Beta\n", bad, [])
    record, findings = check_one(bad, "core", settings, store)
    assert record is None and {f.code for f in findings} == {"SC201"}


def test_a_key_that_looks_like_a_union_tag_is_still_part_of_the_location():
    from scorecard.ledger.check import _clean_loc

    data = {"result": {"inputs": {"a[0]": {"unit": 5}}}, "trace": [{"path": 5}]}
    assert _clean_loc(data, ("result", "inputs", "a[0]", "unit")) == ("result", "inputs", "a[0]", "unit")
    assert _clean_loc(data, ("trace", 0, "~link", "path")) == ("trace", 0, "path")  # the tag pydantic adds
    assert _clean_loc(data, ("trace", 1)) == ("trace", 1)  # just past the end: kept, as the missing item
    nested = {"trace": [{"a[0]": {"x": 1}}]}
    assert _clean_loc(nested, ("trace", 0, "a[0]", "x")) == ("trace", 0, "a[0]", "x")  # index 0 is in the data


def test_a_bad_input_name_is_reported_at_the_name(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace(
        "result:\n  evidence: evidence/run.json\n  pointer: /runs/0/rps\n  unit: req/s\n",
        "result:\n  expr: a\n  unit: req/s\n  inputs:\n    a b: {evidence: evidence/run.json, pointer: /runs/0/rps}\n"))
    result, _ = pipeline.validate(root)
    assert [(f.code, f.line, f.col) for f in result.findings] == [("SC204", 16, 10)]
    assert result.findings[0].message.startswith("'result.inputs.a b.[key]': string should match pattern")
