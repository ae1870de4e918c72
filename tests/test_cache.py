"""The warm cache: a build that reuses what an earlier one parsed and rendered makes the very same bytes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from scorecard.core.place import LedgerPlace
from scorecard.ledger import cache
from scorecard.core import parallel
from scorecard.cli import pipeline

from conftest import copy_example, run_cli

RECORD = "claims/latency-and-reuse/cross-node-kv-transfer.yaml"


@pytest.fixture
def ledger(tmp_path, monkeypatch) -> Path:
    """A copy of the example ledger, with a cache folder of its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return copy_example(tmp_path / "ledger")


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def warm_and_cold(root: Path, tmp_path: Path, name: str) -> tuple[pipeline.BuildOutcome, dict, dict]:
    """A warm rebuild (always into tmp_path/site) and a build without the cache into a folder of its own, of the
    ledger as it is now, and both sites' files."""
    warm = pipeline.build(root, tmp_path / "site", warm=True)
    cold = pipeline.build(root, tmp_path / f"{name}-cold")
    assert not warm.refused and not cold.refused
    assert cold.reused == 0
    return warm, files(tmp_path / "site"), files(tmp_path / f"{name}-cold")


def pieces(root: Path) -> int:
    """How many parts a render of the ledger caches: its categories and its cited files."""
    result, _ = pipeline.validate(root)
    return len(result.ledger.categories) + len(pipeline.build(root, root.parent / "count").cited_files)


def entries(root: Path) -> list[Path]:
    folder = cache.open_ledger_folder(LedgerPlace.at(root))
    assert folder is not None
    return sorted((folder / "pages").glob("*.bin"))


def prime(root: Path, tmp_path: Path) -> None:
    """Two builds into tmp_path/site: the first only marks the ledger as seen, the second (a rebuild) fills
    the cache."""
    for _ in range(2):
        assert not pipeline.build(root, tmp_path / "site", warm=True).refused


def test_the_cache_fills_as_the_ledger_is_rebuilt_and_changes_no_byte(ledger, tmp_path):
    total = pieces(ledger)
    assert cache.ledger_folder(LedgerPlace.at(ledger)) is None
    first, first_files, cold_files = warm_and_cold(ledger, tmp_path, "first")
    assert first.reused == first.parts == 0 and first_files == cold_files
    folder = cache.ledger_folder(LedgerPlace.at(ledger))
    assert folder is not None
    assert not (folder / "parsed.bin").exists() and not entries(ledger)  # a one-off build keeps nothing
    second, second_files, _ = warm_and_cold(ledger, tmp_path, "second")
    assert second.reused == 0 and second.parts == total and second_files == cold_files
    assert (folder / "parsed.bin").is_file() and len(entries(ledger)) == total  # one per category and cited file
    third, third_files, _ = warm_and_cold(ledger, tmp_path, "third")
    assert third.reused == total
    assert third_files == cold_files


def test_a_build_into_a_fresh_folder_keeps_no_rendered_part(ledger, tmp_path):
    pipeline.validate(ledger, warm=True)  # as CI does: validate, then build into a new folder
    outcome = pipeline.build(ledger, tmp_path / "fresh", warm=True)
    assert outcome.parts == 0 and not entries(ledger)


def test_a_changed_record_renders_its_category_again_and_no_other(ledger, tmp_path):
    total = pieces(ledger)
    prime(ledger, tmp_path)
    record = ledger / RECORD
    record.write_text(record.read_text().replace("why: ", "why: Changed. ", 1))
    outcome, warm, cold = warm_and_cold(ledger, tmp_path, "after")
    assert outcome.reused == total - 1
    assert warm == cold
    assert b"Changed." in warm["latency-and-reuse/index.html"]
    assert len(entries(ledger)) == total  # the category's old entry is gone


def test_changed_settings_or_evidence_render_what_they_touch(ledger, tmp_path):
    total = pieces(ledger)
    prime(ledger, tmp_path)
    settings = ledger / "scorecard.yaml"
    settings.write_text(settings.read_text().replace("title: ", "title: Renamed ", 1))
    outcome, warm, cold = warm_and_cold(ledger, tmp_path, "settings")
    assert outcome.reused == 0  # every page shows the title
    assert warm == cold and b"Renamed" in warm["latency-and-reuse/index.html"]
    artifact = ledger / "evidence/compare.json"
    artifact.write_text(artifact.read_text() + "\n")  # the same values, other bytes: its own page changes
    outcome, warm, cold = warm_and_cold(ledger, tmp_path, "evidence")
    assert outcome.reused == total - 1
    assert warm == cold


