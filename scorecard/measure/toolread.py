"""Reading by a tool's own words (`format:`, `benchmark:`, `metric:`, `stat:`), and a pointer or path into a file
a tool's signature recognises, judged by the same semantics: its failed runs, its units, its short form.

Lazy import: jsonquery, for a path: query only (the hook's validate of a ledger without one does not load it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from fractions import Fraction

from . import stats, tools, units
from ..core.findings import kind_of
from ..core.paths import PathProblem
from .evidence import Artifact, JsonValue, is_number, pointer_to
from .measured import Source
from .selection import Loc, Problem, Refused, Where, key_words, refuse, value_at
from . import evidence
from .evidence import PointerError, parse_pointer
from .like import named, same, word_stat

GetArtifact = Callable[[str], Artifact]


def selector(spec) -> str:
    """A format selection as one text, for fingerprints, diffs and citations (parsed back by places())."""
    return json.dumps({"format": spec.format, "benchmark": spec.benchmark, "metric": spec.metric,
                       "stat": spec.stat or "median"}, sort_keys=True, ensure_ascii=False)


def described(spec) -> str:
    """A format selection in words, for messages: pytest-benchmark 'test_dumps' (time)."""
    parts = [spec.format] + ([repr(spec.benchmark)] if spec.benchmark is not None else [])
    return " ".join(parts) + (f" ({spec.metric})" if spec.metric is not None else "")


def entry_words(spec) -> str:
    """Which entry of the tool's output a format selection reads, in words: benchmark 'x', metric y."""
    parts = ([f"benchmark {spec.benchmark!r}"] if spec.benchmark is not None else []) + \
        ([f"metric {spec.metric}"] if spec.metric is not None else [])
    return ", ".join(parts) or "its only benchmark"


def _picked(data: JsonValue, text: str) -> tools.Picked | None:
    spec = json.loads(text)
    req = tools.Request(spec["benchmark"], spec["metric"], spec["stat"], (), "", lambda _rel: None)
    try:
        return tools.pick(spec["format"], data, req)
    except Refused:
        return None


def places(data: JsonValue, text: str) -> list[Where]:
    """Where the values a format selection (as selector() wrote it) sit; [] when it no longer reads."""
    picked = _picked(data, text)
    return list(picked.where) if picked is not None else []


def sibling(get: GetArtifact) -> tools.Sibling:
    """A tool's reader of a file beside its output (asv's benchmarks.json): its data, or None where it cannot be
    read (a path it may not read states no unit: the typed one stands)."""
    def read(rel: str) -> JsonValue | None:
        try:
            art = get(rel)
        except (PathProblem, OSError):  # a path it may not read states no unit: the typed one stands
            return None
        return None if art.error else art.data
    return read


def source(spec, art: Artifact, get: GetArtifact, loc: Loc, name: str | None, unit: str | None,
           alpha: Fraction) -> Source:
    """The selection a format names, its runs summarised (or the tool's statistic), in the typed unit or the
    tool's."""
    for key in ("pointer", "path"):
        if getattr(spec, key) is not None:
            raise refuse("SC208", loc + (key,), f"format: {spec.format} selects by the tool's own words; {key}: "
                         "cannot be given beside it", f"remove {key}:, and name the entry with benchmark: (and "
                         "metric: where the tool writes several)")
    req = tools.Request(spec.benchmark, spec.metric, spec.stat or "median", loc, art.rel, sibling(get))
    picked = tools.pick(spec.format, art.data, req)
    values = _numbers(art, picked, described(spec), loc + ("format",))
    try:
        shown, values = _in_unit(f"{described(spec)} in {art.rel}", picked, values, unit, loc)
    except OverflowError:
        raise refuse("SC308", loc + ("unit",), f"{described(spec)} in {art.rel}: the runs overflow a double in "
                     f"{unit}", "show the value in a larger unit (or the tool's own)") from None
    summary = stats.summarise(values, spec.stat or "median", alpha, picked.failures) if picked.runs else None
    if summary is not None and not all(math.isfinite(v) for v in (summary.value, summary.low or 0,
                                                                  summary.high or 0)):
        raise refuse("SC308", loc + ("format",), f"{described(spec)} in {art.rel}: runs too large to summarise",
                     "record the runs in a unit that keeps them below 1e300")
    meta = art.meta if isinstance(art.meta, dict) else {}
    at = pointer_to(picked.where[0])
    if picked.runs and len({where[:-1] for where in picked.where}) == 1:
        at = at.rsplit("/", 1)[0]  # the one array the runs are in (else the first run: they are spread over entries)
    warning = Problem("SC324", loc + ("format",), f"{described(spec)} in {art.rel}: {picked.alone}",
                      "rerun the benchmark until every request succeeds to judge the claim with its runs' interval") \
        if picked.warn else _unit_warning(spec, picked, unit, loc, art.rel)
    return Source(art.rel, entry_words(spec), "format", summary.value if summary else values[0], shown, meta, name,
                  summary, at, picked.where, spec.format, picked.stat, picked.alone, warning, picked.also)


