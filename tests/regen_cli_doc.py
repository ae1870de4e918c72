"""Regenerate docs/cli.md from the commands' --help: `.venv/bin/python tests/regen_cli_doc.py`."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

INTRO = """# CLI reference

Generated from `--help` by `tests/regen_cli_doc.py`; `tests/test_docs.py` fails when this page
and the commands disagree. Exit status everywhere: 0 success, 1 findings (or a refused build),
2 usage error (including "not a ledger"), 3 an internal error (a bug: please report it).
"""


def cli_doc() -> str:
    """The CLI reference as Markdown."""
    from click.testing import CliRunner

    from scorecard.cli.commands import main

    runner = CliRunner()
    parts = [INTRO]
    for args in [[], *[[name] for name in sorted(main.commands)]]:
        result = runner.invoke(main, [*args, "--help"], prog_name="scorecard", terminal_width=100)
        title = " ".join(["scorecard", *args])
        parts.append(f"## `{title}`\n\n```text\n{result.output.rstrip()}\n```\n")
    return "\n".join(parts)


if __name__ == "__main__":
    (REPO / "docs" / "cli.md").write_text(cli_doc())
    print("wrote docs/cli.md")
