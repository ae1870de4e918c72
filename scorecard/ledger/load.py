"""Load stage: find the ledger and read its files (inside the root, regular, bounded) into Documents.

Parsing one file is yamldoc.py's job; this module decides which files make the ledger.
"""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar
from collections.abc import Iterable, Iterator


from ..core.structs import slotted
from ..core.blake import blake2b
from ..core.findings import Finding, UserError, finding
from ..core.parallel import run_tasks
from ..core.paths import PathProblem, read_regular
from .yamldoc import Document, parse_bytes

if TYPE_CHECKING:
    from ..core.place import LedgerPlace

MAX_FILE_BYTES = 1024 * 1024
SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SETTINGS_FILE = "scorecard.yaml"
CATEGORY_FILE = "_category.yaml"
T = TypeVar("T")

PARSE_CHUNK = 100  # files per task when forked workers parse a large ledger


@slotted
class CategoryFiles:
    """A category folder: its slug, its _category.yaml and its dimension files."""

    slug: str
    meta: Document | None
    dimensions: list[Document]


@slotted
class _Folder:
    """A category folder's files to read: its _category.yaml, if any, and its dimension files."""

    slug: str
    meta: Path | None
    dimensions: list[Path]

    def files(self) -> list[Path]:
        """Every file to read, _category.yaml first."""
        return ([self.meta] if self.meta else []) + self.dimensions


@slotted
class LoadedLedger:
    """Everything read from disk, before any rule but the YAML ones has run."""

    place: LedgerPlace
    settings: Document | None
    categories: Iterable[CategoryFiles]  # a list, or from stream_ledger an iterator, read once
    findings: list[Finding]  # from stream_ledger: complete once categories is exhausted


class LedgerNotFound(UserError):
    """Raised when no scorecard.yaml is found: a usage error, not a finding."""


def find_root(start: Path) -> Path:
    """The nearest folder at or above start that holds scorecard.yaml."""
    start = start.resolve()
    for folder in (start, *start.parents):
        settings = folder / SETTINGS_FILE
        if settings.exists() or settings.is_symlink():  # load says what is wrong with a FIFO or a link out
            return folder
    raise LedgerNotFound(
        f"no {SETTINGS_FILE} in {start} or any parent folder: this is not a ledger. "
        "Run scorecard in a ledger root, pass --root DIR, or create one with `scorecard init DIR`."
    )


# --- reading files ---------------------------------------------------------------------

class ParseCache(Protocol):
    """Parsed files by (relative path, content digest): serve's, in memory, or the warm cache's, on disk."""

    shares_documents: bool  # whether get() hands out the same Document objects on every call
    empty: bool  # whether it knows no file at all (then the files are read as without a cache)

    def get(self, rel: str, digest: str) -> tuple[Document, list[Finding]] | None:
        """The file's parse when it was parsed with these bytes before, else None."""

    def knows(self, rel: str, digest: str) -> bool:
        """Whether get() would give the file's parse (without decoding it)."""

    def put(self, rel: str, digest: str, doc: Document, findings: list[Finding]) -> None:
        """Keep a file just parsed."""

    def done(self) -> None:
        """Every file of this run has been read (the warm cache saves what it kept)."""


class MemoryParseCache:
    """serve's parse cache: the parsed Documents themselves, kept across rebuilds in this process."""

    shares_documents = True
    empty = False  # not consulted: serve reads file by file

    def __init__(self) -> None:
        self.docs: dict[tuple[str, str], tuple[Document, list[Finding]]] = {}

    def __len__(self) -> int:
        return len(self.docs)

    def clear(self) -> None:
        """Forget every file."""
        self.docs.clear()

    def get(self, rel: str, digest: str) -> tuple[Document, list[Finding]] | None:
        """The Document parsed before from these bytes, and its findings."""
        return self.docs.get((rel, digest))

    def knows(self, rel: str, digest: str) -> bool:
        """Whether the file was parsed with these bytes before."""
        return (rel, digest) in self.docs

    def put(self, rel: str, digest: str, doc: Document, findings: list[Finding]) -> None:
        """Keep a file just parsed."""
        self.docs[(rel, digest)] = (doc, findings)

    def done(self) -> None:
        """Nothing to do: the Documents stay in memory for the next rebuild."""


def read_document(place: LedgerPlace, path: Path, findings: list[Finding], cache: ParseCache | None = None) -> Document:
    """Read and parse one YAML file; problems become findings, never exceptions."""
    doc, raw = _read(place, path, findings)
    if raw is None:
        return doc
    if cache is not None:
        hit = cache.get(doc.file, doc.digest)
        if hit is not None:
            findings.extend(hit[1])
            return hit[0]
    before = len(findings)
    parse_bytes(raw, doc, findings)
    if cache is not None:
        cache.put(doc.file, doc.digest, doc, findings[before:])
    return doc


