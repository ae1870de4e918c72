"""core.patterns.lazy: a pattern compiled when first used answers as the compiled pattern does (issue 46)."""

from __future__ import annotations

import importlib
import re
import stat

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.core import regexstore
from scorecard.core.patterns import _Lazy, lazy

PATTERNS = [(r"\b(?:leads?|beats?)\b", re.IGNORECASE), (r"(\d+(?:\.\d+)?)\s?(×|x|%)", 0), (r"[,;:—–]|\s-\s", 0),
            (r"^(?:it|them)\b", re.IGNORECASE | re.MULTILINE)]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PATTERNS), st.text(alphabet=st.sampled_from(list("ab lead beats 12.5x%;:-—\nIt them")),
                                          max_size=40))
def test_a_lazy_pattern_answers_as_the_compiled_one(source, text):
    pattern, flags = source
    made, compiled = lazy(pattern, flags), re.compile(pattern, flags)
    assert [m.span() for m in made.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert made.sub("_", text) == compiled.sub("_", text) and made.split(text) == compiled.split(text)
    assert (made.search(text) or None) is None or made.search(text).group() == compiled.search(text).group()
    assert made.pattern == pattern and made.flags == compiled.flags


def test_it_compiles_on_first_use_and_keeps_what_it_gave():
    made = lazy(r"a+b", re.IGNORECASE)
    assert isinstance(made, _Lazy) and "search" not in vars(made)  # nothing compiled at import
    assert made.search("xAAb").group() == "AAb"
    assert vars(made)["search"] == re.compile(r"a+b", re.IGNORECASE).search  # kept: the next call costs nothing more
    assert repr(made) == "lazy('a+b', 2)"


def _package_patterns() -> list[_Lazy]:
    """Every lazy pattern a module of the package holds at its top level."""
    import pkgutil

    import scorecard

    found = []
    for info in pkgutil.walk_packages(scorecard.__path__, "scorecard."):
        if info.name.endswith("__main__"):  # importing it runs the command line
            continue
        module = importlib.import_module(info.name)
        found += [value for value in vars(module).values() if isinstance(value, _Lazy)]
    return found


def test_every_lazy_pattern_of_the_package_compiles():
    """A typo in a pattern shows here, not on the first record that reaches it."""
    patterns = _package_patterns()
    for value in patterns:
        assert isinstance(value.pattern, str) and value.groups >= 0  # both compile it
    assert len(patterns) > 70


def test_a_kept_pattern_is_the_very_pattern_re_compiles(tmp_path, monkeypatch):
    """core.regexstore: every package pattern, compiled afresh, kept, then loaded by a new store, equals
    re.compile's (Pattern objects compare flags and code) and finds what it finds."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    sources = sorted({value._source for value in _package_patterns()})
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    fresh = [regexstore.compile_kept(p, f) for p, f in sources]
    assert len(regexstore._STORE.made) == len(sources)  # every one could be kept
    regexstore.keep()
    [store] = (tmp_path / "scorecard" / "patterns").iterdir()
    assert stat.S_IMODE(store.stat().st_mode) & 0o077 == 0
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    loaded = [regexstore.compile_kept(p, f) for p, f in sources]
    assert regexstore._STORE.made == {}  # all from the store
    for (p, f), one, two in zip(sources, fresh, loaded, strict=True):
        assert one == two == re.compile(p, f) and two.groupindex == re.compile(p, f).groupindex
    text = "We lead the bar by 12.5x; p50 of 3,200 ms vs 4 200 ms, not yet placed. /home/someone/x"
    assert [[m.span() for m in one.finditer(text)] for one in fresh] == \
        [[m.span() for m in two.finditer(text)] for two in loaded]


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "wrong entry"])
def test_a_damaged_store_is_a_miss_never_a_wrong_pattern(tmp_path, monkeypatch, damage):
    import marshal

    from scorecard.core.blake import blake2b

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    regexstore.compile_kept(r"(?P<n>\d+) ms", 0)
    regexstore.keep()
    [store] = (tmp_path / "scorecard" / "patterns").iterdir()
    data = store.read_bytes()
    if damage == "flip":
        data = data[:40] + bytes([data[40] ^ 1]) + data[41:]
    elif damage == "truncate":
        data = data[:len(data) // 2]
    else:  # a digest that checks out over what the engine must refuse or that is not an entry
        entries = {(r"(?P<n>\d+) ms", 0): (0, b"\xff" * 8, 1, {"n": 1}, (None, "n"))} if damage == "wrong entry" \
            else [1, 2, 3]
        payload = marshal.dumps(entries)
        data = blake2b(payload, digest_size=16).digest() + payload
    store.write_bytes(data)
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    got = regexstore.compile_kept(r"(?P<n>\d+) ms", 0)
    assert got == re.compile(r"(?P<n>\d+) ms") and got.search("took 35 ms")["n"] == "35"


def test_a_cache_folder_that_cannot_be_had_is_no_store_never_an_error(tmp_path, monkeypatch):
    """A name too long, a folder of another's, no home: the hostile pass found each made every command a
    traceback (the last-resort handler prints through a lazy pattern too)."""
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ("a" * 300)))
    assert regexstore.compile_kept(r"a(b)", 0) == re.compile(r"a(b)")
    regexstore.keep()
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("HOME")
    monkeypatch.setattr("pathlib.Path.home", lambda: (_ for _ in ()).throw(RuntimeError("no home")))
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    assert regexstore.compile_kept(r"a(c)", 0) == re.compile(r"a(c)")
    regexstore.keep()


def test_a_store_that_is_a_fifo_is_a_miss_never_a_hang(tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    regexstore.compile_kept(r"x+", 0)
    regexstore.keep()
    [store] = (tmp_path / "scorecard" / "patterns").iterdir()
    store.unlink()
    os.mkfifo(store)
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    assert regexstore.compile_kept(r"x+", 0) == re.compile(r"x+")


def test_only_a_warm_run_reads_or_keeps_the_store(tmp_path, monkeypatch):
    """The store is part of the warm cache: `validate --no-cache` left the user's cache folder untouched before it
    and does still (the hostile pass)."""
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert regexstore.compile_kept(r"a(d)", 0) == re.compile(r"a(d)")
    regexstore.keep()
    assert not (tmp_path / "scorecard").exists()


def test_no_store_is_read_or_written_without_a_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("SCORECARD_NO_CACHE", "1")
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store(enabled=True))
    assert regexstore.compile_kept(r"a(b)", 0) == re.compile(r"a(b)")
    regexstore.keep()
    assert not (tmp_path / "scorecard").exists()
