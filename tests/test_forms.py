"""Issue 29's invariant, as properties: no typed number reaches a verdict.

- a unit carries no typed factor (a scale, zero, a power of zero, a bare count, out of range);
- rescaling the artifact's number and its unit together never changes a verdict;
- the tolerance is decided in decimal from the numbers as written, and a zero bar by sign.
"""

from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from scorecard.measure import verdict as verdicts
from scorecard.measure import compare, units
from scorecard.measure.reading import Measurement

STATUSES = ("leads", "parity", "trails")


def verdict(status: str, value: float, unit: str, bar: float, bar_unit: str, better: str, tol: float = 0.05):
    m = Measurement(value, unit, ())
    c = compare.compare(m, SimpleNamespace(value=bar, unit=bar_unit, better=better), tol)
    assert c is not None
    problem = verdicts.judge(status, m, c)
    return None if problem is None else problem.code


# --- units carry no typed factor ---------------------------------------------------------------------

@pytest.mark.parametrize("text", ["0.8 ms", "0 ms", "1e-400 ms", "٠ ms", "ms ١", "1e400 tok/s", "1e400 ms per 1e400",
                                  "s^0", "ms^0", "ms/0", "ms/1k", "ms per 1.5k tokens", "2 ms", "1 ms", "10 s",
                                  "ms per 1e400 tokens", "ms per 1e-400 tokens", "Ps^9*Ps^9*Ps^9", "ps^-9/ps^9/ps^9"])
def test_a_typed_factor_is_refused(text):
    assert units.parse(text).problem is not None, text


@pytest.mark.parametrize(("text", "factor"), [("USD/1M tokens", 1e-6), ("$/1M tokens", 1e-6), ("1/s", 1.0),
                                               ("ms", 1e-3), ("tok/s/GPU", 1.0), ("{iter}/s", 1.0), ("x", 1.0),
                                               ("%", 0.01), ("USD per 1000 requests", 1e-3), ("s^-1", 1.0)])
def test_honest_units_keep_parsing(text, factor):
    u = units.parse(text)
    assert u.problem is None and u.known and u.factor == pytest.approx(factor, rel=1e-15)


def test_a_word_in_braces_is_a_count_unit_comparable_only_with_itself():
    docs, it = units.parse("{documents}/s"), units.parse("{iter}/s")
    assert docs.known and it.known and not docs.comparable(it)
    assert docs.comparable(units.parse("{documents} per second"))
    assert not docs.comparable(units.parse("1/s"))


words = st.sampled_from(["ms", "s", "tok", "req", "USD", "x", "%", "GPU", "{iter}", "B", "per", "/", "*", "^0", "^2",
                         "1M", "1k", "0", "0.8", "1e400", "1e-400", "10", "٠", "²"])


@given(st.lists(words, min_size=1, max_size=6))
def test_no_unit_carries_a_factor_other_than_prefixes_and_counted_powers_of_ten(parts):
    """Whatever is typed, a unit that parses has a finite, non-zero factor, and a number that is not a power of ten,
    or a power of zero, never parses."""
    u = units.parse(" ".join(parts))
    if u.problem is None and u.known:
        assert 1e-290 < u.factor < 1e290
        assert not {"0", "0.8", "1e400", "1e-400", "٠", "^0"} & set(parts)
        assert not (parts[0] in ("1M", "1k", "10") and len(parts) > 1 and parts[1] not in ("/", "per"))


# --- rescaling the artifact and its unit together ---------------------------------------------------

PREFIXED = [("s", 0), ("ms", 3), ("us", 6), ("ns", 9)]


def shifted(mantissa: int, exponent: int) -> float:
    """The number mantissa × 10^exponent, written in decimal and read as an artifact's JSON would be."""
    return float(Decimal(mantissa).scaleb(exponent))


@given(mantissa=st.integers(1, 10 ** 7), exponent=st.integers(-8, 2), bar_mantissa=st.integers(1, 10 ** 7),
       bar_exponent=st.integers(-8, 2), unit=st.sampled_from(PREFIXED), other=st.sampled_from(PREFIXED),
       bar_unit=st.sampled_from(PREFIXED), status=st.sampled_from(STATUSES),
       better=st.sampled_from(["lower", "higher"]))
