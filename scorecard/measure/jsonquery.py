"""JSONPath queries (RFC 9535) evaluated within bounds: a query a pull request writes never hangs or exhausts memory.

A query is refused before it runs when it is longer than MAX_QUERY characters, has more than MAX_DESCENDANTS
descendant segments (each multiplies the nodes visited), or is a form RFC 9535 forbids that the library accepts (a
comparison whose side is itself a comparison, a logical expression or a negation: `@.a==1==1`, `(@.a==1)==true`).
While it runs it is bounded in work and time: every node a segment yields (nested queries' too), every node a
descendant segment visits and every filter evaluation counts against MAX_WORK, the clock is read at each of them
against TIME_BUDGET (and the run's, budget.py), and match() and search() run
with the regex engine's own timeout (the rest of the budget). It selects at most MAX_NODES values. Running out of a
bound is a QueryError, never a hang; the counts make the work bound the same on every machine.

Lazy imports: jsonpath_rfc9535, regex and iregexp_check are imported here only, and only when a ledger uses
path: (the hook path of most ledgers never loads them).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from . import budget

MAX_QUERY = 1000  # characters
MAX_DESCENDANTS = 2  # descendant segments (..) in one query
MAX_NODES = 100_000  # nodes a query may select
MAX_WORK = 1_000_000  # nodes every segment yields, nested queries' included, plus descendant visits and filters
MAX_PATTERN = 1000  # characters of a regular expression (one from the artifact too: compiling it is not timed)
MAX_DEPTH = 100  # nesting a descendant segment follows (the library's own limit)
TIME_BUDGET = 2.0  # seconds one query may run


class QueryError(Exception):
    """A query that cannot be evaluated: kind is "syntax" (not an RFC 9535 query, or a form it forbids), "size"
    (refused before it runs: too long, too many descendant segments), "budget" (ran out of time or nodes), "run"
    (the run's budget for every query is spent) or "depth" (the data nests deeper than a query follows)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


class _OverBudget(BaseException):
    """Raised inside the library's evaluation (a BaseException, so no handler of the library's swallows it)."""


def descendants(query: str) -> int:
    """How many descendant segments (..) the query has, outside its string literals."""
    return len(re.findall(r"\.\.", re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "", query)))


def find(query: str, data: Any) -> list[tuple[Any, tuple[str | int, ...]]]:
    """(value, location) of every node query selects in data, within the bounds; QueryError otherwise."""
    compiled = _compile(query)
    seconds_left = budget.RUN_TIME_BUDGET - float(budget.spent["seconds"])
    work_left = budget.RUN_WORK_BUDGET - int(budget.spent["work"])
    if seconds_left <= 0 or work_left <= 0:
        raise QueryError(f"not evaluated: this run's queries together spent their budget "
                         f"({budget.RUN_TIME_BUDGET:g} s, {budget.RUN_WORK_BUDGET:,} units of work)", "run")
    started = time.monotonic()
    _budget.deadline, _budget.work = started + min(TIME_BUDGET, seconds_left), 0
    _budget.limit = min(MAX_WORK, work_left)
    try:
        return _find(compiled, data)
    except QueryError as exc:
        run_limited = _budget.limit < MAX_WORK or seconds_left < TIME_BUDGET
        if exc.kind == "budget" and run_limited:  # the run's budget ran out during this query, not the query's own
            raise QueryError(f"stopped: this run's queries together spent their budget ({budget.RUN_TIME_BUDGET:g} s, "
                             f"{budget.RUN_WORK_BUDGET:,} units of work)", "run") from None
        raise
    finally:
        budget.spent["seconds"] = float(budget.spent["seconds"]) + time.monotonic() - started
        budget.spent["work"] = int(budget.spent["work"]) + _budget.work


