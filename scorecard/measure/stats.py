"""Statistics of a sample set, deterministic: the statistic, and its confidence interval at a given level.

- a quantile (`median` = `p50`, `p90`, `p99.9`: any 0 < NN < 100): the point by linear
  interpolation between order statistics (numpy's default, Hyndman-Fan type 7); the interval
  is the exact distribution-free equal-tailed one, [x(l), x(u)], l the largest and u the
  smallest rank whose tail P(B <= l-1), P(B >= u) for B ~ Binomial(n, p) is at most alpha/2.
  Where no rank is far enough out (too few runs: at 95 % the median needs 6, p99's upper end
  368), that end does not exist, and no lead or trail may rest on it; runs_needed says how
  many runs would give it;
- mean: Student's t-interval, mean ± t(1 - alpha/2, n-1) · s / √n (from 2 runs);
- min and max: no interval (single numbers: the range is shown instead).
Tail probabilities are exact integer sums up to EXACT_RANKS runs, and beyond that the
incomplete beta function. Nothing is random: the same samples always give the same figures.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import field, replace
from fractions import Fraction

from ..core.structs import frozen

STATS = ("median", "mean", "min", "max")  # the words; any pNN is a quantile too
ALPHA = Fraction(1, 20)  # one interval alone is at 95 %
LEVEL = 0.95
EXACT_RANKS = 2000
_QUANTILE = re.compile(r"^p([0-9]{1,2}(?:\.[0-9]{1,6})?)$")


def quantile_of(stat: str) -> Fraction | None:
    """The quantile a statistic names (median: 1/2, p99.9: 999/1000), or None for mean, min and max."""
    if stat == "median":
        return Fraction(1, 2)
    m = _QUANTILE.match(stat)
    if m is None:
        return None
    p = Fraction(m[1]) / 100
    return p if 0 < p < 1 else None


def is_stat(text: str) -> bool:
    """Whether text is a statistic scorecard computes: median, mean, min, max or pNN (0 < NN < 100)."""
    return text in STATS or quantile_of(text) is not None


@frozen
class Summary:
    """A sample set reduced: the statistic, n, the range, and its interval where one applies.

    For a quantile or a mean, low and high are the interval's ends at the level asked for, each None where the
    runs cannot give it (needs_low/needs_high: how many runs would); min and max have no interval."""

    stat: str
    value: float
    n: int
    lowest: float
    highest: float
    low: float | None = None
    high: float | None = None
    coverage: float | None = None  # the interval's exact confidence (at least level), where both ends exist
    level: float = LEVEL
    needs_low: int | None = None
    needs_high: int | None = None
    failures: int = 0  # failed requests among the n, each entered as the slowest (an unbounded time)
    unbounded: bool = False  # the failures reach the statistic's own rank: value is then over the successes only
    samples: tuple[float, ...] = field(default=(), compare=False, repr=False)  # the runs, sorted (prose: p99 of them)

    @property
    def has_interval(self) -> bool:
        """A quantile or a mean of several runs: judged by its interval (whose ends may be missing), not as a single
        number. One run is a single value, judged exact (as asv judges a single sample); min and max have none."""
        return self.stat not in ("min", "max") and self.n > 1


MEDIAN = Fraction(1, 2)


def summarise(samples: list[float], stat: str = "median", alpha: Fraction = ALPHA, failures: int = 0) -> Summary:
    """The statistic of samples (non-empty) and its confidence interval at 1 - alpha. failures: requests that failed
    beside the samples, each entered at the slow end as an unbounded time (issue 41); an end they reach is missing
    (high None, and no count of runs would give it), and where they reach the statistic's own rank the Summary is
    unbounded and its value the statistic over the samples alone (never shown as the statistic of all)."""
    if failures:
        return _with_failures(sorted(samples), stat, alpha, failures)
    xs = sorted(samples)
    return replace(_summarise(xs, stat, alpha), samples=tuple(xs))


def _summarise(xs: list[float], stat: str, alpha: Fraction) -> Summary:
    n = len(xs)
    lowest, highest = xs[0], xs[-1]
    level = float(1 - alpha)
    if stat in ("min", "max"):
        return Summary(stat, lowest if stat == "min" else highest, n, lowest, highest, level=level)
    if stat == "mean":
        mean = _mean(xs, lowest, highest)
        lo, u, _ = order_interval(n, MEDIAN, alpha)
        if lo is None or u is None:  # a mean, like the median, needs the runs that give the median's ends
            needs = runs_needed(MEDIAN, alpha, "low")
            return Summary(stat, mean, n, lowest, highest, level=level, needs_low=needs, needs_high=needs)
        scale = max(abs(lowest), abs(highest)) or 1.0  # scaled, so that squaring huge runs cannot overflow
        sd = scale * math.sqrt(math.fsum(((x - mean) / scale) ** 2 for x in xs) / (n - 1))
        half = t_quantile(1 - float(alpha) / 2, n - 1) * sd / math.sqrt(n)
        return Summary(stat, mean, n, lowest, highest, mean - half, mean + half, level, level)
    p = quantile_of(stat)
    if p is None:
        raise ValueError(f"not a statistic: {stat!r}")
    lo, u, coverage = order_interval(n, p, alpha)
    return Summary(stat, quantile(xs, p), n, lowest, highest, None if lo is None else xs[lo - 1],
                   None if u is None else xs[u - 1], coverage, level,
                   None if lo is not None else runs_needed(p, alpha, "low"),
                   None if u is not None else runs_needed(p, alpha, "high"))


def _with_failures(xs: list[float], stat: str, alpha: Fraction, failures: int) -> Summary:
    """summarise() over xs and `failures` unbounded times above them: n counts every request."""
    n, level = len(xs) + failures, float(1 - alpha)

    def made(value: float, unbounded: bool = False, low: float | None = None, high: float | None = None,
             coverage: float | None = None, needs_low: int | None = None) -> Summary:
        return Summary(stat, value, n, xs[0], xs[-1], low, high, coverage, level, needs_low, None, failures,
                       unbounded)

    p = quantile_of(stat)
    if stat == "min":
        return made(xs[0])
    h = (n - 1) * p if p is not None else None  # the linear interpolation's rank
    if h is None or h > len(xs) - 1:  # a max or a mean with any failure, or a quantile the failures reach
        return made(summarise(xs, stat, alpha).value, unbounded=True)
    assert p is not None
    point = quantile(xs + [xs[-1]] * failures, p)  # within the successes: the failures' values do not enter
    lo, u, coverage = order_interval(n, p, alpha)
    low = None if lo is None or lo > len(xs) else xs[lo - 1]
    high = None if u is None or u > len(xs) else xs[u - 1]
    return made(point, low=low, high=high, coverage=coverage if high is not None else None,
                needs_low=None if lo is not None else runs_needed(p, alpha, "low"))


def quantile(xs: list[float], p: Fraction) -> float:
    """The p-quantile of sorted xs by linear interpolation between order statistics (numpy's default)."""
    h = (len(xs) - 1) * p
    j = math.floor(h)
    if j + 1 >= len(xs):
        return xs[-1]
    a, b, frac = xs[j], xs[j + 1], float(h - j)
    if frac == 0.5:
        return _midpoint(a, b)
    point = a + frac * (b - a)
    if math.isinf(point):
        point = a * (1 - frac) + b * frac
    return min(max(point, a), b)  # rounding never takes it outside [a, b]


@functools.lru_cache(maxsize=1024)
def order_interval(n: int, p: Fraction, alpha: Fraction = ALPHA) -> tuple[int | None, int | None, float | None]:
    """(lo, u, coverage): the ranks of the equal-tailed interval [x(lo), x(u)] for the p-quantile of n runs at
    1 - alpha; an end is None where no rank has its tail within alpha/2, and coverage None unless both exist."""
    half = alpha / 2
    if n > EXACT_RANKS:
        return _order_interval_large(n, float(p), float(half))
    a, d = p.numerator, p.denominator
    cumulative, c = [0], 1  # cumulative[j] = d^n P(B <= j-1), from C(n, i) a^i (d-a)^(n-i)
    for i in range(n + 1):
        cumulative.append(cumulative[-1] + c * a ** i * (d - a) ** (n - i))
        c = c * (n - i) // (i + 1)
    total = cumulative[-1]  # d^n

    def within(tail: int) -> bool:  # tail / d^n <= alpha / 2, exactly
        return tail * half.denominator <= half.numerator * total

    lo = next((r for r in range(n, 0, -1) if within(cumulative[r])), None)  # P(B <= lo-1) = cumulative[lo] / d^n
    u = next((r for r in range(1, n + 1) if within(total - cumulative[r])), None)  # P(B >= u)
    coverage = None if lo is None or u is None else float(Fraction(cumulative[u] - cumulative[lo], total))
    return lo, u, coverage


def _order_interval_large(n: int, p: float, half: float) -> tuple[int | None, int | None, float | None]:
    """order_interval beyond EXACT_RANKS runs, by bisection on the incomplete beta function's tails."""
    def below(j: int) -> float:  # P(B <= j)
        return incomplete_beta(n - j, j + 1, 1 - p) if j < n else 1.0

    def above(j: int) -> float:  # P(B >= j)
        return incomplete_beta(j, n - j + 1, p) if j > 0 else 1.0

    lo = _last(1, n, lambda r: below(r - 1) <= half)
    u = _first(1, n, lambda r: above(r) <= half)
    coverage = None if lo is None or u is None else 1 - below(lo - 1) - above(u)
    return lo, u, coverage


def _last(lo: int, hi: int, ok) -> int | None:
    """The largest r in [lo, hi] with ok(r), for ok true up to some point and false after."""
    if not ok(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid - 1)
    return lo


def _first(lo: int, hi: int, ok) -> int | None:
    """The smallest r in [lo, hi] with ok(r), for ok false up to some point and true after."""
    if not ok(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if ok(mid) else (mid + 1, hi)
    return lo


def runs_needed(p: Fraction, alpha: Fraction, end: str) -> int:
    """The fewest runs whose p-quantile interval at 1 - alpha has the given end ("low" or "high")."""
    tail = (1 - p) if end == "low" else p  # the end exists once the tail beyond the extreme run is within alpha/2
    n = max(1, math.floor(math.log(alpha / 2) / math.log(tail)) - 2)
    while tail ** n > alpha / 2:
        n += 1
    return n


def _mean(xs: list[float], lowest: float, highest: float) -> float:
    """The mean of sorted xs, within [lowest, highest]: scaled by the largest magnitude first, so that a sum of
    huge runs cannot overflow and halving subnormal runs cannot round them to zero."""
    scale = max(abs(lowest), abs(highest))
    if scale == 0:
        return 0.0
    mean = scale * (math.fsum(x / scale for x in xs) / len(xs))
    return min(max(mean, lowest), highest)


def t_quantile(p: float, df: int) -> float:
    """The p-quantile of Student's t distribution with df degrees of freedom (0.5 < p < 1)."""
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):  # bisection to full double precision
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with df degrees of freedom."""
    x = df / (df + t * t)
    tail = 0.5 * incomplete_beta(df / 2, 0.5, x)
    return 1 - tail if t >= 0 else tail


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), by its continued fraction."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    # Lentz's method, as in Numerical Recipes' betacf.
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        even = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
        odd = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
        for num in (even, odd):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h


def _midpoint(a: float, b: float) -> float:
    """(a + b) / 2 for a <= b, without overflow near the float maximum or underflow near zero."""
    mid = (a + b) / 2
    if math.isinf(mid):
        mid = a / 2 + b / 2
    return min(max(mid, a), b)  # rounding never takes it outside [a, b]