@example(mantissa=57, exponent=-2, bar_mantissa=570, bar_exponent=0, unit=("s", 0), other=("ms", 3),
         bar_unit=("ms", 3), status="trails", better="higher")  # 0.57 s is 569.9999999999999 ms in binary
@example(mantissa=105, exponent=-2, bar_mantissa=1, bar_exponent=0, unit=("s", 0), other=("ms", 3),
         bar_unit=("s", 0), status="parity", better="higher")  # exactly at the tolerance, in either unit
def test_rescaling_the_artifact_and_its_unit_together_never_changes_a_verdict(
        mantissa, exponent, bar_mantissa, bar_exponent, unit, other, bar_unit, status, better):
    bar = shifted(bar_mantissa, bar_exponent)
    here = verdict(status, shifted(mantissa, exponent), unit[0], bar, bar_unit[0], better)
    there = verdict(status, shifted(mantissa, exponent + other[1] - unit[1]), other[0], bar, bar_unit[0], better)
    assert here == there


@pytest.mark.parametrize(("value", "unit", "bar", "bar_unit"), [(1.05, "x", 1, "x"), (105, "ms", 100, "ms"),
                                                                (0.105, "s", 100, "ms"), (95, "ms", 0.1, "s"),
                                                                (1.15, "x", 1.1, "x")])
def test_exactly_at_the_tolerance_is_parity_in_any_unit(value, unit, bar, bar_unit):
    """|ratio - 1| <= tolerance, inclusive, in decimal: 1.05 x against 1 x at 5 % is parity as 105 ms is."""
    assert verdict("parity", value, unit, bar, bar_unit, "higher") is None
    assert verdict("leads", value, unit, bar, bar_unit, "higher") in (None, "SC504", "SC501")


@pytest.mark.parametrize(("value", "unit", "status", "code"), [
    (49, "ms", "parity", "SC503"), (0.049, "s", "parity", "SC503"), (49, "ms", "trails", None),
    (0, "ms", "parity", None), (0, "ms", "leads", "SC501"), (-1e-9, "ms", "leads", None),
])
def test_a_zero_bar_compares_by_sign_whatever_its_unit(value, unit, status, code):
    for bar_unit in ("s", "ms", "ns"):
        assert verdict(status, value, unit, 0, bar_unit, "lower") == code, bar_unit


def test_a_comparison_that_overflows_is_not_finite():
    m = Measurement(1e300, "s", ())
    c = compare.compare(m, SimpleNamespace(value=1, unit="ns", better="higher"), 0.05)
    assert c is not None and c.not_finite() is not None
    assert compare.compare(Measurement(1e3, "s", ()), SimpleNamespace(value=1, unit="ns", better="higher"),
                           0.05).not_finite() is None


# --- the artifact's own unit wins ---------------------------------------------------------------------

@pytest.mark.parametrize(("artifact", "typed", "same"), [
    ("ms", "milliseconds", True), ("ms", "us", False), ("ns/iter", "ns/iter", True), ("ns/iter", "ns per iter", True),
    ("ns/iter", "ns/{iter}", True), ("ns/iter", "ps/iter", False), ("ns/iter", "ns/{op}", False),
    ("Percent", "%", True), ("ms", "0.001 s", False), ("µs", "us", True)])
def test_a_typed_unit_is_the_artifacts_unit_compared_as_units(artifact, typed, same):
    assert units.same(units.with_count_words(typed), units.with_count_words(artifact)) is same


@pytest.mark.parametrize(("data", "where", "stated"), [
    ({"p50_ms": 3.0}, ("p50_ms",), "ms"), ({"a": {"v": 1.0, "unit": "s"}}, ("a", "v"), "s"),
    ({"runs_us": [1.0, 2.0]}, ("runs_us", 1), "us"), ({"runs_us": [1.0, 2.0]}, ("runs_us",), "us"),
    ({"r": {"runs": [1.0], "unit": "ns"}}, ("r", "runs", 0), "ns"), ({"items": [3.0]}, ("items", 0), None),
    ({"total_msgs": 3.0}, ("total_msgs",), None), ({"unit": 5, "v": 1.0}, ("v",), None)])
