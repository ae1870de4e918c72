"""Make a synthetic ledger of N dimensions: realistic prose, every status, evidence and traces.

    python bench/make_ledger.py N DIR [--forms | --example-shapes]
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


def make(n: int, root: Path, seed: int = 7, forms: bool = False, shapes: bool = False) -> None:
    """Write the ledger; deterministic for a given n and seed.

    With forms, measured records take turns at the measurement forms: a pointer, every run
    through a JSONPath query in another unit (req/min against a bar in req/s), an entry found
    by name, and a value derived from two inputs. With shapes, they take turns at the example
    ledger's shapes (issue 46): a pointer with a claim of placeholders, runs in hyperfine's
    format, a formula over two inputs, and a bar we reproduced with hyperfine beside our runs.
    """
    rng = random.Random(seed)
    (root / "claims").mkdir(parents=True, exist_ok=True)
    (root / "evidence").mkdir(exist_ok=True)
    (root / "scorecard.yaml").write_text("title: Synthetic scorecard\nsubject: oursys\nstale_after_months: 120\n"
                                         "description: A synthetic ledger for benchmarks.\n")
    (root / "CLAIMS.md").write_text("# Claims\n\n" + prose(rng, 20) + "\n")
    artifacts: dict[int, dict] = {}
    tools: dict[int, dict] = {}
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
        form = (i // len(STATUSES)) % 4 if forms or shapes else 0
        if shapes and status in ("leads", "parity", "trails"):
            sota, claim, result = _shape(form, i, key, bar, factor, art, evidence,
                                         tools.setdefault(art_no, {"results": []}))
            at = lines.index(f"  value: {bar}")
            lines[at:at + 3] = sota
            if claim:
                lines[-1] = claim
            lines += result
        else:
            lines += _form(form, status, key, value, p50, art, evidence)
        lines += ["note: >-", f"  {prose(rng, 2)}",
                  "trace:", "  - CLAIMS.md", f"  - evidence/run-{art_no:05d}.json#/runs/{key}/samples/1",
                  f"  - https://example.org/trace/{i}", "  - {path: CLAIMS.md, label: the claims register}"]
        (folder / f"dimension-{i:05d}.yaml").write_text("\n".join(lines) + "\n")
    for art_no, data in artifacts.items():
        (root / "evidence" / f"run-{art_no:05d}.json").write_text(json.dumps(data, indent=1))
    for art_no, data in tools.items():
        if data["results"]:
            (root / "evidence" / f"hyperfine-{art_no:05d}.json").write_text(json.dumps(data, indent=1))


def _form(form: int, status: str, key: str, value: float, p50: float, art: dict, evidence: str) -> list[str]:
    """A record's result in one of the measurement forms (see make), its numbers added to the artifact art."""
    measured = status in ("leads", "parity", "trails")
    if status == "simulated":  # a model's output, not runs (SC326)
        art.setdefault("model", {})[key] = p50
        return ["result:", f"  evidence: {evidence}", f"  pointer: /model/{key}", "  unit: req/s"]
    if measured and form == 0:
        return ["result:", f"  evidence: {evidence}", f"  pointer: /runs/{key}/p50", "  unit: req/s"]
    if measured and form == 1:  # runs are a measurement: never simulated (SC326)
        art["runs"][key]["per_min"] = [round(value * 60 * (1 + (k - 4.5) / 1000), 3) for k in range(10)]
        return ["result:", f"  evidence: {evidence}", f"  path: $.runs['{key}'].per_min", "  unit: req/min"]
    if measured and form == 2:
        art["entries"].append({"name": key, "stats": {"median": value}})
        return ["result:", f"  evidence: {evidence}", f"  path: \"$.entries[?@.name == '{key}'].stats.median\"",
                "  unit: req/s"]
    if measured:
        art["runs"][key].update(total=round(value * 100, 3), seconds=100)
        return ["result:", "  unit: req/s", "  expr: total / seconds", "  inputs:",
                f"    total: {{evidence: {evidence}, pointer: /runs/{key}/total, unit: req}}",
                f"    seconds: {{evidence: {evidence}, pointer: /runs/{key}/seconds, unit: s}}"]
    return []


def _times(seconds: float) -> list[float]:
    """Twelve hyperfine runs around seconds, spread by ±0.3 %."""
    return [round(seconds * (1 + (k - 5.5) / 1800), 7) for k in range(12)]


def _shape(form: int, i: int, key: str, bar: float, factor: float, art: dict, evidence: str,
           tool: dict) -> tuple[list[str], str, list[str]]:
    """A measured record in one of the example ledger's shapes (see make): the sota lines in place of the typed
    bar's value, unit and better; a claim in place of the prose one ('' to keep it); the result's lines."""
    typed = [f"  value: {bar}", "  unit: req/s", "  better: higher"]
    if form == 0:  # a pointer; the claim's numbers from placeholders
        return typed, "claim: ${value} against ${bar}, ${gap}", [
            "result:", f"  evidence: {evidence}", f"  pointer: /runs/{key}/p50", "  unit: req/s"]
    if form == 2:  # a formula over two inputs
        art["runs"][key].update(total=round(bar * factor * 100, 3), seconds=100)
        return typed, "", ["result:", "  unit: req/s", "  expr: total / seconds", "  inputs:",
                           f"    total: {{evidence: {evidence}, pointer: /runs/{key}/total, unit: req}}",
                           f"    seconds: {{evidence: {evidence}, pointer: /runs/{key}/seconds, unit: s}}"]
    hyperfine = evidence.replace("/run-", "/hyperfine-")
    ours, bar_ms = f"oursys --task {i}", bar / 10
    tool["results"].append({"command": ours, "times": _times(bar_ms / 1000 / factor)})
    result = ["result:", f"  evidence: {hyperfine}", "  format: hyperfine", f"  benchmark: {ours}", "  stat: median",
              "display_unit: ms"]
    if form == 1:  # runs in a tool's format against a typed bar in ms
        return [f"  value: {bar_ms}", "  unit: ms", "  better: lower"], "", result
    rival = f"rival --task {i}"  # a bar we reproduced: the rival's runs beside ours, same tool, same host
    tool["results"].append({"command": rival, "times": _times(bar_ms / 1000)})
    return ["  kind: reproduced", "  better: lower", "  result:", f"    evidence: {hyperfine}", "    format: hyperfine",
            f"    benchmark: {rival}", "    stat: median"], "", result


if __name__ == "__main__":
    make(int(sys.argv[1]), Path(sys.argv[2]), forms="--forms" in sys.argv[3:],
         shapes="--example-shapes" in sys.argv[3:])
