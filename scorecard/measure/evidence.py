"""Evidence artifacts: JSON files read once, and RFC 6901 pointers into them.

Lazy imports: core.git, when an artifact's commit date is asked (validate without evidence-age limits never
runs git); jsonquery, for a path: query only.
"""

from __future__ import annotations

import json
import math
import re
from typing import TYPE_CHECKING, TypeGuard, Union
from datetime import date
from dataclasses import field
from pathlib import Path

from ..core.structs import slotted
from ..core.nearest import close_matches
from ..core.findings import kind_of
from ..core.paths import MAX_ARTIFACT_BYTES, PathProblem, file_kind, normalise, read_regular

if TYPE_CHECKING:
    from ..core.place import LedgerPlace


class PointerError(Exception):
    """A pointer that is malformed (syntax=True) or does not resolve; spent: a query stopped by its budget or the
    run's (the data was not wrong: the question was not answered)."""

    def __init__(self, message: str, syntax: bool = False, spent: bool = False):
        super().__init__(message)
        self.message, self.syntax, self.spent = message, syntax, spent


def parse_pointer(pointer: str) -> list[str]:
    """The reference tokens of an RFC 6901 pointer ('' is the whole document)."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PointerError(f"pointer '{pointer}' must start with '/'", syntax=True)
    tokens = []
    for raw in pointer[1:].split("/"):
        i = raw.find("~")
        while i != -1:
            if raw[i + 1: i + 2] not in ("0", "1"):
                raise PointerError(f"'~' in pointer '{pointer}' must be followed by 0 or 1 (~0 is '~', ~1 is '/')",
                                   syntax=True)
            i = raw.find("~", i + 2)
        tokens.append(raw.replace("~1", "/").replace("~0", "~"))
    return tokens


def escape_token(token: str) -> str:
    """One pointer token, escaped (~ as ~0, / as ~1)."""
    return token.replace("~", "~0").replace("/", "~1")


def pointer_to(where: tuple[str | int, ...]) -> str:
    """The JSON pointer of a place: ("results", 0, "a/b") is /results/0/a~1b."""
    return "".join("/" + escape_token(str(part)) for part in where)


def resolve_pointer(data: JsonValue, pointer: str) -> JsonValue:
    """The value pointer names in data; PointerError where it does not resolve."""
    node = data
    walked = ""
    for token in parse_pointer(pointer):
        if isinstance(node, dict):
            if token not in node:
                near = _near(token, node)
                near_text = f" (did you mean '{near}'?)" if near else ""
                raise PointerError(f"no key '{token}' at '{walked or '/'}'" + near_text)
            node = node[token]
        elif isinstance(node, list):
            if token == "-":
                raise PointerError(f"'-' at '{walked or '/'}' names the element after the last, which never exists")
            if not (token.isascii() and token.isdigit()) or (len(token) > 1 and token[0] == "0"):
                raise PointerError(f"'{token}' at '{walked or '/'}' is not an array index (ASCII digits)")
            if len(token) > 18 or int(token) >= len(node):
                raise PointerError(f"index {token} at '{walked or '/'}' is past the end (length {len(node)})")
            node = node[int(token)]
        else:
            raise PointerError(f"'{walked}' is {kind_of(node, json=True)}, which has no member '{token}'")
        walked += "/" + escape_token(token)
    return node


def _near(token: str, node: dict) -> str | None:
    keys = [k for k in node if isinstance(k, str)]
    match = close_matches(token, keys, n=1, cutoff=0.75)
    return match[0] if match else None



def is_number(value: object) -> TypeGuard[int | float]:
    """A finite JSON number a float can hold (booleans are not numbers; nor is a 400-digit integer)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    return isinstance(value, int) and -_FLOAT_MAX <= value <= _FLOAT_MAX


_FLOAT_MAX = 1.7976931348623157e308


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is too large for a double-precision float")
    return value


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                break
            seen.add(key)
        raise ValueError(f"duplicate key '{key[:60]}' in an object (JSON readers would silently keep only one)")
    return out


