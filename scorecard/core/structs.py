"""Dataclasses made at a third of dataclasses' cost: the pipeline's values are built when a module is imported.

`@dataclass(frozen=True, slots=True)` compiles five methods from source text for every class (__init__, __repr__,
__eq__, __hash__ and a frozen __setattr__/__delattr__ pair): about 1 ms a class, 25 ms of the pre-commit hook's
0.2 s for the classes it imports. `@frozen` is the same class, compiling only __init__: the other methods are
closures over the class's field names, which answer as dataclasses' own do (equal only to an instance of the very
same class with equal fields, the same hash, the same repr, FrozenInstanceError on assignment, pickled by field).
`@slotted` is `@dataclass(slots=True)` likewise, its __init__ compiled by dataclasses (assignment allowed).

Both are real dataclasses (dataclasses.fields, replace, astuple and asdict work on them); the classes they make
have slots; a field may have a default or a default_factory, not init=False (a class that needs it, or
__post_init__, uses dataclasses itself). Python 3.13's dataclasses compile all of a class's methods in one go:
measure again before keeping this past 3.12.
"""

from __future__ import annotations

import dataclasses
import reprlib
from operator import attrgetter
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
_SET = object.__setattr__
_NO_DEFAULT = dataclasses.MISSING


class _Factory:
    """The default of an argument whose field has a default_factory (shown as dataclasses show it)."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[T]) -> type[T]:
    """@dataclass(frozen=True, slots=True), with only __init__ compiled (see the module's docstring)."""
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: @frozen makes no __post_init__ call; use @dataclass")
    made: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)
    fields = dataclasses.fields(made)
    if any(not f.init for f in fields):
        raise TypeError(f"{cls.__qualname__}: @frozen has no init=False fields; use @dataclass")
    names = tuple(f.name for f in fields)
    made.__init__ = _init(made, fields)
    _comparisons(made, tuple(f.name for f in fields if f.compare), hashable=True)
    made.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    made.__setattr__, made.__delattr__ = _refuse_set, _refuse_delete

    def __getstate__(self: object) -> list[object]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: object, state: list[object]) -> None:
        for name, value in zip(names, state, strict=True):
            _SET(self, name, value)

    made.__getstate__, made.__setstate__ = __getstate__, __setstate__
    _say(made, frozen=True)
    return made


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def slotted(cls: type[T]) -> type[T]:
    """@dataclass(slots=True), with __repr__ and __eq__ closures rather than compiled (see the module's docstring)."""
    made: Any = dataclasses.dataclass(cls, repr=False, eq=False, slots=True)
    fields = dataclasses.fields(made)
    _comparisons(made, tuple(f.name for f in fields if f.compare), hashable=False)
    made.__repr__ = _repr(tuple(f.name for f in fields if f.repr))
    _say(made, frozen=False)
    return made


def _say(cls: Any, frozen: bool) -> None:
    """__dataclass_params__ as dataclasses would have written it, so that dataclasses' own checks (a frozen class's
    subclass must be frozen too) hold."""
    params = cls.__dataclass_params__
    params.init = params.repr = params.eq = True
    params.frozen = frozen


def _init(cls: type, fields: tuple[dataclasses.Field, ...]) -> Callable[..., None]:
    """The class's __init__, compiled from source as dataclasses compiles a frozen class's: each field set with
    object.__setattr__ from its argument, its default, or its default_factory called when no argument is given."""
    env: dict[str, object] = {"__set": _SET, "__factory": _FACTORY, "__name__": cls.__module__}
    params, body = [], []
    seen_default = False
    for i, f in enumerate(fields):
        value = f.name
        if f.default is not _NO_DEFAULT:
            env[f"__d{i}"] = f.default
            params.append(f"{f.name}=__d{i}")
        elif f.default_factory is not _NO_DEFAULT:
            env[f"__f{i}"] = f.default_factory
            params.append(f"{f.name}=__factory")
            value = f"__f{i}() if {f.name} is __factory else {f.name}"
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        else:
            params.append(f.name)
        seen_default = seen_default or f.default is not _NO_DEFAULT or f.default_factory is not _NO_DEFAULT
        body.append(f"  __set(self, {f.name!r}, {value})")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n"
    exec(source, env)  # the text is made of field names, which are Python identifiers; values stay in env
    init: Any = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    return init


def _comparisons(cls: Any, names: tuple[str, ...], hashable: bool) -> None:
    """__eq__ (and __hash__ if hashable, else none: an unhashable mutable value) by the fields compared, in order."""

    values = _getter(names)

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(values(self))

    cls.__eq__ = __eq__
    cls.__hash__ = __hash__ if hashable else None


def _getter(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The tuple of an object's attributes names, as dataclasses' compiled methods make it (attrgetter: C speed)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _repr(names: tuple[str, ...]) -> Callable[[object], str]:
    @reprlib.recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _refuse_set(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_delete(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
