"""The tools' own formats (format:, benchmark:, metric:), on files the real tools wrote (tests/tools/README.md).

The promise: a format reads exactly the runs the tool's documentation defines, in the tool's unit, and never
reads a spread, a warm-up or a failed run as a measurement. The property tests put random runs in each tool's
shape and check the verdict against one computed independently (numpy's quantiles over the runs the tool's docs
define, then the same comparison), so a format can neither bend a verdict nor pick what it reads.
"""

from __future__ import annotations

import copy
import shutil
import math
import json
from pathlib import Path
from types import SimpleNamespace

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from scorecard.core.place import LedgerPlace
from scorecard.ledger.model import Result
from scorecard.measure import compare, reading as measure, tools
from scorecard.measure.evidence import Artifact

TOOLS = Path(__file__).parent / "tools"
ASV = "asv/results/vm/b51530db-existing-py_tmp_toolvenv_bin_python3.json"


def load(name: str) -> dict:
    return json.loads((TOOLS / name).read_text())


def read(data: dict, siblings: dict | None = None, **result) -> measure.Reading:
    rel = result.setdefault("evidence", "evidence/x.json") if "expr" not in result else "evidence/x.json"
    files = {rel: data, **(siblings or {})}

    def get(path: str) -> Artifact:
        return Artifact(path, files[path]) if path in files else Artifact(path, error="missing")
    return measure.read(Result.model_validate(result), get)


def value(data: dict, siblings: dict | None = None, **result) -> measure.Measurement:
    got = read(data, siblings, **result)
    # SC324: a warning of how it was read; SC328: a typed unit: beside format: (the deprecated form, still read)
    assert [p for p in got.problems if p.code not in ("SC324", "SC328")] == [] and got.measurement is not None, \
        got.problems
    return got.measurement


def problem(data: dict, **result) -> tuple[str, tuple, str]:
    got = read(data, **result)
    assert got.measurement is None and len(got.problems) == 1, got.problems
    p = got.problems[0]
    return p.code, p.loc, p.message + " | " + p.hint


# --- each format on the real tool's file -------------------------------------------------------------------

def test_hyperfine_reads_a_commands_times_in_seconds_and_converts_them_exactly():
    data = load("hyperfine-two-commands.json")
    times = data["results"][0]["times"]
    m = value(data, format="hyperfine", benchmark="sleep 0.001")
    assert (m.unit, m.n, m.value) == ("s", 8, float(numpy.median(times)))
    shown = value(data, format="hyperfine", benchmark="sleep 0.001", unit="ms")
    assert shown.unit == "ms" and shown.n == 8
    assert shown.value == pytest.approx(m.value * 1000, rel=1e-15)
    assert shown.sources[0].places == tuple(("results", 0, "times", i) for i in range(8))


def test_hyperfine_names_the_commands_and_refuses_a_guess():
    data = load("hyperfine-two-commands.json")
    code, loc, text = problem(data, format="hyperfine")
    assert (code, loc) == ("SC322", ("result", "format")) and "'sleep 0.001', 'true'" in text
    code, loc, text = problem(data, format="hyperfine", benchmark="sleep 0.01")
    assert (code, loc) == ("SC322", ("result", "benchmark")) and "did you mean 'sleep 0.001'" in text


def test_hyperfine_parameter_scan_and_command_names_are_benchmarks():
    scan = load("hyperfine-parameter-scan.json")
    commands = [r["command"] for r in scan["results"]]
    assert len(commands) == 3 and len(set(commands)) == 3
    for i, command in enumerate(commands):
        assert value(scan, format="hyperfine", benchmark=command).sources[0].places[0] == ("results", i, "times", 0)
    named = load("hyperfine-command-name.json")
    assert value(named, format="hyperfine", benchmark="noop").n == len(named["results"][1]["times"])


def test_hyperfine_user_and_system_are_means_only():
    data = load("hyperfine-two-commands.json")
    m = value(data, format="hyperfine", benchmark="true", metric="user", stat="mean")
    assert (m.value, m.n, m.sources[0].stat) == (data["results"][1]["user"], 1, "mean")
    assert problem(data, format="hyperfine", benchmark="true", metric="user")[0:2] == ("SC322", ("result", "stat"))


def test_hyperfine_failed_runs_are_refused_and_successful_ones_read():
    data = load("hyperfine-failing.json")
    code, loc, text = problem(data, format="hyperfine", benchmark="false")
    assert (code, loc) == ("SC323", ("result", "benchmark")) and "6 of the 6 runs" in text
    assert value(data, format="hyperfine", benchmark="true").n == 6
    code, loc, _ = problem(data, pointer="/results/0/times", unit="s")
    assert (code, loc) == ("SC323", ("result", "pointer"))


def test_pytest_benchmark_reads_the_rounds_and_falls_back_to_its_own_statistic():
    data = load("pytest-benchmark.json")
    entry = data["benchmarks"][0]
    m = value(data, format="pytest-benchmark", benchmark=entry["name"])
    assert m.n == len(entry["stats"]["data"]) and m.value == pytest.approx(entry["stats"]["median"], rel=1e-12)
    saved = load("pytest-benchmark-saved-nodata.json")
    alone = value(saved, format="pytest-benchmark", benchmark=entry["fullname"], stat="mean")
    assert (alone.value, alone.n, alone.low, alone.sources[0].stat) == (saved["benchmarks"][0]["stats"]["mean"], 1,
                                                                        None, "mean")
    assert "--benchmark-save-data" in alone.sources[0].alone
    code, loc, text = problem(saved, format="pytest-benchmark", benchmark=entry["name"], stat="p99")
    assert (code, loc) == ("SC322", ("result", "stat")) and "max, mean, median, min" in text


def test_pytest_benchmark_parametrised_tests_are_separate_benchmarks():
    data = load("pytest-benchmark.json")
    names = [b["name"] for b in data["benchmarks"]]
    assert "test_sorted_param[10]" in names and "test_sorted_param[1000]" in names
    small = value(data, format="pytest-benchmark", benchmark="test_sorted_param[10]")
    large = value(data, format="pytest-benchmark", benchmark="test_sorted_param[1000]")
    assert small.sources[0].places != large.sources[0].places and small.value < large.value


