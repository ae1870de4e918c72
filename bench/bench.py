"""Benchmarks, as ratios against baselines measured in the same run (see bench/README.md).

    bench/run [--sizes 200,2000,20000] [--runs 5] [--peers] [--hook] [--history]
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from functools import partial
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
    """One command's wall times (seconds, one per run), peak memory of its largest process and of all its
    processes together (MB)."""

    walls: list[float] = field(default_factory=list)
    peak: float = 0.0
    together: float = 0.0

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)


def _tree(pid: int) -> list[int]:
    """pid and every process under it (Linux: /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*/children"):
            with contextlib.suppress(OSError):
                todo += [int(c) for c in task.read_text().split()]
    return out


def _pss_mb(pids: list[int]) -> float:
    """Proportional set size of the processes together: a page shared by two processes counts half in each."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
                    break
        except OSError:
            pass
    return total / 1024


class _Sampler(threading.Thread):
    """The peak of a process tree's memory together, sampled every 20 ms while it runs."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, 0.0, threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.02):
            self.peak = max(self.peak, _pss_mb(_tree(self.pid)[1:]))  # [0] is GNU time itself


def run_once(cmd: list[str], cwd: Path | None, env: dict | None) -> tuple[float, float, float]:
    """Wall seconds, peak resident MB of the largest process, and peak MB of all its processes together.

    The largest process's peak comes from GNU time, a small process: a child forked from this one
    would be charged this process's own pages until it execs. The sum is sampled every 20 ms over
    the processes under GNU time, as PSS, so that pages forked workers share with their parent are
    not counted twice.
    """
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        proc = subprocess.Popen([GNU_TIME, "-f", "%M", "-o", rss.name, *cmd], cwd=cwd,
                                env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                text=True)
        sampler = _Sampler(proc.pid)
        sampler.start()
        _, err = proc.communicate()
        wall = time.perf_counter() - start
        sampler.done.set()
        sampler.join()
        peak = int(rss.read().split()[-1]) / 1024
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err[-2000:]}")
    return wall, peak, max(sampler.peak, peak)


def measure(cmds: dict[str, list[str] | tuple], runs: int) -> dict[str, Timing]:
    """Time every command runs times, interleaved (a, b, c, a, b, c, ...) so drift hits them alike.

    A command is an argv list, or (argv, cwd, env), or (argv, cwd, env, before): before() runs, untimed,
    before each run (the warm build edits a record there).
    """
    out = {name: Timing() for name in cmds}
    for _ in range(runs):
        for name, spec in cmds.items():
            argv, cwd, env, before = (spec + (None,))[:4] if isinstance(spec, tuple) else (spec, None, None, None)
            if before is not None:
                before()
            wall, peak, together = run_once(argv, cwd, env)
            out[name].walls.append(wall)
            out[name].peak = max(out[name].peak, peak)
            out[name].together = max(out[name].together, together)
    return out


def ratio(a: Timing, b: Timing) -> float:
    """The median over runs of a's time / b's time in the same round: robust to a machine that drifts."""
    return statistics.median(x / y for x, y in zip(a.walls, b.walls, strict=True))


def row(name: str, t: Timing, base: Timing | None = None, base_name: str = "") -> str:
    text = f"{ratio(t, base):5.2f}x {base_name}" if base is not None else ""
    return f"| {name:<38} | {t.wall:8.3f} s | {t.peak:7.1f} MB | {t.together:7.1f} MB | {text:<28} |"


def mkdocs_project(ledger: Path, dest: Path) -> Path:
    """The same content as a MkDocs project: one Markdown page per category."""
    sys.path.insert(0, str(REPO))
    from scorecard.cli import pipeline

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
    from scorecard.cli import pipeline

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


