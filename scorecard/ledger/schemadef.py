"""The ledger's records as pydantic models: the one source of the schema.

The pipeline does not import this module (pydantic's model machinery is a third of the hook's time): model.py,
generated from it (`python -m scorecard.ledger.schemagen`), validates with pydantic-core alone, from the core
schema pydantic builds here, into light record classes. The checks that are code are in fieldchecks.py, where
custom checks raise ``PydanticCustomError`` whose type is the rule code (``SC205``), so the check stage can map
every schema error to a finding without a second list of rules. Editors' JSON Schema and the schema findings' hints
(a key's description, the keys a mapping may hold) are read from here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, model_validator
from pydantic.config import JsonDict

from ..core.dates import DATE_RE
from ..core.statuses import STATUSES, Status
from .fieldchecks import (STAMP_RE, STAT_PATTERN, a_date, a_stamp, a_stat, condition_text, finite, non_empty,
                          one_line, one_target, sota_value_has_unit, trace_kind, unit_unless_the_tool_states_it,
                          url_sc403, url_sc601, words_need_format, year_as_text)


Text = Annotated[str, AfterValidator(non_empty)]
OneLine = Annotated[str, AfterValidator(non_empty), AfterValidator(one_line)]
DateText = Annotated[str, BeforeValidator(year_as_text), AfterValidator(a_date),
                     Field(json_schema_extra={"pattern": DATE_RE.pattern})]
SourceUrl = Annotated[str, AfterValidator(url_sc601), Field(json_schema_extra={"pattern": "^https?://"})]
HttpUrl = Annotated[str, AfterValidator(url_sc403), Field(json_schema_extra={"pattern": "^https?://"})]
Number = Annotated[float, AfterValidator(finite)]

ConditionKey = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
ConditionValue = Annotated[str | int | float, AfterValidator(condition_text)]
Conditions = Annotated[dict[ConditionKey, ConditionValue], Field(
    description="What the bar was measured on: hardware, software, model, workload, precision, date (free keys "
                "allowed, each a line of at most 200 characters).", max_length=40)]
MustMatch = Annotated[list[ConditionKey], Field(
    description="Conditions that must match (ours and the bar's) for a comparison to be judged: across a "
                "difference or an unstated value the evidence gives inconclusive.", max_length=40)]


Stamp = Annotated[str, AfterValidator(a_stamp), Field(json_schema_extra={"pattern": STAMP_RE.pattern})]


class Record(BaseModel):
    """Base of every record: strict types, unknown keys rejected, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Settings(Record):
    """scorecard.yaml: the ledger's settings."""

    title: Text = Field(description="The scorecard's title.")
    subject: Text = Field(description="The system being scored: the name of its column on the site.")
    description: str | None = Field(None, description="Markdown shown under the title.")
    stale_after_months: int | None = Field(None, ge=1, description="A SOTA source older than this warns.")
    parity_tolerance: float = Field(0.05, ge=0, lt=1, description="|result/bar - 1| within this is parity.")
    base_url: HttpUrl | None = Field(None, description="Canonical base URL of the published site.")
    stale_evidence_after_months: int | None = Field(
        None, ge=1, description="Evidence measured longer ago than this (meta.date, else its last git commit) warns.")
    require_review: bool = Field(False, description="Warn about measured claims that carry no reviewed: stamp.")
    cards: bool = Field(True, description="Build a small card page per dimension, to cite, embed or share one claim "
                        "(false saves a file per dimension on very large ledgers).")
    conditions_must_match: MustMatch = Field(default_factory=list)
    condition_equivalents: list[Annotated[list[Annotated[str, AfterValidator(condition_text)]],
                                          Field(min_length=2, max_length=20)]] = Field(
        default_factory=list, max_length=200, description="Groups of condition values that name the same thing "
        "(e.g. [H100-SXM, H100 80GB HBM3]), for conditions_must_match.")


class Category(Record):
    """claims/<category>/_category.yaml."""

    title: Text = Field(description="The category's title.")
    short: str | None = Field(None, description="Short name for page titles.")
    summary: str | None = Field(None, description="Markdown summary.")
    order: int | None = Field(None, description="Categories sort by (order, slug); unordered ones come last.")


Stat = Annotated[str, AfterValidator(a_stat), Field(json_schema_extra={"pattern": STAT_PATTERN})]


