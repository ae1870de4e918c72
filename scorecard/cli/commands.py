"""The command line: each command parses options, calls one function, sets the exit status.

Lazy imports: each command's own modules (and pydantic, jinja2, markdown-it through them) are imported inside
the command, so `scorecard --help` and the click start-up load none of them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .. import DISTRIBUTION, __version__
from .report import FORMATS
from ..core.statuses import MEASURED, STATUSES
from ..core.toolnames import TOOL_FORMATS as FORMAT_NAMES

EXIT_FINDINGS = 1
EXIT_USAGE = 2


def _echo(text: str = "", nl: bool = True, err: bool = False, json: bool = False) -> None:
    """click.echo with the ledger's control characters escaped (JSON output: as \\u escapes)."""
    from ..core.textsafe import printable
    from .report import json_safe

    click.echo(json_safe(text) if json else printable(text), nl=nl, err=err)


def _root(option: str | None) -> Path:
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
strict_option = click.option("--strict", is_flag=True, help="Fail on warnings too.")
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
            _echo(f"scorecard: internal error: {type(exc).__name__}: {exc}\n"
                  "This is a bug in scorecard, not in your ledger; rerun with SCORECARD_DEBUG=1 for details.",
                  err=True)
            sys.exit(3)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="scorecard",
                      message=f"%(prog)s %(version)s (pip install {DISTRIBUTION}=={__version__})")
def main() -> None:
    """scorecard: a claims ledger and the static site that publishes it."""


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
    result, _ = pipeline.validate(ledger_root, warm=not no_cache)
    prefix = _cwd_prefix(ledger_root)
    click.echo(report.render(fmt, result.findings, result.dimension_count, style=click.style, prefix=prefix,
                             version=__version__), nl=False)
    sys.exit(EXIT_FINDINGS if pipeline.fails(result, strict) else 0)


def _cwd_prefix(root: Path) -> str:
    """The ledger root relative to the current folder, for annotation paths (empty if it is here)."""
    try:
        rel = root.relative_to(Path.cwd().resolve())
    except ValueError:
        return ""
    return "" if str(rel) == "." else rel.as_posix() + "/"


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


_CACHE_KINDS = (("builds-", "the warm cache of {n} ledger{s}"), ("templates-", "compiled templates"))


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
@click.option("--out", default=None, metavar="DIR", help="Write <kind>.schema.json files into DIR instead of printing.")
@click.argument("kind", required=False, type=click.Choice(["scorecard", "category", "dimension"]))
def schema(out: str | None, kind: str | None) -> None:
    """Print the JSON Schema (draft-07) of a record kind, or write all of them with --out."""
    import json

    from ..ledger.model import MODELS, json_schema

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
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--subject", default="oursys", show_default=True, help="The system being scored.")
@click.option("--title", default="Our scorecard", show_default=True, help="The scorecard's title.")
@click.option("--ci", type=click.Choice(["github", "none"]), default="github", show_default=True,
              help="github: also write .github/workflows/scorecard.yml (validate pull requests, publish the site "
                   "to GitHub Pages); none: no workflow.")
def init(folder: Path, subject: str, title: str, ci: str) -> None:
    """Create a new ledger in FOLDER that validates and builds as it stands, with its pre-commit hook and (unless
    --ci none) a GitHub workflow that installs this same scorecard."""
    from .scaffold import init as make

    written, note = make(folder, subject=subject, title=title, ci=ci)
    for rel in written:
        _echo(f"created {folder / rel}")
    if note:
        _echo(f"check: {note}")
    _echo(f"next: cd {folder} && scorecard validate && scorecard build")


@main.command()
@root_option
@click.argument("target", metavar="CATEGORY/ID")
@click.option("--status", type=click.Choice(STATUSES),
              default="no-claim", show_default=True, help="The new dimension's status.")
@click.option("--title", default=None, help="The dimension's title (default: from the id).")
@click.option("--category-title", default=None, help="A new category's title (default: from its slug).")
@click.option("--evidence", default=None, metavar="FILE", help="The artifact under evidence/ the result reads; a "
              "tool's output (found by its keys) is read in the tool's own words (format:).")
@click.option("--format", "fmt", type=click.Choice(list(FORMAT_NAMES)), default=None,
              help="The tool that wrote --evidence (default: recognised by its keys).")
@click.option("--benchmark", default=None, help="The tool's name for the entry in --evidence (default: the first).")
def new(root: str | None, target: str, status: str, title: str | None, category_title: str | None,
        evidence: str | None, fmt: str | None, benchmark: str | None) -> None:
    """Create claims/CATEGORY/ID.yaml with every field commented (never overwrites)."""
    from .scaffold import new as make

    ledger_root = _root(root)
    written = make(ledger_root, target, status, title=title, category_title=category_title, evidence=evidence,
                   fmt=fmt, benchmark=benchmark)
    for rel in written:
        _echo(f"created {rel}")
    if status in MEASURED:
        _echo("next: set sota to the bar and the claim in words" if evidence else
              "next: commit the evidence file the record's result names, and point result.pointer at the number")


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
    for s in outcome.stamped:
        _echo(f"{verb} {s.id} ({s.file}): {s.new}" + (f", was {s.old}" if s.old else ", first review"))
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
            import difflib

            near = difflib.get_close_matches(dim_id, sorted(walked.dimensions), n=3, cutoff=0.6)
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
