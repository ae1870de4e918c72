"""The ledger's records as the pipeline holds them, and their validators.

Generated from schemadef.py by `python -m scorecard.ledger.schemagen` (do not edit; see schemagen.py). Validation
is pydantic-core's, from the core schema pydantic builds from schemadef.py: pydantic's errors, without its import.

Lazy import: schemagen (pydantic), only where the installed pydantic-core is not the one this was made by.
"""

# ruff: noqa: E501
from __future__ import annotations

from functools import cache
from typing import Any, ClassVar, Literal, Self

from ..core.statuses import Status
from .fieldchecks import (RecordBase, SotaMethods, TraceLinkMethods, a_date, a_stamp, a_stat, condition_text, finite, inlined,
                          non_empty, one_line, one_target, set_fields, sota_value_has_unit, trace_kind,
                          unit_unless_the_tool_states_it, url_sc403, url_sc601, words_need_format, year_as_text)
from .pydcore import pydantic_core  # the engine alone: the package's import cost the hook 22-25 ms

PYDANTIC_CORE_VERSION = '2.50.5'  # what the schemas below were made for
Format = Literal['hyperfine', 'pytest-benchmark', 'pyperf', 'google-benchmark', 'asv', 'serving']


class Record(RecordBase):
    """Base of every record: strict types, unknown keys rejected, immutable (schemadef.Record)."""

    __slots__ = ()

    def __init__(self, **data: Any) -> None:
        made = self.model_validate(data)
        set_fields(self, made.__dict__, made.__pydantic_fields_set__)

    @classmethod
    def model_validate(cls, data: object) -> Self:
        """data validated into a record (pydantic_core.ValidationError, as pydantic's, if it is not one)."""
        return validator(cls.__name__).validate_python(data)

    def model_dump(self, *, mode: Literal["python", "json"] = "python", exclude: set[str] | None = None) -> Any:
        """The record as plain data, as pydantic's model_dump gives it."""
        return serializer(type(self).__name__).to_python(self, mode=mode, exclude=exclude)


class Settings(Record):
    "scorecard.yaml: the ledger's settings."

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('title', 'subject', 'description', 'stale_after_months', 'parity_tolerance',
                                         'base_url', 'stale_evidence_after_months', 'require_review', 'cards',
                                         'conditions_must_match', 'condition_equivalents',)
    title: str
    subject: str
    description: str | None
    stale_after_months: int | None
    parity_tolerance: float
    base_url: str | None
    stale_evidence_after_months: int | None
    require_review: bool
    cards: bool
    conditions_must_match: list[str]
    condition_equivalents: list[list[str]]


class Category(Record):
    'claims/<category>/_category.yaml.'

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('title', 'short', 'summary', 'order')
    title: str
    short: str | None
    summary: str | None
    order: int | None


class Sota(SotaMethods, Record):
    'The state-of-the-art bar to beat.'

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('bar', 'value', 'unit', 'better', 'source', 'date', 'checked', 'stat',
                                         'kind', 'result', 'conditions',)
    bar: str
    value: float | None
    unit: str | None
    better: Literal['higher', 'lower'] | None
    source: str
    date: str
    checked: str | None
    stat: str | None
    kind: Literal['claimed', 'independent', 'reproduced'] | None
    result: Result | None
    conditions: dict[str, str | int | float] | None


class Bound(Record):
    "One end of an interval the artifact reports itself, read from the result's own evidence file."

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('pointer', 'path')
    pointer: str | None
    path: str | None


class ToolWords(Record):
    "A selection in a tool's own words: format:, benchmark:, metric: (with pointer: and path: left out)."

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('format', 'benchmark', 'metric')
    format: Format | None
    benchmark: str | None
    metric: str | None


class Input(ToolWords):
    'One named measured number a derived result is computed from.'

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('format', 'benchmark', 'metric', 'evidence', 'pointer', 'path', 'unit',
                                         'stat', 'label',)
    format: Format | None
    benchmark: str | None
    metric: str | None
    evidence: str
    pointer: str | None
    path: str | None
    unit: str | None
    stat: str | None
    label: str | None


