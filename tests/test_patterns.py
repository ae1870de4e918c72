"""core.patterns.lazy: a pattern compiled when first used answers as the compiled pattern does (issue 46)."""

from __future__ import annotations

import importlib
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.core.patterns import _Lazy, lazy

PATTERNS = [(r"\b(?:leads?|beats?)\b", re.IGNORECASE), (r"(\d+(?:\.\d+)?)\s?(×|x|%)", 0), (r"[,;:—–]|\s-\s", 0),
            (r"^(?:it|them)\b", re.IGNORECASE | re.MULTILINE)]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PATTERNS), st.text(alphabet=st.sampled_from(list("ab lead beats 12.5x%;:-—\nIt them")),
                                          max_size=40))
def test_a_lazy_pattern_answers_as_the_compiled_one(source, text):
    pattern, flags = source
    made, compiled = lazy(pattern, flags), re.compile(pattern, flags)
    assert [m.span() for m in made.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert made.sub("_", text) == compiled.sub("_", text) and made.split(text) == compiled.split(text)
    assert (made.search(text) or None) is None or made.search(text).group() == compiled.search(text).group()
    assert made.pattern == pattern and made.flags == compiled.flags


def test_it_compiles_on_first_use_and_keeps_what_it_gave():
    made = lazy(r"a+b", re.IGNORECASE)
    assert isinstance(made, _Lazy) and "search" not in vars(made)  # nothing compiled at import
    assert made.search("xAAb").group() == "AAb"
    assert vars(made)["search"] == re.compile(r"a+b", re.IGNORECASE).search  # kept: the next call costs nothing more
    assert repr(made) == "lazy('a+b', 2)"


def test_every_lazy_pattern_of_the_package_compiles():
    """A typo in a pattern shows here, not on the first record that reaches it."""
    count = 0
    for name in ("stancewords", "typed", "pagetext"):
        module = importlib.import_module(f"scorecard.measure.{name}")
        for value in vars(module).values():
            if isinstance(value, _Lazy):
                assert isinstance(value.pattern, str) and value.groups >= 0  # both compile it
                count += 1
    assert count > 50
