"""Conditions (issue 44): what each side was measured on, read through one allowlist per tool, and checked where
the ledger asks.

The promises:
(a) no status places a value (leads, parity, trails) across a listed condition that differs or that either side
    leaves unstated, whatever the values, keys and statuses (a property over generated ledgers, against an
    oracle written apart from the implementation); where every listed key matches, the conditions refuse nothing;
(b) each tool's pinned real file reads into the vocabulary exactly as pinned here, hyperfine's into nothing, and no
    value a tool records outside its allowlist (a host name, a path, an executable) is ever read;
(c) matching is reflexive and symmetric, and blind to case, whitespace, '-' and '_', a number's spelling, a
    quantity's unit, and a model's path.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorecard.cli import pipeline
from scorecard.measure import conditions as C

from conftest import LEDGERS

TOOLS = LEDGERS.parent / "tools"
KEYS = ("model", "hardware", "workload", "precision")
VALUES = ("H100", "h100", "H-100", "h_100", "A100", "Llama-3", "llama 3", "8", "8.0", "16", "80GB", "80 GB",
          "0.08 TB")


def _oracle_same(a: str, b: str) -> bool:
    """Written apart from conditions.same, for VALUES only: 80GB = 80 GB = 0.08 TB, numbers as numbers, else text
    with case set aside and each run of '-' or '_' read as a space."""
    size = {"80GB": 80e9, "80 GB": 80e9, "0.08 TB": 80e9}
    if a in size or b in size:
        return size.get(a) == size.get(b)
    try:
        return float(a) == float(b)
    except ValueError:
        return " ".join(re.sub(r"[-_]", " ", a.lower()).split()) == " ".join(re.sub(r"[-_]", " ", b.lower()).split())


def _oracle_differs(ours: dict, bar: dict, listed: list[str]) -> bool:
    return any(k not in ours or k not in bar or not _oracle_same(ours[k], bar[k]) for k in listed)


SIDE = st.dictionaries(st.sampled_from(KEYS), st.sampled_from(VALUES), max_size=4)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ours=SIDE, bar=SIDE, listed=st.lists(st.sampled_from(KEYS), max_size=3, unique=True),
       added=st.lists(st.sampled_from(KEYS), max_size=2, unique=True),
       status=st.sampled_from(["leads", "parity", "trails", "inconclusive"]),
       value=st.sampled_from([100.0, 200.0, 400.0]))
def test_no_status_places_a_value_across_a_listed_condition_that_differs(tmp_path_factory, ours, bar, listed, added,
                                                                         status, value):
    root = tmp_path_factory.mktemp("ledger")
    (root / "claims/core").mkdir(parents=True)
    (root / "evidence").mkdir()
    (root / "scorecard.yaml").write_text(yaml.safe_dump({"title": "T", "subject": "s",
                                                         "conditions_must_match": listed}))
    (root / "claims/core/_category.yaml").write_text("title: Core\n")
    (root / "evidence/run.json").write_text(json.dumps({"meta": {"conditions": ours}, "tok_s": value}))
    record = {"title": "Throughput", "why": "Because.", "sota": {
        "bar": "The bar.", "value": 200, "unit": "tok/s", "better": "higher", "source": "https://example.org/x",
        "date": "2026-01", **({"conditions": bar} if bar else {})},
        "status": status, "claim": "where we stand",
        "result": {"evidence": "evidence/run.json", "pointer": "/tok_s", "unit": "tok/s"}}
    if added:
        record["conditions_must_match"] = added
    (root / "claims/core/x.yaml").write_text(yaml.safe_dump(record, allow_unicode=True))
    result, _ = pipeline.validate(root)
    codes = {f.code for f in result.findings}
    differs = _oracle_differs(ours, bar, list(dict.fromkeys([*listed, *added])))
    if differs and status != "inconclusive":
        assert "SC520" in codes and pipeline.fails(result, strict=False), (ours, bar, listed, added, status)
    else:
        assert "SC520" not in codes, (ours, bar, listed, added, status, result.findings)
    if differs:  # across a difference only inconclusive validates: no other verdict finding stands in its place
        assert not codes & {"SC501", "SC502", "SC503", "SC504", "SC505", "SC506", "SC514"}, result.findings
    expected = {100.0: "trails", 200.0: "parity", 400.0: "leads"}[value]
    if not differs:  # the verdict is as before: the conditions take nothing away
        assert (codes == set()) == (status == expected), (status, expected, result.findings)


# --- (b) each tool's pinned file, through its allowlist -----------------------------------------------------------

PINNED = {
    ("pytest-benchmark.json", "pytest-benchmark", ("benchmarks", 0)): {
        "hardware": "AMD EPYC, 2 CPUs", "software": "CPython 3.11.7", "date": "2026-12-04"},
    ("pyperf-suite.json", "pyperf", ("benchmarks", 0)): {
        "hardware": "AMD EPYC, 2 CPUs", "software": "cpython 3.11.7 (64-bit)", "date": "2026-12-04"},
    ("google-benchmark.json", "google-benchmark", ("benchmarks", 0)): {
        "hardware": "2 CPUs, 2596 MHz, CPU scaling off", "software": "Google Benchmark 1.9.5, release build",
        "date": "2026-12-04"},
    ("asv/results/vm/b51530db-existing-py_tmp_toolvenv_bin_python3.json", "asv",
     ("results", "benchmarks.ParamSuite.time_sorted")): {
        "hardware": "AMD EPYC, 2 CPUs, x86_64, 23.5 GiB RAM", "software": "Linux 6.18.44-fc-v1252",
        "date": "2026-12-04"},
    ("vllm-serve.json", "serving", ()): {
        "model": "meta-llama/Llama-3.1-8B-Instruct", "software": "openai", "request_rate": "unlimited",
        "date": "2026-04-12"},
    ("sglang-serve.json", "serving", ()): {
        "model": "meta-llama/Llama-3.1-8B-Instruct", "software": "sglang 0.5.23", "workload": "random",
        "request_rate": "unlimited"},
    ("hyperfine-two-commands.json", "hyperfine", ()): {},
    ("hyperfine-parameter-scan.json", "hyperfine", ()): {},
}


@pytest.mark.parametrize("rel, tool, where", sorted(PINNED))
def test_each_tools_pinned_file_reads_into_the_vocabulary_as_pinned(rel, tool, where):
    data = json.loads((TOOLS / rel).read_text())
    found, contradicted = C.of_artifact(data, tool, where)
    assert {k: v.value for k, v in found.items()} == PINNED[(rel, tool, where)]
    assert contradicted == []


def _strings(node) -> list[str]:
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return [node] if isinstance(node, str) else []


@pytest.mark.parametrize("rel, tool, where", sorted(PINNED))
def test_nothing_outside_the_allowlist_is_read(rel, tool, where):
    """Host names, users' paths, executables and configure arguments a tool records never become a condition."""
    data = json.loads((TOOLS / rel).read_text())
    secret = "SECRET-host-/home/someone"
    for key in ("hostname", "host_name", "node", "executable", "python_executable", "python_config_args", "user",
                "env_vars", "python"):
        for holder in (data, data.get("machine_info"), data.get("metadata"), data.get("context"),
                       data.get("params"), data.get("server_info")):
            if isinstance(holder, dict) and key in holder:
                holder[key] = secret
    found, _ = C.of_artifact(data, tool, where)
    assert not any("SECRET" in v.value or "/home/" in v.value for v in found.values()), found
    assert "vm" not in {v.value for v in found.values()}  # the pinned files' host name