def _find(compiled: Any, data: Any) -> list[tuple[Any, tuple[str | int, ...]]]:
    out: list[tuple[Any, tuple[str | int, ...]]] = []
    try:
        for node in compiled.finditer(data):
            out.append((node.value, tuple(node.location)))
            if len(out) > MAX_NODES:
                raise QueryError(f"selects more than {MAX_NODES:,} values", "budget")
    except _OverBudget as exc:
        raise QueryError(str(exc), "budget") from None
    except TimeoutError:  # a regular expression's own timeout
        raise QueryError(f"its regular expression ran past the {TIME_BUDGET:g}-second budget", "budget") from None
    except (RecursionError, MemoryError):
        raise QueryError("ran out of depth or memory", "budget") from None
    except (OverflowError, ValueError) as exc:
        raise QueryError(f"cannot be evaluated: {exc}", "syntax") from None
    except _jsonpath().JSONPathRecursionError:
        raise QueryError(f"the data nests deeper than the {MAX_DEPTH} levels a descendant segment follows",
                         "depth") from None
    except _jsonpath().JSONPathError as exc:
        raise QueryError(str(exc), "syntax") from None
    return out


_budget = threading.local()  # this thread's query: its deadline and the work done so far


def _tick() -> None:
    """Count one unit of work against the running query's budget."""
    _budget.work += 1
    if _budget.work > _budget.limit:
        raise _OverBudget(f"visited more than {_budget.limit:,} nodes (segments, descendant segments and filters)")
    if time.monotonic() > _budget.deadline:  # every unit: one filter evaluation can compare large values
        raise _OverBudget(f"ran past its {TIME_BUDGET:g}-second budget")


def _jsonpath():  # the module, loaded on first use
    import jsonpath_rfc9535

    return jsonpath_rfc9535


@lru_cache(maxsize=256)
def _compile(query: str):
    if len(query) > MAX_QUERY:
        raise QueryError(f"the query is longer than {MAX_QUERY} characters", "size")
    count = descendants(query)
    if count > MAX_DESCENDANTS:
        raise QueryError(f"the query has {count} descendant segments (..); at most {MAX_DESCENDANTS} are evaluated, "
                         "since each multiplies the nodes visited (a dozen took 3 GB over a 283-byte file)", "size")
    try:
        compiled = _environment().compile(query)
    except _jsonpath().JSONPathError as exc:
        raise QueryError(f"not an RFC 9535 JSONPath query: {exc}", "syntax") from None
    except RecursionError:
        raise QueryError("not a query RFC 9535 tools can parse: its brackets nest too deeply", "syntax") from None
    except (OverflowError, ValueError) as exc:  # a number literal beyond a double (1e400)
        raise QueryError(f"not a query scorecard can evaluate: {exc}", "syntax") from None
    forbidden = _forbidden(compiled) or _parenthesised_comparable(query)
    if forbidden:
        raise QueryError(f"not an RFC 9535 JSONPath query: {forbidden}", "syntax")
    _count_work(compiled)
    return compiled


@lru_cache(maxsize=1)
def _environment():
    """The library's environment with match() and search() bounded by the regex engine's timeout."""
    jp = _jsonpath()
    from jsonpath_rfc9535.function_extensions import match, search

    class Match(match.Match):
        def __call__(self, string: str, pattern: object) -> bool:
            return _regex(string, pattern, full=True)

    class Search(search.Search):
        def __call__(self, string: str, pattern: object) -> bool:
            return _regex(string, pattern, full=False)

    env = jp.JSONPathEnvironment()
    env.max_recursion_depth = MAX_DEPTH
    env.function_extensions["match"] = Match()
    env.function_extensions["search"] = Search()
    return env


@lru_cache(maxsize=1)
def _counted() -> dict[type, type]:
    """The library's descendant segment and filter, each as a subclass that counts its work (_tick)."""
    from jsonpath_rfc9535 import filter_expressions as fe
    from jsonpath_rfc9535.segments import JSONPathChildSegment, JSONPathRecursiveDescentSegment

    class Children(JSONPathChildSegment):
        __slots__ = ()

        def resolve(self, nodes):  # the library's loop, one generator deep as there, counting each node
            for node in nodes:
                for selector in self.selectors:
                    for child in selector.resolve(node):
                        _tick()
                        yield child

    class Descendants(JSONPathRecursiveDescentSegment):
        __slots__ = ()

        def _visit(self, node, depth=1):
            _tick()
            return super()._visit(node, depth)

    class Filter(fe.FilterExpression):
        __slots__ = ()

        def evaluate(self, context):
            _tick()
            return super().evaluate(context)

    return {JSONPathChildSegment: Children, JSONPathRecursiveDescentSegment: Descendants, fe.FilterExpression: Filter}


