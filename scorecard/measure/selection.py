"""Selecting numbers in an artifact: an RFC 6901 pointer or an RFC 9535 JSONPath query, where each selected
value sits, and the unit the artifact states for it. Problems are values (a rule code at a place in the record).

Lazy import: jsonquery, for a path: query only (the hook's validate of a ledger without one does not load it).
"""

from __future__ import annotations



from ..core.patterns import lazy
from ..core.structs import frozen
from . import units
from .evidence import Artifact, JsonValue, PointerError, is_number, parse_pointer, resolve_pointer
from ..core.findings import kind_of

Loc = tuple[str | int, ...]  # a position inside the record, e.g. ("result", "inputs", "ours", "path")


@frozen
class Problem:
    """Why a value cannot be read or trusted: a rule code at a place in the record."""

    code: str
    loc: Loc
    message: str
    hint: str


class Refused(Exception):
    """A value that cannot be read or trusted, carrying the problem that says why."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


def refuse(code: str, loc: Loc, message: str, hint: str) -> Refused:
    """The exception to raise for a problem found while reading."""
    return Refused(Problem(code, loc, message, hint))


Where = tuple[str | int, ...]  # a value's place in an artifact: the tokens of its JSON pointer


def numbers(art: Artifact, kind: str, selector: str, loc: Loc, bound: bool = False) -> tuple[list[float], bool,
                                                                                              list[Where]]:
    """(numbers, whether they are runs, where each selected value is) a selection names in art; refused with the
    query and what it found.

    An array of numbers, or a query selecting several numbers, is a set of runs; anything else is one number.
    """
    rel = art.rel
    if kind == "pointer":
        try:
            found = [resolve_pointer(art.data, selector)]
            where: list[Where] = [_indexed(art.data, parse_pointer(selector))]
        except PointerError as exc:
            code = "SC306" if exc.syntax else "SC307"
            hint = ("write an RFC 6901 pointer such as /runs/peak/ratio (escape '~' as ~0 and '/' as ~1)" if exc.syntax
                    else f"point at a number that exists in {rel}")
            raise refuse(code, loc, f"pointer '{selector}' in {rel}: {exc.message}", hint) from None
    else:
        found, where = _query(art, selector, loc)
    if len(found) == 1 and isinstance(found[0], list):
        runs = found[0]
        if not runs:
            raise refuse("SC308", loc, f"{kind} '{selector}' in {rel} names an empty array: no runs to summarise",
                         "point at an array with at least one number, or at the number itself")
        bad = next((i for i, v in enumerate(runs) if not is_number(v)), None)
        if bad is not None:
            raise refuse("SC308", loc, f"{kind} '{selector}' in {rel} names an array whose item {bad} is "
                         f"{kind_of(runs[bad], json=True)}, not a finite number",
                         "an array of runs must hold only numbers (one per run)")
        return [float(v) for v in runs if is_number(v)], True, where  # every one is (bad is None)
    bad = next((i for i, v in enumerate(found) if not is_number(v)), None)
    if bad is not None:
        what = kind_of(found[bad], json=True)
        many = f"selects {len(found)} values; value {bad} is {what}" if len(found) > 1 else f"names {what}"
        raise refuse("SC308", loc, f"{kind} '{selector}' in {rel} {many}, not a finite number",
                     "select the number itself (a boolean, string, null or object is not a measurement)")
    if not bound:  # an interval's end is one number the artifact reports, not a run
        check_runs(art.data, where, loc, selector, rel)
    return [float(v) for v in found if is_number(v)], len(found) > 1, where  # every one is


def _query(art: Artifact, query: str, loc: Loc) -> tuple[list[JsonValue], list[Where]]:
    from .jsonquery import QueryError, find

    try:
        nodes = find(query, art.data)
    except QueryError as exc:
        raise refuse("SC311", loc, f"path '{query}': {exc.message}", _QUERY_HINTS[exc.kind]) from None
    if not nodes:
        raise refuse("SC312", loc, f"path '{query}' selects nothing in {art.rel}",
                     f"check the names and indexes in the query against {art.rel}")
    return [value for value, _ in nodes], [where for _, where in nodes]


_QUERY_HINTS = {
    "syntax": "start with $ and filter with [?@.name == 'x'], e.g. $.benchmarks[?@.name == 'test_x'].stats.median",
    "size": "name the members on the way instead of searching with .., or point at the value with pointer:",
    "budget": "select the value with a simpler query (names instead of .. or regular expressions), or point at it "
              "with pointer:",
    "depth": "point at the value with pointer:, or name the members on the way instead of searching with ..",
    "run": "point at values with pointer: (or simpler queries): the ledger's path: queries together ran past the "
           "run's budget",
}


def value_at(data: JsonValue, where: Where) -> JsonValue:
    node = data
    for part in where:
        node = node[int(part)] if isinstance(node, list) else node[part]  # type: ignore[index]  # resolved before
    return node


def _indexed(data: JsonValue, tokens: list[str]) -> Where:
    """A pointer's tokens with array indexes as ints, like a query's locations."""
    out: list[str | int] = []
    node = data
    for token in tokens:
        if isinstance(node, list):
            out.append(int(token))
            node = node[int(token)]
        else:
            out.append(token)
            node = node[token]  # type: ignore[index]  # the pointer resolved
    return tuple(out)


# The time unit a key's last word states (latency_ms, latencyMs, "latency (ms)", ttft_msec, wall_seconds). A bare
# "s" is seconds only after a word that is not itself counted per second (tok_s and B_s are rates).
KEY_UNITS = {"ns": "ns", "nsec": "ns", "nanos": "ns", "us": "us", "µs": "µs", "μs": "µs", "usec": "us",
             "micros": "us", "ms": "ms", "msec": "ms", "millis": "ms", "sec": "s", "secs": "s", "seconds": "s"}
_RATE_WORDS = {"tok", "token", "tokens", "req", "request", "requests", "b", "kb", "mb", "gb", "byte", "bytes", "bit",
               "bits", "op", "ops", "iter", "iters", "item", "items", "sample", "samples", "frame", "frames", "flops",
               "q", "queries", "rows", "msg", "msgs", "per"}
_WORDS = lazy(r"[A-Za-z]?[0-9]+|[A-Z]?[a-zµμ]+|[A-Z]+(?![a-z])")


def key_words(key: str) -> list[str]:
    """A key's words, lowercased: latency_ms, latencyMs, "latency (ms)" and latency-ms are all [latency, ms];
    p99_ttft_ms is [p99, ttft, ms] (a letter before digits stays with them)."""
    return [w.lower() for w in _WORDS.findall(key)]


def _key_unit(key: str) -> str | None:
    words = key_words(key)
    if not words:
        return None
    if words[-1] in KEY_UNITS:
        return KEY_UNITS[words[-1]]
    if words[-1] == "s" and len(words) > 1 and words[-2] not in _RATE_WORDS:
        return "s"
    return None


def stated_unit(data: JsonValue, where: Where) -> tuple[str, str] | None:
    """(unit, how it is stated) where the artifact states the unit of the value at where, nearest first: a `unit`
    member of an object that holds it, or a key on its path whose last word is a time unit (latency_ms, latencyMs,
    "latency (ms)", latency_sec). A run inside an array is stated by the array's key and object."""
    place = where
    while place:
        if isinstance(place[-1], int):
            place = place[:-1]  # one element of an array: the array is what has a key
            continue
        key, parent = place[-1], value_at(data, place[:-1])
        stated = parent.get("unit") if isinstance(parent, dict) else None
        if isinstance(stated, str) and key != "unit":
            return stated, f"the \"unit\" member of {_name(place[:-1])}"
        found = _key_unit(key)
        if found is not None:
            return found, f"the key '{key}'"
        place = place[:-1]
    return None


