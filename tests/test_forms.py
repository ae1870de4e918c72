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

from scorecard import compare, units
from scorecard.measure import Measurement

STATUSES = ("leads", "parity", "trails")


def verdict(status: str, value: float, unit: str, bar: float, bar_unit: str, better: str, tol: float = 0.05):
    m = Measurement(value, unit, ())
    c = compare.compare(m, SimpleNamespace(value=bar, unit=bar_unit, better=better), tol)
    assert c is not None
    problem = compare.judge(status, m, c)
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
