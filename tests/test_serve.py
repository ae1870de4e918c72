"""`scorecard serve` end to end: a real process on loopback, edits picked up, broken ledgers shown."""

from __future__ import annotations

import os
import re
import subprocess
import time
import urllib.request

import pytest

from conftest import EPOCH, scorecard_command


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


@pytest.fixture
def served(base_ledger):
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SOURCE_DATE_EPOCH": EPOCH}
    proc = subprocess.Popen([*scorecard_command(), "serve", "--port", "0"], cwd=base_ledger, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for _ in range(20):
            line = proc.stdout.readline()
            m = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
            if m:
                url = m.group(1)
                break
        assert url, "serve did not print its address"
        yield base_ledger, url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_rebuilds_and_keeps_the_last_good_site(served):
    root, url = served
    assert "Beta latency" in fetch(url + "core/")
    record = root / "claims/core/beta.yaml"
    good = record.read_text()
    record.write_text(good.replace("Beta latency", "Beta latency, edited"))
    wait_for(lambda: "Beta latency, edited" in fetch(url + "core/"))

    record.write_text(good.replace("status: no-claim", "status: noclaim"))
    page = wait_for(lambda: (p := fetch(url + "core/")) and "The ledger has errors" in p and p)
    assert "SC204" in page and "Beta latency, edited" in page  # findings shown over the last good site
    assert "&lt;" not in page.split("</strong>")[0][-5:]

    record.write_text(good)
    wait_for(lambda: "The ledger has errors" not in (p := fetch(url + "core/")) and "Beta latency" in p
             and "edited" not in p)
    assert '"ok": true' in fetch(url + "__scorecard__/status")


def test_built_files_do_not_carry_the_reload_script(served):
    root, url = served
    assert "__scorecard__" in fetch(url + "index.html")
    assert "__scorecard__" not in (root / "site/index.html").read_text()


def test_fast_path_page_equals_the_full_build(base_ledger):
    from scorecard.serve import Rebuilder

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


def test_fast_path_declines_what_it_cannot_do(base_ledger):
    from scorecard.serve import Rebuilder

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
    from scorecard.serve import Rebuilder

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
