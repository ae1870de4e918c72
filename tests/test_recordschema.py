"""The records' validators without pydantic (issue 46): model.py, generated from schemadef.py, validates with
pydantic-core alone. The promise: for any data, a record class of model.py and its pydantic model in schemadef.py
give the same answer (the same record, dumped the same way, or the same errors, in order, with the same locations,
messages and values), on every file of the example and test ledgers and on data made to be near the schema; and
model.py is what schemagen makes of schemadef.py today."""

from __future__ import annotations

import copy
import pickle
from unittest import mock
from pathlib import Path

import pydantic_core
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecard.ledger import model, schemadef, schemagen
from scorecard.ledger.fieldchecks import RecordBase
from scorecard.ledger.yamldoc import Document, parse_bytes

ROOT = Path(__file__).resolve().parent.parent


def outcome(cls: type, data: object) -> str:
    """What validating data gives, as text (NaN inputs compare by their text)."""
    try:
        made = cls.model_validate(data)
    except pydantic_core.ValidationError as exc:
        return "errors " + repr((exc.title, str(exc), exc.errors(include_url=False)))
    return "record " + repr((made.model_dump(), made.model_dump(mode="json"), sorted(made.__pydantic_fields_set__),
                             made.model_dump(mode="json", exclude={"title", "order", "path"}),
                             str(made), [key for key, _ in made]))  # a template's `|string` and loop


def both(name: str, data: object) -> tuple[str, str]:
    return outcome(getattr(model, name), copy.deepcopy(data)), outcome(getattr(schemadef, name), copy.deepcopy(data))


def test_model_py_is_what_schemagen_makes_of_schemadef():
    if pydantic_core.__version__ != model.PYDANTIC_CORE_VERSION:
        pytest.skip(f"pydantic-core {pydantic_core.__version__}, not {model.PYDANTIC_CORE_VERSION}: the schema is "
                    "built from schemadef.py at run time (test_another_pydantic_core_builds_the_same_validators)")
    assert schemagen.source() == (ROOT / "scorecard" / "ledger" / "model.py").read_text(encoding="utf-8"), \
        "run python -m scorecard.ledger.schemagen"
    assert schemagen.main(["--check"]) == 0
    defs = model._definitions()  # and the schema written there is the one pydantic builds now
    assert all(schemagen.runtime_schema(c.__name__, {k.__name__: k for k in model._CLASSES}) == model.inlined(
        defs[c.__name__], defs) for c in model._CLASSES)


def _plain(node: object, defs: dict) -> object:
    """A core schema as plain data, its references expanded and named (pydantic's refs end in a number), classes
    and functions by name, metadata and refs left out: written apart from schemagen, to check what it wrote."""
    if isinstance(node, dict):
        if node.get("type") == "definitions":
            return _plain(node["schema"], defs)
        if node.get("type") == "definition-ref":
            return _plain(defs[node["schema_ref"]], defs)
        return {k: _plain(v, defs) for k, v in node.items() if k not in ("metadata", "ref")}
    if isinstance(node, list):
        return [_plain(v, defs) for v in node]
    if isinstance(node, type) or callable(node):
        return f"<{node.__name__}>"
    return node


def _refs(node: object, found: dict) -> dict:
    if isinstance(node, dict):
        if "ref" in node:
            found[node["ref"]] = node
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)
    return found


def test_the_schema_model_py_runs_is_pydantics_own():
    """Every record class's schema in model.py, compared with pydantic's __pydantic_core_schema__ by code of its
    own (a key schemagen dropped or changed, a bound, a pattern, a function, shows here)."""
    if pydantic_core.__version__ != model.PYDANTIC_CORE_VERSION:
        pytest.skip("another pydantic-core: model.py's schema is not the one that runs")
    for cls in model._CLASSES:
        theirs = getattr(schemadef, cls.__name__).__pydantic_core_schema__
        ours = model._schema(cls.__name__)
        assert _plain(ours[0], {}) == _plain(theirs, _refs(theirs, {})), cls
        assert ours[1]["title"] == cls.__name__


def test_every_record_class_has_its_model_and_the_same_fields():
    assert [m.__name__ for m in schemagen.models()] == [c.__name__ for c in model._CLASSES]
    for cls in model._CLASSES:
        assert tuple(getattr(schemadef, cls.__name__).model_fields) == cls.FIELDS, cls


