"""The LLM serving benchmarks' result files: vLLM's `vllm bench serve --save-result` (vllm/benchmarks/serve.py)
and SGLang's `python -m sglang.bench_serving --output-file` (sglang/benchmark/serving.py), one run per file.

Per request (vLLM with `--save-detailed`, SGLang with `--output-details`): `ttfts` (seconds), `itls` (a list of
gaps per request, seconds), vLLM's `latencies` (end-to-end, seconds), `errors` ("" for a request that
succeeded). A failed request is still in every per-request array, its time 0.0; the tools' own statistics
(`mean_ttft_ms`, `median_itl_ms`, `p99_tpot_ms`, SGLang's `*_e2e_latency_ms`: milliseconds; `std_*` is a spread)
cover the successful requests only. `request_throughput` is requests per second, `output_throughput` tokens per
second.
"""

from __future__ import annotations

from typing import Any

import re
from dataclasses import replace

from ...core.patterns import lazy
from ...core.findings import kind_of
from ..evidence import is_number
from ..selection import Where
from ..stats import quantile_of
from .base import Picked, Request, has_keys, metric, number_at, statistic

NAME = "serving"
SIGNATURE = ("backend", "duration", "completed", "total_input_tokens", "total_output_tokens", "request_throughput",
             "output_throughput")
RUNS = {"ttft": "ttfts", "itl": "itls", "e2el": "latencies"}
STATS = {"ttft": ("ttft",), "tpot": ("tpot",), "itl": ("itl",), "e2el": ("e2el", "e2e_latency")}
RATES = {"request_throughput": "{requests}/s", "output_throughput": "tok/s", "total_token_throughput": "tok/s",
         "total_throughput": "tok/s", "input_throughput": "tok/s"}
SECONDS = ("ttfts", "itls", "latencies", "duration", "server_ttfts", "queue_times", "server_queue_times")
# The counts and totals a run writes, in their units: a count typed as ms led (the review of issue 41)
COUNTED = {"num_prompts": "{requests}", "completed": "{requests}", "failed": "{requests}",
           "max_concurrent_requests": "{requests}", "max_concurrency": "{requests}", "concurrency": "{requests}",
           "total_input_tokens": "tok", "total_output_tokens": "tok", "total_input_text_tokens": "tok",
           "total_input_vision_tokens": "tok", "total_output_tokens_retokenized": "tok", "input_lens": "tok",
           "output_lens": "tok", "request_goodput": "{requests}/s", "max_output_tokens_per_s": "tok/s",
           "rtfx": "x", "accept_length": "tok"}
_FROM_S = "the per-request times are in seconds"
_FROM_MS = "the tool's statistics (_ms) are in milliseconds"
COUNTS_HINT = "cite the file the benchmark wrote, unedited: its counts of requests agree"
_ALONE_RATE = ("{} of the requests failed, and the run's rates and duration are over the successful ones (a failed "
               "request may end fast)")


def recognise(data: Any) -> bool:
    """The keys both vLLM and SGLang always write, and the statistics of time to first token."""
    return has_keys(data, SIGNATURE) and any(k.endswith("_ttft_ms") for k in data)


def names(data: Any) -> list[tuple[str, tuple]]:
    return [(str(data.get("backend")), ())]  # one run per file


COUNTS = ("num_prompts", "completed", "failed")  # what the run sent, finished and lost: whole numbers
TALLIES = COUNTS + ("total_input_tokens", "total_output_tokens", "total_input_text_tokens",
                    "total_input_vision_tokens", "total_output_tokens_retokenized")  # what happened, not how fast


def _count(data: dict, key: str) -> int | None:
    value = data.get(key)
    return int(value) if is_number(value) else None


def failed(data: Any) -> int:
    """How many requests the file records as failed: a non-empty error, vLLM's failed count, per-request times
    beyond the requests completed, or the prompts sent beyond them (num_prompts - completed: a file without a
    per-request error list still says how many did not finish). counts() refuses a file where these disagree."""
    assert isinstance(data, dict)
    return max([*_tallies(data).values(), _listed(data) or 0])


def uncounted(data: Any) -> bool:
    """Whether the file cannot say how many requests failed: no failed count, no prompts sent and no per-request
    error list (SGLang without --output-details counts only the requests that completed). Then its numbers cover
    the completed requests only, as where some failed: our better end."""
    return isinstance(data, dict) and "failed" not in data and "num_prompts" not in data and \
        not isinstance(data.get("errors"), list)


def _listed(data: dict) -> int | None:
    """The failed requests the error list names (a non-empty entry), or None without a list."""
    errors = data.get("errors")
    return sum(1 for e in errors if e) if isinstance(errors, list) else None


