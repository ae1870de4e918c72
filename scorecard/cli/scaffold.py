"""`scorecard init` and `scorecard new`: ledgers and records that validate as they stand.

Both check every target before writing anything, so a refusal changes nothing.

Lazy imports: the workflow (where init's files install scorecard from) and the measure layer (new --evidence),
where they are used: a plain `new` loads neither.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..ledger.load import CATEGORY_FILE, SETTINGS_FILE, SLUG_RE
from ..ledger.schemadef import MODELS, json_schema
from ..core.statuses import MEASURED, STATUSES


from .hookconfig import precommit_entry, precommit_text
from .newrecord import yaml_text
from .writeall import ScaffoldRefused, short_names, write_all, writable

if TYPE_CHECKING:
    from .newrecord import Detected, TypedBar
    from .workflow import Origin


def _modeline(kind: str, depth: int) -> str:
    return f"# yaml-language-server: $schema={'../' * depth}schema/{kind}.schema.json\n"


SETTINGS = """{modeline}title: {title}                 # required: the scorecard's title
subject: {subject}                          # required: the system being scored
description: >-                              # optional, Markdown
  Each dimension is a thing the field competes on, with where we stand against its best.
stale_after_months: 24                       # optional: a SOTA source older than this warns
parity_tolerance: 0.05                       # optional: |result/bar - 1| within this is parity
# base_url: https://example.org/scorecard/   # optional: canonical links
"""

CATEGORY = """{modeline}title: {title}     # required
# short: {slug}      # optional short name for page titles
summary: what this category covers      # optional, Markdown
order: {order}            # optional: categories sort by (order, slug)
"""

DIMENSION = """{modeline}# One dimension the field competes on. Your editor describes each field from the schema named above;
# `scorecard schema dimension` prints it, and `scorecard rules` lists what validate checks.
title: {title}                       # required: what is measured
why: >-                               # required, Markdown: why the field competes on it
  Say why a buyer or a user cares about this dimension.
sota:                                 # required: the bar to beat
  bar: >-                             # required, Markdown: the bar in words
    Name the best published result, with its number.
  {value_line}
  unit: {unit}                          # the unit of value
  {better_line}
  # stat: median                      # the bar's statistic (median, mean, p99 ...): ours must then be the same
  # kind: claimed                     # claimed (the authors' number) | independent | reproduced (we measured it)
  # result: {{evidence: evidence/rival.json, pointer: /runs}}   # a bar we (or a third party) measured, read like
  #                                   # result: instead of value/unit/stat; its interval counts in the verdict
  source: https://example.org/paper   # required: http(s) URL stating the bar
  date: {date}                         # required: YYYY, YYYY-MM or YYYY-MM-DD
{conditions}leaders:                              # optional: who leads (inline Markdown)
  - System A
status: {status}                      # {statuses}
claim: {claim}          # required: one line, our position in words
# in claim: and note:, ${{value}} ${{bar}} ${{ratio}} ${{gap}} ${{n}} ${{interval}} render from the numbers
{result}note: >-                              # optional, Markdown
  What is and is not measured, and why.
trace:                                # optional: files, file.json#/pointer, or URLs; each must resolve
  - https://example.org/paper
{trace}"""  # noqa: E501 (the file users get, its comments in one column)

RESULT = """result:                               # required for leads, parity, trails, inconclusive, simulated
  evidence: evidence/{evidence}        # a JSON file under evidence/
  pointer: {pointer}            # RFC 6901 pointer to the number, or to an array of runs
  # path: "$.benchmarks[?@.name == 'test_x'].stats.median"   # or an RFC 9535 JSONPath query instead of pointer
  unit: {unit}                          # converted to sota.unit before the honesty check (s, ms, kB, KiB, tok/s, x, %)
  # stat: median                      # for runs: median (default), mean, p99, min or max: the status they give
  # format: hyperfine                 # or read a tool's own output in its words, instead of pointer: (docs: formats):
  #   hyperfine | pytest-benchmark | pyperf | google-benchmark | asv | serving, with benchmark: and metric:
  # low: {{pointer: /ci/low}}            # an interval the artifact reports itself (with high:)
  # high: {{pointer: /ci/high}}
  # A derived value instead of evidence/pointer:
  #   expr: ours / theirs               # + - * /, parentheses, mean(a, b) over the inputs' names; no numbers
  #   inputs:
  #     ours: {{evidence: evidence/compare.json, pointer: /ours/tok_s, unit: tok/s}}
  #     theirs: {{evidence: evidence/compare.json, pointer: /theirs/tok_s, unit: tok/s}}
