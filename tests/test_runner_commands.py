"""No ledger text forms a GitHub runner command (issue 40 item 6).

The runner reads a workflow command from any line a step prints: `::name …` at the start of a line after any
whitespace, and the legacy `##[name …]` anywhere in it. The property: for generated ledger text in every field a
finding or a diff carries, no line of any output format is a command, except the `::error`/`::warning` lines the
github format writes itself, one per finding. The checks below are a port of the runner's two parsers.
"""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.cli import diff, report
from scorecard.cli.report import json_safe, runner_safe, terminal_safe
from scorecard.cli.formats import FORMATS
from scorecard.core.findings import Finding

# Text a pull request controls: command markers, every kind of whitespace (Unicode included), newlines.
TEXT = st.lists(st.sampled_from(list("#[]:%, ab\t\n\r\u3000\u2028\u00a0\u0085") + ["::", "##[", "::error::"]),
                max_size=30).map("".join)


def runner_commands(output: str) -> list[str]:
    """The lines a GitHub runner would take as workflow commands (ActionCommand.TryParse, both forms)."""
    found = []
    for line in re.split(r"\r\n|\r|\n", output):  # .NET's ReadLine: CR, LF or CRLF ends a line
        if line.lstrip().startswith("::") or "##[" in line:
            found.append(line)
    return found


def finding(file: str, message: str, hint: str) -> Finding:
    return Finding(file, 3, 1, "SC503", message, hint, "error")


@settings(max_examples=300)
@given(files=st.lists(TEXT, min_size=1, max_size=3), messages=st.lists(TEXT, min_size=3, max_size=3), hint=TEXT)
def test_no_finding_text_forms_a_runner_command_in_any_format(files, messages, hint):
    found = [finding(f, m, hint) for f, m in zip(files, messages, strict=False)]
    for fmt in FORMATS:
        out = report.render(fmt, found, 2)
        commands = runner_commands(out)
        if fmt == "github":
            assert len(commands) == len(found), commands  # its own annotations, and nothing else
            assert all(c.startswith(("::error ", "::warning ")) and "##[" not in c for c in commands), commands
        else:
            assert commands == [], (fmt, commands)
        if fmt in ("json", "sarif"):
            json.loads(out)  # still valid JSON, holding the same text
    data = json.loads(report.render("json", found, 2))
    assert [f["message"] for f in data["findings"]] == [f.message for f in found]


@settings(max_examples=300)
@given(text=TEXT)
def test_every_other_output_is_runner_safe(text):
    """What `_echo` prints (diff, history, review, new, init, serve): terminal_safe then runner_safe, and JSON."""
    assert runner_commands(runner_safe(terminal_safe(text))) == []
    assert runner_commands(json_safe(json.dumps({"t": text}, ensure_ascii=False))) == []
    assert json.loads(json_safe(json.dumps({"t": text}, ensure_ascii=False)))["t"] == text


@settings(max_examples=200)
@given(ids=st.lists(TEXT, min_size=1, max_size=3), lines=st.lists(TEXT, max_size=3))
def test_a_diff_in_each_format_forms_no_command(ids, lines):
    changes = [diff.Change(i or "x", f"claims/core/{i}.yaml", "changed", list(lines)) for i in ids]
    for text in (diff.as_text("a", "b", changes), diff.as_markdown("a", "b", changes)):
        assert runner_commands(runner_safe(terminal_safe(text))) == []
    assert runner_commands(json_safe(diff.as_json("a", "b", changes))) == []


def test_the_legacy_and_the_line_forms_are_shown_escaped():
    assert runner_safe("x ##[error]y") == "x #\\x23[error]y"
    assert runner_safe("  ::warning::y\n\u3000::add-mask::z") == "  :\\x3awarning::y\n\u3000:\\x3aadd-mask::z"
    assert runner_safe("a::b") == "a::b"  # not at the start of a line: no command, left as written
    assert json.loads(runner_safe('"##[x"', json=True)) == "##[x"


def test_a_markdown_diff_stays_under_a_job_summarys_limit():
    """Two padded claims made a 2,000,490-byte summary, which GitHub drops whole."""
    changes = [diff.Change(f"d{i}", f"claims/core/d{i}.yaml", "changed", ["x" * 1900] * 40) for i in range(40)]
    out = diff.as_markdown("a", "b", changes)
    assert len(out.encode()) < report.MD_LIMIT and "… and " in out.splitlines()[-1]
    assert len(report.md_code("y" * 10_000)) < report.MD_SPAN_LIMIT + 20


@settings(max_examples=200)
@given(text=TEXT)
def test_a_refusals_sentence_forms_no_command(text):
    """Found by the review: click printed a UserError's sentence raw (a `site` symlink to 'x\\n::error …', a folder
    name, a serving file's backend), past every escape."""
    from scorecard.core.findings import UserError

    shown = UserError(f"refusing {text} here").format_message()
    assert runner_commands("Error: " + shown) == [] and "\n" not in shown