def _tallies(data: dict) -> dict[str, int]:
    """Each way the file counts its failed requests exactly, by what it reads: {'failed': 1, ...}. SGLang may write
    a failed request's error as "" (its response's empty reason), so without vLLM's failed count the error list
    is a lower bound only (failed() takes the most)."""
    out: dict[str, int] = {}
    ttfts = data.get("ttfts")
    completed, count, prompts = _count(data, "completed"), _count(data, "failed"), _count(data, "num_prompts")
    listed = _listed(data)
    if listed is not None and (count is not None or not (prompts is not None or isinstance(ttfts, list))):
        out["the non-empty entries of errors"] = listed
    if count is not None:
        out["failed"] = count
    if isinstance(ttfts, list) and completed is not None:
        out["len(ttfts) - completed"] = len(ttfts) - completed
    if prompts is not None and completed is not None:
        out["num_prompts - completed"] = prompts - completed
    return out


def counts(data: Any) -> str | None:
    """Why the file's counts of requests cannot be read (issue 41): a count that is not a whole number (a string
    "1000" counted no failures), an error list that is not a list, or two ways of counting the failed requests
    that disagree (failed: 0 beside num_prompts 1,000 and completed 500)."""
    if not isinstance(data, dict):
        return None
    for key in COUNTS:
        value = data.get(key)
        if key in data and not (is_number(value) and float(value).is_integer() and value >= 0):
            return f"{key} is {kind_of(value, json=True)}, not a count of requests"
    errors = data.get("errors")
    if "errors" in data and not (isinstance(errors, list) and all(isinstance(e, str) for e in errors)):
        return "errors is not the per-request list of errors (a text per request)"
    tallies = _tallies(data)
    listed = _listed(data)
    if len(set(tallies.values())) > 1 or (listed is not None and tallies and listed > max(tallies.values())):
        shown = tallies if listed is None or "the non-empty entries of errors" in tallies else \
            {"the non-empty entries of errors": listed, **tallies}
        said = ", ".join(f"{how} gives {n:,}" for how, n in shown.items())
        return f"its counts of failed requests disagree ({said})"
    return _times_problem(data)


def _times_problem(data: dict) -> str | None:
    """A per-request time below 0, or a request that succeeded in 0 s: not what the tool writes (a failed request
    is the one written as 0.0)."""
    errors = data.get("errors") if isinstance(data.get("errors"), list) else None
    exact = not failed(data) or (errors is not None and _listed(data) == failed(data))
    for key in ("ttfts", "latencies"):
        times = data.get(key)
        if not isinstance(times, list):
            continue
        for i, t in enumerate(times):
            if is_number(t) and t < 0:
                return f"{key}/{i} is {t}: a time is never negative"
            succeeded = errors is None or (i < len(errors) and not errors[i])
            if is_number(t) and t == 0 and exact and succeeded:
                return f"{key}/{i} is 0 for a request that succeeded: the tool writes 0.0 for a failed one"
    return None


def none_succeeded(data: Any) -> bool:
    """Whether no request completed: then even the tool's statistics are zeros, not measurements."""
    completed = data.get("completed")
    return not is_number(completed) or completed <= 0


def pick(data: Any, req: Request) -> Picked:
    assert isinstance(data, dict)
    if req.benchmark is not None and req.benchmark != str(data.get("backend")):
        raise req.refuse(f"a serving file holds one run, of backend {data.get('backend')!r}, not "
                         f"{req.benchmark!r}", "remove benchmark:, or cite the file of that run", key="benchmark")
    inconsistent = counts(data)
    if inconsistent is not None:
        raise req.refuse(f"{inconsistent}: the file is not the tool's unmodified output", COUNTS_HINT, code="SC323")
    if none_succeeded(data):
        raise req.refuse(f"no request completed (completed: {data.get('completed')!r}): the tool's numbers are "
                         "zeros, not measurements", "fix the server or the benchmark and run it again",
                         key="format", code="SC323")
    known = [m for m in ("ttft", "tpot", "itl", "e2el") if _stats(data, m)] + [r for r in RATES if r in data]
    name = metric(req, known, NAME, "ttft")
    bad = failed(data)
    censored = bool(bad) or uncounted(data)
    if name in RATES:
        return Picked(((name,),), False, RATES[name], f"the tool writes {name} per second", None,
                      f"measured once per run; {_why(data, False)}" if censored else "measured once per run",
                      warn=censored)
    listed = _runs_with_failures(data, name) if bad and name != "itl" else None  # a failure's gaps are unknown
    if listed is not None:  # the error list says which failed: each enters as the slowest request (issue 41)
        return Picked(listed[0], True, "s", _FROM_S, failures=listed[1])
    runs = _runs(data, name) if not censored else None
    if runs:
        return Picked(runs, True, "s", _FROM_S)
    why = _why(data, True) if censored else \
        "the file holds no per-request times (run without vLLM's --save-detailed or SGLang's --output-details)"
    picked = statistic(req, _stats(data, name), data, "ms", _FROM_MS, why)
    return replace(picked, warn=censored)