class Sota(Record):
    """The state-of-the-art bar to beat."""

    bar: Text = Field(description="Markdown: the bar in words.")
    value: Number | None = Field(None, description="The bar as a number.")
    unit: str | None = Field(None, description="Unit of value; required with value.")
    better: Literal["higher", "lower"] | None = Field(None,
                                                      description="Which direction is better; required with value.")
    source: SourceUrl = Field(description="http(s) URL of the source.")
    date: DateText = Field(description="YYYY, YYYY-MM or YYYY-MM-DD; not in the future.")
    checked: DateText | None = Field(None, description="YYYY-MM or YYYY-MM-DD: when a person last confirmed the bar "
                                     "still stands; staleness counts from here. Not in the future, not before date.")
    stat: Stat | None = Field(None, description="The bar's statistic (median, mean, min, max, pNN): when given, "
                              "ours must be the same; when not, a lead rests only on a median or a mean.")
    kind: Literal["claimed", "independent", "reproduced"] | None = Field(
        None, description="Where the bar comes from: claimed (the authors' own number; the default), independent (a "
        "third party's measurement) or reproduced (we measured the other system; needs result).")
    result: Result | None = Field(None, description="The bar read from an artifact, like our result (reproduced or "
                                  "independent): no value, unit or stat beside it; its interval counts in the verdict.")
    conditions: Conditions | None = None

    _value_has_unit = model_validator(mode="after")(sota_value_has_unit)

InputName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]


_ONE_BOUND: JsonDict = {"oneOf": [{"required": ["pointer"]}, {"required": ["path"]}]}
_ONE_SELECTOR: JsonDict = {"oneOf": [{"required": ["pointer"]}, {"required": ["path"]}, {"required": ["format"]}]}


class Bound(Record):
    """One end of an interval the artifact reports itself, read from the result's own evidence file."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, json_schema_extra=_ONE_BOUND)

    pointer: str | None = Field(None, description="RFC 6901 JSON pointer to the bound (give pointer or path).")
    path: Text | None = Field(None, description="RFC 9535 JSONPath query selecting the bound (give pointer or path).")


Format = Literal["hyperfine", "pytest-benchmark", "pyperf", "google-benchmark", "asv", "serving"]
_FORMAT = "The tool that wrote the evidence, read in its own words (docs/formats.md): "
_BENCHMARK = ("With format: the tool's name for the entry (hyperfine: the command; asv: name(params)); may be left "
              "out when the file holds one.")
_METRIC = ("With format: which of the tool's metrics (google-benchmark: real_time, cpu_time or a counter; serving: "
           "ttft, tpot, itl, e2el, request_throughput, output_throughput; hyperfine: time, user, system).")


class ToolWords(Record):
    """A selection in a tool's own words: format:, benchmark:, metric: (with pointer: and path: left out)."""

    format: Format | None = Field(None, description=_FORMAT + "hyperfine, pytest-benchmark, pyperf, "
                                  "google-benchmark, asv or serving.")
    benchmark: Text | None = Field(None, description=_BENCHMARK)
    metric: Text | None = Field(None, description=_METRIC)

    _words_need_format = model_validator(mode="after")(words_need_format)

class Input(ToolWords):
    """One named measured number a derived result is computed from."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, json_schema_extra=_ONE_SELECTOR)

    evidence: Text = Field(description="Path of a JSON file under evidence/.")
    pointer: str | None = Field(None, description="RFC 6901 JSON pointer to the number or array of runs "
                                                  "(give pointer or path).")
    path: Text | None = Field(None, description="RFC 9535 JSONPath query selecting the number(s) "
                                                "(give pointer or path).")
    unit: Text | None = Field(None, description="Unit of the input; units combine through the expression.")
    stat: Stat | None = Field(None, description="How runs are reduced to one number: median (default), mean, "
                                                "pNN (a quantile: p90, p99.9), min or max.")
    label: Text | None = Field(None, description="What prose calls this input ('raw SGLang'): a number it gives, typed "
                                                 "in claim: or note:, is named by this label or by the input's name.")


class Result(ToolWords):
    """Where the measured number comes from: a selection in one evidence file, or an expression over inputs."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, json_schema_extra={
        "oneOf": [{"required": ["evidence"]}, {"required": ["expr", "inputs"]}],
        "allOf": [{"if": {"required": ["evidence"]}, "then": _ONE_SELECTOR},
                  {"if": {"not": {"required": ["format"]}}, "then": {"required": ["unit"]}}]})

    evidence: Text | None = Field(None, description="Path of a JSON file under evidence/.")
    pointer: str | None = Field(None, description="RFC 6901 JSON pointer to a finite number, or to an array of "
                                                  "numbers (one per run). Give pointer or path.")
    path: Text | None = Field(None, description="RFC 9535 JSONPath query, for entries found by name, e.g. "
                                                "$.benchmarks[?@.name == 'test_x'].stats.median. Give pointer or path.")
    unit: Text | None = Field(None, description="Unit of the measured number as the evidence states it, e.g. ms, "
                              "s, MB/s, tok/s, x, %. Required, except with format: where the tool states it (leave "
                              "it out; display_unit: chooses how the value is shown).")
    stat: Stat | None = Field(None, description="For a set of runs: the statistic claimed, median (default), mean, "
                                                "pNN (a quantile: p90, p99.9), min or max.")
    low: Bound | None = Field(None, description="The lower end of an interval the artifact reports itself.")
    high: Bound | None = Field(None, description="The upper end of an interval the artifact reports itself.")
    level: float | None = Field(None, gt=0, lt=1, description="The stated confidence of the interval low: and high: "
                                "name, e.g. 0.99 (required with them).")
    expr: Text | None = Field(None, description="A derived value: + - * / and parentheses over the names in inputs.")
    inputs: dict[InputName, Input] | None = Field(None, description="The named measured numbers expr uses.")

    _unit_unless_the_tool_states_it = model_validator(mode="after")(unit_unless_the_tool_states_it)

