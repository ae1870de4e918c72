"""The commands that read, build and publish the ledger: each parses options, calls one function, sets the exit status.

The commands that write the ledger's own files (init, new, review, schema) are in authoring.py, registered here.
Lazy imports: each command's own modules (and pydantic, jinja2, markdown-it through them) are imported inside
the command, so `scorecard --help` and the click start-up load none of them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import __version__
from . import authoring  # noqa: F401 - registers init, new, review and schema on main
from .formats import FORMATS
from ..core.nearest import close_matches
from ..core.statuses import STATUSES
from .group import EXIT_FINDINGS, EXIT_USAGE, main, no_cache_option, root_option, strict_option
from .group import echo as _echo
from .group import root_of as _root


@main.command()
@root_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True, help="How to print the findings.")
@strict_option
@no_cache_option
def validate(root: str | None, fmt: str, strict: bool, no_cache: bool) -> None:
    """Check the ledger; print every finding. Exit 0 clean, 1 findings, 2 usage error."""
    from . import pipeline, report

    ledger_root = _root(root)
    result, _ = pipeline.validate(ledger_root, warm=not no_cache, findings_only=True)
    prefix = _cwd_prefix(ledger_root, fmt in ("github", "sarif"))
    click.echo(report.render(fmt, result.findings, result.dimension_count, style=click.style, prefix=prefix,
                             version=__version__), nl=False)
    sys.exit(EXIT_FINDINGS if pipeline.fails(result, strict) else 0)


def _cwd_prefix(root: Path, from_workspace: bool = False) -> str:
    """The ledger root relative to the current folder, for annotation paths (empty if it is here). With
    from_workspace, relative to $GITHUB_WORKSPACE where the root is in it: GitHub places an annotation by its path
    from the repository's top, whatever folder the step runs in (a ledger in a subfolder: working-directory)."""
    workspace = os.environ.get("GITHUB_WORKSPACE", "") if from_workspace else ""
    for base in ([Path(workspace)] if workspace else []) + [Path.cwd()]:
        try:
            rel = root.resolve().relative_to(base.resolve())
        except (ValueError, OSError):
            continue
        return "" if str(rel) == "." else rel.as_posix() + "/"
    return ""


@main.command()
@root_option
@click.option("--out", default=None, metavar="DIR", help="Output folder (default: site/ in the ledger root).")
@strict_option
@click.option("--history", is_flag=True,
              help="Also walk the ledger's git history: timelines and charts per dimension, changes.html, feed.xml.")
@no_cache_option
def build(root: str | None, out: str | None, strict: bool, history: bool, no_cache: bool) -> None:
    """Validate, then build the static site (refused if the ledger has errors)."""
    from . import pipeline, report

    ledger_root = _root(root)
    out_dir = Path(out).resolve() if out else ledger_root / "site"
    try:
        outcome = pipeline.build(ledger_root, out_dir, strict=strict, history=history, warm=not no_cache)
    except OSError as exc:  # disk full, a read-only output folder: the previous site is untouched
        _echo(f"scorecard: cannot write the site to {_shown(out_dir)}: {exc.strerror or exc}; "
              "the previous site, if any, is unchanged", err=True)
        sys.exit(EXIT_USAGE)
    checked = outcome.checked
    for note in outcome.notes:
        _echo(f"scorecard: {note}", err=True)
    if outcome.refused:
        click.echo(report.text(checked.findings, checked.dimension_count, style=click.style), nl=False, err=True)
        why = ("fix the errors above first" if checked.errors else
               "--strict fails on warnings too; fix the warnings above, or build without --strict")
        _echo(f"build refused: {why} (the previous site, if any, is unchanged)", err=True)
        sys.exit(EXIT_FINDINGS)
    if checked.findings:
        click.echo(report.text(checked.findings, checked.dimension_count, style=click.style), nl=False, err=True)
    _echo(f"built {outcome.pages} files for {checked.dimension_count} dimensions in {_shown(out_dir)}"
          + outcome.reuse_note())


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