_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def _has_lone_surrogate(data: object) -> bool:
    """Whether any string (or key) in data holds a lone UTF-16 surrogate (from an escape such as \\ud800)."""
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


# A parsed JSON document (what json.loads gives).
JsonValue = Union[dict[str, "JsonValue"], list["JsonValue"], str, int, float, bool, None]  # noqa: UP007 (a runtime alias)


@slotted
class Artifact:
    """A JSON file: its parsed data, or why it could not be read."""

    rel: str
    data: JsonValue = None
    error: str | None = None
    meta: dict = field(default_factory=dict)
    raw: bytes = b""
    problem: PathProblem | None = None  # why the path may not be read at all
    tool: str | None = None  # the format whose signature the data carries, once tools.recognised has looked
    tool_known: bool = False


class ArtifactStore:
    """Reads each JSON file of the ledger at most once per run."""

    def __init__(self, place: LedgerPlace):
        self.place = place
        self._cache: dict[str, Artifact] = {}
        self.sides: dict[str, tuple] = {}  # a dimension's two sides' conditions, read once per run (ledger.conditioned)
        self._located: dict[str, tuple[Path, str] | PathProblem] = {}
        self._folded: dict[str, str] = {}  # casefolded path -> the first spelling located
        self._git_dates: dict[str, tuple[date, str]] | None = None  # evidence/ file -> (last commit date, blob)
        self.answers: dict[tuple[str, str], tuple] = {}  # ledger.checkmemo's answers to its questions, this run's

    def locate(self, rel: str) -> tuple[Path, str]:
        """(path, kind) of a ledger file, kind 'file', 'dir' or 'missing'; PathProblem if unsafe. Cached.

        Unsafe: outside the root, in a version-control folder, a special file (FIFO, device), or
        a second spelling of a path already located that differs only in letter case.
        """
        found = self._located.get(rel)
        if found is None:
            found = self._located[rel] = self._look(rel)
        if isinstance(found, PathProblem):
            raise found
        return found

    def _look(self, rel: str) -> tuple[Path, str] | PathProblem:
        try:
            path = self._locate(rel)
            kind, size = file_kind(path)
            if kind == "special":
                raise PathProblem("SC406", f"'{rel}' is not a regular file (a FIFO, device or socket)",
                                  "commit an ordinary file in its place")
            if size > MAX_ARTIFACT_BYTES:
                raise PathProblem("SC408", f"'{rel}' is {size:,} bytes, over the {MAX_ARTIFACT_BYTES:,}-byte limit",
                                  "cite a smaller file (summarise the raw output), or keep the large file out of "
                                  "the ledger")
            return path, kind
        except PathProblem as exc:
            return exc
        except OSError as exc:
            return PathProblem("SC404", f"'{rel}' cannot be looked at: {exc.strerror}",
                               "check the path and its permissions")

    def _locate(self, rel: str) -> Path:
        path = self.place.path(rel)
        spelled = normalise(rel)
        first = self._folded.setdefault(spelled.casefold(), spelled)
        if first != spelled:
            raise PathProblem("SC409", f"'{rel}' and '{first}' differ only in letter case",
                              "rename one of the two files: the site cannot hold both on every file system")
        return path

    def get(self, rel: str) -> Artifact:
        """The artifact at rel (relative to the root); PathProblem if the path is unsafe."""
        cached = self._cache.get(rel)
        if cached is None:
            cached = self._cache[rel] = self._read(rel)
        if cached.problem is not None:
            raise cached.problem
        return cached

    def raw(self, rel: str) -> bytes:
        """The bytes of a cited file that is not JSON (a trace target); PathProblem if it cannot be carried."""
        path, _ = self.locate(rel)
        try:
            return read_regular(path, rel, MAX_ARTIFACT_BYTES)
        except OSError as exc:
            raise PathProblem("SC401", f"'{rel}' cannot be read: {exc.strerror}", "check the file") from None

    def git_date(self, rel: str) -> date | None:
        """The date of the last commit that changed rel, if it is committed unchanged.

        The first call asks git once for every file under evidence/; later calls are lookups.
        """
        if self._git_dates is None:
            self._git_dates = self.place.last_change_dates("evidence")
        committed = self._git_dates.get(rel)
        if committed is None:
            return None
        from ..core.git import blob_id

        when, blob = committed
        art = self._cache.get(rel)
        return when if art is not None and art.problem is None and blob_id(art.raw) == blob else None

    def loaded(self) -> dict[str, Artifact]:
        """Every artifact read so far, by path."""
        return dict(self._cache)

    def _read(self, rel: str) -> Artifact:
        art = Artifact(rel)
        try:
            path, _ = self.locate(rel)
            art.raw = read_regular(path, rel, MAX_ARTIFACT_BYTES)
        except PathProblem as exc:
            art.problem = exc
            return art
        except FileNotFoundError:
            art.error = "missing"
            return art
        except IsADirectoryError:
            art.error = "a folder, not a file"
            return art
        except OSError as exc:
            art.error = f"unreadable: {exc.strerror}"
            return art
        return parse_artifact(art)


