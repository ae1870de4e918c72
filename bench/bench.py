"""Benchmarks, as ratios against baselines measured in the same run (see bench/README.md).

    bench/run [--sizes 200,2000,20000] [--runs 5] [--peers]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import make_ledger  # noqa: E402

PY = sys.executable
SCORECARD = [str(Path(PY).parent / "scorecard")]
GNU_TIME = "/usr/bin/time"


def measure(cmd: list[str], runs: int, cwd: Path | None = None, env: dict | None = None) -> tuple[float, float]:
    """Median wall seconds and peak resident MB of cmd over runs."""
    walls, peaks = [], []
    for _ in range(runs):
        out = tempfile.NamedTemporaryFile(delete=False)
        out.close()
        proc = subprocess.run([GNU_TIME, "-f", "%e %M", "-o", out.name, *cmd], cwd=cwd, env={**os.environ, **(env or {})},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall, peak = Path(out.name).read_text().split()[-2:]
        os.unlink(out.name)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
        walls.append(float(wall))
        peaks.append(int(peak) / 1024)
    return statistics.median(walls), max(peaks)


def mkdocs_project(ledger: Path, dest: Path) -> Path:
    """The same content as a MkDocs project: one Markdown page per category."""
    sys.path.insert(0, str(REPO))
    from scorecard import pipeline

    result, store = pipeline.validate(ledger)
    docs = dest / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Synthetic scorecard\n\n" + "\n".join(
        f"- [{c.model.title}]({c.slug}.md)" for c in result.ledger.categories) + "\n")
    for cat in result.ledger.categories:
        parts = [f"# {cat.model.title}\n\n{cat.model.summary or ''}\n"]
        for d in cat.dimensions:
            m = d.model
            parts.append(f"## {m.title}\n\n**Status:** {m.status} — {m.claim}\n\n### Why it matters\n\n{m.why}\n\n"
                         f"### SOTA bar\n\n{m.sota.bar}\n\n- Source: <{m.sota.source}> ({m.sota.date})\n"
                         + "".join(f"- Leader: {l}\n" for l in m.leaders) + f"\n{m.note or ''}\n")
        (docs / f"{cat.slug}.md").write_text("\n".join(parts))
    (dest / "mkdocs.yml").write_text("site_name: Synthetic scorecard\nuse_directory_urls: false\n")
    return dest


def doorstop_tree(ledger: Path, dest: Path) -> Path:
    """The same records as a Doorstop tree: one document per category under a root document."""
    sys.path.insert(0, str(REPO))
    from scorecard import pipeline

    result, _ = pipeline.validate(ledger)
    dest.mkdir(parents=True)
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    root = dest / "reqs"
    root.mkdir()
    (root / ".doorstop.yml").write_text("settings:\n  digits: 5\n  prefix: SC\n  sep: ''\n")
    (root / "SC00001.yml").write_text("active: true\nderived: false\nheader: ''\nlevel: 1.0\nlinks: []\n"
                                      "normative: true\nref: ''\nreviewed: null\ntext: |\n  Synthetic scorecard\n")
    for ci, cat in enumerate(result.ledger.categories):
        prefix = f"C{ci:04d}"
        folder = root / prefix
        folder.mkdir()
        (folder / ".doorstop.yml").write_text(f"settings:\n  digits: 5\n  parent: SC\n  prefix: {prefix}\n  sep: ''\n")
        for di, d in enumerate(cat.dimensions, start=1):
            m = d.model
            text = (f"{m.title}\n\nStatus: {m.status}. {m.claim}\n\nWhy: {m.why}\n\nSOTA: {m.sota.bar} "
                    f"({m.sota.source}, {m.sota.date})\n\n{m.note or ''}")
            body = "\n".join("  " + line for line in text.splitlines())
            (folder / f"{prefix}{di:05d}.yml").write_text(
                f"active: true\nderived: false\nheader: ''\nlevel: 1.{di}\nlinks:\n- SC00001: null\n"
                f"normative: true\nref: ''\nreviewed: null\ntext: |\n{body}\n")
    return dest


def peers_python() -> Path | None:
    venv = HERE / ".work" / "peers"
    py = venv / "bin" / "python"
    tools = ("mkdocs", "doorstop", "check-jsonschema")
    return py if py.exists() and all((venv / "bin" / t).exists() for t in tools) else None


def install_peers() -> Path:
    """mkdocs (and the other peers) in the benchmark's own virtualenv, never the project's."""
    venv = HERE / ".work" / "peers"
    if not peers_python():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin/pip"), "install", "-q", "mkdocs", "doorstop", "check-jsonschema"], check=True)
    return venv


def hook_benchmark(work: Path, runs: int, click_wall: float) -> None:
    """The pre-commit hook's path: a 200-dimension ledger repository where one record changed."""
    pre_commit = Path(PY).parent / "pre-commit"
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    repo = work / "hook-repo"
    make_ledger.make(200, repo)
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {REPO}\n    rev: {head}\n    hooks:\n      - id: scorecard-validate\n")
    env = {"PRE_COMMIT_HOME": str(work / "pre-commit-home")}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run([str(pre_commit), "install-hooks"], cwd=repo, check=True, env={**os.environ, **env},
                   capture_output=True)
    changed = "claims/category-0001/dimension-00021.yaml"
    record = repo / changed
    record.write_text(record.read_text().replace("claim: ", "claim: Edited. ", 1))
    wall, peak = measure([str(pre_commit), "run", "--files", changed], runs, cwd=repo, env=env)
    direct, d_peak = measure([*SCORECARD, "validate"], runs, cwd=repo)
    print("| **pre-commit hook, 200 dimensions, one file changed** | | | |")
    print(row("pre-commit run (scorecard-validate)", wall, peak, click_wall, "import click"))
    print(row("scorecard validate alone", direct, d_peak, click_wall, "import click"))