def _count_work(compiled) -> None:
    """Make every descendant segment and filter of a compiled query, nested queries included, count its work."""
    swap = _counted()
    for part in _parts(compiled):
        if type(part) in swap:
            part.__class__ = swap[type(part)]


def _parts(compiled) -> Iterator[object]:
    """Every segment of a compiled query and every node of its filter expressions, nested queries' included."""
    from jsonpath_rfc9535 import filter_expressions as fe
    from jsonpath_rfc9535.selectors import FilterSelector

    todo: list[object] = []
    for segment in compiled.segments:
        yield segment
        todo += [selector.expression for selector in segment.selectors if isinstance(selector, FilterSelector)]
    while todo:
        expr = todo.pop()
        yield expr
        if isinstance(expr, fe.FilterQuery):
            yield from _parts(expr.query)
        todo += [child for name in ("expression", "left", "right") if (child := getattr(expr, name, None)) is not None]
        todo += list(getattr(expr, "args", ()) or ())


def _regex(string: object, pattern: object, full: bool) -> bool:
    """The library's match/search (I-Regexp checked and mapped), under the time left of this query's budget."""
    import regex  # type: ignore[import-untyped]  # no stubs; a dependency of jsonpath-rfc9535
    from iregexp_check import check
    from jsonpath_rfc9535.function_extensions._pattern import map_re

    if isinstance(pattern, str) and len(pattern) > MAX_PATTERN:  # compiling is not under the engine's timeout
        raise _OverBudget(f"a regular expression is {len(pattern):,} characters long; at most {MAX_PATTERN:,} are "
                          "compiled")
    try:
        if not isinstance(pattern, str) or not isinstance(string, str) or not check(pattern):
            return False
    except UnicodeError:  # a lone surrogate is no I-Regexp
        return False
    left = _budget.deadline - time.monotonic()  # find() set this thread's deadline before evaluating
    if left <= 0:
        raise TimeoutError
    try:
        if full:
            return bool(regex.fullmatch(map_re(pattern), string, timeout=left))
        return bool(regex.search(map_re(pattern), string, regex.VERSION1, timeout=left))
    except regex.error:
        return False


_COMPARE = frozenset({"EQ", "NE", "LT", "LE", "GT", "GE"})


def _parenthesised_comparable(query: str) -> str:
    """A parenthesised expression beside a comparison operator (`(@.a)==1`): RFC 9535 groups only logical
    expressions; the library drops the parentheses, so this is read from the tokens."""
    from jsonpath_rfc9535 import lex

    try:
        tokens = [t.type_.name for t in lex.tokenize(query)]
    except Exception:  # noqa: BLE001  # the parser has refused it already, or will
        return ""
    stack: list[str] = []
    for i, kind in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if kind in ("FUNCTION", "LPAREN"):
            stack.append("call" if kind == "FUNCTION" else "group")
            continue
        if kind == "RPAREN" and stack and stack.pop() == "group" and after in _COMPARE:
            return "a parenthesised expression is compared; RFC 9535 compares only literals, singular queries and " \
                   "functions"
        if kind in _COMPARE and after == "LPAREN":
            return "a parenthesised expression is compared; RFC 9535 compares only literals, singular queries and " \
                   "functions"
    return ""


def _forbidden(compiled) -> str:
    """What in a compiled query RFC 9535's grammar forbids though the library accepts it ('' when nothing): a
    comparison whose side is not a comparable (a literal, a singular query or a function), as in `@.a==1==1` and
    `(@.a==1)==true`, which the library parses and the RFC's grammar does not."""
    from jsonpath_rfc9535 import filter_expressions as fe

    not_comparable = (fe.ComparisonExpression, fe.LogicalExpression, fe.PrefixExpression)
    for expr in _parts(compiled):
        if isinstance(expr, fe.ComparisonExpression):
            side = next((s for s in (expr.left, expr.right) if isinstance(s, not_comparable)), None)
            if side is not None:
                return (f"in {expr}, one side of {expr.operator} is {side}; RFC 9535 compares only literals, "
                        "singular queries and functions, never a comparison, a logical expression or a negation")
    return ""
