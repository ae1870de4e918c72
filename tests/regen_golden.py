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


def build_golden(dest: Path) -> None:
    """Build the base fixture ledger into dest, as the golden test does."""
    from scorecard.cli import pipeline

    os.environ["SOURCE_DATE_EPOCH"] = GOLDEN_EPOCH
    outcome = pipeline.build(TESTS / "ledgers" / "base", dest)
    if outcome.refused:
        raise SystemExit("the base fixture ledger has errors")


if __name__ == "__main__":
    target = TESTS / "golden" / "base"
    if target.exists():
        shutil.rmtree(target)
    build_golden(target)
    print(f"wrote {sum(1 for p in target.rglob('*') if p.is_file())} files to {target.relative_to(TESTS.parent)}")