def test_a_model_on_someones_disk_is_shown_by_its_last_component_and_marked():
    item = C.stated("model", "/home/alice/models/Llama-3.1-8B", "meta.model")
    assert item is not None and item.value == "Llama-3.1-8B" and item.marked
    hub = C.stated("model", "meta-llama/Llama-3.1-8B", "model_id")
    assert hub is not None and hub.value == "meta-llama/Llama-3.1-8B" and not hub.marked


def test_a_value_is_one_line_of_at_most_200_characters():
    item = C.stated("workload", "x" * 500 + "\nsecond line", "meta.workload")
    assert item is not None and len(item.value) == 200 and "\n" not in item.value


def test_meta_adds_what_the_tool_does_not_state_and_never_overrides_it():
    data = json.loads((TOOLS / "pytest-benchmark.json").read_text())
    data["meta"] = {"hardware": "8x H100", "model": "Llama-3", "conditions": {"batch_size": 16, "Bad Key": "x"}}
    found, contradicted = C.of_artifact(data, "pytest-benchmark", ("benchmarks", 0))
    assert found["hardware"].value == "AMD EPYC, 2 CPUs" and found["hardware"].ledger == "8x H100"
    assert found["model"].value == "Llama-3" and found["batch_size"].value == "16" and "Bad Key" not in found
    assert contradicted == [("hardware", "AMD EPYC, 2 CPUs", "8x H100")]


