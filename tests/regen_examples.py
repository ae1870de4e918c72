"""Regenerate the workflows in docs/examples/ that `scorecard init` writes: `.venv/bin/python tests/regen_examples.py`.

tests/test_workflow.py fails when an example and what init writes disagree, and lints every one.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

# file name -> workflow_text's arguments beside the install line (from the package index): a ledger at the
# repository's top, one in a subfolder, and one in a repository that publishes GitHub Pages already.
VARIANTS: dict[str, dict[str, str]] = {
    "scorecard-ledger.yml": {},
    "scorecard-ledger-subfolder.yml": {"ledger": "benchmarks/scorecard"},
    "scorecard-ledger-checks-only.yml": {"ledger": "benchmarks/scorecard",
                                         "pages": ".github/workflows/docs.yml deploys GitHub Pages"},
}


def examples() -> dict[str, str]:
    """Each example's file name and text."""
    from scorecard.cli import workflow

    spec = workflow.install_spec(None)[0]
    return {name: workflow.workflow_text(spec, **args) for name, args in VARIANTS.items()}


if __name__ == "__main__":
    for name, text in examples().items():
        (REPO / "docs" / "examples" / name).write_text(text)
        print(f"wrote docs/examples/{name}")
