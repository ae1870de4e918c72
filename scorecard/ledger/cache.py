"""The warm cache: what one build parsed and rendered, kept for the next build of the same ledger.

Two stores (and checkmemo.py's clean checks, checked.bin), all in the user's own cache folder
(paths.user_cache_dir: absolute, a real folder owned by the user, writable by no one else), one
folder per ledger root, removed when the ledger has not been built or validated for 30 days:

- ``parsed.bin``: every file's parse (its data, line marks and YAML findings) by its path and
  content digest. A file whose bytes did not change is not parsed again.
- ``pages/<key>.bin``: one category's rendered files and its part of data.json, by a digest of
  everything they are made from (the resolved category, the settings, the as-of date, the code);
  and one cited file's pages likewise.

Keeping them costs something (at 2,000 dimensions a first validate that wrote parsed.bin took
1.08x one without the cache, a first build that wrote the pages 1.13x), so parsed files are kept
from the second run on a ledger on this machine, and rendered parts only by a build that replaces
an earlier site: a one-off job (CI's validate then build) pays for neither.

What is kept is data (marshal of bytes, text, numbers, lists, dicts and tuples), never code, and
never trusted: each file starts with a digest of the code that wrote it and of its own payload,
and any file that does not check out is a miss, never an error. A hit gives the very bytes a cold
build would make, so the cache can make a build faster, never different (the tests build cold and
warm and compare every byte). ``--no-cache`` (or SCORECARD_NO_CACHE=1) reads and writes none of it.

Lazy import: importlib.metadata, when the cache is opened (a run with --no-cache never needs it); pickle, for a
build's keys (the pre-commit hook's validate makes none: 1.7 ms of its start).
"""

from __future__ import annotations

import contextlib
import copyreg
import io
import marshal
import os
import sys
import stat
import time
from dataclasses import astuple
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import yaml

from .. import __version__
from ..core.blake import blake2b
from ..core.findings import Finding
from ..core.paths import builtin_templates, read_checked, remove_tree, user_cache_dir, write_checked
from .fieldchecks import RecordBase
from .pydcore import pydantic_core
from .yamldoc import Document

if TYPE_CHECKING:
    from ..core.place import LedgerPlace

FORMAT = 1  # bump when what a file holds changes shape
MAGIC = b"scorecard-cache\n"
DIGEST = 16  # bytes of a blake2b digest
MAX_ENTRY_BYTES = 1 << 30  # a cache file larger than this is not read
STALE_DAYS = 30  # a ledger's folder unused this long is removed
DEFAULT_LIMIT_MB = 512  # the warm cache's bound across all ledgers; SCORECARD_CACHE_MB changes it
SIZE_CHECK_SECONDS = 600  # the sizes are walked at most this often (the hook must stay fast)
RENDER_LIBRARIES = ("jinja2", "markupsafe", "markdown-it-py")  # what renders, beyond the code_digest


@cache
def code_digest() -> bytes:
    """A digest of the code that parses and checks: every file below the package and the theme (the hostile pass: a
    rule changed in ledger/ read what the older rule kept), Python, PyYAML, pydantic-core (what runs model.py's
    validators; the schema pydantic made for them is one of the files); from the files, not the version number, so
    an edited checkout never reads what older code wrote, while two installs of the same code
    (pre-commit's and the user's) share one cache. Reading every byte takes 10-13 ms, so the digest is kept by the
    files' paths, sizes and modification times (as Python's bytecode cache knows a changed source). (RenderedPages
    adds the rendering libraries.)"""
    versions = f"{FORMAT} {__version__} {sys.version} {yaml.__version__} {pydantic_core.__version__}"
    listed = [(folder, files_below(folder)) for folder in (Path(__file__).resolve().parents[1], builtin_templates())]
    base = user_cache_dir(f"builds-{FORMAT}")
    known = base / f"code-{digest(versions.encode(), repr(listed).encode())}" if base is not None else None
    with contextlib.suppress(OSError):
        kept = known.read_bytes() if known is not None else b""
        if len(kept) == DIGEST:
            return kept
    h = blake2b(versions.encode(), digest_size=DIGEST)
    for folder, files in listed:
        for rel, _, _ in files:
            h.update(rel.encode() + b"\0" + (folder / rel).read_bytes() + b"\0")
    if known is not None:
        with contextlib.suppress(OSError):
            known.write_bytes(h.digest())
    return h.digest()


def files_below(folder: Path) -> list[tuple[str, int, int]]:
    """(path, size, modification time) of every file below folder, bytecode caches aside, in order."""
    out = []
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(top, folder).replace(os.sep, "/")  # once a folder: relpath per file was two thirds
        prefix = "" if rel == "." else rel + "/"
        for name in sorted(n for n in names if not n.endswith(".pyc")):
            st = os.stat(os.path.join(top, name))
            out.append((prefix + name, st.st_size, st.st_mtime_ns))
    return out


def digest(*parts: bytes) -> str:
    """A hex digest of the parts, each length-prefixed (so no two lists of parts share one)."""
    h = blake2b(digest_size=DIGEST)
    for part in parts:
        h.update(len(part).to_bytes(8, "little") + part)
    return h.hexdigest()


