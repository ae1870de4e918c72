"""core.patterns.lazy: a pattern compiled when first used answers as the compiled pattern does (issue 46)."""

from __future__ import annotations

import importlib
from pathlib import Path
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
        wrong = {(r"(?P<n>\d+) ms", 0): (0, b"\xff" * 8, 1, {"n": 1}, (None, "n"))}
        entries = {"patterns": wrong, "imports": wrong} if damage == "wrong entry" else [1, 2, 3]
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


# The imports' patterns (issue 46, fourth session): noted when a process's first warm run starts, seeded into re's
# own cache by the launcher of the next warm validate or build.

def _import_pattern(tag: str) -> str:
    return rf"(?P<{tag}>[\u00a0-\ud7ff]+|\d{{3}})-{tag}"  # unique to the test: never in re's cache before it


def _note_and_keep(tmp_path, monkeypatch, pattern: str, flags: int = 0) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    re.purge()  # a new process: re's cache holds only what its imports compiled
    re.compile(pattern, flags)  # as an import compiles a module-level pattern
    regexstore.use(True)  # a warm run starts: it notes what is in re's cache
    regexstore.keep()
    re.purge()  # a new process's cache (both of them from Python 3.12: re._cache and re._cache2)


def test_an_imports_pattern_is_seeded_into_res_cache_as_the_very_pattern_re_compiles(tmp_path, monkeypatch):
    pattern = _import_pattern("seeded")
    _note_and_keep(tmp_path, monkeypatch, pattern, re.IGNORECASE)
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    assert regexstore.seed(["validate", "--root", "x"]) >= 1
    seeded = re._cache[(str, pattern, re.IGNORECASE.value)]  # type: ignore[attr-defined]
    assert re.compile(pattern, re.IGNORECASE) is seeded  # what the import's re.compile gets
    from re import _compiler  # type: ignore[attr-defined]

    fresh = _compiler.compile(pattern, re.IGNORECASE)  # compiled afresh, past re's cache
    assert seeded == fresh and seeded.groupindex == fresh.groupindex and seeded.flags == fresh.flags
    text = "abc 12 \u00e9T\u00e9-SEEDED"
    assert [m.span() for m in seeded.finditer(text)] == [m.span() for m in fresh.finditer(text)] != []


@pytest.mark.parametrize("argv", [["validate", "--no-cache"], ["build", "--no-cache"], ["export"], ["check"], [],
                                  ["export", "--readme", "build"], ["--no-cache", "validate"]])
def test_only_a_warm_validate_or_build_is_seeded(tmp_path, monkeypatch, argv):
    pattern = _import_pattern("unseeded")
    _note_and_keep(tmp_path, monkeypatch, pattern)
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    assert regexstore.seed(argv) == 0 and (str, pattern, 0) not in re._cache  # type: ignore[attr-defined]
    assert regexstore._STORE.kept is None  # the store was not even read


def test_no_cache_in_the_environment_seeds_nothing_and_notes_nothing(tmp_path, monkeypatch):
    pattern = _import_pattern("envoff")
    _note_and_keep(tmp_path, monkeypatch, pattern)
    monkeypatch.setenv("SCORECARD_NO_CACHE", "1")
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    assert regexstore.seed(["validate"]) == 0 and (str, pattern, 0) not in re._cache  # type: ignore[attr-defined]
    other = _import_pattern("envoff2")
    re.compile(other)
    regexstore.use(True)
    assert regexstore._STORE.made_imports == {}