def test_where_the_artifact_states_a_unit(data, where, stated):
    from scorecard.measure.selection import stated_unit

    found = stated_unit(data, where)
    assert (found[0] if found else None) == stated


# --- formulas: no typed numbers, no hidden factor ---------------------------------------------------

def definition(text: str) -> str | None:
    """None when the formula is accepted as a definition, else the refusal's code."""
    from scorecard.measure import expr
    from scorecard.measure.formula import check_definition
    from scorecard.measure.selection import Refused

    try:
        check_definition(expr.parse(text), text)
    except expr.ExprError:
        return "literal"
    except Refused as exc:
        return exc.problem.code
    return None


@pytest.mark.parametrize("text", ["q * 0 + 4", "q - q + 4", "(q + 1e301) - 1e301 + 4", "4", "q * 0.02", "q / 50",
                                  "q * 1", "q ** 2", "q * q / (q + q)", "q / q * r", "(q + r) - r", "a + a",
                                  "(a + b) * c / ((a + b) + (a + b))", "(a * b - a * c) / (b - c)", "-q", "r - q - r",
                                  "-(a / b)", "mean(a, a)", "mean(a)", "max(a, b)", "mean(a, b=c)"])
def test_formulas_that_scale_ignore_or_negate_their_inputs_are_refused(text):
    assert definition(text) is not None, text


@pytest.mark.parametrize("text", ["a / b", "(theirs - ours) / theirs", "(a + b) / b", "a - b", "mean(a, b)",
                                  "geomean(a, b, c) / d", "a * b / (a + b)", "ours / mean(x, y)", "a * a", "q"])
def test_honest_definitions_are_accepted(text):
    assert definition(text) is None, text


names = st.sampled_from(["a", "b", "c"])


def formulas(depth: int = 3):
    leaf = names
    return st.recursive(leaf, lambda inner: st.tuples(inner, st.sampled_from(["+", "-", "*", "/"]), inner).map(
        lambda t: f"({t[0]} {t[1]} {t[2]})"), max_leaves=6)


@given(formulas())
def test_an_accepted_formula_has_no_hidden_factor(text):
    """Property (b): evaluated exactly at random rational points, an accepted formula equals its lowest terms, whose
    coefficients are all ±1 and which holds every input; so doubling no input's share goes unseen."""
    import ast as pyast
    from fractions import Fraction

    from scorecard.measure import algebra, expr

    if definition(text) is not None:
        return
    tree = expr.parse(text)
    atoms = algebra.atoms_of(tree)
    num, den = algebra.lowest_terms(tree, atoms)
    factor, coefficients = algebra.factor_and_terms(num, den)
    assert abs(factor) == 1 and all(abs(c) == 1 for c in coefficients)
    used = {v for m in [*num, *den] for v, e in enumerate(m) if e}
    assert used == set(atoms.values())
    point = {name: Fraction(7 + 3 * i, 5 + i) for i, name in enumerate(atoms)}

    def value(node):
        if isinstance(node, pyast.Name):
            return point[node.id]
        if isinstance(node, pyast.UnaryOp):
            return -value(node.operand)
        a, b = value(node.left), value(node.right)
        return {pyast.Add: a + b, pyast.Sub: a - b, pyast.Mult: a * b}.get(type(node.op)) if not isinstance(
            node.op, pyast.Div) else (a / b if b else None)

    def poly(p):
        total = Fraction(0)
        for mono, c in p.items():
            term = Fraction(c)
            for name, e in zip(atoms, mono, strict=True):
                term *= point[name] ** e
            total += term
        return total

    try:
        direct = value(tree.body)
    except TypeError:  # a division by zero at this point
        return
    if direct is not None and poly(den):
        assert direct == poly(num) / poly(den)


# --- runs as written, from one entry ----------------------------------------------------------------

def accepted_as_runs(data: dict, query: str) -> bool:
    """Whether a query over data is accepted; a refusal must be SC319."""
    from types import SimpleNamespace

    from scorecard.measure import selection

    art = SimpleNamespace(rel="evidence/r.json", data=data, meta={})
    try:
        selection.numbers(art, "path", query, ("result", "path"))
    except selection.Refused as exc:
        assert exc.problem.code == "SC319", exc.problem
        return False
    return True


