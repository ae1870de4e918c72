"""`scorecard serve` end to end: a real process on loopback, edits picked up, broken ledgers shown."""

from __future__ import annotations

import os
import re
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import EPOCH, LEDGERS, copy_ledger, scorecard_command


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.read().decode()


def wait_for(predicate, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


@pytest.fixture(params=["notified", "polled"])
def served(base_ledger, request):
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SOURCE_DATE_EPOCH": EPOCH,
           "SCORECARD_POLL": "1" if request.param == "polled" else "0"}
    proc = subprocess.Popen([*scorecard_command(), "serve", "--port", "0"], cwd=base_ledger, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for _ in range(20):
            line = proc.stdout.readline()
            m = re.search(r"serving (\S+) at (http://127\.0\.0\.1:\d+/)", line)
            if m:
                out, url = Path(m.group(1)), m.group(2)
                break
        assert url, "serve did not print its address"
        assert base_ledger not in out.parents  # a folder of its own, outside the ledger (issue 40)
        yield base_ledger, url, out
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_rebuilds_and_keeps_the_last_good_site(served):
    root, url, out = served
    assert "Beta latency" in fetch(url + "core/")
    record = root / "claims/core/beta.yaml"
    good = record.read_text()
    record.write_text(good.replace("Beta latency", "Beta latency, edited"))
    wait_for(lambda: "Beta latency, edited" in fetch(url + "core/"))
    # The page above may come from the fast path; the full build that follows makes it the last good site.
    wait_for(lambda: "Beta latency, edited" in (out / "core/index.html").read_text())

    record.write_text(good.replace("status: no-claim", "status: noclaim"))
    page = wait_for(lambda: (p := fetch(url + "core/")) and "The ledger has errors" in p and p)
    assert "SC204" in page and "Beta latency, edited" in page  # findings shown over the last good site
    assert "&lt;" not in page.split("</strong>")[0][-5:]

    record.write_text(good)
    wait_for(lambda: "The ledger has errors" not in (p := fetch(url + "core/")) and "Beta latency" in p
             and "edited" not in p)
    assert '"ok": true' in fetch(url + "__scorecard__/status")


def test_built_files_do_not_carry_the_reload_script(served):
    root, url, out = served
    assert "__scorecard__" in fetch(url + "index.html")
    assert "__scorecard__" not in (out / "index.html").read_text()


def test_fast_path_page_equals_the_full_build(base_ledger):
    from scorecard.cli.serve import Rebuilder

    lines: list[str] = []
    rebuilder = Rebuilder(base_ledger, base_ledger / "site", echo=lines.append)
    rebuilder.rebuild()
    record = base_ledger / "claims/core/beta.yaml"
    record.write_text(record.read_text().replace("Beta latency", "Beta latency, fast"))
    current = rebuilder.inputs()
    changed = {p for p in current if current[p] != rebuilder.snapshot.get(p)}
    assert rebuilder.refresh(changed, current) is True
    fast = rebuilder.memory["core/index.html"]
    assert b"Beta latency, fast" in fast
    rebuilder.rebuild()
    assert rebuilder.memory == {}
    assert (base_ledger / "site/core/index.html").read_bytes() == fast


def test_serve_rebuilds_from_the_warm_cache_and_the_pages_match(base_ledger, tmp_path, monkeypatch):
    import re

    from scorecard.cli import pipeline
    from scorecard.cli.serve import Rebuilder

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    lines: list[str] = []
    rebuilder = Rebuilder(base_ledger, tmp_path / "site", echo=lines.append, warm=True)
    for _ in range(3):  # the second build fills the cache, the third reads it
        rebuilder.rebuild()
    said = re.search(r"\((\d+) of (\d+) categories and cited files reused from the warm cache\)$", lines[-1])
    reused, parts = map(int, said.groups())
    assert reused == parts > 1
    record = base_ledger / "claims/core/beta.yaml"
    record.write_text(record.read_text().replace("Beta latency", "Beta latency, warm"))
    current = rebuilder.inputs()
    assert rebuilder.refresh({p for p in current if current[p] != rebuilder.snapshot.get(p)}, current)
    fast = rebuilder.memory["core/index.html"]
    rebuilder.rebuild()
    assert lines[-1].endswith(f"({parts - 1} of {parts} categories and cited files reused from the warm cache)")
    pipeline.build(base_ledger, tmp_path / "cold")
    assert (tmp_path / "site/core/index.html").read_bytes() == fast == (tmp_path / "cold/core/index.html").read_bytes()


def test_fast_path_declines_what_it_cannot_do(base_ledger):
    from scorecard.cli.serve import Rebuilder

    rebuilder = Rebuilder(base_ledger, base_ledger / "site", echo=lambda _: None)
    rebuilder.rebuild()
    (base_ledger / "evidence/run.json").write_text('{"runs": [{"rps": 13}]}')
    (base_ledger / "claims/core/beta.yaml").write_text("title: [broken\n")
    current = rebuilder.inputs()
    changed = {p for p in current if current[p] != rebuilder.snapshot.get(p)}
    assert rebuilder.refresh(changed, current) is False  # evidence changed: only a full build is right
    changed = {str(base_ledger / "claims/core/beta.yaml")}
    assert rebuilder.refresh(changed, current) is False  # a YAML error: the full build reports it


def test_serve_with_history_keeps_timelines_in_the_fast_path_and_rebuilds_on_a_commit(tmp_path):
    from scorecard.cli.serve import Rebuilder

    from gitrepo import commit, edit, scripted_history, set_rps

    root, _ = scripted_history(tmp_path / "ledger")
    site = tmp_path / "site"
    rebuilder = Rebuilder(root, site, echo=lambda _: None, history=True)
    rebuilder.rebuild()
    assert "status leads → parity" in (site / "core/index.html").read_text()
    # The fast path re-renders an edited dimension with its timeline, exactly as the full build does.
    edit(root, "claims/core/alpha.yaml", "title: Alpha throughput", "title: Alpha throughput, fast")
    current = rebuilder.inputs()
    changed = {p for p in current if current[p] != rebuilder.snapshot.get(p)}
    assert rebuilder.refresh(changed, current) is True
    fast = rebuilder.memory["core/index.html"]
    assert b"Alpha throughput, fast" in fast and "status leads → parity".encode() in fast
    rebuilder.rebuild()
    assert (site / "core/index.html").read_bytes() == fast
    # A commit changes no ledger file, but it changes the history: serve rebuilds.
    set_rps(root, 9.9)
    assert rebuilder.poll_once() is True
    assert rebuilder.poll_once() is False
    commit(root, "rerun: 9.9 req/s", 230)
    assert rebuilder.poll_once() is True
    assert "rerun: 9.9 req/s" in (site / "changes.html").read_text()


def test_notifications_wake_only_for_inputs(base_ledger, tmp_path):
    from scorecard.cli.serve import Rebuilder
    from scorecard.cli.watching import Inputs

    out = base_ledger / "site"
    rebuilder = Rebuilder(base_ledger, out, echo=lambda _: None)
    rebuilder.cited = ["CLAIMS.md"]
    wanted = Inputs(rebuilder)
    root = str(base_ledger)
    for rel, expected in (("claims/core/alpha.yaml", True), ("evidence/run.json", True), ("scorecard.yaml", True),
                          ("templates/base.html", True), ("claims", True), ("CLAIMS.md", True),
                          ("site/index.html", False), ("site", False), ("README.md", False),
                          (".site-tmp-1-x/index.html", False), ("claimsx/a.yaml", False), ("scorecard.yaml~", False)):
        assert wanted(None, f"{root}/{rel}") is expected, rel
    rebuilder.cited = ["docs/x.md"]  # a build's new list of cited files is picked up
    assert wanted(None, f"{root}/docs/x.md") is True and wanted(None, f"{root}/CLAIMS.md") is False


def test_watch_falls_back_to_polling_without_notifications(base_ledger, monkeypatch):
    import threading

    from scorecard.cli import watching
    from scorecard.cli.serve import Rebuilder

    said: list[str] = []
    rebuilder = Rebuilder(base_ledger, base_ledger / "site", echo=said.append)
    polled: list[float] = []

    def no_notify(rb, stop):
        raise OSError("inotify watch limit reached")

    monkeypatch.setattr(watching, "notified", no_notify)
    monkeypatch.setattr(watching, "poll", lambda rb, stop, interval: polled.append(interval))
    monkeypatch.delenv("SCORECARD_POLL", raising=False)
    watching.watch(rebuilder, threading.Event(), 0.1)
    assert polled == [0.1]
    assert said == ["file notifications unavailable (OSError: inotify watch limit reached); "
                    "polling for changes every 0.1 s instead"]
    monkeypatch.setenv("SCORECARD_POLL", "1")
    monkeypatch.setattr(watching, "notified", lambda rb, stop: polled.append(-1))
    watching.watch(rebuilder, threading.Event(), 0.2)
    assert polled == [0.1, 0.2]  # asked to poll: notifications are not tried


def test_a_failed_check_is_reported_once_and_serving_goes_on(base_ledger):
    from scorecard.cli import watching
    from scorecard.cli.serve import Rebuilder

    said: list[str] = []
    rebuilder = Rebuilder(base_ledger, base_ledger / "site", echo=said.append)

    def broken():
        raise RuntimeError("disk on fire")

    rebuilder.poll_once = broken
    watching.check(rebuilder)
    assert said == ["rebuild failed: RuntimeError: disk on fire"]
    assert rebuilder.snapshot == rebuilder.inputs()


def test_serve_turns_the_collector_back_on(base_ledger):
    import subprocess
    import sys

    code = ("import gc, sys\nimport scorecard.cli.serve as s\n"
            "s.serve = lambda *a, **k: print('collector', gc.isenabled())\n"
            "gc.disable()\nfrom scorecard.cli.commands import main\n"
            "try:\n    main(['serve', '--root', sys.argv[1]])\nexcept SystemExit:\n    pass\n")
    proc = subprocess.run([sys.executable, "-c", code, str(base_ledger)], capture_output=True, text=True, timeout=60)
    assert proc.stdout == "collector True\n", proc.stderr


def test_fast_path_names_what_changed_in_a_suspect_claim_as_the_full_build_does(tmp_path):
    """The fast path is the build's own stages over the changed files: a reviewed claim edited since its review is
    shown suspect with what changed (issue 25: serve's replay skipped the suspects' explanation)."""
    from scorecard.cli.serve import Rebuilder

    from conftest import run_cli
    from gitrepo import commit, edit, git

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q")
    assert run_cli("review", "--all", "--root", str(root)).returncode == 0
    commit(root, "reviewed", 1)
    site = tmp_path / "site"
    rebuilder = Rebuilder(root, site, echo=lambda _: None)
    rebuilder.rebuild()
    edit(root, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: 12.0 req/s")  # reworded since its review
    current = rebuilder.inputs()
    assert rebuilder.refresh({p for p in current if current[p] != rebuilder.snapshot.get(p)}, current) is True
    fast = rebuilder.memory["core/index.html"]
    assert "<code>claim: &#34;12 req/s&#34; → &#34;12.0 req/s&#34;</code>".encode() in fast
    rebuilder.rebuild()
    assert (site / "core/index.html").read_bytes() == fast


def test_fast_path_never_reads_through_a_folder_turned_into_a_link_out_of_the_root(tmp_path):
    """claims/ is a link inside the ledger when serve builds, then is pointed outside it: the fast path declines
    (the full build refuses the link) instead of reading the outside files."""
    import shutil

    from scorecard.cli.serve import Rebuilder

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims").rename(root / "claims_in")
    (root / "claims").symlink_to("claims_in")
    rebuilder = Rebuilder(root, tmp_path / "site", echo=lambda _: None)
    rebuilder.rebuild()
    assert rebuilder.state is not None
    outside = tmp_path / "outside"
    shutil.copytree(root / "claims_in", outside)
    beta = outside / "core/beta.yaml"
    beta.write_text(beta.read_text().replace("Beta latency", "SECRET from outside"))
    (root / "claims").unlink()
    (root / "claims").symlink_to(outside)
    current = rebuilder.inputs()
    changed = {p for p in current if current[p] != rebuilder.snapshot.get(p)}
    assert changed and rebuilder.refresh(changed, current) is False
    assert not any(b"SECRET" in page for page in rebuilder.memory.values())


def test_memory_stays_flat_across_rebuilds(tmp_path):
    """Issue 40 item 7: serve grew about 8 MB per rebuild at 1,502 dimensions. 30 rebuilds of 200 dimensions in one
    process, one record edited between each: the resident size after the 30th is within 10 MB of after the 10th."""
    import gc
    import subprocess
    import sys

    from scorecard.cli.serve import Rebuilder

    bench = Path(__file__).parent.parent / "bench"
    subprocess.run([sys.executable, str(bench / "make_ledger.py"), "200", str(tmp_path / "ledger")], check=True,
                   capture_output=True)

    def rss_mb() -> float:
        with open("/proc/self/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024

    rebuilder = Rebuilder(tmp_path / "ledger", tmp_path / "out", echo=lambda _: None)
    record = sorted((tmp_path / "ledger/claims").rglob("*.yaml"))[3]
    text = record.read_text()
    sizes = []
    for i in range(30):
        record.write_text(text.replace("title:", f"title: v{i}", 1) if i % 2 else text)
        rebuilder.rebuild()
        assert rebuilder.broken_text is None
        gc.collect()
        sizes.append(rss_mb())
    assert sizes[29] - sizes[9] < 10, sizes


def test_the_fast_path_renders_a_ledgers_templates_under_the_limits_too(tmp_path, monkeypatch):
    """Issue 40 item 1b: serve's fast refresh rendered a category page in its own process, so a record edit that
    made a ledger's template allocate took all the memory it asked for. It renders under the same limits as a
    build: past one, the fast page is not served and the full rebuild reports SC701."""
    from scorecard.cli.serve import Rebuilder
    from scorecard.site.limits import LimitExceeded, available

    if not available():
        pytest.skip("no fork or resource limits here")
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "templates").mkdir()
    (root / "templates/category.html").write_text(
        "{% for d in category.dimensions %}{% if d.record.model.title == 'BOMB' %}{{ ('x' * 1200000000)|length }}"
        "{% else %}{{ d.id }}{% endif %}{% endfor %}")
    monkeypatch.setenv("SCORECARD_TEMPLATE_MEMORY_MB", "300")
    rebuilder = Rebuilder(root, tmp_path / "site", echo=lambda _: None)
    rebuilder.rebuild()
    assert rebuilder.state is not None and rebuilder.broken_text is None, rebuilder.broken_text
    beta = root / "claims/core/beta.yaml"
    beta.write_text(beta.read_text().replace("title: Beta latency", "title: BOMB"))
    current = rebuilder.inputs()
    changed = {p for p in current if current[p] != rebuilder.snapshot.get(p)}
    with pytest.raises(LimitExceeded):
        rebuilder.refresh(changed, current)
    assert not rebuilder.memory
    rebuilder.rebuild()
    assert rebuilder.broken_text is not None and "SC701" in rebuilder.broken_text