def _read(place: LedgerPlace, path: Path, findings: list[Finding]) -> tuple[Document, bytes | None]:
    """A file's Document (with its digest, not yet parsed) and its bytes; None and a finding if unreadable."""
    rel = place.rel(path)
    doc = Document(rel)
    try:
        if path.is_symlink():
            place.stays_inside(path, rel)
        raw = read_regular(path, rel, MAX_FILE_BYTES)
    except PathProblem as exc:
        if exc.code == "SC408":
            findings.append(finding("SC108", rel, (1, 1), f"the file is over the {MAX_FILE_BYTES}-byte limit",
                                    "split it up; a record is a few kilobytes at most"))
        else:
            findings.append(finding(exc.code, rel, (1, 1), exc.message, exc.hint))
        return doc, None
    except OSError as exc:
        findings.append(finding("SC101", rel, (1, 1), f"cannot read the file: {exc.strerror}", "check its permissions"))
        return doc, None
    doc.digest = _digest(raw)
    return doc, raw


def _digest(raw: bytes) -> str:
    return blake2b(raw, digest_size=16).hexdigest()


def iter_documents(place: LedgerPlace, paths: list[Path], findings: list[Finding],
                   cache: ParseCache | None = None) -> Iterator[Document]:
    """read_document for each path, in order, each as soon as it is parsed (by forked workers on a
    large ledger, so the caller can work on the first files while the workers parse the rest).

    With a cache that knows some files, this process reads every file, and only the files the
    cache does not know are parsed (by workers, when there are many); otherwise the workers read
    them too, and what they parsed goes into the cache, if any.
    """
    if cache is not None and cache.shares_documents:  # serve: few files change between rebuilds
        for path in paths:
            yield read_document(place, path, findings, cache)
        cache.done()
        return
    keep = None  # where to keep what the workers parse
    if cache is None or cache.empty:
        chunks = [paths[i:i + PARSE_CHUNK] for i in range(0, len(paths), PARSE_CHUNK)]
        results: Iterable[tuple[Document, list[Finding]]] = _in_order(
            run_tasks(partial(_read_chunk, place), chunks, len(paths)))
        keep = cache
    else:
        results = _read_known(place, paths, cache)
    for doc, found in results:
        if keep is not None and doc.digest:  # read (an unreadable file has no digest, and nothing to keep)
            keep.put(doc.file, doc.digest, doc, found)
        findings.extend(found)
        yield doc
    if cache is not None:
        cache.done()


def _in_order(done: Iterator[tuple[int, list[T]]]) -> Iterator[T]:
    """The items of numbered batches that finish in any order, batch by batch in number order, each batch as
    soon as it and every one before it are done."""
    waiting: dict[int, list[T]] = {}
    following = 0
    for index, batch in done:
        waiting[index] = batch
        while following in waiting:
            yield from waiting.pop(following)
            following += 1


def _read_known(place: LedgerPlace, paths: list[Path], cache: ParseCache) -> Iterator[tuple[Document, list[Finding]]]:
    """Every file read here: the ones the cache does not know parsed first (by workers when many), the
    others taken from the cache when their turn comes, so that the check stage has let go of a
    record's marks before the next is decoded."""
    read: list[tuple[Path, Document, list[Finding]]] = []
    missed: list[tuple[int, Document, bytes]] = []
    for path in paths:
        found: list[Finding] = []
        doc, raw = _read(place, path, found)
        if raw is not None and not cache.knows(doc.file, doc.digest):
            missed.append((len(read), doc, raw))
        read.append((path, doc, found))
    parsed: dict[int, tuple[Document, list[Finding]]] = {}
    batches = [missed[i:i + PARSE_CHUNK] for i in range(0, len(missed), PARSE_CHUNK)]
    for _, batch in run_tasks(_parse_chunk, batches, len(missed)):
        for i, doc, found in batch:
            cache.put(doc.file, doc.digest, doc, found)
            parsed[i] = (doc, found)
    for i, (path, doc, found) in enumerate(read):
        if i in parsed:
            yield parsed.pop(i)
        elif not doc.digest:  # unreadable: its finding
            yield doc, found
        else:
            hit = cache.get(doc.file, doc.digest)
            if hit is None:  # known, yet its entry does not decode: parse the file after all
                found = []
                hit = read_document(place, path, found), found
            yield hit


def _read_chunk(place: LedgerPlace, paths: list[Path]) -> list[tuple[Document, list[Finding]]]:
    out = []
    for path in paths:
        found: list[Finding] = []
        out.append((read_document(place, path, found), found))
    return out


def _parse_chunk(items: list[tuple[int, Document, bytes]]) -> list[tuple[int, Document, list[Finding]]]:
    out = []
    for i, doc, raw in items:
        found: list[Finding] = []
        parse_bytes(raw, doc, found)
        out.append((i, doc, found))
    return out


def load_ledger(place: LedgerPlace, cache: ParseCache | None = None) -> LoadedLedger:
    """Read scorecard.yaml and every file under claims/, in sorted order (cache: parsed files by content)."""
    loaded = stream_ledger(place, cache)
    loaded.categories = list(loaded.categories)
    return loaded


