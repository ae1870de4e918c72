"""Statistics of a sample set, deterministic: the statistic, and a 95% confidence interval.

- median: the distribution-free order-statistic interval [x(k), x(n+1-k)], with the largest k
  whose exact binomial coverage is at least 95%; with 2 to 5 samples no such k exists and the
  interval is the whole range, whose (smaller) coverage is reported;
- mean: Student's t-interval, mean ± t(0.975, n-1) · s / √n;
- min and max: no interval (the range is shown instead).
Nothing is random: the same samples always give the same figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

STATS = ("median", "mean", "min", "max")
LEVEL = 0.95


@dataclass(frozen=True, slots=True)
class Summary:
    """A sample set reduced: the statistic, n, the range, and an interval where one applies."""

    stat: str
    value: float
    n: int
    lowest: float
    highest: float
    low: float | None = None
    high: float | None = None
    coverage: float | None = None  # the interval's confidence level (0.95, or less for a tiny median sample)


def summarise(samples: list[float], stat: str = "median") -> Summary:
    """The statistic of samples (non-empty) and its confidence interval."""
    xs = sorted(samples)
    n = len(xs)
    lowest, highest = xs[0], xs[-1]
    if stat == "min":
        return Summary(stat, lowest, n, lowest, highest)
    if stat == "max":
        return Summary(stat, highest, n, lowest, highest)
    if stat == "mean":
        mean = _mean(xs, lowest, highest)
        if n < 2:
            return Summary(stat, mean, n, lowest, highest)
        scale = max(abs(lowest), abs(highest)) or 1.0  # scaled, so that squaring huge runs cannot overflow
        sd = scale * math.sqrt(math.fsum(((x - mean) / scale) ** 2 for x in xs) / (n - 1))
        half = t_quantile(1 - (1 - LEVEL) / 2, n - 1) * sd / math.sqrt(n)
        return Summary(stat, mean, n, lowest, highest, mean - half, mean + half, LEVEL)
    mid = n // 2
    median = xs[mid] if n % 2 else _midpoint(xs[mid - 1], xs[mid])
    if n < 2:
        return Summary("median", median, n, lowest, highest)
    k, coverage = median_rank(n)
    return Summary("median", median, n, lowest, highest, xs[k - 1], xs[n - k], coverage)


def _mean(xs: list[float], lowest: float, highest: float) -> float:
    """The mean of sorted xs, within [lowest, highest]: scaled by the largest magnitude first, so that a sum of
    huge runs cannot overflow and halving subnormal runs cannot round them to zero."""
    scale = max(abs(lowest), abs(highest))
    if scale == 0:
        return 0.0
    mean = scale * (math.fsum(x / scale for x in xs) / len(xs))
    return min(max(mean, lowest), highest)


def median_rank(n: int) -> tuple[int, float]:
    """(k, coverage): the order statistics x(k) and x(n+1-k) bound the median with that exact coverage.

    k is the largest rank with coverage >= 95%; when none has (n <= 5), k is 1 (the range).
    Exact binomial sums for n up to EXACT_RANKS; beyond, the same tail from the incomplete beta
    function, starting at the normal approximation (exact integers would take minutes at 10^6 runs).
    """
    if n > EXACT_RANKS:
        return _median_rank_large(n)
    total = 2 ** n
    k, tail, term = 1, 1, 1  # tail: C(n,0) + ... + C(n,k-1), i.e. P(B <= k-1) * 2^n for B ~ Binomial(n, 1/2)
    best = (1, 1 - 2 * tail / total)
    while k + 1 <= n // 2:
        term = term * (n - k + 1) // k  # C(n, k)
        if 2 * (tail + term) * 20 > total:  # the next rank's coverage would fall below 95%
            break
        k, tail = k + 1, tail + term
        best = (k, 1 - 2 * tail / total)
    return best


EXACT_RANKS = 2000


def _median_rank_large(n: int) -> tuple[int, float]:
    def coverage(k: int) -> float:  # 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2)
        return 1 - 2 * incomplete_beta(n - k + 1, k, 0.5)

    k = max(1, int(n / 2 - 1.959964 * math.sqrt(n) / 2))
    while k > 1 and coverage(k) < LEVEL:
        k -= 1
    while k + 1 <= n // 2 and coverage(k + 1) >= LEVEL:
        k += 1
    return k, coverage(k)


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
