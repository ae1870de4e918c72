"""measure.read at its edges: the artifact's own interval, the level it is stated at, a formula's interval in
other units, and the ends an interval cannot have. Each test pins one thing a reading must get right."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorecard.measure import verdict
from scorecard.measure import reading as measure
from scorecard.measure import stats
from scorecard.measure.evidence import Artifact
from scorecard.ledger.model import Result
from scorecard.measure.selection import Refused

RUNS = [float(x) for x in range(100, 110)]  # 10 runs: the median's interval is runs 2 and 9 (101 and 108)


def reading(data: dict, result: dict) -> measure.Reading:
    art = Artifact("evidence/r.json", data)
    return measure.read(Result.model_validate(result), lambda rel: art)


def measured(data: dict, result: dict) -> measure.Measurement:
    got = reading(data, result)
    assert got.problems == [] and got.measurement is not None
    return got.measurement


def refused(data: dict, result: dict) -> tuple[str, tuple]:
    got = reading(data, result)
    assert got.measurement is None and len(got.problems) == 1, got.problems
    return got.problems[0].code, got.problems[0].loc


def own_interval(value: float, low: float, high: float, level: float | None = 0.95, **extra) -> tuple[dict, dict]:
    data = {"v": value, "ci": [low, high]}
    result = {"evidence": "evidence/r.json", "pointer": "/v", "unit": "ms", "low": {"pointer": "/ci/0"},
              "high": {"pointer": "/ci/1"}, **extra}
    if level is not None:
        result["level"] = level
    return data, result


# --- the artifact's own interval ---------------------------------------------------------------------

@pytest.mark.parametrize("value", [10.0, 12.0, 15.0])
def test_a_value_at_either_end_of_its_own_interval_is_inside_it(value):
    """The ends of a two-element interval array are bounds, not runs picked out of an array (SC319)."""
    m = measured(*own_interval(value, 10.0, 15.0))
    assert (m.value, m.low, m.high, m.interval_from, m.level) == (value, 10.0, 15.0, "artifact", 0.95)
    assert m.coverage is None and m.missing_end is None


@pytest.mark.parametrize("value", [9.999, 15.001])
def test_a_value_outside_its_own_interval_is_refused(value):
    assert refused(*own_interval(value, 10.0, 15.0)) == ("SC313", ("result", "low"))


def test_an_own_interval_over_runs_is_refused_at_low():
    data = {"v": RUNS, "ci": [1.0, 2.0]}
    _, result = own_interval(0, 0, 0)
    assert refused(data, result) == ("SC313", ("result", "low"))


@pytest.mark.parametrize("level,code", [(0.95, None), (0.9499999, "SC320"), (0.99, None), (None, "SC320")])
def test_one_interval_in_a_verdict_needs_95_percent(level, code):
    got = reading(*own_interval(12.0, 10.0, 15.0, level))
    assert [p.code for p in got.problems] == ([code] if code else [])


@pytest.mark.parametrize("k,level,ok", [(1, 0.95, True), (2, 0.975, True), (2, 0.97, False), (2, 0.95, False),
                                        (3, 0.9833, False), (3, 0.98334, True), (4, 0.9875, True)])
def test_k_intervals_in_a_verdict_each_need_1_minus_alpha_over_k(k, level, ok):
    if ok:
        assert measure.check_level(level, ("result",), k) == level
    else:
        with pytest.raises(Refused) as exc:
            measure.check_level(level, ("result",), k)
        assert exc.value.problem.code == "SC320" and exc.value.problem.loc == ("result", "level")
    assert (Fraction(repr(level)) >= 1 - stats.ALPHA / k) is ok


# --- runs: the computed interval and the end it lacks ------------------------------------------------

def test_a_median_over_runs_carries_its_exact_coverage():
    m = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms"})
    assert (m.low, m.high, m.interval_from) == (101.0, 108.0, "ci")
    assert m.summary is not None and m.coverage == m.summary.coverage == pytest.approx(0.978515625)
    assert m.missing_end is None


def test_a_high_quantile_over_too_few_runs_lacks_its_high_end():
    m = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms", "stat": "p90"})
    assert m.low is not None and m.high is None and m.missing_end == ("high", 36)


def test_min_over_runs_has_no_interval_and_no_missing_end():
    m = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms", "stat": "min"})
    assert (m.value, m.low, m.high, m.interval_from, m.coverage, m.missing_end) == (100.0, None, None, "", None, None)


# --- a formula's interval ----------------------------------------------------------------------------

def derived(expr: str, unit: str, a: dict, b: dict, data: dict) -> measure.Measurement:
    return measured(data, {"unit": unit, "expr": expr, "inputs": {
        "a": {"evidence": "evidence/r.json", **a}, "b": {"evidence": "evidence/r.json", **b}}})


def test_a_formulas_interval_is_computed_in_each_inputs_unit_and_given_in_the_results():
    """Inputs in ms and a result in s: every end is converted (a factor left out is off by 1000)."""
    data = {"a": RUNS, "b": [float(x) for x in range(10, 20)]}
    m = derived("a - b", "s", {"pointer": "/a", "unit": "ms"}, {"pointer": "/b", "unit": "ms"}, data)
    a, b = (stats.summarise(data[key], alpha=stats.ALPHA / 2) for key in ("a", "b"))
    assert a.low is not None and a.high is not None and b.low is not None and b.high is not None
    assert m.value == pytest.approx(0.09)
    assert m.low == pytest.approx((a.low - b.high) / 1000, rel=1e-12)
    assert m.high == pytest.approx((a.high - b.low) / 1000, rel=1e-12)
    assert m.low <= (a.low - b.high) / 1000 and m.high >= (a.high - b.low) / 1000  # rounded outward
    assert m.coverage is None and m.missing_end is None and m.level == pytest.approx(0.975)
    assert [place for place, _ in measure.evidence_files(Result.model_validate({
        "unit": "s", "expr": "a - b", "inputs": {"b": {"evidence": "evidence/b.json", "pointer": "/b"},
                                                  "a": {"evidence": "evidence/a.json", "pointer": "/a"}}}))] == [
        ("result", "inputs", "a", "evidence"), ("result", "inputs", "b", "evidence")]


def test_an_input_in_seconds_scales_its_ends_into_a_result_in_ms():
    data = {"a": RUNS, "b": 2.0}
    m = derived("a * b", "ms", {"pointer": "/a", "unit": "s"}, {"pointer": "/b", "unit": "x"}, data)
    assert (m.value, m.low, m.high) == (pytest.approx(209_000), pytest.approx(202_000), pytest.approx(216_000))


def test_an_input_without_an_interval_enters_a_formula_as_its_value():
    """min over runs has no interval: the formula's ends use its value, not an unbounded range."""
    data = {"a": RUNS, "b": [float(x) for x in range(10, 20)]}
    m = derived("a - b", "ms", {"pointer": "/a", "unit": "ms"}, {"pointer": "/b", "unit": "ms", "stat": "min"}, data)
    a = stats.summarise(RUNS)
    assert a.low is not None and a.high is not None
    assert (m.low, m.high) == (pytest.approx(a.low - 10), pytest.approx(a.high - 10))