@given(st.integers(2, 8).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(0, n - 1), min_size=1,
                                                                         max_size=2 * n))))
def test_no_selection_smaller_than_the_whole_array_is_accepted_as_runs(case):
    """Property (c): an index list over an array of runs is accepted only when it takes each run exactly once."""
    n, picked = case
    query = "$.runs[" + ",".join(map(str, picked)) + "]"
    assert accepted_as_runs({"runs": [float(10 + i) for i in range(n)]}, query) == (sorted(picked) == list(range(n)))


@given(st.lists(st.sampled_from(["a", "b"]), min_size=2, max_size=5))
def test_entries_that_differ_are_never_pooled_as_runs(commands):
    """Property (c): runs spanning entries are accepted only when the entries are repetitions of one measurement."""
    data = {"results": [{"command": c, "times": [1.0, 2.0]} for c in commands]}
    assert accepted_as_runs(data, "$.results[*].times[*]") == (len(set(commands)) == 1)


@pytest.mark.parametrize(("data", "query", "accepted"), [
    ({"a": {"runs": [1.0, 2.0]}, "b": {"runs": [3.0, 4.0]}}, "$..runs[*]", False),
    ({"a": {"runs": [1.0, 2.0]}, "b": {"runs": [3.0, 4.0]}}, "$.*.runs[*]", False),
    ({"a": {"p50": 1.0, "p99": 9.0}}, "$.a.*", False),
    ({"a": {"runs": [1.0, 2.0]}}, "$..runs[*]", True),
    ({"r": [{"n": "x", "v": [1.0]}, {"n": "x", "v": [2.0, 3.0]}]}, "$.r[*].v[*]", True),
])
def test_values_from_different_places_are_not_runs(data, query, accepted):
    assert accepted_as_runs(data, query) is accepted


# --- quantiles with exact intervals ------------------------------------------------------------------

def type7(xs, p):
    """numpy's default quantile, written independently: linear interpolation between order statistics."""
    xs = sorted(xs)
    h = (len(xs) - 1) * p
    lo = int(h)
    return xs[lo] if lo + 1 >= len(xs) else xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])


@pytest.mark.parametrize(("stat", "level", "end", "runs"), [
    ("median", "0.95", "low", 6), ("median", "0.95", "high", 6), ("p99", "0.95", "high", 368),
    ("p99", "0.975", "high", 437), ("p99", "0.95", "low", 1), ("p90", "0.95", "high", 36),
    ("p99.9", "0.95", "high", 3688),
])
def test_runs_an_interval_end_needs(stat, level, end, runs):
    from fractions import Fraction

    from scorecard.measure import stats

    p, alpha = stats.quantile_of(stat), 1 - Fraction(level)
    assert stats.runs_needed(p, alpha, end) == runs
    at = stats.summarise([float(i) for i in range(runs)], stat, alpha)
    below = stats.summarise([float(i) for i in range(runs - 1)], stat, alpha) if runs > 1 else None
    assert (at.low if end == "low" else at.high) is not None
    if below is not None:
        assert (below.low if end == "low" else below.high) is None


@given(st.lists(st.integers(-1000, 1000), min_size=1, max_size=80),
       st.sampled_from(["median", "p10", "p25", "p75", "p90", "p99", "p99.9", "p0.5"]))
def test_a_quantile_is_numpys_and_its_interval_covers_at_least_the_level(xs, stat):
    """Property: the point is type 7 (numpy's default); the interval's ends are order statistics whose exact
    binomial coverage is at least the level, and each end is the farthest-in rank whose tail is within alpha/2."""
    from fractions import Fraction
    from math import comb

    from scorecard.measure import stats

    runs = [float(x) for x in xs]
    p = stats.quantile_of(stat)
    s = stats.summarise(runs, stat)
    assert s.value == pytest.approx(type7(runs, float(p)), rel=1e-12, abs=1e-9)
    n = len(runs)

    def below(j):  # P(B <= j)
        return sum(comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(j + 1))

    lo, hi, cov = stats.order_interval(n, p)
    if lo is not None:
        assert below(lo - 1) <= Fraction(1, 40) and (lo == n or below(lo) > Fraction(1, 40))
    else:
        assert below(0) > Fraction(1, 40)
    if hi is not None:
        assert 1 - below(hi - 1) <= Fraction(1, 40) and (hi == 1 or 1 - below(hi - 2) > Fraction(1, 40))
        if lo is not None:
            assert cov >= 0.95 - 1e-12 and sorted(runs)[lo - 1] <= s.high
    else:
        assert p ** n > Fraction(1, 40)