HUGO_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body>
<h1>{{ .Title }}</h1>
{{ with .Params.summary }}<p>{{ . | markdownify }}</p>{{ end }}
{{ range $id, $d := index .Site.Data.claims .Params.cat }}{{ if ne $id "_category" }}
<section id="{{ $id }}"><h2>{{ $d.title | markdownify }}</h2>
<p><strong>Status:</strong> {{ $d.status }} — {{ $d.claim | markdownify }}</p>
<h3>Why it matters</h3>{{ $d.why | markdownify }}
<h3>SOTA bar</h3>{{ $d.sota.bar | markdownify }}
<ul><li>Source: <a href="{{ $d.sota.source }}">{{ $d.sota.source }}</a> ({{ $d.sota.date }})</li>
{{ range $d.leaders }}<li>Leader: {{ . | markdownify }}</li>{{ end }}</ul>
{{ with $d.note }}{{ . | markdownify }}{{ end }}
</section>{{ end }}{{ end }}
</body></html>
"""
HUGO_CARD = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">{{ $d := index .Site.Data.claims .Params.cat .Params.dim }}
<title>{{ $d.title | plainify }}</title></head><body>
<h1>{{ $d.title | markdownify }}</h1>
<p><strong>{{ $d.status }}</strong> — {{ $d.claim | markdownify }}</p>
<p>SOTA bar: {{ $d.sota.bar | markdownify }} (<a href="{{ $d.sota.source }}">source</a>, {{ $d.sota.date }})</p>
<p><a href="../{{ .Params.cat }}.html#{{ .Params.dim }}">Back to the category</a></p>
</body></html>
"""
HUGO_INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ .Site.Title }}</title></head><body>
<h1>{{ .Site.Title }}</h1>
<ul>{{ range where .Site.RegularPages "Layout" "category" }}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>
</body></html>
"""


def hugo_site(ledger: Path, dest: Path) -> Path:
    """The same content as a Hugo site: the records as Hugo data files, one page per category and one card page per
    dimension (status, claim, bar, source, a link back), as scorecard writes."""
    data = dest / "data" / "claims"
    shutil.copytree(ledger / "claims", data)
    content = dest / "content"
    content.mkdir()
    for folder in sorted(data.iterdir()):
        meta = folder / "_category.yaml"
        title = next((line.split(":", 1)[1].strip() for line in meta.read_text().splitlines()
                      if line.startswith("title:")), folder.name)
        (content / f"{folder.name}.md").write_text(f"---\ntitle: \"{title}\"\ncat: {folder.name}\n"
                                                   f"layout: category\nweight: 1\n---\n")
        cards = content / folder.name
        cards.mkdir()
        for record in sorted(folder.glob("*.yaml")):
            if record.stem != "_category":  # a card page per dimension, as scorecard writes (issue 46)
                (cards / f"card-{record.stem}.md").write_text(
                    f"---\ntitle: {record.stem}\ncat: {folder.name}\ndim: {record.stem}\nlayout: card\n---\n")
    layouts = dest / "layouts"
    (layouts / "_default").mkdir(parents=True)
    (layouts / "_default" / "category.html").write_text(HUGO_PAGE)
    (layouts / "_default" / "card.html").write_text(HUGO_CARD)
    (layouts / "index.html").write_text(HUGO_INDEX)
    (dest / "config.toml").write_text('baseURL = "/"\ntitle = "Synthetic scorecard"\nuglyURLs = true\n'
                                      'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "404", "section"]\n')
    return dest


def hugo() -> str | None:
    """The hugo command: installed from the distribution's packages when missing and possible, else None."""
    found = shutil.which("hugo")
    if found or not shutil.which("apt-get") or os.geteuid() != 0:
        return found
    subprocess.run(["apt-get", "install", "-y", "-q", "hugo"], capture_output=True)
    return shutil.which("hugo")


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
    # One record changed before each run (as edit_one_record does for the warm rows): a commit's own record is
    # never a kept clean check, so every run checks it and imports what checking it needs.
    records = sorted(repo.glob("claims/*/dimension-*.yaml"))
    changed = records[len(records) // 2].relative_to(repo).as_posix()
    edit = partial(edit_one_record, repo)
    t = measure({"click": [PY, "-c", "import click"],
                 "floor": [PY, "-c", "import click, yaml, pydantic"],
                 "hook": ([str(pre_commit), "run", "--files", changed], repo, env, edit),
                 "validate": ([*SCORECARD, "validate"], repo, None, edit)}, runs)
    print("| **pre-commit hook, 200 dimensions, one file changed** | | | | |")
    print(row("python -c 'import click'", t["click"]))
    print(row("pre-commit run (scorecard-validate)", t["hook"], t["click"], "import click"))
    print(row("scorecard validate alone", t["validate"], t["click"], "import click"))
    print(row("python -c 'import click, yaml, pydantic'", t["floor"]))
    print(row("  scorecard validate alone vs it", t["validate"], t["floor"], "import click, yaml, pydantic"))


def history_benchmark(work: Path, runs: int, dims: int = 200, commits: int = 300) -> None:
    """`build --history` over a synthetic history against a plain build of the same ledger, same run."""
    repo = work / "history-repo"
    make_history.make(dims, commits, repo)
    t = measure({"plain": [*SCORECARD, "build", "--root", str(repo), "--out", str(work / "hist-plain")],
                 "history": [*SCORECARD, "build", "--history", "--root", str(repo), "--out", str(work / "hist-site")],
                 "one": [*SCORECARD, "history", "dimension-00001", "--root", str(repo)]}, runs)
    print(f"| **history: {dims} dimensions, {commits} commits** | | | | |")
    print(row("scorecard build", t["plain"]))
    print(row("scorecard build --history", t["history"], t["plain"], "plain build"))
    print(row("scorecard history ID", t["one"], t["plain"], "plain build"))


_EDITS = itertools.count(1)


def edit_one_record(ledger: Path) -> None:
    """Change the claim of one record in the middle of the ledger, as a contributor does between two builds."""
    records = sorted(ledger.glob("claims/*/dimension-*.yaml"))
    record = records[len(records) // 2]
    lines = record.read_text().splitlines(keepends=True)
    record.write_text("".join(f"claim: Edited {next(_EDITS)} times.\n" if line.startswith("claim:") else line
                              for line in lines))


def size_benchmark(work: Path, n: int, runs: int, peers: Path | None, skip: set[str],
                   forms: bool = False, shapes: bool = False) -> dict[str, Timing]:
    """Everything on a synthetic ledger of n dimensions, interleaved round by round.

    With forms, a second ledger whose measured records use the measurement forms (runs through
    JSONPath in another unit, entries by name, derived values) is validated in the same rounds.
    With shapes, the ledger's measured records take the example ledger's shapes (make_ledger.py
    --example-shapes: runs in hyperfine's format, placeholders, a formula, a reproduced bar).
    """
    if shapes:  # its own folders (ledger, sites, peers)
        work = work / "shapes"
        work.mkdir(exist_ok=True)
    ledger = work / f"ledger-{n}"
    make_ledger.make(n, ledger, shapes=shapes)
    cmds: dict[str, list[str] | tuple] = {
        "floor": [PY, str(HERE / "parse_floor.py"), str(ledger)],
        "validate": [*SCORECARD, "validate", "--no-cache", "--root", str(ledger)],
        "build": [*SCORECARD, "build", "--no-cache", "--root", str(ledger), "--out", str(work / f"site-{n}")],
    }
    # A warm build: the cache made by two builds beforehand, then one record changed before each run.
    warm = [*SCORECARD, "build", "--root", str(ledger), "--out", str(work / f"warm-{n}")]
    for _ in range(2):
        subprocess.run(warm, check=True, capture_output=True)
    cmds["warm"] = (warm, None, None, partial(edit_one_record, ledger))
    cmds["warm-validate"] = ([*SCORECARD, "validate", "--root", str(ledger)], None, None,
                             partial(edit_one_record, ledger))
    # The I/O floor writes the files of a site built beforehand from the same ledger.
    subprocess.run([*SCORECARD, "build", "--root", str(ledger), "--out", str(work / f"ref-{n}")], check=True,
                   capture_output=True)
    cmds["io"] = [PY, str(HERE / "io_floor.py"), str(ledger), str(work / f"ref-{n}"), str(work / f"io-{n}")]
    if forms:
        make_ledger.make(n, work / f"forms-{n}", forms=True)
        cmds["forms-floor"] = [PY, str(HERE / "parse_floor.py"), str(work / f"forms-{n}")]
        cmds["forms"] = [*SCORECARD, "validate", "--root", str(work / f"forms-{n}")]
    cmds.update(peer_commands(work, n, ledger, peers, skip))
    t = measure(cmds, runs)
    print_size(n, t, shapes)
    for name in ("ref", "io", "site", "warm"):
        shutil.rmtree(work / f"{name}-{n}", ignore_errors=True)
    shutil.rmtree(ledger, ignore_errors=True)
    return t


def peer_commands(work: Path, n: int, ledger: Path, peers: Path | None, skip: set[str]) -> dict:
    """The peers' commands on the same content (Hugo from the system; the rest from bench/.work/peers)."""
    cmds: dict[str, list[str] | tuple] = {}
    hugo_cmd = hugo() if "hugo" not in skip else None
    if hugo_cmd:
        site = hugo_site(ledger, work / f"hugo-{n}")
        cmds["hugo"] = [hugo_cmd, "--quiet", "-s", str(site), "-d", str(work / f"hugo-out-{n}")]
    elif "hugo" not in skip:
        print(f"(hugo is not installed and could not be: the Hugo comparison at {n} is left out)")
    if peers and "mkdocs" not in skip:
        project = mkdocs_project(ledger, work / f"mkdocs-{n}")
        cmds["mkdocs"] = ([str(peers / "bin/mkdocs"), "build", "-q", "-d", str(work / f"mk-site-{n}")], project, None)
    if peers and "check-jsonschema" not in skip:
        # 20,000 paths do not fit on one command line: xargs runs as many batches as the system's limit needs.
        listing = work / f"cj-files-{n}"
        listing.write_bytes(b"\0".join(os.fsencode(p) for p in sorted(ledger.glob("claims/*/dimension-*.yaml"))))
        cmds["cj"] = ["xargs", "-0", "-a", str(listing), str(peers / "bin/check-jsonschema"), "--schemafile",
                      str(REPO / "schema/dimension.schema.json")]
    if peers and "doorstop" not in skip:
        tree = doorstop_tree(ledger, work / f"doorstop-{n}")
        cmds["doorstop"] = ([str(peers / "bin/doorstop")], tree, None)
        cmds["publish"] = ([str(peers / "bin/doorstop"), "publish", "all", str(work / f"ds-site-{n}")], tree, None)
    return cmds


PEER_ROWS = (  # (key, its row, the scorecard command compared with it, the comparison's row, the ratio's label)
    ("hugo", "hugo (same content, data files, a card per dimension)", "build", "  scorecard build vs hugo", "hugo"),
    ("mkdocs", "mkdocs build (same content)", "build", "  scorecard build vs mkdocs", "mkdocs build"),
    ("cj", "check-jsonschema (schema only)", "validate", "  scorecard validate vs check-jsonschema",
     "check-jsonschema"),
    ("doorstop", "doorstop (validation)", "validate", "  scorecard validate vs doorstop", "doorstop"),
    ("publish", "doorstop publish all", "build", "  scorecard build vs doorstop publish", "doorstop publish"),
)


def print_size(n: int, t: dict[str, Timing], shapes: bool = False) -> None:
    print(f"| **{n} dimensions{', the example ledger' + chr(39) + 's shapes' if shapes else ''}** | | | | |")
    print(row("parse floor (libyaml + json)", t["floor"]))
    print(row("scorecard validate --no-cache", t["validate"], t["floor"], "parse floor"))
    print(row("scorecard validate, one record changed", t["warm-validate"], t["validate"], "validate --no-cache"))
    print(row("  warm validate vs the parse floor", t["warm-validate"], t["floor"], "parse floor"))
    print(row("scorecard build --no-cache", t["build"], t["floor"], "parse floor"))
    print(row("scorecard build, one record changed", t["warm"], t["build"], "build --no-cache"))
    print(row("I/O floor (read inputs, write the site)", t["io"]))
    print(row("  scorecard build vs the I/O floor", t["build"], t["io"], "I/O floor"))
    if "forms" in t:
        print(row("scorecard validate, measurement forms", t["forms"], t["forms-floor"], "its parse floor"))
        print(row("  forms vs plain validate", t["forms"], t["validate"], "plain validate"))
    for key, name, ours, versus, label in PEER_ROWS:
        if key in t:
            print(row(name, t[key]))
            print(row(versus, t[ours], t[key], label))
    if "hugo" in t:  # issue 46's goal: a warm build at half the compiled peer's time
        print(row("  scorecard build, one record changed, vs hugo", t["warm"], t["hugo"], "hugo"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="200,2000,20000")
    ap.add_argument("--runs", type=int, default=5, help="rounds per size (at most 3 at 20,000 and above)")
    ap.add_argument("--peers", action="store_true",
                    help="also time mkdocs, doorstop, check-jsonschema in bench/.work/peers (installed on first use)")
    ap.add_argument("--skip", default="", metavar="PEERS",
                    help="peers not to time, comma-separated: hugo, mkdocs, check-jsonschema, doorstop")
    ap.add_argument("--hook", action="store_true", help="also time the pre-commit hook on a 200-dimension ledger")
    ap.add_argument("--forms", action="store_true",
                    help="also validate, in the same rounds, a ledger whose records use the measurement forms")
    ap.add_argument("--shapes", action="store_true",
                    help="also run each size on a ledger in the example ledger's shapes "
                         "(make_ledger.py --example-shapes)")
    ap.add_argument("--history", action="store_true",
                    help="also time build --history over a 300-commit history of a 200-dimension ledger")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    work = Path(tempfile.mkdtemp(prefix="scorecard-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(work / "cache")  # every command's caches in the run's own folder
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
    print("| command | wall (median) | peak RSS, largest process | peak, all processes (PSS) | "
          "ratio (median of same-round ratios) |\n| --- | --- | --- | --- | --- |")
    t = measure({"click": [PY, "-c", "import click"], "help": [*SCORECARD, "--help"]}, max(args.runs, 5))
    print(row("python -c 'import click'", t["click"]))
    print(row("scorecard --help", t["help"], t["click"], "import click"))
    try:
        _run(args, sizes, work, peers)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(args: argparse.Namespace, sizes: list[int], work: Path, peers: Path | None) -> None:
    per_dim = {}
    for n in sizes:
        timed = size_benchmark(work, n, args.runs if n < 20000 else min(args.runs, 3), peers,
                               set(filter(None, args.skip.split(","))), args.forms)
        per_dim[n] = (timed["validate"].wall / n, timed["build"].wall / n)
        if args.shapes:
            size_benchmark(work, n, args.runs if n < 20000 else min(args.runs, 3), peers,
                           set(filter(None, args.skip.split(","))), shapes=True)
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


if __name__ == "__main__":
    main()