@pytest.mark.parametrize("expr,end", [("a + b", "high"), ("b - a", "low")])
def test_the_end_a_formula_lacks_is_the_one_its_inputs_missing_end_reaches(expr, end):
    """p90 over 10 runs has no high end (36 runs would give it); subtracted, the missing end is the low one."""
    data = {"a": RUNS, "b": 1.0}
    m = derived(expr, "ms", {"pointer": "/a", "unit": "ms", "stat": "p90"}, {"pointer": "/b", "unit": "ms"}, data)
    assert m.missing_end == (end, 36)
    assert (m.low is None, m.high is None) == (end == "low", end == "high")
    assert (m.needs_low, m.needs_high) == ((36, None) if end == "low" else (None, 36))


def test_a_typed_factor_in_an_inputs_unit_is_found_at_that_input():
    got = reading({"a": 1.0, "b": 2.0}, {"unit": "x", "expr": "a / b", "inputs": {
        "a": {"evidence": "evidence/r.json", "pointer": "/a", "unit": "ms"},
        "b": {"evidence": "evidence/r.json", "pointer": "/b", "unit": "2 ms"}}})
    assert ("SC509", ("result", "inputs", "b", "unit")) in [(p.code, p.loc) for p in got.problems]


# --- the smaller rooms of the measure layer, at their edges ------------------------------------------------------

