"""Each tool format's answers about one place in its file, at their edges: the unit the tool defines there, why a
number there is not a measurement, which key the tool never writes, the short form that reads the entry, the runs a
statistic summarised, and which places pool two entries. A place is the parsed path of a pointer or JSONPath
(("benchmarks", 0, "stats", "median")); the readers of test_tools.py reach these answers through whole selections.
"""

from __future__ import annotations

import copy

import pytest

from scorecard.measure import toolread, tools
from scorecard.measure.evidence import Artifact
from scorecard.measure.selection import Refused
from scorecard.measure.tools import asv, google_benchmark, hyperfine, pyperf, pytest_benchmark, serving

from test_tools import ASV, load, problem, value

PB = load("pytest-benchmark.json")
AV = load(ASV)
HF = load("hyperfine-two-commands.json")
PP = load("pyperf-suite.json")
GB = load("google-benchmark.json")
SV = load("vllm-serve.json")
SECONDS = "pytest-benchmark writes times in seconds"


# --- pytest-benchmark ----------------------------------------------------------------------------

@pytest.mark.parametrize(("where", "unit"), [
    (("benchmarks", 0, "stats", "median"), ("s", SECONDS)),  # four parts: the shortest place with a unit
    (("benchmarks", 0, "stats", "data", 3), ("s", SECONDS)),
    (("benchmarks", 1, "stats", "ops"), ("1/s", "pytest-benchmark's ops is per second")),
    (("benchmarks", 0, "stats", "total"), None),  # a sum of rounds, not a time per call
    (("benchmarks", 0, "stats", "rounds"), None),
    (("benchmarks", 0, "stats"), None),
    (("benchmarks", 0, "extra_info", "median"), None),
    (("machine_info", 0, "stats", "median"), None),
])
def test_pytest_benchmark_units(where, unit):
    assert pytest_benchmark.unit_at(PB, where) == unit


@pytest.mark.parametrize(("where", "said"), [
    ((), None),
    (("benchmarks", 0, "stats", "median"), None),
    (("bogus",), "'bogus' is not a key pytest-benchmark writes"),
    (("benchmarks", 0, "bogus"), "'bogus' is not a key pytest-benchmark writes in a benchmark"),
    (("machine_info", "cpu", "bogus"), None),  # inside machine_info any key is the machine's
    (("benchmarks", 0, "stats", "bogus"), "'stats.bogus' is not a statistic pytest-benchmark writes"),
    (("benchmarks", 0, "extra_info", "bogus"), None),  # the test's own
    (("machine_info", 0, "stats", "bogus"), None),
])
def test_pytest_benchmark_unknown_keys(where, said):
    assert pytest_benchmark.unknown(PB, where) == said


@pytest.mark.parametrize(("where", "pooled"), [
    ([("benchmarks", 0), ("benchmarks", 1)], "pools 2 pytest-benchmark tests"),
    ([("benchmarks", 0, "stats", "data", 0), ("benchmarks", 1, "stats", "data", 0), ("benchmarks", 2)],
     "pools 3 pytest-benchmark tests"),
    ([("benchmarks", 0, "stats", "data", 0), ("benchmarks", 0, "stats", "data", 1)], None),
    ([("benchmarks",), ("benchmarks",)], None),
    ([("machine_info", "a"), ("commit_info", "b")], None),
])
def test_pytest_benchmark_pools_two_tests_only(where, pooled):
    assert pytest_benchmark.pools(PB, where) == pooled


def test_pytest_benchmark_short_form_names_the_entry_where_there_is_one():
    assert tools.short_form(PB, ("benchmarks",)) == "format: pytest-benchmark, benchmark: '...', stat: median"
    assert tools.short_form(PB, ("benchmarks", 1)) == \
        "format: pytest-benchmark, benchmark: 'test_join_strings', stat: median"


def test_pytest_benchmark_statistic_by_pointer_is_judged_with_its_rounds():
    stat, picked = pytest_benchmark.behind(PB, ("benchmarks", 1, "stats", "median"))
    assert stat == "median" and picked.runs and len(picked.where) == 15 and picked.unit == "s"


# --- asv -----------------------------------------------------------------------------------------

TIME = "benchmarks.TimeSuite.time_sum_range"
PARAM = "benchmarks.ParamSuite.time_sorted"
TRACK = "benchmarks.track_answer"
RESULT, PARAMS, CI_A, SAMPLES = 0, 1, 5, 11  # AV's result_columns


@pytest.mark.parametrize(("where", "unit"), [
    (("results", TIME, RESULT), ("s", "asv measures time_sum_range in seconds")),
    (("results", TIME, SAMPLES), ("s", "asv measures time_sum_range in seconds")),
    (("results", TIME, SAMPLES, 0, 3), ("s", "asv measures time_sum_range in seconds")),
    (("results", TIME, CI_A), None),
    (("results", TIME), None),
    (("results", TRACK, RESULT), None),  # a track_ benchmark's unit is in benchmarks.json
    (("params", TIME, RESULT), None),
    (("params", TIME, SAMPLES), None),
])
def test_asv_units(where, unit):
    assert asv.unit_at(AV, where) == unit