# --- (c) matching -------------------------------------------------------------------------------------------------

@given(a=st.sampled_from(VALUES), b=st.sampled_from(VALUES))
def test_matching_is_reflexive_symmetric_and_as_the_oracle_says(a, b):
    sa, sb = C.stated("hardware", a, "x"), C.stated("hardware", b, "y")
    assert sa is not None and sb is not None
    assert C.same(sa, sa, ()) and C.same(sa, sb, ()) == C.same(sb, sa, ())
    assert C.same(sa, sb, ()) == _oracle_same(a, b), (a, b)


@pytest.mark.parametrize("a, b, equal", [
    ("H100-SXM", "h100 sxm", True), ("H100-SXM", "H100SXM", False), ("8", 8, True), (8, 8.0, True),
    ("1 GB", "1 GHz", False), ("80GB", "80 GB", True), ("1 GiB", "1 GB", False),
    ("meta-llama/Llama-3.1-8B", "/data/llama-3.1-8b", True), ("Llama-3.1-8B", "Llama-3.1-70B", False),
    # the hostile pass: a path's or an id's last component alone never makes two of them one
    ("AMD/MI300X", "NVIDIA/MI300X", False), ("/models/llama-3.1-8b/hf", "/models/llama-2-70b/hf", False),
    ("meta-llama/Llama-3.1-8B", "evil-org/Llama-3.1-8B", False), ("Llama-3.1-8B", "meta-llama/Llama-3.1-8B", True),
    ("-40 °C", "40 °C", False), ("-3", "3", False), ("-3", "-3.0", True), (10 ** 400, 10 ** 400 + 1, False),
    ("a" * 300 + "x", "a" * 300 + "y", False), ("8e0", "08", True), ("0x8", "8", False),
])
def test_matching_boundaries(a, b, equal):
    key = "model" if "lama" in str(a) else "hardware"
    sa, sb = C.stated(key, a, "x"), C.stated(key, b, "y")
    assert sa is not None and sb is not None and C.same(sa, sb, (), key) is equal


def test_an_equivalence_the_ledger_declares_matches_and_nothing_else_does():
    a, b, c = (C.stated("hardware", v, "x") for v in ("H100-SXM", "H100 80GB HBM3", "A100"))
    assert a and b and c
    groups = [["H100-SXM", "H100 80GB HBM3"]]
    assert C.same(a, b, groups) and not C.same(a, b, ()) and not C.same(a, c, groups)


def test_a_formulas_inputs_on_other_conditions_state_none_of_them():
    one = {"model": C.stated("model", "A", "x"), "hardware": C.stated("hardware", "H100", "x")}
    two = {"model": C.stated("model", "B", "y"), "hardware": C.stated("hardware", "h100", "y")}
    merged = C.merged([one, two])  # type: ignore[list-item]
    assert set(merged) == {"hardware"}


# --- item 6: what an artifact says of who made it -------------------------------------------------------------------

def test_no_page_or_export_shows_a_host_name_or_home_path_the_raw_artifact_holds(tmp_path):
    """Pages, cards, data.json, data.csv, search.json, the feed and badges show only the conditions' allowlist; the
    raw artifact and its viewer are published as committed, and validate says what they hold (SC329)."""
    from conftest import bad_case

    root, _ = bad_case("artifact-names-its-makers", tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    assert [f.code for f in result.findings] == ["SC329"]
    site = tmp_path / "site"
    assert not pipeline.build(root, site).refused
    holding = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()
                     and (b"build-box-7" in p.read_bytes() or b"/home/alice" in p.read_bytes()))
    assert holding == ["_files/evidence/bench.json", "_files/evidence/bench.json.html"]
    card = (site / "core/card-alpha.html").read_text()
    assert card.count("AMD EPYC, 2 CPUs") == 2  # the allowlist's words: the provenance line and the conditions
    assert ", on AMD EPYC, 2 CPUs" in card[card.index("card-provenance"):]


