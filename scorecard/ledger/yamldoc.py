"""Strict YAML with positions: one file's bytes -> a Document (its data, and where every value and key is).

The YAML is built from libyaml's event stream rather than composed by PyYAML, so that
aliases are never expanded (no alias bombs), nesting depth is bounded without recursion,
duplicate keys are caught, and scalars resolve the way a careful user expects (dates
stay text, ``yes``/``no`` are not booleans, ``1e3`` is a number).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

import yaml
from yaml._yaml import CParser

from ..core.patterns import lazy
from ..core.structs import slotted
from ..core.findings import Finding, finding, kind_of

MAX_DEPTH = 32

Pos = tuple[int, int]
Path_ = tuple[str | int, ...]  # a path into a document: keys and indexes


@slotted
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


_INT = lazy(r"^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$")


_FLOAT = lazy(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


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


class _Stop(Exception):
    """Parsing of this file stops; the finding is already recorded."""


def parse_yaml(text: str, doc: Document, findings: list[Finding]) -> None:
    """Parse text into doc.data/doc.marks, appending any problem to findings."""
    parser = CParser(text)
    try:
        _Builder(doc, findings).run(parser)
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


def _pos(event: Any) -> Pos:
    """Where an event starts, 1-based (libyaml's events always carry their marks)."""
    m = event.start_mark
    return m.line + 1, m.column + 1


class _Frame:
    """An open mapping or list: the container, its path, and (a mapping) the key awaiting its value."""

    __slots__ = ("container", "path", "key")

    def __init__(self, container: dict | list, path: Path_):
        self.container = container
        self.path = path
        self.key: str | None = None  # None: the next scalar of a mapping is a key


class _Builder:
    """Python values from libyaml's events, with the position of every value and key."""

    def __init__(self, doc: Document, findings: list[Finding]):
        self.doc, self.findings = doc, findings
        self.stack: list[_Frame] = []
        self.root: object = None
        self.documents = 0
        self.handlers = {yaml.ScalarEvent: self._scalar, yaml.MappingStartEvent: self._start,
                         yaml.SequenceStartEvent: self._start, yaml.MappingEndEvent: self._end,
                         yaml.SequenceEndEvent: self._end, yaml.AliasEvent: self._alias,
                         yaml.DocumentStartEvent: self._document}

    def run(self, parser) -> None:
        """Consume the parser's events; doc.data is the document's value (_Stop after a fatal finding)."""
        get, handlers, end = parser.get_event, self.handlers, yaml.StreamEndEvent
        try:
            while True:
                event = get()
                kind = type(event)
                if kind is end:
                    break
                handler = handlers.get(kind)  # stream start and document end carry nothing
                if handler is not None:
                    handler(event)
        finally:  # the handlers are bound methods of self: a cycle, never collected while the collector is off
            self.handlers = {}
        self.doc.data = self.root

    def _stop(self, code: str, event, message: str, hint: str) -> _Stop:
        self.findings.append(finding(code, self.doc.file, _pos(event), message, hint))
        return _Stop()

    def _next_path(self) -> Path_ | None:
        """Path of the next value; None when the next event is a mapping's key."""
        if not self.stack:
            return ()
        frame = self.stack[-1]
        if frame.container.__class__ is list:
            return frame.path + (len(frame.container),)
        return None if frame.key is None else frame.path + (frame.key,)

    def _attach(self, value: object) -> None:
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        container = frame.container
        if type(container) is list:
            container.append(value)
        elif type(container) is dict:
            container[frame.key] = value
            frame.key = None

    def _value_at(self, event) -> Path_ | None:
        """The path of a value event, its position recorded; None (after handling it) for a key."""
        path = self._next_path()
        if path is None:
            self._key(event)
            return None
        self.doc.marks[path] = _pos(event)
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in _ALLOWED_TAGS[event.__class__ is yaml.ScalarEvent]:
            raise self._stop("SC110", event, f"YAML tag '{tag}' is not allowed",
                             "remove the tag; quote the value if it must be text")
        return path

    def _key(self, event) -> None:
        frame = self.stack[-1]
        if event.__class__ is not yaml.ScalarEvent:
            raise self._stop("SC112", event, "a mapping key must be a plain string",
                             "write the key as a simple word such as `title:`")
        key, pos = event.value, _pos(event)
        if key in frame.container:
            first = self.doc.key_marks.get(frame.path + (key,), pos)
            self.findings.append(finding("SC102", self.doc.file, pos,
                                         f"duplicate key '{key}' (first at line {first[0]})",
                                         "remove one of the two; YAML would silently keep only the last"))
            frame.container.pop(key)  # type: ignore[arg-type]  # a mapping's frame: the container is a dict
        frame.key = key
        self.doc.key_marks[frame.path + (key,)] = pos

    def _scalar(self, event) -> None:
        stack = self.stack
        if stack and stack[-1].key is None and stack[-1].container.__class__ is dict:  # the hot path: a key
            self._key(event)
            return
        self._value_at(event)
        text = event.value
        if event.style or event.tag is not None:
            self._attach(text)
            return
        value = _plain_scalar(text)
        if value.__class__ is str and text in _YAML11_BOOL:
            self.findings.append(finding("SC111", self.doc.file, _pos(event),
                                         f"'{text}' is read as the text \"{text}\", not as a boolean",
                                         f"quote it (\"{text}\") to say you mean text"))
        self._attach(value)

    def _alias(self, event) -> None:
        path = self._next_path()
        if path is None:
            self._key(event)  # an alias as a key: SC112
            return
        pos = _pos(event)
        self.findings.append(finding("SC103", self.doc.file, pos, f"alias '*{event.anchor}' is not allowed",
                                     "write the value out in full; anchors and aliases are not supported"))
        self.doc.marks[path] = pos
        self._attach(None)

    def _start(self, event) -> None:
        path = self._value_at(event)
        if path is None:
            return
        if len(self.stack) >= MAX_DEPTH:
            raise self._stop("SC109", event, f"nesting deeper than {MAX_DEPTH} levels",
                             "flatten the structure; records need only a few levels")
        self.stack.append(_Frame({} if event.__class__ is yaml.MappingStartEvent else [], path))

    def _end(self, event) -> None:
        self._attach(self.stack.pop().container)

    def _document(self, event) -> None:
        self.documents += 1
        if self.documents > 1:
            raise self._stop("SC104", event, "more than one YAML document in the file",
                             "keep one document per file: remove the '---' and what follows")


_REQUIRED = lazy(r"[ \t]*(?:-[ \t]+)?([^\s:#]+):[ \t]*#[ \t]*REQUIRED\b:?[ \t]*(.*)")


def _required(lines: list[str], doc: Document, findings: list[Finding]) -> None:
    """SC201 for each field left empty where `scorecard new` marked it `# REQUIRED: what goes here`: a record is
    not done until it is filled in (a REQUIRED mark on a field that has a value is only a comment)."""
    for path, (line, col) in sorted(doc.key_marks.items(), key=lambda item: item[1]):
        found = _REQUIRED.fullmatch(lines[line - 1]) if 0 < line <= len(lines) else None
        if found is None or found[1] != str(path[-1]) or _at(doc.data, path) is not None:
            continue
        what = found[2].strip()
        findings.append(finding("SC201", doc.file, (line, col), f"'{'.'.join(map(str, path))}' is empty and marked "
                                f"REQUIRED" + (f": {what}" if what else ""),
                                "fill it in (its comment says what goes there), then remove the REQUIRED mark"))


def _at(data: object, path: tuple) -> object:
    for key in path:
        if (isinstance(data, dict) and key in data) or (isinstance(data, list) and isinstance(key, int)
                                                         and 0 <= key < len(data)):
            data = data[key]
        else:
            return None
    return data


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
        findings.append(finding("SC106", doc.file, (1, 1), "the file is empty",
                                "fill in the record or delete the file"))
        return
    if "\x00" in text:
        findings.append(finding("SC107", doc.file, (1, 1), "the file contains a NUL byte: not text",
                                "save the file as UTF-8 text"))
        return
    before = len(findings)
    parse_yaml(text, doc, findings)
    if "REQUIRED" in text and isinstance(doc.data, dict):
        _required(text.splitlines(), doc, findings)
    if doc.data is None and len(findings) == before:
        findings.append(finding("SC106", doc.file, (1, 1), "the file holds no value", "fill in the record"))
    elif doc.data is not None and not isinstance(doc.data, dict):
        findings.append(finding("SC105", doc.file, doc.pos(()),
                                f"the top-level value is {kind_of(doc.data)}, not a mapping",
                                "write the record as `key: value` lines"))
        doc.data = None
