"""The commands that write the ledger's own files: init, new, review (its stamps) and schema.

Lazy imports: each command's own modules are imported inside it, so `scorecard --help` loads none of them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..core.statuses import MEASURED, STATUSES
from ..core.toolnames import TOOL_FORMATS as FORMAT_NAMES
from .group import EXIT_FINDINGS, main, root_option
from .group import echo as _echo
from .group import root_of as _root


@main.command()
@click.option("--out", default=None, metavar="DIR", help="Write <kind>.schema.json files into DIR instead of printing.")
@click.argument("kind", required=False, type=click.Choice(["scorecard", "category", "dimension"]))
def schema(out: str | None, kind: str | None) -> None:
    """Print the JSON Schema (draft-07) of a record kind, or write all of them with --out."""
    import json

    from ..ledger.schemadef import MODELS, json_schema

    if out is None:
        _echo(json.dumps(json_schema(kind or "dimension"), indent=2, sort_keys=True))
        return
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    for name in sorted(MODELS):
        (folder / f"{name}.schema.json").write_text(json.dumps(json_schema(name), indent=2, sort_keys=True) + "\n",
                                                    encoding="utf-8")
    _echo(f"wrote {len(MODELS)} schemas to {folder}")


@main.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path), default=".")
@click.option("--subject", default="oursys", show_default=True, help="The system being scored.")
@click.option("--title", default="Our scorecard", show_default=True, help="The scorecard's title.")
@click.option("--ci", type=click.Choice(["github", "none"]), default="github", show_default=True,
              help="github: also write a GitHub workflow (validate pull requests; publish the site to GitHub Pages "
                   "unless the repository publishes Pages already); none: no workflow.")
@click.option("--workflow-name", default=None, metavar="NAME",
              help="The workflow's file name under .github/workflows/ (default: scorecard-ledger.yml); one per "
                   "ledger where a repository holds several.")
@click.option("--example", is_flag=True, help="Also write two example dimensions and their artifact (example text "
              "validate warns of, and --strict refuses, until it is replaced).")
@click.option("--dry-run", is_flag=True, help="Say what would be created and changed; write nothing.")
def init(folder: Path, subject: str, title: str, ci: str, workflow_name: str | None, example: bool,
         dry_run: bool) -> None:
    """Create a new ledger in FOLDER (default: here) that validates and builds as it stands, with its pre-commit
    hook and (unless --ci none) a GitHub workflow that installs this same scorecard. In a git repository both go to
    its top, set to the ledger's folder. A .gitignore or .pre-commit-config.yaml there already is added to, never
    replaced."""
    from .scaffold import init as make

    said: list[str] = []
    made = make(folder, subject=subject, title=title, ci=ci, example=example, dry_run=dry_run, said=said,
                workflow_name=workflow_name)
    for rel in made.written:
        _echo(f"{'would create' if dry_run else 'created'} {_shown(made.top / rel)}")
    for line in said:
        _echo(f"would change {line}" if dry_run and not line.startswith(("left ", "note: ")) else line)
    if made.note:
        _echo(f"check: {made.note}")
    if dry_run:
        return
    _echo(f"next: cd {_shown(folder)} && scorecard validate && scorecard build" if example else
          f"next: cd {_shown(folder)} && scorecard new performance/<id> (one record per dimension; CATEGORY/ID names "
          "it), then scorecard validate")


def _shown(path: Path) -> str:
    """A path as the user reaches it from here: relative where it is below the working folder."""
    try:
        return os.path.relpath(path) if Path(path).absolute().is_relative_to(Path.cwd()) else str(path)
    except (ValueError, OSError):  # another drive; a working folder deleted meanwhile
        return str(path)


@main.command()
@root_option
@click.argument("target", metavar="CATEGORY/ID")
@click.option("--status", type=click.Choice(STATUSES), default=None,
              help="The new dimension's status (default: with --evidence and --bar, the one the evidence gives; "
                   "with --evidence alone, inconclusive; else no-claim).")
@click.option("--title", default=None, help="The dimension's title (default: from the id).")
@click.option("--category-title", default=None, help="A new category's title (default: from its slug).")
@click.option("--evidence", default=None, metavar="FILE", help="The artifact under evidence/ the result reads; a "
              "tool's output (found by its keys) is read in the tool's own words (format:).")
@click.option("--format", "fmt", type=click.Choice(list(FORMAT_NAMES)), default=None,
              help="The tool that wrote --evidence (default: recognised by its keys).")
@click.option("--benchmark", default=None, help="The tool's name for the entry in --evidence (default: the first).")
@click.option("--metric", default=None, help="A serving benchmark's metric: ttft (default), tpot, itl, e2el or a "
              "throughput such as output_throughput.")
@click.option("--bar", default=None, metavar="'NUMBER UNIT'",
              help="The bar's number and unit, e.g. '900 ms': written with which way is better, and the status the "
                   "evidence gives against it (without it, value: is left REQUIRED).")
def new(root: str | None, target: str, status: str | None, title: str | None, category_title: str | None,
        evidence: str | None, fmt: str | None, benchmark: str | None, metric: str | None, bar: str | None) -> None:
    """Create claims/CATEGORY/ID.yaml with every field commented (never overwrites)."""
    from .scaffold import new as make

    ledger_root = _root(root)
    written, said = make(ledger_root, target, status, title=title, category_title=category_title,
                         evidence=evidence, fmt=fmt, benchmark=benchmark, metric=metric, bar=bar)
    for rel in written:
        _echo(f"created {rel}")
    if said:
        _echo(f"status: {said}")
    if status in MEASURED or evidence:
        _echo("next: fill in every REQUIRED field, the bar's source and the claim in words; then scorecard validate"
              if evidence else
              "next: commit the evidence file the record's result names, and point result.pointer at the number")


@main.command()
@root_option
@click.argument("ids", nargs=-1, metavar="[ID|FILE]...")
@click.option("--all", "every", is_flag=True, help="Review every dimension of the ledger.")
@click.option("--dry-run", is_flag=True, help="Say what would be stamped; write nothing.")
def review(root: str | None, ids: tuple[str, ...], every: bool, dry_run: bool) -> None:
    """Record that a human checked the claims ID... (or --all): write their reviewed: stamps.

    A dimension is named by its id or by its file (claims/<category>/<id>.yaml). Only the
    `reviewed:` line of each file changes. Nothing is written if any of them has errors.
    """
    from . import report, review

    if bool(ids) == every:
        raise click.UsageError("name the dimensions to review (scorecard review ID...), or pass --all, not both")
    ledger_root = _root(root)
    outcome = review.review(ledger_root, [review.dimension_id(ledger_root, i) for i in ids], every, dry_run)
    if outcome.blocking:
        click.echo(report.text(outcome.blocking, outcome.checked.dimension_count, style=click.style),
                   nl=False, err=True)
        _echo("review refused: fix the errors above first; no file was changed", err=True)
        sys.exit(EXIT_FINDINGS)
    if outcome.refusal:
        _echo(f"review refused: {outcome.refusal}; no file was changed", err=True)
        sys.exit(EXIT_FINDINGS)
    verb = "would stamp" if dry_run else "reviewed"
    detail = len(outcome.stamped) == 1 and not every  # one dimension named: what the stamp covers, line by line
    for s in outcome.stamped:
        head = f"{verb} {s.id} ({s.file}): {s.new}" + (f", was {s.old}" if s.old else ", first review")
        if not detail:  # one line per dimension
            _echo(head + (f"; changed: {'; '.join(s.changes)}" if s.changes else ""), one_line=True)
            continue
        _echo(head)
        if s.changes:
            _echo("  changed since the last review:")
            _echo("".join(f"    {c}\n" for c in s.changes), nl=False)
        _echo("  the stamp covers:")
        _echo("".join(f"    {c}\n" for c in s.covered), nl=False)
    if outcome.current:
        _echo(f"already current: {', '.join(outcome.current)}")
    done = len(outcome.stamped)
    _echo(f"{'would stamp' if dry_run else 'stamped'} {done} dimension{'s' if done != 1 else ''}"
               f"{', ' + str(len(outcome.current)) + ' already current' if outcome.current else ''}")