def ledger_folder(place: LedgerPlace) -> Path | None:
    """The cache folder of the ledger at its place if it exists; None otherwise (looks, changes nothing)."""
    return _ledger_folder(place, create=False)


def open_ledger_folder(place: LedgerPlace) -> Path | None:
    """The cache folder of the ledger at its place, made if need be and marked as used now, evicting the least recently
    used other ledgers' folders past the bound; None where the user has no safe cache folder."""
    return _ledger_folder(place, create=True)


def _ledger_folder(place: LedgerPlace, create: bool) -> Path | None:
    base = user_cache_dir(f"builds-{FORMAT}")
    if base is None:
        return None
    folder = base / digest(os.fsencode(place.real))
    if not create:
        return folder if folder.is_dir() and not folder.is_symlink() else None
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        (folder / "pages").mkdir(mode=0o700, exist_ok=True)
        os.utime(folder)  # used now: see evict
    except OSError:
        return None
    evict(base, keep=folder)
    return folder


def limit_bytes() -> int:
    """The warm cache's bound: SCORECARD_CACHE_MB megabytes (default DEFAULT_LIMIT_MB)."""
    text = os.environ.get("SCORECARD_CACHE_MB", "").strip()
    megabytes = int(text) if text.isdigit() else DEFAULT_LIMIT_MB
    return megabytes * 1_000_000


def evict(base: Path, keep: Path | None = None, limit: int | None = None) -> None:
    """Remove the folders of ledgers not built or validated for STALE_DAYS (a ledger moved, a checkout gone); then,
    at most every SIZE_CHECK_SECONDS, the least recently used ledgers' folders until all of them fit in the limit
    (keep, the ledger being built, is never removed)."""
    now = time.time()
    folders: list[tuple[float, str]] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            used = entry.stat(follow_symlinks=False).st_mtime
            if not entry.is_dir(follow_symlinks=False):  # a code digest kept for older code (code_digest)
                if entry.name.startswith("code-") and now - used > STALE_DAYS * 86400:
                    os.unlink(entry.path)
                continue
            if now - used > STALE_DAYS * 86400:
                remove_tree(entry.path)
            elif keep is None or entry.path != str(keep):
                folders.append((used, entry.path))
    stamp = base / ".sized"
    with contextlib.suppress(OSError):
        if limit is None and stamp.exists() and now - stamp.stat().st_mtime < SIZE_CHECK_SECONDS:
            return
        stamp.touch()
    bound = limit_bytes() if limit is None else limit
    total = (_bytes_under(str(keep)) if keep is not None else 0) + sum(_bytes_under(path) for _, path in folders)
    for _, path in sorted(folders):  # least recently used first
        if total <= bound:
            break
        total -= _bytes_under(path)
        remove_tree(path)


def usage(home: Path) -> list[tuple[str, int, int]]:
    """Each folder of scorecard's cache folder home: (name, folders in it, bytes of its files), by name.

    Nothing is followed: a symlink counts as its own size, and a folder that is a symlink (home
    included) is not entered.
    """
    found: list[tuple[str, int, int]] = []
    if os.path.islink(home):
        return found
    with contextlib.suppress(OSError):
        for entry in sorted(os.scandir(home), key=lambda e: e.name):
            if entry.is_dir(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    folders = sum(1 for e in os.scandir(entry.path) if e.is_dir(follow_symlinks=False))
                    found.append((entry.name, folders, _bytes_under(entry.path)))
    return found


def _bytes_under(folder: str) -> int:
    total = 0
    for parent, _, names in os.walk(folder):  # os.walk never follows a symlinked folder by default
        for name in names:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(parent, name)).st_size
    return total


def clear(home: Path) -> str | None:
    """Remove scorecard's cache folder home; None when done (or there was none), else why it was left.

    Only a real folder owned by this user is removed (a symlink there is not followed); what
    the caches hold can always be made again, so removing it makes a run slower, never different.
    """
    try:
        info = os.lstat(home)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be read ({exc.strerror})"
    getuid = getattr(os, "getuid", None)
    if not stat.S_ISDIR(info.st_mode) or (getuid is not None and info.st_uid != getuid()):
        return "it is not a folder of this user's (a symlink, a file, or someone else's): remove it yourself"
    remove_tree(home)
    return "some of it could not be removed (check its permissions)" if os.path.lexists(home) else None


def read_entry(path: Path) -> object | None:
    """The payload of a cache file, or None when it is missing, written by other code, or damaged."""
    return read_checked(path, MAX_ENTRY_BYTES, MAGIC + code_digest())


def write_entry(path: Path, value: object) -> None:
    """Write a cache file atomically (a temporary file renamed over it); a failure leaves no file."""
    write_checked(path, value, MAGIC + code_digest())


def _document_key(doc: Document) -> tuple:
    # A record's source Document stands for itself by its path and content digest: the record's model
    # holds what pages show of it, and serve keeps the Document's data and marks where builds drop them.
    return Document, (doc.file, None, {}, {}, doc.digest)