def test_a_damaged_or_foreign_entry_is_a_miss_never_an_error(ledger, tmp_path, monkeypatch):
    prime(ledger, tmp_path)
    folder = cache.open_ledger_folder(LedgerPlace.at(ledger))
    assert folder is not None
    pages = entries(ledger)
    flipped = bytearray(pages[0].read_bytes())
    flipped[-1] ^= 0xFF
    pages[0].write_bytes(bytes(flipped))
    pages[1].write_bytes(pages[1].read_bytes()[:40])  # cut short
    (folder / "parsed.bin").write_bytes(b"not a cache file")
    outcome, warm, cold = warm_and_cold(ledger, tmp_path, "damaged")
    assert outcome.reused == len(pages) - 2
    assert warm == cold
    monkeypatch.setattr(cache, "code_digest", lambda: b"\0" * cache.DIGEST)  # what other code wrote
    outcome, warm, _ = warm_and_cold(ledger, tmp_path, "foreign")
    assert outcome.reused == 0 and warm == cold


def test_an_entry_that_does_not_decode_is_parsed_again(ledger, tmp_path):
    claim = "claims/cost-efficiency/energy-efficiency.yaml"
    (ledger / claim).write_text((ledger / claim).read_text() + "surprise: 1\n")  # a finding to keep
    cold, _ = pipeline.validate(ledger)
    for _ in range(2):
        pipeline.validate(ledger, warm=True)
    folder = cache.open_ledger_folder(LedgerPlace.at(ledger))
    assert folder is not None
    kept = cache.read_entry(folder / "parsed.bin")
    assert isinstance(kept, dict) and len(kept) > 3
    damaged = {key: b"\xff not marshal" if key[0] == claim else blob for key, blob in kept.items()}
    assert damaged != kept
    cache.write_entry(folder / "parsed.bin", damaged)
    again, _ = pipeline.validate(ledger, warm=True)
    assert [f.as_dict() for f in again.findings] == [f.as_dict() for f in cold.findings]
    assert any(f.file == claim and f.code == "SC202" for f in again.findings)
    assert [[d.model for d in c.dimensions] for c in again.ledger.categories] == \
        [[d.model for d in c.dimensions] for c in cold.ledger.categories]


def test_a_build_with_a_ledgers_own_templates_reuses_nothing(ledger, tmp_path):
    (ledger / "templates").mkdir()
    (ledger / "templates/category.html").write_text(
        '{% extends "base.html" %}{% block main %}{{ ledger.categories | length }} categories{% endblock %}')
    prime(ledger, tmp_path)
    outcome, warm, cold = warm_and_cold(ledger, tmp_path, "after")
    assert outcome.reused == 0 and warm == cold


def test_workers_read_and_write_the_cache(ledger, tmp_path, monkeypatch):
    if "fork" not in __import__("multiprocessing").get_all_start_methods():
        pytest.skip("no fork on this platform")
    monkeypatch.setattr(parallel, "PARALLEL_MIN_DIMENSIONS", 0)
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    prime(ledger, tmp_path)
    second, warm, cold = warm_and_cold(ledger, tmp_path, "second")
    assert second.reused == pieces(ledger)
    assert warm == cold


def test_a_folder_others_can_write_is_not_used(ledger, tmp_path):
    builds = tmp_path / "cache/scorecard" / f"builds-{cache.FORMAT}"
    builds.mkdir(parents=True)
    os.chmod(builds, 0o777)
    assert cache.open_ledger_folder(LedgerPlace.at(ledger)) is None
    outcome = pipeline.build(ledger, tmp_path / "site", warm=True)
    assert not outcome.refused and outcome.reused == 0
    assert not list(builds.iterdir())


