"""Load stage: find the ledger, read its files, parse strict YAML keeping line marks.

The YAML is built from libyaml's event stream rather than composed by PyYAML, so that
aliases are never expanded (no alias bombs), nesting depth is bounded without recursion,
duplicate keys are caught, and scalars resolve the way a careful user expects (dates
stay text, ``yes``/``no`` are not booleans, ``1e3`` is a number).
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from yaml.cyaml import CParser

from .findings import Finding, finding, kind_of
from .paths import PathProblem, inside_root, read_regular

MAX_FILE_BYTES = 1024 * 1024
MAX_DEPTH = 32
SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SETTINGS_FILE = "scorecard.yaml"
CATEGORY_FILE = "_category.yaml"

Pos = tuple[int, int]
Path_ = tuple  # a path into a document: keys and indexes


@dataclass(slots=True)
class Document:
    """One parsed YAML file: its data and the 1-based position of every value and key."""

    file: str  # relative to the ledger root, POSIX form
    data: object = None
    marks: dict[Path_, Pos] = field(default_factory=dict)
    key_marks: dict[Path_, Pos] = field(default_factory=dict)
    digest: str = ""

    def pos(self, path: Path_, key: bool = False) -> Pos:
        """Position of the value (or key) at path, falling back to the nearest parent."""
        table = self.key_marks if key else self.marks
        p = tuple(path)
        while p:
            if p in table:
                return table[p]
            if key and p in self.marks:
                return self.marks[p]
            p = p[:-1]
        return self.marks.get((), (1, 1))


@dataclass(slots=True)
class CategoryFiles:
    """A category folder: its slug, its _category.yaml and its dimension files."""

    slug: str
    meta: Document | None
    dimensions: list[Document]


@dataclass(slots=True)
class LoadedLedger:
    """Everything read from disk, before any rule but the YAML ones has run."""

    root: Path
    settings: Document | None
    categories: list[CategoryFiles]
    findings: list[Finding]


class LedgerNotFound(Exception):
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


# --- scalars -------------------------------------------------------------------------

_INT = re.compile(r"^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_SPECIAL_FLOAT = {".inf": float("inf"), "+.inf": float("inf"), "-.inf": float("-inf"), ".nan": float("nan")}
_NULL = {"", "~", "null", "Null", "NULL"}
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_YAML11_BOOL = {w for b in ("yes", "no", "on", "off", "y", "n") for w in (b, b.title(), b.upper())}
_STR_TAG = "tag:yaml.org,2002:str"
# Explicit tags allowed: for scalars !!str and the non-specific "!", for collections their own.
_ALLOWED_TAGS = {True: ("!", _STR_TAG), False: ("!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")}


def _plain_scalar(text: str):
    """Resolve an untagged plain scalar by the YAML 1.2 core schema (dates stay text)."""
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    first = text[0]
    if first.isdigit() or first in "+-.":
        if _INT.match(text):
            if len(text) > 310:  # past any float (and Python's int parsing limit): the schema refuses inf
                return float("-inf") if text[0] == "-" else float("inf")
            return int(text, 0) if text[:2] in ("0o", "0x") else int(text)
        if _FLOAT.match(text):
            return float(text)
        special = _SPECIAL_FLOAT.get(text.lower())
        if special is not None:
            return special
    return text


# --- the event-stream builder ---------------------------------------------------------

class _Stop(Exception):
    """Parsing of this file stops; the finding is already recorded."""


def parse_yaml(text: str, doc: Document, findings: list[Finding]) -> None:
    """Parse text into doc.data/doc.marks, appending any problem to findings."""
    parser = CParser(text)
    try:
        _build(parser, doc, findings)
    except _Stop:
        doc.data = None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = f"YAML syntax error: {exc.problem or exc.context}"
        hint = "fix the YAML syntax at this position"
        line_text = text.splitlines()[pos[0] - 1] if mark and pos[0] <= len(text.splitlines()) else ""
        if "maximum nesting depth" in message:
            findings.append(finding("SC109", doc.file, pos, "nesting deeper than the parser allows",
                                    "flatten the structure; records need only a few levels"))
            doc.data = None
            return
        if "\t" in line_text[: len(line_text) - len(line_text.lstrip(" \t"))] or "'\\t'" in message:
            message = "YAML syntax error: a tab in the indentation"
            hint = "indent with spaces only; YAML does not allow tabs for indentation"
        elif "mapping values are not allowed" in message:
            first = line_text.find(": ")
            if 0 <= first < pos[1] - 2:  # the mark is at a later ': ' than the key's own: inside the value
                hint = ("a ': ' inside a value starts a new key: put the whole value in quotes, "
                        "e.g. claim: \"ours: 2x faster\"")
            else:
                hint = ("this key's indentation does not fit the line above: indent it like the other keys "
                        "of its block (the key above may have lost its indentation)")
        findings.append(finding("SC101", doc.file, pos, message, hint))
        doc.data = None
    except yaml.YAMLError as exc:  # a reader error without a mark
        findings.append(finding("SC101", doc.file, (1, 1), f"YAML error: {exc}", "fix the YAML syntax"))
        doc.data = None
    finally:
        parser.dispose()


def _build(parser, doc: Document, findings: list[Finding]) -> None:
    file, marks, key_marks = doc.file, doc.marks, doc.key_marks
    # A frame is [container, path, pending_key_or_None, first_key_lines]; a root frame holds the value.
    root: list = [None]
    stack: list[list] = []
    documents = 0
    get = parser.get_event

    def attach(value, path: Path_) -> None:
        if not stack:
            root[0] = value
            return
        frame = stack[-1]
        container = frame[0]
        if isinstance(container, list):
            container.append(value)
        else:
            container[frame[2]] = value
            frame[2] = None

    def child_path() -> Path_ | None:
        """Path of the next value; None when the next event is a key."""
        if not stack:
            return ()
        frame = stack[-1]
        if isinstance(frame[0], list):
            return frame[1] + (len(frame[0]),)
        return None if frame[2] is None else frame[1] + (frame[2],)

    while True:
        event = get()
        kind = type(event)
        if kind is yaml.StreamEndEvent:
            break
        if kind in (yaml.StreamStartEvent, yaml.DocumentEndEvent):
            continue
        if kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                m = event.start_mark
                findings.append(finding("SC104", file, (m.line + 1, m.column + 1),
                                        "more than one YAML document in the file",
                                        "keep one document per file: remove the '---' and what follows"))
                raise _Stop
            continue
        m = event.start_mark
        pos = (m.line + 1, m.column + 1)
        if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            frame = stack.pop()
            attach(frame[0], frame[1])
            continue
        path = child_path()
        if path is None:  # a mapping key
            frame = stack[-1]
            if kind is not yaml.ScalarEvent:
                findings.append(finding("SC112", file, pos, "a mapping key must be a plain string",
                                        "write the key as a simple word such as `title:`"))
                raise _Stop
            key = event.value
            if key in frame[0]:
                first = key_marks.get(frame[1] + (key,), pos)
                findings.append(finding("SC102", file, pos, f"duplicate key '{key}' (first at line {first[0]})",
                                        "remove one of the two; YAML would silently keep only the last"))
                frame[0].pop(key)
            frame[2] = key
            key_marks[frame[1] + (key,)] = pos
            continue
        if kind is yaml.AliasEvent:
            findings.append(finding("SC103", file, pos, f"alias '*{event.anchor}' is not allowed",
                                    "write the value out in full; anchors and aliases are not supported"))
            marks[path] = pos
            attach(None, path)
            continue
        marks[path] = pos
        tag = event.tag
        if tag is not None and tag not in _ALLOWED_TAGS[kind is yaml.ScalarEvent]:
            findings.append(finding("SC110", file, pos, f"YAML tag '{tag}' is not allowed",
                                    "remove the tag; quote the value if it must be text"))
            raise _Stop
        if kind is yaml.ScalarEvent:
            text = event.value
            if event.style or tag is not None:
                value = text
            else:
                value = _plain_scalar(text)
                if value.__class__ is str and text in _YAML11_BOOL:
                    findings.append(finding("SC111", file, pos,
                                            f"'{text}' is read as the text \"{text}\", not as a boolean",
                                            f"quote it (\"{text}\") to say you mean text"))
            attach(value, path)
            continue
        if len(stack) >= MAX_DEPTH:
            findings.append(finding("SC109", file, pos, f"nesting deeper than {MAX_DEPTH} levels",
                                    "flatten the structure; records need only a few levels"))
            raise _Stop
        container = {} if kind is yaml.MappingStartEvent else []
        stack.append([container, path, None])
    doc.data = root[0]


# --- reading files ---------------------------------------------------------------------

ParseCache = dict  # (relative path, content digest) -> (Document, its findings): for serve's rebuilds


def read_document(root: Path, path: Path, findings: list[Finding], cache: ParseCache | None = None) -> Document:
    """Read and parse one YAML file; problems become findings, never exceptions."""
    rel = path.relative_to(root).as_posix()
    doc = Document(rel)
    try:
        if path.is_symlink():
            inside_root(path, root.resolve(), rel)
        raw = read_regular(path, rel, MAX_FILE_BYTES)
    except PathProblem as exc:
        if exc.code == "SC408":
            findings.append(finding("SC108", rel, (1, 1), f"the file is over the {MAX_FILE_BYTES}-byte limit",
                                    "split it up; a record is a few kilobytes at most"))
        else:
            findings.append(finding(exc.code, rel, (1, 1), exc.message, exc.hint))
        return doc
    except OSError as exc:
        findings.append(finding("SC101", rel, (1, 1), f"cannot read the file: {exc.strerror}", "check its permissions"))
        return doc
    doc.digest = _digest(raw)
    if cache is not None and (rel, doc.digest) in cache:
        cached, cached_findings = cache[(rel, doc.digest)]
        findings.extend(cached_findings)
        return cached
    before = len(findings)
    parse_bytes(raw, doc, findings)
    if cache is not None:
        cache[(rel, doc.digest)] = (doc, findings[before:])
    return doc


def _digest(raw: bytes) -> str:
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def parse_bytes(raw: bytes, doc: Document, findings: list[Finding]) -> None:
    """Decode UTF-8 (BOM tolerated) and parse; a mapping is required at the top."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        findings.append(finding("SC107", doc.file, (line, col), f"byte 0x{raw[exc.start]:02x} is not UTF-8",
                                "save the file as UTF-8"))
        return
    if not text.strip():
        findings.append(finding("SC106", doc.file, (1, 1), "the file is empty", "fill in the record or delete the file"))
        return
    if "\x00" in text:
        findings.append(finding("SC107", doc.file, (1, 1), "the file contains a NUL byte: not text",
                                "save the file as UTF-8 text"))
        return
    before = len(findings)
    parse_yaml(text, doc, findings)
    if doc.data is None and len(findings) == before:
        findings.append(finding("SC106", doc.file, (1, 1), "the file holds no value", "fill in the record"))
    elif doc.data is not None and not isinstance(doc.data, dict):
        findings.append(finding("SC105", doc.file, doc.pos(()),
                                f"the top-level value is {kind_of(doc.data)}, not a mapping",
                                "write the record as `key: value` lines"))
        doc.data = None



