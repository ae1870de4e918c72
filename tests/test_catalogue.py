"""Every rule the code can emit is catalogued and documented; the schema on disk is current."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from scorecard.ledger.yamldoc import Document, parse_bytes

from scorecard.core.findings import RULES
from scorecard.ledger.schemadef import MODELS, json_schema

from conftest import REPO

SOURCE = "\n".join(p.read_text() for p in (REPO / "scorecard").rglob("*.py") if p.name != "findings.py")
EMITTED = set(re.findall(r'"(SC\d{3})"', SOURCE))


def test_every_emitted_code_is_in_the_catalogue():
    assert EMITTED, "the scan found no codes at all"
    assert set(RULES) >= EMITTED


def test_every_catalogued_code_is_emitted_somewhere():
    assert set(RULES) - EMITTED == set()


def test_every_code_is_documented_with_an_example_and_a_fix():
    doc = (REPO / "docs" / "rules.md").read_text()
    for code, rule in RULES.items():
        section = re.search(rf"^### {code} {rule.name}\n(.*?)(?=^##|\Z)", doc, re.S | re.M)
        assert section, f"{code} is not documented in docs/rules.md"
        assert "```yaml" in section[1] and "Fix:" in section[1], code


@pytest.mark.parametrize("kind", sorted(MODELS))
def test_committed_schema_matches_the_models(kind):
    committed = json.loads((REPO / "schema" / f"{kind}.schema.json").read_text())
    assert committed == json_schema(kind), "run `scorecard schema --out schema` and commit the result"
    assert committed["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(committed)


def load(path):
    doc = Document(path.name)
    parse_bytes(path.read_bytes(), doc, [])
    return doc.data


def test_schema_accepts_the_example_ledger_and_rejects_a_typo():
    validator = jsonschema.Draft7Validator(json_schema("dimension"))
    records = sorted((REPO / "claims").glob("*/[!_]*.yaml"))
    assert len(records) >= 11
    for path in records:
        assert list(validator.iter_errors(load(path))) == [], path
    bad = load(REPO / "claims/cost-efficiency/goodput-under-sla.yaml")
    bad["sota"]["soruce"] = bad["sota"].pop("source")
    assert list(validator.iter_errors(bad))
    validator = jsonschema.Draft7Validator(json_schema("category"))
    for path in sorted((REPO / "claims").glob("*/_category.yaml")):
        assert list(validator.iter_errors(load(path))) == [], path