"""

GITIGNORE = "/site/\n/.site-*/\n"  # anchored: the ledger's own, not every folder of that name below


def _schemas() -> dict[str, str]:
    return {f"schema/{kind}.schema.json": json.dumps(json_schema(kind), indent=2, sort_keys=True) + "\n"
            for kind in sorted(MODELS)}


class Made(NamedTuple):
    """What init did: the files it wrote (with dry_run, would write), relative to top; a note for the user ('' when
    none); and the folder they are relative to (the repository's top: repo.place)."""

    written: list[str]
    note: str
    top: Path


def init(folder: Path, subject: str = "oursys", title: str = "Our scorecard", ci: str = "github",
         install: Origin | tuple[str, str] | None = None, example: bool = False, dry_run: bool = False,
         said: list[str] | None = None, workflow_name: str | None = None) -> Made:
    """A new ledger in folder: settings, one category (with example, a no-claim and a measured example dimension
    and its artifact: example text validate warns of until replaced), and tooling: the pre-commit hook and (with
    ci="github") the GitHub workflow, each installing scorecard from where install says (by default, where the
    running one came from: workflow.origin()). Without example no record: `scorecard new` makes the first.

    In a git repository the hook config and the workflow go to its top, where pre-commit and GitHub read them, set
    to the ledger's folder (repo.place); the workflow publishes no site where the repository publishes Pages
    already. A .gitignore and a .pre-commit-config.yaml there already are added to, never replaced
    (cli/existing.py); said gets a line for each, and for what is left to do by hand. With dry_run nothing is
    written."""
    from .repo import PlaceRefused, place
    from .repo import workflow_name as named

    said = said if said is not None else []

    short_names(folder)
    if (folder / SETTINGS_FILE).exists():
        raise ScaffoldRefused(f"{folder} already holds a ledger ({SETTINGS_FILE}); nothing was written")
    if folder.exists() and not folder.is_dir():
        raise ScaffoldRefused(f"{folder} is a file; nothing was written")
    try:
        where, name = place(folder, ci == "github"), named(workflow_name)
    except PlaceRefused as exc:
        raise ScaffoldRefused(str(exc)) from None
    files = {where.rel(rel): text for rel, text in _ledger_files(subject, title, example).items()}
    from .workflow import Origin, running_origin, workflow_text

    found = Origin(*install) if isinstance(install, tuple) else install or running_origin()
    files[".pre-commit-config.yaml"] = precommit_text(found, where.ledger)
    if ci == "github":
        files[f".github/workflows/{name}"] = workflow_text(found.spec, found.note, where.ledger, where.pages, name)
        if where.pages:
            said.append(
                f"note: {where.pages}, so .github/workflows/{name} checks pull requests and publishes nothing "
                "(docs/getting-started.md says how to build the scorecard into your site)")
    from .existing import edits_of

    edits = edits_of(where.top, files, said, precommit_entry(found, where.ledger),
                     (where.rel(".gitignore"), ".pre-commit-config.yaml"))
    writable(where.top, files)  # a dry run is refused as the run would be
    if dry_run:
        return Made(sorted(files), found.note, where.top)

    def edit() -> None:  # after the new files: a failed edit removes them again
        from .existing import apply
        from ..core.paths import EditRefused

        try:
            apply(edits, where.top)
        except (EditRefused, OSError) as exc:
            raise ScaffoldRefused(f"cannot add to an existing file: {exc}") from None

    return Made(write_all(where.top, files, edit if edits else None), found.note, where.top)


def _ledger_files(subject: str, title: str, example: bool) -> dict[str, str]:
    """The files of a new ledger's own folder (relative to it): settings, a category, .gitignore and the schemas,
    and with example the example dimensions."""
    files = {
        SETTINGS_FILE: SETTINGS.format(modeline=_modeline("scorecard", 0), title=yaml_text(title),
                                       subject=yaml_text(subject)),
        f"claims/performance/{CATEGORY_FILE}": CATEGORY.format(modeline=_modeline("category", 2), title="Performance",
                                                               slug="performance", order=10),
        ".gitignore": GITIGNORE,
        **_schemas(),
    }
    if example:
        files.update(_example_files())
    else:  # a category with no example text: the ledger validates and builds, with no dimension yet
        files[f"claims/performance/{CATEGORY_FILE}"] = files[f"claims/performance/{CATEGORY_FILE}"].replace(
            "summary: what this category covers      # optional, Markdown",
            "# summary: what this category covers    # optional, Markdown")
    return files


TOOL_RESULT = """result:                               # required for leads, parity, trails, inconclusive, simulated
  evidence: evidence/{evidence}        # {tool} output (recognised by the keys it always writes)
  format: {tool}               # read in the tool's own words: its runs, units and failed runs (docs: formats)
  benchmark: {benchmark}        # the tool's name for the entry{others}
{metric}  stat: median                        # over its runs: median (default), mean, p99, min or max
  # the tool states {unit}: unit: is the evidence's own (leave it out); to show the value in another unit, add
  # display_unit: ms at the record's top level
"""


def dimension_text(dim_id: str, status: str, depth: int = 2, evidence: str | None = None,
                   pointer: str = "/path/to/value", title: str | None = None, tool: Detected | None = None,
                   bar: TypedBar | None = None) -> str:
    """The text of a new dimension record with every field and a comment on each (a result in a tool's own words
    where its evidence is a tool's output). With a tool's evidence, what it does not give is left empty and marked
    REQUIRED (validate refuses it until filled in), never a placeholder number."""
    measured = status in MEASURED
    unit, better = (tool.unit, tool.better) if tool is not None else ("req/s", "higher")
    unit = _unit_text(unit)
    result = RESULT.format(evidence=evidence or f"{dim_id}.json", pointer=pointer, unit=unit)
    if tool is not None:
        metric = f"  metric: {tool.metric}                       # what the run measured\n" if tool.metric else ""
        result = TOOL_RESULT.format(evidence=evidence, tool=tool.name, benchmark=yaml_text(tool.benchmark),
                                    others=tool.others, unit=unit, metric=metric)
    value_line = "value: 100                          # optional number; needs unit and better"
    if bar is not None:
        value_line = f"value: {bar.value}                          # the bar's number (--bar)"
    elif tool is not None:
        value_line = "value:                              # REQUIRED: the bar's number, in the unit below"
    better_line = f"better: {better}                      # higher | lower" if better else \
        "better:                             # REQUIRED: higher | lower (the tool does not say which is better)"
    claim = {"no-claim": "no number yet", "out-of-scope": "not this system's axis"}.get(status, "our number, in words")
    trace = f"  - evidence/{evidence or dim_id + '.json'}\n" if measured else ""
    return DIMENSION.format(modeline=_modeline("dimension", depth),
                            title=yaml_text(title) if title else _from_slug(dim_id),
                            unit=_unit_text(bar.unit) if bar is not None else unit, value_line=value_line,
                            better_line=better_line,
                            date="2025-06", status=status, conditions=_conditions_text(tool),
                            statuses=" | ".join(STATUSES), claim=claim, result=result if measured else "", trace=trace)


def _conditions_text(tool: Detected | None) -> str:
    """A commented sota.conditions with the keys the tool's file records for ours (issue 44 item 7): the bar's, to
    state from its source; none where the file records none."""
    if tool is None or not tool.conditions:
        return ""
    ours = ", ".join(f"{key}: {yaml_text(value)}" for key, value in tool.conditions)
    keys = ", ".join(f"{key}: ?" for key, _ in tool.conditions)
    return (f"  # conditions: {{{keys}}}   # what the bar was measured on, from its source\n"
            f"  #   (ours, as the evidence records them: {{{ours}}})\n")


def _unit_text(unit: str) -> str:
    """A unit as YAML text: plain where YAML reads it as typed, else quoted ({requests}/s, %)."""
    return unit if re.fullmatch(r"[A-Za-z0-9µ_][A-Za-z0-9/%µ_.-]*", unit) else yaml_text(unit)


def _example_files() -> dict[str, str]:
    """init --example: a no-claim and a measured dimension and the artifact it reads, all example text (SC604 until
    replaced; history and the feed leave them out)."""
    return {
        "claims/performance/first-gap.yaml": dimension_text("first-gap", "no-claim", depth=2),
        "claims/performance/request-throughput.yaml": dimension_text(
            "request-throughput", "trails", depth=2, evidence="throughput.json", pointer="/runs/peak/requests_per_s"),
        "evidence/throughput.json": json.dumps({
            "meta": {"note": "EXAMPLE artifact made by scorecard init: replace it with your measurement",
                     "commit": "0000000", "date": "2026-01-01", "machine": "example", "command": "your benchmark"},
            "runs": {"peak": {"requests_per_s": 80}}}, indent=2) + "\n",
    }


def _from_slug(slug: str) -> str:
    """A title made from a slug, as YAML text: quoted where YAML would read it otherwise (123, null, true, 0)."""
    title = slug.replace("-", " ").capitalize()
    return title if re.fullmatch(r"[A-Za-z][A-Za-z0-9 ]*", title) and title.lower() not in _YAML_WORDS \
        else yaml_text(title)


_YAML_WORDS = frozenset({"null", "true", "false", "yes", "no", "on", "off", "y", "n"})


def _next_order(root: Path) -> int:
    """An order after every category's (10 past the largest), so a new category comes last."""
    largest = 0
    for meta in (root / "claims").glob(f"*/{CATEGORY_FILE}"):
        found = re.search(r"^order:\s*(-?\d{1,9})\s*(#.*)?$", meta.read_text(encoding="utf-8", errors="replace"), re.M)
        if found:
            largest = max(largest, int(found[1]))
    return (largest // 10 + 1) * 10


def _evidence_path(evidence: str | None, status: str) -> str | None:
    """--evidence as a plain path below evidence/, for a measured status; refused otherwise."""
    if evidence is None:
        return None
    if status not in MEASURED:
        raise ScaffoldRefused(f"--evidence goes with a measured status ({', '.join(sorted(MEASURED))}); "
                              f"status {status} has no result")
    evidence = evidence.removeprefix("evidence/")
    if not re.fullmatch(r"[\w.@+-]+(/[\w.@+-]+)*", evidence):
        raise ScaffoldRefused(f"--evidence {evidence!r} is not a plain path under evidence/ (letters, digits, "
                              "- _ . @ + and /)")
    return evidence


def new(root: Path, target: str, status: str | None = None, title: str | None = None,
        category_title: str | None = None, evidence: str | None = None, fmt: str | None = None,
        benchmark: str | None = None, metric: str | None = None, bar: str | None = None) -> tuple[list[str], str]:
    """A new dimension claims/CATEGORY/ID.yaml (and the category's _category.yaml if missing), and what to say of
    its status. Without --status: the status the evidence gives against --bar, else inconclusive (with evidence)
    or no-claim."""
    from .newrecord import detect, evidence_status, parse_bar, set_status

    category, _, dim_id = target.partition("/")
    for kind, slug in (("category", category), ("dimension id", dim_id)):
        if not SLUG_RE.fullmatch(slug or ""):
            raise ScaffoldRefused(f"{kind} '{slug}' is not a slug (lowercase letters, digits, single hyphens); "
                                  "write CATEGORY/ID, e.g. cost-efficiency/goodput")
    asked = status
    status = status or ("inconclusive" if evidence is not None else "no-claim")
    if status not in STATUSES:
        raise ScaffoldRefused(f"status must be one of {', '.join(STATUSES)}")
    taken = sorted((root / "claims").glob(f"*/{dim_id}.yaml"))
    if taken:
        raise ScaffoldRefused(f"id '{dim_id}' is used already by {taken[0].relative_to(root).as_posix()} "
                              "(ids are unique across the ledger); nothing was written")
    for kind, text in (("title", title), ("category title", category_title)):
        if text is not None and (not text.strip() or "\n" in text or "\r" in text):
            raise ScaffoldRefused(f"the {kind} must be one line of text")
    evidence = _evidence_path(evidence, status)
    tool = detect(root, evidence, fmt, benchmark, metric) if evidence is not None else None
    typed = parse_bar(bar, tool) if bar is not None else None
    rel = f"claims/{category}/{dim_id}.yaml"
    files = {rel: dimension_text(dim_id, status, title=title, evidence=evidence, tool=tool, bar=typed)}
    if not (root / "claims" / category / CATEGORY_FILE).exists():
        files[f"claims/{category}/{CATEGORY_FILE}"] = CATEGORY.format(
            modeline=_modeline("category", 2), slug=category, order=_next_order(root),
            title=yaml_text(category_title) if category_title else _from_slug(category))
    written = write_all(root, files)
    if typed is None or tool is None or tool.better is None:
        return written, ""
    gives = evidence_status(root, rel) or status
    if gives != status and asked is None:
        set_status(root / rel, status, gives)
    said = f"the evidence gives {gives} against the bar of {typed.value} {typed.unit}"
    return written, said if asked is None or gives == asked else f"{said}, not {asked}: fix status: before committing"
