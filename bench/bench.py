"""Benchmarks, as ratios against baselines measured in the same run (see bench/README.md).

    bench/run [--sizes 200,2000,20000] [--runs 5] [--peers] [--hook] [--history]
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
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
import make_history  # noqa: E402
import make_ledger  # noqa: E402

BENCH_VENV = HERE / ".work" / "scorecard"
PY = str(BENCH_VENV / "bin" / "python")
SCORECARD = [str(BENCH_VENV / "bin" / "scorecard")]
GNU_TIME = "/usr/bin/time"


def install_scorecard() -> None:
    """scorecard from this checkout as a user gets it: a wheel install with compiled bytecode, in its own venv.

    Not the development venv's editable install, whose import hook is consulted on every import
    (~0.5x the parse floor at 200 dimensions) and which, under PYTHONDONTWRITEBYTECODE, is
    compiled anew on every run.
    """
    if not (BENCH_VENV / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        subprocess.run([PY, "-m", "pip", "install", "-q", str(REPO)], check=True)
    subprocess.run([PY, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(REPO)], check=True)


@dataclass
class Timing:
    """One command's wall times (seconds, one per run) and peak resident memory (MB)."""

    walls: list[float] = field(default_factory=list)
    peak: float = 0.0

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)


def run_once(cmd: list[str], cwd: Path | None, env: dict | None) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one run of cmd.

    Peak memory comes from GNU time, a small process: a child forked from this one would be
    charged this process's own pages until it execs.
    """
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        proc = subprocess.run([GNU_TIME, "-f", "%M", "-o", rss.name, *cmd], cwd=cwd, env={**os.environ, **(env or {})},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        peak = int(rss.read().split()[-1]) / 1024
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return wall, peak


def measure(cmds: dict[str, list[str] | tuple], runs: int) -> dict[str, Timing]:
    """Time every command runs times, interleaved (a, b, c, a, b, c, ...) so drift hits them alike.

    A command is an argv list, or (argv, cwd, env).
    """
    out = {name: Timing() for name in cmds}
    for _ in range(runs):
        for name, spec in cmds.items():
            argv, cwd, env = spec if isinstance(spec, tuple) else (spec, None, None)
            wall, peak = run_once(argv, cwd, env)
            out[name].walls.append(wall)
            out[name].peak = max(out[name].peak, peak)
    return out


def ratio(a: Timing, b: Timing) -> float:
    """The median over runs of a's time / b's time in the same round: robust to a machine that drifts."""
    return statistics.median(x / y for x, y in zip(a.walls, b.walls, strict=True))


def row(name: str, t: Timing, base: Timing | None = None, base_name: str = "") -> str:
    text = f"{ratio(t, base):5.2f}x {base_name}" if base is not None else ""
    return f"| {name:<38} | {t.wall:8.3f} s | {t.peak:7.1f} MB | {text:<28} |"


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
                         + "".join(f"- Leader: {leader}\n" for leader in m.leaders) + f"\n{m.note or ''}\n")
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


def hook_benchmark(work: Path, runs: int) -> None:
    """The pre-commit hook's path: a 200-dimension ledger repository where one record changed."""
    pre_commit = Path(sys.executable).parent / "pre-commit"
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
    t = measure({"click": [PY, "-c", "import click"],
                 "hook": ([str(pre_commit), "run", "--files", changed], repo, env),
                 "validate": ([*SCORECARD, "validate"], repo, None)}, runs)
    print("| **pre-commit hook, 200 dimensions, one file changed** | | | |")
    print(row("python -c 'import click'", t["click"]))
    print(row("pre-commit run (scorecard-validate)", t["hook"], t["click"], "import click"))
    print(row("scorecard validate alone", t["validate"], t["click"], "import click"))


def history_benchmark(work: Path, runs: int, dims: int = 200, commits: int = 300) -> None:
    """`build --history` over a synthetic history against a plain build of the same ledger, same run."""
    repo = work / "history-repo"
    make_history.make(dims, commits, repo)
    t = measure({"plain": [*SCORECARD, "build", "--root", str(repo), "--out", str(work / "hist-plain")],
                 "history": [*SCORECARD, "build", "--history", "--root", str(repo), "--out", str(work / "hist-site")],
                 "one": [*SCORECARD, "history", "dimension-00001", "--root", str(repo)]}, runs)
    print(f"| **history: {dims} dimensions, {commits} commits** | | | |")
    print(row("scorecard build", t["plain"]))
    print(row("scorecard build --history", t["history"], t["plain"], "plain build"))
    print(row("scorecard history ID", t["one"], t["plain"], "plain build"))


