"""Reporters: findings -> text for a terminal, JSON, GitHub annotations, or SARIF 2.1.0."""

from __future__ import annotations

import json

from .findings import RULES, Finding

FORMATS = ("text", "json", "github", "sarif")
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
        lines.append(f"{f.file}:{f.line}:{f.col}: {sev} {f.code} {f.message}")
        if f.hint:
            lines.append(f"    hint: {f.hint}")
    lines.append(summary(findings, dimensions))
    return "\n".join(lines) + "\n"


def as_json(findings: list[Finding], dimensions: int) -> str:
    """The stable JSON shape documented in docs/rules.md."""
    errors = sum(f.severity == "error" for f in findings)
    doc = {"version": JSON_VERSION, "summary": {"errors": errors, "warnings": len(findings) - errors,
                                                 "dimensions": dimensions},
           "findings": [f.as_dict() for f in findings]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


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
        message = f.message + (f"\n{f.hint}" if f.hint else "")
        props = f"file={_gh_prop(prefix + f.file)},line={f.line},col={f.col},title={_gh_prop(f.code + ' ' + RULES[f.code].name)}"
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
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def render(fmt: str, findings: list[Finding], dimensions: int, style=None, prefix: str = "", version: str = "") -> str:
    """The report in the chosen format."""
    if fmt == "json":
        return as_json(findings, dimensions)
    if fmt == "github":
        return github(findings, dimensions, prefix)
    if fmt == "sarif":
        return sarif(findings, dimensions, prefix, version)
    return text(findings, dimensions, style)