@pytest.mark.parametrize(("where", "said"), [
    (("results", TIME), None),
    (("results",), None),
    (("results", TIME, RESULT), "the result column holds asv's median of each parameter combination, not runs"),
    (("results", TIME, CI_A, 0), "the column stats_ci_99_a is an end of asv's interval (name it with low: and "
                                  "high:), not a measurement"),
    (("params", "num_cpu"), "asv's params (the run's date, build durations, the machine) is not a measurement of "
                            "a benchmark"),
    (("date",), "asv's date (the run's date, build durations, the machine) is not a measurement of a benchmark"),
    (("meta", "runs", 0), None),  # the ledger's own note
    ((), None),
])
def test_asv_failures(where, said):
    assert asv.failures(AV, where) == said


def test_asv_statistic_by_pointer_is_judged_with_the_samples_of_its_combination():
    stat, picked = asv.behind(AV, ("results", TIME, RESULT, 0))
    assert (stat, picked.runs, picked.unit, len(picked.where)) == ("median", True, "s", 10)
    assert asv.behind(AV, ("results", TIME, RESULT)) is None
    assert asv.behind(AV, ("results", TIME, SAMPLES, 0)) is None  # the samples' place is not a statistic's
    assert asv.behind(AV, ("params", TIME, RESULT, 0)) is None
    assert asv.behind(AV, ("results", TRACK, RESULT, 0)) is None  # no samples
    tracked = copy.deepcopy(AV)
    tracked["results"][TRACK] = copy.deepcopy(AV["results"][TIME])  # samples, but a track_ benchmark's unit
    assert asv.behind(tracked, ("results", TRACK, RESULT, 0)) is None


@pytest.mark.parametrize(("where", "pooled"), [
    ([("results", TIME, SAMPLES, 0, 1), ("results", PARAM, SAMPLES, 0, 1)], "pools 2 asv benchmarks or parameter "
                                                                             "combinations"),
    ([("results", PARAM, SAMPLES, 0), ("results", PARAM, SAMPLES, 1)], "pools 2 asv benchmarks or parameter "
                                                                        "combinations"),
    ([("results", PARAM, RESULT), ("results", TIME, RESULT), ("results", TRACK, RESULT)],
     "pools 3 asv benchmarks or parameter combinations"),
    ([("results", PARAM, SAMPLES, 1, 0), ("results", PARAM, SAMPLES, 1, 2)], None),
    ([("results", PARAM), ("results", TIME)], None),  # the benchmarks' rows, not values in them
    ([("params", PARAM, 0), ("params", TIME, 0)], None),
])
def test_asv_pools_benchmarks_and_combinations(where, pooled):
    assert asv.pools(AV, where) == pooled


def test_asv_result_alone_is_one_value_not_a_run():
    siblings = {"evidence/asv/results/benchmarks.json": load("asv/results/benchmarks.json")}
    m = value(AV, siblings, evidence="evidence/" + ASV, format="asv", benchmark=TRACK)
    assert (m.value, m.n, m.summary) == (42, 1, None)


@pytest.mark.parametrize("short", ["row", "result"])
def test_asv_a_row_too_short_for_the_combination_has_no_result(short):
    data = copy.deepcopy(AV)
    data["result_columns"] = ["params", "result"]  # no samples; the result column after the parameters
    params, result = data["results"][PARAM][1], data["results"][PARAM][0]
    data["results"][PARAM] = [params] if short == "row" else [params, result[:1]]
    code, _, text = problem(data, evidence="evidence/" + ASV, format="asv", benchmark=PARAM + "(10, 'tuple')")
    assert code == "SC323" and "asv recorded no result for" in text
    if short == "result":  # the first combination still has its result
        assert value(data, evidence="evidence/" + ASV, format="asv", benchmark=PARAM + "(10, 'list')").value == \
            result[0]


# --- hyperfine -----------------------------------------------------------------------------------

HF_SECONDS = ("s", "hyperfine writes times in seconds")
HF_BYTES = ("B", "hyperfine writes memory in bytes")


@pytest.mark.parametrize(("where", "unit"), [
    (("results", 0, "median"), HF_SECONDS),
    (("results", 0, "times", 2), HF_SECONDS),
    (("results", 0, "memory_usage_byte"), HF_BYTES),  # three parts: the shortest place with a unit
    (("results", 1, "memory_usage_byte", 4), HF_BYTES),
    (("results", 0), None),
    (("results", 0, "command"), None),
    (("meta", 0, "memory_usage_byte"), None),
    (("meta", 0, "median"), None),
])
def test_hyperfine_units(where, unit):
    assert hyperfine.unit_at(HF, where) == unit


def test_hyperfine_short_form_names_the_command_where_there_is_one():
    assert tools.short_form(HF, ("results",)) == "format: hyperfine, benchmark: '...', stat: median"
    assert tools.short_form(HF, ("results", 1)) == "format: hyperfine, benchmark: 'true', stat: median"


@pytest.mark.parametrize(("where", "pooled"), [
    ([("results", 0), ("results", 1)], "pools the runs of 2 hyperfine entries (each is one command)"),
    ([("results", 0, "times", 0), ("results", 0, "times", 1)], None),
    ([("results",), ("results",)], None),
    ([("meta", 0), ("meta", 1)], None),
])
def test_hyperfine_pools_two_commands_only(where, pooled):
    assert hyperfine.pools(HF, where) == pooled


def test_hyperfine_cpu_time_is_one_mean_not_a_run():
    m = value(HF, format="hyperfine", benchmark="true", metric="user", stat="mean")
    assert (m.value, m.n, m.summary) == (HF["results"][1]["user"], 1, None)


