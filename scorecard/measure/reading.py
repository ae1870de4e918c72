"""Reading: a result's number read from its evidence, as a Measurement with its interval and provenance.

How a value is selected is selection's job (an RFC 6901 pointer or an RFC 9535 JSONPath query),
how runs reduce to a statistic stats', and whether a formula is a definition formula's; this
module puts them together: a selection, runs, an interval the artifact states (with its level),
or a value derived from named inputs, in the result's unit. Judging it against the bar is
compare's job.

Lazy imports: expr and formula (and algebra through them), for a derived value only: the hook's validate of a
ledger without one does not load them.
"""

from __future__ import annotations

import math
from fractions import Fraction

from collections.abc import Callable
from dataclasses import field

from ..core.structs import slotted
from . import stats, units
from .evidence import Artifact, pointer_to
from ..core.findings import RULES
from ..core.paths import PathProblem
from . import toolread
from .measured import Measurement, Source
from .selection import Loc, Problem, refuse, Refused, check_stated_unit, numbers

GetArtifact = Callable[[str], Artifact]
__all__ = ["Loc", "Measurement", "Problem", "Reading", "Source", "read", "unit_problem"]


@slotted
class Reading:
    """What read() found: the measurement (None when it cannot be had) and every problem on the way."""

    measurement: Measurement | None
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        """The problems that stop the value from being used."""
        return [p for p in self.problems if RULES[p.code].severity == "error"]


def _artifact(rel: str, get: GetArtifact, loc: Loc) -> Artifact:
    if not rel.startswith("evidence/") or not rel.endswith(".json"):
        raise refuse("SC303", loc, f"evidence '{rel}' is not a .json file under evidence/",
                     "move the artifact to evidence/ and cite it as evidence/<name>.json")
    try:
        art = get(rel)
    except PathProblem as exc:
        raise refuse(exc.code, loc, exc.message, exc.hint) from None
    if art.error == "missing":
        raise refuse("SC304", loc, f"evidence file '{rel}' does not exist",
                     "commit the artifact, or fix the path (it is relative to the ledger root)")
    if art.error:
        raise refuse("SC305", loc, f"evidence file '{rel}' is {art.error}",
                     "regenerate the artifact as strict JSON (NaN and Infinity are not JSON; use null)")
    return art


def _selector(spec, loc: Loc) -> tuple[str, str, Loc]:
    """(kind, selector, its loc) of a mapping with exactly one of pointer: and path:."""
    if spec.pointer is not None and spec.path is not None:
        raise refuse("SC208", loc + ("path",), "give either pointer: or path:, not both",
                     "keep the JSON pointer (/a/0/b) or the JSONPath query ($.a[0].b), and remove the other")
    found = _kind(spec)
    if found is None:
        raise refuse("SC208", loc, "a selection needs pointer: (RFC 6901) or path: (RFC 9535 JSONPath)",
                     "add pointer: /path/to/value, or path: $.query.to.value")
    kind, selector = found
    return kind, selector, loc + (kind,)


def _source(spec, get: GetArtifact, loc: Loc, evidence: str, name: str | None = None,
            unit: str | None = None, alpha: Fraction = stats.ALPHA) -> Source:
    art = _artifact(evidence, get, loc + ("evidence",))
    if getattr(spec, "format", None) is not None:
        return toolread.source(spec, art, get, loc, name, unit, alpha)
    kind, selector, sel_loc = _selector(spec, loc)
    try:
        values, runs, where = numbers(art, kind, selector, sel_loc)
    except Refused as exc:
        statistic = toolread.a_tools_statistic(exc, art, kind, selector)
        if statistic is None:
            raise toolread.told(exc, art, kind, selector) from None
        values, runs, where = statistic[1], False, [statistic[0]]  # asv's columns look like repetitions
    toolread.check_recognised(art, where, unit, loc, selector, sel_loc)
    check_stated_unit(art, where, unit, loc, selector)
    stat = getattr(spec, "stat", None) or "median"
    hidden = toolread.behind(art, where[0], unit, loc, sel_loc, selector) if not runs else None
    places, failures = tuple(where), 0
    if hidden is not None:  # a tool's statistic whose runs are in the file: judged with them, as that statistic
        toolread.same_stat(getattr(spec, "stat", None), hidden[0], loc, selector)
        stat, values, places, failures = hidden
        runs = True
    summary = stats.summarise(values, stat, alpha, failures) if runs else None
    if summary is not None and not all(math.isfinite(v) for v in (summary.value, summary.low or 0, summary.high or 0)):
        raise refuse("SC308", sel_loc, f"{kind} '{selector}' in {evidence} names runs too large to summarise "
                     "(their spread overflows a double)", "record the runs in a unit that keeps them below 1e300")
    value = summary.value if summary else values[0]
    meta = art.meta if isinstance(art.meta, dict) else {}
    at = selector if kind == "pointer" else pointer_to(where[0])
    warning = toolread.alone_warning(art, where, loc + (kind,), selector) if not runs else None
    return Source(evidence, selector, kind, value, unit, meta, name, summary, at, places, warning=warning)


