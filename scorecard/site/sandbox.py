"""The sandbox a ledger's own templates render in: they see data, never objects.

Jinja's immutable sandbox stops a template from reaching Python's internals (attributes starting
with `_`) or changing a list, but it lets a template call any public method of any value the
context holds. The context holds the resolved ledger, and an object such as a `pathlib.Path` has
public methods that read and write files (`read_text`, `write_text`, `unlink`). So a ledger's
template may only read:

- data: str, int, float, bool, None, list, tuple, dict (and its key, value and item views),
  Markup, date and datetime;
- the context's own records (RECORDS), and of a record only its documented fields and properties,
  never a method;
- Jinja's own runtime values (loops, macros, imported template modules, namespaces).

Every attribute or item a template reads must be one of these, or a method of a data value
(`'x'.upper`), or the attribute reads as refused (SC701 when used). Every call, whether to a
method of a data value, a macro or a function of the documented context, must return one of
these, or the render stops with SC701. Printing a value (`{{ x }}`, `~`, `%`) prints data only.
"""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
import sys
from typing import Any, NoReturn

from jinja2.runtime import BlockReference, Context, LoopContext, Macro, TemplateReference, Undefined
from jinja2.environment import TemplateModule
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.exceptions import SecurityError, TemplateError, TemplateRuntimeError
from jinja2.utils import Cycler, Joiner, Namespace
from markupsafe import Markup

from ..history.walk import DimensionHistory, Event, History, State
from ..core.git import Commit
from ..ledger.fieldchecks import RecordBase
from ..ledger.model import Bound, Category, Dimension, Input, Result, Settings, Sota, TraceLink
from ..ledger.records import CategoryRecord, DimensionRecord, Review
from ..measure.compare import Comparison
from ..measure.measured import Bar, Measurement, Source
from ..measure.stats import Summary
from ..measure.conditions import Row, Stated
from .resolve import Measured, ResolvedCategory, ResolvedDimension, ResolvedLedger, TraceView
from .themes import template_location

# Plain data: immutable scalars, and containers whose contents are checked as they are read.
DATA = frozenset({str, Markup, int, float, bool, type(None), list, tuple, dict, date, datetime,
                  type({}.keys()), type({}.values()), type({}.items())})

# The records of the documented context (docs/site.md), read by field and property only.
RECORDS = (ResolvedLedger, ResolvedCategory, ResolvedDimension, Measured, TraceView, Settings, CategoryRecord,
           Category, DimensionRecord, Dimension, Sota, Result, Input, Bound, TraceLink, Review, Measurement, Source,
           Summary, Bar, Comparison, History, DimensionHistory, Event, State, Commit, Row, Stated)

# Jinja's own runtime values: what loops, macros, {% import %} and namespace() give a template.
RUNTIME = frozenset({LoopContext, Macro, TemplateModule, TemplateReference, BlockReference, Cycler, Joiner,
                     Namespace})

# Fields a record keeps for the pipeline, not for pages: where the ledger is on disk, the YAML source.
HIDDEN = frozenset({"place", "doc"})


def _fields(cls: type) -> frozenset[str]:
    names: set[str] = set()
    if dataclasses.is_dataclass(cls):
        names.update(f.name for f in dataclasses.fields(cls))
    if issubclass(cls, RecordBase):
        names.update(cls.FIELDS)
    for klass in cls.__mro__:
        if klass.__module__.startswith("scorecard."):
            names.update(name for name, value in vars(klass).items() if isinstance(value, property))
    return frozenset(name for name in names - HIDDEN if not name.startswith("_"))


_RECORD_TYPES = frozenset(RECORDS)
_FIELDS: dict[type, frozenset[str]] = {cls: _fields(cls) for cls in RECORDS}


def record_fields(cls: type) -> frozenset[str]:
    """The names a template may read of a record: its fields and properties, never a method."""
    return _FIELDS.get(cls, frozenset())


