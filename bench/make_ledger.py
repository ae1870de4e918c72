"""Make a synthetic ledger of N dimensions: realistic prose, every status, evidence and traces.

    python bench/make_ledger.py N DIR [--forms]
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

STATUSES = ["leads", "parity", "trails", "simulated", "no-claim", "out-of-scope"]
WORDS = ["throughput", "latency", "goodput", "cache", "prefix", "decode", "prefill", "tokens", "request", "batch",
         "scheduler", "kernel", "memory", "bandwidth", "transfer", "attention", "quantization", "utilization", "fleet",
         "workload", "trace", "baseline", "replica", "node", "cluster", "tail", "percentile", "budget", "power",
         "efficiency", "capacity", "router", "speculative"]
PER_CATEGORY = 20
PER_ARTIFACT = 10


def sentence(rng: random.Random, n: int = 14) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    return " ".join(words).capitalize() + "."


def prose(rng: random.Random, sentences: int) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


def make(n: int, root: Path, seed: int = 7, forms: bool = False) -> None:
    """Write the ledger; deterministic for a given n and seed.

    With forms, measured records take turns at the measurement forms: a pointer, every run
    through a JSONPath query in another unit (req/min against a bar in req/s), an entry found
    by name, and a value derived from two inputs.
    """
    rng = random.Random(seed)
    (root / "claims").mkdir(parents=True, exist_ok=True)
    (root / "evidence").mkdir(exist_ok=True)
    (root / "scorecard.yaml").write_text("title: Synthetic scorecard\nsubject: oursys\nstale_after_months: 120\n"
                                         "description: A synthetic ledger for benchmarks.\n")
    (root / "CLAIMS.md").write_text("# Claims\n\n" + prose(rng, 20) + "\n")
    artifacts: dict[int, dict] = {}
    for i in range(n):
        cat = f"category-{i // PER_CATEGORY:04d}"
        folder = root / "claims" / cat
        if not folder.exists():
            folder.mkdir()
            (folder / "_category.yaml").write_text(f"title: Category {i // PER_CATEGORY}\nsummary: {sentence(rng)}\n"
                                                   f"order: {i // PER_CATEGORY}\n")
        status = STATUSES[i % len(STATUSES)]
        art_no = i // PER_ARTIFACT
        art = artifacts.setdefault(art_no, {"meta": {"commit": f"{art_no:07x}", "date": "2026-05-01",
                                                     "machine": "bench"}, "runs": {}, "entries": []})
        bar = round(rng.uniform(10, 1000), 2)
        factor = {"leads": 1.3, "parity": 1.01, "trails": 0.7, "simulated": 1.1}.get(status, 1.0)
        key = f"dim-{i}"
        p50 = round(bar * factor, 3)
        art["runs"][key] = {"samples": [round(bar * factor * 0.9, 3), p50], "p50": p50}
        lines = [
            f"title: {sentence(rng, 8)[:-1]}",
            "why: >-", *(f"  {s}" for s in prose(rng, 3).split(". ")),
            "sota:",
            f"  bar: >-\n    {prose(rng, 2)}",
            f"  value: {bar}", "  unit: req/s", "  better: higher",
            f"  source: https://example.org/paper/{i}", "  date: 2025-06",
            "leaders:", f"  - System {rng.randint(1, 50)} ({rng.randint(2, 90)}% over baseline)",
            f"  - System {rng.randint(51, 99)}",
            f"status: {status}",
            f"claim: {sentence(rng, 9)}",
        ]
        value = round(bar * factor, 3)
        evidence = f"evidence/run-{art_no:05d}.json"
        form = (i // len(STATUSES)) % 4 if forms else 0
        if status == "simulated":  # a model's output, not runs (SC326)
            art.setdefault("model", {})[key] = p50
            lines += ["result:", f"  evidence: {evidence}", f"  pointer: /model/{key}", "  unit: req/s"]
        elif status in ("leads", "parity", "trails") and form == 0:
            lines += ["result:", f"  evidence: {evidence}", f"  pointer: /runs/{key}/p50", "  unit: req/s"]
        elif status in ("leads", "parity", "trails") and form == 1:  # runs are a measurement: never simulated (SC326)
            art["runs"][key]["per_min"] = [round(value * 60 * (1 + (k - 4.5) / 1000), 3) for k in range(10)]
            lines += ["result:", f"  evidence: {evidence}", f"  path: $.runs['{key}'].per_min", "  unit: req/min"]
        elif status in ("leads", "parity", "trails", "simulated") and form == 2:
            art["entries"].append({"name": key, "stats": {"median": value}})
            lines += ["result:", f"  evidence: {evidence}", f"  path: \"$.entries[?@.name == '{key}'].stats.median\"",
                      "  unit: req/s"]
        elif status in ("leads", "parity", "trails", "simulated"):
            art["runs"][key].update(total=round(value * 100, 3), seconds=100)
            lines += ["result:", "  unit: req/s", "  expr: total / seconds", "  inputs:",
                      f"    total: {{evidence: {evidence}, pointer: /runs/{key}/total, unit: req}}",
                      f"    seconds: {{evidence: {evidence}, pointer: /runs/{key}/seconds, unit: s}}"]
        lines += ["note: >-", f"  {prose(rng, 2)}",
                  "trace:", "  - CLAIMS.md", f"  - evidence/run-{art_no:05d}.json#/runs/{key}/samples/1",
                  f"  - https://example.org/trace/{i}", "  - {path: CLAIMS.md, label: the claims register}"]
        (folder / f"dimension-{i:05d}.yaml").write_text("\n".join(lines) + "\n")
    for art_no, data in artifacts.items():
        (root / "evidence" / f"run-{art_no:05d}.json").write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    make(int(sys.argv[1]), Path(sys.argv[2]), forms="--forms" in sys.argv[3:])