def check_stated_unit(art: Artifact, where: list[Where], unit: str | None, loc: Loc, selector: str) -> None:
    """SC511 when the typed unit is not the unit the artifact states for the value (compared as units, not by
    spelling; words the tool does not know compare by spelling)."""
    for place in where:
        stated = stated_unit(art.data, place)
        if stated is None:
            continue
        text, how = stated
        if unit is None:
            raise refuse("SC511", loc, f"'{selector}' in {art.rel} is in {text} ({how} says so), and no unit: "
                         "is given", f"add unit: {text}")
        if not units.same(units.with_count_words(unit), units.with_count_words(text)):
            raise refuse("SC511", loc + ("unit",), f"unit '{unit.strip()}' contradicts the artifact: '{selector}' "
                         f"in {art.rel} is in {text} ({how} says so)",
                         f"write unit: {text}, or the same unit spelled another way; the artifact's unit wins")


def check_runs(data: JsonValue, where: list[Where], loc: Loc, selector: str, rel: str) -> None:
    """Runs as written, from one entry (SC319), judged on the places the selection returned, not on its text.

    Each array the selection reaches into with more than one index is either runs (numbers: taken whole, each
    element once) or entries (objects: every one picked agrees on all its string members, and every entry so
    described is picked). A single number that is one element of an array of numbers is a run picked out.
    """
    if len(set(where)) != len(where):
        raise _chosen(loc, selector, rel, "selects the same element more than once")
    if len(where) == 1:
        _check_one_of_repetitions(data, where[0], loc, selector, rel)
        return
    _check_one_place(where, loc, selector, rel)
    picked: dict[Where, set[int]] = {}
    for place in where:
        for k, part in enumerate(place):
            if isinstance(part, int):
                picked.setdefault(place[:k], set()).add(part)
    for array_at, indexes in sorted(picked.items(), key=lambda item: len(item[0])):
        if len(indexes) > 1:
            _check_array(data, array_at, indexes, where, loc, selector, rel)


