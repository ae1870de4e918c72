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

The libraries' patterns too (issue 46, fourth session): importing yaml, click and the standard modules on the hook's
path compiles about 40 module-level patterns, 11-14 ms of every run (yaml's reader alone 5.7 ms). When a warm run
starts, before it reads any file of the ledger, every pattern in re's own cache was compiled by an import (a
pattern built from a ledger's text, as the stance rules build one from a leader's name, can only come later), and
those are kept as "imports". The next warm validate or build puts them in re's cache before it imports anything
(`seed`, called by the launcher), so an import's re.compile finds its pattern there. re's cache is CPython's own
(`re._cache`, a dict by (type, pattern, flags) from 3.11 to 3.13); where it is not a dict nothing is seeded.
A seeded entry is not compiled again to be checked (that is the cost it saves): like the package's patterns and
the compiled templates (loaded as code), it is trusted because only this user can write the folder it is in. A
store of another form (its digest checks out, its entries do not: the hostile pass) or with more entries than
keep() writes seeds nothing.

Lazy import: re's parser and compiler internals, when a pattern is not kept yet (its first run on a Python build);
the store's file machinery (paths, blake), by a warm run only: the launcher imports this module for every command.
"""

from __future__ import annotations

import os
import re
import sys
import time
from array import array
from pathlib import Path
from typing import Any, cast

import _sre  # type: ignore[import-not-found]  # re's C engine, which every compiled pattern runs on


FORMAT = 2  # 2: the imports' patterns beside the package's
MAX_BYTES = 1 << 24  # a store larger than this is not read
MAX_IMPORTS = 256  # patterns kept from imports at most (re's own cache holds 512)
MAX_IMPORT_CHARS = 1 << 14  # an import's pattern longer than this is not kept
_Entry = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]


class _Store:
    """The kept entries (read once, when a pattern is first compiled) and those made in this run."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        self.kept: dict[tuple[str, int], _Entry] | None = None
        self.imports: dict[tuple[str, int], _Entry] = {}  # patterns imports compiled (read with kept)
        self.made: dict[tuple[str, int], _Entry] = {}
        self.made_imports: dict[tuple[str, int], _Entry] = {}
        self.noted = False  # the imports' patterns noted (once a process: before its first warm run reads a file)

    def entries(self) -> dict[tuple[str, int], _Entry]:
        if self.kept is None:
            self.kept, self.imports = _read()
        return self.kept


_STORE = _Store()


def use(enabled: bool) -> None:
    """Read and keep compiled patterns from now on (a warm run), or not (a run that reads and writes no cache).

    A process's first warm run notes the patterns its imports compiled (called before it reads the ledger)."""
    _STORE.enabled = enabled
    if enabled and not _STORE.noted:
        _STORE.noted = True
        _note_imports()


def seed(argv: list[str]) -> int:
    """Put the imports' patterns kept by an earlier warm run in re's cache, when argv is a warm validate or build
    (the launcher calls it before it imports the commands); how many were put there."""
    command = next((arg for arg in argv if not arg.startswith("-")), None)  # the group takes no option with a value
    if command not in ("validate", "build") or "--no-cache" in argv or _path(create=False) is None:
        return 0
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict):
        return 0
    count = 0
    try:  # before the command's own handler: whatever the store holds, a miss, never an error (the hostile pass)
        _STORE.entries()
        for (pattern, flags), entry in _STORE.imports.items():  # of the shape _read checked
            if (str, pattern, flags) in cache:
                continue
            try:
                cache[str, pattern, flags] = _engine(pattern, entry)
                count += 1
            except Exception:  # noqa: BLE001 - an entry the engine refuses: the import compiles it as usual
                pass
    except Exception:  # noqa: BLE001
        pass
    return count