def selections(result) -> list[tuple[str, str, str]]:
    """(evidence, kind, selector) of every value a result reads: its selection, its bounds, its inputs."""
    specs = [(result.evidence, spec) for spec in (result, result.low, result.high)] if result.evidence else []
    specs += [(spec.evidence, spec) for _, spec in sorted((result.inputs or {}).items())]
    return [(rel, *found) for rel, spec in specs if spec is not None and (found := _kind(spec)) is not None]


def _kind(spec) -> tuple[str, str] | None:
    """(kind, selector) of a mapping's format:, pointer: or path: (in that order), or None when it has none."""
    if getattr(spec, "format", None) is not None:
        return "format", toolread.selector(spec)
    if spec.pointer is not None:
        return "pointer", spec.pointer
    return ("path", spec.path) if spec.path is not None else None


def described(result) -> dict[str, str]:
    """The parts of a result, beside its values, that change what it claims (for the review fingerprint)."""
    out = {"result.unit": result.unit.strip()} if result.unit is not None else {}
    if result.stat is not None:
        out["result.stat"] = result.stat
    if result.expr is not None:
        out["result.expr"] = " ".join(result.expr.split())
    for name, spec in sorted((result.inputs or {}).items()):
        if spec.unit is not None:
            out[f"result.inputs.{name}.unit"] = spec.unit.strip()
        if spec.stat is not None:
            out[f"result.inputs.{name}.stat"] = spec.stat
    return out


def evidence_files(result) -> list[tuple[Loc, str]]:
    """(where in the record, path) of every evidence file a result reads."""
    if result.evidence is not None:
        return [(("result", "evidence"), result.evidence)]
    return [(("result", "inputs", name, "evidence"), spec.evidence)
            for name, spec in sorted((result.inputs or {}).items())]


# --- reading a result ------------------------------------------------------------------------------

def read(result, get: GetArtifact, others: int = 0) -> Reading:
    """The measurement a result names (a selection, runs, an own interval, or an expression); others: the
    intervals outside it that the same verdict rests on (a bar read from sota.result), which widen k."""
    out = Reading(None)
    try:
        out.measurement = _derived(result, get, out, others) if result.expr is not None or \
            result.inputs is not None else _selected(result, get, others)
    except Refused as exc:
        out.problems.append(exc.problem)
    out.problems += [src.warning for src in (out.measurement.sources if out.measurement else ()) if src.warning]
    for where, unit in _units(result):
        problem = unit_problem(where, unit, "the bar's")
        if problem is not None:
            out.problems.append(problem)
    return out


def unit_problem(where: Loc, unit: str, other: str) -> Problem | None:
    """SC509 for a unit that carries a typed factor, SC508 for one scorecard does not know, else None."""
    parsed = units.parse(unit)
    if parsed.problem is not None:
        return Problem("SC509", where, f"unit '{unit.strip()}' is refused: {parsed.problem}",
                       "write the unit the artifact's number is in (ms, s, tok/s, USD/1M tokens); a factor belongs "
                       "in the measurement, and a word the tool does not know can be written in braces ({iter}/s)")
    if not parsed.known:
        return Problem("SC508", where, f"unit '{unit}' is not one scorecard knows; it compares only with a unit "
                       "spelled exactly the same",
                       "use a unit such as ms, s, MB/s, tok/s, Wh/token, x or % (docs/format.md lists them), write a "
                       f"count unit of your own in braces ({{iter}}/s), or keep {other} exact spelling")
    return None


def _units(result) -> list[tuple[Loc, str]]:
    found: list[tuple[Loc, str]] = [(("result", "unit"), result.unit)] if result.unit is not None else []
    for name, spec in sorted((result.inputs or {}).items()):
        if spec.unit is not None:
            found.append((("result", "inputs", name, "unit"), spec.unit))
    return found


def intervals(m: Measurement) -> int:
    """How many intervals a measurement's verdict rests on: its inputs' for a formula, else 0 or 1."""
    if m.expr is not None:
        return sum(1 for src in m.sources if src.summary is not None and src.summary.has_interval)
    return 1 if m.interval_from or m.missing_end is not None or (m.summary is not None and m.summary.has_interval) \
        else 0


