"""Like for like: which statistic a measured value is, and whether it may stand against the bar.

A set of runs is the statistic `stat:` names (median by default); `best`, `fastest` and their opposites name an
extreme run, whichever end it is. A single value names its
statistic by a token of its key, split on `_`, `-` and `.` (`median_ttft_ms`, `p99_ms`,
`max_tok_s`), or by a member beside it (`stat`, `aggregate_name`). The rules (SC321):

- a spread (`std`, `stddev`, `cv`, `iqr`, `q1`, `q3`, ...) is never a claim value;
- with `sota.stat`, ours is the same statistic; a value that names none passes only where its
  object holds no other statistic of the same quantity;
- without it, a lead or parity rests only on a median or a mean, or on a value that names no statistic
  and stands among no other statistics of its quantity;
- the inputs of a formula share one statistic, under the same rules.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from .evidence import JsonValue
from .selection import Problem, Where, key_words, value_at
from .stats import quantile_of

# A word in a key, and the statistic it names ("spread" for a measure of spread, never a claim value).
WORDS = {"median": "median", "med": "median", "mean": "mean", "avg": "mean", "average": "mean", "min": "min",
         "minimum": "min", "max": "max", "maximum": "max", "std": "spread", "stddev": "spread", "stdev": "spread",
         "sd": "spread", "cv": "spread", "iqr": "spread", "q1": "spread", "q3": "spread", "var": "spread",
         "variance": "spread", "mad": "spread", "ld15iqr": "spread", "hd15iqr": "spread", "sem": "spread",
         "stderr": "spread", "best": "extreme", "worst": "extreme", "fastest": "extreme", "slowest": "extreme",
         "lowest": "min", "highest": "max", "p0": "min", "p100": "max"}
MEMBERS = ("stat", "aggregate_name")
_CENTRE = ("median", "mean")


@functools.lru_cache(maxsize=4096)  # a pure function of a key's word, asked for every value of every record
def word_stat(word: str) -> str | None:
    """The statistic one word names: median, mean, min, max, pNN (p50 is the median), spread, or None."""
    low = word.lower()
    if low in WORDS:
        return WORDS[low]
    p = quantile_of(low)
    if p is None:
        return None
    return "median" if p * 2 == 1 else low


def _tokens(key: str) -> list[str]:
    """A key's words (selection.key_words): medianLatencyMs is median, latency, ms; p99_ttft_ms is p99, ttft, ms."""
    return key_words(key)


def named(data: JsonValue, place: Where) -> str | None:
    """The statistic the value at place names by its key or by a member beside it, or None."""
    if not place:
        return None
    parent = value_at(data, place[:-1])
    key = place[-1]
    if isinstance(parent, dict):
        for member in MEMBERS:
            value = parent.get(member)
            if isinstance(value, str) and member != key and (found := word_stat(value)) is not None:
                return found
    if isinstance(key, str):
        for token in _tokens(key):
            if (found := word_stat(token)) is not None:
                return found
    return None


def among_others(data: JsonValue, place: Where) -> list[str]:
    """The other statistics of the same quantity beside the value at place (keys differing only in a stat word)."""
    if not place or not isinstance(place[-1], str):
        return []
    parent = value_at(data, place[:-1])
    if not isinstance(parent, dict):
        return []
    quantity = _quantity(place[-1])
    return sorted(k for k, v in parent.items() if k != place[-1] and isinstance(v, (int, float))
                  and not isinstance(v, bool) and _quantity(k) == quantity
                  and any(word_stat(t) is not None for t in _tokens(k)))


def _quantity(key: str) -> tuple[str, ...]:
    return tuple(t.lower() for t in _tokens(key) if word_stat(t) is None)


def same(a: str, b: str) -> bool:
    """Whether two statistics are one: median is p50."""
    return (word_stat(a) or a) == (word_stat(b) or b)


def check(values: Iterable[tuple[str | None, str, JsonValue, Where, tuple]], bar_stat: str | None,
          status: str) -> Problem | None:
    """SC321 for the first value that does not stand like for like with the bar.

    values: (the statistic of its runs, or None for a single value; its selector; the artifact's data; where the
    value sits; its place in the record)."""
    seen: list[tuple[str, tuple]] = []
    for runs_stat, selector, data, place, loc in values:
        stat = (word_stat(runs_stat) or runs_stat) if runs_stat else named(data, place)  # p50 is the median
        if stat == "spread":
            return Problem("SC321", loc, f"'{selector}' is a measure of spread, not of the quantity: a spread is "
                           "never a claim value", "select the runs, or the median or mean the tool reports")
        problem = _against_bar(stat, runs_stat is not None, selector, data, place, loc, bar_stat, status)
        if problem is not None:
            return problem
        if stat is not None:
            seen.append((stat, loc))
    if len({word_stat(s) or s for s, _ in seen}) > 1:
        stats = ", ".join(sorted({s for s, _ in seen}))
        return Problem("SC321", seen[-1][1], f"the formula's inputs are different statistics ({stats}): a ratio of a "
                       "best run to a worst one is not a ratio of the systems", "give every input the same stat: (the "
                       "bar's, or median)")
    return None


def _against_bar(stat: str | None, runs: bool, selector: str, data: JsonValue, place: Where, loc: tuple,
                 bar_stat: str | None, status: str) -> Problem | None:
    others = [] if runs else among_others(data, place)
    if bar_stat is not None:
        if stat is not None and not same(stat, bar_stat):
            what = f"the {stat} of its runs" if runs else f"the {stat}"
            return Problem("SC321", loc, f"the bar is the {bar_stat}; this claim is {what} ('{selector}')",
                           f"claim the {bar_stat} too (stat: {bar_stat}, or the tool's own {bar_stat})")
        if stat is None and others:
            return Problem("SC321", loc, f"the bar is the {bar_stat}; '{selector}' names no statistic but stands "
                           f"among {', '.join(others)}", f"select the {bar_stat} itself")
        return None
    if status != "leads":
        return None
    if stat is not None and stat not in _CENTRE:
        what = f"the {stat} of its runs" if runs else f"the {stat}"
        return Problem("SC321", loc, f"the value is {what} ('{selector}'), and the bar states no statistic: "
                       "without sota.stat, a lead or parity rests only on a median or a mean",
                       "claim the median or mean (stat: median), or state the bar's statistic in sota.stat if it "
                       "really is the same")
    if stat is None and others:
        return Problem("SC321", loc, f"'{selector}' names no statistic but stands among {', '.join(others)}: a "
                       "lead or parity rests only on the median or the mean", "select the median or the mean")
    return None
