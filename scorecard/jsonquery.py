"""JSONPath queries (RFC 9535) evaluated within bounds: a query a pull request writes never hangs or exhausts memory.

A query is refused before it runs when it is longer than MAX_QUERY characters, has more than MAX_DESCENDANTS
descendant segments (each multiplies the nodes visited), or is a form RFC 9535 forbids that the library accepts (a
comparison whose side is itself a comparison, a logical expression or a negation: `@.a==1==1`, `(@.a==1)==true`).
While it runs it is bounded in time (TIME_BUDGET seconds, regular expressions included: the match() and search()
functions run with the regex engine's own timeout) and in the nodes it selects (MAX_NODES). Running out of a bound is
a BudgetError, never a hang: a watchdog thread raises it in the evaluating thread at the deadline.

jsonpath_rfc9535 is imported here only, and only when a ledger uses path: (the hook path of most ledgers never
loads it).
"""

from __future__ import annotations

import ctypes
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from functools import lru_cache
from typing import Any

MAX_QUERY = 1000  # characters
MAX_DESCENDANTS = 2  # descendant segments (..) in one query
MAX_NODES = 100_000  # nodes a query may select
MAX_DEPTH = 100  # nesting a descendant segment follows (the library's own limit)
TIME_BUDGET = 2.0  # seconds one query may run


class QueryError(Exception):
    """A query that cannot be evaluated: kind is "syntax" (not an RFC 9535 query, or a form it forbids), "size"
    (refused before it runs: too long, too many descendant segments), "budget" (ran out of time or nodes) or "depth"
    (the data nests deeper than a query follows)."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


class _OutOfTime(BaseException):
    """Raised in the evaluating thread by the watchdog (a BaseException, so no library handler swallows it)."""


def descendants(query: str) -> int:
    """How many descendant segments (..) the query has, outside its string literals."""
    return len(re.findall(r"\.\.", re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "", query)))


def find(query: str, data: Any) -> list[tuple[Any, tuple[str | int, ...]]]:
    """(value, location) of every node query selects in data, within the bounds; QueryError otherwise."""
    compiled = _compile(query)
    deadline = time.monotonic() + TIME_BUDGET
    out: list[tuple[Any, tuple[str | int, ...]]] = []
    # Without a filter or a descendant segment a query's work is bounded by its length: no watchdog is needed
    bounded = "?" not in query and ".." not in query
    try:
        with _watchdog(deadline) if not bounded else nullcontext():
            for node in compiled.finditer(data):
                out.append((node.value, tuple(node.location)))
                if len(out) > MAX_NODES:
                    raise QueryError(f"selects more than {MAX_NODES:,} values", "budget")
    except _OutOfTime:
        raise QueryError(f"ran past its {TIME_BUDGET:g}-second budget", "budget") from None
    except TimeoutError:  # a regular expression's own timeout
        raise QueryError(f"its regular expression ran past the {TIME_BUDGET:g}-second budget", "budget") from None
    except (RecursionError, MemoryError):
        raise QueryError("ran out of depth or memory", "budget") from None
    except _jsonpath().JSONPathRecursionError:
        raise QueryError(f"the data nests deeper than the {MAX_DEPTH} levels a descendant segment follows",
                         "depth") from None
    except _jsonpath().JSONPathError as exc:
        raise QueryError(str(exc), "syntax") from None
    return out


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
    forbidden = _forbidden(compiled)
    if forbidden:
        raise QueryError(f"not an RFC 9535 JSONPath query: {forbidden}", "syntax")
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


_deadline = threading.local()


def _regex(string: object, pattern: object, full: bool) -> bool:
    """The library's match/search (I-Regexp checked and mapped), under the time left of this query's budget."""
    import regex  # type: ignore[import-untyped]  # no stubs; a dependency of jsonpath-rfc9535
    from iregexp_check import check
    from jsonpath_rfc9535.function_extensions._pattern import map_re

    if not isinstance(pattern, str) or not isinstance(string, str) or not check(pattern):
        return False
    left = getattr(_deadline, "at", time.monotonic() + TIME_BUDGET) - time.monotonic()
    if left <= 0:
        raise TimeoutError
    try:
        if full:
            return bool(regex.fullmatch(map_re(pattern), string, timeout=left))
        return bool(regex.search(map_re(pattern), string, regex.VERSION1, timeout=left))
    except regex.error:
        return False


def _forbidden(compiled) -> str:
    """What in a compiled query RFC 9535's grammar forbids though the library accepts it ('' when nothing)."""
    from jsonpath_rfc9535.selectors import FilterSelector

    for segment in compiled.segments:
        for selector in segment.selectors:
            found = _forbidden_in(selector.expression) if isinstance(selector, FilterSelector) else ""
            if found:
                return found
    return ""


def _forbidden_in(expr) -> str:
    """The first comparison in a filter expression whose side is not a comparable (a literal, a singular query or a
    function); the library parses `@.a==1==1` and `(@.a==1)==true`, which the RFC's grammar does not."""
    from jsonpath_rfc9535 import filter_expressions as fe

    if isinstance(expr, fe.ComparisonExpression):
        for side in (expr.left, expr.right):
            if isinstance(side, (fe.ComparisonExpression, fe.LogicalExpression, fe.PrefixExpression)):
                return (f"in {expr}, one side of {expr.operator} is {side}; RFC 9535 compares only literals, "
                        "singular queries and functions, never a comparison, a logical expression or a negation")
    if isinstance(expr, fe.FilterQuery):
        return _forbidden(expr.query)
    children = [getattr(expr, name, None) for name in ("expression", "left", "right")]
    for child in [*children, *(getattr(expr, "args", ()) or ())]:
        found = _forbidden_in(child) if child is not None else ""
        if found:
            return found
    return ""


@contextmanager
def _watchdog(deadline: float) -> Iterator[None]:
    """Raise _OutOfTime in this thread if the block is still running at deadline.

    The exception is set with PyThreadState_SetAsyncExc (as stopit and func-timeout do) and arrives at the next
    bytecode boundary; under the lock, a block that finished in time is never interrupted afterwards.
    """
    ident = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}

    def fire() -> None:
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(_OutOfTime))

    previous = getattr(_deadline, "at", None)
    _deadline.at = deadline
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
        if previous is None:
            del _deadline.at
        else:
            _deadline.at = previous
        if state["fired"]:  # set but maybe not yet delivered: clear it (or it arrives here, inside find's try)
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