def _note_imports() -> None:
    """Note every str pattern in re's cache not kept yet (compiled by an import: see the module's docstring)."""
    cache = getattr(re, "_cache", None)
    if not isinstance(cache, dict) or os.environ.get("SCORECARD_NO_CACHE"):
        return
    _STORE.entries()  # the store, read once a process
    kept = _STORE.imports
    for key, compiled in list(cache.items()):
        if len(kept) + len(_STORE.made_imports) >= MAX_IMPORTS:
            return
        if not (isinstance(key, tuple) and len(key) == 3 and key[0] is str and isinstance(key[2], int)):
            continue
        pattern, flags = key[1], key[2]
        if (pattern, flags) in kept or len(pattern) > MAX_IMPORT_CHARS:
            continue
        made = _verified(pattern, flags, compiled)
        if made is not None:
            _STORE.made_imports[(pattern, flags)] = made


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
    made = _verified(pattern, flags, compiled)
    if made is not None:
        _STORE.made[(pattern, flags)] = made
    return compiled


def _verified(pattern: str, flags: int, compiled: re.Pattern[str]) -> _Entry | None:
    """The entry of pattern, when the pattern the engine builds from it equals compiled (re.compile's); else None."""
    made = _entry(pattern, flags)
    try:
        return made if made is not None and _engine(pattern, made) == compiled else None
    except Exception:  # noqa: BLE001 - an engine that takes another form: nothing kept
        return None


def keep() -> None:
    """Write the patterns this run compiled afresh into the store (atomically; a failure keeps nothing)."""
    if not (_STORE.enabled and (_STORE.made or _STORE.made_imports)):
        return
    path = _path()
    if path is None:
        return
    entries = {**_STORE.entries(), **_STORE.made}
    imports = {**_STORE.imports, **_STORE.made_imports}
    from .paths import write_checked

    _clear_leftovers(path.parent)
    if write_checked(path, {"patterns": entries, "imports": imports}):
        _STORE.kept, _STORE.imports, _STORE.made, _STORE.made_imports = entries, imports, {}, {}


LEFTOVER_SECONDS = 600  # a writer's temporary file older than this was left by a killed one (a write takes ms)


def _clear_leftovers(folder: Path) -> None:
    """Remove the temporary files (paths.write_atomic's .tmp-*) killed writers left in the store's folder."""
    cutoff = time.time() - LEFTOVER_SECONDS
    try:
        for entry in os.scandir(folder):
            if entry.name.startswith(".tmp-") and entry.is_file(follow_symlinks=False) \
                    and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.unlink(entry.path)
    except OSError:  # one that went meanwhile (another run's), or a folder that cannot be listed: left
        pass


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
    from .blake import blake2b
    from .paths import cache_home, user_cache_dir

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


def _read() -> tuple[dict[tuple[str, int], _Entry], dict[tuple[str, int], _Entry]]:
    """(the package's patterns, the imports'), as kept; empty when there is no store or it is not of this form."""
    from .paths import read_checked

    path = _path(create=False)
    stored = read_checked(path, MAX_BYTES) if path is not None else None
    if not isinstance(stored, dict):
        return {}, {}
    entries, imports = stored.get("patterns"), stored.get("imports")
    kept = cast(dict[tuple[str, int], _Entry], entries) if _entries(entries) else {}
    imported = cast(dict[tuple[str, int], _Entry], imports) if _entries(imports) else {}
    return kept, imported if len(imported) <= MAX_IMPORTS else {}  # more: not this tool's store


def _entries(value: object) -> bool:
    """Whether value is a dict of entries as keep() writes them: (pattern, flags) -> (flags, code, groups,
    groupindex, indexgroup). A digest that checks out says the file is whole, not that it is of this form."""
    return isinstance(value, dict) and all(
        isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], str) and type(key[1]) is int
        and isinstance(entry, tuple) and len(entry) == 5 and type(entry[0]) is int and isinstance(entry[1], bytes)
        and type(entry[2]) is int and isinstance(entry[3], dict) and isinstance(entry[4], tuple)
        for key, entry in value.items())