# --- like for like ------------------------------------------------------------------------------------

@given(st.sampled_from(["median", "mean", "min", "max", "p90", "p99", "p50", None]),
       st.sampled_from(["median", "mean", "min", "max", "p90", "p99", None]),
       st.booleans())
def test_no_lead_rests_on_a_statistic_other_than_the_bars(ours, bar, runs):
    """Property (d): a lead stands only on the bar's statistic, or, with none stated, on a median or a mean (a
    single value that names no statistic and stands among none passes too)."""
    from scorecard.measure import like

    if ours is None and runs:
        return
    key = "value" if ours is None else f"{ours}_ms"
    data = {"entry": {key: 1.0, "count": 3}}
    problem = like.check([(ours if runs else None, "/entry/" + key, data, ("entry", key), ("result",))], bar, "leads")
    ok = (ours is None or like.same(ours, bar)) if bar is not None else ours in (None, "median", "mean", "p50")
    assert (problem is None) == ok, (ours, bar, runs, problem)


@pytest.mark.parametrize(("entry", "key", "code"), [
    ({"median": 1.0, "max": 2.0}, "median", None), ({"median": 1.0, "max": 2.0}, "max", "SC321"),
    ({"ttft_ms": 1.0, "p99_ttft_ms": 2.0}, "ttft_ms", "SC321"),  # a value naming no statistic, among others
    ({"ttft_ms": 1.0, "p99_itl_ms": 2.0}, "ttft_ms", None),  # another quantity's statistic does not count
    ({"real_time": 7.5, "aggregate_name": "stddev"}, "real_time", "SC321"),
    ({"real_time": 600.0, "aggregate_name": "median"}, "real_time", None),
    ({"x": 0.0122, "aggregate_name": "cv"}, "x", "SC321"), ({"iqr": 3.0}, "iqr", "SC321"),
    ({"mean_ttft_ms": 3.0, "std_ttft_ms": 1.0}, "mean_ttft_ms", None),
])
def test_a_value_names_its_statistic_by_its_key_or_a_member_beside_it(entry, key, code):
    from scorecard.measure import like

    problem = like.check([(None, key, {"e": entry}, ("e", key), ("result",))], None, "leads")
    assert (problem.code if problem else None) == code


# --- noise reaches the result ---------------------------------------------------------------------------

positive = st.floats(min_value=0.01, max_value=1e6, allow_nan=False)


@given(formulas(), st.lists(st.tuples(positive, positive, st.floats(0, 1)), min_size=3, max_size=3))
def test_a_derived_interval_contains_the_formula_at_every_point_inside_its_inputs(text, boxes):
    """Property (b): the natural interval extension, rounded outward, holds the formula's exact value at points
    inside the inputs' intervals (evaluated exactly in rationals)."""
    import ast as pyast
    from fractions import Fraction

    from scorecard.measure import expr

    tree = expr.parse(text)
    intervals, point = {}, {}
    for name, (x, y, t) in zip("abc", boxes, strict=True):
        low, high = min(x, y), max(x, y)
        intervals[name] = (low, high)
        point[name] = Fraction(low) + (Fraction(high) - Fraction(low)) * Fraction(t)
    low, high = expr.evaluate_interval(tree, intervals)

    def exact(node):
        if isinstance(node, pyast.Name):
            return point[node.id]
        a, b = exact(node.left), exact(node.right)
        if isinstance(node.op, pyast.Div):
            if b == 0:
                raise ZeroDivisionError
            return a / b
        return {pyast.Add: a + b, pyast.Sub: a - b, pyast.Mult: a * b}[type(node.op)]

    try:
        value = exact(tree.body)
    except ZeroDivisionError:
        return
    assert (low == -float("inf") or Fraction(low) <= value) and (high == float("inf") or value <= Fraction(high))