def _unit_warning(spec, picked: tools.Picked, unit: str | None, loc: Loc, rel: str) -> Problem | None:
    """SC328 where unit: names another unit than the tool states (it converts: else SC511): unit: says what the
    evidence states, display_unit: how it is shown (issue 43 item 5). The value is still shown in unit: meanwhile."""
    if unit is None or picked.unit is None:
        return None
    typed, tool = units.with_count_words(unit), units.with_count_words(picked.unit)
    if typed.problem is not None or not typed.comparable(tool) or units.same(typed, tool):
        return None
    return Problem("SC328", loc + ("unit",), f"unit '{unit.strip()}' is not the unit {described(spec)} in {rel} "
                   f"states ({picked.unit}): unit: says what the evidence states, not how it is shown",
                   f"remove unit: (or write unit: {picked.unit}) and add display_unit: {unit.strip()} at the record's "
                   "top level to show it so")


def _numbers(art: Artifact, picked: tools.Picked, what: str, loc: Loc) -> list[float]:
    """Every value the format picked, each a finite number (a null, a string or a boolean is refused, never
    skipped or coerced)."""
    out = []
    for where in picked.where:
        try:
            found = value_at(art.data, where)
        except (KeyError, IndexError, TypeError, ValueError):
            found = None
        if not is_number(found):
            at = pointer_to(where)
            raise refuse("SC308", loc, f"{what} in {art.rel}: {at} is "
                         f"{kind_of(found, json=True)}, not a finite number",
                         "cite the tool's output as it wrote it: every run is a number")
        out.append(float(found))
    return out


def _in_unit(what: str, picked: tools.Picked, values: list[float], unit: str | None,
             loc: Loc) -> tuple[str, list[float]]:
    """The unit shown (typed, else the tool's) and the values converted to it from the tool's."""
    if unit is None:
        if picked.unit is None:
            raise refuse("SC511", loc + ("format",), f"{what}: {picked.unit_from}, and no unit: is given",
                         "add unit: with the unit the tool measured it in")
        return picked.unit, values
    if picked.unit is None:
        return unit, values
    typed, tool = units.with_count_words(unit), units.with_count_words(picked.unit)
    if typed.problem is not None or not typed.comparable(tool):
        raise refuse("SC511", loc + ("unit",), f"unit '{unit.strip()}' does not convert from the tool's: "
                     f"{what} is in {picked.unit} ({picked.unit_from})",
                     f"write unit: {picked.unit}, a unit it converts to, or leave unit: out")
    if typed.factor == tool.factor:
        return unit, values
    scale = Fraction(repr(tool.factor)) / Fraction(repr(typed.factor))
    return unit, [float(Fraction(repr(v)) * scale) for v in values]


def behind(art: Artifact, where: Where, unit: str | None, loc: Loc, sel_loc: Loc,
           selector_text: str) -> tuple[str, list[float], tuple[Where, ...], int] | None:
    """(statistic, the runs in the typed unit, their places, the failed requests beside them) where a pointer or path
    names a tool's statistic whose runs are in the file: the claim is then judged with those runs (one quantity, one
    verdict)."""
    try:
        found = tools.behind(art.data, where)
    except tools.Inconsistent as exc:
        raise refuse(exc.code, sel_loc, f"'{selector_text}' in {art.rel}: {exc.message}",
                     with_short_form(art.data, where, exc.hint)) from None
    if found is None:
        return None
    stat, picked = found
    values = _numbers(art, picked, f"the runs behind '{selector_text}'", sel_loc)
    try:
        _, values = _in_unit(f"the runs behind '{selector_text}' in {art.rel}", picked, values, unit, loc)
    except OverflowError:
        raise refuse("SC308", loc + ("unit",), f"the runs behind '{selector_text}' in {art.rel} overflow a double "
                     f"in {unit}", "show the value in a larger unit") from None
    return stat, values, picked.where, picked.failures