def parsed(path: Path) -> object:
    """A file's data as the loader reads it (bounded: the attack corpus holds alias bombs)."""
    doc = Document(path.name)
    parse_bytes(path.read_bytes(), doc, [])
    return doc.data


def _record_files() -> list[Path]:
    files = [*ROOT.glob("claims/*/*.yaml"), *ROOT.glob("tests/ledgers/**/*.yaml"), *ROOT.glob("tests/golden/**/*.yaml")]
    return sorted(p for p in files if p.is_file() and not p.is_symlink() and p.stat().st_size < 200_000)


def test_every_ledger_file_here_validates_the_same_both_ways():
    kinds = {"scorecard.yaml": "Settings", "_category.yaml": "Category"}
    checked = records = 0
    for path in _record_files():
        data = parsed(path)
        if data is None:
            continue
        name = kinds.get(path.name, "Dimension")
        light, pydantic = both(name, data)
        assert light == pydantic, path
        checked += 1
        records += light.startswith("record")
    assert checked > 400 and 100 < records < checked  # both outcomes were compared, many times


TEXTS = st.sampled_from(["", " ", "x", "a\nb", "2024", "2024-01", "2024-13", "2023-02-29", "2024-02-29", "9999-12-31",
                         "https://example.org/p", "http://", "ftp://x.org", "https://a b", "median", "mean", "p99.9",
                         "p100", "p0", "higher", "lower", "ms", "req/s", "%", "fp2-0123456789abcdef", "fp3-00",
                         "claimed", "independent", "reproduced", "hyperfine", "asv", "serving", "beats-sota",
                         "parity", "behind", "no-claim", "not-measured", "x" * 201, "#/a", "evidence/r.json"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(10 ** 16), 10 ** 16), st.floats(), TEXTS,
                    st.text(max_size=12))
NESTED = {("Dimension", "sota"): "Sota", ("Dimension", "result"): "Result", ("Sota", "result"): "Result",
          ("Result", "low"): "Bound", ("Result", "high"): "Bound"}


def near(name: str, depth: int = 0) -> st.SearchStrategy:
    """Data near one record's schema: its keys (and an unknown one), each with values of every kind, and the
    records it holds made the same way."""
    fields = {key: value_near(name, key, depth) for key in getattr(model, name).FIELDS}
    fields["unknown_key"] = SCALARS
    return st.fixed_dictionaries({}, optional=fields)


def value_near(name: str, key: str, depth: int) -> st.SearchStrategy:
    options = [SCALARS, st.lists(SCALARS, max_size=3)]
    if depth < 2:
        if (name, key) in NESTED:
            options.append(near(NESTED[name, key], depth + 1))
        if key == "inputs":
            names = st.sampled_from(["a", "b", "1x", "_"])
            options.append(st.dictionaries(names, near("Input", depth + 1), max_size=2))
        if key == "trace":
            options.append(st.lists(st.one_of(TEXTS, near("TraceLink", depth + 1)), max_size=3))
        if key in ("conditions", "conditions_must_match", "condition_equivalents", "leaders"):
            options.append(st.dictionaries(st.sampled_from(["gpu", "Bad Key", "n"]), SCALARS, max_size=3))
            options.append(st.lists(st.one_of(TEXTS, st.lists(TEXTS, max_size=3)), max_size=3))
            # at the schema's caps: 40 conditions, 40 keys to match, 200 groups of at most 20 values
            keys = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
            options.append(st.dictionaries(keys, TEXTS, min_size=39, max_size=41))
            options.append(st.lists(keys, min_size=39, max_size=41))
            group = st.lists(TEXTS, min_size=1, max_size=3) | st.lists(TEXTS, min_size=19, max_size=21)
            options.append(st.lists(group, min_size=1, max_size=2) | st.lists(group, min_size=199, max_size=201))
    return st.one_of(*options)


def _valid() -> dict[str, list[dict]]:
    """Valid data of every record class, from the example ledger and the test ledgers' good records."""
    found: dict[str, list[dict]] = {name: [] for name in ("Settings", "Category", "Dimension", "Sota", "Result",
                                                          "Input", "TraceLink", "Bound")}
    for path in _record_files():
        data = parsed(path)
        name = {"scorecard.yaml": "Settings", "_category.yaml": "Category"}.get(path.name, "Dimension")
        if not isinstance(data, dict) or outcome(getattr(model, name), data).startswith("errors"):
            continue
        found[name].append(data)
        if name == "Dimension":
            found["Sota"].append(data["sota"])
            results = [r for r in (data.get("result"), data["sota"].get("result")) if r]
            found["Result"] += results
            found["Input"] += [i for r in results for i in (r.get("inputs") or {}).values()]
            found["Bound"] += [b for r in results for b in (r.get("low"), r.get("high")) if b]
            found["TraceLink"] += [t for t in data.get("trace", []) if isinstance(t, dict)]
    return found


