"""Read as a person would, measured in a real browser at 390 and 1280 px (issue 27): one unit for the bar and our
value on every row, gaps never above 100 %, no word broken inside a table cell, the overview's labels apart and
inside it; on the example ledger and on one of extremes (10⁻⁶× to 10⁶×, exactly at the bar, a bar of 0)."""

from __future__ import annotations

import json
import os
import re

import pytest

from scorecard.cli import pipeline

from conftest import EPOCH, LEDGERS, REPO, copy_example, copy_ledger
from test_browser import browser, html_pages, open_page  # noqa: F401 (browser is a fixture)

pytestmark = pytest.mark.browser
WIDTHS = (390, 1280)

DIMENSION = """title: {title}
why: Because it matters.
sota:
  bar: The bar.
  value: {bar}
  unit: {bar_unit}
  better: {better}
  source: https://example.org/bar
  date: 2026-01
status: {status}
claim: ${{value}} against ${{bar}}, ${{gap}}
result:
  evidence: evidence/{id}.json
  pointer: /v
  unit: {unit}
{extra}"""

# id: (title, our value, unit, bar, bar unit, better, status, extra)
EXTREMES = {
    "tiny": ("A millionth of the bar", 1e-5, "req/s", 10, "req/s", "higher", "trails", ""),
    "huge": ("A million times the bar", 1e7, "req/s", 10, "req/s", "higher", "leads", ""),
    "slow": ("Twelve times slower", 6.2, "ms", 0.5, "ms", "lower", "trails", ""),
    "at-bar": ("Exactly at the bar", 0.12, "s", 120, "ms", "lower", "parity", ""),
    "zero-bar": ("A bar of zero", 0, "ms", 0, "ms", "lower", "parity", ""),
    "shown-in": ("Shown in microseconds", 0.0007, "s", 0.0005, "s", "lower", "trails", "display_unit: µs\n"),
}


@pytest.fixture(scope="module")
def reading_sites(tmp_path_factory):
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    base = tmp_path_factory.mktemp("reading")
    example = base / "example"
    assert not pipeline.build(REPO, example).refused
    root = copy_ledger(LEDGERS / "base", base / "extremes-ledger")
    for dim_id, (title, value, unit, bar, bar_unit, better, status, extra) in EXTREMES.items():
        (root / f"evidence/{dim_id}.json").write_text(f'{{"v": {value}}}')
        (root / f"claims/core/{dim_id}.yaml").write_text(DIMENSION.format(
            title=title, bar=bar, bar_unit=bar_unit, better=better, status=status, id=dim_id, unit=unit, extra=extra))
    runs = ", ".join(f"{0.08 + i * 1e-4:.4f}" for i in range(120))  # a long run list: folded on its viewer
    (root / "evidence/runs.json").write_text(f'{{"results": [{{"command": "fak --version", "times": [{runs}]}}]}}')
    (root / "claims/core/runs.yaml").write_text(DIMENSION.format(
        title="Many runs", bar=0.2, bar_unit="s", better="lower", status="leads", id="runs", unit="s",
        extra="").replace("  pointer: /v\n", "  format: hyperfine\n  benchmark: fak --version\n  stat: median\n"))
    # a second category of 20 more, spread from 3× slower to 3× faster (25+ dimensions in all: issue 45)
    (root / "claims/serving").mkdir()
    (root / "claims/serving/_category.yaml").write_text("title: Serving under load\norder: 2\n")
    for i in range(20):
        value = round(100 * 3 ** ((i - 9.5) / 9.5), 1)
        status = "leads" if value < 95 else "trails" if value > 105 else "parity"
        (root / f"evidence/s{i}.json").write_text(f'{{"v": {value}}}')
        (root / f"claims/serving/s{i}.yaml").write_text(DIMENSION.format(
            title=f"Serving dimension number {i} at concurrency {8 * (i + 1)}", bar=100, bar_unit="ms",
            better="lower", status=status, id=f"s{i}", unit="ms", extra=""))
    extremes = base / "extremes"
    outcome = pipeline.build(root, extremes)
    assert not outcome.refused, outcome.checked.findings
    return [example, extremes, _example_with_history(base)]