def test_hyperfine_memory_without_runs_is_refused_never_read_from_the_times():
    data = copy.deepcopy(HF)
    data["results"][1]["memory_usage_byte"] = 1_000_000  # one number, not the runs hyperfine writes
    code, _, text = problem(data, format="hyperfine", benchmark="true", metric="memory", stat="mean")
    assert code == "SC322" and "the file holds no runs (times), and the tool reports no mean here" in text, text


# --- pyperf --------------------------------------------------------------------------------------

PP_SECONDS = ("s", "its metadata unit is 'second'")


@pytest.mark.parametrize(("where", "unit"), [
    (("benchmarks", 0, "runs", 1, "values"), PP_SECONDS),  # five parts: the shortest place with a unit
    (("benchmarks", 1, "runs", 2, "values", 0), PP_SECONDS),
    (("benchmarks", 0, "runs", 0, "warmups", 0, 1), PP_SECONDS),
    (("benchmarks", 0, "runs", 1, "metadata"), None),
    (("benchmarks", 0, "runs", 1), None),
    (("benchmarks", 0, "metadata", 1, "values"), None),
    (("metadata", 0, "runs", 1, "values"), None),
])
def test_pyperf_units(where, unit):
    assert pyperf.unit_at(PP, where) == unit


def test_pyperf_a_count_has_no_unit_of_its_own():
    data = copy.deepcopy(PP)
    data["metadata"]["unit"] = "integer"
    assert pyperf.unit_at(data, ("benchmarks", 0, "runs", 1, "values")) is None
    data["metadata"]["unit"] = "byte"
    assert pyperf.unit_at(data, ("benchmarks", 0, "runs", 1, "values")) == ("B", "its metadata unit is 'byte'")


WARMUPS = "the warm-ups are not measurements (pyperf leaves them out of every statistic)"
METADATA = "pyperf's metadata (loops, a run's duration, the machine) is not a measurement of the benchmark"


@pytest.mark.parametrize(("where", "said"), [
    (("benchmarks", 0, "runs", 0, "warmups"), WARMUPS),
    (("benchmarks", 0, "runs", 0, "warmups", 0), WARMUPS),
    (("benchmarks", 0, "runs", 0, "values"), None),
    (("benchmarks", 0, "runs", 0), None),
    (("benchmarks", 0, "metadata", 0, "warmups"), METADATA),
    (("metadata", "loops"), METADATA),
    (("benchmarks", 1, "metadata", "loops"), METADATA),
    (("benchmarks", 1, "runs", 2, "metadata", "duration"), METADATA),
    (("benchmarks", 1, "runs", 2, "values", 0, "metadata"), None),  # five parts in: a value's own place
])
def test_pyperf_warmups_and_metadata_are_not_measurements(where, said):
    assert pyperf.failures(PP, where) == said


def test_pyperf_short_form_names_the_benchmark_where_there_is_one():
    assert tools.short_form(PP, ("benchmarks",)) == "format: pyperf, benchmark: '...', stat: median"
    assert tools.short_form(PP, ("benchmarks", 1)) == "format: pyperf, benchmark: 'join_50', stat: median"


# --- Google Benchmark ----------------------------------------------------------------------------

def _gb(*dropped: int) -> dict:
    """GB without the entries at the indices dropped (plain_join's are 7 to 9 its repetitions, 10 to 13 aggregates:
    mean, median, stddev, cv)."""
    data = copy.deepcopy(GB)
    data["benchmarks"] = [e for i, e in enumerate(data["benchmarks"]) if i not in dropped]
    return data


def test_google_benchmark_one_repetition_is_one_value_not_runs():
    m = value(_gb(8, 9, 10, 11, 12, 13), format="google-benchmark", benchmark="plain_join", unit="ns")
    assert (m.value, m.n, m.summary) == (GB["benchmarks"][7]["real_time"], 1, None)


def test_google_benchmark_one_repetition_beside_its_median_aggregate_reads_the_aggregate():
    data = _gb(8, 9, 10, 12, 13)
    data["benchmarks"][8]["real_time"] = GB["benchmarks"][7]["real_time"] * 2  # told apart from the repetition
    m = value(data, format="google-benchmark", benchmark="plain_join", unit="ns")
    assert (m.value, m.summary) == (GB["benchmarks"][7]["real_time"] * 2, None)


@pytest.mark.parametrize(("where", "unit"), [
    (("benchmarks", 7, "real_time"), ("ns", "the entry's time_unit says so")),
    (("benchmarks", 0, "cpu_time"), ("us", "the entry's time_unit says so")),
    (("benchmarks", 6, "real_time"), ("x", "a percentage aggregate (aggregate_unit) is a ratio")),
    (("benchmarks", 0, "iterations"), None),
    (("benchmarks", 0, "time_unit"), None),
    (("context", 0, "real_time"), None),
])
def test_google_benchmark_units(where, unit):
    assert google_benchmark.unit_at(GB, where) == unit


def test_google_benchmark_short_form_names_the_run_where_there_is_one():
    assert tools.short_form(GB, ("benchmarks",)) == \
        "format: google-benchmark, benchmark: '...', metric: real_time, stat: median"
    assert tools.short_form(GB, ("benchmarks", 8)) == \
        "format: google-benchmark, benchmark: 'plain_join', metric: real_time, stat: median"


