"""Findings as values, and the catalogue of every rule the validator can report."""

from __future__ import annotations

from typing import Literal

import click

from .structs import frozen
from .textsafe import printable

Severity = Literal["error", "warning"]


class UserError(click.UsageError):
    """A request that cannot be carried out, in one sentence the user can act on (not a finding).

    Every refusal of a command derives from it, so the CLI needs no handler per error: click
    prints the usage line and `Error: <the sentence>`, and exits with status 2. The sentence often
    holds ledger text (a path, a name): it is printed with control characters escaped and no runner
    command formed, as every other output is.
    """

    def format_message(self) -> str:
        return printable(self.message, one_line=True)


@frozen
class Rule:
    """One rule: a stable code, a short name, its default severity and its meaning."""

    code: str
    name: str
    severity: Severity
    summary: str


@frozen
class Finding:
    """A problem in the ledger, pointing at a file, line and column (1-based)."""

    file: str
    line: int
    col: int
    code: str
    message: str
    hint: str = ""
    severity: Severity = "error"

    def sort_key(self) -> tuple:
        """Order findings by file, then position, then code."""
        return (self.file, self.line, self.col, self.code, self.message)

    def as_dict(self) -> dict:
        """The stable JSON shape of a finding (see docs/rules.md)."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.col,
            "code": self.code,
            "rule": RULES[self.code].name,
            "severity": self.severity,
            "message": self.message,
            "hint": self.hint,
        }


def _rules(*rows: tuple[str, str, Severity, str]) -> dict[str, Rule]:
    return {code: Rule(code, name, sev, summary) for code, name, sev, summary in rows}


# The catalogue. Codes are stable: never reuse or renumber one; retire it instead.
RULES: dict[str, Rule] = _rules(
    # Ledger structure
    ("SC001", "ledger-not-found", "error", "No scorecard.yaml in the folder or any parent: not a ledger."),
    ("SC002", "claims-missing", "error", "The ledger has no claims/ folder."),
    ("SC003", "not-yaml", "error", "A file in claims/ is not a .yaml file."),
    ("SC004", "bad-slug", "error", "A category folder or dimension file name is not a valid slug."),
    ("SC005", "category-file-missing", "error", "A category folder has no _category.yaml."),
    ("SC006", "duplicate-id", "error", "Two dimensions share an id (ids are unique across the ledger)."),
    ("SC007", "misplaced-file", "error", "A file or folder sits where the ledger layout has none."),
    ("SC008", "empty-category", "warning", "A category has no dimensions."),
    # YAML hygiene
    ("SC101", "yaml-syntax", "error", "The file is not valid YAML."),
    ("SC102", "duplicate-key", "error", "A mapping has the same key twice."),
    ("SC103", "yaml-alias", "error", "Anchors and aliases (*name) are not allowed."),
    ("SC104", "multiple-documents", "error", "A file holds more than one YAML document."),
    ("SC105", "not-a-mapping", "error", "The file's top-level value is not a mapping."),
    ("SC106", "empty-file", "error", "The file is empty."),
    ("SC107", "not-utf8", "error", "The file is not UTF-8 text."),
    ("SC108", "file-too-large", "error", "The file is over the size limit (1 MiB)."),
    ("SC109", "too-deep", "error", "The YAML nests deeper than the limit."),
    ("SC110", "yaml-tag", "error", "A YAML tag (!tag) other than !!str is used."),
    ("SC111", "ambiguous-scalar", "warning", "yes/no/on/off: a YAML 1.1 boolean read as text; quote it."),
    ("SC112", "complex-key", "error", "A mapping key is not a plain string."),
    # Schema
    ("SC201", "missing-field", "error", "A required field is missing."),
    ("SC202", "unknown-field", "error", "A field the format does not define."),
    ("SC203", "wrong-type", "error", "A field has the wrong type."),
    ("SC204", "invalid-value", "error", "A field's value is not one the format allows."),
    ("SC205", "bad-date", "error", "A date is not YYYY, YYYY-MM or YYYY-MM-DD, or not a real date."),
    ("SC206", "value-needs-unit", "error", "sota.value is given without unit and better, or sota.result without "
     "better."),
    ("SC207", "claim-not-one-line", "error", "claim must be a single line."),
    ("SC208", "result-form", "error",
     "A result or selection mixes or lacks its forms: exactly one of pointer: and path:, "
     "or expr: with inputs: instead of evidence:."),
    ("SC211", "prose-placeholder", "error", "A placeholder in claim: or note: is not one the format defines, is "
     "not closed, or has nothing in the record to fill it (${interval} for a value without an interval)."),
    # Evidence
    ("SC209", "bar-kind", "error", "sota.kind and sota.result disagree: kind reproduced without a result, or a "
     "result under kind claimed (or no kind)."),
    ("SC210", "bar-typed-twice", "error", "sota.value, sota.unit or sota.stat is typed beside sota.result: one bar, "
     "one number."),
    ("SC301", "result-missing", "error", "A measured status has no result."),
    ("SC302", "result-forbidden", "error", "A status without a number carries a result."),
    ("SC303", "evidence-outside", "error", "result.evidence is not a .json file under evidence/."),
    ("SC304", "evidence-not-found", "error", "The evidence file does not exist."),
    ("SC305", "evidence-bad-json", "error", "The evidence file is not valid JSON (NaN and Infinity are not JSON)."),
    ("SC306", "bad-pointer", "error", "A JSON pointer is not valid RFC 6901 syntax."),
    ("SC307", "pointer-unresolved", "error", "A JSON pointer does not resolve in its file."),
    ("SC308", "not-a-number", "error", "The value a result points at is not a finite number."),
    ("SC309", "evidence-meta", "warning", "An artifact's meta is not an object, or its meta.date is not YYYY-MM-DD."),
    ("SC310", "evidence-stale", "warning", "The evidence was measured longer ago than stale_evidence_after_months."),
    ("SC311", "bad-path", "error", "A path: is not a valid RFC 9535 JSONPath query, or is over its budget (length, "
     "descendant segments, time, values selected, depth)."),
    ("SC312", "path-no-match", "error", "A path: query selects nothing in its evidence file."),
    ("SC313", "bad-interval", "error", "low: and high: do not name an interval around the value (one missing, not "
                                       "numbers, not containing it, beside a set of runs, or in a tool's file not "
                                       "the interval the tool writes)."),
    ("SC314", "bad-expr", "error", "expr: is not + - * / over the inputs, divides by zero, or mixes units that do "
                                   "not convert."),
    ("SC316", "formula-typed-factor", "error", "expr: holds a number, or in lowest terms scales, ignores or negates "
     "its inputs (a coefficient other than 1 or -1, an input that cancels out)."),
    ("SC317", "same-input-twice", "error", "Two inputs of a formula read the same values: they are one input."),
    ("SC318", "input-without-unit", "error", "An input of a formula states no unit."),
    ("SC319", "runs-chosen", "error", "A selection picks some runs (a slice, an index list, a filter over the runs, "
     "a repeated element, one run of several) or pools different entries: runs are taken as written."),
    ("SC320", "interval-level", "error", "An interval the artifact reports (low:/high:) has no level:, or one below "
     "what the verdict needs (1 - 0.05/k for k intervals), or level: is given without an interval."),
    ("SC321", "not-like-for-like", "error", "Our value is not the bar's statistic (sota.stat), or, with none stated, "
     "a lead rests on a statistic other than a median or a mean, or the value is a spread."),
    ("SC322", "tool-entry", "error", "A format: selection does not read: the file is not that tool's output, or "
     "holds no entry, metric or statistic by the names given."),
    ("SC323", "failed-runs", "error", "Runs read as measurements include failed runs, failed requests or warm-ups "
     "(a tool's exit codes, errors or warm-up list say so), or a tool's number that is not a measurement (an exit "
     "code, a total, a count, an interval's end)."),
    ("SC324", "tool-statistic-alone", "warning", "A serving file records failed requests, so its per-request times "
     "are not read as runs: the claim rests on the tool's statistic over the successful requests, without an "
     "interval."),
    ("SC315", "unused-input", "warning", "An input under inputs: is not used by expr:."),
    # Traces and paths
    ("SC401", "trace-not-found", "error", "A trace names a file that does not exist."),
    ("SC402", "trace-fragment", "error",
     "A trace fragment is not a JSON pointer into a JSON file, or does not resolve."),
    ("SC403", "bad-url", "error", "A URL is not http(s) with a host."),
    ("SC404", "path-escapes", "error", "A path leaves the ledger root (.., absolute, backslash, or a symlink out)."),
    ("SC405", "trace-not-file", "error", "A trace names a folder, not a file."),
    ("SC406", "not-regular-file", "error", "A path names a FIFO, device or socket: only regular files are read."),
    ("SC407", "vcs-folder", "error",
     "A path goes into .git/ (or another version-control folder): never read or published."),
    ("SC408", "file-over-limit", "error", "An evidence file or trace target is over the size limit (16 MiB)."),
    ("SC411", "windows-unsafe-name", "warning", "A file the ledger reads or the site writes has a name Windows "
     "cannot check out: a device name (CON, NUL, COM1, ...), one of <>:\"\\|?*, or a trailing dot or space."),
    ("SC410", "site-is-symlink", "warning", "The ledger's site/ (the default output folder) is a symlink: build and "
     "serve refuse to write through it."),
    ("SC409", "case-collision", "error", "Two cited files differ only in letter case: the site cannot hold both."),
    # Honesty
    ("SC501", "leads-not-ahead", "error", "status is leads but the result is not better than the SOTA value."),
    ("SC502", "trails-not-behind", "error", "status is trails but the result is not behind the bar by more than the "
     "tolerance, and its interval reaches the bar."),
    ("SC503", "parity-not-given", "error", "status is parity but the evidence gives another status: the result, or "
     "its interval's worse end, is outside the parity tolerance, or the runs cannot give that end."),
    ("SC504", "lead-within-tolerance", "error", "status is leads but the margin is within the parity tolerance."),
    ("SC505", "lead-within-interval", "error", "status is leads but the value's interval reaches the bar, or the "
     "runs cannot give its worse end."),
    ("SC506", "trail-within-interval", "error", "status is trails but the value's interval reaches the bar."),
    ("SC507", "units-not-comparable", "error", "A measured status whose result unit cannot be converted to the bar's: "
                                               "the status would go unchecked."),
    ("SC508", "unknown-unit", "warning", "A unit scorecard does not know; it compares only with the same spelling."),
    ("SC509", "unit-with-factor", "error", "A unit carries a typed factor (0.8 ms, ms/1k), zero, a power of zero, or a "
     "scale out of range: it would rescale the measured number with no evidence."),
    ("SC511", "unit-contradicts-artifact", "error", "The typed unit is not the unit the artifact states for the "
     "value (a unit member beside it, or a key ending _ns, _us or _ms)."),
    ("SC510", "comparison-not-finite", "error", "A value, margin or interval in a comparison with the bar is not a "
     "finite number (it overflows or underflows)."),
    ("SC512", "display-unit-not-comparable", "error", "display_unit does not convert to the bar's unit or the "
     "result's: the bar and the value could not both be shown in it."),
    ("SC325", "bar-with-failed-requests", "error", "A bar read from sota.result is a serving run where some "
     "requests failed: measure the rival without failures."),
    ("SC326", "simulated-is-measured", "error", "status simulated for a value read from a benchmark tool's output "
     "or a set of runs: a measurement is not a model."),
    ("SC329", "artifact-names-its-makers", "warning", "A cited artifact holds a host name, a user's home path or "
     "an environment-variable block: it is published as committed."),
    ("SC328", "unit-is-the-tools", "warning", "With format:, unit: differs from the unit the tool states: unit: "
     "is the unit the evidence states; display_unit: chooses how a value is shown (an error from the next minor "
     "version)."),
    ("SC327", "failures-counted-as-best", "error", "A serving run's requests failed, each counted as the slowest, "
     "but the bar says higher is better: a failure would count in the claim's favour."),
    ("SC514", "inconclusive-but-placed", "error", "status is inconclusive but the evidence places the value: it "
     "gives leads, parity or trails."),
    ("SC515", "tolerance-too-wide", "error", "parity_tolerance is over 0.2: a 'level' that wide says nothing."),
    ("SC516", "no-number-to-judge", "error", "status leads or parity against a bar with no number: nothing can check "
     "it; only trails or inconclusive (which claim nothing in our favour) validate."),
    ("SC513", "prose-number", "error", "A number typed in claim: or note: with a unit comparable to the result's is "
     "not the value, an interval end, the bar, the ratio or an input at the precision it is written with, or a "
     "favourable gap larger than the evidence gives."),
    ("SC517", "prose-direction", "error", "A gap typed beside a comparison with the bar says the other direction: "
     "'54.4% faster' of a result 54.4% slower."),
    ("SC518", "prose-status-words", "error", "Words of standing that the status does not give: 'beats the bar' on a "
     "record that trails, 'level with the bar' on one the runs cannot place."),
    ("SC519", "prose-whose-number", "error", "A number typed as ours that is the bar's, an interval end, a run's or an "
     "input's, without the words that say whose it is."),
    ("SC520", "conditions-differ", "error", "status leads, parity or trails across a condition conditions_must_match "
     "lists that differs between ours and the bar, or that one side does not state: the evidence gives inconclusive."),
    ("SC521", "reproduced-on-other-hardware", "warning", "A bar we reproduced (kind: reproduced) was measured on "
     "other hardware than ours, as the two artifacts record it (SC520, an error, where hardware must match)."),
    ("SC522", "meta-contradicts-tool", "warning", "An artifact's meta states a condition the benchmark tool records, "
     "with another value: the page shows the tool's, and the ledger's beside it."),
    # Sources
    ("SC601", "source-not-url", "error", "sota.source is not an http(s) URL."),
    ("SC602", "date-in-future", "error", "sota.date is in the future."),
    ("SC603", "source-stale", "warning", "sota.date is older than stale_after_months."),
    ("SC604", "placeholder-text", "warning",
     "Example text written by init or new is still there: it would be published."),
    # Site
    ("SC701", "template-error", "error", "A template (a ledger's override, or the theme) fails to compile or render."),
    # Review
    ("SC801", "suspect-claim", "warning",
     "What a reviewed claim rests on changed since its reviewed: stamp was written."),
    ("SC802", "not-reviewed", "warning", "A measured claim has no reviewed: stamp, and require_review is set."),
)


def finding(code: str, file: str, pos: tuple[int, int], message: str, hint: str = "") -> Finding:
    """Make a finding with the rule's default severity."""
    line, col = pos
    return Finding(file, line, col, code, message, hint, RULES[code].severity)


# A value's type in a message, with its article: as YAML calls it (a record) or as JSON does (an artifact).
_KINDS: dict[type, tuple[str, str]] = {type(None): ("empty (null)", "null"), bool: ("a boolean", "a boolean"),
                                       int: ("a number", "a number"), float: ("a number", "a number"),
                                       str: ("text", "a string"), list: ("a list", "an array"),
                                       dict: ("a mapping", "an object")}


def kind_of(value: object, json: bool = False) -> str:
    """What value is, for a message: 'a list', 'text', 'empty (null)'; with json, 'an array', 'a string', 'null'."""
    return _KINDS.get(type(value), ("a value", "a value"))[json]