def _example_with_history(base):
    """The example ledger (runs, a formula, a reproduced bar) in git, its decode throughput measured three times:
    built with its history (timelines, history charts, changes.html), as issue 45's reader saw it."""
    from gitrepo import commit, git

    root = copy_example(base / "history-ledger")
    git(root, "init", "-q")
    record, artifact = root / "claims/latency-and-reuse/decode-throughput.yaml", root / "evidence/sample/latency.json"
    final = (record.read_text(), artifact.read_text())
    for day, tps in ((10, "1,610"), (40, "1,720")):
        record.write_text(final[0].replace("claim: 1,840 tok/s", f"claim: {tps} tok/s"))
        artifact.write_text(final[1].replace('"tok/s": 1840.0', f'"tok/s": {tps.replace(",", "")}.0'))
        commit(root, f"decode throughput {tps} tok/s", day)
    record.write_text(final[0])
    artifact.write_text(final[1])
    commit(root, "decode throughput 1,840 tok/s", 70)
    site = base / "history"
    outcome = pipeline.build(root, site, history=True)
    assert not outcome.refused, outcome.checked.findings
    assert (site / "changes.html").exists() and "1,610" in (site / "latency-and-reuse/index.html").read_text()
    return site


# The bar's number and ours where a dimension is shown in full: its section on a category page, or its card.
PAIRS = """() => [...document.querySelectorAll('article.dimension, main.card')].map(a => [
    a.querySelector('.bar-number .value, .card-bar .bar-value'), a.querySelector('.measured .value')])
  .filter(([b, o]) => b && o)
  .map(([b, o]) => [b.innerText.replace(/^\\(|, (?:higher|lower) is better\\)$/g, '').trim(), o.innerText.trim()])"""

ROWS = """() => [...document.querySelectorAll('table.scorecard tbody tr')]
    .filter(r => r.querySelectorAll('td.num').length)
    .map(r => [...r.querySelectorAll('td.num')].map(c => (c.querySelector('.value') || c).innerText
      .replace(/^[^:]*:\\s*/, '').trim()))"""

# Each word of a table cell's text (between spaces, hyphens and dashes, where typesetting breaks a line): how many
# line boxes it takes (more than one: broken inside the word).
BROKEN = """() => { const out = [];
  for (const cell of document.querySelectorAll('table.scorecard td, table.scorecard th')) {
    if (cell.getBoundingClientRect().width < 10) continue;  // a visually hidden header
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\-–—]+/g)) {  // a line may break after a hyphen or a dash
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      } } }
  return out; }"""

_UNIT_OF = re.compile(r"^[-−]?[\d,.]+(?:e[-+]?\d+)?\s*(.*)$")


def _unit(text: str) -> str:
    m = _UNIT_OF.match(text)
    return m.group(1) if m else text


def test_the_bar_and_our_value_share_one_unit_on_every_row(browser, reading_sites):  # noqa: F811
    checked = 0
    for site in reading_sites:
        for rel in html_pages(site):
            for width in WIDTHS:
                context, page, problems = open_page(browser, (site / rel).as_uri(), width=width)
                rows = page.evaluate(ROWS) + page.evaluate(PAIRS)
                context.close()
                assert problems == [], rel
                for bar, ours in rows:
                    if "—" in bar or "—" in ours:
                        continue
                    checked += 1
                    assert _unit(bar) == _unit(ours), (site.name, rel, width, bar, ours)
    assert checked >= 60


def test_no_gap_is_a_percentage_above_100(browser, reading_sites):  # noqa: F811
    seen = 0
    for site in reading_sites:
        for rel in html_pages(site):
            context, page, _ = open_page(browser, (site / rel).as_uri())
            text = page.evaluate("() => document.body.innerText")
            context.close()
            for number in re.findall(r"([\d,.]+)% (?:ahead|behind|faster|slower)", text):
                seen += 1
                assert float(number.replace(",", "")) <= 100, (site.name, rel, number)
            if (site.name, rel) == ("extremes", "core/index.html"):  # from 2× on, a multiple in words
                for gap in ("1,000,000× faster than the bar", "1,000,000× slower than the bar",
                            "12.4× slower than the bar"):
                    assert gap in text
    assert seen >= 5


def test_no_word_is_broken_inside_a_table_cell(browser, reading_sites):  # noqa: F811
    broken = {}
    for site in reading_sites:
        for rel in html_pages(site):
            for width in WIDTHS:
                context, page, _ = open_page(browser, (site / rel).as_uri(), width=width)
                words = page.evaluate(BROKEN)
                context.close()
                if words:
                    broken[f"{site.name}/{rel}@{width}"] = words
    assert broken == {}