def _selected(result, get: GetArtifact, others: int = 0) -> Measurement:
    loc = ("result",)
    for key in ("inputs",):
        if getattr(result, key) is not None:
            raise refuse("SC208", loc + (key,), "inputs: belongs to a derived value, which needs expr:",
                         "add expr: over the inputs' names, or remove inputs:")
    if result.evidence is None:
        raise refuse("SC208", loc, "a result needs evidence: with pointer: or path:, or expr: with inputs:",
                     "add evidence: evidence/<file>.json and pointer: /path/to/value")
    src = _source(result, get, loc, result.evidence, unit=result.unit, alpha=stats.ALPHA / (1 + others))
    if (result.low is None) != (result.high is None):
        missing = "high" if result.high is None else "low"
        raise refuse("SC313", loc + ("low" if result.low is not None else "high",),
                     f"an interval needs both low: and high:; {missing}: is missing",
                     f"add {missing}: {{pointer: ...}} naming the other end of the artifact's interval")
    if result.low is None:
        if result.level is not None:
            raise refuse("SC320", loc + ("level",), "level: states the confidence of an interval the artifact "
                         "reports, but there is no low: and high:", "remove level:, or add low: and high:")
        if src.summary is None:
            return Measurement(src.value, src.unit or result.unit, (src,))
        s = src.summary
        return Measurement(s.value, src.unit or result.unit, (src,), s, s.low, s.high, "ci" if s.has_interval else "",
                           level=s.level, needs_low=s.needs_low, needs_high=s.needs_high)
    return _with_interval(result, get, src, others)


def check_level(level: float | None, loc: Loc, k: int) -> float:
    """An artifact's interval is used only at a stated level of at least 1 - 0.05/k (k intervals in the verdict)."""
    need = 1 - stats.ALPHA / k
    if level is None:
        raise refuse("SC320", loc + ("low",), "low: and high: name an interval without its confidence level",
                     f"add level: with the confidence the tool states for it (asv's is 0.99); a verdict needs at "
                     f"least {float(need):.4g}")
    if Fraction(repr(level)) < need:
        raise refuse("SC320", loc + ("level",), f"the interval is stated at {level:.4g}; a verdict that rests on "
                     f"{k} interval{'s' if k > 1 else ''} needs each at {float(need):.4g} or more",
                     "use an interval the artifact states at that level, or select the runs and let scorecard "
                     "compute the interval")
    return level


def _with_interval(result, get: GetArtifact, src: Source, others: int = 0) -> Measurement:
    """A single number with the interval the artifact gives for it (low: and high:)."""
    loc = ("result",)
    if src.summary is not None:
        raise refuse("SC313", loc + ("low",), "low: and high: name an interval for a single number, but the "
                     f"result selects {src.summary.n} runs (their interval is computed)",
                     "remove low: and high:, or select the single value the interval belongs to")
    art = get(result.evidence)
    ends = []
    for key in ("low", "high"):
        bound = getattr(result, key)
        kind, selector, sel_loc = _selector(bound, loc + (key,))
        values, runs, where = numbers(art, kind, selector, sel_loc, bound=True)
        if runs:
            raise refuse("SC313", sel_loc, f"{key}: selects {len(values)} numbers, not one",
                         "select the single number that bounds the interval")
        toolread.check_bound(art, src.places[0] if src.places else (), key, where[0], sel_loc)
        ends.append(values[0])
    low, high = ends
    level = check_level(result.level, loc, 1 + others)
    if not low <= src.value <= high:
        raise refuse("SC313", loc + ("low",),
                     f"the interval {low:g}–{high:g} does not contain the value {src.value:g}",
                     "check that low: and high: name the lower and upper bound of this value's interval")
    return Measurement(src.value, result.unit, (src,), None, low, high, "artifact", level=level)


def _derived(result, get: GetArtifact, out: Reading, others: int = 0) -> Measurement:
    from . import expr as expressions
    from .formula import LITERAL_HINT, check_definition, check_inputs, check_shape

    check_shape(result)
    loc = ("result",)
    try:
        tree = expressions.parse(result.expr)
    except expressions.LiteralError as exc:
        raise refuse("SC316", loc + ("expr",), f"expr '{result.expr.strip()}': {exc}", LITERAL_HINT) from None
    except expressions.ExprError as exc:
        raise refuse("SC314", loc + ("expr",), f"expr '{result.expr.strip()}': {exc}",
                     "use + - * /, parentheses, mean(a, b) and the names under inputs:") from None
    used = expressions.names(tree)
    check_inputs(result, used, out.problems)
    check_definition(tree, result.expr.strip())
    sources = _input_sources(result, used, get, others)
    quantities = {src.name: expressions.Quantity.of(src.value, units.parse(src.unit)) for src in sources
                  if src.name is not None}
    try:
        value = expressions.evaluate(tree, quantities)
    except expressions.ExprError as exc:
        raise refuse("SC314", loc + ("expr",), f"expr '{result.expr.strip()}': {exc}",
                     "check the inputs' values and units") from None
    text = " ".join(result.expr.split())
    with_interval = [src for src in sources if src.summary is not None and src.summary.has_interval]
    if not with_interval:
        return Measurement(_in_result_unit(result, value), result.unit, tuple(sources), expr=text)
    return _derived_interval(result, tree, value, sources, with_interval, text)