def row(name: str, wall: float, peak: float, base: float | None, base_name: str) -> str:
    ratio = f"{wall / base:5.2f}x {base_name}" if base else ""
    return f"| {name:<34} | {wall:8.3f} s | {peak:7.1f} MB | {ratio:<28} |"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="200,2000,20000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--peers", action="store_true",
                    help="also time mkdocs, doorstop, check-jsonschema in bench/.work/peers (installed on first use)")
    ap.add_argument("--hook", action="store_true", help="also time the pre-commit hook on a 200-dimension ledger")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="scorecard-bench-"))
    venv = install_peers() if args.peers else None
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    print(f"machine: {os.cpu_count()} cores, {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, "
          f"Python {platform.python_version()}; commit {commit}; median of {args.runs} runs\n")
    print("| command | wall (median) | peak RSS | ratio (same run) |\n| --- | --- | --- | --- |")
    click_wall, click_peak = measure([PY, "-c", "import click"], args.runs)
    help_wall, help_peak = measure([*SCORECARD, "--help"], args.runs)
    print(row("python -c 'import click'", click_wall, click_peak, None, ""))
    print(row("scorecard --help", help_wall, help_peak, click_wall, "import click"))
    per_dim = {}
    for n in sizes:
        ledger = work / f"ledger-{n}"
        make_ledger.make(n, ledger)
        runs = max(3, args.runs if n < 20000 else 3)
        floor, floor_peak = measure([PY, str(HERE / "parse_floor.py"), str(ledger)], runs)
        validate, v_peak = measure([*SCORECARD, "validate", "--root", str(ledger)], runs)
        build, b_peak = measure([*SCORECARD, "build", "--root", str(ledger), "--out", str(work / f"site-{n}")], runs)
        print(f"| **{n} dimensions** | | | |")
        print(row("parse floor (libyaml + json)", floor, floor_peak, None, ""))
        print(row("scorecard validate", validate, v_peak, floor, "parse floor"))
        print(row("scorecard build", build, b_peak, floor, "parse floor"))
        if venv:
            project = mkdocs_project(ledger, work / f"mkdocs-{n}")
            mk, mk_peak = measure([str(venv / "bin/mkdocs"), "build", "-q", "-d", str(work / f"mk-site-{n}")], runs,
                                  cwd=project)
            print(row("mkdocs build (same content)", mk, mk_peak, None, ""))
            print(row("  scorecard build vs mkdocs", build, b_peak, mk, "mkdocs build"))
            files = sorted(str(p) for p in ledger.glob("claims/*/dimension-*.yaml"))
            cj, cj_peak = measure([str(venv / "bin/check-jsonschema"), "--schemafile",
                                   str(REPO / "schema/dimension.schema.json"), *files], runs)
            print(row("check-jsonschema (schema only)", cj, cj_peak, None, ""))
            print(row("  scorecard validate vs check-jsonschema", validate, v_peak, cj, "check-jsonschema"))
            tree = doorstop_tree(ledger, work / f"doorstop-{n}")
            ds, ds_peak = measure([str(venv / "bin/doorstop")], runs, cwd=tree)
            dp, dp_peak = measure([str(venv / "bin/doorstop"), "publish", "all", str(work / f"ds-site-{n}")], runs,
                                  cwd=tree)
            print(row("doorstop (validation)", ds, ds_peak, None, ""))
            print(row("  scorecard validate vs doorstop", validate, v_peak, ds, "doorstop"))
            print(row("doorstop publish all", dp, dp_peak, None, ""))
            print(row("  scorecard build vs doorstop publish", build, b_peak, dp, "doorstop publish"))
        per_dim[n] = (validate / n, build / n)
    if args.hook:
        hook_benchmark(work, args.runs, click_wall)
    if len(sizes) > 1:
        print()
        for a, b in zip(sizes, sizes[1:]):
            va, ba = per_dim[a]
            vb, bb = per_dim[b]
            print(f"per-dimension cost at {b} vs {a}: validate {vb / va:.2f}x, build {bb / ba:.2f}x (1.00 = linear)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
