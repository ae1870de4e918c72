"""The corpus: every bad ledger fails with its rule, file and line; every good one passes."""

from __future__ import annotations

import re

import pytest

from scorecard import pipeline
from scorecard.findings import RULES

from conftest import LEDGERS, bad_case, copy_ledger

BAD = sorted(p.name for p in (LEDGERS / "bad").iterdir())
GOOD = sorted(p.name for p in (LEDGERS / "good").iterdir())


def test_corpus_is_large_enough():
    assert len(BAD) >= 30


@pytest.mark.parametrize("name", BAD)
def test_every_bad_case_pins_its_position(name):
    """File, line and column: a finding at the right line but the wrong column is a bug too."""
    import yaml

    expect = yaml.safe_load((LEDGERS / "bad" / name / "expect.yaml").read_text())
    assert {"code", "file", "line", "col"} <= set(expect), name


@pytest.mark.parametrize("name", BAD)
def test_bad_ledger(name, tmp_path):
    root, expect = bad_case(name, tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    found = [f for f in result.findings if f.code == expect["code"]]
    assert found, f"{name}: expected {expect['code']}, got {[(f.code, f.file, f.line) for f in result.findings]}"
    hit = [f for f in found if (f.file, f.line, f.col) == (expect["file"], expect["line"], expect["col"])]
    assert hit, f"{name}: {expect['code']} not at {expect['file']}:{expect['line']}:{expect.get('col')}: {found}"
    assert all(f.hint for f in result.findings), "every finding says what to do"
    if "message" in expect:
        assert any(re.search(expect["message"], f.message + " " + f.hint) for f in hit)
    allowed = {expect["code"], *expect.get("also", [])}
    assert {f.code for f in result.findings} <= allowed, f"{name}: one mistake, but {result.findings}"
    assert pipeline.fails(result, strict=True)
    assert pipeline.fails(result, strict=False) == (not expect.get("strict", False))
    assert RULES[expect["code"]].severity == ("warning" if expect.get("strict") else "error")


@pytest.mark.parametrize("name", GOOD)
def test_good_ledger(name, tmp_path):
    root = copy_ledger(LEDGERS / "good" / name, tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    assert result.findings == []
    assert result.dimension_count >= 1


def test_base_ledger_is_clean(base_ledger):
    result, _ = pipeline.validate(base_ledger)
    assert result.findings == []


def test_example_ledger_is_clean():
    result, _ = pipeline.validate(LEDGERS.parent.parent)
    assert [f for f in result.findings if f.severity == "error"] == []
    assert result.dimension_count >= 11