def test_pyperf_reads_every_worker_runs_values_and_no_warmup():
    data = load("pyperf-suite.json")
    bench = data["benchmarks"][0]
    name = bench["metadata"]["name"]
    expected = [v for run in bench["runs"] for v in run.get("values", [])]
    m = value(data, format="pyperf", benchmark=name)
    assert m.n == len(expected) == 9 and m.value == float(numpy.median(expected)) and m.unit == "s"
    assert all(place[4] == "values" for place in m.sources[0].places)
    assert any("warmups" in run and "values" not in run for run in bench["runs"])  # the calibration run is there
    code, _, text = problem(data, pointer="/benchmarks/0/runs/1/warmups/0/1", unit="s")
    assert code == "SC323" and "warm-ups" in text
    single = load("pyperf-timeit.json")
    assert "name" in single["metadata"] and value(single, format="pyperf").n == 9


def test_google_benchmark_runs_are_the_repetitions_in_the_entrys_time_unit():
    data = load("google-benchmark.json")
    reps = [b for b in data["benchmarks"] if b["run_name"] == "plain_join" and b["run_type"] == "iteration"]
    m = value(data, format="google-benchmark", benchmark="plain_join", stat="mean")
    assert (m.n, m.unit) == (3, "ns") and m.value == pytest.approx(numpy.mean([b["real_time"] for b in reps]))
    us = value(data, format="google-benchmark", benchmark="sum_range_with_counter", metric="cpu_time")
    assert us.unit == "us"
    code, loc, text = problem(data, format="google-benchmark", benchmark="sum_range_with_counter", metric="items")
    assert (code, loc) == ("SC511", ("result", "format")) and "counter" in text
    counter = value(data, format="google-benchmark", benchmark="sum_range_with_counter", metric="items",
                    unit="{items}/s")
    assert counter.n == 3


def test_google_benchmark_aggregates_stand_only_where_the_repetitions_are_not_in_the_file():
    data = load("google-benchmark.json")
    only = copy.deepcopy(data)
    only["benchmarks"] = [b for b in only["benchmarks"] if b["run_type"] == "aggregate"]
    m = value(only, format="google-benchmark", benchmark="plain_join", stat="median")
    median = next(b for b in data["benchmarks"] if b["name"] == "plain_join_median")
    assert (m.value, m.n, m.sources[0].stat) == (median["real_time"], 1, "median")
    code, _, text = problem(only, format="google-benchmark", benchmark="plain_join", stat="p90")
    assert code == "SC322" and "mean, median" in text and "stddev" not in text.split("|")[1]


def test_asv_reads_samples_per_parameter_combination_and_its_unit_beside_the_results():
    data = load(ASV)
    rel = "evidence/" + ASV
    siblings = {"evidence/asv/results/benchmarks.json": load("asv/results/benchmarks.json")}
    samples = data["result_columns"].index("samples")
    row = data["results"]["benchmarks.ParamSuite.time_sorted"]
    combination = "benchmarks.ParamSuite.time_sorted(100, 'list')"
    m = value(data, siblings, evidence=rel, format="asv", benchmark=combination)
    assert m.unit == "s" and m.value == float(numpy.median(row[samples][2]))
    # a time_ benchmark is in seconds by its kind, with or without benchmarks.json; a track_ one states its unit there
    assert value(data, evidence=rel, format="asv", benchmark=combination).unit == "s"
    track = value(data, siblings, evidence=rel, format="asv", benchmark="benchmarks.track_answer")
    assert track.unit == "{widgets}" and track.sources[0].alone
    code, loc, text = problem(data, evidence=rel, format="asv", benchmark="benchmarks.track_answer")
    assert (code, loc) == ("SC511", ("result", "format")) and "benchmarks.json" in text


def test_serving_reads_per_request_times_with_each_failure_as_the_slowest():
    """Issue 41: where the error list says which requests failed, the per-request times are read as runs, each
    failure entered as the slowest (an unbounded time): the point stays bounded while failures stay below its rank,
    and an interval end they reach is unbounded."""
    data = load("vllm-serve.json")
    got = read(data, format="serving", metric="ttft", unit="ms")
    assert [p.code for p in got.problems] == ["SC328"] and got.measurement is not None  # typed unit: ms
    m = got.measurement
    ok = [t * 1000 for t, e in zip(data["ttfts"], data["errors"], strict=True) if not e]
    assert (m.n, m.failures, m.unbounded, m.censored) == (6, 1, False, False)
    assert m.value == pytest.approx(float(numpy.median(ok + [math.inf])), rel=1e-12)
    assert m.high is None and m.needs_high is None and m.missing_end is None  # no count of runs would give it
    data["errors"][:3] = ["timeout"] * 3  # four of six failed: the median of all is unbounded
    data["completed"], data["failed"] = 2, 4
    m = value(data, format="serving", metric="ttft", unit="ms")
    assert (m.failures, m.unbounded) == (4, True)
    ok = [t * 1000 for t, e in zip(data["ttfts"], data["errors"], strict=True) if not e]
    assert m.value == pytest.approx(float(numpy.median(ok)), rel=1e-12)
    by_pointer = value(data, pointer="/median_ttft_ms", unit="ms")  # the number there: the successful requests'
    assert (by_pointer.n, by_pointer.censored, by_pointer.value) == (1, True, data["median_ttft_ms"])
    data = load("vllm-serve.json")
    ok = copy.deepcopy(data)
    bad = ok["errors"].index(next(e for e in ok["errors"] if e))
    for key in ("ttfts", "itls", "latencies", "errors", "output_lens", "input_lens", "generated_texts",
                "start_times"):
        if key in ok:
            del ok[key][bad]
    ok["failed"], ok["completed"] = 0, len(ok["ttfts"])
    ok["num_prompts"] = ok["completed"]  # a run that sent as many as completed
    m = value(ok, format="serving", metric="ttft", unit="ms")
    assert m.n == 5 and m.value == pytest.approx(float(numpy.median(ok["ttfts"])) * 1000, rel=1e-12)
    itl = value(ok, format="serving", metric="itl", stat="p99")
    assert itl.n == sum(len(gaps) for gaps in ok["itls"])
    assert value(ok, format="serving", metric="request_throughput").unit == "{requests}/s"


def test_sglang_files_are_serving_files():
    data = load("sglang-serve-rate8.json")
    assert tools.recognise(data) is tools.FORMATS["serving"]
    m = value(data, format="serving", metric="e2el", stat="p90")
    assert m.value == data["p90_e2e_latency_ms"]
    raw = (TOOLS / "sglang-serve.json").read_bytes()
    assert b"Infinity" in raw  # as SGLang writes it: not JSON, refused as such (SC305) by the evidence reader


