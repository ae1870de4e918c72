"""Regenerate the golden site: `.venv/bin/python tests/regen_golden.py`, then review `git diff tests/golden`.

The golden test never rewrites these files itself.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS.parent))
GOLDEN_EPOCH = "1781481600"  # the tests' fixed date, 2026-06-15


# golden site -> the fixture ledger it is built from: the base ledger, and one whose two sides state conditions
LEDGERS = {"base": TESTS / "ledgers" / "base", "conditions": TESTS / "ledgers" / "good" / "conditions"}


def build_golden(dest: Path, name: str = "base") -> None:
    """Build a golden site's fixture ledger into dest, as the golden test does."""
    from scorecard.cli import pipeline

    os.environ["SOURCE_DATE_EPOCH"] = GOLDEN_EPOCH
    outcome = pipeline.build(LEDGERS[name], dest)
    if outcome.refused:
        raise SystemExit(f"the {name} fixture ledger has errors")


if __name__ == "__main__":
    for name in LEDGERS:
        target = TESTS / "golden" / name
        if target.exists():
            shutil.rmtree(target)
        build_golden(target, name)
        print(f"wrote {sum(1 for p in target.rglob('*') if p.is_file())} files to {target.relative_to(TESTS.parent)}")