def load_ledger(root: Path, cache: ParseCache | None = None) -> LoadedLedger:
    """Read scorecard.yaml and every file under claims/, in sorted order (cache: parsed files by content)."""
    findings: list[Finding] = []
    real_root = root.resolve()
    settings_path = root / SETTINGS_FILE
    settings = read_document(root, settings_path, findings, cache) if settings_path.exists() or settings_path.is_symlink() else None
    if settings is None:
        findings.append(finding("SC001", SETTINGS_FILE, (1, 1), "scorecard.yaml is missing",
                                "create scorecard.yaml with at least title: and subject:"))
    claims = root / "claims"
    categories: list[CategoryFiles] = []
    if not _linked_inside(claims, real_root, "claims", findings):
        return LoadedLedger(root, settings, categories, findings)
    if not claims.is_dir():
        findings.append(finding("SC002", "claims", (1, 1), "the ledger has no claims/ folder",
                                "create claims/<category>/_category.yaml and one file per dimension"))
        return LoadedLedger(root, settings, categories, findings)
    for entry in sorted(os.scandir(claims), key=lambda e: e.name):
        rel = f"claims/{entry.name}"
        if entry.is_symlink() and not _linked_inside(Path(entry.path), real_root, rel, findings):
            continue
        if not entry.is_dir():
            findings.append(finding("SC007", rel, (1, 1), "a file directly in claims/ belongs to no category",
                                    "move it into a category folder claims/<category>/"))
            continue
        if not SLUG_RE.fullmatch(entry.name):
            findings.append(finding("SC004", rel, (1, 1), f"category folder name '{entry.name}' is not a slug",
                                    "use lowercase letters, digits and single hyphens, e.g. cost-efficiency"))
        categories.append(_load_category(root, Path(entry.path), entry.name, findings, cache))
    return LoadedLedger(root, settings, categories, findings)


