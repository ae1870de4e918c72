"""In a real browser: Playwright driving Debian's Chromium, axe-core, and the Nu Html Checker.

Skipped with the reason when Chromium or the npm tools are missing; under CI=true they fail instead.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from scorecard.cli import pipeline

from conftest import EPOCH, LEDGERS, REPO, copy_ledger
from gitrepo import reviewed_history

pytestmark = pytest.mark.browser
CHROMIUM = Path("/usr/bin/chromium")
NODE = Path(__file__).parent / ".node" / "node_modules"
AXE = NODE / "axe-core" / "axe.min.js"
VNU = NODE / "vnu-jar" / "build" / "dist" / "vnu.jar"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]


def need(condition: bool, reason: str) -> None:
    if condition:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: browser tests must run; .ci/run installs this)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    base = tmp_path_factory.mktemp("browser")
    example = base / "deep" / "sub" / "path" / "site"  # served under a sub-path
    hostile = base / "hostile-site"
    assert not pipeline.build(REPO, example).refused
    assert not pipeline.build(LEDGERS / "hostile", hostile).refused
    # History, review and staleness marks: changes.html, timelines, charts, suspect and stale flags.
    history = base / "history-site"
    assert not pipeline.build(reviewed_history(base / "history-ledger"), history, history=True).refused
    assert (history / "changes.html").exists()
    return base, example, hostile, history


@pytest.fixture(scope="module")
def browser():
    need(CHROMIUM.exists(), "Debian's Chromium is not installed at /usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def server(sites):
    base = sites[0]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(base))
    handler.log_message = lambda *a: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def html_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def open_page(browser, url: str, scheme: str = "light", width: int = 1200):
    context = browser.new_context(color_scheme=scheme, viewport={"width": width, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("request", lambda r: problems.append(f"external request: {r.url}")
            if not r.url.startswith(("file://", "http://127.0.0.1")) else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return context, page, problems


def axe_violations(page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])}x, e.g. {v['nodes'][0]['html'][:120]})"
            for v in result["violations"]]


def test_every_page_from_file_url_has_no_console_error(browser, sites):
    _, example, _, history = sites
    failures = {}
    for site in (example, history):
        for rel in html_pages(site):
            context, page, problems = open_page(browser, (site / rel).as_uri())
            context.close()
            if problems:
                failures[f"{site.name}/{rel}"] = problems
    assert failures == {}


def test_every_page_has_no_axe_violation_in_light_and_dark(browser, sites, server):
    # Over HTTP: axe reads stylesheets with XHR, which file:// pages may not do.
    need(AXE.exists(), "axe-core is not installed (npm install --prefix tests/.node axe-core@4)")
    base, example, _, history = sites
    failures = {}
    for site in (example, history):
        prefix = site.relative_to(base).as_posix()
        for rel in html_pages(site):
            for scheme in ("light", "dark"):
                context, page, problems = open_page(browser, f"{server}/{prefix}/{rel}", scheme)
                problems += axe_violations(page)
                context.close()
                if problems:
                    failures[f"{prefix}/{rel} ({scheme})"] = problems
    assert failures == {}


def test_pages_work_under_a_sub_path_over_http(browser, server):
    context, page, problems = open_page(browser, f"{server}/deep/sub/path/site/index.html")
    page.click("section.category a:has-text(\"Decode throughput at batch 32 (sample)\")")
    page.wait_for_load_state("load")
    assert page.url.endswith("/deep/sub/path/site/latency-and-reuse/index.html#decode-throughput")
    page.click("a[href$='latency.json.html#p/results/decode/tok~1s']")
    page.wait_for_load_state("load")
    assert page.locator("[id='p/results/decode/tok~1s']").is_visible()
    page.click("text=← back to the scorecard index")
    assert page.url.endswith("/site/index.html")
    context.close()
    assert problems == []


def test_filter_and_search(browser, sites):
    _, example, _, _ = sites
    context, page, problems = open_page(browser, (example / "index.html").as_uri())
    assert page.locator("#filters").is_visible()
    visible = "() => [...document.querySelectorAll('tr[data-status]')].filter(r => !r.hidden).length"
    assert page.evaluate(visible) == 16
    page.uncheck("input[value='no-claim']")
    assert page.evaluate(visible) == 10
    assert page.locator("#shown").inner_text() == "10 of 16 dimensions shown"
    page.fill("#q", "serialise")
    assert page.evaluate(visible) == 1
    assert not page.locator("#cost-efficiency").is_visible()  # a category with no match hides
    page.fill("#q", "")
    page.check("input[value='no-claim']")
    assert page.evaluate(visible) == 16
    context.close()
    assert problems == []


def test_the_view_lives_in_the_address_sorts_and_downloads(browser, sites, server):
    _, example, _, _ = sites
    rel = example.relative_to(sites[0]).as_posix()
    context, page, problems = open_page(browser, f"{server}/{rel}/index.html?status=leads,parity&q=ms")
    visible = "() => [...document.querySelectorAll('tr[data-status]')].filter(r => !r.hidden).map(r => r.dataset.id)"
    shown = page.evaluate(visible)
    statuses = page.evaluate("() => [...document.querySelectorAll('tr[data-status]')].filter(r => !r.hidden)"
                             ".map(r => r.dataset.status)")
    assert shown and set(statuses) <= {"leads", "parity"}
    assert page.is_checked("input[value='leads']") and not page.is_checked("input[value='trails']")
    assert page.input_value("#q") == "ms"
    page.check("input[value='trails']")
    page.fill("#q", "")
    page.select_option("#sort", "gap-best")
    # the view moves to the fragment, which works from file:// too (issue 45); the earlier ?status= still opened it
    assert page.evaluate("() => location.hash") == "#status=leads%2Cparity%2Ctrails&sort=gap-best"
    assert page.evaluate("() => location.search") == ""
    # a sort is one table across the categories, the others hidden (issue 45: "all trails, worst first")
    tables = page.evaluate("() => [...document.querySelectorAll('tbody')].filter(b => b.closest('section')"
                           ".offsetParent !== null && b.querySelector('tr[data-status]:not([hidden])')).map(b => "
                           "[...b.querySelectorAll('tr[data-status]:not([hidden])')].map(r => r.dataset.gap === "
                           "undefined ? null : parseFloat(r.dataset.gap)))")
    assert len(tables) == 1 and len(tables[0]) == len(page.evaluate(visible))
    known = [r for r in tables[0] if r is not None]
    assert known == sorted(known, reverse=True) and tables[0][:len(known)] == known  # ahead first, unknown last
    assert {len({c for c in page.evaluate("() => [...document.querySelectorAll('#sorted tr[data-status]')]"
                                          ".map(r => r.dataset.category)")})} == {3}  # all three categories
    with page.expect_download() as info:
        page.click("#download")
    text = Path(info.value.path()).read_bytes().decode("utf-8")
    rows = text.split("\r\n")
    assert rows[0] == "id,category,status,dimension,bar,ours,against_the_bar,leader" and rows[-1] == ""
    assert ",120 ms,81.2 ms," in text  # the bar and ours, in one unit, as the table shows them
    assert len(rows) - 2 == len(page.evaluate(visible))
    page.select_option("#sort", "")
    page.check("input[value='simulated']")
    page.check("input[value='no-claim']")
    page.check("input[value='out-of-scope']")
    assert "inconclusive" not in page.evaluate("() => location.hash")  # the one box still unchecked: named off
    page.check("input[value='inconclusive']")
    assert page.evaluate("() => location.hash + location.search") == ""  # the default view has a plain address
    context.close()
    assert problems == []


def test_a_count_in_the_first_screen_filters_by_its_status_and_keeps_it_in_the_fragment(browser, sites):
    _, example, _, _ = sites
    context, page, problems = open_page(browser, (example / "index.html").as_uri())
    link = page.locator(".status-counts tbody a[data-status='trails']").first
    category = link.get_attribute("data-category")
    assert link.get_attribute("href") == f"#{category}"  # without the script: the category's section
    link.click()
    statuses = page.evaluate("() => [...document.querySelectorAll('tr[data-status]')].filter(r => !r.hidden)"
                             ".map(r => r.dataset.status)")
    assert statuses and set(statuses) == {"trails"}
    assert page.evaluate("() => location.hash") == "#status=trails"
    page.reload()  # the view is in the address: a reload (or a shared link) opens it again, from file://
    assert page.is_checked("input[value='trails']") and not page.is_checked("input[value='leads']")
    context.close()
    assert problems == []


def test_readable_without_javascript(browser, sites):
    _, example, _, _ = sites
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((example / "index.html").as_uri())
    assert not page.locator("#filters").is_visible()  # controls that need JS stay hidden
    assert page.locator("tr[data-status]").count() == 16
    assert page.locator("tr[data-status]").first.is_visible()
    context.close()


@pytest.fixture(scope="module")
def long_site(tmp_path_factory):
    """A ledger whose text has long unbroken URLs, ids, values, titles and paths."""
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    base = tmp_path_factory.mktemp("long")
    root = copy_ledger(LEDGERS / "base", base / "ledger")
    word = "unbroken" * 16
    long_id = "alpha" + "x" * 110
    long_doc = f"docs/{'n' * 120}.md"
    (root / long_doc).write_text(f"# {word}\n\n| {word} | {word} |\n| --- | --- |\n| a | b |\n")
    alpha = (root / "claims/core/alpha.yaml").read_text()
    alpha = alpha.replace("title: Alpha throughput", f"title: Alpha {word}")
    alpha = alpha.replace("https://example.org/alpha", f"https://example.org/{word}/{word}#{'fragment' * 30}")
    alpha = alpha.replace("claim: 12 req/s", f"claim: 12 req/s {word}")
    alpha = alpha.replace("  - docs/notes.md", f"  - docs/notes.md\n  - {long_doc}\n  - https://example.org/{word}?q={word}")
    (root / "claims/core/alpha.yaml").unlink()
    (root / f"claims/core/{long_id}.yaml").write_text(alpha.replace("leaders:", "leaders:")
                                                      + f"note: {word} `{word}`\n")
    site = base / "site"
    outcome = pipeline.build(root, site)
    assert not outcome.refused, outcome.checked.findings
    return site


def test_phone_width_has_no_horizontal_scroll(browser, sites, long_site):
    _, example, _, history = sites
    pages = [(site, rel) for site in (example, long_site) for rel in html_pages(site)]
    pages += [(history, "core/index.html"), (history, "changes.html")]
    wide = {}
    for site, rel in pages:
        context, page, problems = open_page(browser, (site / rel).as_uri(), width=390)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        context.close()
        if width > 390:
            wide[f"{site.name}/{rel}"] = width
        assert problems == [], rel
    assert wide == {}


def test_the_artifact_viewer_shows_one_line_per_json_line(browser, sites):
    _, example, _, _ = sites
    viewers = sorted(example.glob("_files/evidence/*.json.html"))
    assert viewers
    for path in viewers:
        context, page, _ = open_page(browser, path.as_uri())
        steps = page.evaluate("""() => {
            const pre = document.querySelector('div.json');
            const lh = parseFloat(getComputedStyle(pre).lineHeight);
            const tops = [...pre.querySelectorAll('.line, summary')].filter(l => l.getClientRects().length)
                .map(l => l.getBoundingClientRect().top);
            return {lh, steps: tops.slice(1).map((t, i) => t - tops[i]), lines: tops.length,
                    text: pre.innerText.split('\\n').filter(Boolean).length};
        }""")
        context.close()
        assert steps["lines"] > 3 and steps["text"] == steps["lines"], path.name
        assert all(abs(step - steps["lh"]) < 1 for step in steps["steps"]), (path.name, steps["lh"],
                                                                             set(steps["steps"]))


def test_hostile_site_fires_no_dialog_and_runs_no_script(browser, sites):
    _, _, hostile, _ = sites
    for rel in html_pages(hostile):
        context, page, problems = open_page(browser, (hostile / rel).as_uri())
        # Every event a planted handler could wait for, on every element.
        page.evaluate("""() => { for (const el of document.querySelectorAll('*')) {
            for (const type of ['mouseover', 'mouseenter', 'focus', 'load', 'error']) {
                el.dispatchEvent(new Event(type)); } } }""")
        scripts = page.evaluate("() => [...document.scripts].map(s => s.src.split('/').pop())")
        context.close()
        assert problems == [], rel
        card = rel.split("/")[-1].startswith("card-")  # <category>/card-<id>.html: no script at all
        assert scripts == ([] if card else ["site.js"]), rel


def test_nu_html_checker_finds_no_error(sites):
    need(VNU.exists(), "vnu.jar is not installed (npm install --prefix tests/.node vnu-jar)")
    need(shutil.which("java") is not None, "java is not installed")
    _, example, hostile, history = sites
    proc = subprocess.run(["java", "-jar", str(VNU), "--skip-non-html", "--errors-only", "--format", "json",
                           str(example), str(hostile), str(history)], capture_output=True, text=True, timeout=300)
    messages = json.loads(proc.stderr or proc.stdout or '{"messages": []}')["messages"]
    assert [f"{m.get('url')}: {m.get('message')}" for m in messages] == []


def test_a_parity_an_inconclusive_and_a_modelled_record_read_in_words_at_both_widths(browser, tmp_path):
    """Issue 41: a reader (and a screen reader) gets each status in words: parity with its tolerance, inconclusive
    as not yet placed, a modelled number with no verdict word; at a phone's width and a desktop's."""
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    root = copy_ledger(LEDGERS / "good" / "verdicts", tmp_path / "ledger")
    (root / "claims/verdicts/modelled.yaml").write_text(
        (root / "claims/verdicts/single-within.yaml").read_text().replace("status: parity", "status: simulated")
        .replace("title: single-within", "title: modelled"))
    site = tmp_path / "site"
    assert not pipeline.build(root, site).refused
    for width in (390, 1280):
        context, page, problems = open_page(browser, (site / "verdicts/index.html").as_uri(), width=width)
        names = page.evaluate("() => [...document.querySelectorAll('.status-parity')].map(e => e.textContent)")
        assert names and all("level with the bar: within ±5%" in n for n in names), names
        body = page.inner_text("main")
        assert "not yet placed: 0.2% slower than the bar by the point estimate" in body
        assert "modelled: 1.1% slower than the bar" in body and "level with the bar: within ±5% (1.1% slower)" in body
        context.close()
        assert problems == []


def test_conditions_side_by_side_and_the_differ_mark_at_both_widths(browser, tmp_path):
    """Issue 44: each side's conditions in a two-column table on the category page and the card, a differing key
    marked in words, and the index's "conditions differ" mark, at a phone's width and a desktop's."""
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    root = copy_ledger(LEDGERS / "good" / "conditions", tmp_path / "ledger")
    site = tmp_path / "site"
    assert not pipeline.build(root, site).refused
    for width in (390, 1280):
        for rel, scope in (("serving/index.html", "#other-model"), ("serving/card-other-model.html", "main"),
                           ("index.html", "main")):
            context, page, problems = open_page(browser, (site / rel).as_uri(), width=width)
            text = page.inner_text(scope)
            if rel == "index.html":
                assert "conditions differ: model" in text
            else:
                table = page.locator(f"{scope} table.conditions")
                assert table.is_visible()
                rows = table.inner_text()
                assert "Llama-2-13B" in rows and "meta-llama/Llama-3.1-8B-Instruct" in rows and "differs" in rows
                assert "not stated" in rows
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width, (rel, width)
            context.close()
            assert problems == [], rel


