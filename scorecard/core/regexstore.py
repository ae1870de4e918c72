"""The package's compiled patterns, kept between runs in the user's cache folder (issue 46: the pre-commit hook).

re compiles a pattern in pure Python (its parser and compiler), then hands the result, a list of integers, to its
C engine (_sre). For the prose rules' patterns that is 10-30 ms of every hook run that checks a changed claim: more
than checking it. Here the engine's input is kept, and a later run gives it to the engine directly.

- Only the package's own patterns (core.patterns.lazy) are kept: never one a ledger supplies.
- The store is a file in the user's cache folder (paths.user_cache_dir: a real folder only this user can write,
  the trust the compiled templates are given), named by the Python build and the engine's version, its payload
  checked by a digest; the engine validates every pattern's code when it is loaded.
- What is kept is what re.compile made: an entry is stored only when the pattern the engine builds from it equals
  re.compile's (Pattern objects compare their code), and on a later run a pattern that cannot be loaded is compiled
  afresh. So a run with the store behaves as one without it; it is only faster.
- It is part of the warm cache: only a warm validate or build reads and writes it (pipeline.py turns it on with
  `use`), so `--no-cache` and SCORECARD_NO_CACHE=1 leave it alone, and any other command never touches it. A
  folder or file that cannot be had (not this user's, a name too long, no home) is no store, never an error.

Lazy import: re's parser and compiler internals, when a pattern is not kept yet (its first run on a Python build).
"""

from __future__ import annotations

import os
import re
import sys
from array import array
from pathlib import Path
from typing import Any

import _sre  # type: ignore[import-not-found]  # re's C engine, which every compiled pattern runs on

from .blake import blake2b
from .paths import cache_home, read_checked, user_cache_dir, write_checked

FORMAT = 1
MAX_BYTES = 1 << 24  # a store larger than this is not read
_Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]


class _Store:
    """The kept entries (read once, when a pattern is first compiled) and those made in this run."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.kept: dict[tuple[str, int], _Entry] | None = None
        self.made: dict[tuple[str, int], _Entry] = {}

    def entries(self) -> dict[tuple[str, int], _Entry]:
        if self.kept is None:
            self.kept = _read()
        return self.kept


_STORE = _Store()


def use(enabled: bool) -> None:
    """Read and keep compiled patterns from now on (a warm run), or not (a run that reads and writes no cache)."""
    _STORE.enabled = enabled


def compile_kept(pattern: str, flags: int) -> re.Pattern[str]:
    """re.compile(pattern, flags), from the store when it holds the pattern."""
    if not _STORE.enabled:
        return re.compile(pattern, flags)
    entry = _STORE.entries().get((pattern, flags))
    if entry is not None:
        try:
            return _engine(pattern, entry)
        except Exception:  # noqa: BLE001 - any entry the engine refuses: compiled afresh below
            pass
    compiled = re.compile(pattern, flags)
    made = _entry(pattern, flags)
    if made is not None:
        try:
            if _engine(pattern, made) == compiled:
                _STORE.made[(pattern, flags)] = made
        except Exception:  # noqa: BLE001 - an engine that takes another form: nothing kept
            pass
    return compiled


def keep() -> None:
    """Write the patterns this run compiled afresh into the store (atomically; a failure keeps nothing)."""
    if not (_STORE.enabled and _STORE.made):
        return
    path = _path()
    if path is None:
        return
    entries = {**_STORE.entries(), **_STORE.made}
    if write_checked(path, entries):
        _STORE.kept, _STORE.made = entries, {}


def _engine(pattern: str, entry: _Entry) -> re.Pattern[str]:
    flags, code, groups, groupindex, indexgroup = entry
    return _sre.compile(pattern, flags, array("I", code).tolist(), groups, groupindex, indexgroup)


def _entry(pattern: str, flags: int) -> _Entry | None:
    """What re.compile hands the engine for pattern (re/_compiler.py's compile, step by step), or None."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed: Any = _parser.parse(pattern, flags)
        code = array("I", _compiler._code(parsed, flags))
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        return flags | parsed.state.flags, code.tobytes(), parsed.state.groups - 1, groupindex, tuple(indexgroup)
    except Exception:  # noqa: BLE001 - another Python's internals: the pattern is simply not kept
        return None


def _path(create: bool = True) -> Path | None:
    """The store's file, in a folder this user alone can write (made if need be, unless create is False), or None."""
    if os.environ.get("SCORECARD_NO_CACHE") or array("I").itemsize != _sre.CODESIZE:
        return None
    try:
        home = cache_home()
        if home is None or not (create or (home / "patterns").is_dir()):
            return None  # reading makes no folder (`scorecard cache --clear` leaves none behind)
        folder = user_cache_dir("patterns")
    except (OSError, RuntimeError, ValueError):  # no home, a name too long, a folder that is not the user's
        return None
    if folder is None:
        return None
    build = f"{FORMAT} {sys.version} {sys.implementation.cache_tag} {_sre.MAGIC} {_sre.CODESIZE}".encode()
    return folder / f"patterns-{blake2b(build, digest_size=8).hexdigest()}.bin"


def _read() -> dict[tuple[str, int], _Entry]:
    path = _path(create=False)
    entries = read_checked(path, MAX_BYTES) if path is not None else None
    return entries if isinstance(entries, dict) else {}
