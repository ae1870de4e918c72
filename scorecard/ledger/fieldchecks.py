"""What the records' schema calls and what the records can do, without pydantic (issue 46: the hook's imports).

The schema is defined once, as pydantic models, in schemadef.py. Its checks that are code (a text must not be
empty, a date must exist, a bar's value needs its unit, ...) are the functions here; model.py, generated from
schemadef.py, validates with pydantic-core alone (the same validator pydantic builds, from the same schema, so the
same errors) into the light record classes based on Record below, whose methods and properties are the mixins here.

Custom checks raise ``PydanticCustomError`` whose type is the rule code (``SC205``), so the check stage can map
every schema error to a finding without a second list of rules.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Self

from ..measure.stats import is_stat
from ..core.dates import DATE_RE, parse_date
from .pydcore import pydantic_core

PydanticCustomError = pydantic_core.PydanticCustomError  # the engine's (pydcore.py)

# http(s), a host, and only characters a URL may hold (no spaces, quotes, <, >, backslashes, braces).
URL_RE = re.compile(r"^https?://[^\s/?#\"<>\\^`{|}]+[^\s\"<>\\^`{|}]*$", re.IGNORECASE)
STAMP_RE = re.compile(r"^fp[12]-[0-9a-f]{16}$")
STAT_PATTERN = r"^(median|mean|min|max|p([1-9][0-9]?(\.[0-9]{1,6})?|0\.[0-9]{0,5}[1-9]))$"


# --- field checks ----------------------------------------------------------------------------

def non_empty(value: str) -> str:
    if not value.strip():
        raise PydanticCustomError("SC204", "must not be empty")
    return value


def one_line(value: str) -> str:
    if "\n" in value.strip():
        lines = value.strip().count("\n") + 1
        raise PydanticCustomError("SC207", "claim must be one line; it has {n} lines", {"n": lines})
    return value


def year_as_text(value: object) -> object:
    # `date: 2024` is an integer to YAML; the format means the year.
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def a_date(value: str) -> str:
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
    check.__name__ = check.__qualname__ = f"url_{code.lower()}"
    return check


url_sc601 = _url_check("SC601")  # a bar's source
url_sc403 = _url_check("SC403")  # base_url, a trace entry's url


def finite(value: float) -> float:
    if not math.isfinite(value):
        raise PydanticCustomError("SC204", "must be a finite number, not {value}", {"value": value})
    return value


def condition_text(value: object) -> object:
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


def a_stamp(value: str) -> str:
    if not STAMP_RE.fullmatch(value):
        raise PydanticCustomError("SC204", "'{value}' is not a review stamp (stamps look like fp2-0123456789abcdef)",
                                  {"value": value})
    return value


def a_stat(value: str) -> str:
    if not is_stat(value):
        raise PydanticCustomError("SC204", "'{value}' is not a statistic: median, mean, min, max, or pNN for a "
                                  "quantile with 0 < NN < 100 (p90, p99, p99.9)", {"value": value})
    return value


def trace_kind(value: object) -> str:
    """Which form of a trace entry a value is: text (a path or URL) or a mapping (a labelled link)."""
    return "~text" if isinstance(value, str) else "~link"


# --- checks across a record's fields (after its fields validated) -----------------------------

def sota_value_has_unit(self: Any) -> Any:
    if self.value is not None and self.result is None and (self.unit is None or self.better is None):
        missing = " and ".join(k for k in ("unit", "better") if getattr(self, k) is None)
        raise PydanticCustomError("SC206", "sota.value is given without {missing}", {"missing": missing})
    if self.result is not None and self.better is None:
        raise PydanticCustomError("SC206", "sota.result is given without better (higher or lower)")
    return self


def words_need_format(self: Any) -> Any:
    for key in ("benchmark", "metric"):
        if getattr(self, key) is not None and self.format is None:
            raise PydanticCustomError("SC208", "{key}: names an entry in a tool's own words, and needs format: "
                                      "(the tool that wrote the evidence)", {"key": key})
    return self


def unit_unless_the_tool_states_it(self: Any) -> Any:
    if self.unit is None and self.format is None:
        raise PydanticCustomError("SC201", "result needs unit: (only a format: the tool states units for may "
                                  "leave it out)")
    if self.format is not None and (self.low is not None or self.high is not None):
        raise PydanticCustomError("SC208", "low: and high: name an interval by pointer or path; with format: "
                                  "the tool's runs give the interval")
    return self


def one_target(self: Any) -> Any:
    if (self.path is None) == (self.url is None):
        raise PydanticCustomError("SC204", "a trace entry needs exactly one of path: or url:")
    return self


def inlined(node: Any, defs: dict[str, Any]) -> Any:
    """A core schema with every definition-ref replaced by the definition (the records' schema has no cycles)."""
    if isinstance(node, dict):
        if node.get("type") == "definition-ref":
            return inlined(defs[node["schema_ref"]], defs)
        return {key: inlined(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [inlined(value, defs) for value in node]
    return node


# --- the records ------------------------------------------------------------------------------

class RecordBase:
    """Base of every record as the pipeline holds it (model.Record: validated by pydantic-core, from schemadef.py's
    schema), immutable, compared by class and fields. Its instance layout is pydantic's (what pydantic-core's
    validator and serializer read and write), with the few methods of pydantic's BaseModel the pipeline uses."""

    __slots__ = ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")
    FIELDS: ClassVar[tuple[str, ...]] = ()  # the record's keys, in the schema's order
    __pydantic_fields_set__: set[str]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordBase):
            return NotImplemented  # as pydantic's: the other side may know
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:  # as pydantic's frozen models: by the fields' values (a list in them: TypeError)
        return hash(tuple(self.__dict__.values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    def __str__(self) -> str:  # as pydantic's: what a template's `|string` prints
        return " ".join(f"{k}={v!r}" for k, v in self.__dict__.items())

    def __iter__(self) -> Iterator[tuple[str, Any]]:  # as pydantic's: (field, value) pairs, for a template's loop
        yield from self.__dict__.items()

    def __copy__(self) -> Self:  # as pydantic's: its own dict of fields
        return self.model_copy(update={})

    def __reduce__(self) -> tuple:
        return _rebuilt, (type(self), self.__dict__, sorted(self.__pydantic_fields_set__))

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        """A copy with the given fields replaced, not validated again (as pydantic's)."""
        made = object.__new__(type(self))
        update = update or {}
        set_fields(made, {**self.__dict__, **update}, self.__pydantic_fields_set__ | update.keys())
        return made


def set_fields(made: RecordBase, fields: dict[str, Any], fields_set: set[str] | frozenset[str]) -> None:
    """A record's state, as pydantic-core's validator sets it (past the record's refusal of assignment)."""
    object.__setattr__(made, "__dict__", fields)
    object.__setattr__(made, "__pydantic_fields_set__", set(fields_set))
    object.__setattr__(made, "__pydantic_extra__", None)
    object.__setattr__(made, "__pydantic_private__", None)


def _rebuilt(cls: type[RecordBase], fields: dict[str, Any], fields_set: list[str]) -> RecordBase:
    made = object.__new__(cls)
    set_fields(made, fields, set(fields_set))
    return made


class SotaMethods:
    """What the pipeline asks of a bar."""

    if TYPE_CHECKING:
        value: float | None
        result: object | None
        kind: str | None
        date: str
        checked: str | None

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


class TraceLinkMethods:
    """What the pipeline asks of a labelled trace entry."""

    if TYPE_CHECKING:
        path: str | None
        url: str | None

    @property
    def target(self) -> str:
        """The path or URL the entry points at."""
        return self.path if self.path is not None else self.url  # type: ignore[return-value]
