"""End to end through the installed command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO, bad_case, run_cli


def test_validate_example_ledger_from_repo_root():
    proc = run_cli("validate", cwd=REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("in 16 dimensions")


def test_validate_finds_the_root_from_a_subfolder():
    proc = run_cli("validate", cwd=REPO / "claims" / "cost-efficiency")
    assert proc.returncode == 0


def test_findings_exit_1_with_file_line_col(tmp_path):
    root, expect = bad_case("unknown-field-typo", tmp_path / "l")
    proc = run_cli("validate", "--root", str(root))
    assert proc.returncode == 1
    assert f"{expect['file']}:{expect['line']}:3: error SC202 unknown field 'sota.soruce'" in proc.stdout
    assert "hint: did you mean 'source'?" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_json_and_github_formats(tmp_path):
    root, _ = bad_case("pointer-to-bool", tmp_path / "l")
    proc = run_cli("validate", "--format", "json", cwd=root)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["findings"][0]["code"] == "SC308"
    proc = run_cli("validate", "--format", "github", cwd=root)
    assert proc.stdout.startswith("::error file=claims/core/alpha.yaml,line=14,col=12,title=SC308 not-a-number::")


def test_strict_fails_on_warnings(tmp_path):
    for case in ("unknown-unit", "source-stale"):  # outside git a staleness is not time alone (tests/test_aged.py)
        root, _ = bad_case(case, tmp_path / case)
        assert run_cli("validate", cwd=root).returncode == 0
        assert run_cli("validate", "--strict", cwd=root).returncode == 1


def test_outside_a_ledger_is_a_usage_error(tmp_path):
    proc = run_cli("validate", cwd=tmp_path)
    assert proc.returncode == 2
    assert "not a ledger" in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("validate", "--root", str(tmp_path))
    assert proc.returncode == 2 and "SC001" in proc.stderr


def test_bad_option_is_a_usage_error():
    proc = run_cli("validate", "--format", "xml", cwd=REPO)
    assert proc.returncode == 2


# The corpus itself runs in process (test_corpus.py, which asserts every expectation); through the command,
# one case per kind of failure is enough to show the exit status, the JSON report and no traceback.
THROUGH_THE_COMMAND = ["yaml-syntax", "unknown-field-typo", "evidence-missing", "leads-but-behind", "trace-symlink-out",
                       "not-utf8", "unknown-unit"]


@pytest.mark.parametrize("case", THROUGH_THE_COMMAND)
def test_bad_ledgers_through_the_command_without_traceback(case, tmp_path):
    root, expect = bad_case(case, tmp_path / case)
    proc = run_cli("validate", "--strict", "--format", "json", cwd=root)
    assert proc.returncode == 1, case
    assert "Traceback" not in proc.stderr, case
    found = json.loads(proc.stdout)["findings"]
    assert any((f["code"], f["file"], f["line"], f["column"]) == (expect["code"], expect["file"], expect["line"],
                                                               expect["col"]) for f in found), (case, found)


def test_python_dash_m_and_help():
    proc = subprocess.run([sys.executable, "-m", "scorecard", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "validate" in proc.stdout and "build" in proc.stdout
    assert run_cli("--version").stdout.startswith("scorecard 0.1.0 ")


def test_schema_command_prints_draft07():
    proc = run_cli("schema", "dimension")
    assert json.loads(proc.stdout)["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_rules_command_lists_every_code():
    from scorecard.core.findings import RULES

    out = run_cli("rules").stdout
    assert all(code in out for code in RULES)


def test_validate_loads_nothing_it_does_not_need(base_ledger):
    """The pre-commit hook's path: no template engine, Markdown, git or review code for a ledger without stamps."""
    code = ("import sys\nfrom scorecard.cli.commands import main\ntry:\n    main(['validate', '--root', sys.argv[1]])\n"
            "except SystemExit as e:\n    assert e.code == 0, e.code\n"
            "print(' '.join(sorted(m for m in sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code, str(base_ledger)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stdout.split())
    assert "scorecard.ledger.check" in loaded and "pydantic_core._pydantic_core" in loaded  # the probe itself works
    heavy = {"jinja2", "markdown_it", "scorecard.site.render", "scorecard.site.resolve", "scorecard.cli.review",
             "scorecard.core.git", "scorecard.history.walk", "scorecard.cli.diff", "scorecard.cli.serve",
             # for forms the ledger does not use: a path: query, a derived value, a suspect claim's history
             "scorecard.measure.jsonquery", "jsonpath_rfc9535", "scorecard.measure.expr", "scorecard.measure.formula",
             "scorecard.measure.algebra", "scorecard.ledger.versions",
             # pydantic's models (issue 46): the records validate with pydantic-core, from the generated model.py
             "pydantic.main", "pydantic._internal._generate_schema", "scorecard.ledger.schemadef",
             # libraries the hook never calls (issue 46, third session): OpenSSL's digests, worker processes, folder
             # removal, temporary files, pickled keys, suggestions, dates' calendar, HTML entities
             "hashlib", "_hashlib", "multiprocessing", "shutil", "tempfile", "pickle", "difflib", "calendar", "html",
             # pydantic-core's Python layer (issue 46, fourth session): its engine alone validates (ledger/pydcore.py)
             "pydantic_core", "pydantic_core.core_schema", "typing_extensions",
             # no tool reader for a ledger whose JSON is no tool's output (issue 46, item 4)
             "scorecard.measure.tools.base", "scorecard.measure.tools.hyperfine", "scorecard.measure.tools.serving"}
    assert loaded & heavy == set()


def test_a_build_pays_only_for_the_forms_its_ledger_uses(base_ledger, tmp_path):
    """Issue 46: a build of a ledger of plain pointers imports no JSONPath, formula, history walk, review or
    sandbox code (a ledger without templates of its own renders with the built-in theme, unsandboxed)."""
    code = ("import sys\nfrom scorecard.cli.commands import main\ntry:\n"
            "    main(['build', '--no-cache', '--root', sys.argv[1], '--out', sys.argv[2]])\n"
            "except SystemExit as e:\n    assert e.code == 0, e.code\n"
            "print(' '.join(sorted(m for m in sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code, str(base_ledger), str(tmp_path / "site")], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stdout.split())
    assert "scorecard.site.render" in loaded and "jinja2" in loaded  # the probe itself works
    unused = {"scorecard.measure.jsonquery", "jsonpath_rfc9535", "scorecard.measure.expr", "scorecard.measure.formula",
              "scorecard.measure.algebra", "scorecard.ledger.versions", "scorecard.history.walk",
              "scorecard.site.sandbox", "jinja2.sandbox", "scorecard.cli.review", "scorecard.cli.diff",
              "scorecard.cli.serve", "pydantic.main", "scorecard.ledger.schemadef",
              "scorecard.measure.tools.base", "scorecard.measure.tools.hyperfine", "scorecard.measure.tools.serving"}
    assert loaded & unused == set()


def test_strict_build_says_warnings_fail_it(base_ledger, tmp_path):
    settings = base_ledger / "scorecard.yaml"
    settings.write_text(settings.read_text() + "require_review: true\n")
    proc = run_cli("build", "--root", str(base_ledger), "--out", str(tmp_path / "s"), "--strict")
    assert proc.returncode == 1 and "warning SC802" in proc.stderr
    assert "build refused: --strict fails on warnings too" in proc.stderr and "fix the errors" not in proc.stderr
    assert run_cli("build", "--root", str(base_ledger), "--out", str(tmp_path / "s")).returncode == 0
