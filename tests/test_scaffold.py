"""`scorecard init` and `scorecard new`: results validate, refusals change nothing."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given as generated, settings
from hypothesis import strategies as st

from scorecard.cli import pipeline

from conftest import LEDGERS, run_cli

TOOLS = LEDGERS.parent / "tools"


def tree_hashes(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_init_without_example_writes_no_record_and_validates_clean(tmp_path):
    """Issue 43 item 1: init's example dimensions stayed in the public history and feed for ever. Without --example
    it writes no record and no example text: the ledger validates and builds, its one warning the empty category
    (which --strict refuses until the first dimension is there), and the next step is `scorecard new`."""
    root = tmp_path / "l"
    proc = run_cli("init", str(root))
    assert proc.returncode == 0, proc.stderr
    assert "next: cd " in proc.stdout and "scorecard new performance/<id>" in proc.stdout
    assert sorted(p.name for p in (root / "claims").rglob("*.yaml")) == ["_category.yaml"]
    assert not (root / "evidence").exists()
    found = run_cli("validate", "--format", "json", cwd=root)
    assert found.returncode == 0 and [f["code"] for f in json.loads(found.stdout)["findings"]] == ["SC008"]
    assert run_cli("build", cwd=root).returncode == 0
    assert run_cli("new", "performance/first", cwd=root).returncode == 0
    codes = [f["code"] for f in json.loads(run_cli("validate", "--format", "json", cwd=root).stdout)["findings"]]
    assert codes == ["SC604"]  # new's example text, until it is replaced


def test_init_validates_and_builds(tmp_path):
    proc = run_cli("init", "--example", str(tmp_path / "l"))
    assert proc.returncode == 0, proc.stderr
    root = tmp_path / "l"
    for rel in ("scorecard.yaml", ".gitignore", ".pre-commit-config.yaml", "schema/dimension.schema.json",
                "claims/performance/first-gap.yaml", "evidence/throughput.json"):
        assert (root / rel).is_file(), rel
    assert run_cli("validate", cwd=root).returncode == 0
    assert run_cli("build", cwd=root).returncode == 0
    result, _ = pipeline.validate(root)
    assert {d.model.status for d in result.ledger.dimensions()} == {"no-claim", "trails"}
    first = (root / "claims/performance/first-gap.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schema/dimension.schema.json"
    assert (root / "schema/dimension.schema.json").is_file()


def test_init_refuses_an_existing_ledger_and_changes_nothing(tmp_path):
    root = tmp_path / "l"
    run_cli("init", str(root))
    (root / "claims/performance/first-gap.yaml").write_text("title: mine\n")
    before = tree_hashes(root)
    proc = run_cli("init", str(root))
    assert proc.returncode == 2 and "already holds a ledger" in proc.stderr
    assert tree_hashes(root) == before


def test_init_refuses_to_overwrite_any_file(tmp_path):
    """A file init would write that is there already is refused, and nothing is written; a .gitignore and a
    .pre-commit-config.yaml are the two it adds to instead (below)."""
    root = tmp_path / "l"
    (root / "schema").mkdir(parents=True)
    (root / ".gitignore").write_text("mine\n")
    (root / "schema/dimension.schema.json").write_text("mine\n")
    before = tree_hashes(root)
    proc = run_cli("init", str(root))
    assert proc.returncode == 2 and "schema/dimension.schema.json" in proc.stderr
    assert tree_hashes(root) == before


def test_new_dimension_and_category(base_ledger):
    proc = run_cli("new", "speed/ttft", cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    text = (base_ledger / "claims/speed/ttft.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=../../schema/dimension.schema.json")
    assert text.count("#") > 15  # a comment on every field
    assert (base_ledger / "claims/speed/_category.yaml").is_file()
    assert run_cli("validate", cwd=base_ledger).returncode == 0


def test_new_measured_points_at_missing_evidence(base_ledger):
    assert run_cli("new", "core/gamma", "--status", "leads", cwd=base_ledger).returncode == 0
    proc = run_cli("validate", cwd=base_ledger)
    assert proc.returncode == 1 and "SC304" in proc.stdout and "claims/core/gamma.yaml" in proc.stdout


def test_new_refusals_change_nothing(base_ledger):
    before = tree_hashes(base_ledger)
    for args in (["new", "core/beta"], ["new", "other/beta"], ["new", "Bad/x"], ["new", "core"],
                 ["new", "core/x", "--status", "won"]):
        proc = run_cli(*args, cwd=base_ledger)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr
    assert tree_hashes(base_ledger) == before


def test_new_refuses_an_id_with_a_trailing_newline(base_ledger):
    before = tree_hashes(base_ledger)
    proc = run_cli("new", "core/abc\n", "--root", str(base_ledger))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert tree_hashes(base_ledger) == before


def test_new_takes_titles_and_puts_a_new_category_last(tmp_path):
    import yaml

    from scorecard.cli import scaffold

    root = tmp_path / "l"
    scaffold.init(root)  # performance has order 10
    (root / "claims/performance/_category.yaml").write_text(
        (root / "claims/performance/_category.yaml").read_text().replace("order: 10", "order: 35"))
    scaffold.new(root, "gpu/offload", title="GPU offload: `cudaMemcpy` # 1", category_title="GPU & memory")
    dim = yaml.safe_load((root / "claims/gpu/offload.yaml").read_text())
    cat = yaml.safe_load((root / "claims/gpu/_category.yaml").read_text())
    assert dim["title"] == "GPU offload: `cudaMemcpy` # 1" and cat == {**cat, "title": "GPU & memory", "order": 40}
    scaffold.new(root, "gpu/second")  # an existing category is left alone
    assert yaml.safe_load((root / "claims/gpu/second.yaml").read_text())["title"] == "Second"
    for bad in ("", "two\nlines"):
        with pytest.raises(scaffold.ScaffoldRefused, match="one line"):
            scaffold.new(root, "gpu/third", title=bad)


def test_every_example_text_of_a_new_record_is_caught_and_a_fresh_ledger_says_so(tmp_path):
    import subprocess

    from scorecard.ledger import placeholders

    root = tmp_path / "my-ledger"
    assert run_cli("init", "--example", str(root)).returncode == 0
    assert run_cli("new", "performance/x", cwd=root).returncode == 0
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=t", "-c", "user.email=t@e.org", "commit", "-qm", "init"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    proc = run_cli("validate", cwd=root)
    assert proc.returncode == 0 and "5 warnings in 3 dimensions" in proc.stdout
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("claims/performance/x.yaml:"))
    assert line.startswith("claims/performance/x.yaml:5:6: warning SC604 ")
    for name in ("why", "sota.bar", "sota.source", "leaders[0] (System A)", "note", "trace[0] (https://example.org/paper)"):
        assert name in line, name
    assert "evidence/throughput.json:1:1: warning SC604" in proc.stdout
    assert "claims/performance/_category.yaml:4:10: warning SC604" in proc.stdout
    assert run_cli("build", cwd=root).returncode == 0
    assert run_cli("build", "--strict", cwd=root).returncode == 1
    site = "".join(p.read_text() for p in (root / "site").rglob("*.html"))
    shown = [text for text in [*placeholders.DIMENSION.values(), placeholders.LEADER] if text in site]
    assert shown, "the published site shows the example text the warnings named"


def test_new_reads_a_tools_output_in_its_own_words(base_ledger):
    """`new --evidence` recognises the tool that wrote the file and writes the short form, with the tool's unit."""
    tools = Path(__file__).parent / "tools"
    shutil.copy(tools / "hyperfine-two-commands.json", base_ledger / "evidence/hf.json")
    proc = run_cli("new", "speed/start", "--evidence", "evidence/hf.json", "--benchmark", "true", "--bar", "2 s",
                   cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    text = (base_ledger / "claims/speed/start.yaml").read_text()
    assert "  format: hyperfine " in text and '  benchmark: "true" ' in text and 'also here: "sleep 0.001"' in text
    assert "  value: 2 " in text and "  unit: s " in text and "  better: lower " in text
    assert "\n  pointer:" not in text.split("\nresult:")[1]
    found = run_cli("validate", "--format", "json", cwd=base_ledger)
    errors = [f for f in json.loads(found.stdout)["findings"] if f["severity"] == "error"]
    assert errors == []  # the tool's runs read, in its unit: only the example text is left to replace
    shutil.copy(tools / "vllm-serve.json", base_ledger / "evidence/serving.json")
    proc = run_cli("new", "speed/ttft", "--status", "leads", "--evidence", "serving.json", cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    assert "  format: serving " in (base_ledger / "claims/speed/ttft.yaml").read_text()


TOOL_FILES = [("hyperfine", "hyperfine-two-commands.json", "1 s", "lower"),
              ("pytest-benchmark", "pytest-benchmark.json", "1 s", "lower"),
              ("pyperf", "pyperf-timeit.json", "1 s", "lower"),
              ("google-benchmark", "google-benchmark.json", "1 s", "lower"),
              ("asv", "asv", "1 s", "lower"),
              ("serving", "vllm-serve.json", "10 s", "lower"),
              ("serving", "sglang-serve-rate8.json", "10 s", "lower")]


def _evidence(root: Path, name: str) -> str:
    source = Path(__file__).parent / "tools" / name
    if source.is_dir():  # asv: the results folder, with benchmarks.json beside the results
        shutil.copytree(source, root / "evidence/asv")
        return "asv/results/vm/b51530db-existing-py_tmp_toolvenv_bin_python3.json"
    shutil.copy(source, root / "evidence" / name)
    return name


@pytest.mark.parametrize("tool, name, bar, better", TOOL_FILES)
def test_new_with_a_bar_writes_a_record_that_validates_for_each_tools_pinned_file(base_ledger, tool, name, bar,
                                                                                   better):
    """Issue 43 item 4: `better` where the tool defines the quantity, the bar's number from --bar, and the status the
    evidence gives against it (inconclusive included): the record validates as written, example text aside."""
    rel = _evidence(base_ledger, name)
    proc = run_cli("new", "speed/x", "--evidence", rel, "--bar", bar, cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    record = yaml.safe_load((base_ledger / "claims/speed/x.yaml").read_text())
    assert record["result"]["format"] == tool and record["sota"]["better"] == better
    assert [str(record["sota"]["value"]), record["sota"]["unit"]] == bar.split()
    assert f"status: the evidence gives {record['status']} against the bar of {bar}" in proc.stdout
    found = run_cli("validate", "--format", "json", cwd=base_ledger)
    assert [f for f in json.loads(found.stdout)["findings"] if f["severity"] == "error"] == [], found.stdout


@pytest.mark.parametrize("name, metric, better", [
    ("vllm-serve.json", "ttft", "lower"), ("vllm-serve.json", "tpot", "lower"), ("vllm-serve.json", "itl", "lower"),
    ("sglang-serve-rate8.json", "e2el", "lower"), ("vllm-serve.json", "output_throughput", "higher"),
    ("vllm-serve.json", "request_throughput", "higher"), ("vllm-serve.json", "total_token_throughput", "higher")])
def test_new_says_which_way_is_better_for_each_serving_metric(base_ledger, name, metric, better):
    rel = _evidence(base_ledger, name)
    proc = run_cli("new", "speed/x", "--evidence", rel, "--metric", metric, cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    record = yaml.safe_load((base_ledger / "claims/speed/x.yaml").read_text())
    assert record["result"]["metric"] == metric and record["sota"]["better"] == better


def test_new_leaves_what_the_evidence_does_not_give_required_and_validate_refuses_it(base_ledger):
    """Without --bar the bar's number is REQUIRED; where the tool does not say which way is better (a unit that is
    not a time), so is better. Each is SC201 at its own line until filled in: never a placeholder number."""
    pyperf = json.loads((Path(__file__).parent / "tools/pyperf-timeit.json").read_text())
    pyperf["metadata"]["unit"] = "widget"
    (base_ledger / "evidence/pp.json").write_text(json.dumps(pyperf))
    assert run_cli("new", "core/eps", "--evidence", "pp.json", cwd=base_ledger).returncode == 0
    text = (base_ledger / "claims/core/eps.yaml").read_text()
    lines = text.splitlines()
    value_line = next(i for i, line in enumerate(lines, 1) if line.startswith("  value:"))
    better_line = next(i for i, line in enumerate(lines, 1) if line.startswith("  better:"))
    assert "status: inconclusive " in text and "value: 100" not in text
    found = run_cli("validate", "--format", "json", cwd=base_ledger)
    errors = [(f["code"], f["line"], f["column"]) for f in json.loads(found.stdout)["findings"]
              if f["severity"] == "error"]
    assert ("SC201", value_line, 3) in errors and ("SC201", better_line, 3) in errors
    # filled in, they pass: the REQUIRED mark is then only a comment
    fixed = text.replace("  value:  ", "  value: 5", 1).replace("  better:  ", "  better: lower", 1)
    (base_ledger / "claims/core/eps.yaml").write_text(fixed)
    found = run_cli("validate", "--format", "json", cwd=base_ledger)
    assert not [f for f in json.loads(found.stdout)["findings"] if f["code"] == "SC201"], found.stdout


@pytest.mark.parametrize("bar, said", [("abc", "is not a number and its unit"), ("3", "is not a number and its unit"),
                                       ("3 tok/s", "does not convert to s"), ("3 florps", "not a unit scorecard knows"),
                                       ("1e999 s", "out of range")])
def test_new_refuses_a_bar_it_cannot_write_and_writes_nothing(base_ledger, bar, said):
    rel = _evidence(base_ledger, "hyperfine-two-commands.json")
    proc = run_cli("new", "speed/x", "--evidence", rel, "--bar", bar, cwd=base_ledger)
    assert proc.returncode == 2 and said in proc.stderr, proc.stderr
    assert not (base_ledger / "claims/speed").exists()


def test_an_explicit_status_is_kept_and_the_evidence_s_is_said_beside_it(base_ledger):
    rel = _evidence(base_ledger, "hyperfine-two-commands.json")
    proc = run_cli("new", "speed/x", "--evidence", rel, "--bar", "1 ns", "--status", "leads", cwd=base_ledger)
    assert proc.returncode == 0
    assert "the evidence gives trails against the bar of 1 ns, not leads: fix status: before committing" in proc.stdout
    assert yaml.safe_load((base_ledger / "claims/speed/x.yaml").read_text())["status"] == "leads"


def test_new_with_evidence_of_no_tool_points_and_refuses_a_wrong_format(base_ledger):
    assert run_cli("new", "core/gamma", "--status", "leads", "--evidence", "evidence/run.json",
                   cwd=base_ledger).returncode == 0
    text = (base_ledger / "claims/core/gamma.yaml").read_text()
    assert "evidence: evidence/run.json" in text and "pointer:" in text and "\n  format:" not in text
    proc = run_cli("new", "core/delta", "--status", "leads", "--evidence", "evidence/run.json", "--format",
                   "hyperfine", cwd=base_ledger)
    assert proc.returncode == 2 and "not hyperfine output" in proc.stderr
    proc = run_cli("new", "core/delta", "--status", "leads", "--evidence", "evidence/none.json", cwd=base_ledger)
    assert proc.returncode == 2 and "does not exist" in proc.stderr or "missing" in proc.stderr
    assert not (base_ledger / "claims/core/delta.yaml").exists()


def test_new_evidence_is_read_only_inside_the_root_and_nothing_from_it_becomes_yaml_keys(base_ledger, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text('{"results": [{"command": "x", "times": [1, 2]}]}')
    (base_ledger / "evidence/link.json").symlink_to(outside)
    for given in ("../outside.json", "evidence/link.json", "evidence/none.json"):
        proc = run_cli("new", "core/delta", "--status", "leads", "--evidence", given, cwd=base_ledger)
        assert proc.returncode == 2 and "internal error" not in proc.stderr, (given, proc.stderr)
    proc = run_cli("new", "core/delta", "--status", "no-claim", "--evidence", "evidence/run.json", cwd=base_ledger)
    assert proc.returncode == 2 and "measured status" in proc.stderr
    assert not (base_ledger / "claims/core/delta.yaml").exists()
    # names and units from the file are data: a line break YAML reads (U+2028) or a raw unit cannot add a key
    data = json.loads((Path(__file__).parent / "tools/hyperfine-two-commands.json").read_text())
    data["results"][1]["command"] = "sleep\u2028  unit: ms #"
    (base_ledger / "evidence/hf.json").write_text(json.dumps(data, ensure_ascii=False))
    assert run_cli("new", "core/delta", "--status", "leads", "--evidence", "hf.json", cwd=base_ledger).returncode == 0
    record = yaml.safe_load((base_ledger / "claims/core/delta.yaml").read_text())
    assert set(record["result"]) == {"evidence", "format", "benchmark", "stat"}
    pyperf = json.loads((Path(__file__).parent / "tools/pyperf-timeit.json").read_text())
    pyperf["metadata"]["unit"] = "widget\nreviewed: [x]"
    (base_ledger / "evidence/pp.json").write_text(json.dumps(pyperf))
    assert run_cli("new", "core/eps", "--status", "leads", "--evidence", "pp.json", cwd=base_ledger).returncode == 0
    record = yaml.safe_load((base_ledger / "claims/core/eps.yaml").read_text())
    assert "reviewed" not in record and record["sota"]["unit"] == "x"


@settings(max_examples=400, deadline=None)
@generated(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40))
def test_any_text_new_writes_reads_back_as_that_text(text):
    """The hostile pass: C1 controls and U+FFFE in a tool's entry name were written raw, and the record failed SC101."""
    from scorecard.cli.newrecord import yaml_text

    assert yaml.safe_load(f"k: {yaml_text(text)}\n") == {"k": text}


@pytest.mark.parametrize("target", ["tools/123", "tools/null", "tools/true", "tools/0", "null/x", "yes/on"])
def test_an_id_yaml_would_read_as_a_number_or_a_word_still_makes_a_record_that_validates(base_ledger, target):
    assert run_cli("new", target, cwd=base_ledger).returncode == 0
    found = run_cli("validate", "--format", "json", cwd=base_ledger)
    assert [f for f in json.loads(found.stdout)["findings"] if f["severity"] == "error"] == []


def test_an_entry_without_a_name_is_refused(base_ledger):
    data = json.loads((Path(__file__).parent / "tools/hyperfine-two-commands.json").read_text())
    for entry in data["results"]:
        entry["command"] = "\t"
    (base_ledger / "evidence/hf.json").write_text(json.dumps(data))
    proc = run_cli("new", "speed/x", "--evidence", "hf.json", cwd=base_ledger)
    assert proc.returncode == 2 and "has no name" in proc.stderr


@pytest.mark.parametrize("benchmark, better", [("benchmarks.TimeSuite.time_sum_range", "lower"),
                                               ("benchmarks.track_answer", None)])
def test_asv_says_which_way_is_better_by_the_benchmarks_kind_and_a_track_value_is_the_authors(base_ledger,
                                                                                               benchmark, better):
    """The hostile pass: a track_ benchmark in bytes was written better: lower (a "bytes saved" metric led)."""
    shutil.copytree(Path(__file__).parent / "tools/asv", base_ledger / "evidence/asv")
    rel = "asv/results/vm/b51530db-existing-py_tmp_toolvenv_bin_python3.json"
    proc = run_cli("new", "speed/x", "--evidence", rel, "--benchmark", benchmark, cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    record = yaml.safe_load((base_ledger / "claims/speed/x.yaml").read_text())
    assert record["sota"]["better"] == better
    if better is None:
        assert "better:                             # REQUIRED" in (base_ledger / "claims/speed/x.yaml").read_text()


# --- issue 43 item 1: init into a folder that has a .gitignore and a .pre-commit-config.yaml -------------------

HOOKS = "repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.0.0\n    hooks:\n" \
        "      - id: trailing-whitespace\n"


@pytest.mark.parametrize("ignore", [b"node_modules/\r\nsite/\r\n", b"build/", b""])
def test_init_adds_to_the_files_a_repository_has_and_keeps_every_byte_of_them(tmp_path, ignore):
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".gitignore").write_bytes(ignore)
    (root / ".pre-commit-config.yaml").write_text(HOOKS)
    proc = run_cli("init", str(root))
    assert proc.returncode == 0, proc.stderr
    new_ignore = (root / ".gitignore").read_bytes()
    assert new_ignore.startswith(ignore) and b"/.site-*/" in new_ignore
    assert (b"/site/" in new_ignore) is (b"site/" not in ignore)  # an unanchored site/ ignores it already
    if b"\r\n" in ignore:
        assert b"\n" not in new_ignore.replace(b"\r\n", b"")  # the file's own line endings
    config = (root / ".pre-commit-config.yaml").read_text()
    assert config.startswith(HOOKS)
    repos = yaml.safe_load(config)["repos"]
    assert repos[0] == yaml.safe_load(HOOKS)["repos"][0] and repos[1]["hooks"][0]["id"] == "scorecard-validate"
    assert ".gitignore: added" in proc.stdout and ".pre-commit-config.yaml: added the scorecard-validate hook" in \
        proc.stdout
    assert run_cli("validate", cwd=root).returncode == 0
    pre_commit = Path(sys.executable).parent / "pre-commit"
    if pre_commit.exists():
        checked = subprocess.run([str(pre_commit), "validate-config", ".pre-commit-config.yaml"], cwd=root,
                                 capture_output=True, text=True, timeout=120)
        assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.parametrize("config", ["repos: []\n", HOOKS + "default_stages: [pre-commit]\n",
                                    "repos:\n- {repo: x}\nci: {}\n", "not: [yaml\n", "- a list\n"])
def test_a_config_init_cannot_add_to_safely_is_left_as_it_is_with_the_lines_to_add(tmp_path, config):
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".pre-commit-config.yaml").write_text(config)
    proc = run_cli("init", str(root))
    assert proc.returncode == 0, proc.stderr
    assert (root / ".pre-commit-config.yaml").read_text() == config
    assert "left .pre-commit-config.yaml:" in proc.stdout and "id: scorecard-validate" in proc.stdout


@pytest.mark.parametrize("config", [
    "repos:\n-   repo: https://github.com/x/y\n    rev: v1\n    hooks:\n    -   id: z\n",  # pre-commit sample-config
    "repos:\n- {repo: https://github.com/x/y, rev: v1, hooks: [{id: z}]}\n",
    "# ours\nrepos:\n\n    # first\n    - repo: https://github.com/x/y\n      rev: v1\n      hooks: [{id: z}]\n",
    "files: ^src/\nrepos:\n  - repo: https://github.com/x/y\n    rev: v1\n    hooks: [{id: z}]\n",
])
def test_a_config_in_another_indentation_is_added_to_in_its_own(tmp_path, config):
    """The hostile pass: pre-commit's own sample-config ("-   repo:") was left alone as "not YAML"."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".pre-commit-config.yaml").write_text(config)
    proc = run_cli("init", str(root))
    assert proc.returncode == 0, proc.stderr
    text = (root / ".pre-commit-config.yaml").read_text()
    assert text.startswith(config)
    old, new = yaml.safe_load(config), yaml.safe_load(text)
    assert new["repos"][:-1] == old["repos"] and new["repos"][-1]["hooks"][0]["id"] == "scorecard-validate"
    assert ("check: its top-level files:" in proc.stdout) is ("files:" in config)


def test_init_dry_run_writes_nothing_and_says_what_it_would(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".gitignore").write_text("build/\n")
    (root / ".pre-commit-config.yaml").write_text(HOOKS)
    before = tree_hashes(root)
    proc = run_cli("init", "--dry-run", str(root))
    assert proc.returncode == 0 and tree_hashes(root) == before
    assert "would create" in proc.stdout and "would change .gitignore: added /site/, /.site-*/" in proc.stdout


def test_init_edits_no_file_reached_through_a_link(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n")
    (root / ".gitignore").symlink_to(target)
    proc = run_cli("init", str(root))
    assert proc.returncode == 0 and "left .gitignore: .gitignore is not a regular file" in proc.stdout
    assert target.read_text() == "keep\n"


def test_new_lists_the_conditions_the_evidence_records_and_a_bar_conditions_block_with_the_same_keys(base_ledger):
    """Issue 44 item 7: what the tool's file records of ours, in a comment, and a commented sota.conditions with the
    same keys for the bar's, which, filled in, validates (and, listed in conditions_must_match, is checked)."""
    shutil.copy(TOOLS / "vllm-serve.json", base_ledger / "evidence/serve.json")
    proc = run_cli("new", "core/ttft", "--evidence", "serve.json", "--bar", "50 ms", cwd=base_ledger)
    assert proc.returncode == 0, proc.stderr
    path = base_ledger / "claims/core/ttft.yaml"
    text = path.read_text()
    assert "  # conditions: {model: ?, software: ?, request_rate: ?, date: ?}" in text
    assert '(ours, as the evidence records them: {model: "meta-llama/Llama-3.1-8B-Instruct"' in text
    filled = text.replace("  # conditions: {model: ?, software: ?, request_rate: ?, date: ?}",
                          "  conditions: {model: Llama-2-13B}")
    path.write_text(filled.replace("status: inconclusive", "status: leads"))
    (base_ledger / "scorecard.yaml").write_text((base_ledger / "scorecard.yaml").read_text() +
                                                "conditions_must_match: [model]\n")
    (base_ledger / "claims/core/alpha.yaml").unlink()  # its run.json states no model
    result, _ = __import__("scorecard.cli.pipeline", fromlist=["validate"]).validate(base_ledger)
    assert "SC520" in {f.code for f in result.findings}