class Result(ToolWords):
    'Where the measured number comes from: a selection in one evidence file, or an expression over inputs.'

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('format', 'benchmark', 'metric', 'evidence', 'pointer', 'path', 'unit',
                                         'stat', 'low', 'high', 'level', 'expr', 'inputs',)
    format: Format | None
    benchmark: str | None
    metric: str | None
    evidence: str | None
    pointer: str | None
    path: str | None
    unit: str | None
    stat: str | None
    low: Bound | None
    high: Bound | None
    level: float | None
    expr: str | None
    inputs: dict[str, Input] | None


class TraceLink(TraceLinkMethods, Record):
    'A trace entry with a label: a path (with optional #/pointer) or a URL.'

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('path', 'url', 'label')
    path: str | None
    url: str | None
    label: str | None


class Dimension(Record):
    'claims/<category>/<id>.yaml: one dimension the field competes on.'

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ('title', 'why', 'sota', 'leaders', 'status', 'claim', 'result',
                                         'display_unit', 'conditions_must_match', 'share', 'note', 'trace', 'order',
                                         'reviewed',)
    title: str
    why: str
    sota: Sota
    leaders: list[str]
    status: Status
    claim: str
    result: Result | None
    display_unit: str | None
    conditions_must_match: list[str]
    share: bool | None
    note: str | None
    trace: list[str | TraceLink]
    order: int | None
    reviewed: str | None


@cache
def validator(name: str) -> pydantic_core.SchemaValidator:
    """The validator of the record class of that name (pydantic's, for its schema)."""
    return pydantic_core.SchemaValidator(*_schema(name))


@cache
def serializer(name: str) -> pydantic_core.SchemaSerializer:
    """What gives model_dump of the record class of that name (pydantic's, for its schema)."""
    return pydantic_core.SchemaSerializer(*_schema(name))


def _schema(name: str) -> tuple[Any, Any]:
    """The core schema and config of the record class of that name: as written here, or, under another
    pydantic-core than the one they were made for, as pydantic builds them from schemadef.py."""
    if pydantic_core.__version__ == PYDANTIC_CORE_VERSION:  # what runs them (pydantic's import costs the hook 10 ms)
        defs = _definitions()
        return inlined(defs[name], defs), _configs()[name]
    from .schemagen import core_config, runtime_schema  # pydantic builds them now
    return runtime_schema(name, {c.__name__: c for c in _CLASSES}), core_config(name)


_CLASSES = (Settings, Category, Sota, Bound, ToolWords, Input, Result, TraceLink, Dimension)


def _configs() -> dict[str, Any]:
    """Each record class's config (pydantic's), by name."""
    return {
        'Settings': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Settings'},
        'Category': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Category'},
        'Sota': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Sota'},
        'Bound': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Bound'},
        'ToolWords': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'ToolWords'},
        'Input': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Input'},
        'Result': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Result'},
        'TraceLink': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'TraceLink'},
        'Dimension': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Dimension'}}