def _check_one_of_repetitions(data: JsonValue, place: Where, loc: Loc, selector: str, rel: str) -> None:
    """A single value picked out of an array whose other elements are repetitions of it (the same string members,
    the same path below: runs, or repeated entries) is a run chosen, not measured."""
    for k, part in enumerate(place):
        if not isinstance(part, int):
            continue
        array = value_at(data, place[:k])
        if not isinstance(array, list) or len(array) < 2:
            continue
        rest, signature = place[k + 1:], _signature(array[part])
        like = [i for i, entry in enumerate(array) if _signature(entry) == signature and _has(entry, rest)
                and (rest or is_number(entry))]
        if len(like) > 1:
            what = "runs" if not rest else "repetitions"
            raise _chosen(loc, selector, rel, f"picks one of the {len(like)} {what} in {_name(place[:k])}")


def _check_one_place(where: list[Where], loc: Loc, selector: str, rel: str) -> None:
    """Runs found under different members of an object ($..runs[*] over /a/runs and /b/runs) are pooled from two
    places: selected values may differ in their place only by array indexes (runs, or repetitions of an entry)."""
    first = where[0]
    for place in where[1:]:
        if len(place) != len(first) or any(a != b and not (isinstance(a, int) and isinstance(b, int))
                                           for a, b in zip(place, first, strict=True)):
            raise _chosen(loc, selector, rel, f"pools values from different places ({_name(first)} and "
                          f"{_name(place)})")


def _check_array(data: JsonValue, array_at: Where, indexes: set[int], where: list[Where], loc: Loc, selector: str,
                 rel: str) -> None:
    array = value_at(data, array_at)
    assert isinstance(array, list)
    name = _name(array_at)
    if all(is_number(array[i]) for i in indexes):
        if len(indexes) != len(array):
            raise _chosen(loc, selector, rel, f"picks {len(indexes)} of the {len(array)} runs in {name}")
        return
    signatures = {i: _signature(array[i]) for i in indexes}
    if len(set(signatures.values())) > 1:
        raise _chosen(loc, selector, rel, f"pools {len(indexes)} different entries of {name} (they differ in "
                      f"{_differing(signatures)})")
    depth = len(array_at) + 1
    rests = {place[depth:] for place in where if place[:len(array_at)] == array_at}
    like = {i for i, entry in enumerate(array) if _signature(entry) == signatures[min(indexes)]
            and any(_has(entry, rest) for rest in rests)}
    if like != indexes:
        raise _chosen(loc, selector, rel, f"picks {len(indexes)} of the {len(like)} entries in {name} that are "
                      "repetitions of one measurement")


def _signature(entry: JsonValue) -> tuple[tuple[str, str], ...] | None:
    return tuple(sorted((k, v) for k, v in entry.items() if isinstance(v, str))) if isinstance(entry, dict) else None


def _differing(signatures: dict[int, tuple[tuple[str, str], ...] | None]) -> str:
    keys = {k for sig in signatures.values() for k, _ in (sig or ())}
    differ = sorted(k for k in keys if len({dict(sig or ()).get(k) for sig in signatures.values()}) > 1)
    return ", ".join(differ) or "their shape"


def _has(entry: JsonValue, rest: Where) -> bool:
    node = entry
    for part in rest:
        if isinstance(part, int):
            return isinstance(node, list)
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _name(array_at: Where) -> str:
    return "/" + "/".join(str(p) for p in array_at) if array_at else "the document"


def _chosen(loc: Loc, selector: str, rel: str, what: str) -> Refused:
    return refuse("SC319", loc, f"'{selector}' in {rel} {what}: runs are taken as the artifact wrote them",
                  "select the whole array of runs (pointer: /runs, or path: $.benchmarks[?@.name == 'x'].stats.data) "
                  "and let stat: choose the statistic; its interval says whether the runs support the claim")