def test_two_inputs_over_runs_are_each_taken_at_97_5_percent(tmp_path):
    """k = 2 intervals in one verdict: each at 1 - 0.05/2, and the interval shown is labelled with that level."""
    import json

    from scorecard.measure import reading as measure
    from scorecard.measure.evidence import Artifact
    from scorecard.ledger.model import Result

    data = {"a": [float(x) for x in range(100, 120)], "b": [float(x) for x in range(50, 70)]}
    art = Artifact("evidence/r.json", data)
    result = Result.model_validate({"unit": "x", "expr": "a / b", "inputs": {
        "a": {"evidence": "evidence/r.json", "pointer": "/a", "unit": "req/s"},
        "b": {"evidence": "evidence/r.json", "pointer": "/b", "unit": "req/s"}}})
    reading = measure.read(result, lambda rel: art)
    m = reading.measurement
    assert m is not None and m.level == pytest.approx(0.975) and m.interval_from == "ci"
    assert all(src.summary is not None and src.summary.level == pytest.approx(0.975) for src in m.sources)
    assert m.low is not None and m.high is not None and m.low < m.value < m.high
    assert json.dumps(m.level)


# --- honest claims keep validating ------------------------------------------------------------------

def test_every_honest_form_validates_and_is_really_judged(tmp_path):
    """The forms issue 29 names as honest validate as leads; and each is judged, not waved through: the same
    record claiming trails is refused."""
    import shutil

    from scorecard.cli import pipeline

    from conftest import LEDGERS

    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "good" / "honest-forms", root)
    result, _ = pipeline.validate(root)
    assert result.findings == [] and result.dimension_count == 7
    for record in sorted((root / "claims" / "forms").glob("[!_]*.yaml")):
        text = record.read_text()
        record.write_text(text.replace("status: leads", "status: trails"))
        found, _ = pipeline.validate(root)
        assert {f.code for f in found.findings} & {"SC502", "SC506"}, record.name
        record.write_text(text)


def test_every_unit_the_docs_use_in_an_example_is_one_the_tool_knows():
    """Issue 29, item 10: `tok/s/GPU` in docs/format.md was SC508. Every unit in a YAML example of the user docs
    (docs/rules.md's failing examples aside) parses, known and with no typed factor."""
    import re

    from conftest import REPO

    found = []
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        if path.name == "rules.md":
            continue
        for block in re.findall(r"```ya?ml\n(.*?)```", path.read_text(), re.S):
            for unit in re.findall(r"\bunit: *(\"[^\"]*\"|'[^']*'|[^,}#\n]+)", block):
                found.append((path.name, unit.strip().strip("\"'")))
    assert len(found) >= 8  # the probe finds them
    section = (REPO / "docs" / "format.md").read_text().split("### Units", 1)[1].split("\n###", 1)[0]
    listed = [line for line in section.splitlines() if line.startswith("|") or "combine with" in line
              or line.startswith("powers")]
    for line in listed[2:]:  # the table's header and rule aside
        for unit in re.findall(r"`([^`]+)`", line):
            if re.search(r"[A-Za-z%$€×{]", unit) and not unit.startswith("^") and unit not in ("per",):
                found.append(("format.md", unit))
    bad = [(name, unit) for name, unit in found if not units.parse(unit).known or units.parse(unit).problem]
    assert bad == []


@pytest.mark.parametrize("text", ["ks/s", "x/%", "%^-1", "MHz·ms", "MHz ms", "h/s", "h·Hz", "min/s", "kB/B", "Wh/J",
                                  "GB/Mbit", "KiB/B", "s/ms", "ms/s", "tok/1k tok", "%²", "tok/tok", "kW h"])
def test_a_unit_that_cancels_a_quantity_or_scales_a_ratio_is_refused(text):
    """A hostile pass: prefixes that cancel (ks/s) plant a factor of 1000 with no digit in the unit."""
    assert units.parse(text).problem is not None, text


@given(st.lists(st.sampled_from(["ms", "s", "ks", "kB", "B", "MHz", "Hz", "h", "x", "%", "tok", "req", "/", "*", "per",
                                 "1M", "Wh", "J", "W", "GiB", "Mbit"]), min_size=1, max_size=5))
