"""Reporters: findings -> text for a terminal, JSON, GitHub annotations, or SARIF 2.1.0."""

from __future__ import annotations

import json

from ..core.findings import RULES, Finding
from ..core.textsafe import (UNSAFE, UNSAFE_LINE, MD_SPAN_LIMIT, escape, md_code, runner_safe,  # noqa: F401 - re-exported
                             terminal_safe)

def json_safe(text: str) -> str:
    # json.dumps escapes C0 controls; C1 and the bidi overrides pass through with ensure_ascii=False.
    return runner_safe(UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text), json=True)


MARKDOWN_LIMIT = 20  # findings listed in a job summary; the rest are counted


MD_LIMIT = 1_000_000  # a job summary over 1 MiB is dropped whole by GitHub: every Markdown output stays under it


JSON_VERSION = 1


def summary(findings: list[Finding], dimensions: int) -> str:
    """`2 errors, 1 warning in 9 dimensions`, or `no problems in 9 dimensions`."""
    errors = sum(f.severity == "error" for f in findings)
    warnings = len(findings) - errors
    where = f"in {dimensions} dimension{'s' if dimensions != 1 else ''}"
    if not findings:
        return f"no problems {where}"
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return ", ".join(parts) + " " + where


def text(findings: list[Finding], dimensions: int, style=None) -> str:
    """path:line:col: severity CODE message, an indented hint, then the summary line."""
    paint = style or (lambda s, **_: s)
    lines = []
    for f in findings:
        sev = paint(f.severity, fg="red" if f.severity == "error" else "yellow", bold=True)
        lines.append(f"{terminal_safe(f.file, True)}:{f.line}:{f.col}: {sev} {f.code} {terminal_safe(f.message, True)}")
        if f.hint:
            lines.append(f"    hint: {terminal_safe(f.hint, True)}")
    lines.append(summary(findings, dimensions))
    return runner_safe("\n".join(lines) + "\n")


def as_json(findings: list[Finding], dimensions: int) -> str:
    """The stable JSON shape documented in docs/rules.md."""
    errors = sum(f.severity == "error" for f in findings)
    doc = {"version": JSON_VERSION, "summary": {"errors": errors, "warnings": len(findings) - errors,
                                                 "dimensions": dimensions},
           "findings": [f.as_dict() for f in findings]}
    return json_safe(json.dumps(doc, indent=2, ensure_ascii=False)) + "\n"


def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def github(findings: list[Finding], dimensions: int, prefix: str = "") -> str:
    """Workflow commands (::error file=...) followed by the plain text report.

    GitHub shows only the first few annotations of a step, so the full plain findings
    always follow. prefix is the ledger root relative to the repository root.
    """
    lines = []
    for f in findings:
        level = "error" if f.severity == "error" else "warning"
        message = runner_safe(terminal_safe(f.message) + (f"\n{terminal_safe(f.hint)}" if f.hint else ""))
        props = (f"file={_gh_prop(runner_safe(terminal_safe(prefix + f.file, True)))},line={f.line},col={f.col},"
                 f"title={_gh_prop(f.code + ' ' + RULES[f.code].name)}")
        lines.append(f"::{level} {props}::{_gh_data(message)}")
    return "\n".join(lines) + ("\n" if lines else "") + text(findings, dimensions)


def sarif(findings: list[Finding], dimensions: int, prefix: str = "", version: str = "") -> str:
    """A SARIF 2.1.0 log for code scanning, one rule per code."""
    used = sorted({f.code for f in findings})
    rules = [{"id": c, "name": RULES[c].name, "shortDescription": {"text": RULES[c].summary},
              "helpUri": f"https://scorecard.invalid/docs/rules.html#{c.lower()}",
              "defaultConfiguration": {"level": "error" if RULES[c].severity == "error" else "warning"}} for c in used]
    results = [{
        "ruleId": f.code, "ruleIndex": used.index(f.code),
        "level": "error" if f.severity == "error" else "warning",
        "message": {"text": f.message + (f" ({f.hint})" if f.hint else "")},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": prefix + f.file, "uriBaseId": "%SRCROOT%"},
                                            "region": {"startLine": f.line, "startColumn": f.col}}}],
    } for f in findings]
    log = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "scorecard", "version": version, "rules": rules,
                                         "informationUri": "https://scorecard.invalid/"}},
                     "results": results}]}
    return json_safe(json.dumps(log, indent=2, ensure_ascii=False)) + "\n"


def markdown(findings: list[Finding], dimensions: int) -> str:
    """For a job summary or a comment: the summary line, then the first findings (file:line, code, message), each
    ledger text inert in a code span, and how many more there are."""
    head = f"**scorecard validate:** {summary(findings, dimensions)}."
    if not findings:
        return head + "\n"
    lines = [head, ""]
    for f in findings[:MARKDOWN_LIMIT]:
        lines.append(f"- {f.severity} {f.code} at {md_code(f'{f.file}:{f.line}:{f.col}')}: {md_code(f.message)}"
                     + (f" (hint: {md_code(f.hint)})" if f.hint else ""))
    if len(findings) > MARKDOWN_LIMIT:
        lines.append(f"- … and {len(findings) - MARKDOWN_LIMIT} more: see the annotations and the log")
    return runner_safe("\n".join(lines) + "\n")


def render(fmt: str, findings: list[Finding], dimensions: int, style=None, prefix: str = "", version: str = "") -> str:
    """The report in the chosen format."""
    if fmt == "json":
        return as_json(findings, dimensions)
    if fmt == "github":
        return github(findings, dimensions, prefix)
    if fmt == "sarif":
        return sarif(findings, dimensions, prefix, version)
    if fmt == "markdown":
        return markdown(findings, dimensions)
    return text(findings, dimensions, style)