def test_google_benchmark_aggregate_by_pointer_is_judged_with_its_repetitions_two_or_more():
    stat, picked = google_benchmark.behind(GB, ("benchmarks", 11, "real_time"))
    assert (stat, picked.runs, picked.unit, picked.where) == (
        "median", True, "ns", tuple(("benchmarks", i, "real_time") for i in (7, 8, 9)))
    assert google_benchmark.behind(GB, ("benchmarks", 11, "real_time", 0)) is None
    assert google_benchmark.behind(GB, ("benchmarks", 11)) is None
    assert google_benchmark.behind(_gb(9), ("benchmarks", 10, "real_time"))[1].where == (
        ("benchmarks", 7, "real_time"), ("benchmarks", 8, "real_time"))
    assert google_benchmark.behind(_gb(8, 9), ("benchmarks", 9, "real_time")) is None  # one repetition: alone


# --- vLLM and SGLang serving benchmarks ----------------------------------------------------------

@pytest.mark.parametrize(("where", "unit"), [
    ((), None),
    ((0,), None),
    (("ttfts", 2), ("s", serving._FROM_S)),
    (("median_ttft_ms",), ("ms", serving._FROM_MS)),
    (("completed",), ("{requests}", "completed is a count the tool writes in {requests}")),
    (("server_ttfts", 0), ("s", serving._FROM_S)),  # the review of issue 41: read as ms, 40 ms led as 0.04 ms
    (("total_output_tokens",), ("tok", "total_output_tokens is a count the tool writes in tok")),
    (("backend",), None),
])
def test_serving_units(where, unit):
    assert serving.unit_at(SV, where) == unit


def test_serving_rates_are_per_second():
    unit, how = serving.unit_at(SV, ("request_throughput",))
    assert unit.endswith("/s") and how == "the tool writes request_throughput per second"


@pytest.mark.parametrize(("where", "form"), [
    ((), "format: serving, metric: ttft, stat: median"),
    (("itls", 0, 1), "format: serving, metric: itl, stat: median"),
    (("median_tpot_ms",), "format: serving, metric: tpot, stat: median"),
    (("total_input_tokens",), "format: serving, metric: ttft, stat: median"),
])
def test_serving_short_form_names_the_metric_of_the_key(where, form):
    assert serving.hint(SV, where) == form


def test_serving_statistic_by_pointer_is_judged_with_its_requests_only_where_all_succeeded():
    clean = copy.deepcopy(SV)  # without its one failed request (the 4th)
    clean["failed"], clean["num_prompts"] = 0, clean["completed"]
    for key in ("errors", "ttfts", "itls", "latencies", "input_lens", "output_lens", "generated_texts", "start_times"):
        if isinstance(clean.get(key), list) and len(clean[key]) == 6:
            del clean[key][3]
    stat, picked = serving.behind(clean, ("median_ttft_ms",))
    assert (stat, picked.runs, picked.unit) == ("median", True, "s")
    assert serving.behind(clean, ("std_ttft_ms",)) is None  # a spread
    assert serving.behind(clean, ("median_bogus_ms",)) is None
    assert serving.alone(clean, ("median_ttft_ms",)) is None
    assert serving.behind(SV, ("median_ttft_ms",)) is None  # a request failed
    assert serving.alone(SV, ("median_ttft_ms",)).startswith("1 of the requests failed")


# --- a selection that pools two entries ----------------------------------------------------------

@pytest.mark.parametrize(("data", "path"), [
    (HF, "$.results[*].times[*]"),
    (PB, "$.benchmarks[*].stats.data[*]"),
    (PP, "$.benchmarks[*].runs[*].values[*]"),  # pyperf's names are in metadata: the entries look alike
    (PP, "$.benchmarks[*].runs[1].values[*]"),
    (GB, "$.benchmarks[?@.run_type == 'iteration'].real_time"),
    (AV, "$.results['benchmarks.ParamSuite.time_sorted'][11][*][*]"),
])
def test_every_tool_refuses_a_path_over_two_of_its_entries(data, path):
    code, loc, _ = problem(data, path=path, unit="ns" if data is GB else "s")
    assert (code, loc) == ("SC319", ("result", "path"))


def test_two_google_benchmark_families_under_one_run_name_are_not_pooled():
    data = copy.deepcopy(GB)
    data["benchmarks"] += [{**e, "family_index": 7} for e in GB["benchmarks"] if e["run_name"] == "plain_join"]
    code, loc, text = problem(data, path="$.benchmarks[?@.run_type == 'iteration' && @.run_name == 'plain_join']"
                                         ".real_time", unit="ns")
    assert (code, loc) == ("SC319", ("result", "path"))
    assert "pools the runs of 2 Google Benchmark benchmarks" in text


GB_TWO = "pools the runs of 2 Google Benchmark benchmarks (run_name, family_index or per_family_instance_index differ)"


@pytest.mark.parametrize(("where", "pooled"), [
    ([("benchmarks", 7, "real_time"), ("benchmarks", 8, "real_time"), ("benchmarks", 9, "real_time")], None),
    ([("benchmarks", 7), ("benchmarks", 0)], GB_TWO),  # two run_names
    ([("benchmarks", 7, "real_time"), ("benchmarks", 14, "real_time")], GB_TWO),  # one run_name, two families
    ([("benchmarks", 7, "real_time"), ("benchmarks", 15, "real_time")], GB_TWO),  # two instances of a family
    ([("benchmarks", 7, "real_time"), ("benchmarks", 0, "real_time"), ("benchmarks", 14, "real_time")],
     GB_TWO.replace("2", "3")),
    ([("benchmarks",), ("benchmarks",)], None),
    ([("context", 0), ("context", 1)], None),
    ([("benchmarks", "x"), ("benchmarks", 0)], None),
])
def test_google_benchmark_pools_two_families_or_instances_only(where, pooled):
    data = copy.deepcopy(GB)
    data["benchmarks"] += [{**GB["benchmarks"][7], "family_index": 7},
                           {**GB["benchmarks"][7], "per_family_instance_index": 9}]
    assert google_benchmark.pools(data, where) == pooled


