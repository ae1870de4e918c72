"""model.py from schemadef.py: the records' classes and the core schema pydantic builds, for pydantic-core alone.

    python -m scorecard.ledger.schemagen           # rewrite scorecard/ledger/model.py
    python -m scorecard.ledger.schemagen --check   # exit 1 if it is not what schemadef.py gives

Run it after any change to schemadef.py or to the checks it names (tests/test_recordschema.py fails until then).
The core schema is pydantic's own (`__pydantic_core_schema__` of each model), written out with its classes replaced
by the light record classes, its functions by their names in fieldchecks.py, its references by the models' names,
and its `metadata` (JSON Schema hints pydantic keeps for itself) left out. model.py checks at run time that the
installed pydantic-core is the one it was generated with; with another, it builds the same schema from schemadef.py
here (pydantic's import and schema build again: slower, never different).
"""

from __future__ import annotations

import re
import string
import sys
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import pydantic_core
from pydantic import BaseModel
from pydantic._internal._config import ConfigWrapper  # what pydantic builds its validators with

from ..core.statuses import Status
from . import fieldchecks, schemadef

TARGET = Path(__file__).with_name("model.py")
MIXINS = {"Sota": "SotaMethods", "TraceLink": "TraceLinkMethods"}
ALIASES = {"Status": Status, "Format": schemadef.Format}
REF = re.compile(r"^[\w.]+\.(\w+):\d+$")


def models() -> list[type[BaseModel]]:
    """Every record model of schemadef.py (not their base, Record), in the order they are defined."""
    return [value for value in vars(schemadef).values()
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == schemadef.__name__
            and value is not schemadef.Record]


def deinlined(node: Any, defs: dict[str, Any]) -> Any:
    """A converted core schema with every schema that has a ref (a model) moved to defs and referred to by name:
    each model written once. fieldchecks.inlined puts them back."""
    if isinstance(node, dict):
        if node.get("type") == "definitions":
            for item in node["definitions"]:
                deinlined(item, defs)
            return deinlined(node["schema"], defs)
        if "ref" in node:
            name = node["ref"]
            made = {key: deinlined(value, defs) for key, value in node.items() if key != "ref"}
            if defs.setdefault(name, made) != made:
                raise ValueError(f"two schemas for {name}")
            return {"type": "definition-ref", "schema_ref": name}
        return {key: deinlined(value, defs) for key, value in node.items()}
    if isinstance(node, list):
        return [deinlined(value, defs) for value in node]
    return node


@dataclass(frozen=True)
class _Name:
    """A name written as itself in the generated source."""

    text: str

    def __repr__(self) -> str:
        return self.text


def _functions() -> dict[int, str]:
    return {id(value): name for name, value in vars(fieldchecks).items()
            if isinstance(value, types.FunctionType) and not name.startswith("_")}


def converted(node: Any, leaf: typing.Callable[[Any], Any]) -> Any:
    """A core schema with its metadata left out, its references named by model, and every class and function
    given to leaf (which says what stands for it)."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "metadata":
                continue
            if key in ("ref", "schema_ref") and isinstance(value, str) and (m := REF.match(value)):
                value = m[1]
            out[key] = converted(value, leaf)
        return out
    if isinstance(node, list):
        return [converted(value, leaf) for value in node]
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    return leaf(node)


def core_config(name: str) -> dict[str, Any]:
    """The config pydantic gives a model's validator and serializer (the title its errors carry, ...)."""
    model = getattr(schemadef, name)
    return dict(ConfigWrapper(model.model_config).core_config(title=model.__name__))


def runtime_schema(name: str, classes: dict[str, type]) -> Any:
    """The core schema of one record class, built by pydantic now (another pydantic-core than model.py's)."""
    def leaf(value: Any) -> Any:
        if isinstance(value, type) and issubclass(value, BaseModel):
            return classes[value.__name__]
        return value
    defs: dict[str, Any] = {}
    for model in models():
        deinlined(converted(model.__pydantic_core_schema__, leaf), defs)
    return fieldchecks.inlined(defs[name], defs)


def _source_leaf(functions: dict[int, str]) -> typing.Callable[[Any], Any]:
    def leaf(value: Any) -> Any:
        if isinstance(value, type) and issubclass(value, BaseModel):
            return _Name(value.__name__)
        if value is list:
            return _Name("list")
        if id(value) in functions:
            return _Name(functions[id(value)])
        raise TypeError(f"the core schema holds {value!r}: give it a name in fieldchecks.py")
    return leaf