def _why(data: dict, statistic: bool) -> str:
    """Why a number covers only the requests that completed: some failed, or the file cannot say."""
    if uncounted(data):
        return ("the file does not say how many requests were sent or failed (no num_prompts, failed or per-request "
                "error list), so its numbers cover the requests that completed")
    bad = failed(data)
    if statistic:
        return (f"{bad} of the requests failed, so the per-request times (which hold a failed one as 0.0) are not "
                "read; the tool's statistic covers the successful requests")
    return _ALONE_RATE.format(bad)


def _stats(data: dict, name: str) -> dict[str, Where]:
    """The tool's statistics of a metric by the statistic they are: {'median': ('median_ttft_ms',), ...}."""
    out: dict[str, Where] = {}
    for word in STATS[name]:
        for key in data:
            head, _, rest = key.partition("_")
            stat = _stat_of(head)
            if rest == f"{word}_ms" and stat is not None and number_at(data, (key,)):
                out[stat] = (key,)
    return out


def _runs(data: dict, name: str) -> tuple[Where, ...] | None:
    key = RUNS.get(name)
    found = data.get(key) if key is not None else None
    if key is None or not isinstance(found, list) or not found:
        return None
    if name == "itl":  # a list of gaps per request; an entry that is not a list is refused as not a number
        places = tuple(place for i, gaps in enumerate(found)
                       for place in ([(key, i, j) for j in range(len(gaps))] if isinstance(gaps, list) else [(key, i)]))
        return places or None
    return tuple((key, i) for i in range(len(found)))


def _runs_with_failures(data: dict, name: str) -> tuple[tuple[Where, ...], int] | None:
    """(the successful requests' places, how many failed) where the per-request error list says which failed, entry
    by entry beside the per-request array; None where it does not (then only the tool's statistic is read)."""
    key = RUNS.get(name)
    found, errors = data.get(key) if key is not None else None, data.get("errors")
    if key is None or not isinstance(found, list) or not isinstance(errors, list) or len(errors) != len(found):
        return None
    ok = [i for i, e in enumerate(errors) if not e]
    if name == "itl":  # every gap of every request that succeeded (a failed one has none)
        places = tuple(place for i in ok for place in ([(key, i, j) for j in range(len(found[i]))]
                                                        if isinstance(found[i], list) else [(key, i)]))
    else:
        places = tuple((key, i) for i in ok)
    return (places, len(found) - len(ok)) if places else None


def unit_at(data: Any, where: Where) -> tuple[str, str] | None:
    """Seconds for the per-request arrays and duration, milliseconds for the statistics, per second for rates."""
    if not where or not isinstance(where[0], str):
        return None
    key = where[0]
    if key in SECONDS:
        return "s", _FROM_S
    if key.endswith("_ms"):
        return "ms", _FROM_MS
    if key in RATES:
        return RATES[key], f"the tool writes {key} per second"
    if key in COUNTED:
        return COUNTED[key], f"{key} is a count the tool writes in {COUNTED[key]}"
    return None


NOT_MEASURED = {  # the run's counts (completed, failed, tokens) and duration are measured: a claim may rest on them
    "start_times": "time stamps", "request_rate": "a setting", "burstiness": "a setting",
    "max_concurrency": "a setting", "random_input_len": "a setting", "random_output_len": "a setting",
    "random_range_ratio": "a setting", "sharegpt_output_len": "a setting", "server_info": "the server's settings"}


# Every per-request array of times: in a run with failed requests, none of them is read (a failure is 0.0 there, or
# left out: either way the array covers the successful requests only, the fast ones).
PER_REQUEST = ("ttfts", "itls", "latencies", "server_ttfts", "queue_times", "server_queue_times", "input_lens",
               "output_lens")


def failures(data: Any, where: Where) -> str | None:
    """The per-request arrays of a run with failed requests hold them as 0.0: not measurements; nor is anything a
    run where no request completed; nor a setting or a time stamp."""
    inconsistent = counts(data)
    if inconsistent is not None:
        return inconsistent
    if where and where[0] in NOT_MEASURED:
        return f"{where[0]} is {NOT_MEASURED[str(where[0])]}, not a measurement"
    if where and none_succeeded(data) and where[0] not in ("completed", "failed", "num_prompts"):
        return "no request completed: the tool's numbers are zeros, not measurements"
    if not where or where[0] not in PER_REQUEST:
        return None
    if uncounted(data):
        return (f"the file does not say how many requests failed, so {where[0]} may cover only those that "
                "completed")
    bad = failed(data)
    if not bad:
        return None
    return (f"{bad} request{'s' if bad > 1 else ''} failed, and {where[0]} holds {'them' if bad > 1 else 'it'} as "
            "0 (fast, not measured); the tool's statistics cover the successful requests only")