@pytest.mark.parametrize(("where", "pooled"), [
    ([("benchmarks", 0, "runs", 1, "values", 0), ("benchmarks", 1, "runs", 1, "values", 0)],
     "pools the values of 2 pyperf benchmarks"),
    ([("benchmarks", 0, "runs", 1, "values", 0), ("benchmarks", 0, "runs", 2, "values", 0)], None),
    ([("benchmarks",), ("benchmarks",)], None),
    ([("metadata", 0), ("metadata", 1)], None),
])
def test_pyperf_pools_two_benchmarks_only(where, pooled):
    assert pyperf.pools(PP, where) == pooled


def test_a_path_over_two_benchmarks_is_refused_with_the_first_ones_short_form():
    code, loc, text = problem(PP, path="$.benchmarks[*].runs[1].values[*]", unit="s")
    assert (code, loc) == ("SC319", ("result", "path"))
    assert "pools the values of 2 pyperf benchmarks" in text
    assert text.endswith("format: pyperf, benchmark: 'sum_range_100', stat: median")
    code, _, text = problem(PP, path="$.benchmarks[*].runs[1].values[0]", unit="s")  # one value of each
    assert code == "SC319" and text.endswith("format: pyperf, benchmark: 'sum_range_100', stat: median")
    code, loc, text = problem(HF, path="$.results[*].median", unit="s")  # told apart by their text
    assert (code, loc) == ("SC319", ("result", "path"))
    assert text.endswith("format: hyperfine, benchmark: 'sleep 0.001', stat: median")


# --- what a hostile pass found -------------------------------------------------------------------

def _gb_edited(indices, **fields) -> dict:
    data = copy.deepcopy(GB)
    for i in indices:
        data["benchmarks"][i].update(fields)
    return data


@pytest.mark.parametrize("selection", [
    {"format": "google-benchmark", "benchmark": "plain_join"},
    {"path": "$.benchmarks[?@.run_name == 'plain_join' && @.run_type == 'iteration'].real_time", "unit": "ns"},
    {"pointer": "/benchmarks/11/real_time", "unit": "ns"},  # the median aggregate of skipped runs
])
def test_a_skipped_google_benchmark_is_not_a_measurement(selection):
    """Google Benchmark writes a run skipped with SkipWithMessage as skipped: true and its times as 0."""
    data = _gb_edited((7, 8, 9), skipped=True, skip_message="no GPU", iterations=0, real_time=0.0)
    code, _, text = problem(data, **selection)
    assert code == "SC323" and "the runs of 'plain_join' were skipped ('no GPU')" in text, text


def test_an_aggregate_of_a_failed_repetition_is_refused_with_it():
    data = _gb_edited((8,), error_occurred=True, error_message="boom", real_time=0.0)
    code, _, text = problem(data, pointer="/benchmarks/11/real_time", unit="ns")
    assert code == "SC323"
    assert "the runs of 'plain_join' failed ('boom'): the aggregate is judged with its repetitions" in text
    assert google_benchmark.behind(GB, ("benchmarks", 11, "real_time")) is not None  # none failed: judged with them


@pytest.mark.parametrize(("selection", "code"), [
    ({"format": "google-benchmark", "benchmark": "plain_join"}, "SC322"),
    ({"path": "$.benchmarks[7,8,9].real_time", "unit": "ns"}, "SC319"),
    ({"pointer": "/benchmarks/11/real_time", "unit": "ns"}, "SC322"),
])
def test_a_family_index_edited_into_a_list_is_a_finding_not_a_traceback(selection, code):
    assert problem(_gb_edited((8,), family_index=[1]), **selection)[0] == code


def test_a_string_in_pyperf_metadata_is_a_finding_not_a_traceback():
    code, _, text = problem(PP, pointer="/metadata/hostname", unit="s")
    assert code == "SC323" and METADATA in text
    assert pyperf.hint(PP, ("metadata", "hostname")) == "format: pyperf, benchmark: '...', stat: median"
    assert tools.short_form(PP, ("metadata", "hostname")) == "format: pyperf, benchmark: '...', stat: median"


def _serving_all_succeeded() -> dict:
    data = copy.deepcopy(SV)  # without its one failed request (the 4th)
    data["failed"], data["num_prompts"] = 0, data["completed"]
    for key in ("errors", "ttfts", "itls", "latencies", "input_lens", "output_lens", "generated_texts", "start_times"):
        if isinstance(data.get(key), list) and len(data[key]) == 6:
            del data[key][3]
    return data


