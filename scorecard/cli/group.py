"""The command group and what every command shares: the ledger root, the options, escaped output, exit codes.

The commands are in commands.py (read, build, publish) and authoring.py (write the ledger's files).
Lazy imports: each command's own modules are imported inside it, so `scorecard --help` loads none of them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import DISTRIBUTION, __version__

EXIT_FINDINGS = 1
EXIT_USAGE = 2


def echo(text: str = "", nl: bool = True, err: bool = False, json: bool = False, one_line: bool = False) -> None:
    """click.echo with the ledger's control characters escaped (JSON output: as \\u escapes; one_line: line breaks
    too, so a name cannot start a line of its own)."""
    from ..core.textsafe import printable
    from .report import json_safe

    click.echo(json_safe(text) if json else printable(text, one_line=one_line), nl=nl, err=err)


def root_of(option: str | None) -> Path:
    """The ledger root: --root, or the nearest folder up from here with scorecard.yaml."""
    from ..ledger.load import SETTINGS_FILE, LedgerNotFound, find_root

    if option is None:
        return find_root(Path.cwd())
    root = Path(option)
    settings = root / SETTINGS_FILE
    if not (settings.exists() or settings.is_symlink()):
        raise LedgerNotFound(f"--root {option}: no scorecard.yaml there (error SC001: not a ledger)")
    return root.resolve()


root_option = click.option("--root", "root", metavar="DIR", default=None,
                           help="Ledger root (default: the nearest folder up from here with scorecard.yaml).")
strict_option = click.option("--strict", is_flag=True, help="Fail on warnings too (but not on a stale source or "
                             "stale evidence that time alone made so: committed unchanged since it was fresh).")
no_cache_option = click.option("--no-cache", is_flag=True,
                               help="Parse and render everything afresh: read and write no warm cache.")


class Group(click.Group):
    """A group that turns an unexpected exception into a short message, not a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit, KeyboardInterrupt):
            raise
        except Exception as exc:  # noqa: BLE001 - the last line of defence
            if os.environ.get("SCORECARD_DEBUG"):
                raise
            echo(f"scorecard: internal error: {type(exc).__name__}: {exc}\n"
                  "This is a bug in scorecard, not in your ledger; rerun with SCORECARD_DEBUG=1 for details.",
                  err=True)
            sys.exit(3)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="scorecard",
                      message=f"%(prog)s %(version)s (pip install {DISTRIBUTION}=={__version__})")
def main() -> None:
    """scorecard: a claims ledger and the static site that publishes it."""