def test_an_accepted_ratio_is_x_or_percent(parts):
    """Whatever is typed, a unit that parses as a plain ratio has the factor of x (1) or of % (0.01)."""
    u = units.parse(" ".join(parts))
    if u.known and u.problem is None and u.dims == ():
        assert u.factor in (1.0, 0.01), parts


# --- numbers re-expressed for reading (units.readable), at their boundaries -------------------------------

@pytest.mark.parametrize(("value", "unit", "shown"), [
    (0.0812, "s", (81.2, "ms")), (1, "ks", (1000.0, "s")), (1, "s", (1, "s")), (1000, "ms", (1.0, "s")),
    (999, "ms", (999, "ms")), (1024, "KiB", (1.0, "MiB")), (1023, "KiB", (1023, "KiB")), (2048, "B", (2.048, "kB")),
    (1e9, "ms", (1e9, "ms")),  # 10^6 s: beyond the largest prefix of s, kept as written
    (1024000 * 1024, "TiB", (1024000 * 1024, "TiB")),  # 1024 × 1000 PiB: beyond PiB, kept as written
    (5, "us", (5, "µs")),  # µs spelled us: the same unit, spelled as a reader expects (issue 43 item 5)
    (0, "ms", (0, "ms")), (5, "tok/s", (5, "tok/s")), (3, "{iter}", (3, "{iter}")),
    (0.5, "ns", (0.5, "ns")),  # below the smallest prefix: the smallest, not the next
])
def test_readable_picks_the_prefix_a_reader_expects(value, unit, shown):
    got = units.readable(value, units.parse(unit))
    assert got[1] == shown[1] and got[0] == pytest.approx(shown[0], rel=1e-12)


@pytest.mark.parametrize(("text", "dims", "factor"), [("s²", (("s", 2),), 1.0), ("s³", (("s", 3),), 1.0),
                                                      ("ms²", (("s", 2),), 1e-6), ("s^-2", (("s", -2),), 1.0)])
def test_powers_written_as_superscripts_or_carets(text, dims, factor):
    u = units.parse(text)
    assert u.problem is None and u.dims == dims and u.factor == pytest.approx(factor, rel=1e-12)


@pytest.mark.parametrize(("n", "p"), [(2001, "1/2"), (2600, "1/2"), (2400, "99/100"), (2300, "1/10")])
def test_the_large_run_interval_agrees_with_the_exact_binomial_sums(n, p, monkeypatch):
    """Beyond EXACT_RANKS runs the ranks come from the incomplete beta function: the same ranks as the exact sums."""
    from fractions import Fraction

    from scorecard.measure import stats

    q = Fraction(p)
    large = stats.order_interval.__wrapped__(n, q)
    monkeypatch.setattr(stats, "EXACT_RANKS", 10 ** 9)
    exact = stats.order_interval.__wrapped__(n, q)
    assert large[:2] == exact[:2] and large[2] == pytest.approx(exact[2], abs=1e-9)


@pytest.mark.parametrize("cut", [1, 2, 3, 7, 9, 10])
def test_the_rank_searches_find_the_last_true_and_the_first_true(cut):
    from scorecard.measure import stats

    assert stats._last(1, 10, lambda r: r <= cut) == cut
    assert stats._first(1, 10, lambda r: r >= cut) == cut
    assert stats._last(1, 10, lambda r: False) is None and stats._first(1, 10, lambda r: False) is None


# --- the formula language: values, averages and intervals (mutation survivors) ---------------------------

def _q(value, unit="ms"):
    from scorecard.measure import expr

    return expr.Quantity.of(value, units.parse(unit))