def test_every_tool_file_is_recognised_as_its_tool_and_no_other_evidence_is():
    """The classification of every evidence file in the repository, pinned."""
    repo = Path(__file__).parent.parent
    expected = {"hyperfine-two-commands.json": "hyperfine", "hyperfine-parameter-scan.json": "hyperfine",
                "hyperfine-command-name.json": "hyperfine", "hyperfine-failing.json": "hyperfine",
                "pytest-benchmark.json": "pytest-benchmark", "pytest-benchmark-saved-nodata.json": "pytest-benchmark",
                "pyperf-timeit.json": "pyperf", "pyperf-suite.json": "pyperf",
                "google-benchmark.json": "google-benchmark",
                "b51530db-existing-py_tmp_toolvenv_bin_python3.json": "asv",
                "vllm-serve.json": "serving", "sglang-serve-rate8.json": "serving", "sglang-serve.json": "serving"}
    seen: dict[str, str | None] = {}
    for path in sorted([*repo.glob("evidence/**/*.json"), *repo.glob("tests/**/*.json")]):
        if "golden" in path.parts or "node_modules" in path.parts:
            continue
        try:
            data = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        fmt = tools.recognise(data)
        seen[str(path.relative_to(repo))] = fmt.NAME if fmt else None
    for rel, name in seen.items():
        if Path(rel).parts[:2] == ("tests", "tools"):
            assert name == expected.get(Path(rel).name), rel
    recognised = {rel: name for rel, name in seen.items() if name and Path(rel).parts[:2] != ("tests", "tools")}
    assert recognised == RECOGNISED_ELSEWHERE


def _tool_files() -> list[tuple[str, dict]]:
    """(format, data) of every tool file in tests/tools."""
    found = []
    for path in sorted(TOOLS.glob("**/*.json")):
        try:
            data = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        fmt = tools.recognise(data)
        if fmt is not None:
            found.append((fmt.NAME, data))
    return found


TOOL_FILES = _tool_files()


def test_no_format_recognises_a_file_without_one_of_the_keys_that_let_it_be_read():
    """tools.KEYS lets a file with none of them skip every format module (issue 46): each format's own recognise
    must refuse such a file, or a tool's output would go unrecognised."""
    assert {name for name, _ in TOOL_FILES} == set(tools.NAMES)  # every format has an example here
    for _, data in TOOL_FILES:
        without = {k: v for k, v in data.items() if k not in tools.KEYS}
        assert not any(fmt.recognise(without) for fmt in tools.FORMATS.values())


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_file_any_format_recognises_has_one_of_the_keys(data):
    name, whole = data.draw(st.sampled_from(TOOL_FILES))
    keys = data.draw(st.lists(st.sampled_from(sorted(whole)), unique=True))
    part = {k: whole[k] for k in keys}
    for fmt in tools.FORMATS.values():
        if fmt.recognise(part):
            assert any(k in part for k in tools.KEYS), (fmt.NAME, keys)


# Evidence outside tests/tools that carries a tool's whole signature (the example ledger and the corpus).
RECOGNISED_ELSEWHERE = {
    "tests/ledgers/bad/conditions-gap-across-them/evidence/serving.json": "serving",
    "tests/ledgers/bad/artifact-names-its-makers/evidence/bench.json": "pytest-benchmark",
    "tests/ledgers/bad/conditions-model-differs/evidence/serving.json": "serving",
    "tests/ledgers/bad/conditions-unstated-on-the-bar/evidence/serving.json": "serving",
    "tests/ledgers/bad/conditions-unstated-on-ours/evidence/bench.json": "pytest-benchmark",
    "tests/ledgers/bad/meta-contradicts-tool/evidence/bench.json": "pytest-benchmark",
    "tests/ledgers/bad/reproduced-on-other-hardware/evidence/ours.json": "pytest-benchmark",
    "tests/ledgers/bad/reproduced-on-other-hardware/evidence/rival.json": "pytest-benchmark",
    "tests/ledgers/good/conditions/evidence/serving.json": "serving",
    "tests/ledgers/bad/tool-format-unit-is-display/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/serving-failed-requests-unseen/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-duration-of-a-failed-run-leads/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-failed-counts-disagree/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-num-prompts-as-text/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-failures-counted-as-best/evidence/serving.json": "serving",
    "tests/ledgers/bad/bar-count-as-rate/evidence/serving.json": "serving",
    "tests/ledgers/bad/bar-count-as-rate/evidence/theirs.json": "serving",
    "tests/ledgers/bad/serving-count-typed-as-time/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-error-not-text/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-itl-with-failures/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-meta-as-measurement/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-negative-time/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-seconds-read-as-ms/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-sglang-summary-cannot-count-failures/evidence/serving.json": "serving",
    "tests/ledgers/bad/serving-failures-reach-the-median/evidence/serving.json": "serving",
    "tests/ledgers/good/verdicts/evidence/serving-two-failed.json": "serving",
    "tests/ledgers/bad/bar-with-failed-requests/evidence/rival-serving.json": "serving",
    "evidence/sample/tools/asv/results/sample-vm/00000000-sample-py3.11.json": "asv",
    "evidence/sample/tools/hyperfine-cli-start.json": "hyperfine",
    "evidence/sample/tools/hyperfine-rival-start.json": "hyperfine",
    "evidence/sample/tools/pytest-benchmark.json": "pytest-benchmark",
    "tests/ledgers/bad/bar-another-metric/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-another-metric-said-to-trail/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-field-in-another-unit/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-field-in-another-unit-said-to-trail/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-is-a-spread/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-formula-of-its-worst-run/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-formula-unbounded-interval/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-is-our-own-runs/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-is-our-own-runs-said-to-lead/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-our-runs-in-seconds/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-statistic-by-key/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/bar-statistic-typed-on-a-single-value/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/runs-empty/evidence/bench.json": "hyperfine",
    "tests/ledgers/bad/runs-parity-but-whole-interval-ahead/evidence/bench.json": "hyperfine",
    "tests/ledgers/bad/runs-pooled-entries/evidence/bench.json": "hyperfine",
    "tests/ledgers/bad/tool-benchmark-without-format/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-format-lead-not-supported/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-format-not-that-tool/evidence/pytest-benchmark.json": "pytest-benchmark",
    "tests/ledgers/bad/tool-format-unit-not-converting/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/display-unit-vs-format-result-unit/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-format-with-pointer/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-gbench-cv-aggregate/evidence/gbench.json": "google-benchmark",
    "tests/ledgers/bad/tool-gbench-picked-repetition/evidence/gbench.json": "google-benchmark",
    "tests/ledgers/bad/tool-gbench-pooled-aggregates/evidence/gbench.json": "google-benchmark",
    "tests/ledgers/bad/tool-gbench-stddev-aggregate/evidence/gbench.json": "google-benchmark",
    "tests/ledgers/bad/tool-hyperfine-failed-runs/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-hyperfine-max/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-hyperfine-pooled-commands/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-pytest-benchmark-stddev/evidence/pytest-benchmark.json": "pytest-benchmark",
    "tests/ledgers/bad/tool-serving-statistic-alone/evidence/serving.json": "serving",
    "tests/ledgers/bad/tool-serving-ttfts-with-failures/evidence/serving.json": "serving",
    "tests/ledgers/bad/tool-statistic-judged-with-its-runs/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-unit-gbench-time-unit/evidence/gbench.json": "google-benchmark",
    "tests/ledgers/bad/tool-unit-hyperfine-times/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/bad/tool-unknown-benchmark/evidence/pytest-benchmark.json": "pytest-benchmark",
    "tests/ledgers/bad/unit-seconds-against-ms-trails-as-leads/evidence/bench.json": "hyperfine",
    "tests/ledgers/good/honest-forms/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/good/honest-forms/evidence/pyperf.json": "pyperf",
    "tests/ledgers/good/measurements/evidence/sample/tools/hyperfine-cli-start.json": "hyperfine",
    "tests/ledgers/good/reproduced-bar/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/good/tool-formats/evidence/asv/results/vm/b51530db-existing-py_tmp_toolvenv_bin_python3.json": "asv",
    "tests/ledgers/good/tool-formats/evidence/gbench.json": "google-benchmark",
    "tests/ledgers/good/tool-formats/evidence/hyperfine.json": "hyperfine",
    "tests/ledgers/good/tool-formats/evidence/pyperf.json": "pyperf",
    "tests/ledgers/good/tool-formats/evidence/pytest-benchmark.json": "pytest-benchmark",
    "tests/ledgers/good/tool-formats/evidence/pytest-saved.json": "pytest-benchmark",
    "tests/ledgers/good/tool-formats/evidence/serving.json": "serving",
}


