"""Make a synthetic git history: a ledger of N dimensions, then COMMITS commits of realistic edits.

    python bench/make_history.py N COMMITS DIR

The mix, seeded so that every run makes the same history (commit dates are fixed too):
  45% an evidence file re-run (every value in it moves by up to ±3% of its first value,
      so statuses stay honest at HEAD), 15% a claim reworded, 10% a SOTA bar moved (on a
      dimension without a result), 10% a status change (no-claim <-> out-of-scope),
      5% a dimension added, 5% a dimension renamed (git mv), 10% a commit outside the ledger.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_ledger  # noqa: E402

START = 1767225600  # 2026-01-01T00:00:00Z
ENV = {"GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Bench",
       "GIT_AUTHOR_EMAIL": "bench@example.org", "GIT_COMMITTER_NAME": "Bench",
       "GIT_COMMITTER_EMAIL": "bench@example.org"}


def _git(root: Path, *args: str, when: int | None = None) -> None:
    env = {**os.environ, **ENV}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{when} +0000"
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def _rerun(root: Path, rng: random.Random, base: dict[str, dict]) -> str:
    path = rng.choice(sorted((root / "evidence").glob("run-*.json")))
    first = base.setdefault(path.name, json.loads(path.read_text()))
    data = json.loads(path.read_text())
    for key, run in data["runs"].items():
        p50 = first["runs"][key]["p50"] * (1 + rng.uniform(-0.03, 0.03))
        run["p50"] = round(p50, 3)
        run["samples"] = [round(p50 * 0.9, 3), round(p50, 3)]
    path.write_text(json.dumps(data, indent=1))
    return f"rerun {path.stem}"


def _records(root: Path, statuses: tuple[str, ...] | None = None) -> list[Path]:
    found = sorted(p for p in (root / "claims").glob("*/*.yaml") if p.name != "_category.yaml")
    if statuses:
        found = [p for p in found if any(f"\nstatus: {s}\n" in p.read_text() for s in statuses)]
    return found


def _replace_line(path: Path, key: str, value: str) -> None:
    lines = path.read_text().split("\n")
    for i, line in enumerate(lines):
        if line.startswith(key):
            lines[i] = key + value
            break
    path.write_text("\n".join(lines))


def make(n: int, commits: int, root: Path, seed: int = 11) -> None:
    """The ledger at root, in a new repository with `commits` commits (the first adds the ledger)."""
    make_ledger.make(n, root)
    rng = random.Random(seed)
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "the ledger", when=START)
    base: dict[str, dict] = {}
    added = renamed = 0
    for c in range(1, commits):
        roll = rng.random()
        if roll < 0.45:
            message = _rerun(root, rng, base)
        elif roll < 0.60:
            path = rng.choice(_records(root))
            _replace_line(path, "claim: ", make_ledger.sentence(rng, 9))
            message = f"reword {path.stem}"
        elif roll < 0.70:
            path = rng.choice(_records(root, ("no-claim", "out-of-scope")))
            _replace_line(path, "  value: ", str(round(rng.uniform(10, 1000), 2)))
            message = f"new SOTA bar for {path.stem}"
        elif roll < 0.80:
            path = rng.choice(_records(root, ("no-claim", "out-of-scope")))
            text = path.read_text()
            no_claim, out = "\nstatus: no-claim\n", "\nstatus: out-of-scope\n"
            swapped = text.replace(no_claim, out) if no_claim in text else text.replace(out, no_claim)
            path.write_text(swapped)
            message = f"status of {path.stem}"
        elif roll < 0.85:
            source = rng.choice(_records(root, ("no-claim",)))
            added += 1
            target = source.with_name(f"added-{added:04d}.yaml")
            target.write_text(source.read_text().replace("title: ", "title: Added ", 1))
            message = f"add {target.stem}"
        elif roll < 0.90:
            source = rng.choice(_records(root))
            renamed += 1
            renamed_path = source.with_name(f"renamed-{renamed:04d}.yaml")
            _git(root, "mv", str(source.relative_to(root)), str(renamed_path.relative_to(root)))
            message = f"rename {source.stem}"
        else:
            (root / "NOTES.md").write_text(make_ledger.prose(rng, 3) + "\n")
            message = "notes (outside the ledger)"
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "--allow-empty", "-m", message, when=START + c * 3600)


if __name__ == "__main__":
    make(int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3]))
