"""The hook's lighter start (issue 46, third session): each stand-in answers exactly as what it stands in for.

core.structs' classes as dataclasses' own, core.dates.month_days as calendar.monthrange, core.nearest as difflib,
core.blake as hashlib's blake2b, core.paths.new_temporary as tempfile.mkstemp's guarantees.
"""

from __future__ import annotations

import calendar
import copy
import dataclasses
import difflib
import hashlib
import inspect
import os
import pickle
import stat
from dataclasses import field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.core.blake import blake2b
from scorecard.core.dates import month_days
from scorecard.core.nearest import close_matches
from scorecard.core.paths import new_temporary
from scorecard.core.structs import frozen, slotted


def _class(name: str, decorate, sequence: type):
    """The test's class, named as its module-level name (so that it pickles), made by decorate: the same fields,
    defaults and factories for each maker (Ours and Dcls, Mine and Dslo: names as long, so reprs and pickles
    compare)."""
    namespace = {"__module__": __name__, "__qualname__": name, "__doc__": f"{name}: made for the comparison.",
                 "__annotations__": {"a": "int", "b": "object", "c": sequence.__name__, "d": "str", "e": "object"},
                 "b": None, "c": field(default_factory=sequence), "d": field(default="d", repr=False), "e": ()}
    return decorate(type(name, (), namespace))


Ours = _class("Ours", frozen, tuple)
Dcls = _class("Dcls", dataclasses.dataclass(frozen=True, slots=True), tuple)
Mine = _class("Mine", slotted, list)
Dslo = _class("Dslo", dataclasses.dataclass(slots=True), list)

FROZEN, SLOTTED = (Ours, Dcls), (Mine, Dslo)
values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                      lambda inner: st.tuples(inner, inner) | st.frozensets(inner, max_size=3), max_leaves=6)
argsets = st.tuples(st.integers(), values, st.lists(st.integers(), max_size=3).map(tuple), st.text(max_size=4), values)
cuts = st.integers(min_value=1, max_value=5)


def _made(cls: type, args: tuple, cut: int):
    return cls(*args[:cut])


@settings(max_examples=300, deadline=None)
@given(argsets, argsets, cuts, cuts)
def test_a_frozen_struct_answers_as_a_frozen_slotted_dataclass(one, two, cut1, cut2):
    ours, theirs = FROZEN
    x, y, tx, ty = _made(ours, one, cut1), _made(ours, two, cut2), _made(theirs, one, cut1), _made(theirs, two, cut2)
    assert repr(x).replace("Ours", "Dcls") == repr(tx)
    assert (x == y) == (tx == ty) and (x != y) == (tx != ty)
    assert hash(x) == hash(tx)
    assert x != tx and (x == one) is False  # equal only to the very same class
    assert dataclasses.astuple(x) == dataclasses.astuple(tx) and dataclasses.asdict(x) == dataclasses.asdict(tx)
    assert dataclasses.replace(x, a=7) == ours(7, *dataclasses.astuple(x)[1:])
    assert pickle.dumps(x, 5).replace(b"Ours", b"Dcls") == pickle.dumps(tx, 5)
    assert pickle.loads(pickle.dumps(x)) == x and copy.copy(x) == x and copy.deepcopy(x) == x
    for name in ("a", "zz"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(x, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(x, name)
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert ours.__match_args__ == theirs.__match_args__ and ours.__slots__ == theirs.__slots__
    assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)
    assert str(inspect.signature(ours.__init__)) == str(inspect.signature(theirs.__init__))
    assert ours.__init__.__module__ == theirs.__init__.__module__


@settings(max_examples=200, deadline=None)
@given(argsets, argsets, cuts, cuts)
def test_a_slotted_struct_answers_as_a_slotted_dataclass(one, two, cut1, cut2):
    ours, theirs = SLOTTED
    x, y, tx, ty = _made(ours, one, cut1), _made(ours, two, cut2), _made(theirs, one, cut1), _made(theirs, two, cut2)
    assert repr(x).replace("Mine", "Dslo") == repr(tx) and (x == y) == (tx == ty) and x != tx
    assert ours.__hash__ is None and theirs.__hash__ is None  # mutable and compared by value: unhashable
    assert repr(ours.__dataclass_params__) == repr(theirs.__dataclass_params__)
    x.a = tx.a = 99
    x.c = tx.c = [1]
    assert repr(x).replace("Mine", "Dslo") == repr(tx) and pickle.loads(pickle.dumps(x)) == x


def test_default_factories_give_each_instance_its_own_value_and_arguments_are_checked():
    assert Mine(1).c is not Mine(1).c and Mine(1).c == []
    ours = Ours
    with pytest.raises(TypeError):
        ours()
    with pytest.raises(TypeError):
        ours(1, 2, 3, 4, 5, 6)
    assert ours(a=1, e=2) == ours(1, None, (), "d", 2) and Ours(1, c=[1]).c == [1]


def test_what_frozen_cannot_make_is_refused_when_the_class_is_made():
    def made(ns):
        return frozen(type("Bad", (), {"__module__": __name__, **ns}))

    with pytest.raises(TypeError, match="__post_init__"):
        made({"__annotations__": {"a": "int"}, "__post_init__": lambda self: None})
    with pytest.raises(TypeError, match="init=False"):
        made({"__annotations__": {"a": "int"}, "a": field(default=1, init=False)})
    with pytest.raises(TypeError, match="non-default argument 'b'"):
        made({"__annotations__": {"a": "int", "b": "int"}, "a": 1})
    with pytest.raises(ValueError, match="mutable default"):
        made({"__annotations__": {"a": "list"}, "a": []})


def test_month_days_counts_as_the_calendar_does_every_month_of_every_year():
    assert [month_days(y, m) for y in range(0, 10000) for m in range(1, 13)] == \
        [calendar.monthrange(y, m)[1] for y in range(0, 10000) for m in range(1, 13)]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=8), st.lists(st.text(max_size=8), max_size=8), st.integers(1, 3),
       st.floats(min_value=0.0, max_value=1.0))
def test_close_matches_are_difflibs(word, options, n, cutoff):
    assert close_matches(word, options, n=n, cutoff=cutoff) == difflib.get_close_matches(word, options, n, cutoff)


@given(st.binary(max_size=300), st.integers(1, 64))
def test_blake2b_is_hashlibs(data, size):
    assert blake2b(data, digest_size=size).digest() == hashlib.blake2b(data, digest_size=size).digest()


def test_a_new_temporary_file_is_the_users_alone_and_new(tmp_path):
    fd, name = new_temporary(tmp_path)
    os.close(fd)
    info = os.lstat(name)
    assert os.path.dirname(name) == str(tmp_path) and os.path.basename(name).startswith(".tmp-")
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) & 0o077 == 0 and info.st_size == 0
    names = {new_temporary(tmp_path)[1] for _ in range(50)}
    assert len(names) == 50 and name not in names


def test_a_frozen_structs_subclass_is_checked_as_dataclasses_check_it():
    @dataclasses.dataclass(frozen=True)
    class Frozen(Ours):
        more: int = 0

    assert Frozen(1, more=2).more == 2
    with pytest.raises(TypeError, match="non-frozen dataclass from a frozen one"):
        @dataclasses.dataclass
        class Thawed(Ours):
            more: int = 0
