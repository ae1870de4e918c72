"""Bounded JSONPath queries: every query ends, with the library's nodes or a QueryError saying which bound it hit.

The promise: a query a pull request writes never hangs, never exhausts memory, never raises anything but a
QueryError, and where it runs to the end it selects exactly what RFC 9535 (the library) selects.
"""

from __future__ import annotations

import jsonpath_rfc9535
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecard.measure import jsonquery
from scorecard.measure.selection import value_at

names = st.sampled_from(["a", "b", "name", "v", "runs"])
literals = st.sampled_from(["1", "2.5", "'x'", "true", "null", "-1"])


def singular() -> st.SearchStrategy[str]:
    return st.builds(lambda root, parts: root + "".join(parts), st.sampled_from(["@", "$"]),
                     st.lists(st.one_of(names.map(lambda n: "." + n), st.integers(-2, 3).map(lambda i: f"[{i}]")),
                              max_size=3))


comparables = st.one_of(literals, singular(), singular().map(lambda q: f"length({q})"))
tests = st.one_of(
    st.builds(lambda a, op, b: f"{a} {op} {b}", comparables, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
              comparables),
    singular(),
    st.builds(lambda q, p: f"{'search' if len(p) % 2 else 'match'}({q}, '{p}')", singular(),
              st.sampled_from(["x", "x+", "(x+x+)+y", "[a-z]*", ".*", "(a|b)"])),
    # forms RFC 9535 forbids and the library accepts
    st.builds(lambda a, b: f"{a} == {b} == 1", singular(), literals),
    st.builds(lambda a: f"({a} == 1) == true", singular()),
)
filters = st.recursive(tests, lambda inner: st.one_of(
    st.builds(lambda a, b: f"{a} && {b}", inner, inner), st.builds(lambda a, b: f"({a} || {b})", inner, inner),
    st.builds(lambda a: f"!({a})", inner)), max_leaves=4)
segments = st.one_of(names.map(lambda n: "." + n), st.just(".*"), st.just("[*]"), st.integers(-3, 3).map(str).map(
    lambda i: f"[{i}]"), st.just("[0:2]"), st.just("[::-1]"), filters.map(lambda f: f"[?{f}]"),
    names.map(lambda n: ".." + n), st.just("..*"), filters.map(lambda f: f"..[?{f}]"))
queries = st.lists(segments, max_size=5).map(lambda parts: "$" + "".join(parts))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([1.5, "x", "xxxxy", "ab"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(names, inner, max_size=4)), max_leaves=25)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(queries, json_values)
def test_every_query_ends_with_the_librarys_nodes_or_a_query_error(query, data):
    try:
        found = jsonquery.find(query, data)
    except jsonquery.QueryError as exc:
        assert exc.kind in {"syntax", "size", "budget", "depth"} and exc.message
        if exc.kind == "syntax":  # refused where the library refuses, or where RFC 9535 forbids the form
            try:
                jsonpath_rfc9535.compile(query)
            except jsonpath_rfc9535.JSONPathError:
                return
            assert "RFC 9535 compares only" in exc.message
        return
    assert jsonquery.descendants(query) <= jsonquery.MAX_DESCENDANTS
    expected = [(node.value, tuple(node.location)) for node in jsonpath_rfc9535.find(query, data)]
    assert found == expected
    for value, where in found:
        assert value_at(data, where) == value


@pytest.mark.parametrize("query", ["$[?@.a==1==1]", "$[?(@.a==1)==true]", "$[?!@.a==1]", "$[?@.b && (@.a==1)==1]",
                                   "$[?@.x[?(@.a==1)==true]]", "$[?count(@[?@.a==1==1]) == 1]"])
def test_forms_rfc_9535_forbids_are_refused(query):
    jsonpath_rfc9535.compile(query)  # the library takes them
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find(query, [{"a": 1}])
    assert exc.value.kind == "syntax" and "RFC 9535 compares only" in exc.value.message


@pytest.mark.parametrize("query", ["$[?@.a==1]", "$[?!(@.a==1)]", "$[?(@.a==1) && @.b]", "$[?@.a==true]",
                                   "$[?length(@.a)==1]", "$[?!@.a]", "$[?(@.a==1 || @.b==2) && !@.c]"])
def test_forms_rfc_9535_allows_are_evaluated(query):
    data = [{"a": 1, "b": 2}, {"a": True}, {"a": "x", "c": 1}, {"b": 1}]
    expected = [(node.value, tuple(node.location)) for node in jsonpath_rfc9535.find(query, data)]
    assert expected and jsonquery.find(query, data) == expected


def test_a_backtracking_regex_is_stopped_at_the_budget(monkeypatch):
    monkeypatch.setattr(jsonquery, "TIME_BUDGET", 0.2)
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find("$[?search(@.name, '(x+x+)+y')]", [{"name": "x" * 3000}])
    assert exc.value.kind == "budget" and "0.2-second budget" in exc.value.message


def test_a_query_over_the_node_budget_is_refused(monkeypatch):
    monkeypatch.setattr(jsonquery, "MAX_NODES", 10)
    assert len(jsonquery.find("$[*]", list(range(10)))) == 10  # exactly at the budget
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find("$[*]", list(range(11)))
    assert exc.value.kind == "budget" and "more than 10 values" in exc.value.message