def same_stat(typed: str | None, tools_stat: str, loc: Loc, selector_text: str) -> None:
    """SC321 where stat: asks for another statistic than the tool's one a pointer names (it would be ignored)."""
    if typed is not None and not same(typed, tools_stat):
        raise refuse("SC321", loc + ("stat",), f"'{selector_text}' is the tool's {tools_stat}, but stat: asks for the "
                     f"{typed}", f"select the runs and write stat: {typed}, or remove stat: to claim the {tools_stat}")


def alone_warning(art: Artifact, where: list[Where], loc: Loc, selector_text: str) -> Problem | None:
    """SC324 where a pointer names a tool's statistic that stands without its runs for a reason a reader should know
    (a serving run's failed requests)."""
    why = tools.alone_at(art.data, where[0]) if len(where) == 1 else None
    if why is None:
        return None
    return Problem("SC324", loc, f"'{selector_text}' in {art.rel}: {why}", with_short_form(
        art.data, where[0], "rerun the benchmark until every request succeeds to judge the claim with its runs' "
        "interval"))


def check_recognised(art: Artifact, where: list[Where], unit: str | None, loc: Loc, selector_text: str,
                     sel_loc: Loc) -> None:
    """A pointer or path into a file a tool's signature recognises: only the tool's own numbers (SC323 for a key it
    does not write), no failed run or warm-up read as a measurement (SC323), and the typed unit is the tool's
    (SC511). Each array the selection reaches is judged once, however many runs it selects."""
    fmt = tools.recognised(art)
    if fmt is None:
        return
    pooled = tools.pooled(art.data, where, fmt)
    if pooled is not None:
        raise refuse("SC319", sel_loc, f"'{selector_text}' in {art.rel} {pooled}: runs are taken as the tool wrote "
                     "them", with_short_form(art.data, where[0], "select one entry's runs"))
    partial = tools.partly(art.data, where, fmt)
    if partial is not None:
        raise refuse("SC319", sel_loc, f"'{selector_text}' in {art.rel} {partial}: runs are taken as the tool wrote "
                     "them", with_short_form(art.data, where[0], "select every run"))
    seen: set[Where] = set()
    for place in where:
        if place[:-1] in seen:
            continue
        seen.add(place[:-1])
        wrong = ("meta is the ledger's note beside the tool's output, not the tool's measurement"
                 if place[:1] == ("meta",) else None) or tools.unknown_at(art.data, place, fmt) or \
            tools.failed_at(art.data, place, fmt)
        if wrong is not None:
            raise refuse("SC323", sel_loc, f"'{selector_text}' in {art.rel}: {wrong}", with_short_form(
                art.data, place, "select what the tool measured, as it wrote it"))
        stated = tools.stated_unit(art.data, place, fmt)
        if stated is None:
            continue
        text, how = stated
        if unit is None or not units.same(units.with_count_words(unit), units.with_count_words(text)):
            said = f"unit '{unit.strip()}' contradicts the tool" if unit is not None else "no unit: is given"
            raise refuse("SC511", loc + (("unit",) if unit is not None else ()), f"{said}: '{selector_text}' in "
                         f"{art.rel} is in {text} ({how})", with_short_form(art.data, place, f"write unit: {text}"))


def check_bound(art: Artifact, value_at: Where, key: str, bound_at: Where, sel_loc: Loc) -> None:
    """In a recognised file, low: and high: are the interval the tool writes for the value (asv's 99 % interval),
    never another of its numbers (a spread, a total, another entry's statistic): SC313."""
    fmt = tools.recognise(art.data)
    if fmt is None:
        _check_named_end(art, value_at, key, bound_at, sel_loc)
        return
    ends = tools.interval_at(art.data, value_at, fmt)
    if ends is None:
        raise refuse("SC313", sel_loc, f"{key}: in {art.rel}: {fmt.NAME} writes no interval for this value",
                     with_short_form(art.data, value_at, "remove low: and high:, and select the runs: their "
                                     "interval is computed"))
    want = ends[0] if key == "low" else ends[1]
    if bound_at != want:
        raise refuse("SC313", sel_loc, f"{key}: in {art.rel} is not the end of the interval {fmt.NAME} writes for "
                     f"this value", f"write {key}: {{pointer: {pointer_to(want)}}}")


INTERVAL_WORDS = frozenset({"ci", "low", "high", "lower", "upper", "lo", "hi", "bound", "bounds", "interval"})


