"""The verdict in words: whether a typed status is the one the evidence gives, and why, in one sentence.

compare.py decides (Comparison.verdict); this module says it: the refusal of a status the evidence does not
give names the status it gives, the reason, and the numbers behind it (docs/rules.md SC501-SC506, SC514).
"""

from __future__ import annotations

import math

from . import stats
from .compare import Comparison
from .gapwords import gap_words
from .measured import Bar
from .reading import Measurement, Problem


def judge(status: str, m: Measurement, c: Comparison, bar: Bar | None = None, stat_ok: bool = True,
          stat_why: str = "") -> Problem | None:
    """None when status is the one the evidence gives (Comparison.verdict), else the problem: it names the status
    the evidence gives and why, in one sentence, with the numbers behind it. stat_ok and stat_why: whether the value
    is a statistic a lead or parity may rest on, and if not, why (like.py's words)."""
    given = c.verdict(stat_ok)
    if status == given:
        return None
    shown = _shown(m, c, bar)
    tol = "" if c.zero_bar else f" (tolerance ±{c.tolerance:.0%})"
    because = f"the evidence gives {given}: {verdict_reason(given, m, c, bar, stat_ok, stat_why)}"
    more = "; rerun the benchmark until every request succeeds to place it" if m.censored else \
        "; measure more runs to place it"
    hint = f"set status: {given}" + (more if given == "inconclusive" and stat_ok else "")
    code = _refusal_code(status, given, c, stat_ok)
    interval = _interval_words(m, bar)
    worst = "covers only the successful requests of a run where some failed, so its worse end is unbounded" \
        if m.censored else _reaches(m, c, 'worst', bar)
    detail = {"SC505": f"the {interval} {worst}" if not m.censored else f"the value {worst}",
              "SC506": f"the {interval} {_reaches(m, c, 'best', bar)}",
              "SC504": f"it leads by {c.margin:.1%}, within the parity tolerance of {c.tolerance:.0%}",
              "SC321": stat_why}.get(code, f"the result is {gap_words(c)}{tol}")
    if c.unbounded:
        detail = verdict_reason("trails", m, c)
    if c.unbounded or code == "SC321" or (code in ("SC505", "SC506") and given in ("inconclusive", "trails") and
                                          not c.within):
        because = f"the evidence gives {given}"  # the detail has said why
    return Problem(code, ("status",), f"status is {status}, but {detail}; {because}: {shown}", hint)


def _refusal_code(status: str, given: str, c: Comparison, stat_ok: bool) -> str:
    """The rule a refused status breaks (docs/rules.md): by the status typed, and the first condition it misses."""
    if c.unbounded:  # behind without bound (issue 41)
        return {"leads": "SC501", "parity": "SC503", "trails": "SC502"}.get(status, "SC514")
    if status == "leads":
        if not stat_ok:
            return "SC321"
        if c.margin <= 0:
            return "SC501"
        return "SC505" if c.worse_end <= 0 else "SC504"
    if status == "trails":  # the point behind, but the interval reaches the bar (inconclusive): SC506
        return "SC506" if c.margin < 0 and given == "inconclusive" else "SC502"
    if status == "parity":
        return "SC503" if stat_ok else "SC321"
    return "SC514"  # inconclusive, where the evidence places the value


def verdict_reason(given: str, m: Measurement, c: Comparison, bar: Bar | None = None, stat_ok: bool = True,
                   stat_why: str = "") -> str:
    """Why the evidence gives its status, in words: 'the median is 54.4% behind, beyond the ±5% tolerance'."""
    what = f"the {m.summary.stat}" if m.summary is not None else "the value"
    tol = "any tolerance (the bar is 0)" if c.zero_bar else f"the ±{c.tolerance:.0%} tolerance"
    interval = _interval_words(m, bar)
    if given == "leads":
        return f"{what} is {gap_words(c)}, beyond {tol}, and the whole {interval} is better than the bar"
    if given == "parity":
        return _parity_reason(m, c, bar, what, tol, interval)
    if c.unbounded and m.summary is not None:
        return (f"{m.summary.failures:,} of the {m.summary.n:,} requests failed, each counted as the slowest, so "
                f"the {m.summary.stat} of all is unbounded: behind by more than any tolerance")
    if given == "trails":
        if c.margin < 0 and not c.within:
            return f"{what} is {gap_words(c)}, beyond {tol}"
        return f"the whole {interval} is behind the bar"
    if m.censored:
        return (f"{what} is {gap_words(c)}, but it covers only the successful requests of a run where some failed: "
                "it is only our better end (failed requests are the slow ones)")
    if not stat_ok:  # inconclusive because only trails could be said of this statistic, and it does not trail
        return f"{stat_why or 'the value is not a statistic a lead or parity rests on'}, and it is not behind"
    if math.isinf(c.worse_end):
        return f"{what} is {gap_words(c)}, and the {interval} {_reaches(m, c, 'worst', bar)}"
    return f"{what} is {gap_words(c)}, and the {interval} reaches from behind by more than {tol} to the bar"


