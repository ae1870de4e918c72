"""Forked render workers and the launcher: the same output whoever renders it, and a clean exit."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.core.place import LedgerPlace
from scorecard.core import parallel
from scorecard.cli import pipeline
from scorecard.site.render import Site
from scorecard.site.resolve import resolve_ledger

from conftest import EPOCH, REPO, bad_case


def _resolved(root):
    result, store = pipeline.validate(root)
    assert not result.errors
    return resolve_ledger(result.ledger, store)


@pytest.fixture
def forked(monkeypatch):
    """Every job goes to forked workers, however small the ledger."""
    if "fork" not in __import__("multiprocessing").get_all_start_methods():
        pytest.skip("no fork on this platform")
    monkeypatch.setattr(parallel, "PARALLEL_MIN_DIMENSIONS", 0)
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)


def test_workers_render_the_same_site_as_one_process(forked, monkeypatch):
    resolved = _resolved(REPO)
    assert parallel.workers_for(1) == 2  # the fixture works: this run forks
    in_workers = Site(resolved).render()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_DIMENSIONS", 10**9)
    assert parallel.workers_for(10**9 - 1) == 0
    here = Site(resolved).render()
    assert in_workers == here
    assert gc.get_freeze_count() == 0  # what was frozen for the fork is handed back to the collector


def test_tasks_cover_every_category_and_file_once(monkeypatch):
    import scorecard.site.render as render

    resolved = _resolved(REPO)
    monkeypatch.setattr(render, "TASK_DIMENSIONS", 1)
    monkeypatch.setattr(render, "TASK_FILES", 1)
    tasks = Site(resolved).tasks()
    assert {kind for kind, _ in tasks} == {"categories", "files"}  # the index is put together from their sections
    cats = [i for kind, items in tasks if kind == "categories" for i in items]
    files = [f for kind, items in tasks if kind == "files" for f in items]
    assert cats == list(range(len(resolved.categories))) and len(cats) > 1
    assert files == sorted(resolved.files) and len(files) > 1
    assert all(len(items) == 1 for _, items in tasks)


def test_a_template_error_in_a_worker_reaches_the_build(forked, base_ledger, tmp_path):
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates" / "category.html").write_text("{{ category.no_such_field }}")
    outcome = pipeline.build(base_ledger, tmp_path / "site")
    assert outcome.refused and outcome.pages == 0
    found = outcome.checked.findings[-1]
    assert (found.code, found.file, found.line) == ("SC701", "templates/category.html", 1)
    assert "no_such_field" in found.message
    assert not (tmp_path / "site").exists()


def test_the_worker_function_is_cleared_after_a_run(forked):
    out = dict(parallel.run_tasks(lambda n: n * n, [1, 2, 3], 10))
    assert out == {0: 1, 1: 4, 2: 9}
    assert parallel._Job.current is None


def _started(n):
    import time

    return time.monotonic()


def test_no_more_tasks_run_ahead_of_a_slow_consumer_than_it_allows(forked):
    """A consumer slower than the workers (the writer of a large site) held every finished task's files: each task
    now starts only once the consumer has taken all but AHEAD per worker of those handed out before it."""
    import time

    ahead = parallel.AHEAD * 2
    started, taken = {}, []
    for index, at in parallel.run_tasks(_started, list(range(16)), 10):
        started[index] = at
        time.sleep(0.03)
        taken.append(time.monotonic())  # the consumer is done with it: the next slot opens after this
    assert sorted(started) == list(range(16))
    assert all(started[i] >= taken[i - ahead] for i in range(ahead, 16)), (started, taken)


def test_a_consumer_that_stops_early_ends_the_workers(forked):
    import signal

    signal.alarm(60)  # a hang fails the test, not the suite
    try:
        for n, _ in enumerate(parallel.run_tasks(_started, list(range(40)), 10)):
            if n == 1:
                break
        assert parallel._Job.current is None
        assert list(parallel.run_tasks(abs, [-1, -2], 10)) is not None  # the next job runs
    finally:
        signal.alarm(0)


def test_run_tasks_here_keeps_task_order(monkeypatch):
    monkeypatch.setattr(parallel, "PARALLEL_MIN_DIMENSIONS", 10**9)
    assert list(parallel.run_tasks(str, [3, 1, 2], 5)) == [(0, "3"), (1, "1"), (2, "2")]


# --- the launcher ------------------------------------------------------------------------------


def _launch(*args: str, cwd=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scorecard", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "SOURCE_DATE_EPOCH": EPOCH, **(env or {})})


def test_launcher_keeps_exit_status_and_every_line_of_output(tmp_path):
    root, expect = bad_case("evidence-missing", tmp_path / "bad")
    proc = _launch("validate", "--root", str(root))
    assert proc.returncode == 1
    assert proc.stdout.rstrip().endswith("finding.") or "error" in proc.stdout
    assert f"{expect['code']}" in proc.stdout
    assert _launch("validate", "--root", str(REPO)).returncode == 0
    assert _launch("validate", "--no-such-option").returncode == 2


def test_launcher_flushes_a_long_report_through_a_pipe(tmp_path):
    from scorecard.cli.launch import _exit  # noqa: F401 (the module imports without running anything)

    proc = _launch("rules")
    listed = proc.stdout.count("\n")
    assert proc.returncode == 0 and listed > 50  # every rule, though the process ends with os._exit


def test_launcher_exit_codes_of_sys_exit(tmp_path):
    code = ("import sys\nfrom scorecard.cli import launch\nlaunch._exit({})")
    for arg, status, err in (("None", 0, ""), ("3", 3, ""), ("'went wrong'", 1, "went wrong\n")):
        proc = subprocess.run([sys.executable, "-c", code.format(arg)], capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stderr) == (status, err)


def test_launcher_switches_off_pydantic_plugins_unless_the_user_chose(tmp_path):
    code = ("import os, sys\nfrom scorecard.cli import launch\nsys.argv = ['scorecard', '--version']\n"
            "import scorecard.cli.commands as cli\n"
            "cli.main = lambda **kw: print(os.environ['PYDANTIC_DISABLE_PLUGINS'])\nlaunch.run()")
    env = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert proc.stdout == "__all__\n" and proc.returncode == 0
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**env, "PYDANTIC_DISABLE_PLUGINS": "logfire"})
    assert proc.stdout == "logfire\n"


def test_build_through_the_launcher_writes_the_same_site_as_in_process(base_ledger, tmp_path):
    proc = _launch("build", "--root", str(base_ledger), "--out", str(tmp_path / "a"))
    assert proc.returncode == 0, proc.stderr
    os.environ["SOURCE_DATE_EPOCH"], saved = EPOCH, os.environ.get("SOURCE_DATE_EPOCH")
    try:
        pipeline.build(base_ledger, tmp_path / "b")
    finally:
        if saved is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b and len(a) > 10



def test_workers_parse_the_same_documents_and_findings(forked, monkeypatch, base_ledger):
    import scorecard.ledger.load as load

    core = base_ledger / "claims/core"
    for i in range(5):
        (core / f"copy-{i}.yaml").write_bytes((core / "alpha.yaml").read_bytes())
    (core / "copy-3.yaml").write_text((core / "alpha.yaml").read_text() + "title: twice\n")
    monkeypatch.setattr(load, "PARSE_CHUNK", 2)
    in_workers = load.load_ledger(LedgerPlace.at(base_ledger))
    monkeypatch.setattr(parallel, "PARALLEL_MIN_DIMENSIONS", 10**9)
    here = load.load_ledger(LedgerPlace.at(base_ledger))
    assert in_workers.categories == here.categories and len(here.categories[0].dimensions) == 7
    assert in_workers.findings == here.findings
    assert [(f.code, f.file) for f in here.findings] == [("SC102", "claims/core/copy-3.yaml")]


def test_recycled_workers_give_the_same_results(forked):
    import os as _os

    out = dict(parallel.run_tasks(lambda n: (n * 3, _os.getpid()), list(range(8)), 10, recycle=1))
    assert [out[i][0] for i in range(8)] == [n * 3 for n in range(8)]
    assert len({pid for _, pid in out.values()}) > 2  # each worker ran one task, then a fresh fork took over


def test_spooled_parts_come_back_in_key_order_and_the_file_closes():
    from scorecard.site.exports import Spool as _Spool

    spool = _Spool()
    spool.add(2, [b"c", b"dd"])
    spool.add(0, [b"a"])
    spool.add(1, [])
    spool.add(3, [b""])
    assert list(spool.drain()) == [b"a", b"c", b"dd", b""]
    assert spool.file.closed


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dictionaries(st.text(min_size=1), st.text()), max_size=4))
def test_spooled_sections_read_back_as_the_markup_they_were(batches):
    from markupsafe import Markup

    from scorecard.site.exports import Sections

    sections, expected = Sections(), {}
    for batch in batches:
        sections.add(batch)
        expected.update(batch)
    assert dict(sections) == expected and len(sections) == len(expected)
    assert all(type(sections[slug]) is Markup for slug in expected)  # rendered by our templates: not escaped again
    with pytest.raises(KeyError):
        sections["\x00 no such category"]


def test_the_dimensions_by_id_are_made_before_the_workers_fork():
    resolved = _resolved(REPO)
    site = Site(resolved)
    site.preload()  # in the parent: a worker that made the map would copy every dimension's pages
    assert site._by_id == {d.id: d for c in resolved.categories for d in c.dimensions} and len(site._by_id) > 5


def test_each_category_is_checked_as_soon_as_its_files_are_parsed(forked, monkeypatch, base_ledger):
    import scorecard.ledger.load as load

    last = base_ledger / "claims/zz-last"
    last.mkdir()
    (last / "_category.yaml").write_text("title: Last\n")
    (last / "broken.yaml").write_text("title: [unclosed\n")
    monkeypatch.setattr(load, "PARSE_CHUNK", 1)
    assert parallel.workers_for(5) == 2  # parsed by forked workers
    loaded = load.stream_ledger(LedgerPlace.at(base_ledger))
    categories = iter(loaded.categories)
    assert next(categories).slug == "core"
    assert loaded.findings == []  # the last category's file is not taken yet: its finding is still to come
    assert [c.slug for c in categories] == ["zz-last"]
    assert [(f.code, f.file) for f in loaded.findings] == [("SC101", "claims/zz-last/broken.yaml")]
    assert next(categories, None) is None


def test_the_warm_cache_keeps_the_settings_of_a_ledger_without_claims(tmp_path, monkeypatch):
    from scorecard.ledger import cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "ledger"
    root.mkdir()
    (root / "scorecard.yaml").write_text("title: T\nsubject: s\n")
    for _ in range(2):
        result, _ = pipeline.validate(root, warm=True)
        assert [f.code for f in result.findings] == ["SC002"]
    folder = cache.ledger_folder(LedgerPlace.at(root))
    assert folder is not None and (folder / "parsed.bin").is_file()
