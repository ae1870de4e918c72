"""Reporters: exact text, JSON shape, GitHub escaping, SARIF structure."""

from __future__ import annotations

import pytest

import json

from scorecard.cli import report
from scorecard.core.findings import Finding

F = [Finding("claims/a/b.yaml", 3, 5, "SC202", "unknown field 'soruce'", "did you mean 'source'?"),
     Finding("claims/a/c.yaml", 1, 1, "SC603", "old, stale: 50%\nreally", "update it", "warning")]


def test_text_exact():
    assert report.text(F, 9) == (
        "claims/a/b.yaml:3:5: error SC202 unknown field 'soruce'\n"
        "    hint: did you mean 'source'?\n"
        "claims/a/c.yaml:1:1: warning SC603 old, stale: 50%\\x0areally\n"  # one finding, one line
        "    hint: update it\n"
        "1 error, 1 warning in 9 dimensions\n")


def test_summary_forms():
    assert report.summary([], 1) == "no problems in 1 dimension"
    assert report.summary(F[:1] * 2, 3) == "2 errors in 3 dimensions"


def test_json_shape():
    doc = json.loads(report.as_json(F, 9))
    assert doc["version"] == 1
    assert doc["summary"] == {"errors": 1, "warnings": 1, "dimensions": 9}
    assert doc["findings"][0] == {"file": "claims/a/b.yaml", "line": 3, "column": 5, "code": "SC202",
                                  "rule": "unknown-field", "severity": "error", "message": "unknown field 'soruce'",
                                  "hint": "did you mean 'source'?"}


def test_github_escapes_and_keeps_the_plain_report():
    out = report.github(F, 9, prefix="ledger/")
    lines = out.splitlines()
    assert lines[0] == ("::error file=ledger/claims/a/b.yaml,line=3,col=5,title=SC202 unknown-field::"
                        "unknown field 'soruce'%0Adid you mean 'source'?")
    assert lines[1] == ("::warning file=ledger/claims/a/c.yaml,line=1,col=1,title=SC603 source-stale::"
                        "old, stale: 50%25%0Areally%0Aupdate it")
    assert "1 error, 1 warning in 9 dimensions" in out
    assert report.github([], 0).startswith("no problems")


def test_sarif_structure():
    log = json.loads(report.sarif(F, 9, version="0.1.0"))
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["SC202", "SC603"]
    first = run["results"][0]
    assert first["ruleId"] == "SC202" and first["level"] == "error"
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 5}
    assert run["results"][1]["level"] == "warning"


def test_sarif_validates_against_the_sarif_2_1_0_schema(tmp_path):
    import jsonschema

    from conftest import TESTS, bad_case, run_cli

    schema = json.loads((TESTS / "vendor/sarif-2.1.0-rtm.5.json").read_text())
    root, _ = bad_case("unknown-field-typo", tmp_path / "l")
    proc = run_cli("validate", "--format", "sarif", cwd=root)
    assert proc.returncode == 1
    log = json.loads(proc.stdout)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
    assert errors == []
    results = log["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"SC201", "SC202"}
    loc = next(r for r in results if r["ruleId"] == "SC202")["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "claims/core/beta.yaml"
    assert loc["region"] == {"startLine": 8, "startColumn": 3}
    assert list(jsonschema.Draft4Validator(schema).iter_errors({"version": "2.1.0"}))  # the schema can fail


def test_text_escapes_what_would_drive_a_terminal_or_fake_a_finding():
    evil = [Finding("claims/a/x\x1b]0;owned\x07.yaml", 1, 1, "SC004", "id 'a\nclaims/z.yaml:1:1: error SC001 fake'",
                    "rename \u202ethe file", "error")]
    out = report.text(evil, 1)
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert out.splitlines()[0] == ("claims/a/x\\x1b]0;owned\\x07.yaml:1:1: error SC004 "
                                   "id 'a\\x0aclaims/z.yaml:1:1: error SC001 fake'")
    assert out.splitlines()[1] == "    hint: rename \\u202ethe file"
    assert "\x9b" not in report.as_json([Finding("f", 1, 1, "SC004", "csi \x9b", "h")], 1)
    doc = json.loads(report.as_json([Finding("f", 1, 1, "SC004", "csi \x9b", "h")], 1))
    assert doc["findings"][0]["message"] == "csi \x9b"


# --- inert Markdown (issue 26): what the action posts as a job summary and a comment --------------------

PAYLOADS = [
    "![img](https://evil.example/x.png)", "[click](https://evil.example)", "@octocat please merge", "fixes #12",
    "www.evil.example", "<img src=x onerror=alert(1)>", "<script>alert(1)</script>",
    "`x`\n## LGTM: all claims verified",
    "a ``` fence", "name`\n\n## LGTM\n<img onerror=x>", "*emph* _u_ **b**", "| a | b |\n|---|---|", "> quote",
    "https://evil.example/bare", "<https://evil.example>", "line1\r\nline2\u202e", "\\`escaped\\`", "- item\n- item",
    "[ref]: https://evil.example", "&lt;b&gt;", "1. one", "# heading", "x" + "`" * 7 + "y",
]


def _nodes(markdown: str):
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    tokens = md.parse(markdown)
    out = []
    for token in tokens:
        out.append(token)
        out.extend(token.children or [])
    return out


@pytest.mark.parametrize("payload", PAYLOADS)
def test_ledger_text_in_markdown_reports_stays_inert(payload):
    """No link, image, HTML or heading node comes from ledger text, and the text reaches the reader only inside a
    code span (where GitHub links no @mention, #12 or www. address); a newline shows as \\n."""
    from scorecard.cli import diff
    from scorecard.core.findings import Finding
    from scorecard.cli.report import markdown, terminal_safe

    outputs = [
        diff.as_markdown(payload, payload, [diff.Change(payload, payload, "changed", [payload, f"claim “{payload}”"])]),
        markdown([Finding(payload, 3, 4, "SC501", payload, payload)], 1),
    ]
    for out in outputs:
        nodes = _nodes(out)
        kinds = {t.type for t in nodes}
        assert not kinds & {"link_open", "image", "html_inline", "html_block", "blockquote_open", "fence",
                            "code_block", "table_open", "ordered_list_open"}, (payload, out)
        headings = [t for t in nodes if t.type == "heading_open"]
        assert len(headings) <= 1 and all(t.tag == "h3" for t in headings)
        visible = " ".join(t.content for t in nodes if t.type == "text")
        for word in ("evil", "octocat", "#12", "LGTM", "onerror", "alert"):
            if word in payload:
                assert word not in visible, (payload, visible)
        flat = terminal_safe(payload.replace("\r", "\\r").replace("\n", "\\n"), one_line=True)  # \n, \u202e
        assert any(flat == t.content for t in nodes if t.type == "code_inline"), (flat, out)