def test_data_deeper_than_a_descendant_follows_is_depth_not_syntax():
    deep: object = 1
    for _ in range(jsonquery.MAX_DEPTH + 1):
        deep = {"a": deep}
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find("$..b", deep)
    assert exc.value.kind == "depth" and "100 levels" in exc.value.message
    assert jsonquery.find("$..b", deep["a"]) == []  # exactly at the limit  # type: ignore[index]


@pytest.mark.parametrize("query,kind", [("$" + "..a" * 3, "size"), ("$..a..a", None), ("$" + ".a" * 499, None),
                                        ("$" + ".a" * 500, "size"), ("$['..'].a..b", None), ("$[", "syntax")])
def test_bounds_decided_before_the_query_runs(query, kind):
    try:
        jsonquery.find(query, {"a": 1})
    except jsonquery.QueryError as exc:
        assert exc.kind == kind
    else:
        assert kind is None


@pytest.mark.parametrize("query", ["$..x", "$[?@.x == 1]", "$..[?@ == 0]", "$[?count(@..*) > 0]"])
def test_descendant_visits_and_filter_evaluations_count_against_the_work_budget(monkeypatch, query):
    data = [[0] for _ in range(30)]
    monkeypatch.setattr(jsonquery, "MAX_WORK", 10)
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find(query, data)
    assert exc.value.kind == "budget" and "more than 10 nodes" in exc.value.message
    monkeypatch.setattr(jsonquery, "MAX_WORK", 10_000)
    assert jsonquery.find(query, data) == [(n.value, tuple(n.location)) for n in jsonpath_rfc9535.find(query, data)]


def test_the_clock_is_read_at_every_unit_of_work(monkeypatch):
    monkeypatch.setattr(jsonquery, "TIME_BUDGET", -1.0)  # already past: the first unit of work stops the query
    for query in ("$..x", "$[*]", "$[?@ == 0]"):
        with pytest.raises(jsonquery.QueryError) as exc:
            jsonquery.find(query, [[0]])
        assert exc.value.kind == "budget" and "second budget" in exc.value.message


@pytest.mark.parametrize("query,data", [
    ("$" + ("[" + ",".join(["*"] * 160) + "]") * 3 + "['a']", [[[1]]]),       # child segments fan out: 4M nodes
    ("$[?count($" + ("[" + ",".join(["*"] * 240) + "]") * 2 + ")==0]", [list(range(200))]),  # inside a function
])
def test_nodes_every_segment_yields_count_against_the_work_budget(monkeypatch, query, data):
    """A wildcard fan-out with no .. and no filter ran 14 s (and over 10 minutes with four segments), and a query
    inside count() built 1.6 GB of nodes, before every segment counted its nodes."""
    monkeypatch.setattr(jsonquery, "MAX_WORK", 50_000)
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find(query, data)
    assert exc.value.kind == "budget" and "more than 50,000 nodes" in exc.value.message


@pytest.mark.parametrize("query", ["$[?@==1e400]", "$[?@.a < " + "9" * 400 + "]"])
def test_a_number_beyond_a_double_is_a_finding_not_a_crash(query):
    with pytest.raises(jsonquery.QueryError) as exc:
        jsonquery.find(query, [{"a": 1}])
    assert exc.value.kind == "syntax"


def test_a_lone_surrogate_in_a_pattern_matches_nothing():
    assert jsonquery.find("$[?match(@.s, @.p)]", [{"s": "a", "p": "\ud800"}]) == []


@pytest.mark.parametrize("length,ok", [(jsonquery.MAX_PATTERN, True), (jsonquery.MAX_PATTERN + 1, False)])
def test_a_regular_expression_from_the_artifact_is_bounded_in_length(length, ok):
    """match() and search() take their pattern from the data too; the engine's timeout covers matching, not
    compiling, and a 250,000-character pattern took 2.5 s to compile: the length is bounded instead."""
    data = [{"n": "abc", "p": "a" * length}]
    if ok:
        assert jsonquery.find("$[?search(@.n, @.p)]", data) == []
    else:
        with pytest.raises(jsonquery.QueryError) as exc:
            jsonquery.find("$[?search(@.n, @.p)]", data)
        assert exc.value.kind == "budget" and f"{length:,} characters long" in exc.value.message


@pytest.mark.parametrize("query,refused", [
    ("$[?(@.a)==1]", True), ("$[?1==(@.a)]", True), ("$[?(@.a)!=(@.b)]", True),  # a comparable in parentheses
    ("$[?(@.a==1)]", False), ("$[?(@.a==1) && (@.b)]", False), ("$[?length(@.a)==1]", False),
    ("$[?count(@.*)==1]", False), ("$[?@.name=='(x)']", False),
])
def test_parentheses_group_only_logical_expressions(query, refused):
    """RFC 9535 groups logical expressions; the library drops parentheses around a comparable and accepts them."""
    from scorecard.measure.jsonquery import QueryError, find

    data = [{"a": 1, "b": 2, "name": "(x)"}]
    if refused:
        with pytest.raises(QueryError) as caught:
            find(query, data)
        assert caught.value.kind == "syntax" and "parenthesised" in caught.value.message
    else:
        find(query, data)
