"""The figures docs/security.md states for hostile input (issue 40): run, read, copy into the doc.

    python bench/hostile_figures.py [--serve-dims 2000] [--rebuilds 100] [--records 1000] [--artifact-mb 150]

1. serve's resident memory over REBUILDS rebuilds of a SERVE_DIMS-dimension ledger, one record edited
   between each (after the 10th, the middle one and the last);
2. the time of `validate --no-cache` on RECORDS records whose `path:` runs a backtracking regular
   expression (every query of the run shares one budget);
3. the peak memory (all processes) of `scorecard history` and `build --history` over a history holding
   an ARTIFACT_MB artifact (over the 16 MiB cap, so never read) and twenty 15 MiB versions (under it).
Timings are of this machine; what matters is that each is bounded.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE = HERE.parent / "tests" / "ledgers" / "base"
sys.path.insert(0, str(HERE))
from make_history import _git  # noqa: E402 - git with no user or system config, as every bench history is made


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def serve_memory(work: Path, dims: int, rebuilds: int) -> str:
    """RSS after the 10th, middle and last rebuild of serve's Rebuilder, in this process."""
    from scorecard.cli.serve import Rebuilder

    subprocess.run([sys.executable, str(HERE / "make_ledger.py"), str(dims), str(work / "ledger")], check=True,
                   capture_output=True)
    rebuilder = Rebuilder(work / "ledger", work / "out", echo=lambda _: None)
    record = sorted((work / "ledger/claims").rglob("*.yaml"))[3]
    text = record.read_text()
    sizes = []
    for i in range(rebuilds):
        record.write_text(text.replace("title:", f"title: v{i}", 1) if i % 2 else text)
        rebuilder.rebuild()
        assert rebuilder.broken_text is None
        gc.collect()
        sizes.append(_rss_mb())
    marks = sorted({min(9, rebuilds - 1), rebuilds // 2 - 1, rebuilds - 1})
    return "serve RSS: " + ", ".join(f"after rebuild {i + 1}: {sizes[i]:.0f} MB" for i in marks)


# Runs scorecard, then prints its own peak RSS and its largest child's (git), in kB, as the last line of stderr.
# (scorecard ends with os._exit, so the report is made there.)
_MEASURED = ("import os, resource, runpy, sys\n"
             "real = os._exit\n"
             "def report(code):\n"
             "    print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,"
             " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr, flush=True)\n"
             "    real(code)\n"
             "os._exit = report\n"
             "sys.argv = ['scorecard', *sys.argv[1:]]\n"
             "runpy.run_module('scorecard', run_name='__main__')\n")


def _scorecard(*args: str, env: dict | None = None) -> tuple[float, tuple[float, float], subprocess.CompletedProcess]:
    """(seconds, (peak RSS in MB of scorecard, of its largest child), the process)."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _MEASURED, *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})
    seconds = time.perf_counter() - start
    own, child = (int(x) for x in proc.stderr.strip().splitlines()[-1].split()[1:3])
    return seconds, (own / 1024, child / 1024), proc


def hostile_queries(work: Path, records: int) -> str:
    root = work / "queries"
    shutil.copytree(BASE, root)
    (root / "evidence/names.json").write_text(json.dumps({"runs": [{"name": "x" * 3000, "rps": 12}]}))
    alpha = (root / "claims/core/alpha.yaml").read_text()
    hostile = alpha.replace("  evidence: evidence/run.json\n  pointer: /runs/0/rps\n",
                            "  evidence: evidence/names.json\n  path: $.runs[?search(@.name, '(x+x+)+y')].rps\n")
    assert hostile != alpha
    for i in range(records):
        (root / f"claims/core/q{i:04d}.yaml").write_text(hostile.replace("Alpha throughput", f"Query {i}"))
    seconds, _, proc = _scorecard("validate", "--no-cache", "--root", str(root))
    assert proc.returncode == 1 and "SC311" in proc.stdout, proc.stdout[-2000:]
    return f"validate --no-cache of {records} hostile path: records: {seconds:.1f} s, exit {proc.returncode}"


def make_large_history(root: Path, artifact_mb: int) -> None:
    """The base ledger in git: an ARTIFACT_MB run.json, twenty 15 MiB versions, then a small one."""
    shutil.copytree(BASE, root)
    run = root / "evidence/run.json"
    data = json.loads(run.read_text())
    _git(root, "init", "-q")
    data["padding"] = "p" * (artifact_mb * 1024 * 1024)
    run.write_text(json.dumps(data))
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "a large artifact")
    for i in range(20):  # versions under the cap: parsed one at a time
        data["padding"] = chr(ord("a") + i) * (15 * 1024 * 1024)
        run.write_text(json.dumps(data))
        _git(root, "commit", "-q", "-am", f"version {i}")
    del data["padding"]
    run.write_text(json.dumps(data))
    _git(root, "commit", "-q", "-am", "small again")


def large_history(work: Path, artifact_mb: int) -> str:
    root = work / "history"
    # Made in a process of its own: a child forked from this one would start with its memory, and Linux keeps
    # that peak across exec, so the figure below would be this script's, not scorecard's.
    subprocess.run([sys.executable, __file__, "--make-history", str(root), "--artifact-mb", str(artifact_mb)],
                   check=True)
    seconds, peak, proc = _scorecard("history", "alpha", "--root", str(root))
    assert proc.returncode == 0, proc.stderr
    built, peak2, proc2 = _scorecard("build", "--history", "--no-cache", "--root", str(root), "--out",
                                     str(work / "site"))
    assert proc2.returncode == 0, proc2.stderr
    return (f"history over a {artifact_mb} MB artifact and twenty 15 MiB versions: {seconds:.1f} s, "
            f"peak RSS {peak[0]:.0f} MB (git {peak[1]:.0f} MB); build --history: {built:.1f} s, "
            f"peak RSS {peak2[0]:.0f} MB (largest child {peak2[1]:.0f} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve-dims", type=int, default=2000)
    parser.add_argument("--rebuilds", type=int, default=100)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--artifact-mb", type=int, default=150)
    parser.add_argument("--only", choices=["serve", "queries", "history"])
    parser.add_argument("--make-history", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make_history:
        make_large_history(args.make_history, args.artifact_mb)
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.only in (None, "history"):
            print(large_history(work, args.artifact_mb), flush=True)
        if args.only in (None, "queries"):
            print(hostile_queries(work, args.records), flush=True)
        if args.only in (None, "serve"):
            print(serve_memory(work, args.serve_dims, args.rebuilds), flush=True)


if __name__ == "__main__":
    main()
