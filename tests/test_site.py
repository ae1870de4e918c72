"""The site: pages and their content, safety of user text, determinism, atomicity, links, export."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from scorecard.cli import pipeline
from scorecard.site.write import MARKER, OutputRefused

from conftest import EPOCH, LEDGERS, REPO, copy_example, copy_ledger, run_cli
from sitecheck import broken_links, pages


@pytest.fixture(scope="module")
def example_site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("example") / "site"
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    outcome = pipeline.build(REPO, out)
    assert not outcome.refused
    return out


def text_of(html: str) -> str:
    """Visible text, whitespace folded, entities decoded."""
    import html as h

    body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    return " ".join(h.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def test_site_layout(example_site):
    for rel in ["index.html", "cost-efficiency/index.html", "latency-and-reuse/index.html", "data.json",
                "cost-efficiency/data.json", "search.json", "_assets/style.css", "_assets/site.js", ".nojekyll",
                "_badges/goodput-under-sla.svg", "_badges/cost-efficiency.svg", "_files/CLAIMS.md",
                "_files/CLAIMS.md.html", "_files/evidence/data.json", "_files/evidence/data.json.html", MARKER]:
        assert (example_site / rel).is_file(), rel


def test_category_page_carries_the_reference_page(example_site):
    """Every fact of the hand-made cost page appears on the generated page."""
    page = text_of((example_site / "cost-efficiency/index.html").read_text())
    facts = [
        "Cost & efficiency", "cost-efficiency", "back to the scorecard index",
        "the dimensions that matter, and where fak stands",
        "mostly no-claim gaps for a focused reuse kernel",
        # titles
        "Goodput under an SLA (requests/s meeting TTFT and TPOT SLOs simultaneously)",
        "SLO-constrained goodput (per-GPU)",
        "End-to-end effective request capacity / cost gain from the KV system under SLO",
        "Inference unit economics ($ per 1M tokens) at realistic utilization",
        "Energy efficiency (Wh per token / tokens-per-watt) and power-capped throughput",
        # why, bars, numbers
        "Why it matters", "collapse under tail-latency constraints", "7.4x more goodput", "12.6x tighter SLO",
        "4.48x SLO-constrained goodput", "59%-498%", "up to 525% in simulation", "ACM Transactions on Storage (2026)",
        "~$0.40 / 1M tokens", "~$20 in late 2022", "30-60%", "breaks even only above ~50% utilization",
        "~0.0001-0.002 Wh per output token", "~0.3 Wh (~3e-4 Wh/token)",
        # leaders
        "NVIDIA Dynamo (incremental: 38% over best aggregated config, 2026)",
        "PD-Multiplexing/GreenContext (1.62x over PD-disagg, 2025-09)",
        "DOPD (>99% SLO attainment, up to 1.5x over vLLM/DistServe, 2026-03)",
        "TaiChi (90% SLO attainment, 29-77% over PD-disagg, 2025-08)", "Mooncake (Moonshot AI / Kimi)",
        "NVIDIA Dynamo (KVBM + NIXL KV transfer)", "vLLM/SGLang self-host on H100/H200", "AMD MI355X (FP4)",
        "NVIDIA Blackwell (GB200/GB300, FP4)", "Hosted frontier APIs", "FP8/FP4 quantization",
        # sources and dates
        "https://arxiv.org/abs/2401.09670 (source from 2024-01)",
        "https://arxiv.org/abs/2407.00079 (source from 2024-07)",
        "https://introl.com/blog/inference-unit-economics-true-cost-per-million-tokens-guide (source from 2025-09-01)",
        "https://arxiv.org/pdf/2603.06630 (source from 2026-03-01)",
        # status, claim, notes, traces
        "no claim fak: no number (stub)", "REAL GAP", "OUT OF SCOPE for a reuse kernel", "0.75x at peak",
        "honestly a non-win", "Honest no-claim", "no watt source on the box", "competitor_value = null",
        "60.3x vs naive", "4.1x vs tuned", "0.60x → 0.75x → ~0.97x", "BENCHMARK-AUTHORITY.md", "CLAIMS.md",
        "served-throughput-vs-sglang", "polymodel decode lane is explicitly SERIAL/off-mainline",
    ]
    missing = [f for f in facts if f not in page]
    assert missing == []
    assert page.count("fak note") == 5 and page.count("Trace") >= 5


def test_measured_values_come_from_the_artifacts(example_site):
    page = (example_site / "latency-and-reuse/index.html").read_text()
    text = text_of(page)
    assert "Measured: 4.1x (one number: its run-to-run noise is not known) sample data ; 36.7% ahead of the bar" in text
    assert "1,840 tok/s" in text and "30.4% slower than the bar" in text
    assert "Simulated value: 0.00031 Wh/token simulated, not measured" in text
    assert "Read from evidence/sample/latency.json at /results/decode/tok~1s ; artifact commit 0000000" in text
    assert 'href="../_files/evidence/sample/latency.json.html#p/results/decode/tok~1s"' in page
    assert page.count('<svg role="img"') >= 4  # counts chart + one bullet chart per comparable value
    # change the artifact: the page follows
    evidence = json.loads((REPO / "evidence/sample/latency.json").read_text())
    assert evidence["results"]["decode"]["tok/s"] == 1840.0


def test_index_lists_every_dimension_with_status_in_text(example_site):
    page = (example_site / "index.html").read_text()
    rows = re.findall(r'<tr data-status="([a-z-]+)"[ >]', page)
    assert len(rows) == 16 and set(rows) == {"leads", "parity", "trails", "simulated", "no-claim", "out-of-scope"}
    text = text_of(page)
    assert "leads : 2" in text  # the tools category's own counts
    foot = page[page.index('<tfoot>'):page.index('</tfoot>')]  # the first screen's totals, each a link
    assert re.findall(r'<a href="#status-([a-z-]+)" data-status="\1">(\d+)</a>', foot) == [
        ("leads", "3"), ("parity", "2"), ("trails", "3"), ("simulated", "1"), ("no-claim", "6"), ("out-of-scope", "1")]
    assert 'href="cost-efficiency/index.html#goodput-under-sla"' in page


def test_json_export(example_site):
    data = json.loads((example_site / "data.json").read_text())
    assert data["schema_version"] == 1
    dims = [d for c in data["categories"] for d in c["dimensions"]]
    assert len(dims) == 16
    decode = next(d for d in dims if d["id"] == "decode-throughput")
    assert decode["file"] == "claims/latency-and-reuse/decode-throughput.yaml"
    assert decode["measured"]["value"] == 1840.0 and decode["comparison"]["standing"] == "behind"
    cat = json.loads((example_site / "latency-and-reuse/data.json").read_text())
    assert cat["schema_version"] == 1 and len(cat["dimensions"]) == 6


def test_evidence_page_highlights_cited_pointers(example_site):
    page = (example_site / "_files/evidence/sample/latency.json.html").read_text()
    assert re.search(r'<div class="line cited" id="p/results/decode/tok~1s">', page)
    assert 'cited by <a href="../../../latency-and-reuse/index.html#decode-throughput">decode-throughput</a>' in page
    assert re.search(r'<li><a href="../../../latency-and-reuse/index.html#decode-throughput">Decode throughput[^<]*</a>'
                     r': ours 1,840 tok/s', page)  # the way back, with what the page computed
    both = (example_site / "_files/evidence/sample/tools/hyperfine-rival-start.json.html").read_text()
    assert "the bar 120 ms, measured by us: median of 12 runs, 97.5% interval 117–123 ms" in both  # the family level
    one = (example_site / "_files/evidence/sample/tools/hyperfine-cli-start.json.html").read_text()
    assert "ours 81.2 ms (median of n = 12 runs; 95% CI 79.3–83.8 ms)" in one  # one side measured: 95 %
    assert "ours 81.2 ms (median of n = 12 runs; 97.5% CI 79.2–84.8 ms)" in one  # against a measured bar: 97.5 %
    formula = (example_site / "_files/evidence/sample/tools/serving-compare.json.html").read_text()
    assert re.search(r"ours 0.75x, computed as fak / sglang with fak = [\d,.]+ tok/s, sglang = [\d,.]+ tokens/s from "
                     r"this file", formula), formula[formula.find("Cited by"):][:400]


def test_a_table_column_reads_at_one_precision(example_site):
    """Issue 45: our values in the index's table at three significant figures, trailing zeros kept (0.750x beside
    4.10x, never 0.75x beside 4.1x); a typed bar as its source gave it (3x, not 3.00x)."""
    page = (example_site / "index.html").read_text()
    ours = re.findall(r'<td class="num" data-label="fak"><a class="value"[^>]*>([^<]+)</a>', page)
    assert "0.750x" in ours and "4.10x" in ours and "33.8 ms" in ours and "1,840 tok/s" in ours, ours
    assert all(len(re.sub(r"[^\d]", "", v.split()[0].rstrip("x")).lstrip("0")) >= 3 for v in ours), ours
    bars = re.findall(r'<a class="value bar-value"[^>]*>([^<]+)</a>', page)
    assert "3x" in bars and "0.4 $/1M tokens" in bars, bars


def test_every_local_link_resolves(example_site):
    assert broken_links(example_site) == []


def test_no_external_requests(example_site):
    for path, page in pages(example_site).items():
        for script in page.scripts:
            assert not script.get("src", "").startswith(("http:", "https:", "//")), path
    for path in example_site.rglob("*.html"):
        assert not re.search(r'<(link|script|img)[^>]+(href|src)="(https?:)?//', path.read_text()), path


def test_build_is_deterministic_across_hash_seeds_and_time(tmp_path):
    digests = []
    for seed, epoch in (("1", EPOCH), ("2", EPOCH)):
        out = tmp_path / f"site{seed}"
        env = {"PYTHONHASHSEED": seed, "SOURCE_DATE_EPOCH": epoch}
        proc = run_cli("build", "--out", str(out), cwd=REPO, env=env)
        assert proc.returncode == 0, proc.stderr
        digests.append({p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                        for p in sorted(out.rglob("*")) if p.is_file()})
    assert digests[0] == digests[1]


def test_without_source_date_epoch_the_site_shows_the_data_date_not_the_clock(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    root = copy_example(tmp_path / "ledger")  # outside any git repository
    pipeline.build(root, tmp_path / "s")
    data = json.loads((tmp_path / "s/data.json").read_text())
    assert data["as_of"] == "2026-06-01"  # the newest meta.date / sota.date in the example ledger


def test_in_git_the_site_is_as_of_the_last_commit_that_changed_the_ledger(tmp_path, monkeypatch):
    from gitrepo import commit, git

    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    root = copy_example(tmp_path / "ledger")
    git(root, "init", "-q")
    commit(root, "the ledger", 300)  # 2026-10-28, after every date in the data
    (root / "NOTES.md").write_text("not part of the ledger's data\n")
    commit(root, "notes", 320)  # touches neither claims/ nor evidence/: not a data date
    pipeline.build(root, tmp_path / "s")
    assert json.loads((tmp_path / "s/data.json").read_text())["as_of"] == "2026-10-28"


def test_build_refuses_a_ledger_with_errors_and_keeps_the_old_site(tmp_path):
    from conftest import bad_case

    root, _ = bad_case("pointer-to-bool", tmp_path / "l")
    shutil.copy(LEDGERS / "base/claims/core/alpha.yaml", root / "claims/core/alpha.yaml")
    assert run_cli("build", cwd=root).returncode == 0
    before = (root / "site/index.html").read_bytes()
    shutil.copytree(LEDGERS / "bad/pointer-to-bool", root, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("expect.yaml"))
    proc = run_cli("build", cwd=root)
    assert proc.returncode == 1 and "SC308" in proc.stderr and "build refused" in proc.stderr
    assert (root / "site/index.html").read_bytes() == before


def test_a_build_that_fails_midway_leaves_the_previous_site(base_ledger):
    out = base_ledger / "site"
    pipeline.build(base_ledger, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (base_ledger / "claims/core/beta.yaml").write_text(
        (base_ledger / "claims/core/beta.yaml").read_text().replace("Beta latency", "Beta latency v2"))
    calls = []

    def explode(rel):
        calls.append(rel)
        if len(calls) == 5:
            raise KeyboardInterrupt  # as if the user pressed Ctrl-C half-way

    with pytest.raises(KeyboardInterrupt):
        pipeline.build(base_ledger, out, guard=explode)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in base_ledger.iterdir() if p.name.startswith(".")) == []
    pipeline.build(base_ledger, out)
    assert "Beta latency v2" in (out / "index.html").read_text()


def test_output_guard(base_ledger, tmp_path):
    for bad in (base_ledger, base_ledger / "claims", base_ledger / "evidence", base_ledger.parent):
        with pytest.raises(OutputRefused):
            pipeline.build(base_ledger, bad)
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("precious")
    with pytest.raises(OutputRefused, match="not made by scorecard"):
        pipeline.build(base_ledger, foreign)
    assert (foreign / "keep.txt").read_text() == "precious"
    proc = run_cli("build", "--out", str(foreign), cwd=base_ledger)
    assert proc.returncode == 2 and "refusing" in proc.stderr


def test_hostile_text_never_becomes_markup(tmp_path):
    out = tmp_path / "site"
    outcome = pipeline.build(LEDGERS / "hostile", out)
    assert not outcome.refused
    for path, page in pages(out).items():
        assert [s.get("src", "") for s in page.scripts] == [s.get("src") for s in page.scripts if
                                                           s.get("src", "").endswith("_assets/site.js")], path
        assert page.handlers == [], path
        assert not {"iframe", "style", "img", "object", "embed", "base", "form"} - {"form"} & set(page.tags), path
        for link in page.links:
            assert not re.match(r"\s*(javascript|data|vbscript|file):", link, re.I), (path, link)
    html = (out / "evil/index.html").read_text()
    assert "{{ 7*7 }}" in text_of(html) and "49" not in text_of(html)
    assert "&lt;script&gt;alert('why')&lt;/script&gt;" in html
    assert not list(out.rglob("evil.html")) and (out / "_files/docs/evil.html.html").is_file()
    import xml.etree.ElementTree as ET

    for svg in out.glob("_badges/*.svg"):
        for element in ET.parse(svg).iter():
            assert element.tag.split("}")[-1] in {"svg", "title", "rect", "g", "text"}, svg
            assert not [a for a in element.attrib if a.lower().startswith("on")], svg


def test_templates_override_file_by_file(base_ledger, tmp_path):
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/style.css").write_text("/* mine */\n")
    base = (Path(__file__).parent.parent / "templates/index.html").read_text()
    (base_ledger / "templates/index.html").write_text(base.replace("<h1>", '<h1 class="custom">'))
    pipeline.build(base_ledger, tmp_path / "s")
    assert (tmp_path / "s/_assets/style.css").read_text() == "/* mine */\n"
    assert '<h1 class="custom">' in (tmp_path / "s/index.html").read_text()
    assert '<h1>' in (tmp_path / "s/core/index.html").read_text()  # not overridden


def test_strict_undefined_in_templates(base_ledger, tmp_path):
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/index.html").write_text("<p>\n{{ no_such_thing }}\n")
    outcome = pipeline.build(base_ledger, tmp_path / "s")
    assert outcome.refused and not (tmp_path / "s").exists()
    (f,) = [f for f in outcome.checked.findings if f.code == "SC701"]
    assert (f.file, f.line) == ("templates/index.html", 2) and "no_such_thing" in f.message


def test_a_broken_template_override_is_a_finding_not_a_crash(base_ledger):
    assert run_cli("build", cwd=base_ledger).returncode == 0
    before = (base_ledger / "site/index.html").read_bytes()
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/category.html").write_text("line one\n{% if %}\n")
    proc = run_cli("build", cwd=base_ledger)
    assert proc.returncode == 1 and "internal error" not in proc.stderr
    assert "templates/category.html:2:1: error SC701 TemplateSyntaxError" in proc.stderr
    assert (base_ledger / "site/index.html").read_bytes() == before
    assert not [p for p in base_ledger.iterdir() if p.name.startswith(".site-")]


def test_template_cache_is_used_and_changes_no_byte(tmp_path):
    def build(out, **env):
        proc = run_cli("build", "--out", str(out), cwd=REPO, env=env)
        assert proc.returncode == 0, proc.stderr
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}

    cache = tmp_path / "cache"
    first = build(tmp_path / "a", XDG_CACHE_HOME=str(cache))
    assert list(cache.glob("scorecard/templates-*/__jinja2_*.cache"))
    second = build(tmp_path / "b", XDG_CACHE_HOME=str(cache))
    uncached = build(tmp_path / "c", SCORECARD_NO_CACHE="1", XDG_CACHE_HOME=str(tmp_path / "none"))
    assert first == second == uncached
    assert not (tmp_path / "none").exists()


def test_values_from_tool_output_read_as_a_person_writes_them(example_site):
    page = text_of((example_site / "tool-output/index.html").read_text())
    # hyperfine's runs in seconds against a bar in ms: the median, scaled, with n and its interval
    assert "Measured: 81.2 ms (median of n = 12 runs; 95% CI 79.3–83.8 ms)" in page
    assert "47.8% faster than the bar" in page  # the speed-up: 120 ms ÷ 81.2 ms
    assert "(hyperfine output), benchmark 'fak --version'" in page
    # a pytest-benchmark test's rounds, found by its name, in µs like its bar
    assert "Measured: 11.7 µs (median of n = 41 runs; 95% CI 11.6–11.9 µs)" in page
    assert "level with the bar: within ±5% (2.2% faster)" in page
    # the rounded number, and every digit of it beside its provenance, in the result's unit
    assert "Exactly: 11.7365 µs" in page
    # asv's samples, in the unit its benchmarks.json states, published beside them
    assert "Measured: 1.42 s (median of n = 12 runs; 95% CI 1.41–1.43 s)" in page
    assert (example_site / "_files/evidence/sample/tools/asv/results/benchmarks.json").is_file()
    # a derived value shows its formula and each input with its provenance
    assert "Computed as fak / sglang (exactly 0.75x" in page
    assert "fak = 1,380 tok/s , read from evidence/sample/tools/serving-compare.json at /fak/peak_tok_s" in page
    assert "Measured: 0.75x" in page and "33.3% behind the bar" in page  # q: the bar's 1x ÷ 0.75x
    data = json.loads((example_site / "tool-output/data.json").read_text())
    ratio = next(d for d in data["dimensions"] if d["id"] == "peak-decode-vs-sglang")["measured"]
    assert ratio["expr"] == "fak / sglang" and ratio["inputs"]["sglang"]["value"] == 1840.0
    start = next(d for d in data["dimensions"] if d["id"] == "cli-start-time")
    assert start["measured"]["n"] == 12 and start["measured"]["stat"] == "median"
    assert start["comparison"]["unit"] == "ms" and round(start["comparison"]["value"], 3) == 81.185
    assert start["measured"]["tool"] == {"format": "hyperfine", "read": "benchmark 'fak --version'", "stat": None,
                                         "alone": None}
    assert start["measured"]["pointer"] == "/results/0/times"


def test_an_interval_the_artifact_reports_is_shown_with_its_level(tmp_path):
    from scorecard.cli import pipeline

    root = copy_ledger(LEDGERS / "good" / "measurements", tmp_path / "ledger")
    assert not pipeline.build(root, root / "site").refused
    page = text_of((root / "site/tool-output/index.html").read_text())
    assert "1.41 s (interval 1.37–1.47 s, stated by the ledger as a 99% interval)" in page


def test_a_value_not_compared_with_its_bar_says_why(tmp_path):
    from scorecard.cli import pipeline

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    alpha = root / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("status: leads", "status: simulated").replace(
        "  unit: req/s\ntrace:", "  unit: ms\ntrace:").replace("claim: 12 req/s", "claim: modelled at 12 ms"))
    out = pipeline.build(root, root / "site")
    assert not out.refused
    page = text_of((root / "site/core/index.html").read_text())
    assert "Not compared with the bar: the result's unit ms cannot be converted to the bar's unit req/s." in page


def test_a_checked_bar_is_shown_and_exported(tmp_path):
    import json

    root = LEDGERS / "good" / "sota-checked"
    assert not pipeline.build(root, tmp_path / "s").refused
    page = (tmp_path / "s/core/index.html").read_text()
    assert "(source from 2018-03; bar checked 2026-06-15)" in page and "stale source" not in page
    data = json.loads((tmp_path / "s/data.json").read_text())
    checked = {d["id"]: d["sota"]["checked"] for c in data["categories"] for d in c["dimensions"]}
    assert checked == {"alpha": "2026-06-15", "beta": "2025-06"}


def test_markdown_in_titles_is_rendered_safely_and_plain_where_markup_cannot_go(tmp_path, base_ledger):
    alpha = base_ledger / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("title: Alpha throughput",
                                               'title: "`cudaMemcpy` *fast* [link](javascript:alert(1)) <b>x</b> '
                                               '& co"'))
    assert not pipeline.build(base_ledger, tmp_path / "s").refused
    page = (tmp_path / "s/core/index.html").read_text()
    shown = "[link](javascript:alert(1)) &lt;b&gt;x&lt;/b&gt; &amp; co"  # a link is not rendered: shown as typed
    assert f'<h2 id="alpha-title"><code>cudaMemcpy</code> <em>fast</em> {shown} <a' in page
    assert f'aria-label="Permalink to cudaMemcpy fast {shown}"' in page
    assert 'href="javascript' not in page and "<b>x</b>" not in page
    index = (tmp_path / "s/index.html").read_text()
    assert '#alpha"><code>cudaMemcpy</code> <em>fast</em> [link]' in index


def test_data_csv_has_one_row_per_dimension_and_defuses_formulas(example_site, tmp_path, base_ledger):
    import csv
    import io

    raw = (example_site / "data.csv").read_bytes()
    assert raw.endswith(b"\r\n") and b"\r\n" in raw.split(b"\n", 1)[0] + b"\n"
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline="")))
    data = json.loads((example_site / "data.json").read_text())
    dims = [(c["slug"], d) for c in data["categories"] for d in c["dimensions"]]
    assert [r["id"] for r in rows] == [d["id"] for _, d in dims]
    by_id = {r["id"]: r for r in rows}
    ttft = by_id["time-to-first-token"]
    assert (ttft["status"], ttft["unit"], ttft["bar"], ttft["bar_unit"], ttft["better"]) == \
        ("parity", "ms", "33", "ms", "lower")
    assert float(ttft["value"]) == next(d for _, d in dims if d["id"] == "time-to-first-token")["measured"]["value"]
    assert ttft["url"] == "latency-and-reuse/index.html#time-to-first-token"
    assert ttft["evidence"].startswith("evidence/")
    alpha = base_ledger / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("claim: 12 req/s", 'claim: "=HYPERLINK(\\"http://x\\")"'))
    assert not pipeline.build(base_ledger, tmp_path / "s").refused
    row = next(csv.DictReader(io.StringIO((tmp_path / "s/data.csv").read_text(), newline="")))
    assert row["claim"] == "'=HYPERLINK(\"http://x\")"


def test_every_dimension_has_a_card_to_cite_embed_and_share(tmp_path, base_ledger):
    import xml.etree.ElementTree as ET

    settings = base_ledger / "scorecard.yaml"
    settings.write_text(settings.read_text() + "base_url: https://example.org/card-test/\n")
    assert not pipeline.build(base_ledger, tmp_path / "s").refused
    card = (tmp_path / "s/core/card-alpha.html").read_text()
    assert "<script" not in card and 'href="../_assets/style.css"' in card
    assert '<link rel="canonical" href="https://example.org/card-test/core/card-alpha.html">' in card
    assert '<meta property="og:title" content="Alpha throughput: leads">' in card
    assert '<meta property="og:description" content="oursys: 12 req/s">' in card
    assert 'href="../core/index.html#alpha" target="_top"' in card and "12 req/s" in text_of(card)
    assert 'href="card-alpha.html">Card for this claim' in (tmp_path / "s/core/index.html").read_text()
    urls = [u.text for u in ET.fromstring((tmp_path / "s/sitemap.xml").read_bytes()).iter(
        "{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert urls == ["https://example.org/card-test/", "https://example.org/card-test/core/",
                    "https://example.org/card-test/core/card-alpha.html", "https://example.org/card-test/core/card-beta.html"]
    assert '<meta property="og:title" content="Test ledger">' in (tmp_path / "s/index.html").read_text()


def test_no_sitemap_without_a_base_url(example_site):
    assert not (example_site / "sitemap.xml").exists()
    assert (example_site / "cost-efficiency/card-goodput-under-sla.html").is_file()


def test_cards_can_be_turned_off(tmp_path, base_ledger):
    settings = base_ledger / "scorecard.yaml"
    settings.write_text(settings.read_text() + "cards: false\nbase_url: https://example.org/x/\n")
    assert not pipeline.build(base_ledger, tmp_path / "s").refused
    assert not list((tmp_path / "s").rglob("card-*.html"))
    assert "Card for this claim" not in (tmp_path / "s/core/index.html").read_text()
    assert "card-" not in (tmp_path / "s/sitemap.xml").read_text()


def test_the_overview_names_each_dimension_with_its_gap_and_both_numbers(example_site):
    page = (example_site / "index.html").read_text()
    overview = page[page.index('<ol class="gaps">'):page.index("</ol>", page.index('<ol class="gaps">'))]
    row = overview[overview.index('data-id="time-to-first-token"'):]
    row = row[:row.index("</li>")]
    assert ('<a class="gap-name" href="latency-and-reuse/index.html#time-to-first-token">Time to first token, p50 '
            'at concurrency 8 (sample)</a>') in row
    assert "level with the bar: within ±5% (2.4% slower)" in row and "33.8 ms against 33 ms" in row
    assert overview.count("<li ") == 9  # every dimension compared with its bar, and no other


def test_a_badge_says_the_value_and_the_marks_the_page_says_beside_it(example_site):
    """Issue 43 item 7 and the hostile pass: badges carry the value and the title, and (as the page and the README
    table) the marks a reader must see: a badge of sample data said "◐ parity 33.8 ms" alone."""
    svg = (example_site / "_badges/time-to-first-token.svg").read_text()
    assert "◐ parity 33.8 ms · sample data" in svg
    assert 'aria-label="Time to first token, p50 at concurrency 8 (sample): ' in svg


def _landing(site: Path, page: Path, href: str) -> tuple[str, str]:
    """What a link lands on: the element its fragment names, as (tag with attributes, the element's first 300
    characters), in the file it names."""
    from urllib.parse import unquote

    file, _, fragment = href.partition("#")
    target = (page.parent / unquote(file)).resolve() if file else page
    assert target.is_file() and site.resolve() in target.parents, href
    html = target.read_text()
    m = re.search(rf'<[a-z]+[^>]*\bid="{re.escape(fragment)}"[^>]*>', html)
    assert m, (page.name, href)
    return m.group(), html[m.start():m.start() + 300]


def test_every_measured_value_in_a_table_is_a_link_that_lands_on_its_cited_line(example_site):
    """Issue 45: our value and a bar read from sota.result link to the line the artifact's viewer highlights as
    cited (a formula to its block listing each input's link); a typed bar to its source; no count is a link."""
    seen = {"line": 0, "formula": 0, "source": 0}
    for page in [example_site / "index.html", *sorted(example_site.glob("*/index.html"))]:
        html = page.read_text()
        for cell in re.findall(r'<td class="num" data-label="[^"]*">(.*?)</td>', html, flags=re.S):
            numbers = re.findall(r'<a class="value[^"]*" href="([^"]+)"', cell)
            if not numbers:
                assert not re.search(r"\d", re.sub(r"<[^>]+>", "", cell)) or "bar-brief" in cell, cell
                continue
            [href] = numbers
            if href.startswith("https://"):
                seen["source"] += 1
                continue
            tag, text = _landing(example_site, page, href)
            if href.endswith("-formula"):
                seen["formula"] += 1
                assert "Computed as" in text, text
            else:
                seen["line"] += 1
                assert 'class="line cited"' in tag, (page.name, href, tag)
    assert seen["line"] >= 10 and seen["formula"] >= 2 and seen["source"] >= 10, seen