OVERVIEW = """() => { const fig = document.querySelector('figure.overview');
  if (!fig) return null;
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height}; };
  return {box: box(fig), rows: [...fig.querySelectorAll('.gaps li')].map(li => ({
    id: li.dataset.id, name: li.querySelector('.gap-name').innerText, target: box(li.querySelector('.gap-name')),
    labels: [...li.querySelectorAll('.gap-name, .gap-words')].map(e => ({text: e.innerText, ...box(e)})),
    bar: box(li.querySelector('.gap-bar'))}))}; }"""


def _apart(a: dict, b: dict) -> bool:
    return a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]


def test_the_overview_labels_are_apart_and_inside_it(browser, reading_sites):  # noqa: F811
    """Every mark of the overview labelled with its dimension, the labels (names and words) disjoint and inside the
    figure, each a link target at least 24 px tall, measured in the DOM at 390 and 1280 px (issue 45)."""
    for site in reading_sites:
        data = json.loads(site.joinpath("data.json").read_text())
        dims = sum(1 for c in data["categories"] for d in c["dimensions"] if d["comparison"])
        for width in WIDTHS:
            context, page, _ = open_page(browser, (site / "index.html").as_uri(), width=width)
            found = page.evaluate(OVERVIEW)
            context.close()
            assert found is not None and len(found["rows"]) == dims >= 5, (site.name, dims)
            fig = found["box"]
            labels = [label for r in found["rows"] for label in r["labels"]]
            for r in found["rows"]:
                assert r["name"].strip(), r["id"]
                assert r["target"]["height"] >= 24 and r["target"]["width"] >= 24, (site.name, width, r["id"])
                assert r["bar"]["width"] >= 80, (site.name, width, r["id"], r["bar"])
                assert _apart(r["bar"], r["labels"][0]) and _apart(r["bar"], r["labels"][1])
            for a in labels:
                assert fig["left"] - 0.5 <= a["left"] and a["right"] <= fig["right"] + 0.5, (site.name, width, a)
                assert fig["top"] - 0.5 <= a["top"] and a["bottom"] <= fig["bottom"] + 0.5, (site.name, width, a)
            for i, a in enumerate(labels):
                for b in labels[i + 1:]:
                    assert _apart(a, b), (site.name, width, a["text"], b["text"])


VIEWER = """() => { const target = document.querySelector(':target');
  const crumb = target && target.querySelector('.crumb');
  const r = target && target.getBoundingClientRect(), c = crumb && crumb.getBoundingClientRect();
  const json = document.querySelector('div.json').getBoundingClientRect();
  return {target: target && target.id, top: r && r.top, bottom: r && r.bottom, height: innerHeight,
          crumb: crumb && crumb.innerText, crumbTop: c && c.top, crumbBottom: c && c.bottom,
          fold: [...document.querySelectorAll('details.fold summary')].map(s => s.innerText),
          widest: Math.max(...[...document.querySelectorAll('.json .line')].filter(l => l.getClientRects().length)
                                .map(l => l.getBoundingClientRect().right)), jsonRight: json.right}; }"""


def test_a_deep_link_shows_the_cited_line_mid_screen_with_its_path(browser, reading_sites):  # noqa: F811
    """The viewer in context: the line a page links to is in the middle of the screen, its JSON path and entry
    pinned at the bottom; a long run list is folded with its count and opens for a link into it; at 390 px lines
    wrap."""
    extremes = reading_sites[1]
    page_file = extremes / "core/index.html"
    html = page_file.read_text()
    link = next(h for h in re.findall(r'href="([^"]*runs.json.html#[^"]*)"', html))
    for width in WIDTHS:
        file, _, fragment = link.partition("#")
        url = (extremes / "core" / file).resolve().as_uri() + "#" + fragment
        context, page, problems = open_page(browser, url, width=width)
        found = page.evaluate(VIEWER)
        context.close()
        assert problems == []
        assert found["target"] == "p/results/0/times", found
        assert found["height"] * 0.25 <= found["top"] <= found["height"] * 0.75, found  # mid screen, not the top
        assert found["crumbBottom"] == found["height"] and found["crumbTop"] >= found["bottom"], found  # pinned below
        assert "$.results[0].times" in found["crumb"] and "fak --version" in found["crumb"], found
        assert [f.strip() for f in found["fold"]] == ["… 120 numbers, folded (open to show them)"], found
        if width == 390:
            assert found["widest"] <= found["jsonRight"] + 0.5, found  # long lines wrap inside the viewer
    # A link to one run inside the fold opens it.
    viewer = (extremes / "_files/evidence/runs.json.html").as_uri()
    context, page, _ = open_page(browser, viewer + "#p/results/0/times/100")
    shown = page.evaluate("() => document.querySelector(':target').getClientRects().length")
    context.close()
    assert shown == 1


