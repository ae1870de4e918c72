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
- SCORECARD_NO_CACHE=1 turns it off, as it does every cache.

Lazy import: re's parser and compiler internals, when a pattern is not kept yet (its first run on a Python build).
"""

from __future__ import annotations

import marshal
import re
import sys
from array import array
from pathlib import Path
from typing import Any

import _sre  # type: ignore[import-not-found]  # re's C engine, which every compiled pattern runs on

from .blake import blake2b
from .paths import cache_home, user_cache_dir, write_atomic

FORMAT = 1
_Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]


class _Store:
    """The kept entries (read once, when a pattern is first compiled) and those made in this run."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, int], _Entry] | None = None
        self.made: dict[tuple[str, int], _Entry] = {}

    def entries(self) -> dict[tuple[str, int], _Entry]:
        if self.kept is None:
            self.kept = _read()
        return self.kept


_STORE = _Store()


def compile_kept(pattern: str, flags: int) -> re.Pattern[str]:
    """re.compile(pattern, flags), from the store when it holds the pattern."""
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
    if not _STORE.made:
        return
    path = _path()
    if path is None:
        return
    entries = {**_STORE.entries(), **_STORE.made}
    payload = marshal.dumps(entries)
    if write_atomic(path, blake2b(payload, digest_size=16).digest(), payload):
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
    if array("I").itemsize != _sre.CODESIZE:
        return None
    home = cache_home()
    if home is None or not (create or (home / "patterns").is_dir()):
        return None  # reading makes no folder (`scorecard cache --clear` leaves none behind)
    folder = user_cache_dir("patterns")
    if folder is None:
        return None
    build = f"{FORMAT} {sys.version} {sys.implementation.cache_tag} {_sre.MAGIC} {_sre.CODESIZE}".encode()
    return folder / f"patterns-{blake2b(build, digest_size=8).hexdigest()}.bin"


def _read() -> dict[tuple[str, int], _Entry]:
    path = _path(create=False)
    if path is None:
        return {}
    try:
        with path.open("rb") as fh:
            data = fh.read(1 << 24)
        payload = data[16:]
        if blake2b(payload, digest_size=16).digest() != data[:16]:
            return {}
        entries = marshal.loads(payload)
        return entries if isinstance(entries, dict) else {}
    except (OSError, EOFError, ValueError, TypeError):
        return {}