def stream_ledger(place: LedgerPlace, cache: ParseCache | None = None) -> LoadedLedger:
    """load_ledger, with the categories given one by one as their files are parsed (see iter_documents).

    scorecard.yaml and the folders are read first; the categories are then an iterator, to be read
    once, and the findings are complete when it is exhausted.
    """
    findings: list[Finding] = []
    root = place.root
    settings_path = root / SETTINGS_FILE
    present = settings_path.exists() or settings_path.is_symlink()
    settings = read_document(place, settings_path, findings, cache) if present else None
    if settings is None:
        findings.append(finding("SC001", SETTINGS_FILE, (1, 1), "scorecard.yaml is missing",
                                "create scorecard.yaml with at least title: and subject:"))
    site = root / "site"
    if site.is_symlink():  # the default output folder: a link there would send a build anywhere on the machine
        findings.append(finding("SC410", "site", (1, 1), f"site is a symlink (to {os.readlink(site)}): build and "
                                "serve refuse to write through it", "remove the link from the repository (site/ is "
                                "generated and belongs in .gitignore), or build with an explicit --out DIR"))
    claims = root / "claims"
    folders: list[_Folder] = []
    if _linked_inside(claims, place, "claims", findings):
        if claims.is_dir():
            folders = _category_folders(claims, place, findings)
        else:
            findings.append(finding("SC002", "claims", (1, 1), "the ledger has no claims/ folder",
                                    "create claims/<category>/_category.yaml and one file per dimension"))
    docs = iter_documents(place, [path for folder in folders for path in folder.files()], findings, cache)
    return LoadedLedger(place, settings, _categories(folders, docs, findings), findings)


def _category_folders(claims: Path, place: LedgerPlace, findings: list[Finding]) -> list[_Folder]:
    """The category folders under claims/ and which of their files to read; findings for what does not belong."""
    folders: list[_Folder] = []
    for entry in sorted(os.scandir(claims), key=lambda e: e.name):
        rel = f"claims/{entry.name}"
        if entry.is_symlink() and not _linked_inside(Path(entry.path), place, rel, findings):
            continue
        if not entry.is_dir():
            findings.append(finding("SC007", rel, (1, 1), "a file directly in claims/ belongs to no category",
                                    "move it into a category folder claims/<category>/"))
            continue
        if not SLUG_RE.fullmatch(entry.name):
            findings.append(finding("SC004", rel, (1, 1), f"category folder name '{entry.name}' is not a slug",
                                    "use lowercase letters, digits and single hyphens, e.g. cost-efficiency"))
        folders.append(_category_files(Path(entry.path), entry.name, place, findings))
    return folders


def _categories(folders: list[_Folder], docs: Iterator[Document], findings: list[Finding]) -> Iterator[CategoryFiles]:
    for folder in folders:
        meta = next(docs) if folder.meta else None
        yield CategoryFiles(folder.slug, meta, [next(docs) for _ in folder.dimensions])
        if meta is None:
            findings.append(finding("SC005", f"claims/{folder.slug}", (1, 1),
                                    f"category '{folder.slug}' has no {CATEGORY_FILE}",
                                    f"create claims/{folder.slug}/{CATEGORY_FILE} with at least a title:"))
    next(docs, None)  # none is left; asking lets iter_documents run to its end (where the cache is told)


def _linked_inside(path: Path, place: LedgerPlace, rel: str, findings: list[Finding]) -> bool:
    """Whether path (a symlink or not) stays inside the ledger root; a finding where it does not."""
    if not path.is_symlink():
        return True
    try:
        place.stays_inside(path, rel)
    except PathProblem as exc:
        findings.append(finding(exc.code, rel, (1, 1), exc.message, exc.hint))
        return False
    return True


def _category_files(folder: Path, slug: str, place: LedgerPlace, findings: list[Finding]) -> _Folder:
    """Which files of a category folder to read; findings for the ones that do not belong."""
    meta = None
    dimensions: list[Path] = []
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        rel = f"claims/{slug}/{entry.name}"
        name = entry.name
        if entry.is_symlink() and not _linked_inside(Path(entry.path), place, rel, findings):
            continue
        if entry.is_dir():
            findings.append(finding("SC007", rel, (1, 1), "a folder inside a category folder is not part of the format",
                                    "keep dimension files directly in claims/<category>/"))
        elif name == CATEGORY_FILE:
            meta = Path(entry.path)
        elif not name.endswith(".yaml"):
            hint = f"rename it to {name[:-4]}.yaml" if name.endswith(".yml") else "remove it, or move it out of claims/"
            findings.append(finding("SC003", rel, (1, 1), f"'{name}' is not a .yaml file", hint))
        else:
            stem = name[:-5]
            if not SLUG_RE.fullmatch(stem):
                findings.append(finding("SC004", rel, (1, 1), f"dimension id '{stem}' is not a slug",
                                        "rename the file: lowercase letters, digits and single hyphens"))
            dimensions.append(Path(entry.path))
    return _Folder(slug, meta, dimensions)