def test_the_command_line_says_what_it_reused_and_no_cache_reads_none(ledger, tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for _ in range(2):
        run_cli("build", "--root", str(ledger), "--out", str(tmp_path / "b"), env=env)
    proc = run_cli("build", "--root", str(ledger), "--out", str(tmp_path / "b"), env=env)
    total = pieces(ledger)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith(f"({total} of {total} categories and cited files reused from the warm cache)\n")
    proc = run_cli("build", "--root", str(ledger), "--out", str(tmp_path / "c"), "--no-cache",
                   env={"XDG_CACHE_HOME": str(tmp_path / "none")})
    assert proc.returncode == 0, proc.stderr
    assert "warm cache" not in proc.stdout
    assert not (tmp_path / "none/scorecard").exists() or not list((tmp_path / "none/scorecard").glob("builds-*"))
    assert files(tmp_path / "b") == files(tmp_path / "c")


def test_the_folder_of_a_ledger_not_built_for_a_month_is_removed(ledger, tmp_path):
    folder = cache.open_ledger_folder(LedgerPlace.at(ledger))
    assert folder is not None
    gone, kept = folder.parent / "gone-ledger", folder.parent / "recent-ledger"
    for other, days in ((gone, cache.STALE_DAYS + 1), (kept, cache.STALE_DAYS - 1)):
        (other / "pages").mkdir(parents=True)
        when = time.time() - days * 86400
        os.utime(other, (when, when))
    os.utime(folder, (0, 0))  # this ledger's own folder is not removed: validating it marks it used first
    pipeline.validate(ledger, warm=True)
    assert not gone.exists() and kept.is_dir() and folder.is_dir()
    assert time.time() - folder.stat().st_mtime < 3600


def test_the_cache_command_shows_each_cache_and_clears_them_all(ledger, tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    home = tmp_path / "cache" / "scorecard"
    proc = run_cli("cache", env=env)
    assert (proc.returncode, proc.stdout) == (0, f"no cache in {home}\n")
    for _ in range(3):  # marks the ledger, keeps parsed files, keeps rendered parts
        assert run_cli("build", "--root", str(ledger), "--out", str(tmp_path / "b"), env=env).returncode == 0
    sizes = {p.name: sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) for p in home.iterdir()}
    assert sizes["builds-1"] > 0
    proc = run_cli("cache", env=env)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0
    assert lines[0] == (f"{home}: {sum(sizes.values()) / 1e6:.1f} MB (the warm cache is kept within 512.0 MB, least "
                        "recently used ledgers removed first; set SCORECARD_CACHE_MB to change it)")
    assert f"  builds-1: the warm cache of 1 ledger, {sizes['builds-1'] / 1e6:.1f} MB" in lines
    assert any(line.startswith("  templates-") and "compiled templates" in line for line in lines)
    proc = run_cli("cache", "--clear", env=env)
    assert (proc.returncode, proc.stdout) == (0, f"removed {home} ({sum(sizes.values()) / 1e6:.1f} MB)\n")
    assert not home.exists()
    proc = run_cli("cache", "--clear", env=env)
    assert (proc.returncode, proc.stdout) == (0, f"nothing to remove: no cache in {home}\n")


def test_the_cache_command_follows_no_symlink(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "templates-x").mkdir(parents=True)
    (elsewhere / "templates-x" / "keep.bin").write_bytes(b"x" * 5000)
    home = tmp_path / "cache" / "scorecard"
    home.mkdir(parents=True)
    (home / "builds-1").symlink_to(elsewhere, target_is_directory=True)  # not entered, not counted
    assert cache.usage(home) == []
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert run_cli("cache", "--clear", env=env).returncode == 0
    assert not home.exists() and (elsewhere / "templates-x" / "keep.bin").is_file()  # the link went, not its target
    home.parent.rmdir()
    (tmp_path / "cache").symlink_to(tmp_path / "real-cache", target_is_directory=True)
    (tmp_path / "real-cache").mkdir()
    (tmp_path / "real-cache" / "scorecard").symlink_to(elsewhere, target_is_directory=True)
    assert cache.usage(home) == []  # the folder is a link: not looked into
    proc = run_cli("cache", "--clear", env=env)
    assert proc.returncode == 1 and "was not removed: it is not a folder of this user's" in proc.stderr
    assert (elsewhere / "templates-x" / "keep.bin").is_file()


def test_the_warm_cache_is_bounded_least_recently_used_ledgers_first(tmp_path, monkeypatch):
    """Issue 26: the warm cache grew without bound (152 ledgers, 322 MB in a day). Over the limit, the least recently
    used ledgers' folders go first, and the ledger being built never does."""
    import os
    import time

    from scorecard.ledger import cache

    base = tmp_path / "builds"
    now = time.time()
    for i, name in enumerate(["old", "middle", "recent", "current"]):
        folder = base / name
        (folder / "pages").mkdir(parents=True)
        (folder / "pages" / "part.bin").write_bytes(b"x" * 400_000)
        os.utime(folder, (now - 3600 * (4 - i), now - 3600 * (4 - i)))
    cache.evict(base, keep=base / "current", limit=1_000_000)  # 1.6 MB held: two must go
    assert sorted(p.name for p in base.iterdir() if p.is_dir()) == ["current", "recent"]
    cache.evict(base, keep=base / "current", limit=0)
    assert sorted(p.name for p in base.iterdir() if p.is_dir()) == ["current"]  # never the one being built
    monkeypatch.setenv("SCORECARD_CACHE_MB", "7")
    assert cache.limit_bytes() == 7_000_000
    monkeypatch.setenv("SCORECARD_CACHE_MB", "lots")
    assert cache.limit_bytes() == cache.DEFAULT_LIMIT_MB * 1_000_000


def test_scorecard_cache_shows_the_bound(tmp_path):
    from conftest import run_cli

    home = tmp_path / "cachehome"
    (home / "scorecard" / "builds-x" / "one").mkdir(parents=True)
    proc = run_cli("cache", env={"XDG_CACHE_HOME": str(home), "SCORECARD_CACHE_MB": "64"})
    assert proc.returncode == 0 and "kept within 64.0 MB" in proc.stdout, proc.stdout + proc.stderr


def test_a_warm_run_parses_only_the_files_it_does_not_know_and_each_once(ledger, monkeypatch):
    """Pinned by the mutation run of ledger.load: with one record changed, one file is parsed, once (the others come
    from the warm cache); an unreadable file is reported, never handed to the parser."""
    from scorecard.ledger import load

    for _ in range(2):
        pipeline.validate(ledger, warm=True)
    claim = ledger / "claims/cost-efficiency/energy-efficiency.yaml"
    claim.write_text(claim.read_text().replace("title:", "title: Changed,", 1))
    os.mkfifo(ledger / "claims/cost-efficiency/zz-fifo.yaml")  # unreadable: reported, never parsed
    parsed: list[str] = []
    real = load.parse_bytes

    def counted(raw, doc, found):
        parsed.append(doc.file)
        return real(raw, doc, found)

    monkeypatch.setattr(load, "parse_bytes", counted)
    result, _ = pipeline.validate(ledger, warm=True)
    assert parsed == ["claims/cost-efficiency/energy-efficiency.yaml"]
    assert any(f.code == "SC406" and f.file.endswith("zz-fifo.yaml") for f in result.findings)


def test_serves_memory_cache_knows_a_file_by_its_path_and_bytes():
    from scorecard.ledger.load import MemoryParseCache
    from scorecard.ledger.yamldoc import Document

    memory = MemoryParseCache()
    assert not memory.knows("claims/a.yaml", "d1")
    memory.put("claims/a.yaml", "d1", Document("claims/a.yaml"), [])
    assert memory.knows("claims/a.yaml", "d1") and not memory.knows("claims/a.yaml", "d2")
    assert len(memory) == 1


def test_a_record_moved_to_another_category_leaves_no_stale_link_on_its_artifacts_page(ledger, tmp_path):
    """Found by the hostile pass: an artifact's page links back to each dimension that cites it; a record moved
    to another category kept the old link on a warm build (the cache key held its id and title, not its place)."""
    prime(ledger, tmp_path)
    src = ledger / "claims/latency-and-reuse/decode-throughput.yaml"
    dest = ledger / "claims/cost-efficiency/decode-throughput.yaml"
    src.rename(dest)
    outcome, warm, cold = warm_and_cold(ledger, tmp_path, "moved")
    assert warm == cold
    assert b"cost-efficiency/index.html#decode-throughput" in warm["_files/evidence/sample/latency.json.html"]


def test_compiled_patterns_are_kept_by_a_warm_validate_and_by_no_other_run(ledger, tmp_path):
    """core/regexstore.py is part of the warm cache: `validate --no-cache` and other commands leave the user's
    cache folder without it (the hostile pass found `--no-cache` writing it); a warm validate keeps it."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    store = tmp_path / "cache" / "scorecard" / "patterns"
    for args in (["validate", "--no-cache", "--root", str(ledger)], ["rules"], ["cache"]):
        assert run_cli(*args, env=env).returncode == 0, args
        assert not store.exists(), args
    assert run_cli("validate", "--root", str(ledger), env=env).returncode == 0
    assert [p.name[:9] for p in store.iterdir()] == ["patterns-"]


def test_the_code_digests_listing_names_each_file_by_its_path_below_the_folder(tmp_path):
    for rel in ("a.py", "sub/b.py", "sub/deeper/c.html", "sub/__pycache__/b.cpython-311.pyc", "x.pyc"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel)
    listed = cache.files_below(tmp_path)
    assert [rel for rel, _, _ in listed] == ["a.py", "sub/b.py", "sub/deeper/c.html"]
    assert all(size == len(rel) and mtime == (tmp_path / rel).stat().st_mtime_ns for rel, size, mtime in listed)