def hint(data: Any, where: Where) -> str:
    key = str(where[0]) if where else ""
    name = next((m for m, k in RUNS.items() if k == key), None) or \
        next((m for m, words in STATS.items() for w in words if key.endswith(f"_{w}_ms")), "ttft")
    return f"format: serving, metric: {name}, stat: median"


def behind(data: Any, where: Where) -> tuple[str, Picked] | None:
    """The tool's statistic a pointer names (median_ttft_ms) and the per-request times it summarised, where every
    request succeeded."""
    if len(where) != 1 or not isinstance(where[0], str) or failed(data) or uncounted(data) or none_succeeded(data):
        return None  # with failures, the number at the pointer is the successful requests' (format: reads them all)
    head, _, rest = where[0].partition("_")
    name = next((m for m, words in STATS.items() for w in words if rest == f"{w}_ms"), None)
    stat = _stat_of(head)
    if name is None or stat is None:
        return None
    runs = _runs(data, name)
    return (stat, Picked(runs, True, "s", _FROM_S)) if runs else None


def _stat_of(head: str) -> str | None:
    """The statistic a key's first word names as vLLM and SGLang write them: mean, median, pNN (p0 is the min,
    p100 the max); None for a spread or a word they do not write (p099)."""
    if head in ("mean", "median"):
        return head
    if head in ("p0", "p100"):
        return "min" if head == "p0" else "max"
    return head if re.fullmatch(r"p[1-9][0-9]?(\.[0-9]+)?", head) and quantile_of(head) is not None else None


KEYS = frozenset({
    "date", "endpoint_type", "backend", "label", "model_id", "tokenizer_id", "num_prompts", "request_rate",
    "burstiness", "max_concurrency", "duration", "completed", "failed", "total_input_tokens", "total_output_tokens",
    "request_throughput", "request_goodput", "output_throughput", "total_token_throughput", "input_lens",
    "output_lens", "ttfts", "itls", "start_times", "generated_texts", "errors", "server_queue_times", "server_ttfts",
    "latencies", "queue_times", "max_output_tokens_per_s", "max_concurrent_requests", "rtfx",  # vLLM
    "tag", "dataset_name", "sharegpt_output_len", "random_input_len", "random_output_len", "random_range_ratio",
    "server_info", "total_input_text_tokens", "total_input_vision_tokens", "total_output_tokens_retokenized",
    "input_throughput", "total_throughput", "concurrency", "accept_length",  # SGLang
    "meta"})
_STAT_KEY = lazy(r"(mean|median|std|p(0|100|[1-9][0-9]?(\.[0-9]+)?))_(ttft|tpot|itl|e2el|e2e_latency)_ms")


def unknown(data: Any, where: Where) -> str | None:
    """A key neither vLLM nor SGLang writes (a number added beside theirs): read, it would not be their measurement."""
    if not where or not isinstance(where[0], str) or where[0] in KEYS or _STAT_KEY.fullmatch(where[0]):
        return None
    return f"'{where[0]}' is not a key vLLM or SGLang writes"


def partial(data: Any, where: list[Where]) -> str | None:
    """Some requests' inter-token gaps only (one request's, or each request's first): the runs of itl are every gap
    of every request."""
    taken: set[tuple[int, int | str]] = set()  # a place under itls means itls is a list: it was selected from
    for place in where:
        if len(place) < 2 or place[0] != "itls" or not isinstance(place[1], int):
            continue
        gaps = data["itls"][place[1]]
        taken.update([(place[1], place[2])] if len(place) > 2 else
                     [(place[1], j) for j in range(len(gaps))] if isinstance(gaps, list) else [(place[1], "gap")])
    if not taken:
        return None
    every: set[tuple[int, int | str]] = set()  # as pyperf's _every_value: an entry edited from a list counts as one
    for i, gaps in enumerate(data["itls"]):
        every.update([(i, j) for j in range(len(gaps))] if isinstance(gaps, list) else [(i, "gap")])
    return f"takes {len(taken)} of the {len(every)} inter-token gaps (itls)" if taken != every else None


def alone(data: Any, where: Where) -> str | None:
    """Why a number of a run with failed requests covers only the successful ones (a warning, and our better end
    only): the tool's statistics, the rates and the duration; the counts and token totals are what happened."""
    if not (failed(data) or uncounted(data)) or len(where) != 1 or not isinstance(where[0], str) or \
            where[0] in TALLIES:
        return None
    return _why(data, _STAT_KEY.fullmatch(where[0]) is not None)