@pytest.mark.parametrize("data, said", [
    ({"machine_info": {"node": "box"}}, [("a host name", "/machine_info/node")]),
    ({"context": {"host_name": ""}}, []),  # blanked: nothing to say
    ({"params": {"python": "/home/bob/venv/bin/python"}}, [("a user's home path", "/params/python")]),
    ({"x": "C:\\Users\\carol\\bench"}, [("a user's home path", "/x")]),
    ({"x": "ran in /root/bench"}, [("a user's home path", "/x")]),
    ({"x": "/rooted/bench", "y": "/homeless"}, []),
    ({"env_vars": {"PATH": "/usr/bin"}}, [("environment variables", "/env_vars")]),
    ({"env_vars": {}}, []),
    ({"env": ["PATH=/usr/bin"]}, [("environment variables", "/env")]),
    ({"server_info": {"host": "127.0.0.1"}}, []),  # SGLang's listen address: any machine's
    ({"params": {"node": "n1"}}, [("a host name", "/params/node")]),
    ({"benchmarks": [{"params": {"node": 3}, "name": "t"}]}, []),  # a benchmark's own parameter
    ({"params": {"machine": "build-box", "arch": "x86_64", "cpu": "EPYC"}}, []),  # asv's, named by its user: formats.md
    ({"machine_info": {"machine": "x86_64"}}, []),  # pytest-benchmark's architecture
    ({"x": "sqrt /root-finding", "y": "/Users/Shared/data"}, []),
    ({"x": "file:///home/dan/r.json"}, [("a user's home path", "/x")]),
    ({"x": "c:\\users\\erin\\b"}, [("a user's home path", "/x")]),
    ({"x": "/mnt/c/Users/fay/b"}, [("a user's home path", "/x")]),
    ({"x": "~gus/bench"}, [("a user's home path", "/x")]),
    ({"x": "/var/home/hal/b"}, [("a user's home path", "/x")]),
    ({"meta": {"a/b": "/home/x/y"}}, [("a user's home path", "/meta/a~1b")]),
])
def test_what_an_artifact_says_of_its_makers_is_found_by_key(data, said):
    from scorecard.ledger import privacy

    assert privacy.said(data) == said


def test_the_evidence_viewer_shows_each_citing_dimensions_two_sides(tmp_path):
    root = tmp_path / "ledger"
    import shutil

    shutil.copytree(LEDGERS / "good" / "conditions", root)
    site = tmp_path / "site"
    assert not pipeline.build(root, site).refused
    viewer = (site / "_files/evidence/serving.json.html").read_text()
    assert viewer.count('<table class="conditions">') == 2  # other-model and same-model cite it; equivalent does not
    assert "Llama-2-13B" in viewer and "flag-conditions" in viewer and 'href="../../serving/index.html#other-model"' \
        in viewer


def test_a_value_too_long_to_show_is_never_read_as_a_quantity():
    """The hostile pass: a model of 200 kB ('1' + spaces + '1/a/b') made the quantity pattern quadratic."""
    assert C._quantity("1" + " " * 300 + "1/a/b") is None and C._quantity("80 GB") is not None


@pytest.mark.parametrize("typed, code", [(".nan", "SC204"), (".inf", "SC204"), ("1" + "0" * 400, "SC204"),
                                         ("123456789012345", None)])
def test_a_typed_condition_is_a_finite_number_of_at_most_15_digits(tmp_path, typed, code):
    root = tmp_path / "ledger"
    import shutil

    shutil.copytree(LEDGERS / "base", root)
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("  date: 2026-01\n", f"  date: 2026-01\n  conditions: {{k: {typed}}}\n"))
    result, _ = pipeline.validate(root)
    assert [f.code for f in result.findings if f.severity == "error"] == ([code] if code else [])
    if code is None:
        assert not pipeline.build(root, tmp_path / "site").refused
