"""The documentation keeps in step with the code."""

from __future__ import annotations

import re

import pytest

import yaml

from conftest import REPO
from regen_cli_doc import cli_doc


def test_cli_reference_matches_help():
    assert (REPO / "docs/cli.md").read_text() == cli_doc(), "run tests/regen_cli_doc.py and commit docs/cli.md"


def test_every_settings_field_is_documented():
    from scorecard.ledger.schemadef import Category, Dimension, Settings

    fmt = (REPO / "docs/format.md").read_text()
    for model in (Settings, Category, Dimension):
        for name in model.model_fields:
            assert re.search(rf"\b{name}:", fmt), f"{model.__name__}.{name} is not in docs/format.md"


def test_docs_link_to_files_that_exist():
    for page in (REPO / "docs").glob("*.md"):
        for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text()):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_example_workflow_and_config_parse():
    workflow = yaml.safe_load((REPO / "docs/examples/scorecard-ledger.yml").read_text())
    steps = " ".join(str(s.get("run", "")) for s in workflow["jobs"]["validate"]["steps"])
    assert "scorecard validate --strict --format github" in steps and "scorecard diff" in steps
    config = yaml.safe_load((REPO / "docs/examples/pre-commit-config.yaml").read_text())
    assert config["repos"][0]["hooks"][0]["id"] == "scorecard-validate"


def test_every_theme_file_macro_and_template_global_is_documented(tmp_path):
    from scorecard.site.render import Site
    from scorecard.core.paths import builtin_templates
    from scorecard.site.resolve import resolve_ledger
    from scorecard.cli import pipeline

    site_doc = (REPO / "docs/site.md").read_text()
    theme = builtin_templates()
    for path in theme.iterdir():
        assert f"`{path.name}`" in site_doc, f"theme file {path.name} is not in docs/site.md"
    for name in re.findall(r"\{%-?\s*macro (\w+)", (theme / "macros.html").read_text()):
        assert f"`{name}`" in site_doc, f"macro {name} is not in docs/site.md"
    result, store = pipeline.validate(REPO)
    env = Site(resolve_ledger(result.ledger, store)).env
    for name in set(env.globals) - {"range", "dict", "lipsum", "cycler", "joiner", "namespace"}:
        assert f"`{name}`" in site_doc, f"template global {name} is not in docs/site.md"
    for name in ("md", "mdi", "brief", "num", "pct", "ratio", "title", "plain"):
        assert name in env.filters and f"`{name}`" in site_doc


def test_the_pinned_rev_in_the_examples_is_one_this_repository_has():
    import re
    import subprocess

    revs = {re.search(r"rev: (\S+)", (REPO / rel).read_text())[1]
            for rel in ("docs/examples/pre-commit-config.yaml", "docs/recipes.md")}
    assert len(revs) == 1, revs
    (rev,) = revs
    assert re.fullmatch(r"[0-9a-f]{40}|v\d+\.\d+\.\d+", rev), rev
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=REPO, capture_output=True, text=True)
    if shallow.returncode != 0 or shallow.stdout.strip() != "false":
        pytest.skip("not a full git clone: the pinned commit cannot be looked up")
    found = subprocess.run(["git", "cat-file", "-e", f"{rev}:.pre-commit-hooks.yaml"], cwd=REPO, capture_output=True)
    assert found.returncode == 0, f"{rev} is not a commit of this repository with the hook definition"


def test_user_docs_schemas_and_scaffolds_are_written_for_any_field():
    from scorecard.cli.scaffold import dimension_text

    texts = {p: p.read_text()
             for p in [*(REPO / "docs").rglob("*.md"), *(REPO / "schema").glob("*.json"), REPO / "README.md"]}
    texts["new"] = dimension_text("x", "trails")
    for where, text in texts.items():
        assert not re.search(r"\bfak\b", text), f"{where} speaks of one project's system as if it were the format"
        assert "Internals are yours" not in text and "shared folder" not in text and "shared/" not in text, where
    assert "docs/format.md" not in texts["new"], "a new record points at a file the user's ledger does not have"
