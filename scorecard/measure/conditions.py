"""Conditions: what a number was measured on (docs/format.md "Conditions"), and whether two sides match.

Ours are read from what the benchmark tool records, through one allowlist per tool (TOOL_KEYS) mapped into a
small vocabulary; nothing else of a tool's metadata is read, so host names, user names, paths, executables,
environment variables and configure arguments never reach a page. An artifact's `meta` adds keys the tool does not
state; a `meta` value for a key the tool states is kept beside it ("stated by the ledger"), never in its place.
The bar's are typed in `sota.conditions`, or read from its own evidence when we measured it.

Matching (`conditions_must_match`): numbers as numbers, quantities after unit conversion, text after case,
whitespace, '-' and '_' are set aside, a model id by its last path component, and the equivalences a ledger
declares. A listed key that differs, or that one side does not state, leaves the comparison inconclusive.

What each tool records is read in toolconditions.py, through its allowlist.

Lazy imports: units (a quantity's unit, only where two texts differ) and tools (a file's format, only for a value
read by a pointer or a path, whose tool the reader did not name), so a ledger that states no condition loads
neither for them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..core.structs import frozen
from .toolconditions import TOOL_KEYS, as_text

VOCABULARY = ("hardware", "software", "model", "workload", "precision", "date")
KEY_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"
_KEY = re.compile(KEY_PATTERN)
MAX_CHARS = 200
# meta keys of a file no tool wrote that state a condition, and the vocabulary key each fills
META_KEYS = {**{key: key for key in VOCABULARY}, "machine": "hardware"}


@frozen
class Stated:
    """One side's value for one condition: as shown, where it was read, and what the ledger says beside it."""

    value: str  # as shown: text of at most MAX_CHARS characters
    origin: str  # where it was read: "machine_info.cpu.brand_raw", "meta.hardware", "sota.conditions"
    _compared: str | float  # what matching compares (the whole model id, a number); no template reads it
    marked: str = ""  # a mark to show with it ("last path component of a path")
    ledger: str = ""  # a meta value the ledger states beside a tool's value for the same key, as shown


Conditions = dict[str, Stated]


def shown(value: object) -> str:
    """A condition's value as text, on one line, cut to MAX_CHARS characters."""
    text = " ".join(as_text(value).split())
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS - 1] + "…"


def stated(key: str, value: object, origin: str) -> Stated | None:
    """A condition read from a file or a record (None for an empty value, a list or an object). A number is
    compared as one where a double holds it exactly; past that (a 400-digit integer, an infinity), as its text."""
    if value is None or isinstance(value, (dict, list)) or (isinstance(value, str) and not value.strip()):
        return None
    text = shown(value)
    if key == "model" and isinstance(value, str) and _a_path(value.strip()):
        return Stated(shown(_last(value)), origin, value, "the last component of a path")
    exact = isinstance(value, (int, float)) and not isinstance(value, bool) and (
        abs(value) <= 2 ** 53 if isinstance(value, int) else math.isfinite(value))
    whole = " ".join(as_text(value).split())  # compared uncut: two values alike for 200 characters may differ after
    return Stated(text, origin, float(value) if exact else whole)  # type: ignore[arg-type]


def _last(text: str) -> str:
    """The last component of a path or an id (/data/llama-3.1-8b, meta-llama/Llama-3.1-8B)."""
    return re.split(r"[/\\]", text.strip().rstrip("/\\"))[-1]


def _a_path(text: str) -> bool:
    """Whether a model names a file on someone's disk (/home/me/llama, ~/m, ./m, C:\\m, a/b/c), not a hub id
    (meta-llama/Llama-3.1-8B), whose owner is part of its name."""
    return text.startswith(("/", "~", ".")) or "\\" in text or re.match(r"[A-Za-z]:", text) is not None or \
        text.count("/") > 1


Contradiction = tuple[str, str, str]  # a key, the tool's value and the meta's, as shown