def size_benchmark(work: Path, n: int, runs: int, peers: Path | None, skip: set[str],
                   forms: bool = False) -> dict[str, Timing]:
    """Everything on a synthetic ledger of n dimensions, interleaved round by round.

    With forms, a second ledger whose measured records use the measurement forms (runs through
    JSONPath in another unit, entries by name, derived values) is validated in the same rounds.
    """
    ledger = work / f"ledger-{n}"
    make_ledger.make(n, ledger)
    cmds: dict[str, list[str] | tuple] = {
        "floor": [PY, str(HERE / "parse_floor.py"), str(ledger)],
        "validate": [*SCORECARD, "validate", "--root", str(ledger)],
        "build": [*SCORECARD, "build", "--root", str(ledger), "--out", str(work / f"site-{n}")],
    }
    if forms:
        make_ledger.make(n, work / f"forms-{n}", forms=True)
        cmds["forms-floor"] = [PY, str(HERE / "parse_floor.py"), str(work / f"forms-{n}")]
        cmds["forms"] = [*SCORECARD, "validate", "--root", str(work / f"forms-{n}")]
    if peers and "mkdocs" not in skip:
        project = mkdocs_project(ledger, work / f"mkdocs-{n}")
        cmds["mkdocs"] = ([str(peers / "bin/mkdocs"), "build", "-q", "-d", str(work / f"mk-site-{n}")], project, None)
    if peers and "check-jsonschema" not in skip:
        files = sorted(str(p) for p in ledger.glob("claims/*/dimension-*.yaml"))
        cmds["cj"] = [str(peers / "bin/check-jsonschema"), "--schemafile", str(REPO / "schema/dimension.schema.json"),
                      *files]
    if peers and "doorstop" not in skip:
        tree = doorstop_tree(ledger, work / f"doorstop-{n}")
        cmds["doorstop"] = ([str(peers / "bin/doorstop")], tree, None)
        cmds["publish"] = ([str(peers / "bin/doorstop"), "publish", "all", str(work / f"ds-site-{n}")], tree, None)
    t = measure(cmds, runs)
    print(f"| **{n} dimensions** | | | |")
    print(row("parse floor (libyaml + json)", t["floor"]))
    print(row("scorecard validate", t["validate"], t["floor"], "parse floor"))
    print(row("scorecard build", t["build"], t["floor"], "parse floor"))
    if "forms" in t:
        print(row("scorecard validate, measurement forms", t["forms"], t["forms-floor"], "its parse floor"))
        print(row("  forms vs plain validate", t["forms"], t["validate"], "plain validate"))
    if "mkdocs" in t:
        print(row("mkdocs build (same content)", t["mkdocs"]))
        print(row("  scorecard build vs mkdocs", t["build"], t["mkdocs"], "mkdocs build"))
    if "cj" in t:
        print(row("check-jsonschema (schema only)", t["cj"]))
        print(row("  scorecard validate vs check-jsonschema", t["validate"], t["cj"], "check-jsonschema"))
    if "doorstop" in t:
        print(row("doorstop (validation)", t["doorstop"]))
        print(row("  scorecard validate vs doorstop", t["validate"], t["doorstop"], "doorstop"))
        print(row("doorstop publish all", t["publish"]))
        print(row("  scorecard build vs doorstop publish", t["build"], t["publish"], "doorstop publish"))
    shutil.rmtree(ledger, ignore_errors=True)
    return t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="200,2000,20000")
    ap.add_argument("--runs", type=int, default=5, help="rounds per size (at most 3 at 20,000 and above)")
    ap.add_argument("--peers", action="store_true",
                    help="also time mkdocs, doorstop, check-jsonschema in bench/.work/peers (installed on first use)")
    ap.add_argument("--skip", default="", metavar="PEERS",
                    help="peers not to time, comma-separated: mkdocs, check-jsonschema, doorstop")
    ap.add_argument("--hook", action="store_true", help="also time the pre-commit hook on a 200-dimension ledger")
    ap.add_argument("--forms", action="store_true",
                    help="also validate, in the same rounds, a ledger whose records use the measurement forms")
    ap.add_argument("--history", action="store_true",
                    help="also time build --history over a 300-commit history of a 200-dimension ledger")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="scorecard-bench-"))
    install_scorecard()
    peers = install_peers() if args.peers else None
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True,
                           text=True).stdout.strip()
    print(f"{time.strftime('%Y-%m-%d')}; machine: {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB, "
          f"Python {platform.python_version()}; "
          f"commit {commit}{' (with uncommitted changes)' if dirty else ''}; "
          f"median of {args.runs} interleaved rounds\n")
    print("| command | wall (median) | peak RSS | ratio (median of same-round ratios) |\n| --- | --- | --- | --- |")
    t = measure({"click": [PY, "-c", "import click"], "help": [*SCORECARD, "--help"]}, max(args.runs, 5))
    print(row("python -c 'import click'", t["click"]))
    print(row("scorecard --help", t["help"], t["click"], "import click"))
    per_dim = {}
    for n in sizes:
        timed = size_benchmark(work, n, args.runs if n < 20000 else min(args.runs, 3), peers,
                               set(filter(None, args.skip.split(","))), args.forms)
        per_dim[n] = (timed["validate"].wall / n, timed["build"].wall / n)
    if args.hook:
        hook_benchmark(work, args.runs)
    if args.history:
        history_benchmark(work, args.runs)
    if len(sizes) > 1:
        print()
        for a, b in zip(sizes, sizes[1:], strict=False):
            va, ba = per_dim[a]
            vb, bb = per_dim[b]
            print(f"per-dimension cost at {b} vs {a}: validate {vb / va:.2f}x, build {bb / ba:.2f}x (1.00 = linear)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