def test_the_other_statistics_beside_a_value_include_keys_that_are_only_a_statistic():
    from scorecard.measure.like import among_others

    data = {"p50": 1.0, "p99": 2.0, "mean": 3.0, "count": 5, "ok": True}
    assert among_others(data, ("p50",)) == ["mean", "p99"]
    assert among_others({"latency_p50_ms": 1.0, "latency_p99_ms": 2.0, "latency_note_ms": 3.0},
                        ("latency_p50_ms",)) == ["latency_p99_ms"]


@pytest.mark.parametrize("result,loc", [
    ({"unit": "x", "expr": "a", "inputs": {}}, ("result", "inputs")),
    ({"unit": "x", "inputs": {"a": {"evidence": "evidence/r.json", "pointer": "/a", "unit": "x"}}}, ("result", "expr")),
])
def test_a_derived_value_needs_both_expr_and_an_input(result, loc):
    assert refused({"a": 1.0}, result) == ("SC208", loc)


def test_match_and_search_run_within_the_budget_and_take_only_strings():
    import jsonpath_rfc9535

    from scorecard.measure import jsonquery

    data = [{"name": "xx", "n": 5}, {"name": "y", "n": 6}, {"name": "axxb"}]
    for query in ("$[?match(@.name, 'x+')]", "$[?search(@.name, 'x+')]", "$[?match(@.n, 'x')]",
                  "$[?search(@.name, @.n)]", "$[?match(@.name, '(?i)x')]"):
        expected = [(n.value, tuple(n.location)) for n in jsonpath_rfc9535.find(query, data)]
        assert jsonquery.find(query, data) == expected, query
    assert [v["name"] for v, _ in jsonquery.find("$[?match(@.name, 'x+')]", data)] == ["xx"]
    assert [v["name"] for v, _ in jsonquery.find("$[?search(@.name, 'x+')]", data)] == ["xx", "axxb"]


def test_a_regular_expression_runs_while_the_budget_lasts(monkeypatch):
    from scorecard.measure import jsonquery

    monkeypatch.setattr(jsonquery, "TIME_BUDGET", 0.5)  # under a second, and not yet spent
    assert len(jsonquery.find("$[?match(@, 'x+')]", ["xx", "y"])) == 1
    monkeypatch.setattr(jsonquery, "TIME_BUDGET", -1.0)  # spent before the first regular expression
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find("$[?match(@, 'x+')]", ["xx"])
    assert exc.value.kind == "budget" and "-1-second budget" in exc.value.message


@pytest.mark.parametrize("stat,better,bar,end", [
    ("p90", "lower", 1000.0, "high"),   # lower is better: the missing high end is the worst case
    ("p10", "higher", 1.0, "low"),      # higher is better: the missing low end is
])
def test_a_lead_never_rests_on_an_interval_end_the_runs_cannot_give(stat, better, bar, end):
    """All ten runs are far better than the bar, but the statistic's worst end does not exist at 95 %: no lead,
    and the finding says which end and how many runs it needs."""
    from types import SimpleNamespace

    from scorecard.measure import compare

    m = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms", "stat": stat})
    c = compare.compare(m, SimpleNamespace(value=bar, unit="ms", better=better), 0.05)
    assert c is not None and c.margin > 0
    problem = verdict.judge("leads", m, c)
    assert problem is not None and problem.code == "SC505"
    assert f"has no {end} end: 10 runs cannot give it at 95% (the {stat} needs 36)" in problem.message
    # the worse end does not exist: not parity either (issue 41: it was); the evidence gives inconclusive
    assert c.verdict() == "inconclusive" and verdict.judge("inconclusive", m, c) is None
    assert verdict.judge("parity", m, c).code == "SC503"
    assert "the evidence gives inconclusive" in verdict.judge("parity", m, c).message