# Arrays and objects within one another at most this deep: the evidence viewer and the query reader walk them
# recursively. Python 3.11's json refused about a thousand levels (RecursionError); 3.12's and later read any depth,
# and a build over a file 3,000 levels deep ended in an internal error on 3.13.
MAX_JSON_DEPTH = 500
DEEP_JSON = f"JSON nested deeper than the reader follows (arrays and objects more than {MAX_JSON_DEPTH} levels deep)"


def too_deep(value: object, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether parsed JSON holds arrays or objects nested more than limit deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        if children and depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def parse_artifact(art: Artifact) -> Artifact:
    """Fill art.data (and art.meta) from art.raw, or say in art.error why it is not strict JSON."""
    try:
        art.data = json.loads(art.raw.decode("utf-8-sig"), parse_constant=_reject_constant, parse_float=_finite_float,
                              object_pairs_hook=_no_duplicates)
        if too_deep(art.data):
            art.data = None
            art.error = DEEP_JSON
        elif _SURROGATE.search(art.raw) and _has_lone_surrogate(art.data):
            art.data = None
            art.error = "not valid JSON text: a \\uD800-\\uDFFF escape that is not half of a surrogate pair"
    except UnicodeDecodeError:
        art.error = "not UTF-8 text"
    except json.JSONDecodeError as exc:
        art.error = f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
    except RecursionError:
        art.error = DEEP_JSON
    except ValueError as exc:
        art.error = f"invalid JSON: {exc}"
    meta = art.data.get("meta") if isinstance(art.data, dict) else None
    if isinstance(meta, dict):
        art.meta = meta
    return art


# --- selecting values: a pointer or a JSONPath query -------------------------------------------

def select(data: JsonValue, kind: str, selector: str) -> list[JsonValue]:
    """The values a pointer or JSONPath query selects (a pointer always selects one)."""
    if kind == "pointer":
        return [resolve_pointer(data, selector)]
    from .jsonquery import QueryError, find
    try:
        return [value for value, _ in find(selector, data)]
    except QueryError as exc:
        raise PointerError(f"path '{selector}': {exc.message}", syntax=exc.kind == "syntax",
                           spent=exc.kind in ("budget", "run")) from None


def located(data: JsonValue, kind: str, selector: str) -> list[str]:
    """The JSON pointers of the values a selection names (where the evidence page highlights them)."""
    if kind == "pointer":
        return [selector]
    from .jsonquery import find
    return [pointer_to(where) for _, where in find(selector, data)]


def cited_value(data: JsonValue, kind: str, selector: str) -> JsonValue:
    """What a selection cites, for fingerprints and displays: the value, or the list a query selected."""
    found = select(data, kind, selector)
    return found[0] if kind == "pointer" else found


__all__ = ["Artifact", "ArtifactStore", "PathProblem", "PointerError", "escape_token", "is_number",
           "cited_value", "located", "parse_artifact", "parse_pointer", "resolve_pointer", "select"]