@main.command()
@root_option
@click.option("--out", default=None, metavar="DIR",
              help="Output folder, outside the ledger (default: a temporary folder, removed on exit).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="Port (default 8000, or a free one if 8000 is taken; 0 picks a free one).")
@click.option("--history", is_flag=True, help="Build with the git history, as build --history; a commit rebuilds too.")
@click.option("--allow-host", "allow_host", multiple=True, metavar="NAME",
              help="Also answer requests for this host name (default: 127.0.0.1, localhost and [::1] only).")
@no_cache_option
def serve(root: str | None, out: str | None, host: str, port: int | None, history: bool, allow_host: tuple[str, ...],
          no_cache: bool) -> None:
    """Build and serve the site, rebuilding when the ledger changes."""
    import gc
    import shutil
    import tempfile

    from .serve import serve as run, serve_folder

    gc.enable()  # the launcher keeps the collector off for short commands; a server runs for hours

    ledger_root = _root(root)
    out_dir = serve_folder(ledger_root, out) if out else Path(tempfile.mkdtemp(prefix="scorecard-serve-"))
    try:
        run(ledger_root, out_dir, host, port, echo=lambda text: _echo(text, err=False), history=history,
            warm=not no_cache, allowed_hosts=frozenset(allow_host))
    except OSError as exc:
        raise click.UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    finally:
        if not out:
            shutil.rmtree(out_dir, ignore_errors=True)  # a folder of its own: removed on exit


_CACHE_KINDS = (("builds-", "the warm cache of {n} ledger{s}"), ("templates-", "compiled templates"),
                ("patterns", "compiled patterns"))


@main.command()
@click.option("--clear", is_flag=True, help="Remove the cache folder (always safe: a run is slower, never different).")
def cache(clear: bool) -> None:
    """Show where scorecard keeps its caches and how much they hold, or remove them with --clear."""
    from ..ledger.cache import clear as remove, usage
    from ..core.paths import cache_home

    home = cache_home()
    if home is None:
        raise click.UsageError("no absolute cache folder: set XDG_CACHE_HOME to an absolute path, or HOME")
    found = usage(home)
    total = sum(size for _, _, size in found)
    if clear:
        why = remove(home)
        if why is not None:
            _echo(f"{home} was not removed: {why}", err=True)
            sys.exit(EXIT_FINDINGS)
        _echo(f"removed {home} ({_megabytes(total)})" if found else f"nothing to remove: no cache in {home}")
        return
    if not found:
        _echo(f"no cache in {home}")
        return
    from ..ledger.cache import limit_bytes

    _echo(f"{home}: {_megabytes(total)} (the warm cache is kept within {_megabytes(limit_bytes())}, least recently "
          "used ledgers removed first; set SCORECARD_CACHE_MB to change it)")
    for name, folders, size in found:
        kind = next((what for prefix, what in _CACHE_KINDS if name.startswith(prefix)), "from another version")
        _echo(f"  {name}: {kind.format(n=folders, s='' if folders == 1 else 's')}, {_megabytes(size)}")
    _echo("scorecard cache --clear removes it all; that is always safe (a run is slower, never different).")


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f} MB"


@main.command()
@root_option
@click.argument("rev")
@click.argument("rev2", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.option("--merge-base", "from_merge_base", is_flag=True,
              help="Compare from where REV2 (or HEAD) branched from REV, as a pull request does; "
                   "REV...REV2 means the same.")
@click.option("--max-chars", type=click.IntRange(2000, 1_000_000), default=1_000_000, show_default=True,
              help="With --format markdown: at most this many characters, cut with '… and N more' (65000 for a "
                   "pull-request comment, whose limit is 65,536).")
def diff(root: str | None, rev: str, rev2: str | None, fmt: str, from_merge_base: bool, max_chars: int) -> None:
    """Say what changed in the ledger between REV and REV2 (default: the working tree)."""
    from . import diff as d

    ledger_root = _root(root)
    old, new, changes = d.run(ledger_root, rev, rev2, from_merge_base)
    text = d.as_markdown(old, new, changes, max_chars) if fmt == "markdown" else \
        {"text": d.as_text, "json": d.as_json}[fmt](old, new, changes)
    _echo(text, nl=False, json=fmt == "json")


@main.command()
@root_option
@click.argument("dim_id", metavar="[ID]", required=False)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--limit", type=click.IntRange(min=0), default=20, show_default=True,
              help="Without ID: how many of the newest changes to show (0: all).")