def _model_key(model: RecordBase) -> tuple:
    # A record's state with its set of fields given in order: a set of strings pickles in an order
    # that changes from one process to the next (string hashing is randomised).
    return type(model), (), (model.__dict__, sorted(model.__pydantic_fields_set__))


@cache
def _key_table() -> dict:
    table = copyreg.dispatch_table.copy()
    table[Document] = _document_key
    models: list[type[RecordBase]] = [RecordBase]
    while models:
        for sub in models.pop().__subclasses__():
            table[sub] = _model_key
            models.append(sub)
    return table


def key_bytes(value: object) -> bytes:
    """value pickled for a cache key, the same bytes in every process for equal values (never unpickled): without
    pickle's memo (fast), so that two equal values give the same bytes whichever of their parts are one object
    (a record checked afresh and one taken from validate's memo share their strings differently)."""
    import pickle

    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=5)
    pickler.dispatch_table = _key_table()
    pickler.fast = True
    pickler.dump(value)
    return buffer.getvalue()


class ParsedFiles:
    """Parsed files by (path, content digest), read from and saved to the ledger's cache folder.

    Each entry is kept marshalled and decoded only when asked for, so a hit costs little more
    than reading the file's bytes; the Documents given out are new objects every time (the check
    stage may drop their marks).
    """

    shares_documents = False  # unlike serve's in-memory cache, which hands out the same objects

    def __init__(self, path: Path):
        self.path = path
        kept = read_entry(path)
        self.kept: dict[tuple[str, str], bytes] = kept if isinstance(kept, dict) else {}
        self.used: dict[tuple[str, str], bytes] = {}
        self.empty = not self.kept

    def get(self, rel: str, content: str) -> tuple[Document, list[Finding]] | None:
        """The file's parse when it was parsed with these bytes before, else None."""
        blob = self.kept.get((rel, content))
        if not isinstance(blob, bytes):
            return None
        try:
            data, marks, key_marks, found = marshal.loads(blob)
            findings = [Finding(*f) for f in found]
        except (EOFError, ValueError, TypeError):
            return None
        self.used[(rel, content)] = blob
        return Document(rel, data, marks, key_marks, content), findings

    def knows(self, rel: str, content: str) -> bool:
        """Whether an entry is kept for the file with these bytes (get() decodes it)."""
        return isinstance(self.kept.get((rel, content)), bytes)

    def put(self, rel: str, content: str, doc: Document, findings: list[Finding]) -> None:
        """Keep a file just parsed."""
        try:
            blob = marshal.dumps(cast(Any, (doc.data, doc.marks, doc.key_marks, [astuple(f) for f in findings])))
        except ValueError:
            return
        self.used[(rel, content)] = blob

    def save(self) -> None:
        """Write the entries this run used (and only those: a deleted file's entry goes), if they changed;
        then let go of them (50 MB at 20,000 dimensions that the rest of the build does not need)."""
        if self.used.keys() != self.kept.keys():
            write_entry(self.path, self.used)
        self.kept, self.used = {}, {}

    done = save  # load calls it once every file has been read


class RenderedPages:
    """Rendered categories by a digest of what they are made from, in the ledger's cache folder.

    The renderer gives the parts of a key (what every page shares, the category itself); the key
    adds the code and the rendering libraries' versions. Used by forked render workers: each reads
    and writes its own entries; the parent then removes the entries no task asked for (prune).
    """

    def __init__(self, folder: Path):
        from importlib import metadata

        self.folder = folder
        versions = " ".join(f"{name}={metadata.version(name)}" for name in RENDER_LIBRARIES)
        self.code = code_digest() + versions.encode()

    def key(self, *parts: bytes) -> str:
        """The key of a category's files."""
        return digest(self.code, *parts)

    def get(self, key: str) -> tuple[dict[str, bytes], list[bytes], dict[str, str]] | None:
        """A part's files, data.json parts and index sections, as rendered before, or None."""
        value = read_entry(self.folder / f"{key}.bin")
        if not (isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], dict)
                and isinstance(value[1], list) and isinstance(value[2], dict)):
            return None
        pages, parts, sections = value
        if not (all(isinstance(k, str) and isinstance(v, bytes) for k, v in pages.items())
                and all(isinstance(p, bytes) for p in parts)
                and all(isinstance(k, str) and isinstance(v, str) for k, v in sections.items())):
            return None
        return pages, parts, sections

    def put(self, key: str, pages: dict[str, bytes], parts: list[bytes], sections: dict[str, str]) -> None:
        """Keep a part's files."""
        write_entry(self.folder / f"{key}.bin", (pages, parts, {k: str(v) for k, v in sections.items()}))

    def prune(self, keep: set[str]) -> None:
        """Remove every entry but those in keep (the categories of the build just made)."""
        with contextlib.suppress(OSError):
            for entry in os.scandir(self.folder):
                if entry.name.endswith(".bin") and entry.name[:-4] not in keep or entry.name.startswith(".tmp-"):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