@pytest.mark.parametrize(("data", "selection", "said"), [
    (PP, {"pointer": "/benchmarks/0/runs/1/values"}, "takes 3 of the 9 values of benchmark 'sum_range_100'"),
    (PP, {"path": "$.benchmarks[0].runs[*].values[0]"}, "takes 3 of the 9 values of benchmark 'sum_range_100'"),
    (_serving_all_succeeded(), {"pointer": "/itls/2"}, "takes 7 of the 35 inter-token gaps (itls)"),
    (_serving_all_succeeded(), {"path": "$.itls[*][0]"}, "takes 5 of the 35 inter-token gaps (itls)"),
])
def test_some_of_an_entrys_runs_are_refused_where_they_span_several_arrays(data, selection, said):
    """One pyperf worker's values, or one request's gaps, is a subset of the runs chosen, not a measurement."""
    code, loc, text = problem(data, unit="s", **selection)
    assert (code, loc[-1]) == ("SC319", next(iter(selection))) and said in text, text
    assert "select every run; or read it in the tool's own words: format:" in text


@pytest.mark.parametrize(("data", "selection", "n"), [
    (PP, {"path": "$.benchmarks[0].runs[*].values[*]"}, 9),
    (PP, {"path": "$.benchmarks[0].runs[1:].values[*]"}, 9),  # the first run is calibration: warm-ups only
    (_serving_all_succeeded(), {"path": "$.itls[*][*]"}, 35),
])
def test_every_run_of_an_entry_is_read(data, selection, n):
    assert value(data, unit="s", **selection).n == n


def test_partial_answers_at_their_edges():
    assert pyperf.partial(PP, [("metadata", "loops")]) is None
    assert pyperf.partial(PP, [("benchmarks", 0, "runs", 1, "warmups", 0, 1)]) is None  # refused as a warm-up
    every = [("benchmarks", 0, "runs", r, "values") for r in (1, 2, 3)]
    assert pyperf.partial(PP, every) is None
    assert pyperf.partial(PP, every[:2]) == "takes 6 of the 9 values of benchmark 'sum_range_100'"
    assert pyperf.partial(PP, [*every, ("benchmarks", 1, "runs", 1, "values")]) == \
        "takes 3 of the 9 values of benchmark 'join_50'"
    clean = _serving_all_succeeded()
    assert serving.partial(clean, [("ttfts", 0)]) is None
    assert serving.partial({k: v for k, v in clean.items() if k != "itls"}, [("ttfts", 0)]) is None  # SGLang's own
    assert serving.partial(clean, [("itls", i) for i in range(5)]) is None
    assert serving.partial(clean, [("itls", i) for i in range(4)]) == "takes 28 of the 35 inter-token gaps (itls)"


# --- an interval's ends in a tool's file ---------------------------------------------------------

NODATA = load("pytest-benchmark-saved-nodata.json")


@pytest.mark.parametrize(("low", "high"), [
    ("/benchmarks/0/stats/stddev", "/benchmarks/0/stats/total"),  # a spread and a sum of rounds
    ("/benchmarks/0/stats/min", "/benchmarks/3/stats/max"),  # another test's statistic
    ("/benchmarks/0/stats/min", "/benchmarks/0/stats/max"),  # its own extremes: not a confidence interval
])
def test_a_tool_that_writes_no_interval_gives_no_low_or_high(low, high):
    code, loc, text = problem(NODATA, pointer="/benchmarks/0/stats/median", unit="s", level=0.99,
                              low={"pointer": low}, high={"pointer": high})
    assert (code, loc) == ("SC313", ("result", "low", "pointer"))
    assert text.startswith("low: in evidence/x.json: pytest-benchmark writes no interval for this value | remove "
                           "low: and high:, and select the runs: their interval is computed; or read it in the "
                           "tool's own words: format: pytest-benchmark, benchmark: 'test_sum_range'"), text


def test_an_interval_in_a_file_no_tool_wrote_is_read():
    m = value({"v": 1.0, "lo": 0.9, "hi": 1.1}, pointer="/v", unit="s", level=0.99, low={"pointer": "/lo"},
              high={"pointer": "/hi"})
    assert (m.low, m.high, m.interval_from) == (0.9, 1.1, "artifact")


def test_asvs_interval_is_the_99_percent_one_of_the_same_combination():
    assert asv.interval(AV, ("results", PARAM, RESULT, 2)) == (("results", PARAM, CI_A, 2), ("results", PARAM, 6, 2))
    assert asv.interval(AV, ("results", PARAM, SAMPLES, 2)) is None
    assert asv.interval(AV, ("results", PARAM, RESULT)) is None
    assert asv.interval(AV, ("params", PARAM, RESULT, 2)) is None
    without = {**AV, "result_columns": [c for c in AV["result_columns"] if c != "stats_ci_99_b"]}
    assert asv.interval(without, ("results", PARAM, RESULT, 2)) is None


def test_a_bound_in_asvs_file_must_be_that_end_of_its_interval():
    art = Artifact("evidence/x.json", AV)
    value_at = ("results", PARAM, RESULT, 2)
    toolread.check_bound(art, value_at, "low", ("results", PARAM, CI_A, 2), ("result", "low"))
    toolread.check_bound(art, value_at, "high", ("results", PARAM, 6, 2), ("result", "high"))
    with pytest.raises(Refused) as caught:
        toolread.check_bound(art, value_at, "low", ("results", PARAM, 6, 2), ("result", "low"))
    assert (caught.value.problem.code, caught.value.problem.hint) == (
        "SC313", "write low: {pointer: /results/benchmarks.ParamSuite.time_sorted/5/2}")
    with pytest.raises(Refused):
        toolread.check_bound(art, value_at, "high", ("results", PARAM, 6, 1), ("result", "high"))  # another combination


# --- numbers a tool writes that are not measurements ---------------------------------------------