def _definitions() -> dict[str, Any]:
    """Each record class's core schema, by name, with the others it holds named."""
    return {
        'Settings': {
            'type': 'model',
            'cls': Settings,
            'schema': {
                'type': 'model-fields',
                'fields': {
                    'title': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'function-after',
                            'function': {'type': 'no-info', 'function': non_empty},
                            'schema': {'type': 'str'}}},
                    'subject': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'function-after',
                            'function': {'type': 'no-info', 'function': non_empty},
                            'schema': {'type': 'str'}}},
                    'description': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                            'default': None}},
                    'stale_after_months': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'int', 'ge': 1}},
                            'default': None}},
                    'parity_tolerance': {
                        'type': 'model-field',
                        'schema': {'type': 'default', 'schema': {'type': 'float', 'ge': 0, 'lt': 1}, 'default': 0.05}},
                    'base_url': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'nullable',
                                'schema': {
                                    'type': 'function-after',
                                    'function': {'type': 'no-info', 'function': url_sc403},
                                    'schema': {'type': 'str'}}},
                            'default': None}},
                    'stale_evidence_after_months': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'int', 'ge': 1}},
                            'default': None}},
                    'require_review': {
                        'type': 'model-field',
                        'schema': {'type': 'default', 'schema': {'type': 'bool'}, 'default': False}},
                    'cards': {
                        'type': 'model-field',
                        'schema': {'type': 'default', 'schema': {'type': 'bool'}, 'default': True}},
                    'conditions_must_match': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'list',
                                'items_schema': {'type': 'str', 'pattern': '^[a-z][a-z0-9_]{0,39}$'},
                                'max_length': 40},
                            'default_factory': list,
                            'default_factory_takes_data': False}},
                    'condition_equivalents': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'list',
                                'items_schema': {
                                    'type': 'list',
                                    'items_schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': condition_text},
                                        'schema': {'type': 'str'}},
                                    'min_length': 2,
                                    'max_length': 20},
                                'max_length': 200},
                            'default_factory': list,
                            'default_factory_takes_data': False}}},
                'model_name': 'Settings',
                'computed_fields': []},
            'custom_init': False,
            'root_model': False,
            'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Settings'}},
        'Category': {
            'type': 'model',
            'cls': Category,
            'schema': {
                'type': 'model-fields',
                'fields': {
                    'title': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'function-after',
                            'function': {'type': 'no-info', 'function': non_empty},
                            'schema': {'type': 'str'}}},
                    'short': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                            'default': None}},
                    'summary': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                            'default': None}},
                    'order': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'int'}},
                            'default': None}}},
                'model_name': 'Category',
                'computed_fields': []},
            'custom_init': False,
            'root_model': False,
            'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Category'}},
        'Bound': {
            'type': 'model',
            'cls': Bound,
            'schema': {
                'type': 'model-fields',
                'fields': {
                    'pointer': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                            'default': None}},
                    'path': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'nullable',
                                'schema': {
                                    'type': 'function-after',
                                    'function': {'type': 'no-info', 'function': non_empty},
                                    'schema': {'type': 'str'}}},
                            'default': None}}},
                'model_name': 'Bound',
                'computed_fields': []},
            'custom_init': False,
            'root_model': False,
            'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Bound'}},
        'Input': {
            'type': 'function-after',
            'function': {'type': 'no-info', 'function': words_need_format},
            'schema': {
                'type': 'model',
                'cls': Input,
                'schema': {
                    'type': 'model-fields',
                    'fields': {
                        'format': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'literal',
                                        'expected': [
                                            'hyperfine',
                                            'pytest-benchmark',
                                            'pyperf',
                                            'google-benchmark',
                                            'asv',
                                            'serving']}},
                                'default': None}},
                        'benchmark': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'metric': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'evidence': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'function-after',
                                'function': {'type': 'no-info', 'function': non_empty},
                                'schema': {'type': 'str'}}},
                        'pointer': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                                'default': None}},
                        'path': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'unit': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'stat': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': a_stat},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'label': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}}},
                    'model_name': 'Input',
                    'computed_fields': []},
                'custom_init': False,
                'root_model': False,
                'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Input'}}},
        'Result': {
            'type': 'function-after',
            'function': {'type': 'no-info', 'function': unit_unless_the_tool_states_it},
            'schema': {
                'type': 'function-after',
                'function': {'type': 'no-info', 'function': words_need_format},
                'schema': {
                    'type': 'model',
                    'cls': Result,
                    'schema': {
                        'type': 'model-fields',
                        'fields': {
                            'format': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'literal',
                                            'expected': [
                                                'hyperfine',
                                                'pytest-benchmark',
                                                'pyperf',
                                                'google-benchmark',
                                                'asv',
                                                'serving']}},
                                    'default': None}},
                            'benchmark': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'metric': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'evidence': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'pointer': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                                    'default': None}},
                            'path': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'unit': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'stat': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': a_stat},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'low': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {'type': 'definition-ref', 'schema_ref': 'Bound'}},
                                    'default': None}},
                            'high': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {'type': 'definition-ref', 'schema_ref': 'Bound'}},
                                    'default': None}},
                            'level': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {'type': 'nullable', 'schema': {'type': 'float', 'gt': 0, 'lt': 1}},
                                    'default': None}},
                            'expr': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}}},
                                    'default': None}},
                            'inputs': {
                                'type': 'model-field',
                                'schema': {
                                    'type': 'default',
                                    'schema': {
                                        'type': 'nullable',
                                        'schema': {
                                            'type': 'dict',
                                            'keys_schema': {'type': 'str', 'pattern': '^[A-Za-z_][A-Za-z0-9_]{0,63}$'},
                                            'values_schema': {'type': 'definition-ref', 'schema_ref': 'Input'}}},
                                    'default': None}}},
                        'model_name': 'Result',
                        'computed_fields': []},
                    'custom_init': False,
                    'root_model': False,
                    'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Result'}}}},
        'Sota': {
            'type': 'function-after',
            'function': {'type': 'no-info', 'function': sota_value_has_unit},
            'schema': {
                'type': 'model',
                'cls': Sota,
                'schema': {
                    'type': 'model-fields',
                    'fields': {
                        'bar': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'function-after',
                                'function': {'type': 'no-info', 'function': non_empty},
                                'schema': {'type': 'str'}}},
                        'value': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': finite},
                                        'schema': {'type': 'float'}}},
                                'default': None}},
                        'unit': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                                'default': None}},
                        'better': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {'type': 'nullable', 'schema': {'type': 'literal', 'expected': ['higher', 'lower']}},
                                'default': None}},
                        'source': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'function-after',
                                'function': {'type': 'no-info', 'function': url_sc601},
                                'schema': {'type': 'str'}}},
                        'date': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'function-after',
                                'function': {'type': 'no-info', 'function': a_date},
                                'schema': {
                                    'type': 'function-before',
                                    'function': {'type': 'no-info', 'function': year_as_text},
                                    'schema': {'type': 'str'}}}},
                        'checked': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': a_date},
                                        'schema': {
                                            'type': 'function-before',
                                            'function': {'type': 'no-info', 'function': year_as_text},
                                            'schema': {'type': 'str'}}}},
                                'default': None}},
                        'stat': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': a_stat},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'kind': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {'type': 'literal', 'expected': ['claimed', 'independent', 'reproduced']}},
                                'default': None}},
                        'result': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {'type': 'nullable', 'schema': {'type': 'definition-ref', 'schema_ref': 'Result'}},
                                'default': None}},
                        'conditions': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'dict',
                                        'keys_schema': {'type': 'str', 'pattern': '^[a-z][a-z0-9_]{0,39}$'},
                                        'values_schema': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': condition_text},
                                            'schema': {
                                                'type': 'union',
                                                'choices': [{'type': 'str'}, {'type': 'int'}, {'type': 'float'}]}},
                                        'max_length': 40}},
                                'default': None}}},
                    'model_name': 'Sota',
                    'computed_fields': []},
                'custom_init': False,
                'root_model': False,
                'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Sota'}}},
        'ToolWords': {
            'type': 'function-after',
            'function': {'type': 'no-info', 'function': words_need_format},
            'schema': {
                'type': 'model',
                'cls': ToolWords,
                'schema': {
                    'type': 'model-fields',
                    'fields': {
                        'format': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'literal',
                                        'expected': [
                                            'hyperfine',
                                            'pytest-benchmark',
                                            'pyperf',
                                            'google-benchmark',
                                            'asv',
                                            'serving']}},
                                'default': None}},
                        'benchmark': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'metric': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}}},
                    'model_name': 'ToolWords',
                    'computed_fields': []},
                'custom_init': False,
                'root_model': False,
                'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'ToolWords'}}},
        'TraceLink': {
            'type': 'function-after',
            'function': {'type': 'no-info', 'function': one_target},
            'schema': {
                'type': 'model',
                'cls': TraceLink,
                'schema': {
                    'type': 'model-fields',
                    'fields': {
                        'path': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': non_empty},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'url': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {
                                    'type': 'nullable',
                                    'schema': {
                                        'type': 'function-after',
                                        'function': {'type': 'no-info', 'function': url_sc403},
                                        'schema': {'type': 'str'}}},
                                'default': None}},
                        'label': {
                            'type': 'model-field',
                            'schema': {
                                'type': 'default',
                                'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                                'default': None}}},
                    'model_name': 'TraceLink',
                    'computed_fields': []},
                'custom_init': False,
                'root_model': False,
                'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'TraceLink'}}},
        'Dimension': {
            'type': 'model',
            'cls': Dimension,
            'schema': {
                'type': 'model-fields',
                'fields': {
                    'title': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'function-after',
                            'function': {'type': 'no-info', 'function': non_empty},
                            'schema': {'type': 'str'}}},
                    'why': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'function-after',
                            'function': {'type': 'no-info', 'function': non_empty},
                            'schema': {'type': 'str'}}},
                    'sota': {'type': 'model-field', 'schema': {'type': 'definition-ref', 'schema_ref': 'Sota'}},
                    'leaders': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'list',
                                'items_schema': {
                                    'type': 'function-after',
                                    'function': {'type': 'no-info', 'function': non_empty},
                                    'schema': {'type': 'str'}}},
                            'default_factory': list,
                            'default_factory_takes_data': False}},
                    'status': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'literal',
                            'expected': ['leads', 'parity', 'trails', 'inconclusive', 'simulated', 'no-claim', 'out-of-scope']}},
                    'claim': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'function-after',
                            'function': {'type': 'no-info', 'function': one_line},
                            'schema': {
                                'type': 'function-after',
                                'function': {'type': 'no-info', 'function': non_empty},
                                'schema': {'type': 'str'}}}},
                    'result': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'definition-ref', 'schema_ref': 'Result'}},
                            'default': None}},
                    'display_unit': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'nullable',
                                'schema': {
                                    'type': 'function-after',
                                    'function': {'type': 'no-info', 'function': non_empty},
                                    'schema': {'type': 'str'}}},
                            'default': None}},
                    'conditions_must_match': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'list',
                                'items_schema': {'type': 'str', 'pattern': '^[a-z][a-z0-9_]{0,39}$'},
                                'max_length': 40},
                            'default_factory': list,
                            'default_factory_takes_data': False}},
                    'share': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'bool'}},
                            'default': None}},
                    'note': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'str'}},
                            'default': None}},
                    'trace': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'list',
                                'items_schema': {
                                    'type': 'tagged-union',
                                    'choices': {
                                        '~text': {
                                            'type': 'function-after',
                                            'function': {'type': 'no-info', 'function': non_empty},
                                            'schema': {'type': 'str'}},
                                        '~link': {'type': 'definition-ref', 'schema_ref': 'TraceLink'}},
                                    'discriminator': trace_kind}},
                            'default_factory': list,
                            'default_factory_takes_data': False}},
                    'order': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {'type': 'nullable', 'schema': {'type': 'int'}},
                            'default': None}},
                    'reviewed': {
                        'type': 'model-field',
                        'schema': {
                            'type': 'default',
                            'schema': {
                                'type': 'nullable',
                                'schema': {
                                    'type': 'function-after',
                                    'function': {'type': 'no-info', 'function': a_stamp},
                                    'schema': {'type': 'str'}}},
                            'default': None}}},
                'model_name': 'Dimension',
                'computed_fields': []},
            'custom_init': False,
            'root_model': False,
            'config': {'extra_fields_behavior': 'forbid', 'strict': True, 'title': 'Dimension'}}}
