"""The documentation keeps in step with the code."""

from __future__ import annotations

import re

import yaml

from conftest import REPO
from regen_cli_doc import cli_doc


def test_cli_reference_matches_help():
    assert (REPO / "docs/cli.md").read_text() == cli_doc(), "run tests/regen_cli_doc.py and commit docs/cli.md"


def test_every_settings_field_is_documented():
    from scorecard.model import Category, Dimension, Settings

    fmt = (REPO / "docs/format.md").read_text()
    for model in (Settings, Category, Dimension):
        for name in model.model_fields:
            assert re.search(rf"\b{name}:", fmt), f"{model.__name__}.{name} is not in docs/format.md"


def test_docs_link_to_files_that_exist():
    for page in (REPO / "docs").glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_example_workflow_and_config_parse():
    workflow = yaml.safe_load((REPO / "docs/examples/scorecard.yml").read_text())
    steps = " ".join(str(s.get("run", "")) for s in workflow["jobs"]["validate"]["steps"])
    assert "scorecard validate --format github" in steps and "scorecard diff" in steps
    config = yaml.safe_load((REPO / "docs/examples/pre-commit-config.yaml").read_text())
    assert config["repos"][0]["hooks"][0]["id"] == "scorecard-validate"
