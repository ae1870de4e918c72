"""The ledger's records as pydantic models: the one source of the schema.

Custom checks raise ``PydanticCustomError`` whose type is the rule code (``SC205``), so the
check stage can map every schema error to a finding without a second list of rules.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, model_validator
from pydantic.config import JsonDict
from pydantic_core import PydanticCustomError

from ..measure.stats import is_stat
from ..core.dates import DATE_RE, parse_date
from ..core.statuses import STATUSES, Status


# http(s), a host, and only characters a URL may hold (no spaces, quotes, <, >, backslashes, braces).
URL_RE = re.compile(r"^https?://[^\s/?#\"<>\\^`{|}]+[^\s\"<>\\^`{|}]*$", re.IGNORECASE)


def _non_empty(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("SC204", "must not be empty")
    return value


def _one_line(value: str) -> str:
    if "\n" in value.strip():
        lines = value.strip().count("\n") + 1
        raise PydanticCustomError("SC207", "claim must be one line; it has {n} lines", {"n": lines})
    return value


def _year_as_text(value: object) -> object:
    # `date: 2024` is an integer to YAML; the format means the year.
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _date(value: str) -> str:
    if parse_date(value) is None:
        m = DATE_RE.fullmatch(value)
        if m and m[2] and not 1 <= int(m[2]) <= 12:
            raise PydanticCustomError("SC205", "'{value}': month {month} is out of range (01 to 12)",
                                      {"value": value, "month": m[2]})
        if m and m[3]:
            raise PydanticCustomError("SC205", "'{value}': day {day} is past the end of that month",
                                      {"value": value, "day": m[3]})
        raise PydanticCustomError("SC205", "'{value}' is not a date of the form YYYY, YYYY-MM or YYYY-MM-DD",
                                  {"value": value})
    return value


def _url_check(code: str):
    """A validator for http(s) URLs that reports the given rule code."""
    def check(value: str) -> str:
        if not URL_RE.fullmatch(value):
            raise PydanticCustomError(code, "'{value}' is not a valid http(s) URL", {"value": value})
        return value
    return check


def _finite(value: float) -> float:
    if not math.isfinite(value):
        raise PydanticCustomError("SC204", "must be a finite number, not {value}", {"value": value})
    return value


Text = Annotated[str, AfterValidator(_non_empty)]
OneLine = Annotated[str, AfterValidator(_non_empty), AfterValidator(_one_line)]
DateText = Annotated[str, BeforeValidator(_year_as_text), AfterValidator(_date),
                     Field(json_schema_extra={"pattern": DATE_RE.pattern})]
SourceUrl = Annotated[str, AfterValidator(_url_check("SC601")), Field(json_schema_extra={"pattern": "^https?://"})]
HttpUrl = Annotated[str, AfterValidator(_url_check("SC403")), Field(json_schema_extra={"pattern": "^https?://"})]
Number = Annotated[float, AfterValidator(_finite)]

def _condition_text(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        raise PydanticCustomError("SC204", "must be a finite number, not {value}", {"value": value})
    if isinstance(value, int) and abs(value) > 10 ** 15:
        raise PydanticCustomError("SC204", "a number of at most 15 digits (write a longer one as text)")
    if isinstance(value, str):
        if not value.strip():
            raise PydanticCustomError("SC204", "must not be empty")
        if "\n" in value.strip() or len(value) > 200:
            raise PydanticCustomError("SC204", "a condition is one line of at most 200 characters")
    return value


ConditionKey = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
ConditionValue = Annotated[str | int | float, AfterValidator(_condition_text)]
Conditions = Annotated[dict[ConditionKey, ConditionValue], Field(
    description="What the bar was measured on: hardware, software, model, workload, precision, date (free keys "
                "allowed, each a line of at most 200 characters).", max_length=40)]
MustMatch = Annotated[list[ConditionKey], Field(
    description="Conditions that must match (ours and the bar's) for a comparison to be judged: across a "
                "difference or an unstated value the evidence gives inconclusive.", max_length=40)]


STAMP_RE = re.compile(r"^fp[12]-[0-9a-f]{16}$")


def _stamp(value: str) -> str:
    if not STAMP_RE.fullmatch(value):
        raise PydanticCustomError("SC204", "'{value}' is not a review stamp (stamps look like fp2-0123456789abcdef)",
                                  {"value": value})
    return value


Stamp = Annotated[str, AfterValidator(_stamp), Field(json_schema_extra={"pattern": STAMP_RE.pattern})]


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
    condition_equivalents: list[Annotated[list[Annotated[str, AfterValidator(_condition_text)]],
                                          Field(min_length=2, max_length=20)]] = Field(
        default_factory=list, max_length=200, description="Groups of condition values that name the same thing "
        "(e.g. [H100-SXM, H100 80GB HBM3]), for conditions_must_match.")


class Category(Record):
    """claims/<category>/_category.yaml."""

    title: Text = Field(description="The category's title.")
    short: str | None = Field(None, description="Short name for page titles.")
    summary: str | None = Field(None, description="Markdown summary.")
    order: int | None = Field(None, description="Categories sort by (order, slug); unordered ones come last.")


def _stat(value: str) -> str:
    if not is_stat(value):
        raise PydanticCustomError("SC204", "'{value}' is not a statistic: median, mean, min, max, or pNN for a "
                                  "quantile with 0 < NN < 100 (p90, p99, p99.9)", {"value": value})
    return value


STAT_PATTERN = r"^(median|mean|min|max|p([1-9][0-9]?(\.[0-9]{1,6})?|0\.[0-9]{0,5}[1-9]))$"
Stat = Annotated[str, AfterValidator(_stat), Field(json_schema_extra={"pattern": STAT_PATTERN})]


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

    @property
    def has_number(self) -> bool:
        """Whether the bar is a number (typed, or read from sota.result)."""
        return self.value is not None or self.result is not None

    @property
    def source_kind(self) -> str:
        """claimed, independent or reproduced (no kind reads as claimed)."""
        return self.kind or "claimed"

    def as_of(self) -> tuple[int, int]:
        """(year, month) the bar's age counts from: the end of the later of date and checked."""
        periods = [p for p in (parse_date(text) for text in (self.date, self.checked) if text) if p is not None]
        return max((p[0], p[1] or 12) for p in periods)

    @model_validator(mode="after")
    def _value_has_unit(self) -> Sota:
        if self.value is not None and self.result is None and (self.unit is None or self.better is None):
            missing = " and ".join(k for k in ("unit", "better") if getattr(self, k) is None)
            raise PydanticCustomError("SC206", "sota.value is given without {missing}", {"missing": missing})
        if self.result is not None and self.better is None:
            raise PydanticCustomError("SC206", "sota.result is given without better (higher or lower)")
        return self


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

    @model_validator(mode="after")
    def _words_need_format(self) -> ToolWords:
        for key in ("benchmark", "metric"):
            if getattr(self, key) is not None and self.format is None:
                raise PydanticCustomError("SC208", "{key}: names an entry in a tool's own words, and needs format: "
                                          "(the tool that wrote the evidence)", {"key": key})
        return self


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

    @model_validator(mode="after")
    def _unit_unless_the_tool_states_it(self) -> Result:
        if self.unit is None and self.format is None:
            raise PydanticCustomError("SC201", "result needs unit: (only a format: the tool states units for may "
                                      "leave it out)")
        if self.format is not None and (self.low is not None or self.high is not None):
            raise PydanticCustomError("SC208", "low: and high: name an interval by pointer or path; with format: "
                                      "the tool's runs give the interval")
        return self


Sota.model_rebuild()  # sota.result is a Result, defined after the bar


class TraceLink(Record):
    """A trace entry with a label: a path (with optional #/pointer) or a URL."""

    path: Text | None = Field(None, description="A file in the ledger (optionally #/pointer), or an http(s) URL.")
    url: HttpUrl | None = Field(None, description="An external http(s) URL (not fetched).")
    label: str | None = Field(None, description="Text shown for the link.")

    @model_validator(mode="after")
    def _one_target(self) -> TraceLink:
        if (self.path is None) == (self.url is None):
            raise PydanticCustomError("SC204", "a trace entry needs exactly one of path: or url:")
        return self

    @property
    def target(self) -> str:
        """The path or URL the entry points at."""
        return self.path if self.path is not None else self.url  # type: ignore[return-value]


def _trace_kind(value: object) -> str:
    return "~text" if isinstance(value, str) else "~link"


# A discriminated union, so a bad entry reports the errors of one form, not of both.
Trace = Annotated[Annotated[Text, Tag("~text")] | Annotated[TraceLink, Tag("~link")], Discriminator(_trace_kind)]


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