@pytest.mark.parametrize(("data", "selection", "said"), [
    (GB, {"pointer": "/context/num_cpus"}, "the context describes the machine"),
    (GB, {"pointer": "/context/load_avg"}, "the context describes the machine"),  # an array, not runs
    (GB, {"pointer": "/benchmarks/3/iterations"}, "iterations is a count of loops"),
    (GB, {"path": "$.benchmarks[?@.run_name == 'plain_join' && @.run_type == 'iteration'].iterations"},
     "iterations is a count of loops"),
    (GB, {"pointer": "/benchmarks/0/threads"}, "threads is a count"),
    (PP, {"pointer": "/metadata/loops"}, METADATA),
    (PP, {"path": "$.benchmarks[0].runs[*].metadata.duration"}, METADATA),
    (AV, {"pointer": "/date"}, "asv's date"),
    (PB, {"pointer": "/benchmarks/2/params/n"}, "params is a parameter"),
    (PB, {"pointer": "/benchmarks/0/options/min_time"}, "options is an option of the run"),
    (PB, {"pointer": "/machine_info/cpu/count"}, "machine_info describes the machine"),
    (PB, {"pointer": "/machine_info/cpu/hz_actual"}, "machine_info describes the machine"),  # [value, exponent]
    (PB, {"pointer": "/datetime"}, "datetime is a time stamp"),
    (SV, {"pointer": "/start_times"}, "start_times is time stamps"),
    (SV, {"pointer": "/request_rate"}, "request_rate is a setting"),
])
def test_a_count_a_setting_or_the_machine_is_not_a_measurement(data, selection, said):
    code, _, text = problem(data, unit="x", **selection)
    assert code == "SC323" and said in text, text


@pytest.mark.parametrize(("data", "selection", "unit"), [
    (GB, {"path": "$.benchmarks[?@.run_name == 'sum_range_with_counter' && @.run_type == 'iteration'].foo"}, "x"),
    (PB, {"pointer": "/benchmarks/0/stats/data"}, "s"),
    (_serving_all_succeeded(), {"pointer": "/request_throughput"}, "{requests}/s"),
    (_serving_all_succeeded(), {"pointer": "/ttfts"}, "s"),
])
def test_the_tools_measurements_are_still_read(data, selection, unit):
    assert value(data, unit=unit, **selection).value > 0


def _pp_run_states(key: str, value: str) -> dict:
    data = copy.deepcopy(PP)
    data["benchmarks"][0]["runs"][2]["metadata"][key] = value
    return data


@pytest.mark.parametrize(("key", "stated", "format_code"), [("unit", "byte", "SC511"), ("name", "join_50", "SC322")])
def test_a_pyperf_run_of_another_unit_or_benchmark_is_refused_however_it_is_selected(key, stated, format_code):
    data = _pp_run_states(key, stated)
    said = f"a run states another {key} ({stated}) than its benchmark"
    code, _, text = problem(data, format="pyperf", benchmark="sum_range_100")
    assert code == format_code and said in text
    code, _, text = problem(data, path="$.benchmarks[0].runs[*].values[*]", unit="s")
    assert code == "SC323" and said in text
    assert pyperf.failures(data, ("benchmarks", 0, "runs", 1, "values", 0)) is None  # the other runs are its own
    same = _pp_run_states(key, "second" if key == "unit" else "sum_range_100")  # its benchmark's own: its run
    assert value(same, format="pyperf", benchmark="sum_range_100").n == 9


def test_a_number_edited_in_for_a_list_of_runs_is_not_all_of_them():
    data = copy.deepcopy(PP)
    data["benchmarks"][0]["runs"][1]["values"] = 6.2e-07
    assert problem(data, pointer="/benchmarks/0/runs/1/values", unit="s")[0] == "SC319"  # one of the workers
    assert pyperf.partial(data, [("benchmarks", 0, "runs", 1, "values")]) == \
        "takes 1 of the 7 values of benchmark 'sum_range_100'"  # 6 in the other workers' lists, and this one
    clean = _serving_all_succeeded()
    clean["itls"][2] = 0.004
    code, _, text = problem(clean, pointer="/itls/2", unit="s")
    assert code == "SC319" and "takes 1 of the 29 inter-token gaps (itls)" in text  # 28 in lists, and this one


# --- what the review of the hostile pass's fixes found ---------------------------------------------

@pytest.mark.parametrize(("pointer", "unit", "counted"), [("/failed", "{requests}", 1),
                                                          ("/completed", "{requests}", 5),
                                                          ("/total_output_tokens", "tok", 40)])
def test_a_serving_runs_counts_are_measured_in_their_units(pointer, unit, counted):
    """"No request failed" is an honest claim: a run's counts stay readable, in the unit they count (the review of
    issue 41: /failed typed as ms led a 100 ms bar as '2 ms')."""
    assert value(SV, pointer=pointer, unit=unit).value == counted
    assert problem(SV, pointer=pointer, unit="ms")[0] == "SC511"


def test_the_memory_pyperf_records_in_metadata_is_read_in_bytes():
    m = value(PP, path="$.benchmarks[0].runs[*].metadata.mem_max_rss", unit="B")
    assert m.n == 4 and m.unit == "B"
    code, _, text = problem(PP, path="$.benchmarks[0].runs[*].metadata.mem_max_rss", unit="s")
    assert code == "SC511" and "pyperf records mem_max_rss in bytes" in text
    assert problem(PP, path="$.benchmarks[0].runs[*].metadata.duration", unit="s")[0] == "SC323"