def test_a_printed_category_page_keeps_its_summary_table(browser, sites):
    """Issue 45 (print): the table of a category's dimensions sits in nav.toc, which print hid with the navigation."""
    _, example, _, _ = sites
    category = next(rel for rel in html_pages(example) if rel.endswith("/index.html") and "/" in rel
                    and not rel.startswith("_"))
    context, page, problems = open_page(browser, (example / category).as_uri(), width=1280)
    page.emulate_media(media="print")
    assert page.locator("nav.toc table.glance").is_visible()
    assert not page.locator(".site-header nav").first.is_visible()
    context.close()
    assert problems == []
    # each measured value prints the artifact it is read from (a link's target is lost on paper)
    context, page, problems = open_page(browser, (example / "index.html").as_uri(), width=1280)
    page.emulate_media(media="print")
    printed = page.evaluate("() => [...document.querySelectorAll('table.scorecard a.value')].map(a => "
                            "[a.getAttribute('href'), a.dataset.evidence || '', getComputedStyle(a, '::after')"
                            ".content])")
    context.close()
    assert len(printed) >= 15 and problems == []
    for href, evidence, after in printed:
        if href.startswith("http"):  # a typed bar's source
            assert after == f'" <{href}>"', (href, after)
        else:  # our value, or a bar read from an artifact: the artifact's path
            assert evidence and after == f'" [{evidence}]"', (href, after)
            assert evidence == "formula" or href.startswith(f"_files/{evidence}"), (href, evidence)
