"""RFC 6901 pointers and the artifact store."""

from __future__ import annotations

import json

import pytest

from scorecard.core.place import LedgerPlace
from scorecard.measure.evidence import (ArtifactStore, PointerError, escape_token, is_number, parse_pointer,
                                        resolve_pointer)
from scorecard.core.paths import PathProblem, resolve_inside

DOC = {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, 'k"l': 6, " ": 7,
       "m~n": 8, "nested": {"arr": [{"x": 1.5}]}}


@pytest.mark.parametrize("pointer,expected", [
    ("", DOC), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3),
    ("/g|h", 4), ("/i\\j", 5), ('/k"l', 6), ("/ ", 7), ("/m~0n", 8), ("/nested/arr/0/x", 1.5),
])
def test_rfc6901_examples_resolve(pointer, expected):
    assert resolve_pointer(DOC, pointer) == expected


@pytest.mark.parametrize("pointer,syntax", [
    ("foo", True), ("/m~2n", True), ("/m~", True), ("/m~0~2", True), ("/m~1~", True),
    ("/foo/-", False), ("/foo/01", False), ("/foo/2", False),
    ("/foo/x", False), ("/missing", False), ("/foo/0/deeper", False),
])
def test_bad_pointers(pointer, syntax):
    with pytest.raises(PointerError) as info:
        resolve_pointer(DOC, pointer)
    assert info.value.syntax is syntax


def test_unresolved_key_suggests_the_nearest():
    with pytest.raises(PointerError, match="did you mean 'nested'"):
        resolve_pointer(DOC, "/nestd")


def test_escape_round_trip():
    assert parse_pointer("/" + escape_token("a/~b")) == ["a/~b"]


def test_numbers():
    assert is_number(1) and is_number(2.5)
    assert not is_number(True) and not is_number(float("nan")) and not is_number("1") and not is_number(None)


def test_store_reads_each_file_once_and_rejects_nan(tmp_path):
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "a.json").write_text(json.dumps({"meta": {"commit": "abc"}, "v": 1}))
    (tmp_path / "evidence" / "nan.json").write_text('{"v": NaN}')
    store = ArtifactStore(LedgerPlace.at(tmp_path))
    first = store.get("evidence/a.json")
    assert first is store.get("evidence/a.json")
    assert first.meta == {"commit": "abc"} and first.error is None
    assert "NaN" in store.get("evidence/nan.json").error
    assert store.get("evidence/none.json").error == "missing"


@pytest.mark.parametrize("rel", ["../x", "a/../../x", "/etc/passwd", "C:/x", "c:\\x", "a\\b", "", " a"])
def test_unsafe_paths(tmp_path, rel):
    with pytest.raises(PathProblem):
        resolve_inside(tmp_path, rel)


def test_symlink_out_of_root(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret").write_text("s")
    (root / "link").symlink_to(tmp_path / "secret")
    (root / "inner").write_text("ok")
    (root / "good-link").symlink_to(root / "inner")
    with pytest.raises(PathProblem, match="symlink"):
        resolve_inside(root, "link")
    assert resolve_inside(root, "good-link").read_text() == "ok"


def test_a_query_that_cannot_run_is_a_pointer_error_that_says_whether_it_is_its_syntax():
    """Pinned by the mutation run of measure.evidence (a stamp's fingerprint reads a selection through select)."""
    from scorecard.measure.evidence import select

    with pytest.raises(PointerError) as bad:
        select({"a": [1, 2]}, "path", "$[")
    assert bad.value.syntax is True and "path '$['" in str(bad.value)
    assert select({"a": [1, 2]}, "path", "$.a[*]") == [1, 2] and select({"a": 3}, "pointer", "/a") == [3]


def _nested(depth: int) -> bytes:
    return b'{"v": 12, "x": ' + b"[" * (depth - 1) + b"1" + b"]" * (depth - 1) + b"}"


def test_json_nested_up_to_the_limit_is_read_and_one_level_more_is_sc305_on_every_python():
    """Python 3.12 and later read JSON of any depth, where 3.11 refused about a thousand levels: a build over a file
    3,000 levels deep ended in an internal error on 3.13 (the viewer walks it recursively). The limit is the tool's."""
    from scorecard.measure.evidence import MAX_JSON_DEPTH, Artifact, parse_artifact, too_deep

    at = parse_artifact(Artifact("evidence/x.json", raw=_nested(MAX_JSON_DEPTH)))
    assert at.error is None and at.data["v"] == 12
    over = parse_artifact(Artifact("evidence/x.json", raw=_nested(MAX_JSON_DEPTH + 1)))
    assert over.data is None and "more than 500 levels deep" in over.error
    far = parse_artifact(Artifact("evidence/x.json", raw=_nested(5000)))
    assert far.data is None and far.error == over.error
    assert not too_deep([[], {}], 2) and too_deep([[[1]]], 2) and not too_deep(7, 1)


def test_a_json_document_too_deep_for_the_viewer_is_shown_as_text():
    from scorecard.measure.evidence import MAX_JSON_DEPTH
    from scorecard.site.jsonview import json_or_none

    assert json_or_none(_nested(MAX_JSON_DEPTH)) is not None
    assert json_or_none(_nested(MAX_JSON_DEPTH + 1)) is None