def test_mean_and_geomean_over_inputs_of_one_unit():
    from scorecard.measure import expr

    out = expr.evaluate(expr.parse("mean(a, b)"), {"a": _q(2), "b": _q(8)})
    assert out.value == pytest.approx(5e-3) and out.dims == (("s", 1),)
    out = expr.evaluate(expr.parse("geomean(a, b)"), {"a": _q(2), "b": _q(8)})
    assert out.value == pytest.approx(4e-3) and out.dims == (("s", 1),)
    huge = expr.evaluate(expr.parse("mean(a, b)"), {"a": _q(1.5e308, "s"), "b": _q(1.7e308, "s")})
    assert huge.value == pytest.approx(1.6e308)  # scaled first: the sum would overflow
    assert expr.evaluate(expr.parse("mean(a, b)"), {"a": _q(0, "s"), "b": _q(0, "s")}).value == 0
    with pytest.raises(expr.ExprError, match="one unit"):
        expr.evaluate(expr.parse("mean(a, b)"), {"a": _q(2), "b": _q(2, "MB")})
    with pytest.raises(expr.ExprError, match="above zero"):
        expr.evaluate(expr.parse("geomean(a, b)"), {"a": _q(0), "b": _q(2)})
    assert expr.evaluate(expr.parse("-a"), {"a": _q(2)}).value == pytest.approx(-2e-3)
    assert expr.evaluate(expr.parse("+a"), {"a": _q(2)}).value == pytest.approx(2e-3)
    with pytest.raises(expr.ExprError, match=r"\(inputs: none\)"):
        expr.evaluate(expr.parse("a"), {})


def test_what_a_formula_may_not_hold_is_named():
    from scorecard.measure import expr

    for text, words in [("a ** 2", "the operator Pow"), ("[a]", "a List ([a])"), ("a < b", "a Compare (a < b)"),
                        ("'x'", "the constant 'x'"), ("max(a, b)", "the only functions are mean")]:
        with pytest.raises(expr.ExprError) as caught:
            expr.parse(text)
        assert words in str(caught.value), (text, str(caught.value))


@pytest.mark.parametrize(("text", "inputs", "low", "high"), [
    ("mean(a, b)", {"a": (1.0, 3.0), "b": (5.0, 7.0)}, 3.0, 5.0),
    ("geomean(a, b)", {"a": (1.0, 4.0), "b": (4.0, 16.0)}, 2.0, 8.0),
    ("geomean(a, b)", {"a": (0.0, 4.0), "b": (4.0, 16.0)}, 0.0, 8.0),
    ("geomean(a, b)", {"a": (-1.0, 4.0), "b": (4.0, 16.0)}, 0.0, 8.0),
    ("geomean(a, b)", {"a": (1.0, float("inf")), "b": (4.0, 16.0)}, 2.0, float("inf")),
    ("-a", {"a": (1.0, 3.0)}, -3.0, -1.0), ("+a", {"a": (1.0, 3.0)}, 1.0, 3.0),
    ("a / b", {"a": (1.0, 2.0), "b": (-1.0, 1.0)}, -float("inf"), float("inf")),
    ("a / b", {"a": (1.0, 2.0), "b": (2.0, 4.0)}, 0.25, 1.0),
    ("a * b", {"a": (0.0, 0.0), "b": (-float("inf"), float("inf"))}, -float("inf"), float("inf")),
    ("a - b", {"a": (5.0, 6.0), "b": (1.0, 2.0)}, 3.0, 5.0),
])
def test_the_interval_of_a_formula(text, inputs, low, high):
    from scorecard.measure import expr

    got = expr.evaluate_interval(expr.parse(text), inputs)
    assert got[0] == pytest.approx(low, rel=1e-9, abs=1e-300) and got[1] == pytest.approx(high, rel=1e-9)
    assert got[0] <= low and got[1] >= high  # rounded outward, never inward


@pytest.mark.parametrize(("text", "value", "dims"), [
    ("a + b", 5e-3, (("s", 1),)), ("a - b", -1e-3, (("s", 1),)), ("a * b", 6e-6, (("s", 2),)),
    ("a / b", 2 / 3, ()), ("a * a / b", 4e-3 / 3, (("s", 1),)), ("a * b * c", 6e-6 * 5, (("s", 2), ("token", 1))),
    ("c / (a * b)", 5 / 6e-6, (("s", -2), ("token", 1))),
])
def test_a_formula_computes_its_value_and_carries_its_units(text, value, dims):
    from scorecard.measure import expr

    out = expr.evaluate(expr.parse(text), {"a": _q(2), "b": _q(3), "c": _q(5, "tok")})
    assert out.value == pytest.approx(value, rel=1e-12) and out.dims == dims
