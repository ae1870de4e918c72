"""Units as a reader reads them (issue 43 item 5): the spelling a page shows, whatever spelling was typed."""

from __future__ import annotations

import pytest

from scorecard.measure import units
from scorecard.measure.numfmt import fmt_value


@pytest.mark.parametrize("written, shown", [("us", "µs"), ("μs", "µs"), ("µs", "µs"), ("ms", "ms"), ("s", "s"),
                                            ("uB", "µB"), ("us/op", "us/op"), ("u", "u"), ("req/s", "req/s"),
                                            ("usd", "usd"), ("x", "x")])
def test_a_unit_is_shown_as_a_reader_spells_it(written, shown):
    """The page showed the typed "us" beside "µs"."""
    assert units.spelled(written) == shown


@pytest.mark.parametrize("value, written, shown", [(637.0, "us", "637 µs"), (637.0, "μs", "637 µs"),
                                                   (0.637, "us", "637 ns"), (1500.0, "us", "1.5 ms"),
                                                   (81.2, "ms", "81.2 ms")])
def test_a_value_is_shown_in_that_spelling(value, written, shown):
    assert fmt_value(value, written) == shown