Sota.model_rebuild()  # sota.result is a Result, defined after the bar


class TraceLink(Record):
    """A trace entry with a label: a path (with optional #/pointer) or a URL."""

    path: Text | None = Field(None, description="A file in the ledger (optionally #/pointer), or an http(s) URL.")
    url: HttpUrl | None = Field(None, description="An external http(s) URL (not fetched).")
    label: str | None = Field(None, description="Text shown for the link.")

    _one_target = model_validator(mode="after")(one_target)

# A discriminated union, so a bad entry reports the errors of one form, not of both.
Trace = Annotated[Annotated[Text, Tag("~text")] | Annotated[TraceLink, Tag("~link")], Discriminator(trace_kind)]


class Dimension(Record):
    """claims/<category>/<id>.yaml: one dimension the field competes on."""

    title: Text = Field(description="What is measured.")
    why: Text = Field(description="Markdown: why the field competes on it.")
    sota: Sota
    leaders: list[Text] = Field(default_factory=list, description="Leading systems (inline Markdown).")
    status: Status = Field(description="Where the subject stands: " + ", ".join(STATUSES) + ".")
    claim: OneLine = Field(description="One line: our position in words.")
    result: Result | None = Field(None, description="Required for measured statuses, forbidden otherwise.")
    display_unit: Text | None = Field(None, description="The unit both the bar and our value are shown in (default: "
                                      "the bar's unit); it must convert to both.")
    conditions_must_match: MustMatch = Field(default_factory=list)  # adds to scorecard.yaml's list, never removes
    share: bool | None = Field(None, description="false: a result in % that is not a share (a gain or a change in "
                               "percent), judged as a ratio; by default a result in % whose bar and value lie in 0-100 "
                               "is a share, judged on the side the bar has nearer 0 (accuracy as its error rate).")
    note: str | None = Field(None, description="Markdown note.")
    trace: list[Trace] = Field(default_factory=list, description="Files, files#/pointer, or URLs backing the claim.")
    order: int | None = Field(None, description="Position in the category; dimensions sort by (order, id).")
    reviewed: Stamp | None = Field(None, description="Fingerprint of what a human last reviewed; written by "
                                                     "`scorecard review`, never by hand.")


MODELS: dict[str, type[Record]] = {"scorecard": Settings, "category": Category, "dimension": Dimension}


def json_schema(kind: str) -> dict:
    """The draft-07 JSON Schema of one record kind, for editors and check-jsonschema."""
    model = MODELS[kind]
    schema = model.model_json_schema(ref_template="#/definitions/{model}")
    if "$defs" in schema:
        schema["definitions"] = schema.pop("$defs")
    _allow_year_number(schema)
    return {"$schema": "http://json-schema.org/draft-07/schema#",
            "$id": f"https://scorecard.invalid/schema/{kind}.schema.json", **schema}


def _allow_year_number(node: object) -> None:
    # Editors read `date: 2024` as an integer, and the model accepts it as the year.
    if isinstance(node, dict):
        date = node.get("properties", {}).get("date")
        if isinstance(date, dict) and date.get("type") == "string" and "pattern" in date:
            date.pop("type")
            pattern = date.pop("pattern")
            date["anyOf"] = [{"type": "string", "pattern": pattern},
                             {"type": "integer", "minimum": 1000, "maximum": 9999}]
        for value in node.values():
            _allow_year_number(value)
    elif isinstance(node, list):
        for value in node:
            _allow_year_number(value)
