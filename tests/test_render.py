"""Render helpers: the Markdown fast path agrees with markdown-it, numbers, anchors, briefs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorecard.measure.numfmt import fmt_number, fmt_value
from scorecard.site.markup import _markdown, brief, markdown_block, markdown_inline
from scorecard.site.jsonview import json_lines, pointer_anchor


@pytest.mark.parametrize("text", [
    "Plain prose, with commas; and (parentheses) 4.48x / 59%-498% ~ fine.", "Quotes \"like this\" and 'these'.",
    "**bold** text", "a [link](https://example.org/)", "- a list", "1. numbered", "# heading", "x < y & z",
    "line one\nline two", "  indented", "under_score", "email@example.org", "x | y", "a = b",
])
def test_fast_path_matches_markdown_it(text):
    md = _markdown()
    assert str(markdown_block(text)) == md.render(text)
    assert str(markdown_inline(text)) == md.renderInline(text)


@pytest.mark.parametrize("text,html", [
    ("[x](javascript:alert(1))", "[x](javascript:alert(1))"), ("[x](JaVaScRiPt:alert(1))", "[x](JaVaScRiPt:alert(1))"),
    ("[x](data:text/html,hi)", "[x](data:text/html,hi)"), ("<script>x</script>", "&lt;script&gt;x&lt;/script&gt;"),
    ("![i](https://evil.example/p.png)", "!<a href=\"https://evil.example/p.png\">i</a>"),
    ("[ok](https://example.org/)", '<a href="https://example.org/">ok</a>'),
    ("[m](mailto:a@b.c)", '<a href="mailto:a@b.c">m</a>'),
    ("[rel](docs/x.md)", '<a href="docs/x.md">rel</a>'),
])
def test_markdown_safety(text, html):
    assert str(markdown_inline(text)) == html


def test_numbers():
    assert [fmt_number(v) for v in (1840.0, 33.8, 0.00031, 7.4, 12345.5, 1e20, 0.0811949, 1.15748, 33.0, -2.345)] == \
        ["1,840", "33.8", "0.00031", "7.4", "12,346", "1e20", "0.0812", "1.16", "33", "-2.35"]
    # Scaled for reading within the unit's prefix family; units without one are kept as written.
    assert [fmt_value(v, u) for v, u in ((0.0811949, "s"), (262144, "B"), (256, "KiB"), (1500, "kB"),
                                         (33.8, "milliseconds"), (1.15748, "x"), (0.0004, "s"), (12.94, "req/s"))] == \
        ["81.2 ms", "262 kB", "256 KiB", "1.5 MB", "33.8 milliseconds", "1.16x", "400 µs", "12.9 req/s"]
    assert fmt_value(4.1, "x") == "4.1x" and fmt_value(33.8, "ms") == "33.8 ms" and fmt_value(59, "%") == "59%"



def test_a_column_shares_one_precision():
    """Issue 45: a table column reads at one precision (three significant figures, trailing zeros kept), so 0.4
    never stands beside 0.43: 0.400 and 0.430; whole numbers in full; the unscaled form is unchanged."""
    assert [fmt_number(v, fixed=True) for v in (0.4, 0.43, 7.4, 33.0, 1840.0, 0.00031, 3.0, 120.0, 1e20, 0.0)] == \
        ["0.400", "0.430", "7.40", "33.0", "1,840", "0.000310", "3.00", "120", "1.00e20", "0"]
    assert fmt_value(0.75, "x", fixed=True) == "0.750x" and fmt_value(0.0012, "s", fixed=True) == "1.20 ms"


@given(st.floats(1e-6, 999.4, allow_nan=False))
def test_a_fixed_number_has_three_significant_figures(value):
    text = fmt_number(value, fixed=True)
    digits = text.replace(",", "").replace(".", "").lstrip("0")
    assert len(digits) == 3 and float(text) == pytest.approx(value, rel=5e-3), text


def test_brief():
    assert brief("First sentence. Second one.") == "First sentence. …"
    assert brief("Only one") == "Only one"
    assert brief("word " * 100).endswith(" …") and len(brief("word " * 100)) < 190


def test_json_lines_anchor_every_value_and_mark_citations():
    lines = json_lines({"a b": [1, {"c/d": None}], "e": {}}, {"/a b/1/c~1d": ["dim"]})
    ids = [line["id"] for line in lines if line["id"]]
    assert ids == ["p", "p/a%20b", "p/a%20b/0", "p/a%20b/1", "p/a%20b/1/c~1d", "p/e"]
    assert all(" " not in i for i in ids)
    cited = [line for line in lines if line["cited_by"]]
    assert len(cited) == 1 and cited[0]["pointer"] == "/a b/1/c~1d" and cited[0]["text"].strip() == '"c/d": null'
    assert pointer_anchor("/a b") == "p/a%20b"


def test_assembled_data_json_equals_a_plain_dump(tmp_path):
    import json as j

    from scorecard.cli import pipeline
    from scorecard.site.exports import json_bytes, ledger_data
    from scorecard.site.render import Site
    from scorecard.site.resolve import resolve_ledger

    from conftest import REPO

    result, store = pipeline.validate(REPO)
    resolved = resolve_ledger(result.ledger, store)
    pages = dict(Site(resolved).iter_pages())
    assert not isinstance(pages["data.json"], bytes)  # streamed in chunks
    assert b"".join(pages["data.json"]) == json_bytes(ledger_data(resolved))
    assert len(j.loads(Site(resolved).render()["data.json"])["categories"]) == 3


def test_overview_puts_ahead_to_the_right_whatever_better_is(base_ledger):
    from scorecard.cli import pipeline
    from scorecard.site.overview import HALF, overview_chart
    from scorecard.site.resolve import resolve_ledger

    beta = base_ledger / "claims/core/beta.yaml"  # lower is better: 4 ms against a bar of 5 ms is ahead
    beta.write_text(beta.read_text().replace("status: no-claim", "status: leads").replace(
        "claim: not measured", "claim: 4 ms\nresult: {evidence: evidence/lat.json, pointer: /p50, unit: ms}"))
    (base_ledger / "evidence/lat.json").write_text('{"p50": 4}')
    result, store = pipeline.validate(base_ledger)
    assert result.findings == []
    o = overview_chart(resolve_ledger(result.ledger, store))
    rows = {r["id"]: r for r in o["rows"]}
    # 12 vs 10 higher-better (q 1.2); 4 vs 5 lower-better (q 1.25): both ahead, beta the further, so first
    assert [r["id"] for r in o["rows"]] == ["beta", "alpha"]
    assert all(r["x"] == HALF and r["side"] == "ahead" for r in rows.values())
    assert rows["beta"]["width"] > rows["alpha"]["width"] > 0
    assert rows["beta"]["href"] == "core/index.html#beta" and rows["beta"]["gap"] == "25% faster than the bar"
    assert (rows["beta"]["ours"], rows["beta"]["bar"]) == ("4 ms", "5 ms")  # the dimension's own numbers
    assert o["span"] == "2" and o["label"].startswith("2 dimensions compared with their bars, furthest ahead first: "
                                                      "2 ahead, 0 level, 0 behind")
    result2, store2 = pipeline.validate(base_ledger)
    again = resolve_ledger(result2.ledger, store2)
    assert overview_chart(again) == o  # deterministic


def test_no_overview_without_a_comparison(base_ledger):
    from scorecard.cli import pipeline
    from scorecard.site.overview import overview_chart
    from scorecard.site.resolve import resolve_ledger

    alpha = base_ledger / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("  value: 10\n  unit: req/s\n  better: higher\n", ""))
    result, store = pipeline.validate(base_ledger)
    assert overview_chart(resolve_ledger(result.ledger, store)) is None


@pytest.mark.parametrize("values", [
    [1e-6], [1e6], [10.0], [0.0], [5.0, 10.0, 20.0, 1e6, 1e-6, 9.99, 0.01],
    [10.0 * 2 ** k for k in range(-12, 13)], [-5.0, 10.5, 9.5],
])
def test_the_overview_ranks_every_gap_by_the_measure_its_words_use(base_ledger, values):
    """Rows ranked furthest ahead first by log q, the q the words say (a longer bar is a larger gap, on its side),
    inside the axis (2× to 8× each way); a gap past the axis drawn to the edge and said to be beyond; a percentage
    in the words never out of order with the bars (issue 45: '32.3% ahead' right of '36.7% ahead'). alpha's bar is
    10 req/s."""
    import re

    import yaml as pyyaml

    from scorecard.cli import pipeline
    from scorecard.site.overview import HALF, overview_chart
    from scorecard.site.resolve import resolve_ledger

    alpha = (base_ledger / "claims/core/alpha.yaml").read_text()
    for i, value in enumerate(values):
        record = pyyaml.safe_load(alpha)
        record["status"] = "leads" if value > 10.5 else "trails" if value < 9.5 else "parity"  # one number: exact
        record["result"] = {"evidence": f"evidence/v{i}.json", "pointer": "/v", "unit": "req/s"}
        record["trace"] = [f"evidence/v{i}.json"]
        record["claim"] = "${value}"  # the typed 12 req/s would be a figure the evidence does not give (SC513)
        (base_ledger / f"evidence/v{i}.json").write_text(f'{{"v": {value!r}}}')
        (base_ledger / f"claims/core/v{i}.yaml").write_text(pyyaml.safe_dump(record))
    result, store = pipeline.validate(base_ledger)
    assert not result.errors, [f.message for f in result.errors]
    o = overview_chart(resolve_ledger(result.ledger, store))
    assert o["span"] in ("2", "4", "8")
    signed = [r["width"] if r["side"] == "ahead" else -r["width"] for r in o["rows"]]
    assert signed == sorted(signed, reverse=True)
    for r in o["rows"]:
        assert r["x"] >= 0 and r["x"] + r["width"] <= 2 * HALF and r["width"] <= HALF
        assert (r["x"] == HALF) == (r["side"] != "behind") or r["width"] == 0
        assert not r["beyond"] or r["width"] == HALF  # beyond the axis: drawn to its edge
    ahead = [(r["width"], float(m.group(1))) for r in o["rows"]
             if (m := re.match(r"([\d.]+)% (?:ahead|faster)", r["gap"]))]
    assert [p for _, p in ahead] == sorted((p for _, p in ahead), reverse=True)  # the words' order is the bars'



@pytest.mark.parametrize("value,unit,bar,bar_unit,display,ours,theirs", [
    (0.0062, "s", 0.5, "ms", None, "6.2 ms", "0.5 ms"),         # the bar's unit, not 6.2 ms beside 500 µs
    (6200.0, "us", 0.0005, "s", None, "0.0062 s", "0.0005 s"),  # scaling would part them (ms, µs): the bar's unit
    (0.0007, "s", 0.0005, "s", None, "700 µs", "500 µs"),       # scaled where it keeps them together
    (0.0062, "s", 0.5, "ms", "µs", "6,200 µs", "500 µs"),       # display_unit wins, no rescaling
    (1840.0, "tok/s", 2400.0, "tok/s", None, "1,840 tok/s", "2,400 tok/s"),
    (0.75, "x", 1.0, "x", "%", "75%", "100%"),
])
def test_the_bar_and_the_value_are_shown_in_one_unit(value, unit, bar, bar_unit, display, ours, theirs):
    from types import SimpleNamespace

    from scorecard.measure import compare
    from scorecard.measure.reading import Measurement
    from scorecard.site.views import bar_text, measured_text

    m = Measurement(value, unit, ())
    sota = SimpleNamespace(value=bar, unit=bar_unit, better="lower", stat=None)
    d = SimpleNamespace(comparison=compare.compare(m, sota, 0.05), measured=SimpleNamespace(measurement=m),
                        record=SimpleNamespace(model=SimpleNamespace(display_unit=display, sota=sota),
                                               bar_of=compare.Bar.of(sota)))
    assert (measured_text(d), bar_text(d)) == (ours, theirs)


# --- pinned by the mutation run of site.resolve -------------------------------------------------------------

def _resolved_copy(name, tmp_path):
    from scorecard.cli import pipeline
    from scorecard.site.resolve import resolve_ledger

    from conftest import LEDGERS, copy_ledger

    root = copy_ledger(LEDGERS / "good" / name, tmp_path / name)
    result, store = pipeline.validate(root)
    assert not result.errors, result.findings
    return resolve_ledger(result.ledger, store)


def test_a_bar_read_from_an_artifact_is_cited_like_ours(tmp_path):
    resolved = _resolved_copy("reproduced-bar", tmp_path)
    assert "alpha" in resolved.citations["evidence/rival.json"]["/rival"]  # the bar's pointer
    assert "alpha" in resolved.citations["evidence/rival.json"]["/ours"]
    assert all("" not in pointers for pointers in resolved.citations.values())  # a source without runs cites none


def test_a_tool_statistic_cites_the_runs_it_was_computed_from(tmp_path):
    resolved = _resolved_copy("tool-formats", tmp_path)
    ats = [(src.evidence, src.at, d.id) for c in resolved.categories for d in c.dimensions
           if d.measured is not None for src in d.measured.measurement.sources if src.at]
    assert ats
    for evidence, at, dim_id in ats:
        assert dim_id in resolved.citations[evidence][at]
    assert all("" not in pointers for pointers in resolved.citations.values())


def test_without_source_date_epoch_the_site_is_as_of_the_newest_date_in_the_data(tmp_path, monkeypatch):
    """No git here: the newest of the bars' dates (2026-01) and the artifacts' meta.date (2026-02-01)."""
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    resolved = _resolved_copy("reproduced-bar", tmp_path)
    from datetime import date

    assert resolved.as_of == date(2026, 2, 1)


def test_a_view_is_worked_out_once_per_dimension_object_and_forgotten_when_a_render_starts():
    """Issue 46 (work once): the card, the category page and the index share one working-out of a dimension's
    words; never one made for another object (even an equal one, or one that took its id), nor across renders."""
    from scorecard.site.once import forget, once

    calls = []

    @once
    def words(d, short=False):
        calls.append((d, short))
        return f"{d['v']}{'!' if short else ''}"

    a, b = {"v": 1}, {"v": 1}
    assert [words(a), words(a), words(a, short=True), words(a, short=True)] == ["1", "1", "1!", "1!"]
    assert len(calls) == 2
    assert words(b) == "1" and len(calls) == 3  # equal, but another object
    a["v"] = 2  # a later build's dimension (serve): forgotten when its render starts
    forget()
    assert words(a) == "2" and len(calls) == 4


@given(st.text())
def test_the_sitemaps_escape_is_xml_saxutils(text):
    """exports escapes a sitemap's addresses as xml.sax.saxutils.escape does, without importing it (issue 46)."""
    from xml.sax.saxutils import escape

    from scorecard.site.exports import _xml_text

    assert _xml_text(text) == escape(text)


def test_parsing_and_listing_leave_no_cycle_for_a_collector_that_is_off():
    """The command runs with the cyclic collector off (cli/launch.py), so a cycle is memory kept to the end: the
    YAML builder's handlers (bound methods of itself) kept every parsed document, and json_lines' recursive closure
    every cited file's lines, to the end of a build (issue 46). Neither makes a cycle now."""
    import gc

    from scorecard.ledger.yamldoc import Document, parse_bytes

    gc.collect()
    gc.disable()
    try:
        parse_bytes(b"title: T\nsota: {bar: b, value: 1}\nlist: [1, 2, {a: b}]\n", Document("x.yaml"), [])
        json_lines({"a": [1, {"b": [2, 3]}], "c": "d"}, {"/a/1": ["x"]})
        assert gc.collect() == 0
    finally:
        gc.enable()