VALID = _valid()


def changed(name: str) -> st.SearchStrategy:
    """A valid record's data with up to two of its keys given values of any kind (or removed)."""
    keys = getattr(model, name).FIELDS + ("unknown_key",)
    edits = st.lists(st.sampled_from(keys), max_size=2, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({key: st.one_of(st.just(REMOVED), value_near(name, key, 0))
                                              for key in chosen}))
    return st.tuples(st.sampled_from(VALID[name]), edits).map(
        lambda pair: {k: v for k, v in {**pair[0], **pair[1]}.items() if v is not REMOVED})


REMOVED = object()
NAMES = ["Settings", "Category", "Dimension", "Sota", "Result", "Input", "TraceLink", "Bound"]


def test_the_valid_data_is_there_for_every_record_class():
    assert all(len(VALID[name]) >= 3 for name in NAMES), {name: len(v) for name, v in VALID.items()}


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES).flatmap(lambda name: st.tuples(st.just(name), st.one_of(near(name), changed(name)))))
def test_any_data_validates_the_same_both_ways(case):
    name, data = case
    light, pydantic = both(name, data)
    assert light == pydantic


def test_another_pydantic_core_builds_the_same_validators(monkeypatch):
    """Where the installed pydantic-core is not the one model.py was made by, the schema comes from schemadef.py at
    run time (through pydantic): the same records and errors."""
    files = _record_files()[:150]
    datas = [parsed(p) for p in files if p.name not in ("scorecard.yaml", "_category.yaml")]
    made = [outcome(model.Dimension, data) for data in datas]
    model.validator.cache_clear()
    model.serializer.cache_clear()
    monkeypatch.setattr(model, "PYDANTIC_CORE_VERSION", "0.0.0")
    built = []
    runtime_schema = schemagen.runtime_schema
    monkeypatch.setattr(schemagen, "runtime_schema", lambda *args: built.append(args[0]) or runtime_schema(*args))
    try:
        assert [outcome(model.Dimension, data) for data in datas] == made
        assert built == ["Dimension", "Dimension"]  # the validator and the serializer, from schemadef.py
    finally:
        model.validator.cache_clear()
        model.serializer.cache_clear()


def test_a_record_is_immutable_compared_by_value_and_pickles():
    settings_ = model.Settings.model_validate({"title": "T", "subject": "S"})
    with pytest.raises(AttributeError):
        settings_.title = "other"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del settings_.title
    assert settings_ == model.Settings(title="T", subject="S") and settings_ != model.Category(title="T")
    assert pickle.loads(pickle.dumps(settings_)) == settings_
    wider = settings_.model_copy(update={"parity_tolerance": 0.2})
    assert wider.parity_tolerance == 0.2 and settings_.parity_tolerance == 0.05
    assert wider.__pydantic_fields_set__ == {"title", "subject", "parity_tolerance"}
    assert repr(settings_).startswith("Settings(title='T', subject='S', description=None")
    assert isinstance(settings_, RecordBase)
    assert settings_ == mock.ANY and settings_.model_copy() == settings_  # as pydantic's: the other side may know
    copied = copy.copy(settings_)
    object.__setattr__(copied, "title", "changed")  # only code could; a copy has its own fields, as pydantic's
    assert settings_.title == "T"
    mine, theirs = (m.model_validate({"path": "evidence/r.json"}) for m in (model.TraceLink, schemadef.TraceLink))
    assert str(mine) == str(theirs) and list(mine) == list(theirs) and repr(mine) == repr(theirs)
    with pytest.raises(TypeError):  # as pydantic's frozen models: hashed by their values, and Settings holds lists
        hash(settings_)
    link, same = (cls.model_validate({"path": "evidence/r.json", "label": "run"}) for cls in (model.TraceLink,
                                                                                              model.TraceLink))
    assert hash(link) == hash(same) and len({link, same}) == 1
    assert hash(schemadef.TraceLink.model_validate({"path": "evidence/r.json", "label": "run"}))  # pydantic's too
    with pytest.raises(pydantic_core.ValidationError):
        model.Settings(title="T")
