"""Charts that read without their caption (issue 27 item 5): the bullet chart's scale and the history chart's round
ticks, measured as geometry (label boxes apart and inside the picture, ticks at round values)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from scorecard.measure.compare import Comparison
from scorecard.site import charts

_POSITIVE = st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False)


def _round(x: float) -> bool:
    """1, 2, 2.5 or 5 times a power of ten (or 0)."""
    if x == 0:
        return True
    mantissa = abs(x) / 10 ** math.floor(math.log10(abs(x)))
    return any(math.isclose(mantissa, m, rel_tol=1e-9) for m in (1, 2, 2.5, 5, 10))


@settings(max_examples=300, deadline=None)
@given(_POSITIVE, st.floats(min_value=1.01, max_value=1e4))
def test_nice_ticks_are_round_and_cover_the_axis(lo, spread):
    hi = lo * spread
    ticks = charts.nice_ticks(lo, hi, 3, outward=True)
    assert ticks[0] <= lo * (1 + 1e-9) and ticks[-1] >= hi * (1 - 1e-9)
    assert 2 <= len(ticks) <= 8
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:], strict=False)}
    assert len({round(s / max(steps), 6) for s in steps}) == 1 and _round(max(steps))
    inner = charts.nice_ticks(lo, hi, 4)
    assert all(lo * (1 - 1e-9) <= t <= hi * (1 + 1e-9) for t in inner)


@pytest.mark.parametrize("lo, hi, expected", [(50, 81.2, [40, 60, 80, 100]), (0, 1, [0, 0.25, 0.5, 0.75, 1]),
                                              (0.1, 0.1, [0.1])])
def test_nice_ticks_examples(lo, hi, expected):
    assert charts.nice_ticks(lo, hi, 3 if hi > 1 else 4, outward=True) == expected


def _ticks(value: float, bar: float, unit: str, shown: str | None = None) -> list[dict]:
    c = Comparison(value, bar, unit, "lower", 0.05, (bar - value) / bar)
    top = max(value, bar) * 1.15
    return charts._bullet_ticks(c, shown or unit, top, lambda v: round(max(v, 0) / top * charts.BULLET_WIDTH, 1))


@settings(max_examples=300, deadline=None)
@given(_POSITIVE, _POSITIVE, st.sampled_from(["ms", "s", "tok/s", "x", "Wh/token", "%"]))
def test_bullet_scale_labels_are_apart_inside_and_name_the_bar(value, bar, unit):
    ticks = _ticks(value, bar, unit)
    assert sum(t["bar"] for t in ticks) == 1 and len(ticks) >= 1
    assert next(t for t in ticks if t["bar"])["label"].startswith("bar ")
    for t in ticks:
        assert t["left"] >= 0 and t["right"] <= charts.BULLET_WIDTH + 2 + 1e-6, t
        assert t["label"].endswith(unit), t
    for a, b in zip(ticks, ticks[1:], strict=False):
        assert a["right"] + charts.TICK_GAP <= b["left"], (a, b)


def test_bullet_scale_has_a_round_tick_each_side_where_there_is_room():
    ticks = _ticks(6.2, 0.5, "ms")
    assert [t["label"] for t in ticks] == ["bar 0.5 ms", "3 ms"]  # 0 ms, 1 ms and 2 ms would touch the bar's label
    assert [t["label"] for t in _ticks(81.2, 120, "ms")] == ["80 ms", "bar 120 ms"]
    assert [t["label"] for t in _ticks(0.0007, 0.0005, "s", "µs")] == ["200 µs", "bar 500 µs", "800 µs"]