def _check_named_end(art: Artifact, value_at: Where, key: str, bound_at: Where, sel_loc: Loc) -> None:
    """In a file no tool wrote, an interval end is an interval end (issue 41): the last key (or its parent, for an
    array index) names one (ci, low/high, lower/upper, lo/hi, bound), and no key on the path names another statistic
    than the value's (q1 and q3 as a '99 % interval' made a spread read as certainty): SC313."""
    keys = [k for k in bound_at if isinstance(k, str)]
    last = bound_at[-1] if bound_at and isinstance(bound_at[-1], str) else (keys[-1] if keys else "")
    if not any(w in INTERVAL_WORDS or (w.startswith("ci") and w[2:].isdigit()) for w in key_words(last)):
        raise refuse("SC313", sel_loc, f"{key}: '{pointer_to(bound_at)}' in {art.rel} is not named as an interval "
                     "end (its key says none of ci, low/high, lower/upper, lo/hi, bound)",
                     "select the interval the artifact states for this value (a key such as ci_low or lower_bound), "
                     "or remove low: and high: and select the runs: their interval is computed")
    own = named(art.data, value_at) if value_at else None
    for k in keys:
        for word in key_words(k):
            stat = word_stat(word)
            if stat is not None and stat not in (own, "median" if own is None else own) and not same(stat, own or ""):
                raise refuse("SC313", sel_loc, f"{key}: '{pointer_to(bound_at)}' in {art.rel} names another "
                             f"statistic ({word}) than the value's ({own or 'none named'}): not its interval",
                             "select the end of this value's own interval")


def with_short_form(data: JsonValue, place: Where, hint: str) -> str:
    """A hint, and the format: form that reads the same entry where a tool's signature recognises the file."""
    form = tools.short_form(data, place)
    return f"{hint}; or read it in the tool's own words: {form}" if form else hint


def told(exc: Refused, art: Artifact, kind: str, selector_text: str) -> Refused:
    """A refusal of a pointer or path into a recognised file, its hint naming the tool's own form."""
    fmt = tools.recognise(art.data) if exc.problem.code in ("SC319", "SC307", "SC312", "SC308") else None
    if fmt is None:
        return exc
    place = _first_place(art.data, kind, selector_text)
    problem = exc.problem
    failed = tools.failed_at(art.data, place, fmt) if place else None
    if failed is not None:  # a warm-up or a failed run picked out: that is what is wrong with it
        return refuse("SC323", problem.loc, f"'{selector_text}' in {art.rel}: {failed}",
                      with_short_form(art.data, place, "select what the tool measured"))
    form = tools.short_form(art.data, place) or f"format: {fmt.NAME}, benchmark: <its name>"
    return Refused(type(problem)(problem.code, problem.loc, problem.message,
                                 f"{problem.hint}; or read it in the tool's own words: {form}"))


def a_tools_statistic(exc: Refused, art: Artifact, kind: str,
                      selector_text: str) -> tuple[Where, list[float]] | None:
    """Where a selection refused as one run picked out of several (SC319) names a statistic a recognised tool
    computed (asv's result column beside its other columns): its place and value, read with its runs where the
    file holds them, else alone as that statistic."""
    if exc.problem.code != "SC319":
        return None
    found = _places(art.data, kind, selector_text)
    if len(found) != 1 or not found[0]:
        return None  # a selection of several values is judged as what it selects
    number = value_at(art.data, found[0])
    if tools.behind(art.data, found[0]) is None and (tools.statistic_at(art.data, found[0]) is None or
                                                     not is_number(number)):
        return None
    return found[0], [float(number)] if is_number(number) else []  # else its runs are read below


def _first_place(data: JsonValue, kind: str, selector_text: str) -> Where:
    found = _places(data, kind, selector_text)
    return found[0] if found else ()


def _places(data: JsonValue, kind: str, selector_text: str) -> list[Where]:
    """Where each value a pointer or path names sits (array indexes as ints); [] when it names none."""
    from .jsonquery import QueryError

    try:
        pointers = evidence.located(data, kind, selector_text)
        return [tuple(int(t) if t.isdigit() else t for t in parse_pointer(p)) for p in pointers]
    except (PointerError, QueryError, ValueError, RecursionError):
        return []


def located(data: JsonValue, kind: str, selector_text: str) -> list[str]:
    """The JSON pointers of the values a selection names: a format's (by the tool's words), a pointer's or a path's."""
    if kind != "format":
        return evidence.located(data, kind, selector_text)
    return [pointer_to(where) for where in places(data, selector_text)]


def cited_value(data: JsonValue, kind: str, selector_text: str) -> JsonValue:
    """What a selection cites, for fingerprints: the value, or the list of values a query or a format selects."""
    if kind != "format":
        return evidence.cited_value(data, kind, selector_text)
    picked = _picked(data, selector_text)  # the values, and the unit the tool states for them (time_unit may change)
    return {"unit": picked.unit, "values": [value_at(data, where) for where in picked.where]} if picked else []
