"""The ledger's place: made once per run, asked of git once, its dates from SOURCE_DATE_EPOCH or the clock."""

from __future__ import annotations

import subprocess
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorecard.core import git
from scorecard.core.paths import PathProblem
from scorecard.core.place import LedgerPlace


def _counting(monkeypatch) -> list[list[str]]:
    calls: list[list[str]] = []
    real = git.run

    def run(args, cwd, stdin=None):
        calls.append(args)
        return real(args, cwd, stdin)

    monkeypatch.setattr(git, "run", run)
    return calls


def test_git_is_asked_where_the_repository_is_once_per_place(tmp_path, monkeypatch):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "ledger").mkdir()
    calls = _counting(monkeypatch)
    place = LedgerPlace.at(tmp_path / "ledger")
    assert place.repo() == (tmp_path.resolve(), "ledger/") == place.repo()
    assert place.last_commit_date(["claims"]) is None  # no commit yet
    assert [c[0] for c in calls].count("rev-parse") == 1
    LedgerPlace.at(tmp_path / "ledger").repo()  # another run asks again
    assert [c[0] for c in calls].count("rev-parse") == 2


def test_outside_git_the_error_is_kept_and_raised_afresh(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    calls = _counting(monkeypatch)
    place = LedgerPlace.at(tmp_path)
    with pytest.raises(git.GitError, match="not inside a git repository") as first:
        place.repo()
    with pytest.raises(git.GitError, match="not inside a git repository") as second:
        place.repo()
    assert first.value is not second.value and len(calls) == 1  # one question; no traceback piles up
    assert place.last_change_dates("evidence") == {} and place.last_commit_date(["claims"]) is None
    assert len(calls) == 1


def test_the_dates_come_from_source_date_epoch_else_the_clock(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1781481600")
    pinned = LedgerPlace.at(tmp_path)
    assert pinned.today == pinned.source_date == date(2026, 6, 15)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    clock = LedgerPlace.at(tmp_path)
    assert clock.source_date is None and clock.today == date.today()
    assert LedgerPlace.at(tmp_path, today=date(2020, 1, 2)).today == date(2020, 1, 2)
    chosen = LedgerPlace.at(tmp_path, pinned=date(2021, 3, 4))
    assert chosen.today == chosen.source_date == date(2021, 3, 4)


def test_a_path_is_read_only_inside_the_root(tmp_path):
    (tmp_path / "ledger" / "claims").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (tmp_path / "ledger" / "link").symlink_to(tmp_path / "outside")
    place = LedgerPlace.at(tmp_path / "ledger")
    assert place.path("claims/x.yaml") == tmp_path / "ledger" / "claims/x.yaml"
    for rel in ("link/x.yaml", "../outside/x.yaml", "/etc/passwd", ".git/config"):
        with pytest.raises(PathProblem):
            place.path(rel)
    assert place.rel(tmp_path / "ledger" / "claims" / "x.yaml") == "claims/x.yaml"


_PART = st.sampled_from(["a", "b", "claims", "x.yaml", "é", ".", "..", "", " ", "a b", "A"])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["/", "//", "/a", "//a", "a", ".", "a/b", "/a/./b", "/a//b/"]), st.lists(_PART, max_size=5),
       st.booleans())
def test_a_path_is_named_as_relative_to_would_name_it(root, parts, absolute_child):
    """rel's string fast path (issue 46) names every path as Path.relative_to does, or fails as it does."""
    place = LedgerPlace.__new__(LedgerPlace)  # no resolve(): rel reads root alone
    object.__setattr__(place, "root", Path(root))
    path = Path(root).joinpath(*parts) if not absolute_child else Path("/" + "/".join(parts))
    try:
        want = path.relative_to(Path(root)).as_posix()
    except ValueError:
        with pytest.raises(ValueError):
            place.rel(path)
        return
    assert place.rel(path) == want
