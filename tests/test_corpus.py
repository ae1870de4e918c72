"""The corpus: every bad ledger fails with its rule, file and line; every good one passes."""

from __future__ import annotations

import re

import pytest

from scorecard.cli import pipeline
from scorecard.core.findings import RULES

from conftest import LEDGERS, bad_case, copy_ledger

BAD = sorted(p.name for p in (LEDGERS / "bad").iterdir())
GOOD = sorted(p.name for p in (LEDGERS / "good").iterdir())


def test_corpus_is_large_enough():
    assert len(BAD) >= 30


# What an expect.yaml may say, and the type of each: a misspelt key ("mesage") would otherwise be
# ignored, and the assertion it meant silently skipped.
EXPECT_KEYS = {"code": str, "file": str, "line": int, "col": int, "also": list, "message": str, "strict": bool,
               "remove": list, "pad": dict, "symlinks": dict}


@pytest.mark.parametrize("name", BAD)
def test_every_bad_case_says_only_what_the_test_reads(name):
    """File, line and column always (a finding at the right line but the wrong column is a bug too); every key known."""
    import yaml

    expect = yaml.safe_load((LEDGERS / "bad" / name / "expect.yaml").read_text())
    assert {"code", "file", "line", "col"} <= set(expect), name
    assert set(expect) <= set(EXPECT_KEYS), f"{name}: unknown keys {set(expect) - set(EXPECT_KEYS)}"
    for key, value in expect.items():
        assert isinstance(value, EXPECT_KEYS[key]), f"{name}: {key} is {type(value).__name__}"
    assert expect["code"] in RULES, name
    assert expect["line"] >= 1 and expect["col"] >= 1, name
    assert all(code in RULES and code != expect["code"] for code in expect.get("also", [])), name
    if "message" in expect:
        re.compile(expect["message"])


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
    # --strict fails on every warning (a staleness time alone raised passes it only in git: tests/test_aged.py)
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