def test_a_google_benchmark_counter_named_skipped_is_a_counter():
    data = copy.deepcopy(GB)
    for entry in data["benchmarks"][:7]:
        entry["skipped"] = 12.0
    assert value(data, format="google-benchmark", benchmark="sum_range_with_counter").n == 3


def test_a_pyperf_run_named_with_the_word_unit_is_another_benchmark_not_another_unit():
    code, _, text = problem(_pp_run_states("name", "community"), format="pyperf", benchmark="sum_range_100")
    assert code == "SC322" and "a run states another name (community)" in text


@pytest.mark.parametrize("edited", [1.5, None])
def test_a_pyperf_workers_values_edited_from_a_list_are_never_skipped(edited):
    data = copy.deepcopy(PP)
    data["benchmarks"][0]["runs"][1]["values"] = edited
    code, _, text = problem(data, format="pyperf", benchmark="sum_range_100")
    assert code == "SC308" and "holds values that are not a list" in text
    code, _, text = problem(data, path="$.benchmarks[0].runs[*].values[*]", unit="s")
    assert code == "SC319" and "takes 6 of the 7 values" in text


def _asv_without_samples() -> dict:
    data = copy.deepcopy(AV)
    data["result_columns"].pop(SAMPLES)
    for row in data["results"].values():
        del row[SAMPLES:SAMPLES + 1]
    return data


def test_asvs_result_without_samples_is_read_by_pointer_with_its_own_interval():
    data, at = _asv_without_samples(), f"/results/{TIME}"
    m = value(data, pointer=f"{at}/0/0", unit="s")
    assert (m.value, m.n, m.low) == (AV["results"][TIME][RESULT][0], 1, None)
    m = value(data, pointer=f"{at}/0/0", unit="s", level=0.99, low={"pointer": f"{at}/5/0"},
              high={"pointer": f"{at}/6/0"})
    assert (m.low, m.high, m.interval_from) == (AV["results"][TIME][5][0], AV["results"][TIME][6][0], "artifact")
    code, loc, text = problem(data, pointer=f"{at}/0/0", unit="s", level=0.99, low={"pointer": f"{at}/7/0"},
                              high={"pointer": f"{at}/6/0"})  # a quartile is not the interval's end
    assert (code, loc) == ("SC313", ("result", "low", "pointer"))
    assert text.endswith(f"write low: {{pointer: {at}/5/0}}")
    code, _, text = problem(data, pointer=f"{at}/5/0", unit="s")  # the interval's end is not the value
    assert code == "SC323" and "an end of asv's interval (name it with low: and high:)" in text


@pytest.mark.parametrize(("where", "stat"), [
    (("results", PARAM, RESULT, 1), "median"),
    (("results", TIME, RESULT, 0), "median"),
    (("results", PARAM, SAMPLES, 1), None),
    (("results", PARAM, RESULT), None),
    (("results", PARAM, RESULT, 1, 0), None),
    (("params", PARAM, RESULT, 1), None),
])
def test_asvs_own_statistic_is_the_result_of_one_combination(where, stat):
    assert asv.own_statistic(AV, where) == stat


def test_pyperf_answers_at_the_depth_its_metadata_and_runs_sit():
    hidden = ("benchmarks", 0, "runs", 1, "extra", "metadata")  # deeper than pyperf writes metadata: not its own
    assert pyperf.unit_at(PP, (*hidden, "mem_max_rss")) is None
    assert pyperf.failures(PP, (*hidden, "loops")) is None
    assert pyperf.failures(PP, ("x", "y", "z", "w")) is None
    other = _pp_run_states("name", "join_50")
    assert pyperf.failures(other, ("benchmarks", 0, "runs", 2)) == \
        "a run states another name (join_50) than its benchmark (sum_range_100)"  # four parts: the run itself
    assert pyperf.pools(PP, [("benchmarks", 0), ("benchmarks", 1)]) == "pools the values of 2 pyperf benchmarks"


def test_a_workers_values_edited_into_a_number_count_as_one_value():
    data = copy.deepcopy(PP)
    data["benchmarks"][0]["runs"] = [data["benchmarks"][0]["runs"][1]]
    data["benchmarks"][0]["runs"][0]["values"] = 6.2e-07
    assert pyperf.partial(data, [("benchmarks", 0, "runs", 0, "values")]) is None  # all there is
    assert problem(data, format="pyperf", benchmark="sum_range_100")[0] == "SC322"  # format: reads no values there


@pytest.mark.parametrize(("where", "said"), [
    (("benchmarks", 0), None),  # a whole test: judged by what it selects inside
    (("benchmarks",), None),
    ((), None),
    (("benchmarks", 0, "params"), "params is a parameter; it is not a measurement"),  # three parts: the key itself
    (("benchmarks", 0, "extra_info", "rss"), None),
    (("datetime",), "datetime is a time stamp; it is not a measurement"),
])
def test_pytest_benchmark_failures_at_their_edges(where, said):
    assert pytest_benchmark.failures(PB, where) == said


def test_a_requests_gaps_edited_into_a_number_are_not_skipped_by_a_path_over_every_gap():
    clean = _serving_all_succeeded()
    clean["itls"][2] = 0.004
    code, _, text = problem(clean, path="$.itls[*][*]", unit="s")
    assert code == "SC319" and "takes 28 of the 29 inter-token gaps (itls)" in text