def _linked_inside(path: Path, real_root: Path, rel: str, findings: list[Finding]) -> bool:
    """Whether path (a symlink or not) stays inside the ledger root; a finding where it does not."""
    if not path.is_symlink():
        return True
    try:
        inside_root(path, real_root, rel)
    except PathProblem as exc:
        findings.append(finding(exc.code, rel, (1, 1), exc.message, exc.hint))
        return False
    return True


def _load_category(root: Path, folder: Path, slug: str, findings: list[Finding], cache: ParseCache | None) -> CategoryFiles:
    meta = None
    dimensions: list[Document] = []
    real_root = root.resolve()
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        rel = f"claims/{slug}/{entry.name}"
        name = entry.name
        if entry.is_symlink() and not _linked_inside(Path(entry.path), real_root, rel, findings):
            continue
        if entry.is_dir():
            findings.append(finding("SC007", rel, (1, 1), "a folder inside a category folder is not part of the format",
                                    "keep dimension files directly in claims/<category>/"))
        elif name == CATEGORY_FILE:
            meta = read_document(root, Path(entry.path), findings, cache)
        elif not name.endswith(".yaml"):
            hint = f"rename it to {name[:-4]}.yaml" if name.endswith(".yml") else "remove it, or move it out of claims/"
            findings.append(finding("SC003", rel, (1, 1), f"'{name}' is not a .yaml file", hint))
        else:
            stem = name[:-5]
            if not SLUG_RE.fullmatch(stem):
                findings.append(finding("SC004", rel, (1, 1), f"dimension id '{stem}' is not a slug",
                                        "rename the file: lowercase letters, digits and single hyphens"))
            dimensions.append(read_document(root, Path(entry.path), findings, cache))
    if meta is None:
        findings.append(finding("SC005", f"claims/{slug}", (1, 1), f"category '{slug}' has no {CATEGORY_FILE}",
                                f"create claims/{slug}/{CATEGORY_FILE} with at least a title:"))
    return CategoryFiles(slug, meta, dimensions)