def _parity_reason(m: Measurement, c: Comparison, bar: Bar | None, what: str, tol: str, interval: str) -> str:
    if c.zero_bar:
        return f"the {interval} reaches the bar of 0" if m.has_interval else "the value is exactly the bar of 0"
    if not m.has_interval and not (bar is not None and bar.has_interval):
        return f"{what} is {gap_words(c)}, within {tol} (one number: its run-to-run noise is not known)"
    return f"the {interval}'s worse end is not behind the bar by more than {tol}"


def _g(x: float) -> str:
    return f"{x:.6g}"


def _interval_words(m: Measurement, bar: Bar | None = None) -> str:
    if m.interval_from == "artifact":
        ours = f"{percent(m.level)} interval the artifact reports" if m.level else "interval the artifact reports"
    elif not (m.interval_from or m.missing_end) and bar is not None and bar.has_interval:
        ours = "value"
    else:
        what = m.summary.stat if m.summary else ("formula (through its inputs' intervals)" if m.expr else "value")
        ours = f"{percent(m.level or stats.LEVEL)} confidence interval of the {what}"
    return ours + (" against the bar's own interval" if bar is not None and bar.has_interval else "")


def percent(level: float) -> str:
    """A confidence level as people write it: 0.95 -> 95%, 0.975 -> 97.5%."""
    return f"{level * 100:.4g}%"


def _reaches(m: Measurement, c: Comparison, which: str, bar: Bar | None = None) -> str:
    """'reaches the bar', or, where the runs cannot give that end (ours, or the bar's), how many runs it would take."""
    margin_at = c.worst if which == "worst" else c.best
    if margin_at is None or math.isfinite(margin_at):
        return "reaches the bar" + ("'s interval" if bar is not None and bar.has_interval else "")
    lower_is_better = c.better == "lower"
    end = ("high" if lower_is_better else "low") if which == "worst" else ("low" if lower_is_better else "high")
    ours_has = m.has_interval
    if (not ours_has or (m.low if end == "low" else m.high) is not None) and bar is not None and \
            bar.measured is not None:  # our end exists: the bar's far end is the one missing
        b = bar.measured
        far = "low" if end == "high" else "high"
        needed = b.needs_low if far == "low" else b.needs_high
        if needed is None:
            return f"meets a bar with no {far} end: its interval through its formula is unbounded"
        what = f"the {b.summary.stat}" if b.summary is not None else "its formula"
        return (f"meets a bar with no {far} end: the bar's runs cannot give it at {percent(b.level or stats.LEVEL)} "
                f"({what} needs {needed} runs)")
    needed = m.needs_low if end == "low" else m.needs_high
    level = percent(m.level or stats.LEVEL)
    if needed is None and m.failures:
        return (f"has no {end} end: {m.failures:,} requests failed, each counted as the slowest, and they reach "
                "that end's rank")
    if needed is None:
        return f"has no {end} end: the interval through the formula is unbounded (a divisor's interval reaches 0)"
    if m.summary is None:
        return f"has no {end} end: an input's runs cannot give it at {level} (it needs {needed} runs)"
    s = m.summary
    return f"has no {end} end: {s.n} runs cannot give it at {level} (the {s.stat} needs {needed})"


def _shown(m: Measurement, c: Comparison, bar: Bar | None = None) -> str:
    """The numbers behind a verdict: value (converted), interval and n, the bar (with its own, where it was read
    with one) and the direction."""
    converted = f" (= {_g(m.value)} {m.unit})" if m.unit.strip() != c.unit.strip() else ""
    text = f"{_g(c.value)} {c.unit}{converted}"
    s = m.summary
    if s is not None and s.failures:  # requests, some failed (issue 41)
        over = f"of the {s.n - s.failures:,} that succeeded" if s.unbounded else "of all"
        text = f"the {s.stat} {over} {text} (n = {s.n:,} requests, {s.failures:,} failed)"
    elif s is not None:
        text = f"the {s.stat} {text} of " + ("one run" if s.n == 1 else f"n = {s.n} runs")
    if c.low is not None or c.high is not None:
        low = "…" if c.low is None else _g(c.low)
        high = "…" if c.high is None else _g(c.high)
        text += f", interval {low}–{high} {c.unit}"
    theirs = f"{_g(c.bar)} {c.unit}"
    b = bar.measured if bar is not None else None
    if b is not None and b.summary is not None:
        theirs = f"{b.summary.stat} {theirs} of n = {b.summary.n} runs"
    if b is not None and bar is not None and bar.has_interval:
        low = "…" if b.low is None else _g(b.low)
        high = "…" if b.high is None else _g(b.high)
        theirs += f", interval {low}–{high} {b.unit} at {percent(b.level or stats.LEVEL)}"
    side = ""
    if c.judged == "complement" and c.judged_bar is not None:  # a share judged on the side its bar has nearer 0
        side = (f"; a share, judged on its complement: {_g(100 - c.value)} % against {_g(c.judged_bar)} % "
                f"({'lower' if c.better == 'higher' else 'higher'} is better)")
    return f"{text} against the bar {theirs} ({c.better} is better){side}"
