"""Shared fixtures: fixed reference date, ledger builders, the installed command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

# No per-example deadline: a deadline is a timing assertion, and a loaded CI machine turned it into flaky failures
# (keep timings out of the tests; bench/ measures speed).
settings.register_profile("scorecard", deadline=None)
settings.load_profile("scorecard")

TESTS = Path(__file__).parent
REPO = TESTS.parent
LEDGERS = TESTS / "ledgers"
# 2026-06-15: a fixed "today", so that future and stale dates do not drift with the clock.
EPOCH = "1781481600"


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory):
    """The session's caches (compiled templates, the warm cache) in a folder of its own, not the user's."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))


@pytest.fixture(autouse=True)
def fixed_today(monkeypatch):
    """Every test sees the same reference date."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


EXAMPLE = ["scorecard.yaml", "claims", "evidence", "CLAIMS.md", "BENCHMARK-AUTHORITY.md"]  # the example ledger


def copy_example(dest: Path) -> Path:
    """A copy of the example ledger (runs in tool formats, a formula, a reproduced bar, stamps, traces) at dest."""
    dest.mkdir()
    for name in EXAMPLE:
        src = REPO / name
        shutil.copytree(src, dest / name) if src.is_dir() else shutil.copy2(src, dest / name)
    return dest


def copy_ledger(src: Path, dest: Path) -> Path:
    """Copy a fixture ledger (without expect.yaml) to dest."""
    shutil.copytree(src, dest, symlinks=True, ignore=shutil.ignore_patterns("expect.yaml"))
    return dest


def bad_case(name: str, dest: Path) -> tuple[Path, dict]:
    """The base ledger with one bad case laid over it, and the case's expectations."""
    case = LEDGERS / "bad" / name
    expect = yaml.safe_load((case / "expect.yaml").read_text())
    root = copy_ledger(LEDGERS / "base", dest)
    for rel in expect.get("remove", []):
        target = root / rel
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    shutil.copytree(case, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("expect.yaml"))
    for rel, target in expect.get("symlinks", {}).items():
        link = root / rel
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(target)
    if "pad" in expect:
        path = root / expect["pad"]["file"]
        with path.open("a") as fh:
            fh.write("# padding\n" * (expect["pad"]["bytes"] // 10 + 1))
    return root, expect


@pytest.fixture
def base_ledger(tmp_path) -> Path:
    """A fresh copy of the small valid base ledger."""
    return copy_ledger(LEDGERS / "base", tmp_path / "ledger")


def scorecard_command() -> list[str]:
    """The installed console script, next to this interpreter."""
    script = Path(sys.executable).parent / "scorecard"
    if not script.exists():
        found = shutil.which("scorecard")
        assert found, "the scorecard command is not installed"
        script = Path(found)
    return [str(script)]


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run the installed command; never raise on a non-zero exit."""
    full_env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, **(env or {})}
    return subprocess.run([*scorecard_command(), *args], cwd=cwd, env=full_env, capture_output=True, text=True,
                          timeout=120)