def history(root: str | None, dim_id: str | None, fmt: str, limit: int) -> None:
    """Show how dimension ID's status and value changed over the ledger's git history.

    Without ID, the latest changes to the whole ledger, newest first (as changes.html lists them).
    """
    from ..history import walk as h
    from ..history import timeline

    from ..core.place import LedgerPlace

    ledger_root = _root(root)
    try:
        walked = h.walk(LedgerPlace.at(ledger_root))
    except h.HistoryUnavailable as exc:
        _echo(f"scorecard: {exc}", err=True)
        sys.exit(EXIT_FINDINGS)
    if dim_id is None:
        tell = timeline.ledger_json if fmt == "json" else timeline.ledger_text
        _echo(tell(walked, limit), nl=False, json=fmt == "json")
        return
    found = walked.dimensions.get(dim_id)
    if found is None:
        earlier = [d.id for d in walked.dimensions.values() if dim_id in d.renamed_from]
        if earlier:
            _echo(f"scorecard: '{dim_id}' was renamed; it is now '{earlier[0]}' (showing that)", err=True)
            dim_id, found = earlier[0], walked.dimensions[earlier[0]]
        else:
            near = close_matches(dim_id, sorted(walked.dimensions), n=3, cutoff=0.6)
            raise click.UsageError(f"no dimension '{dim_id}' in the committed history (up to {walked.head.short}); "
                                   + (f"did you mean {', '.join(repr(n) for n in near)}? " if near else "")
                                   + "a dimension that is not committed yet has no history")
    tell_one = timeline.as_json if fmt == "json" else timeline.as_text
    _echo(tell_one(dim_id, found, walked.notes), nl=False, json=fmt == "json")


@main.command()
def rules() -> None:
    """List every rule code with its severity and meaning (details: docs/rules.md)."""
    from ..core.findings import RULES

    for rule in RULES.values():
        _echo(f"{rule.code}  {rule.severity:<7}  {rule.name:<24} {rule.summary}")


if __name__ == "__main__":  # pragma: no cover
    main()


@main.command()
@root_option
@click.option("--format", "fmt", type=click.Choice(["markdown"]), default="markdown", show_default=True,
              help="markdown: the scorecard as a table (status, bar, ours, where we stand), as a README carries it.")
@click.option("--category", "categories", multiple=True, metavar="SLUG", help="Only this category (repeatable).")
@click.option("--status", "statuses", multiple=True, type=click.Choice(STATUSES),
              help="Only dimensions with this status (repeatable).")
@click.option("--readme", type=click.Path(dir_okay=False, path_type=Path), default=None, metavar="FILE",
              help="Replace the block between <!-- scorecard:start --> and <!-- scorecard:end --> in FILE instead of "
                   "printing (exit 1, nothing written, unless each marker is there exactly once).")
@click.option("--check", is_flag=True, help="With --readme: write nothing; exit 1 when the block is not current.")
def export(root: str | None, fmt: str, categories: tuple[str, ...], statuses: tuple[str, ...], readme: Path | None,
           check: bool) -> None:
    """Print the scorecard as a Markdown table, or keep it current in a README's marked block."""
    from . import pipeline, readme as block, report
    from ..site import mdtable
    from ..site.resolve import resolve_ledger

    if check and readme is None:
        raise click.UsageError("--check goes with --readme FILE")
    ledger_root = _root(root)
    result, store = pipeline.validate(ledger_root, warm=True)
    if result.errors:
        click.echo(report.text(result.findings, result.dimension_count, style=click.style), nl=False, err=True)
        _echo("export refused: the ledger has errors; fix them first", err=True)
        sys.exit(EXIT_FINDINGS)
    led = resolve_ledger(result.ledger, store)
    unknown = sorted(set(categories) - {c.slug for c in led.categories})
    if unknown:
        raise click.UsageError(f"no category {', '.join(unknown)} in this ledger")
    table = mdtable.table(led, set(categories) or None, set(statuses) or None) or "No dimension matches.\n"
    if led.settings.base_url is None:
        _echo("note: no Details column: set base_url in scorecard.yaml to link each row to the published site",
              err=True)
    if readme is None:
        _echo(table, nl=False)
        return
    current = block.update(readme, table, check)
    if check:
        _echo(f"{readme}: the scorecard block is {'current' if current else 'stale: run scorecard export --readme'}")
        sys.exit(0 if current else EXIT_FINDINGS)
    _echo(f"{readme}: the scorecard block is {'already current' if current else 'updated'}")