def of_artifact(data: Any, tool: str | None, where: tuple = ()) -> tuple[Conditions, list[Contradiction]]:
    """The conditions an artifact records for the value at where (a tool's, through its allowlist, then its meta's),
    and where its meta contradicts the tool."""
    found: Conditions = {}
    for key, (value, origin) in (TOOL_KEYS[tool](data, where) if tool in TOOL_KEYS else {}).items():
        item = stated(key, value, origin)
        if item is not None:
            found[key] = item
    contradictions: list[Contradiction] = []
    meta = data.get("meta") if isinstance(data, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    from_meta: set[str] = set()
    free = meta.get("conditions")
    free = free if isinstance(free, dict) else {}
    named = [(f"conditions.{k}", k, v) for k, v in free.items() if isinstance(k, str) and _KEY.fullmatch(k)][:40]
    for name, key, value in [*named, *((name, key, meta.get(name)) for name, key in META_KEYS.items())]:
        item = stated(key, value, f"meta.{name}")
        if item is None or key in from_meta:  # meta.hardware before meta.machine, its older name
            continue
        from_meta.add(key)
        if key not in found:
            found[key] = item
        elif not same(found[key], item, (), key):
            found[key] = _beside(found[key], item)
            if name != "machine":  # a machine's name ("ci-runner-3") beside the tool's description contradicts nothing
                contradictions.append((key, found[key].value, item.value))
    return found, contradictions


def _beside(tool: Stated, ledger: Stated) -> Stated:
    return Stated(tool.value, tool.origin, tool._compared, tool.marked, ledger.value)


def typed(conditions: Mapping[str, object] | None) -> Conditions:
    """The conditions a record types (sota.conditions)."""
    found: Conditions = {}
    for key, value in (conditions or {}).items():
        item = stated(key, value, f"sota.conditions.{key}")
        if item is not None:
            found[key] = item
    return found


def merged(sides: Iterable[Conditions]) -> Conditions:
    """The conditions several artifacts (a formula's inputs) share: a key whose values differ is left out (unstated,
    so a listed key cannot match across inputs measured on other conditions)."""
    sides = list(sides)
    if not sides:
        return {}
    out: Conditions = {}
    for key, first in sides[0].items():
        if all(key in other and same(first, other[key], (), key) for other in sides[1:]):
            out[key] = first
    return out


def added(base: Conditions, more: Conditions) -> Conditions:
    """base, with the keys of more it does not state."""
    return {**{k: v for k, v in more.items() if k not in base}, **base}


# --- matching ---------------------------------------------------------------------------------------------------

def _normal(text: str) -> str:
    """Text as matched: case set aside, and '-' or '_' between two word characters read as a space (H100-SXM is
    h100 sxm; -40 keeps its sign)."""
    return " ".join(re.sub(r"(?<=\w)[-_]+(?=\w)", " ", text.casefold()).split())


def _quantity(text: str) -> tuple[float, object] | None:
    """A number with an optional unit, converted to its base units, and the unit's dimensions (80GB, 80 GB, 0.08 TB
    match; 1 GB and 1 GHz do not); None for other text, and for text longer than a shown value (MAX_CHARS)."""
    text = text.strip()
    found = re.fullmatch(r"([-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?:\s*([^\d\s].*))?", text, re.IGNORECASE) \
        if len(text) <= MAX_CHARS else None
    if not found:
        return None
    number = float(found[1])
    if not math.isfinite(number):
        return None
    if not found[2]:
        return number, ()
    from . import units

    unit = units.parse(found[2])
    if unit.problem is not None or not unit.known:
        return None
    return number * unit.factor, unit.dims


def _number(value: str | float) -> tuple[float, object] | None:
    return (value, ()) if isinstance(value, float) else _quantity(value)


def _model_kind(text: str) -> str:
    """bare (a name), hub (owner/name) or path (a file on someone's disk)."""
    return "path" if _a_path(text.strip()) else "hub" if re.search(r"[/\\]", text) else "bare"


def _equivalent(x: str, y: str, equivalent: Iterable[Iterable[str]]) -> bool:
    return any({x, y} <= {_normal(t) for t in group} for group in equivalent)


def same(a: Stated, b: Stated, equivalent: Iterable[Iterable[str]], key: str = "") -> bool:
    """Whether two values of one condition match: as numbers where either is one (a sign counts: -40 is not 40), else
    as text without case, whitespace, '-' or '_' between words, or by a group the ledger declares equivalent. A model
    matches by its name where one side gives a bare name, or a path against a hub id (owner/name): two hub ids, or
    two paths, match only whole."""
    qa, qb = _number(a._compared), _number(b._compared)
    if qa is not None or qb is not None:
        return qa is not None and qb is not None and qa == qb
    x, y = _normal(str(a._compared)), _normal(str(b._compared))
    if x == y or _equivalent(x, y, equivalent):
        return True
    kinds = {_model_kind(str(a._compared)), _model_kind(str(b._compared))}
    if key != "model" or not ("bare" in kinds or kinds == {"hub", "path"}):
        return False
    lx, ly = (_normal(_last(str(m))) for m in (a._compared, b._compared))
    return lx == ly or _equivalent(lx, ly, equivalent)


@frozen
class Difference:
    """A listed condition the two sides do not share: its key and each side's value as shown (None: not stated)."""

    key: str
    ours: str | None
    bar: str | None

    def words(self) -> str:
        return f"{self.key}: {self.ours if self.ours is not None else 'not stated'} (ours) · " \
               f"{self.bar if self.bar is not None else 'not stated'} (bar)"


def differences(ours: Conditions, bar: Conditions, keys: Iterable[str],
                equivalent: Iterable[Iterable[str]] = ()) -> list[Difference]:
    """The listed keys on which the two sides differ, or which either does not state, in the order listed."""
    out = []
    for key in dict.fromkeys(keys):
        a, b = ours.get(key), bar.get(key)
        if a is None or b is None or not same(a, b, equivalent, key):
            out.append(Difference(key, a.value if a else None, b.value if b else None))
    return out


def differing(ours: Conditions, bar: Conditions, equivalent: Iterable[Iterable[str]] = ()) -> list[str]:
    """The keys both sides state with values that do not match (for the "conditions differ" mark)."""
    return sorted(key for key in ours.keys() & bar.keys() if not same(ours[key], bar[key], equivalent, key))


def of_measurement(m: Any, artifact_of: Callable[[str], Any]) \
        -> tuple[Conditions, list[tuple[str, Contradiction]]]:
    """The conditions a measurement's artifacts share (merged), and the (artifact, key) pairs where an artifact's
    meta contradicts its tool."""
    from .tools import recognised

    sides: list[Conditions] = []
    contradicted: list[tuple[str, Contradiction]] = []
    for src in m.sources:
        art = artifact_of(src.evidence)
        tool = src.tool
        if tool is None:
            fmt = recognised(art)
            tool = fmt.NAME if fmt is not None else None
        found, said = of_artifact(art.data, tool, src.places[0] if src.places else ())
        sides.append(found)
        contradicted += [(src.evidence, c) for c in said]
    return merged(sides), contradicted


@frozen
class Row:
    """One condition as a page shows it, both sides side by side: whether they differ (both stated and not the same,
    or a key that must match unstated on one side), and whether the ledger lists it as one that must match."""

    key: str
    ours: Stated | None
    bar: Stated | None
    differs: bool
    listed: bool


def table(ours: Conditions, bar: Conditions, listed: Iterable[str] = (),
          equivalent: Iterable[Iterable[str]] = ()) -> tuple[Row, ...]:
    """The rows of both sides' conditions: the vocabulary's keys in its order, then the others sorted; a listed key
    either side states is a row even where the other does not. None where only a date is stated."""
    listed = set(listed)
    keys = ours.keys() | bar.keys()
    if keys <= {"date"} and not listed & keys:  # a date alone: the page says when it was measured already
        return ()
    order = [k for k in VOCABULARY if k in keys] + sorted(keys - set(VOCABULARY))
    rows = []
    for key in order:
        a, b = ours.get(key), bar.get(key)
        differs = (a is not None and b is not None and not same(a, b, equivalent, key)) or \
            (key in listed and (a is None or b is None))
        rows.append(Row(key, a, b, differs, key in listed))
    return tuple(rows)