FIRST_SCREEN = """() => { const h = document.querySelector('.headline'), t = document.querySelector('.status-counts');
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
                                                                   right: r.right}; };
  return {headline: h.innerText, h: box(h), t: box(t), height: innerHeight, width: innerWidth,
          wrap: box(t.closest('.table-wrap')), scroll: t.closest('.table-wrap').scrollWidth,
          client: t.closest('.table-wrap').clientWidth,
          counts: [...t.querySelectorAll('tbody a[data-status]')].map(a => [a.dataset.status, +a.innerText,
                                                                             a.getAttribute('href')])}; }"""


def test_the_first_screen_answers_where_we_stand(browser, reading_sites):  # noqa: F811
    """Within the first viewport at 390×844 and 1280×800: the sentence, whose measured counts add up to the number
    it names, and the table of counts by category and status, whole (no sideways scroll), each count a link to
    its category's section (issue 45)."""
    for site in reading_sites:
        for width, height in ((390, 844), (1280, 800)):
            context, page, problems = open_page(browser, (site / "index.html").as_uri(), width=width)
            page.set_viewport_size({"width": width, "height": height})
            found = page.evaluate(FIRST_SCREEN)
            context.close()
            assert problems == []
            assert found["t"]["bottom"] <= found["height"], (site.name, width, found["t"])
            assert found["scroll"] <= found["client"] + 1, (site.name, width, "the table scrolls sideways")
            clause = re.sub(r"\(within[^)]*\)", "", found["headline"]).split(" — ")[0].split(".")[0]
            whole = re.search(r"(\d+) measured dimension", clause)
            assert whole, clause
            parts = [int(n) for n in re.findall(r"\d+", clause)]
            parts.remove(int(whole.group(1)))
            assert sum(parts) == int(whole.group(1)) or (parts == [] and "inconclusive" in clause), clause
            for status, n, href in found["counts"]:
                assert n > 0 and href.startswith("#"), (status, n, href)


VALUE_LINKS = """() => [...document.querySelectorAll('a.value, a.bar-value, .card-bar .bar-value a')]
    .filter(a => !/^https?:/.test(a.getAttribute('href'))).map(a => [a.innerText.trim(), a.href])"""

LANDED = """() => { const t = document.querySelector(':target');
  return t && {id: t.id, cls: t.className, text: t.innerText.slice(0, 200), shown: t.getClientRects().length > 0}; }"""


def test_every_measured_value_is_a_link_that_lands_on_its_cited_line(browser, reading_sites):  # noqa: F811
    """Issue 45: on the index, every category page and every card, each measured value (ours, and a bar read from
    sota.result) is a link; followed in the browser, it lands on the artifact's cited line (shown, marked cited)
    or on a formula's or a measured bar's block, which names each input's link."""
    followed = 0
    for site in reading_sites:
        pages = ["index.html"] + [str(p.relative_to(site)) for p in sorted(site.glob("*/index.html"))] + \
            [str(p.relative_to(site)) for p in sorted(site.glob("*/card-*.html"))]
        targets: dict[str, list[str]] = {}
        for rel in pages:
            context, page, problems = open_page(browser, (site / rel).as_uri(), width=1280)
            for text, href in page.evaluate(VALUE_LINKS):
                assert "#" in href, (rel, text, href)
                targets.setdefault(href, []).append(f"{rel}: {text}")
            context.close()
            assert problems == [], (rel, problems)
        assert targets, site
        context, page, _ = open_page(browser, (site / "index.html").as_uri(), width=1280)  # the pages were checked
        for href, where in sorted(targets.items()):
            page.goto(href)
            landed = page.evaluate(LANDED)
            assert landed is not None and landed["shown"], (where, href, landed)
            block = landed["id"].endswith(("-formula", "-bar"))
            assert "cited" in landed["cls"].split() or block, (where, href, landed)
            if block:  # a formula's or a measured bar's block lists its inputs, each a link to its line
                assert page.evaluate("() => document.querySelector(':target').querySelectorAll('a[href*=\"#p\"]')"
                                     ".length") >= 1, (where, href, landed)
            followed += 1
        context.close()
    assert followed >= 20, followed