def _input_sources(result, used: list[str], get: GetArtifact, others: int = 0) -> list[Source]:
    """Each input read, its runs summarised at 1 - 0.05/k, k the inputs whose runs give an interval."""
    loc = ("result",)

    def read_all(alpha: Fraction) -> list[Source]:
        return [_source(result.inputs[name], get, loc + ("inputs", name), result.inputs[name].evidence, name,
                        result.inputs[name].unit, alpha) for name in used]

    sources = read_all(stats.ALPHA)
    k = sum(1 for src in sources if src.summary is not None and src.summary.has_interval)
    if k and k + others > 1:
        sources = read_all(stats.ALPHA / (k + others))
    seen: dict[tuple[str, tuple[tuple[str | int, ...], ...]], str] = {}
    for src in sources:
        place = (src.evidence, src.places)
        if place in seen:
            raise refuse("SC317", loc + ("inputs", str(src.name)), f"inputs '{seen[place]}' and '{src.name}' read "
                         f"the same values ({src.cited}): they are one input",
                         f"use {seen[place]} for both in expr:, and remove {src.name}")
        seen[place] = str(src.name)
    _same_field_same_unit(sources)
    return sources


def field_clash(sources: list[Source]) -> tuple[Source, Source, str] | None:
    """(one, other, field) where two sources read a field of the same name (ours/peak_tok_s, theirs/peak_tok_s) in
    units that are not one unit: the same quantity typed two ways would put a factor between them."""
    by_field: dict[str, Source] = {}
    for src in sources:
        keys = [part for part in (src.places[0] if src.places else ()) if isinstance(part, str)]
        if not keys:
            continue
        other = by_field.setdefault(keys[-1], src)
        if other is not src and not units.same(units.with_count_words(other.unit or "x"),
                                               units.with_count_words(src.unit or "x")):
            return other, src, keys[-1]
    return None


def _same_field_same_unit(sources: list[Source]) -> None:
    """SC511 when two inputs read one field in different units (field_clash)."""
    clash = field_clash(sources)
    if clash is not None:
        other, src, field_name = clash
        raise refuse("SC511", ("result", "inputs", str(src.name), "unit"), f"inputs '{other.name}' and "
                     f"'{src.name}' read the same field '{field_name}' in different units ({other.unit} and "
                     f"{src.unit})", f"give both the unit the artifact's '{field_name}' is in")


def _derived_interval(result, tree, value, sources: list[Source], with_interval: list[Source],
                      text: str) -> Measurement:
    """A derived value with the interval its inputs' intervals give it through the formula."""
    from . import expr as expressions

    ends = {}
    for src in sources:
        factor = units.parse(src.unit or "x").factor
        s = src.summary
        low, high = ((s.low, s.high) if s is not None and s.has_interval else (src.value, src.value))
        ends[str(src.name)] = (-math.inf if low is None else low * factor, math.inf if high is None else high * factor)
    low, high = expressions.evaluate_interval(tree, ends)
    target = units.parse(result.unit).factor
    counts = [n for src in with_interval if src.summary is not None
              for n in (src.summary.needs_low, src.summary.needs_high) if n is not None]
    needs = max(counts, default=None)
    level = with_interval[0].summary.level if with_interval[0].summary else stats.LEVEL
    return Measurement(_in_result_unit(result, value), result.unit, tuple(sources), expr=text,
                       low=None if math.isinf(low) else math.nextafter(low / target, -math.inf),
                       high=None if math.isinf(high) else math.nextafter(high / target, math.inf),
                       interval_from="ci", level=level,
                       needs_low=needs if math.isinf(low) else None, needs_high=needs if math.isinf(high) else None)


def _in_result_unit(result, value) -> float:
    """An expression's quantity as a number in result.unit (every input states its unit)."""
    target = units.parse(result.unit)
    if value.dims != target.dims:
        raise refuse("SC314", ("result", "unit"), f"expr '{result.expr.strip()}' gives a value whose unit cannot "
                     f"be expressed in {result.unit}", "make result.unit the unit the inputs' units combine to "
                     "(tok/s ÷ tok/s is x)")
    return value.value / target.factor