# --- the verdict through a format is the verdict over the runs the tool's docs define ----------------------

RUNS = st.lists(st.floats(min_value=1e-6, max_value=1e3, allow_nan=False), min_size=2, max_size=40)
STATS = st.sampled_from(["median", "mean", "p90", "p10", "min", "max"])


def _shapes(runs: list[float]) -> dict[str, tuple[dict, dict, list[float]]]:
    """Each tool's file with these runs, the format selection, and the runs as the tool's docs define them."""
    hf = load("hyperfine-two-commands.json")
    hf["results"][1]["times"] = runs
    hf["results"][1]["exit_codes"] = [0] * len(runs)
    pb = load("pytest-benchmark.json")
    pb["benchmarks"][2]["stats"]["data"] = runs
    pp = load("pyperf-suite.json")
    bench = pp["benchmarks"][1]
    split = [runs[: len(runs) // 2], runs[len(runs) // 2:]]
    bench["runs"] = [bench["runs"][0]] + [{"metadata": {}, "warmups": [[1, 99.0]], "values": part} for part in split]
    gb = load("google-benchmark.json")
    template = next(b for b in gb["benchmarks"] if b["run_name"] == "plain_join" and b["run_type"] == "iteration")
    gb["benchmarks"] = [b for b in gb["benchmarks"] if b["run_name"] != "plain_join" or b["run_type"] == "aggregate"] \
        + [dict(template, real_time=r, repetition_index=i) for i, r in enumerate(runs)]
    sv = load("vllm-serve.json")
    sv.update(ttfts=runs, errors=[""] * len(runs), failed=0, completed=len(runs), num_prompts=len(runs),
              latencies=[r + 0.1 for r in runs])  # a request's arrays are as long as its runs
    av = load(ASV)
    row = av["results"]["benchmarks.TimeSuite.time_sum_range"]
    row[av["result_columns"].index("samples")] = [runs]
    return {
        "hyperfine": (hf, {"format": "hyperfine", "benchmark": "true"}, hf["results"][1]["times"]),
        "pytest-benchmark": (pb, {"format": "pytest-benchmark", "benchmark": pb["benchmarks"][2]["name"]}, runs),
        "pyperf": (pp, {"format": "pyperf", "benchmark": bench["metadata"]["name"]},
                   [v for run in bench["runs"] for v in run.get("values", [])]),
        "google-benchmark": (gb, {"format": "google-benchmark", "benchmark": "plain_join"},
                             [b["real_time"] for b in gb["benchmarks"]
                              if b["run_name"] == "plain_join" and b["run_type"] == "iteration"]),
        "serving": (sv, {"format": "serving", "unit": "s"}, sv["ttfts"]),
        "asv": (av, {"evidence": "evidence/" + ASV, "format": "asv",
                     "benchmark": "benchmarks.TimeSuite.time_sum_range"}, runs),
    }


def _numpy(runs: list[float], stat: str) -> float:
    xs = numpy.array(runs)
    if stat == "mean":
        return float(numpy.mean(xs))
    if stat in ("min", "max"):
        return float(getattr(numpy, stat)(xs))
    q = 0.5 if stat == "median" else float(stat[1:]) / 100
    return float(numpy.quantile(xs, q, method="linear"))


@settings(max_examples=60)
@given(runs=RUNS, stat=STATS, bar=st.floats(min_value=1e-6, max_value=1e3), better=st.sampled_from(["lower",
                                                                                                       "higher"]))
def test_a_formats_verdict_is_the_verdict_over_the_runs_its_tool_defines(runs, stat, bar, better):
    for name, (data, selection, defined) in _shapes(runs).items():
        m = value(data, **selection, stat=stat)
        assert m.n == len(defined), name
        assert m.value == pytest.approx(_numpy(defined, stat), rel=1e-9, abs=1e-300), name
        plain = value({"runs": defined}, pointer="/runs", unit=m.unit, stat=stat)
        assert (m.value, m.low, m.high) == (plain.value, plain.low, plain.high), name
        sota = SimpleNamespace(value=bar, unit=m.unit, better=better, stat=None)
        mine, theirs = compare.compare(m, sota, 0.05), compare.compare(plain, sota, 0.05)
        assert mine is not None and theirs is not None
        assert (mine.standing, mine.margin) == (theirs.standing, theirs.margin), name


@settings(max_examples=40)
@given(runs=RUNS, factor=st.sampled_from([("s", "ms", 1000), ("s", "us", 10**6), ("s", "s", 1)]))
def test_a_typed_unit_converts_every_run_before_the_statistic(runs, factor):
    tool, typed, scale = factor
    data, selection, defined = _shapes(runs)["hyperfine"]
    m = value(data, **selection, unit=typed)
    assert m.unit == typed
    assert m.value == pytest.approx(float(numpy.median(defined)) * scale, rel=1e-9)
    assert tool == "s"


# --- the hostile pass: each route found to let a false claim through, or to crash, now refused ----------------

def _gb_mixed_units(d):
    reps = [b for b in d["benchmarks"] if b["run_name"] == "plain_join" and b["run_type"] == "iteration"]
    reps[1].update(real_time=reps[1]["real_time"] / 1000, time_unit="us")


def _gb_aggregates_only(d):
    d["benchmarks"] = [b for b in d["benchmarks"] if b["run_type"] == "aggregate"]


def _gb_dup_median(d):
    _gb_aggregates_only(d)
    d["benchmarks"].append(dict(next(b for b in d["benchmarks"] if b["name"] == "plain_join_median"), real_time=1.0))


def _gb_two_families(d):
    extra = copy.deepcopy([b for b in d["benchmarks"] if b["run_name"] == "plain_join"])
    for b in extra:
        b["family_index"] = 7
    d["benchmarks"] += extra


def _gb_complexity(d):
    d["benchmarks"].append({"name": "plain_join_BigO", "run_name": "plain_join", "run_type": "aggregate",
                            "aggregate_name": "BigO", "cpu_coefficient": 1.0, "real_coefficient": 1.0,
                            "big_o": "N", "time_unit": "ns"})


def _gb_counter_partial(d):
    del d["benchmarks"][1]["foo"]


def _gb_null_time(d):
    d["benchmarks"][8]["real_time"] = None


def _gb_bool_time(d):
    d["benchmarks"][8]["real_time"] = True


def _vllm_none_completed(d):
    n = len(d["ttfts"])
    d.update(completed=0, failed=n, errors=["Internal Server Error"] * n, ttfts=[0.0] * n)
    for key in [k for k in d if k.endswith("_ms")]:
        d[key] = 0.0


def _vllm_hidden_failures(d):
    d.update(errors=[""] * len(d["errors"]), failed=0, completed=len(d["ttfts"]) - 2)


def _hf_no_user(d):
    for r in d["results"]:
        del r["user"]


def _hf_killed(d):
    d["results"][1]["exit_codes"] = [None] * len(d["results"][1]["exit_codes"])


def _hf_null_run(d):
    d["results"][1]["times"][3] = None


def _hf_huge(d):
    d["results"][1]["times"] = [1e300] * 8


def _pp_junk(d):
    d["benchmarks"][0]["runs"][1]["values"].append("fast")


def _pp_run_unit(d):
    d["benchmarks"][0]["runs"][1]["metadata"]["unit"] = "byte"


def _asv_ints(d):
    d["results"]["benchmarks.ParamSuite.time_sorted"][1] = [1, 2]


HOSTILE = [
    # (file, edit, selection, code, where in the record)
    ("google-benchmark.json", _gb_mixed_units, {"format": "google-benchmark", "benchmark": "plain_join"}, "SC511",
     ("result", "benchmark")),
    ("google-benchmark.json", _gb_dup_median, {"format": "google-benchmark", "benchmark": "plain_join"}, "SC322",
     ("result", "stat")),
    ("google-benchmark.json", _gb_two_families, {"format": "google-benchmark", "benchmark": "plain_join"}, "SC322",
     ("result", "benchmark")),
    ("google-benchmark.json", _gb_complexity, {"pointer": "/benchmarks/11/real_time", "unit": "ps"}, "SC511",
     ("result", "unit")),
    ("google-benchmark.json", _gb_counter_partial, {"format": "google-benchmark",
                                                    "benchmark": "sum_range_with_counter", "metric": "foo",
                                                    "unit": "x"}, "SC308", ("result", "format")),
    ("google-benchmark.json", _gb_null_time, {"format": "google-benchmark", "benchmark": "plain_join"}, "SC308",
     ("result", "format")),
    ("google-benchmark.json", _gb_bool_time, {"format": "google-benchmark", "benchmark": "plain_join"}, "SC308",
     ("result", "format")),
    ("vllm-serve.json", _vllm_none_completed, {"format": "serving", "metric": "ttft"}, "SC323", ("result", "format")),
    ("vllm-serve.json", _vllm_none_completed, {"pointer": "/median_ttft_ms", "unit": "ms"}, "SC323",
     ("result", "pointer")),
    ("vllm-serve.json", _vllm_hidden_failures, {"pointer": "/ttfts", "unit": "s"}, "SC323", ("result", "pointer")),
    ("hyperfine-failing.json", _hf_no_user, {"pointer": "/results/0/times", "unit": "s"}, "SC323",
     ("result", "pointer")),
    ("hyperfine-two-commands.json", _hf_killed, {"format": "hyperfine", "benchmark": "true"}, "SC323",
     ("result", "benchmark")),
    ("hyperfine-two-commands.json", _hf_null_run, {"format": "hyperfine", "benchmark": "true"}, "SC308",
     ("result", "format")),
    ("hyperfine-two-commands.json", _hf_huge, {"format": "hyperfine", "benchmark": "true", "unit": "ns"}, "SC308",
     ("result", "unit")),
    ("hyperfine-two-commands.json", None, {"pointer": "/results/0/exit_codes", "unit": "s"}, "SC323",
     ("result", "pointer")),
    ("pyperf-suite.json", _pp_junk, {"format": "pyperf", "benchmark": "sum_range_100"}, "SC308",
     ("result", "format")),
    ("pyperf-suite.json", _pp_run_unit, {"format": "pyperf", "benchmark": "sum_range_100"}, "SC511",
     ("result", "benchmark")),
    ("pytest-benchmark.json", None, {"pointer": "/benchmarks/0/stats/total", "unit": "s"}, "SC323",
     ("result", "pointer")),
    (ASV, None, {"pointer": "/results/benchmarks.TimeSuite.time_sum_range/6", "unit": "s"}, "SC323",
     ("result", "pointer")),
    (ASV, None, {"pointer": "/results/benchmarks.TimeSuite.time_sum_range/11/0", "unit": "ns"}, "SC511",
     ("result", "unit")),
]


@pytest.mark.parametrize("name,edit,selection,code,loc", HOSTILE,
                         ids=[f"{n}:{e.__name__ if e else 'as-written'}:{c}" for n, e, _, c, _ in HOSTILE])
def test_a_hostile_edit_or_selection_is_refused_at_its_place(name, edit, selection, code, loc):
    data = load(name)
    if edit is not None:
        edit(data)
    got = read(data, **copy.deepcopy(selection))
    assert got.measurement is None, got.measurement
    assert [(p.code, p.loc) for p in got.problems] == [(code, loc)], got.problems


def test_an_asv_time_benchmark_is_in_seconds_without_its_benchmarks_json_and_converts():
    rel = "evidence/" + ASV
    data = load(ASV)
    samples = data["results"]["benchmarks.TimeSuite.time_sum_range"][data["result_columns"].index("samples")][0]
    m = value(data, evidence=rel, format="asv", benchmark="benchmarks.TimeSuite.time_sum_range", unit="ns")
    assert m.value == pytest.approx(float(numpy.median(samples)) * 1e9, rel=1e-12)


def test_asv_parameters_written_loosely_do_not_stop_another_benchmark_from_reading():
    data = load(ASV)
    _asv_ints(data)
    assert value(data, evidence="evidence/" + ASV, format="asv", benchmark="benchmarks.TimeSuite.time_sum_range").n


def test_hidden_failed_requests_leave_the_tools_statistic_alone_with_a_warning():
    data = load("vllm-serve.json")
    _vllm_hidden_failures(data)
    got = read(data, format="serving", metric="ttft")
    assert [p.code for p in got.problems] == ["SC323"] and got.measurement is None
    assert "counts of failed requests disagree (the non-empty entries of errors gives 0, failed gives 0, " \
        "len(ttfts) - completed gives 2, num_prompts - completed gives 2)" in got.problems[0].message
    del data["errors"], data["failed"]  # a file that says nothing else of its failures: num_prompts - completed does
    got = read(data, format="serving", metric="ttft")
    assert [p.code for p in got.problems] == ["SC324"] and got.measurement is not None
    assert got.measurement.n == 1 and "2 of the requests failed" in got.measurement.sources[0].alone


@pytest.mark.parametrize("key, bad", [("num_prompts", "1000"), ("completed", 4.5), ("failed", -1), ("failed", True),
                                      ("num_prompts", None), ("errors", "none")])
def test_a_serving_file_whose_counts_are_not_counts_is_refused(key, bad):
    """A count written as a string counted no failures (the review of issue 41): every count is a whole number."""
    data = load("vllm-serve.json")
    data[key] = bad
    for selection in ({"format": "serving", "metric": "ttft"}, {"pointer": "/duration", "unit": "s"},
                      {"pointer": "/completed", "unit": "{requests}"}):
        got = read(data, **selection)
        assert [p.code for p in got.problems] == ["SC323"], selection
        assert f"{key} is " in got.problems[0].message and "not " in got.problems[0].message


@pytest.mark.parametrize("pointer, unit, warned", [
    ("/duration", "s", True), ("/request_throughput", "{requests}/s", True), ("/output_throughput", "tok/s", True),
    ("/median_tpot_ms", "ms", True), ("/completed", "{requests}", False), ("/total_output_tokens", "tok", False)])
def test_a_run_with_failed_requests_gives_only_our_better_end_of_its_rates_and_duration(pointer, unit, warned):
    """/duration of a run where requests failed led (the review of issue 41): a failed request may end fast, so the
    run's duration and rates are censored like its statistics; the counts are what happened."""
    got = read(load("vllm-serve.json"), pointer=pointer, unit=unit)
    assert [p.code for p in got.problems] == (["SC324"] if warned else []), pointer
    assert got.measurement is not None and got.measurement.censored is warned
    rate = read(load("vllm-serve.json"), format="serving", metric="request_throughput")
    assert rate.measurement is not None and rate.measurement.censored


# --- a tool's statistic named by pointer is judged with the runs it summarised ------------------------------

def test_a_pointer_to_a_tools_statistic_is_judged_with_its_runs_in_each_format():
    hf = load("hyperfine-two-commands.json")
    m = value(hf, pointer="/results/0/median", unit="s")
    short = value(hf, format="hyperfine", benchmark="sleep 0.001")
    assert (m.n, m.summary.stat) == (8, "median") and m.low is not None
    assert (m.value, m.low, m.high) == (short.value, short.low, short.high)
    assert value(hf, pointer="/results/0/max", unit="s").summary.stat == "max"
    pb = load("pytest-benchmark.json")
    m = value(pb, path="$.benchmarks[?@.name == 'test_sum_range'].stats.mean", unit="s")
    assert (m.n, m.summary.stat) == (len(pb["benchmarks"][0]["stats"]["data"]), "mean")
    assert m.value == pytest.approx(numpy.mean(pb["benchmarks"][0]["stats"]["data"]), rel=1e-12)
    gb = load("google-benchmark.json")
    m = value(gb, path="$.benchmarks[?@.name == 'plain_join_mean'].real_time", unit="ns")
    # three repetitions: a mean, like the median, needs 6 runs before either end of its interval exists (issue 41)
    assert (m.n, m.summary.stat) == (3, "mean") and m.low is None and m.high is None and m.needs_low == 6
    data = load(ASV)
    m = value(data, pointer="/results/benchmarks.TimeSuite.time_sum_range/0/0", unit="s")
    assert (m.n, m.summary.stat) == (10, "median")
    sv = load("vllm-serve.json")
    assert value(sv, pointer="/median_ttft_ms", unit="ms").n == 1  # a request failed: the statistic stands alone
    bad = sv["errors"].index(next(e for e in sv["errors"] if e))
    for key in ("ttfts", "itls", "latencies", "errors"):
        del sv[key][bad]
    sv["failed"], sv["completed"] = 0, len(sv["ttfts"])
    sv["num_prompts"] = sv["completed"]  # a run that sent as many as completed
    m = value(sv, pointer="/p99_itl_ms", unit="ms")
    assert (m.n, m.summary.stat) == (sum(len(g) for g in sv["itls"]), "p99")
    assert m.value == pytest.approx(float(numpy.quantile([x for g in sv["itls"] for x in g], 0.99)) * 1000)


@settings(max_examples=40)
@given(runs=RUNS, stat=st.sampled_from(["median", "mean", "min", "max"]), bar=st.floats(min_value=1e-6, max_value=1e3))
def test_one_quantity_one_verdict_however_it_is_selected(runs, stat, bar):
    """hyperfine's median (or mean, min, max) by pointer, by path, or by format: the same number, interval and
    verdict: the statistic over the runs, whatever the file says the statistic is."""
    data = load("hyperfine-two-commands.json")
    entry = data["results"][1]
    entry.update(times=runs, exit_codes=[0] * len(runs), **{stat: 12345.0})  # the file's own figure is ignored
    picks = [value(data, pointer=f"/results/1/{stat}", unit="s"),
             value(data, path=f"$.results[?@.command == 'true'].{stat}", unit="s"),
             value(data, format="hyperfine", benchmark="true", stat=stat)]
    sota = SimpleNamespace(value=bar, unit="s", better="lower", stat=None)
    verdicts = {(m.value, m.low, m.high, compare.compare(m, sota, 0.05).standing) for m in picks}
    assert len(verdicts) == 1, verdicts


def test_a_path_over_several_asv_results_is_not_read_as_the_first_ones_runs():
    data = load(ASV)
    code, loc, _ = problem(data, path="$.results[*][0][0]", unit="s")
    assert (code, loc) == ("SC319", ("result", "path"))


def test_the_formats_the_schema_offers_are_the_ones_read():
    from typing import get_args

    from scorecard.core.toolnames import TOOL_FORMATS
    from scorecard.ledger.model import Format

    assert get_args(Format) == TOOL_FORMATS == tools.NAMES
    assert all(name == tools.FORMATS[name].NAME for name in TOOL_FORMATS)


# --- the second hostile pass ----------------------------------------------------------------------------------

def _gb_aggregate_other_unit(d):
    median = next(b for b in d["benchmarks"] if b["name"] == "plain_join_median")
    median.update(time_unit="us", real_time=median["real_time"] / 1000)


def _gb_family_under_median(d):
    extra = [dict(b, family_index=7, real_time=0.01) for b in d["benchmarks"]
             if b["run_name"] == "plain_join" and b["run_type"] == "iteration"]
    d["benchmarks"] += extra


def _hf_scan_one_name(d):
    for r in d["results"]:
        r["command"] = "sort"


def _sv_headline(d):
    d["headline_ttft_ms"] = 1.0


def _sv_p099(d):
    d["p099_ttft_ms"] = 1.0


def _hf_median_warm(d):
    d["results"][1]["median_warm"] = 0.0001


HOSTILE_2 = [
    ("google-benchmark.json", _gb_aggregate_other_unit, {"pointer": "/benchmarks/11/real_time", "unit": "us"},
     "SC511", ("result", "pointer")),
    ("google-benchmark.json", _gb_family_under_median, {"pointer": "/benchmarks/11/real_time", "unit": "ns"},
     "SC322", ("result", "pointer")),
    ("hyperfine-parameter-scan.json", _hf_scan_one_name, {"path": "$.results[?@.command == 'sort'].median",
                                                          "unit": "s"}, "SC319", ("result", "path")),
    ("hyperfine-parameter-scan.json", _hf_scan_one_name, {"path": "$.results[?@.command == 'sort'].times[*]",
                                                          "unit": "s"}, "SC319", ("result", "path")),
    (ASV, None, {"pointer": "/results/benchmarks.ParamSuite.time_sorted/0", "unit": "s"}, "SC323",
     ("result", "pointer")),
    ("vllm-serve.json", _sv_headline, {"pointer": "/headline_ttft_ms", "unit": "ms"}, "SC323", ("result", "pointer")),
    ("vllm-serve.json", _sv_p099, {"pointer": "/p099_ttft_ms", "unit": "ms"}, "SC323", ("result", "pointer")),
    ("hyperfine-two-commands.json", _hf_median_warm, {"pointer": "/results/1/median_warm", "unit": "s"}, "SC323",
     ("result", "pointer")),
    ("hyperfine-two-commands.json", None, {"pointer": "/results/1/median", "unit": "s", "stat": "max"}, "SC321",
     ("result", "stat")),
]


@pytest.mark.parametrize("name,edit,selection,code,loc", HOSTILE_2,
                         ids=[f"{n}:{e.__name__ if e else 'as-written'}:{c}" for n, e, _, c, _ in HOSTILE_2])
def test_a_second_hostile_edit_or_selection_is_refused_at_its_place(name, edit, selection, code, loc):
    test_a_hostile_edit_or_selection_is_refused_at_its_place(name, edit, selection, code, loc)


def test_min_and_max_statistics_by_pointer_are_judged_with_their_runs():
    sv = load("vllm-serve.json")
    bad = sv["errors"].index(next(e for e in sv["errors"] if e))
    for key in ("ttfts", "itls", "latencies", "errors"):
        del sv[key][bad]
    sv.update(failed=0, completed=len(sv["ttfts"]), num_prompts=len(sv["ttfts"]), p100_ttft_ms=0.001, p0_ttft_ms=0.001)
    top = value(sv, pointer="/p100_ttft_ms", unit="ms")
    assert (top.summary.stat, top.value) == ("max", pytest.approx(max(sv["ttfts"]) * 1000))
    assert value(sv, pointer="/p0_ttft_ms", unit="ms").summary.stat == "min"
    gb = load("google-benchmark.json")
    gb["benchmarks"].append(dict(next(b for b in gb["benchmarks"] if b["name"] == "plain_join_median"),
                                 name="plain_join_max", aggregate_name="max", real_time=0.1))
    m = value(gb, pointer=f"/benchmarks/{len(gb['benchmarks']) - 1}/real_time", unit="ns")
    assert (m.summary.stat, m.n) == ("max", 3) and m.value > 500


def test_a_statistic_by_pointer_and_its_runs_by_format_are_one_input():
    data = load("hyperfine-two-commands.json")
    got = read(data, unit="x", expr="a / b", inputs={
        "a": {"evidence": "evidence/x.json", "format": "hyperfine", "benchmark": "true"},
        "b": {"evidence": "evidence/x.json", "pointer": "/results/1/median", "unit": "s"}})
    assert [p.code for p in got.problems] == ["SC317"]


def test_a_serving_statistic_by_pointer_warns_where_requests_failed():
    got = read(load("vllm-serve.json"), pointer="/median_tpot_ms", unit="ms")  # TPOT has no per-request array
    assert [(p.code, p.loc) for p in got.problems] == [("SC324", ("result", "pointer"))]
    assert got.measurement is not None and got.measurement.n == 1


def test_a_selection_of_many_runs_is_judged_once_per_array(monkeypatch):
    """The checks of a recognised file run once per array a selection reaches, not once per run."""
    data = load("hyperfine-two-commands.json")
    data["results"][1].update(times=[0.001] * 5000, exit_codes=[0] * 5000)
    calls = []
    real = tools.failed_at
    monkeypatch.setattr(tools, "failed_at", lambda *a: calls.append(1) or real(*a))
    assert value(data, path="$.results[1].times[*]", unit="s").n == 5000
    assert len(calls) == 1


def test_asvs_benchmarks_json_is_read_only_inside_the_root(tmp_path):
    """A benchmarks.json that leads out of the ledger is not read: the track_ benchmark's unit must then be typed."""
    from scorecard.measure.evidence import ArtifactStore

    root = tmp_path / "ledger"
    results = root / "evidence/asv/results"
    shutil.copytree(TOOLS / "asv/results", results)
    outside = tmp_path / "benchmarks.json"
    shutil.move(results / "benchmarks.json", outside)
    (results / "benchmarks.json").symlink_to(outside)
    store = ArtifactStore(LedgerPlace.at(root))
    spec = Result.model_validate({"evidence": "evidence/" + ASV, "format": "asv",
                                  "benchmark": "benchmarks.track_answer"})
    got = measure.read(spec, store.get)
    assert [(p.code, p.loc) for p in got.problems] == [("SC511", ("result", "format"))]


# --- the names a refusal lists (pinned by the mutation run of measure.tools.base) -------------------------

def _request(benchmark: str | None, stat: str = "median"):
    from scorecard.measure.tools.base import Request

    return Request(benchmark, None, stat, ("result",), "evidence/x.json", lambda rel: None)


def _refusal(names: list[str], benchmark: str | None) -> str:
    from scorecard.measure.selection import Refused
    from scorecard.measure.tools.base import entry

    with pytest.raises(Refused) as info:
        entry([(n, (i,)) for i, n in enumerate(names)], _request(benchmark), "hyperfine")
    return info.value.problem.message + " | " + info.value.problem.hint


@pytest.mark.parametrize("count, listed, more", [(8, 8, False), (9, 8, True)])
def test_a_refusal_lists_at_most_eight_names(count, listed, more):
    names = [f"bench-{i}" for i in range(count)]
    unnamed = _refusal(names, None)
    assert unnamed.count("'bench-") == listed + 1 and unnamed.endswith("add benchmark: 'bench-0'")  # and the hint's
    assert (", ...)" in unnamed) is more and f"holds {count} benchmarks" in unnamed
    unknown = _refusal(names, "zzzz")
    assert unknown.split(" | ")[1].count("'bench-") == listed and unknown.endswith(", ...") is more
    assert unknown.split(" | ")[1].startswith("known: 'bench-0'")


def test_a_refusal_of_no_entries_and_of_two_of_one_name():
    assert "holds 0 benchmarks" in _refusal([], None) and _refusal([], None).endswith("check that this is the file "
                                                                                      "meant")
    assert "2 benchmarks are named 'a'" in _refusal(["a", "a", "b"], "a")
    assert "did you mean 'alpha'?" in _refusal(["alpha", "beta"], "alpah")


def test_a_statistic_the_tool_writes_as_no_number_is_refused_with_those_it_does():
    from scorecard.measure.selection import Refused
    from scorecard.measure.tools.base import statistic

    fields = {"median": ("m",), "mean": ("a",)}
    data = {"m": "n/a", "a": 1.5}
    with pytest.raises(Refused) as info:
        statistic(_request(None, "median"), fields, data, "s", "in seconds", "the file holds no runs")
    assert "reports no median here" in info.value.problem.message and "stat: is one of mean " in info.value.problem.hint
    assert statistic(_request(None, "mean"), fields, data, "s", "in seconds", "alone").where == (("a",),)


# --- pinned by the mutation run of measure.toolread and measure.tools ------------------------------------

def test_a_format_selection_is_written_in_one_fixed_form_and_read_back_to_its_places():
    """The form is in every reviewed stamp's fingerprint: no key order, escaping or default may drift."""
    from scorecard.measure import toolread

    spec = SimpleNamespace(format="hyperfine", benchmark="sleep é", metric=None, stat=None)
    text = toolread.selector(spec)
    assert text == '{"benchmark": "sleep é", "format": "hyperfine", "metric": null, "stat": "median"}'
    data = load("hyperfine-command-name.json")
    named = toolread.selector(SimpleNamespace(format="hyperfine", benchmark="short-sleep", metric=None, stat="median"))
    assert toolread.places(data, named) and all(isinstance(p, tuple) for p in toolread.places(data, named))
    assert toolread.places({"not": "hyperfine"}, named) == []


def test_a_file_of_another_tool_is_named_and_one_of_none_is_said_so():
    from scorecard.measure import tools
    from scorecard.measure.selection import Refused

    with pytest.raises(Refused) as other:
        tools.pick("hyperfine", load("pyperf-timeit.json"), _request(None))
    assert "it looks like pyperf output" in other.value.problem.message
    assert other.value.problem.hint == "write format: pyperf"
    with pytest.raises(Refused) as none:
        tools.pick("hyperfine", {"x": 1}, _request(None))
    assert none.value.problem.hint.startswith("check the file is the tool's unmodified output")


def test_number_at_a_place_that_is_not_there_is_false():
    from scorecard.measure.tools.base import number_at

    assert number_at({"a": 1.5}, ("a",)) is True
    assert [number_at(d, p) for d, p in (({"a": 1}, ("b",)), ([1], (3,)), ({"a": 1}, ("a", "x")))] == [False] * 3


@pytest.mark.parametrize("key", ["server_ttfts", "queue_times", "server_queue_times"])
def test_every_per_request_array_of_a_run_with_failures_is_refused(key):
    """Found by the review: server_ttfts (and the queue times) were read by pointer in a run where requests failed,
    and a lead rested on the successful ones."""
    data = load("vllm-serve.json")
    data[key] = [0.01 * (i + 1) for i in range(len(data["ttfts"]))]
    assert [p.code for p in read(data, pointer=f"/{key}", unit="s").problems] == ["SC323"]
    clean = copy.deepcopy(data)
    bad = clean["errors"].index(next(e for e in clean["errors"] if e))
    for k in ("ttfts", "itls", "latencies", "errors", "output_lens", "input_lens", "generated_texts", "start_times",
              key):
        if k in clean:
            del clean[k][bad]
    clean["failed"], clean["completed"] = 0, len(clean["ttfts"])
    clean["num_prompts"] = clean["completed"]
    assert read(clean, pointer=f"/{key}", unit="s").problems == []