def test_the_missing_end_of_a_formula_is_said_at_the_level_its_intervals_were_taken():
    """Two inputs over runs: each interval at 97.5 %, and the finding says 97.5 %, not 95 %."""
    from types import SimpleNamespace

    from scorecard.measure import compare

    data = {"a": RUNS, "b": RUNS}
    m = derived("a + b", "ms", {"pointer": "/a", "unit": "ms", "stat": "p90"},
                {"pointer": "/b", "unit": "ms", "stat": "p90"}, data)
    c = compare.compare(m, SimpleNamespace(value=10_000.0, unit="ms", better="lower"), 0.05)
    assert c is not None
    problem = verdict.judge("leads", m, c)
    assert problem is not None and problem.code == "SC505"
    assert "an input's runs cannot give it at 97.5%" in problem.message


@pytest.mark.parametrize("stat,better,bar,end", [
    ("p90", "higher", 10_000.0, "high"),  # higher is better: a trail's best case is the missing high end
    ("p10", "lower", 1.0, "low"),         # lower is better: the missing low end
])
def test_a_trail_never_rests_on_an_interval_end_the_runs_cannot_give(stat, better, bar, end):
    from types import SimpleNamespace

    from scorecard.measure import compare

    m = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms", "stat": stat})
    c = compare.compare(m, SimpleNamespace(value=bar, unit="ms", better=better), 0.05)
    assert c is not None and c.margin < 0
    # every run far behind the bar: the point is behind by more than the tolerance, so the evidence gives trails
    # however the far end goes (issue 41); the better end's absence no longer makes it parity
    assert c.verdict() == "trails" and verdict.judge("trails", m, c) is None
    problem = verdict.judge("parity", m, c)
    assert problem is not None and problem.code == "SC503" and "the evidence gives trails" in problem.message


# --- k: the intervals one verdict rests on (pinned by the mutation run of measure.reading) ----------------

def test_intervals_counts_those_the_verdict_rests_on():
    single = measured({"v": 9.5}, {"evidence": "evidence/r.json", "pointer": "/v", "unit": "ms"})
    runs = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms"})
    own = measured(*own_interval(12.0, 10.0, 15.0))
    missing = measured({"runs": RUNS}, {"evidence": "evidence/r.json", "pointer": "/runs", "unit": "ms",
                                        "stat": "p90"})
    assert [measure.intervals(m) for m in (single, runs, own, missing)] == [0, 1, 1, 1]
    data = {"a": RUNS, "b": RUNS, "c": 3.0}
    two = derived("a + b", "ms", {"pointer": "/a", "unit": "ms"}, {"pointer": "/b", "unit": "ms"}, data)
    one = derived("a + b", "ms", {"pointer": "/a", "unit": "ms"}, {"pointer": "/c", "unit": "ms"}, data)
    assert (measure.intervals(two), measure.intervals(one)) == (2, 1)


def test_an_interval_is_taken_at_the_level_every_interval_of_the_verdict_needs():
    """others (the bar's intervals) widen k: a stated level that does for one interval does not for two, and a
    formula's input over runs is then taken at 97.5 %."""
    data, result = own_interval(12.0, 10.0, 15.0, level=0.97)
    art = Artifact("evidence/r.json", data)
    spec = Result.model_validate(result)
    assert measure.read(spec, lambda rel: art, 0).problems == []
    [problem] = measure.read(spec, lambda rel: art, 1).problems
    assert problem.code == "SC320" and "needs each at 0.975" in problem.message
    formula = Result.model_validate({"unit": "ms", "expr": "a + c", "inputs": {
        "a": {"evidence": "evidence/r.json", "pointer": "/a", "unit": "ms"},
        "c": {"evidence": "evidence/r.json", "pointer": "/c", "unit": "ms"}}})
    both = Artifact("evidence/r.json", {"a": RUNS, "c": 3.0})
    alone, beside = (measure.read(formula, lambda rel: both, k).measurement for k in (0, 1))
    assert alone is not None and beside is not None
    assert (alone.level, beside.level) == (pytest.approx(0.95), pytest.approx(0.975))
    assert beside.low <= alone.low and beside.high >= alone.high  # the higher level: never a narrower interval
