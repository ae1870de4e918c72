"""Hostile pull requests: each case under tests/ledgers/attacks/ is run as CI would run it.

A case is the base ledger with the case's files laid over it, and what attack.yaml makes that git
could not carry or that must point outside the ledger (symlinks to a canary, FIFOs, large files, a
repository whose own config names a program). Each case asserts the exit status, the finding's file
and code, that the canary's content (a file outside the ledger root) appears nowhere in the output
or the site, that no marker file was created by code the ledger tried to run, and that the run
finished within a time and memory bound.

In case files, {canary} is the absolute path of the canary file, {outside} the folder holding it,
and {marker} the path a successful code execution would create.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import EPOCH, LEDGERS, copy_ledger, scorecard_command
from gitrepo import commit, git

ATTACKS = LEDGERS / "attacks"
CASES = sorted(p.name for p in ATTACKS.iterdir())
CANARY = "CANARY-7f3a9c-do-not-publish"
MEMORY_LIMIT = 1024 * 1024 * 1024  # address space per run: a 50 MB artifact once took 4.6 GB
TIME_LIMIT = 60


def test_corpus_covers_the_attack_pass():
    assert len(CASES) >= 30


def _fill(text: str, env: dict[str, str]) -> str:
    for key, value in env.items():
        text = text.replace("{" + key + "}", value)
    return text


def _lay_out(case: Path, root: Path, env: dict[str, str]) -> None:
    for src in sorted(case.rglob("*")):
        rel = src.relative_to(case)
        if rel.as_posix() == "attack.yaml":
            continue
        dest = root / rel
        if src.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(_fill(src.read_text(), env).encode())


def _make(spec: dict, root: Path, env: dict[str, str]) -> None:
    for rel in spec.get("remove", []):
        target = root / rel
        shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
    for rel, target in spec.get("symlinks", {}).items():
        link = root / rel
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.exists() or link.is_symlink():
            shutil.rmtree(link) if link.is_dir() and not link.is_symlink() else link.unlink()
        link.symlink_to(_fill(target, env))
    _make_special(spec, root, env)
    if "git" in spec:
        _make_history(spec, root, env)


def _make_special(spec: dict, root: Path, env: dict[str, str]) -> None:
    """FIFOs, large artifacts, artifacts of many runs and files git could not hold."""
    for rel in spec.get("fifos", []):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        os.mkfifo(path)
    for rel, size in spec.get("large", {}).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:  # a valid JSON document of the given size
            fh.write(b'{"runs": [{"rps": 12}], "pad": "')
            fh.write(b"x" * size)
            fh.write(b'"}')
    for rel, count in spec.get("runs", {}).items():  # an artifact of many runs
        (root / rel).write_text('{"runs": [' + ",".join(str(12 + (i % 7) / 100) for i in range(count)) + "]}\n")
    for rel, text in spec.get("write", {}).items():  # text git could not hold (control characters)
        path = root / _fill(rel, env)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_fill(text, env).encode())


def _make_history(spec: dict, root: Path, env: dict[str, str]) -> None:
    """A repository of the ledger, its config as given, and a later commit when asked."""
    git(root, "init", "-q")
    commit(root, "ledger", 1)
    for key, value in spec["git"].get("config", {}).items():
        git(root, "config", key, _fill(value, env))
    if spec["git"].get("after"):  # a later commit: a symlink added, for diff
        for rel, target in spec["git"]["after"].get("symlinks", {}).items():
            (root / rel).symlink_to(_fill(target, env))
        commit(root, "attack", 2)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _site_files(site: Path):
    for path in site.rglob("*"):
        if path.is_symlink():
            yield path, b"SYMLINK IN SITE"
        elif path.is_file():
            yield path, path.read_bytes()


def _prepare(name: str, tmp_path: Path) -> tuple[dict, Path, dict[str, str], Path]:
    """The case laid over the base ledger, beside a canary outside it: (spec, root, env, marker)."""
    case = ATTACKS / name
    spec = yaml.safe_load((case / "attack.yaml").read_text())
    outside = tmp_path / "outside"
    (outside / "claims-cat").mkdir(parents=True)
    (outside / "canary.txt").write_text(CANARY + "\n")
    (outside / "claims-cat" / "_category.yaml").write_text(f"title: {CANARY}\n")
    (outside / "claims-cat" / "leak.yaml").write_text(f"title: {CANARY}\n")
    marker = tmp_path / "marker"
    env = {"canary": str(outside / "canary.txt"), "outside": str(outside), "marker": str(marker)}
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    _lay_out(case, root, env)
    _make(spec.get("make", {}), root, env)
    return spec, root, env, marker


@pytest.mark.parametrize("name", CASES)
def test_hostile_pull_request(name, tmp_path):
    spec, root, env, marker = _prepare(name, tmp_path)
    site = tmp_path / "site"
    args = [_fill(a, env) for a in spec.get("command", ["validate"])]
    if args[0] == "build":
        args += ["--out", str(site)]
    run_env = {**os.environ, "SOURCE_DATE_EPOCH": EPOCH, "XDG_CACHE_HOME": str(tmp_path / "cache"),
               "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    proc = subprocess.run([*scorecard_command(), *args, "--root", str(root)] if args[0] != "diff" else
                          [*scorecard_command(), *args], cwd=root, env=run_env, capture_output=True,
                          timeout=TIME_LIMIT, preexec_fn=_limit_memory)
    out = proc.stdout + proc.stderr
    shown = out.decode("utf-8", "replace")
    assert proc.returncode == spec["exit"], f"{name}: exit {proc.returncode}\n{shown}"
    assert b"Traceback" not in out and b"internal error" not in out, shown
    for want in spec.get("findings", []):
        pattern = re.compile(rf"^{re.escape(want['file'])}:\d+:\d+: (error|warning) {want['code']}\b", re.M)
        assert pattern.search(shown), f"{name}: no {want['code']} at {want['file']}\n{shown}"
    for text in spec.get("absent", []):
        assert _fill(text, env) not in shown, f"{name}: {text!r} printed\n{shown}"
    assert CANARY.encode() not in out, f"{name}: the canary was printed"
    assert not marker.exists(), f"{name}: code from the ledger ran"
    assert b"\x1b" not in out and b"\x07" not in out, f"{name}: a control character reached the terminal"
    if site.exists():
        for path, data in _site_files(site):
            assert CANARY.encode() not in data, f"{name}: the canary was published in {path}"
            assert data != b"SYMLINK IN SITE", f"{name}: a symlink in the site: {path}"
        for rel in spec.get("site_absent", []):
            assert not (site / rel).exists(), f"{name}: {rel} was published"
        for rel in spec.get("site_present", []):
            assert (site / rel).is_file(), f"{name}: {rel} is missing from the site"
    for rel in spec.get("site_checks", []):
        assert _check_export(site / rel), f"{name}: {rel} is not valid"
    assert not list(root.rglob("*.tmp")), f"{name}: a temporary file was left in the ledger"


def _check_export(path: Path) -> bool:
    """A feed that parses as XML, or a JSON export that parses as strict JSON."""
    data = path.read_bytes()
    if path.suffix == ".xml":
        import xml.dom.minidom

        xml.dom.minidom.parseString(data)
        return True
    import json

    def no_constant(name):
        raise ValueError(name)

    json.loads(data, parse_constant=no_constant)
    return True


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


IN_PROCESS = [name for name in CASES
              if "git" not in yaml.safe_load((ATTACKS / name / "attack.yaml").read_text()).get("make", {})
              and yaml.safe_load((ATTACKS / name / "attack.yaml").read_text()).get("command", ["validate"])[0]
              in ("validate", "build")]


@pytest.mark.parametrize("name", IN_PROCESS)
def test_hostile_case_in_process(name, tmp_path, monkeypatch):
    """The same cases through the pipeline in this process: the findings as values, and no exception.

    (The subprocess run above is what CI does; this one lets coverage, and so the mutation run,
    see which tests exercise the refusals.)"""
    from scorecard.cli import pipeline

    spec, root, _, marker = _prepare(name, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    if spec.get("command", ["validate"])[0] == "build":
        result = pipeline.build(root, tmp_path / "site").checked
    else:
        result, _ = pipeline.validate(root)
    from scorecard.cli.report import terminal_safe

    found = {(terminal_safe(f.file), f.code) for f in result.findings}  # as the case names them: printable
    for want in spec.get("findings", []):
        assert (want["file"], want["code"]) in found, f"{name}: no {want['code']} at {want['file']}: {found}"
        if want["code"] == "SC404":  # refused: nothing behind the link was read
            assert not [f for f in result.findings if f.file.startswith(want["file"] + "/")], result.findings
    assert all(CANARY not in f.message for f in result.findings), name
    if spec["exit"] == 1:
        assert result.errors, f"{name}: refused on the command line, but no error here"
    assert not marker.exists()