def test_imports_are_noted_once_a_process_before_its_first_warm_run_reads_anything(tmp_path, monkeypatch):
    """A pattern compiled after the first warm run started may be built from a ledger's text (the stance rules
    build one from a leader's name): it is never kept. Nor are bytes patterns or overlong ones."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    first, later, long = _import_pattern("first"), _import_pattern("later"), "x" * (regexstore.MAX_IMPORT_CHARS + 1)
    re.purge()
    re.compile(first)
    re.compile(long)
    re.compile(rb"\d+-bytes-first")
    regexstore.use(True)
    re.compile(later)
    regexstore.use(True)  # serve's next build, in the same process
    assert (first, 0) in regexstore._STORE.made_imports
    assert (later, 0) not in regexstore._STORE.made_imports and (long, 0) not in regexstore._STORE.made_imports
    assert all(isinstance(p, str) for p, _ in regexstore._STORE.made_imports)


def test_a_damaged_imports_entry_is_not_seeded_and_the_import_compiles_as_usual(tmp_path, monkeypatch):
    import marshal

    from scorecard.core.blake import blake2b

    pattern = _import_pattern("damaged")
    _note_and_keep(tmp_path, monkeypatch, pattern)
    [store] = (tmp_path / "scorecard" / "patterns").iterdir()
    payload = marshal.dumps({"patterns": {}, "imports": {(pattern, 0): (0, b"\xff" * 8, 1, {}, (None,))}})
    store.write_bytes(blake2b(payload, digest_size=16).digest() + payload)
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    assert regexstore.seed(["build"]) == 0 and (str, pattern, 0) not in re._cache  # type: ignore[attr-defined]
    assert re.compile(pattern).search("123-damaged")[0] == "123-damaged"


def test_a_warm_validate_keeps_yamls_patterns_and_the_next_one_finds_them_compiled(tmp_path):
    """End to end, as the hook runs: the launcher seeds yaml's reader pattern (5.7 ms of every run to compile)."""
    import os
    import shutil
    import subprocess
    import sys

    ledger = tmp_path / "ledger"
    shutil.copytree(Path(__file__).parent / "ledgers" / "good" / "minimal", ledger)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("SCORECARD_NO_CACHE", None)
    for _ in range(2):
        run = subprocess.run([sys.executable, "-m", "scorecard", "validate", "--root", str(ledger)], env=env,
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    probe = ("import re, sys; from scorecard.core import regexstore; n = regexstore.seed(['validate']); "
             "import yaml.reader as r; from re import _compiler; p = r.Reader.NON_PRINTABLE; "
             "print(n, p is re._cache[(str, p.pattern, 0)], p == _compiler.compile(p.pattern, 0))")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, cwd=tmp_path)
    count, same, equal = out.stdout.split()
    assert int(count) >= 10 and same == "True" and equal == "True", out.stderr


def test_the_imports_kept_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    monkeypatch.setattr(regexstore, "MAX_IMPORTS", 3)
    re.purge()
    for i in range(6):
        re.compile(_import_pattern(f"bound{i}"))
    regexstore.use(True)
    assert len(regexstore._STORE.made_imports) == 3


def _write_store(tmp_path, payload_value) -> None:
    import marshal

    from scorecard.core.blake import blake2b

    [store] = (tmp_path / "scorecard" / "patterns").iterdir()
    payload = marshal.dumps(payload_value)
    store.write_bytes(blake2b(payload, digest_size=16).digest() + payload)


GOOD_ENTRY = regexstore._entry(r"(\d+)-shape", 0)


@pytest.mark.parametrize("imports", [
    {"x": 1}, {("a", 0, 1): GOOD_ENTRY}, {(r"(\d+)-shape", 0): GOOD_ENTRY[:4]}, {(r"(\d+)-shape", "0"): GOOD_ENTRY},
    {(r"(\d+)-shape", 0): (0, "code", 1, {}, ())}, [1, 2], "imports",
    {(f"p{i}", 0): GOOD_ENTRY for i in range(regexstore.MAX_IMPORTS + 1)},  # more than keep() ever writes
])
def test_a_store_of_another_form_seeds_nothing_and_raises_nothing(tmp_path, monkeypatch, imports):
    """A digest that checks out says the file is whole, not that it is of this form: the hostile pass's store of
    {"imports": {"x": 1}} made every warm validate a traceback in the launcher."""
    _note_and_keep(tmp_path, monkeypatch, _import_pattern("shape"))
    _write_store(tmp_path, {"patterns": imports, "imports": imports})
    monkeypatch.setattr(regexstore, "_STORE", regexstore._Store())
    assert regexstore.seed(["validate"]) == 0
    assert regexstore.compile_kept(r"(\d+)-shape", 0) == re.compile(r"(\d+)-shape")


def test_the_launcher_runs_a_warm_validate_over_a_store_of_another_form(tmp_path):
    import os
    import shutil
    import subprocess
    import sys

    ledger = tmp_path / "ledger"
    shutil.copytree(Path(__file__).parent / "ledgers" / "good" / "minimal", ledger)
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("SCORECARD_NO_CACHE", None)
    command = [sys.executable, "-m", "scorecard", "validate", "--root", str(ledger)]
    assert subprocess.run(command, env=env, capture_output=True).returncode == 0
    _write_store(tmp_path / "cache", {"patterns": {"x": 1}, "imports": {"x": 1}})
    run = subprocess.run(command, env=env, capture_output=True, text=True)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write_and_a_fresh_one_is_not(tmp_path, monkeypatch):
    import os
    import time

    _note_and_keep(tmp_path, monkeypatch, _import_pattern("leftover"))
    folder = tmp_path / "scorecard" / "patterns"
    old, fresh = folder / ".tmp-0123456789abcdef", folder / ".tmp-fedcba9876543210"
    old.write_bytes(b"half a store")
    fresh.write_bytes(b"another run's, being written")
    then = time.time() - regexstore.LEFTOVER_SECONDS - 5
    os.utime(old, (then, then))
    _note_and_keep(tmp_path, monkeypatch, _import_pattern("leftover2"))
    assert not old.exists() and fresh.exists()
    assert len([p for p in folder.iterdir() if not p.name.startswith(".tmp-")]) == 1