def is_data(value: Any) -> bool:
    """Whether a template may hold value: data, a record, Jinja's runtime, or an undefined value."""
    kind = type(value)
    return kind in DATA or kind in _RECORD_TYPES or kind in RUNTIME or isinstance(value, Undefined)


def is_method_of_data(value: Any) -> bool:
    """A method bound to a data value (`'x'.upper`) or to Jinja's runtime (`loop.cycle`): its result is checked
    when it is called."""
    value = getattr(value, "__wrapped__", value)  # str.format, which the sandbox wraps in its safe formatter
    owner = getattr(value, "__self__", None)
    return (callable(value) and owner is not None and (type(owner) in DATA or type(owner) in RUNTIME)
            and type(value).__name__ in ("builtin_function_or_method", "method-wrapper", "method"))


def printable(value: Any, depth: int = 0) -> bool:
    """Whether printing value shows data only (a record's repr is not part of the documented context)."""
    kind = type(value)
    if kind in (str, Markup, int, float, bool, type(None), date, datetime):
        return True
    if isinstance(value, Undefined):  # printed alone it raises (StrictUndefined); inside a list it would not
        return depth == 0
    if depth > 20:
        return False
    if kind in (list, tuple):
        return all(printable(v, depth + 1) for v in value)
    if kind is dict:
        return all(printable(k, depth + 1) and printable(v, depth + 1) for k, v in value.items())
    return False


class LedgerSandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, narrowed to the data of the documented context.

    Any error a ledger's template raises is a template error (SC701 at its file and line), never an internal
    error: `{{ 1/0 }}`, `{{ "a" + 1 }}`, a context function called with the wrong arguments.
    """

    def handle_exception(self, source: str | None = None) -> NoReturn:
        exc = sys.exc_info()[1]
        if isinstance(exc, TemplateError) or not isinstance(exc, Exception):
            super().handle_exception(source)
        try:
            super().handle_exception(source)  # the same error, its traceback rewritten to the template's lines
        except Exception as rewritten:  # noqa: BLE001 - any error of a ledger's template is a finding
            name, line = template_location(rewritten)
        error = TemplateRuntimeError(f"{type(exc).__name__}: {exc}")
        error.filename, error.lineno = name, line  # type: ignore[attr-defined]
        raise error from None

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        kind = type(obj)
        if kind in _RECORD_TYPES:
            return attr in record_fields(kind) and is_data(value)
        if kind in DATA or kind in RUNTIME:
            return is_data(value) or is_method_of_data(value) or isinstance(value, Macro)
        return False

    def getattr(self, obj: Any, attribute: str) -> Any:
        kind = type(obj)
        if kind in _RECORD_TYPES and attribute not in record_fields(kind):  # refused unread: no property runs
            return self.unsafe_undefined(obj, attribute)
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        value = super().getitem(obj, argument)
        if isinstance(value, Undefined):
            return value
        kind = type(obj)
        if (kind in DATA or kind in RUNTIME) and (is_data(value) or isinstance(value, Macro)):
            return value
        if kind in _RECORD_TYPES and is_data(value):  # a record read by item falls back to its attribute
            return value if isinstance(argument, str) and argument in record_fields(kind) else \
                self.unsafe_undefined(obj, str(argument))
        return self.unsafe_undefined(obj, str(argument))

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - Jinja's
        result = super().call(__context, __obj, *args, **kwargs)
        if not is_data(result) and not is_method_of_data(result):
            name = getattr(__obj, "__name__", type(__obj).__name__)
            raise SecurityError(f"{name}() returned a {type(result).__name__}, which templates may not hold "
                                "(a ledger's templates see data only; docs/site.md)")
        return result


def refuse_objects(value: Any) -> Any:
    """The sandbox's finalize: a printed value must be data (printing a record would show its repr)."""
    if not printable(value):
        raise SecurityError(f"a {type(value).__name__} cannot be printed; print one of its fields "
                            "(a ledger's templates see data only; docs/site.md)")
    return value