def type_text(hint: Any) -> str:
    """A field's type as the record classes declare it (pydantic's Annotated checks left out)."""
    for name, alias in ALIASES.items():
        if hint == alias:
            return name
    origin = get_origin(hint)
    if origin is Annotated:
        return type_text(get_args(hint)[0])
    if hint is type(None):
        return "None"
    if origin in (Union, types.UnionType):
        return " | ".join(type_text(arg) for arg in get_args(hint))
    if origin is Literal:
        return _literal(hint)
    if origin in (list, dict):
        return f"{origin.__name__}[{', '.join(type_text(arg) for arg in get_args(hint))}]"
    if isinstance(hint, type):
        return hint.__name__
    raise TypeError(f"no type text for {hint!r}")


def _class_source(model: type[BaseModel]) -> list[str]:
    name = model.__name__
    parents = [base.__name__ for base in model.__bases__]
    bases = ", ".join([MIXINS[name], *parents] if name in MIXINS else parents)
    lines = [f"class {name}({bases}):", f"    {model.__doc__.strip()!r}" if model.__doc__ else "    pass", "",
             "    __slots__ = ()"]
    fields = tuple(model.model_fields)
    lines.append(f"    FIELDS: ClassVar[tuple[str, ...]] = {fields!r}" if len(repr(fields)) < 80 else
                 "    FIELDS: ClassVar[tuple[str, ...]] = (" +
                 ("\n" + " " * 41).join(_wrapped([repr(f) + "," for f in fields], 76)) + ")")
    for field, info in model.model_fields.items():
        lines.append(f"    {field}: {type_text(info.annotation)}")
    return lines


def _wrapped(words: list[str], width: int) -> list[str]:
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def source() -> str:
    """The text of model.py."""
    functions = _functions()
    leaf = _source_leaf(functions)
    defs: dict[str, Any] = {}
    for model in models():
        deinlined(converted(model.__pydantic_core_schema__, leaf), defs)
    text = _literal_text(defs, 4)
    used = {name for name in functions.values() if re.search(rf"\b{name}\b", text)}
    names = ", ".join(sorted(used | {"RecordBase", "inlined", "set_fields", *MIXINS.values()}))
    classes = "".join("\n".join(_class_source(model)) + "\n\n\n" for model in models())
    configs = _literal_text({m.__name__: core_config(m.__name__) for m in models()}, 4)
    return TEMPLATE.substitute(imports="\n".join(_wrapped(names.split(" "), 100)).replace("\n", "\n" + " " * 26),
                               version=repr(pydantic_core.__version__), configs=configs,
                               format=_literal(schemadef.Format),
                               record=RECORD, classes=classes, definitions=text,
                               names=", ".join(m.__name__ for m in models()))


TEMPLATE = string.Template('''"""The ledger's records as the pipeline holds them, and their validators.

Generated from schemadef.py by `python -m scorecard.ledger.schemagen` (do not edit; see schemagen.py). Validation
is pydantic-core's, from the core schema pydantic builds from schemadef.py: pydantic's errors, without its import.

Lazy import: schemagen (pydantic), only where the installed pydantic-core is not the one this was made by.
"""

# ruff: noqa: E501
from __future__ import annotations

from functools import cache
from typing import Any, ClassVar, Literal, Self

from ..core.statuses import Status
from .fieldchecks import ($imports)
from .pydcore import pydantic_core  # the engine alone: the package's import cost the hook 22-25 ms

PYDANTIC_CORE_VERSION = $version  # what the schemas below were made for
Format = $format


$record


${classes}@cache
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


_CLASSES = ($names)


def _configs() -> dict[str, Any]:
    """Each record class's config (pydantic's), by name."""
    return $configs


def _definitions() -> dict[str, Any]:
    """Each record class's core schema, by name, with the others it holds named."""
    return $definitions
''')


RECORD = '''class Record(RecordBase):
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
        return serializer(type(self).__name__).to_python(self, mode=mode, exclude=exclude)'''


def _literal_text(node: Any, indent: int, width: int = 116) -> str:
    """node as a Python literal: on one line where it fits, else a key or an item per line."""
    flat = repr(node)
    if indent + len(flat) <= width or not isinstance(node, (dict, list)) or not node:
        return flat
    pad = " " * (indent + 4)
    if isinstance(node, dict):
        items = [f"{pad}{key!r}: {_literal_text(value, indent + 4, width)}" for key, value in node.items()]
        return "{\n" + ",\n".join(items) + "}"
    return "[\n" + ",\n".join(pad + _literal_text(value, indent + 4, width) for value in node) + "]"


def _literal(hint: Any) -> str:
    return f"Literal[{', '.join(repr(arg) for arg in get_args(hint))}]"


def main(argv: list[str]) -> int:
    text = source()
    if "--check" in argv:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is not what schemadef.py gives: run python -m scorecard.ledger.schemagen")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
